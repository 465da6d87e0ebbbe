//! `spinneret graph` on the [`crate::driver`]: its [`GraphJob`] turns each
//! item into host pairs ([`job`]); the sink hands them, in input order, to
//! a [`HostGraphBuilder`], which numbers and sorts them within `--memory`
//! once every input is read; the files go into `-o DIR`
//! (`host/vertices.txt.gz`, `host/edges.txt.gz`), and with `--domain` the
//! host graph is read back and folded into `domain/`.
//!
//! Files: [`args`] (the flags), [`job`] (an item to its pairs), [`pairs`]
//! (`--pairs` files, text or Parquet).
//!
//! Stops: a bad record is reported on the diagnostic stream (`file: offset
//! N: what`) and counted; an input that cannot be read is reported,
//! counted, and makes the exit code 1 once the rest is done; with
//! `--strict` the run stops at either (exit code 2) and writes no graph.
//!
//! Invariant: the files depend only on the inputs and the naming options,
//! never on `--threads`, `--batch` or `--memory`.

pub mod args;
pub mod job;
pub mod pairs;

use std::io::{self, Write};
use std::path::Path;
use std::time::Instant;

use serde::Serialize;
use spinneret_graph::files::{self, GzLines};
use spinneret_graph::{
    BuildOptions, BuildStats, DomainOptions, FoldStats, HostGraphBuilder, SurtHostOptions,
    fold_domains,
};
use spinneret_warc::Options;

pub use args::GraphArgs;
use job::{Class, GraphJob, Pairs};

use crate::Error;
use crate::driver::{self, Drive, Flow, Report, Sink, Status};
use crate::inputs;
use crate::outputs;

/// What a run read and wrote (`--stats FILE`, and the summary line).
#[derive(Debug, Default, Serialize)]
pub struct Stats {
    /// Records and pages read.
    pub items: u64,
    /// Pages whose host is a vertex.
    pub pages: u64,
    /// Responses without a host the rules keep.
    pub no_host: u64,
    /// Records of other types.
    pub skipped: u64,
    /// Bad records.
    pub bad_records: u64,
    /// Inputs that could not be read.
    pub unreadable_inputs: u64,
    /// Host pairs from `--pairs` files.
    pub pair_lines: u64,
    /// Lines of `--pairs` files that are not two host names.
    pub bad_pair_lines: u64,
    /// Input bytes of the crawl files.
    pub bytes: u64,
    /// The host graph's build.
    pub host: BuildCounts,
    /// The domain graph's fold (with `--domain`).
    pub domain: Option<FoldCounts>,
    /// Seconds, wall clock.
    pub seconds: f64,
    /// Why the run stopped early, if it did.
    pub stopped: Option<&'static str>,
}

/// [`BuildStats`] as `--stats` writes it.
#[derive(Debug, Default, Serialize)]
pub struct BuildCounts {
    /// Pairs given to the graph (a vertex alone counts as one).
    pub pairs: u64,
    /// Distinct pairs.
    pub distinct_pairs: u64,
    /// Vertices.
    pub vertices: u64,
    /// Edges.
    pub edges: u64,
    /// Host names left out (a top-level domain IANA does not delegate).
    pub invalid_names: u64,
    /// Runs the sorts spilled (0: all in memory).
    pub spilled_runs: u64,
    /// Bytes the vertex table held.
    pub vertex_table_bytes: u64,
    /// Whether the BVGraph and the ranks were written.
    pub ranked: bool,
}

impl From<BuildStats> for BuildCounts {
    fn from(s: BuildStats) -> BuildCounts {
        BuildCounts {
            pairs: s.pairs_in,
            distinct_pairs: s.distinct_pairs,
            vertices: s.vertices,
            edges: s.edges,
            invalid_names: s.invalid_names,
            spilled_runs: s.pair_sort.runs + s.name_sort.runs,
            vertex_table_bytes: s.vertex_table_bytes,
            ranked: false,
        }
    }
}

/// [`FoldStats`] as `--stats` writes it.
#[derive(Debug, Default, Serialize)]
pub struct FoldCounts {
    /// Domains.
    pub vertices: u64,
    /// Domain edges.
    pub edges: u64,
    /// Hosts with no domain (dropped).
    pub hosts_without_domain: u64,
    /// Whether the BVGraph and the ranks were written.
    pub ranked: bool,
}

impl From<FoldStats> for FoldCounts {
    fn from(s: FoldStats) -> FoldCounts {
        FoldCounts {
            vertices: s.domains,
            edges: s.edges,
            hosts_without_domain: s.hosts_without_domain,
            ranked: false,
        }
    }
}

/// The result of a run.
#[derive(Debug)]
pub struct RunResult {
    /// How the run ended.
    pub status: Status,
    /// What it read and wrote.
    pub stats: Stats,
}

