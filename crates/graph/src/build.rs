//! A host graph from host pairs, as `hostlinks_to_graph.py` builds it:
//! vertices are the distinct host names of the pairs, sorted in byte order
//! and numbered 0..n−1 in that order; edges are the distinct pairs as
//! `from<TAB>to` ids, sorted numerically, self-loops left out after
//! numbering (so a host that only links to itself, or a page without
//! links, is still a vertex).
//!
//! # Design: two external sorts, one in-memory vertex table
//!
//! - **Pairs** (`src<TAB>dst` lines, reversed host names) go into an
//!   [`ExternalSorter`] as they come. Host names are ASCII `[a-z0-9._-]`
//!   (the invariant of [`crate::surt_host`]), every byte above the tab, so
//!   the lines' byte order is the order of `(src, dst)`.
//! - [`HostGraphBuilder::finish`] streams the sorted pairs once, drops
//!   repeats, writes the distinct pairs to a temporary file and gives both
//!   names of each to a second sorter: its distinct output, in byte order,
//!   is the vertex list. Names that fail validation (a top-level domain
//!   IANA does not delegate) are left out, as the Python job's inner join
//!   leaves them out.
//! - The vertex names are kept in one arena (their bytes, and a 64-bit
//!   offset each: **name length + 8 bytes per vertex**), and the distinct
//!   pairs are read back: each name's id is its rank, found by binary
//!   search. Since ids rise with names, the pairs' `(src, dst)` order *is*
//!   the ids' numeric order: the edges come out sorted without a third
//!   sort.
//!
//! Memory: the two sorters share [`BuildOptions::memory`] (half each);
//! beyond them only the vertex table, whatever the number of edges.
//! Disk: the sorters' runs and the distinct pairs, once each.
//!
//! Invariants: vertices strictly increasing in byte order, ids 0..n−1 with
//! no gap; edges strictly increasing in `(from, to)`, no self-loop, both
//! ends vertices. The output depends only on the multiset of pairs pushed,
//! never on their order or on the memory budget.

use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;

use spinneret_index::sort::{ExternalSorter, SortOptions, SortStats};

use crate::GraphError;
use crate::host::has_iana_tld;

/// How a graph is built.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// The memory the sorts may hold, in bytes (both together).
    pub memory: usize,
    /// Where the sorts' runs and the distinct pairs go (the system's
    /// temporary folder by default).
    pub temp_dir: Option<PathBuf>,
    /// Keep only host names whose top-level domain IANA delegates
    /// (`hostlinks_to_graph.py --validate_host_names`, which Common
    /// Crawl's graphs use).
    pub validate_tld: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            memory: 512 * 1024 * 1024,
            temp_dir: None,
            validate_tld: true,
        }
    }
}

/// What a build saw and wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Pairs pushed (repeats included; a vertex alone counts as one).
    pub pairs_in: u64,
    /// Distinct pairs (vertex-only pairs included).
    pub distinct_pairs: u64,
    /// Vertices written.
    pub vertices: u64,
    /// Host names left out by validation.
    pub invalid_names: u64,
    /// Edges written.
    pub edges: u64,
    /// Distinct pairs that were self-loops (a vertex alone, or a host
    /// linking to itself).
    pub self_loops: u64,
    /// Distinct pairs with an end left out by validation.
    pub dropped_pairs: u64,
    /// The pairs' sort, and the names' sort.
    pub pair_sort: SortStats,
    /// The names' sort.
    pub name_sort: SortStats,
    /// Bytes the vertex table held (names and offsets).
    pub vertex_table_bytes: u64,
}

/// Collects host pairs, then numbers the vertices and writes the graph
/// ([`HostGraphBuilder::finish`]).
pub struct HostGraphBuilder {
    options: BuildOptions,
    pairs: ExternalSorter,
    line: Vec<u8>,
    pushed: u64,
}

impl HostGraphBuilder {
    /// An empty graph.
    pub fn new(options: BuildOptions) -> HostGraphBuilder {
        let pairs = ExternalSorter::new(sort_options(&options));
        HostGraphBuilder {
            options,
            pairs,
            line: Vec::new(),
            pushed: 0,
        }
    }

    /// An edge from host `src` to host `dst`, both reversed host names as
    /// [`crate::surt_host`] makes them (`src == dst` makes `src` a vertex
    /// only).
    pub fn add_pair(&mut self, src: &str, dst: &str) -> Result<(), GraphError> {
        check_name(src)?;
        check_name(dst)?;
        self.line.clear();
        self.line.extend_from_slice(src.as_bytes());
        self.line.push(b'\t');
        self.line.extend_from_slice(dst.as_bytes());
        self.pushed += 1;
        self.pairs.push(&self.line).map_err(GraphError::Sort)
    }

    /// Host `name` as a vertex, whatever its links.
    pub fn add_vertex(&mut self, name: &str) -> Result<(), GraphError> {
        self.add_pair(name, name)
    }