impl RunResult {
    /// The process exit code: 2 for a strict stop; 1 when an input could
    /// not be read (the rest was processed); else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Strict => 2,
            Status::Complete if self.stats.unreadable_inputs > 0 => 1,
            Status::Complete | Status::OutputClosed => 0,
        }
    }
}

/// Hands each item's pairs to the graph.
struct GraphSink<'a> {
    builder: &'a mut HostGraphBuilder,
    stats: &'a mut Stats,
    error: Option<spinneret_graph::GraphError>,
}

impl Sink<Pairs> for GraphSink<'_> {
    fn write(&mut self, done: Pairs, report: &mut Report<'_>) -> Result<Flow, Error> {
        self.stats.items += 1;
        match done.class {
            Class::Page => self.stats.pages += 1,
            Class::NoHost => self.stats.no_host += 1,
            Class::Skipped => self.stats.skipped += 1,
            Class::Bad(msg) => {
                self.stats.bad_records += 1;
                return Ok(report.problem("bad record", &msg));
            }
            Class::Unreadable(msg) => {
                self.stats.items -= 1;
                self.stats.unreadable_inputs += 1;
                return Ok(report.problem("cannot read", &msg));
            }
        }
        if let Some(source) = &done.source {
            let pushed = self.builder.add_vertex(source).and_then(|()| {
                done.targets
                    .iter()
                    .try_for_each(|t| self.builder.add_pair(source, t))
            });
            if let Err(e) = pushed {
                self.error = Some(e);
                return Ok(Flow::Stop(Status::OutputClosed));
            }
        }
        Ok(Flow::Go)
    }
}

/// Runs `spinneret graph`: the graph's files into `args.output`,
/// bad-record lines and the summary to `diag`, a progress bar on stderr
/// when `progress`.
pub fn run(args: &GraphArgs, diag: &mut dyn Write, progress: bool) -> Result<RunResult, Error> {
    let start = Instant::now();
    let hosts = SurtHostOptions {
        strip_www: args.strip_www,
    };
    let mut builder = HostGraphBuilder::new(BuildOptions {
        memory: usize::try_from(args.memory).unwrap_or(usize::MAX),
        temp_dir: args.temp_dir.clone(),
        validate_tld: !args.any_tld,
    });
    let mut stats = Stats::default();
    let mut status = Status::Complete;
    let has_crawl_inputs = !args.input.inputs.is_empty() || args.input.manifest.is_some();
    if !has_crawl_inputs && args.pairs.is_empty() {
        return Err(Error::NoInput);
    }
    if has_crawl_inputs {
        let sources = args.input.sources_with_page(None, None)?;
        let how = Drive {
            threads: args.workers.threads,
            batch: usize::try_from(args.batch).unwrap_or(usize::MAX),
            opts: Options {
                max_record_size: args.max_record_size,
                ..Options::default()
            },
            strict: args.strict,
            progress,
        };
        let _ = inputs::count(&sources);
        let mut sink = GraphSink {
            builder: &mut builder,
            stats: &mut stats,
            error: None,
        };
        let driven = driver::drive(&sources, &GraphJob { hosts }, &mut sink, &how, diag)?;
        if let Some(e) = sink.error.take() {
            return Err(Error::Graph(e));
        }
        stats.bytes = driven.bytes;
        status = driven.status;
    }
    for arg in &args.pairs {
        for path in pairs::pair_files(arg)? {
            let counts = pairs::read_pairs(&path, &mut builder, diag)?;
            stats.pair_lines += counts.pairs;
            stats.bad_pair_lines += counts.bad;
        }
    }
    if status == Status::Strict {
        stats.stopped = status.stopped();
        let _ = writeln!(
            diag,
            "spinneret graph: stopped (--strict): no graph written"
        );
        return Ok(RunResult { status, stats });
    }
    write_graph(args, builder, &mut stats)?;
    stats.seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &args.stats {
        outputs::write_stats(path, &stats)?;
    }
    let _ = writeln!(diag, "{}", summary(&stats));
    Ok(RunResult { status, stats })
}

/// Numbers and writes the host graph, then folds the domain graph.
fn write_graph(
    args: &GraphArgs,
    builder: HostGraphBuilder,
    stats: &mut Stats,
) -> Result<(), Error> {
    let host_dir = args.output.join("host");
    create_dir(&host_dir)?;
    let vertices_path = host_dir.join("vertices.txt.gz");
    let edges_path = host_dir.join("edges.txt.gz");
    let mut vertices =
        GzLines::create(&vertices_path).map_err(|e| create_error(&vertices_path, e))?;
    let mut edges = GzLines::create(&edges_path).map_err(|e| create_error(&edges_path, e))?;
    let built = builder.finish(
        &mut |id, name| vertices.vertex(id, name, None),
        &mut |from, to| edges.edge(from, to),
    )?;
    vertices.finish().map_err(Error::Output)?;
    edges.finish().map_err(Error::Output)?;
    stats.host = built.into();
    if !args.no_ranks {
        stats.host.ranked = rank(args, &host_dir)?;
    }
    if !args.domain {
        return Ok(());
    }
    let domain_dir = args.output.join("domain");
    create_dir(&domain_dir)?;
    let dv_path = domain_dir.join("vertices.txt.gz");
    let de_path = domain_dir.join("edges.txt.gz");
    let mut dv = GzLines::create(&dv_path).map_err(|e| create_error(&dv_path, e))?;
    let mut de = GzLines::create(&de_path).map_err(|e| create_error(&de_path, e))?;
    let options = DomainOptions {
        aggregation: args.aggregation.into(),
        multipart_suffixes_as_domains: args.multipart_suffixes_as_domains,
        memory: usize::try_from(args.memory).unwrap_or(usize::MAX),
        temp_dir: args.temp_dir.clone(),
    };
    let mut host_vertices =
        files::read_vertices(&vertices_path).map_err(|e| input_error(&vertices_path, e))?;
    let mut host_edges = files::read_edges(&edges_path).map_err(|e| input_error(&edges_path, e))?;
    let folded = fold_domains(
        &mut host_vertices,
        &mut host_edges,
        &options,
        &mut |id, name, n| dv.vertex(id, name, Some(n)),
        &mut |from, to| de.edge(from, to),
    )?;
    dv.finish().map_err(Error::Output)?;
    de.finish().map_err(Error::Output)?;
    let mut folded: FoldCounts = folded.into();
    if !args.no_ranks {
        folded.ranked = rank(args, &domain_dir)?;
    }
    stats.domain = Some(folded);
    Ok(())
}

/// The BVGraph of the graph in `dir` (its `vertices.txt.gz` and
/// `edges.txt.gz`), its transpose, its ranks and degrees: whether they were
/// written (not without the `webgraph` feature).
#[cfg(feature = "webgraph")]
fn rank(args: &GraphArgs, dir: &Path) -> Result<bool, Error> {
    use spinneret_graph::ranks::{self, RankOptions};
    let vertices_path = dir.join("vertices.txt.gz");
    let edges_path = dir.join("edges.txt.gz");
    let mut names = Vec::new();
    for v in files::read_vertices_with_hosts(&vertices_path)
        .map_err(|e| input_error(&vertices_path, e))?
    {
        let (_, name, hosts) = v?;
        names.push((name, hosts));
    }
    let mut edges = files::read_edges(&edges_path).map_err(|e| input_error(&edges_path, e))?;
    let options = RankOptions {
        alpha: args.alpha,
        log2m: args.log2m,
        ..RankOptions::default()
    };
    let ranked =
        ranks::compress_and_rank(&dir.join("graph"), names.len() as u64, &mut edges, &options)?;
    let ranks_path = dir.join("ranks.txt.gz");
    let mut out = GzLines::create(&ranks_path).map_err(|e| create_error(&ranks_path, e))?;
    ranks::write_ranks(out.writer(), &ranked, &names).map_err(Error::Output)?;
    out.finish().map_err(Error::Output)?;
    let degrees_path = dir.join("outdegrees-indegrees.txt.gz");
    let mut out = GzLines::create(&degrees_path).map_err(|e| create_error(&degrees_path, e))?;
    ranks::write_degrees(out.writer(), &ranked, &names).map_err(Error::Output)?;
    out.finish().map_err(Error::Output)?;
    Ok(true)
}

/// Without the `webgraph` feature: the text files only.
#[cfg(not(feature = "webgraph"))]
fn rank(_args: &GraphArgs, _dir: &Path) -> Result<bool, Error> {
    Ok(false)
}

fn create_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| create_error(dir, e))
}

fn create_error(path: &Path, source: io::Error) -> Error {
    Error::Create {
        path: path.display().to_string(),
        source,
    }
}

fn input_error(path: &Path, source: io::Error) -> Error {
    Error::Input {
        path: path.display().to_string(),
        source,
    }
}

fn summary(stats: &Stats) -> String {
    let mut counts = vec![
        (stats.pages, "pages"),
        (stats.host.vertices, "hosts"),
        (stats.host.edges, "host edges"),
    ];
    if let Some(d) = &stats.domain {
        counts.push((d.vertices, "domains"));
        counts.push((d.edges, "domain edges"));
    }
    if stats.bad_records > 0 {
        counts.push((stats.bad_records, "bad records"));
    }
    if stats.pair_lines > 0 {
        counts.push((stats.pair_lines, "pair lines"));
    }
    outputs::summary(
        "graph",
        &counts,
        stats.bytes,
        std::time::Duration::from_secs_f64(stats.seconds),
    )
}

/// `spinneret graph` as the binary runs it: problems and the summary to
/// standard error; the exit code.
pub fn exec(args: &GraphArgs) -> Result<u8, Error> {
    let mut diag = io::stderr();
    Ok(run(args, &mut diag, outputs::progress_shown())?.exit_code())
}