    /// Numbers the vertices and gives them to `vertex` (`id`, name) in id
    /// order, then the edges to `edge` (`from`, `to`) in numeric order.
    pub fn finish(
        self,
        vertex: &mut dyn FnMut(u64, &str) -> io::Result<()>,
        edge: &mut dyn FnMut(u64, u64) -> io::Result<()>,
    ) -> Result<BuildStats, GraphError> {
        let HostGraphBuilder {
            options,
            pairs,
            pushed,
            ..
        } = self;
        let mut stats = BuildStats {
            pairs_in: pushed,
            ..BuildStats::default()
        };
        // The distinct pairs to a file, their names to the second sort.
        let scratch = tempfile_in(&options)?;
        let mut distinct = BufWriter::with_capacity(1 << 16, scratch.reopen()?);
        let mut names = ExternalSorter::new(sort_options(&options));
        let mut last: Vec<u8> = Vec::new();
        let mut first = true;
        let mut name_error = None;
        stats.pair_sort = pairs
            .finish(&mut |line| {
                if !first && line == last.as_slice() {
                    return Ok(());
                }
                first = false;
                last.clear();
                last.extend_from_slice(line);
                stats.distinct_pairs += 1;
                distinct.write_all(line)?;
                distinct.write_all(b"\n")?;
                let (src, dst) = split_pair(line);
                for name in [src, dst] {
                    if let Err(e) = names.push(name) {
                        name_error = Some(e);
                        return Err(io::Error::other("the names' sort failed"));
                    }
                }
                Ok(())
            })
            .map_err(|e| match name_error.take() {
                Some(e) => GraphError::Sort(e),
                None => GraphError::Sort(e),
            })?;
        distinct.flush()?;
        drop(distinct);

        // The vertices: distinct names in byte order, validated.
        let mut table = VertexTable::default();
        let mut last: Vec<u8> = Vec::new();
        let mut first = true;
        let mut sink_error = None;
        stats.name_sort = names
            .finish(&mut |name| {
                if !first && name == last.as_slice() {
                    return Ok(());
                }
                first = false;
                last.clear();
                last.extend_from_slice(name);
                // Names were checked ASCII when pushed.
                let name = std::str::from_utf8(name).unwrap_or_default();
                if options.validate_tld && !has_iana_tld(name) {
                    stats.invalid_names += 1;
                    return Ok(());
                }
                let id = table.len();
                table.push(name);
                vertex(id, name).inspect_err(|_| sink_error = Some(()))
            })
            .map_err(|e| match (e, sink_error) {
                (spinneret_index::sort::SortError::Sink(io), Some(())) => GraphError::Output(io),
                (e, _) => GraphError::Sort(e),
            })?;
        stats.vertices = table.len();
        stats.vertex_table_bytes = table.bytes();

        // The edges: the distinct pairs, numbered, in the same order.
        let reader = BufReader::with_capacity(1 << 16, scratch.reopen()?);
        for line in reader.split(b'\n') {
            let line = line?;
            let (src, dst) = split_pair(&line);
            match (table.id(src), table.id(dst)) {
                (Some(from), Some(to)) if from == to => stats.self_loops += 1,
                (Some(from), Some(to)) => {
                    edge(from, to).map_err(GraphError::Output)?;
                    stats.edges += 1;
                }
                _ => stats.dropped_pairs += 1,
            }
        }
        Ok(stats)
    }
}

/// A host name must be what [`crate::surt_host`] gives: ASCII letters,
/// digits, `.`, `-`, `_` (so no tab or newline, and every byte sorts above
/// the tab).
fn check_name(name: &str) -> Result<(), GraphError> {
    let valid = !name.is_empty()
        && name.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'_')
        });
    if valid {
        Ok(())
    } else {
        Err(GraphError::HostName(name.to_owned()))
    }
}

/// `src<TAB>dst` split at its tab.
fn split_pair(line: &[u8]) -> (&[u8], &[u8]) {
    match memchr_tab(line) {
        Some(i) => (&line[..i], &line[i + 1..]),
        None => (line, line),
    }
}

fn memchr_tab(line: &[u8]) -> Option<usize> {
    line.iter().position(|&b| b == b'\t')
}

fn sort_options(options: &BuildOptions) -> SortOptions {
    SortOptions {
        memory: (options.memory / 2).max(64 * 1024),
        temp_dir: options.temp_dir.clone(),
    }
}

/// A temporary file (removed when dropped) in the build's folder.
fn tempfile_in(options: &BuildOptions) -> Result<tempfile::NamedTempFile, GraphError> {
    let dir = options.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    Ok(tempfile::Builder::new()
        .prefix("spinneret-graph-pairs-")
        .tempfile_in(dir)?)
}

/// The vertex names in id order, one arena: the id of a name is found by
/// binary search (the names are strictly increasing).
#[derive(Default)]
struct VertexTable {
    bytes: Vec<u8>,
    /// Where each name ends in `bytes`.
    ends: Vec<u64>,
}

impl VertexTable {
    fn len(&self) -> u64 {
        self.ends.len() as u64
    }

    fn bytes(&self) -> u64 {
        (self.bytes.capacity() + self.ends.capacity() * 8) as u64
    }

    fn push(&mut self, name: &str) {
        self.bytes.extend_from_slice(name.as_bytes());
        self.ends.push(self.bytes.len() as u64);
    }

    fn name(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.bytes[start..self.ends[i] as usize]
    }

    fn id(&self, name: &[u8]) -> Option<u64> {
        let (mut lo, mut hi) = (0usize, self.ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.name(mid).cmp(name) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid as u64),
            }
        }
        None
    }
}
