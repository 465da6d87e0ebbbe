//! External merge sort of lines in byte order, with bounded memory.
//!
//! Replay indexes (CDX, CDXJ, ZipNum) must be sorted exactly as
//! `LC_ALL=C sort` sorts: lines compared as unsigned bytes, a line that is a
//! prefix of another first, duplicates kept. Indexes of large crawls do not
//! fit in memory, so [`ExternalSorter`] sorts runs that do, spills them to
//! temporary files and merges them.
//!
//! # Design
//!
//! - **Accumulation.** Pushed lines are appended to one arena (`Vec<u8>`)
//!   and indexed by a `Vec` of `(start, len)` pairs: no allocation per line.
//!   Both vectors grow by doubling, capped so that their *capacities*
//!   (arena bytes plus [`INDEX_ENTRY_BYTES`] per index slot) stay within
//!   [`SortOptions::memory`]. When the next line would not fit, the held
//!   lines are sorted as one run (in parallel on rayon's pool) and written to
//!   a temporary file, one line and a `'\n'` each. After the first spill the
//!   two vectors are re-cut to the budget in the proportion of the mean line
//!   length seen so far, so later runs use the whole budget.
//! - **Lines longer than the budget** still work: a line that does not fit
//!   in an empty buffer is taken anyway and becomes a run of one line; the
//!   buffers are cut back to the budget at the next spill.
//! - **No spill, no files.** If every line fit, [`ExternalSorter::finish`]
//!   sorts in memory and streams the lines to the sink.
//! - **Merge.** Otherwise the rest is spilled as a last run and the arena
//!   freed; a k-way merge (a [`BinaryHeap`] whose entries own each run's
//!   current line, one buffered reader per run) streams to the sink. The
//!   fan-in is `max(2, memory / reader buffer)` with a reader buffer of
//!   [`MERGE_BUFFER`] bytes (less for budgets under 128 KiB, at least 4 KiB).
//!   With more runs than that, intermediate passes merge groups of runs into
//!   new runs first (the last of them only as many runs as needed to bring
//!   the count down to the fan-in), deleting their inputs as they go.
//! - **Temporary files** live in a private folder created on the first spill
//!   in [`SortOptions::temp_dir`] (default [`std::env::temp_dir`]) and
//!   removed with its files when the sorter is dropped: after `finish`,
//!   after an error, or without `finish`.
//! - **Runs that outlive the sorter** (a resumable run, `index --resume`):
//!   [`ExternalSorter::persist`] spills what is held and moves the runs
//!   spilled so far into a folder of the caller's, synced to disk;
//!   [`ExternalSorter::adopt`] gives such runs to a new sorter after a
//!   stop. Both sorters read them and neither removes them (the merge
//!   removes only runs in its private folder): the caller removes them
//!   once the output is whole. Since the output is the multiset of lines
//!   in byte order, it does not depend on where the runs were cut.
//!
//! # Invariants
//!
//! - A line never contains `'\n'` ([`ExternalSorter::push`] rejects one with
//!   [`SortError::Newline`]), so a spill file splits back into exactly the
//!   lines written.
//! - The output is the multiset of pushed lines in byte order. Equal lines
//!   are byte-identical, so the sort need not be stable.
//! - A sink error is returned unchanged as [`SortError::Sink`] and stops the
//!   sort: a caller writing to a closed pipe can treat `BrokenPipe` as a
//!   normal end.
//!
//! # Memory bound
//!
//! [`SortStats::peak_bytes`] is the largest sum, at any one time, of the
//! capacities this module allocated and holds: the arena, the index, a
//! spill writer's buffer ([`SPILL_BUFFER`]), the merge readers' buffers and
//! the merge heap's line buffers. It stays within
//!
//! - `memory + SPILL_BUFFER` while accumulating; when one line exceeds the
//!   budget, `memory + that line + SPILL_BUFFER` at most (the index keeps
//!   its capacity while the arena holds the line alone);
//! - `fan_in * (reader buffer + line buffer) + SPILL_BUFFER` while merging,
//!   where a line buffer holds at most twice the longest line.
//!
//! Reallocation while a vector grows may briefly hold the old and the new
//! block (the allocator often grows large blocks in place); that transient
//! is not counted. Memory of rayon's pool, the file handles and the heap's
//! own slots (two words a run) is not counted either.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::collections::binary_heap::PeekMut;
use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use rayon::slice::ParallelSliceMut;

/// Bytes one held line costs in the index besides its bytes in the arena.
pub const INDEX_ENTRY_BYTES: usize = std::mem::size_of::<(usize, usize)>();

/// Buffer of each run reader during a merge (budgets of 128 KiB and more).
pub const MERGE_BUFFER: usize = 64 * 1024;

/// Smallest run reader buffer, used when the budget is tiny.
const MIN_MERGE_BUFFER: usize = 4 * 1024;

/// Buffer of the writer of a spilled or merged run.
pub const SPILL_BUFFER: usize = 64 * 1024;

/// First arena capacity (or the budget, if smaller).
const INITIAL_ARENA: usize = 64 * 1024;

/// First index capacity in lines (or what the budget allows, if fewer).
const INITIAL_INDEX: usize = 1024;

/// Settings of an [`ExternalSorter`].
#[derive(Debug, Clone)]
pub struct SortOptions {
    /// Bytes of held lines (arena plus index, by capacity) before a run is
    /// spilled to a temporary file. Also sizes the merge's fan-in.
    pub memory: usize,
    /// Folder in which the private temporary folder is created; `None` for
    /// [`std::env::temp_dir`].
    pub temp_dir: Option<PathBuf>,
}

impl Default for SortOptions {
    /// A 256 MiB budget in the system's temporary folder.
    fn default() -> Self {
        SortOptions {
            memory: 256 * 1024 * 1024,
            temp_dir: None,
        }
    }
}

/// What a sort did, returned by [`ExternalSorter::finish`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SortStats {
    /// Lines pushed (and given to the sink, unless it stopped the sort).
    pub lines: u64,
    /// Sorted runs written to temporary files before merging (0 when the
    /// input was sorted in memory). Runs written by intermediate merge
    /// passes are not counted.
    pub runs: u64,
    /// Merge passes over the data, the last one into the sink included
    /// (0 when nothing was spilled).
    pub merge_passes: u32,
    /// Largest number of bytes held at once (see the module's memory bound).
    pub peak_bytes: usize,
}

/// Why a sort failed.
#[derive(Debug, thiserror::Error)]
pub enum SortError {
    /// Creating, writing or reading a temporary file or folder failed.
    #[error("temporary file {}: {source}", path.display())]
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The sink returned this error; the sort stopped there. A closed pipe
    /// shows as `io::ErrorKind::BrokenPipe`, unchanged.
    #[error("output: {0}")]
    Sink(#[source] io::Error),
    /// A pushed line contained `'\n'`; it was not taken and the sorter is
    /// unchanged.
    #[error("line {line} contains a newline at byte {offset}")]
    Newline {
        /// 0-based number of the line among those pushed.
        line: u64,
        /// Byte offset of the first `'\n'` in it.
        offset: usize,
    },
}

/// Sorts lines in byte order with bounded memory (see the module docs).
#[derive(Debug)]
pub struct ExternalSorter {
    memory: usize,
    temp_parent: PathBuf,
    arena: Vec<u8>,
    index: Vec<(usize, usize)>,
    temp: Option<tempfile::TempDir>,
    runs: Vec<PathBuf>,
    next_run: u64,
    lines: u64,
    bytes: u64,
    spilled: u64,
    peak: usize,
}

impl ExternalSorter {
    /// A sorter with nothing pushed; allocates nothing yet.
    pub fn new(opts: SortOptions) -> Self {
        ExternalSorter {
            memory: opts.memory,
            temp_parent: opts.temp_dir.unwrap_or_else(std::env::temp_dir),
            arena: Vec::new(),
            index: Vec::new(),
            temp: None,
            runs: Vec::new(),
            next_run: 0,
            lines: 0,
            bytes: 0,
            spilled: 0,
            peak: 0,
        }
    }

    /// The private temporary folder, once the first run has been spilled.
    pub fn spill_dir(&self) -> Option<&Path> {
        self.temp.as_ref().map(|t| t.path())
    }

    /// Takes one line, without its `'\n'`.
    ///
    /// A line containing `'\n'` is rejected with [`SortError::Newline`] and
    /// not taken. May spill a sorted run to a temporary file first, which
    /// can fail with [`SortError::Io`].
    pub fn push(&mut self, line: &[u8]) -> Result<(), SortError> {
        if let Some(offset) = memchr::memchr(b'\n', line) {
            return Err(SortError::Newline {
                line: self.lines,
                offset,
            });
        }
        if !self.make_room(line.len()) {
            if !self.index.is_empty() {
                self.spill()?;
            }
            if !self.make_room(line.len()) {
                // Longer than the budget even alone: a run of one line. The
                // arena is empty; free it before allocating the line's size.
                self.arena = Vec::new();
                self.arena.reserve_exact(line.len());
                if self.index.capacity() == 0 {
                    self.index.reserve_exact(1);
                }
            }
        }
        let start = self.arena.len();
        self.arena.extend_from_slice(line);
        self.index.push((start, line.len()));
        self.lines += 1;
        self.bytes += line.len() as u64;
        self.note(self.held());
        Ok(())
    }

    /// Takes sorted runs written before by [`ExternalSorter::persist`]
    /// (one line and a `'\n'` each, in byte order): merged with the rest
    /// at [`ExternalSorter::finish`], read but never removed.
    pub fn adopt(&mut self, runs: Vec<PathBuf>) {
        self.runs.splice(0..0, runs);
    }

    /// Makes every line taken since the last call durable, for a run that
    /// may be stopped and resumed: the held lines are spilled, and the runs
    /// this sorter spilled itself are moved into `dir`, named `NNNNNN` from
    /// `first` on, and synced to disk. The sorter goes on reading them,
    /// but never removes them (as [`ExternalSorter::adopt`]ed runs); their
    /// paths are returned, in order.
    pub fn persist(&mut self, dir: &Path, first: usize) -> Result<Vec<PathBuf>, SortError> {
        if !self.index.is_empty() {
            self.spill()?;
        }
        let mut kept = Vec::new();
        let own = self.temp.as_ref().map(|t| t.path().to_owned());
        for run in &mut self.runs {
            if !own.as_ref().is_some_and(|own| run.starts_with(own)) {
                continue;
            }
            let to = dir.join(format!("{:06}", first + kept.len()));
            move_file(run, &to)
                .and_then(|()| File::open(&to)?.sync_all())
                .map_err(|source| SortError::Io {
                    path: to.clone(),
                    source,
                })?;
            run.clone_from(&to);
            kept.push(to);
        }
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|source| SortError::Io {
                path: dir.to_owned(),
                source,
            })?;
        Ok(kept)
    }

    /// Gives every line pushed to `sink`, in byte order, without `'\n'`,
    /// duplicates kept.
    ///
    /// A sink error stops the sort and is returned as [`SortError::Sink`];
    /// the temporary folder is removed in every case.
    pub fn finish(
        mut self,
        sink: &mut dyn FnMut(&[u8]) -> io::Result<()>,
    ) -> Result<SortStats, SortError> {
        if self.runs.is_empty() {
            self.sort_held();
            for &(start, len) in &self.index {
                sink(&self.arena[start..start + len]).map_err(SortError::Sink)?;
            }
            return Ok(self.stats(0));
        }
        if !self.index.is_empty() {
            self.spill()?;
        }
        self.arena = Vec::new();
        self.index = Vec::new();
        let (buffer, fan_in) = merge_geometry(self.memory);
        let mut passes = 0u32;
        while self.runs.len() > fan_in {
            self.merge_pass(buffer, fan_in)?;
            passes += 1;
        }
        let runs = std::mem::take(&mut self.runs);
        let mut out = |line: &[u8]| sink(line).map_err(SortError::Sink);
        let peak = merge(&runs, buffer, &mut out)?;
        self.note(peak);
        Ok(self.stats(passes + 1))
    }

    fn stats(&self, merge_passes: u32) -> SortStats {
        SortStats {
            lines: self.lines,
            runs: self.spilled,
            merge_passes,
            peak_bytes: self.peak,
        }
    }

    /// Bytes held by the arena and the index, by capacity.
    fn held(&self) -> usize {
        self.arena.capacity() + self.index.capacity() * INDEX_ENTRY_BYTES
    }

    fn note(&mut self, bytes: usize) {
        self.peak = self.peak.max(bytes);
    }

    /// Makes room for one more line of `len` bytes within the budget,
    /// growing the arena and the index by doubling, each capped by its share
    /// of the budget (in the proportion of the mean line length so far, this
    /// line included). False when it does not fit, nothing changed.
    fn make_room(&mut self, len: usize) -> bool {
        let arena_need = self.arena.len().saturating_add(len);
        let index_need = self.index.len() + 1;
        let arena_min = self.arena.capacity().max(arena_need);
        let index_min = self.index.capacity().max(index_need);
        let Some(total) = index_min
            .checked_mul(INDEX_ENTRY_BYTES)
            .and_then(|i| i.checked_add(arena_min))
        else {
            return false;
        };
        if total > self.memory {
            return false;
        }
        if arena_need > self.arena.capacity() {
            let mean = (self.bytes + len as u64) / (self.lines + 1);
            let share =
                self.memory - self.memory / (mean as usize + INDEX_ENTRY_BYTES) * INDEX_ENTRY_BYTES;
            let limit = share.min(self.memory - index_min * INDEX_ENTRY_BYTES);
            let target = grown(self.arena.capacity(), INITIAL_ARENA, limit).max(arena_need);
            self.arena.reserve_exact(target - self.arena.len());
        }
        if index_need > self.index.capacity() {
            let limit = (self.memory - self.arena.capacity()) / INDEX_ENTRY_BYTES;
            let target = grown(self.index.capacity(), INITIAL_INDEX, limit).max(index_need);
            self.index.reserve_exact(target - self.index.len());
        }
        true
    }

    fn sort_held(&mut self) {
        let arena = &self.arena;
        self.index
            .par_sort_unstable_by(|a, b| arena[a.0..a.0 + a.1].cmp(&arena[b.0..b.0 + b.1]));
    }

    /// A fresh run file name in the private folder (created if needed).
    fn run_path(&mut self) -> Result<PathBuf, SortError> {
        let dir = match &mut self.temp {
            Some(dir) => dir,
            slot @ None => slot.insert(
                tempfile::Builder::new()
                    .prefix("spinneret-sort-")
                    .tempdir_in(&self.temp_parent)
                    .map_err(|source| SortError::Io {
                        path: self.temp_parent.clone(),
                        source,
                    })?,
            ),
        };
        let path = dir.path().join(format!("run-{:06}", self.next_run));
        self.next_run += 1;
        Ok(path)
    }

    /// Sorts the held lines, writes them as a run and empties the buffers.
    fn spill(&mut self) -> Result<(), SortError> {
        self.sort_held();
        let path = self.run_path()?;
        let io_err = |source| SortError::Io {
            path: path.clone(),
            source,
        };
        let file = File::create(&path).map_err(io_err)?;
        let mut w = BufWriter::with_capacity(SPILL_BUFFER, file);
        self.note(self.held() + SPILL_BUFFER);
        for &(start, len) in &self.index {
            w.write_all(&self.arena[start..start + len])
                .and_then(|()| w.write_all(b"\n"))
                .map_err(io_err)?;
        }
        w.flush().map_err(io_err)?;
        drop(w);
        self.runs.push(path);
        self.spilled += 1;
        self.arena.clear();
        self.index.clear();
        self.recut();
        Ok(())
    }

    /// After a spill (buffers empty): re-cuts the arena and the index to the
    /// budget in the proportion of the mean line length, when they are
    /// over the budget or off the proportion by more than an eighth of it.
    fn recut(&mut self) {
        let mean = (self.bytes / self.lines.max(1)) as usize;
        let slots = self.memory / (mean + INDEX_ENTRY_BYTES);
        let arena = self.memory - slots * INDEX_ENTRY_BYTES;
        let off = self.arena.capacity().abs_diff(arena)
            + self.index.capacity().abs_diff(slots) * INDEX_ENTRY_BYTES;
        if self.held() > self.memory || off > self.memory / 8 {
            // Free first, then allocate: never both at once.
            self.arena = Vec::new();
            self.index = Vec::new();
            self.arena.reserve_exact(arena);
            self.index.reserve_exact(slots);
        }
    }

    /// One intermediate pass: merges groups of `fan_in` runs into new runs,
    /// or, when fewer than `fan_in` runs are in excess, just the first
    /// `excess + 1` (which brings the count down to `fan_in`).
    fn merge_pass(&mut self, buffer: usize, fan_in: usize) -> Result<(), SortError> {
        let excess = self.runs.len() - fan_in;
        let runs = std::mem::take(&mut self.runs);
        let mut rest: &[PathBuf] = &runs;
        let mut merged = Vec::new();
        let single = excess < fan_in;
        while !rest.is_empty() {
            let take = if single { excess + 1 } else { fan_in };
            let (group, tail) = rest.split_at(take.min(rest.len()));
            rest = tail;
            if group.len() == 1 {
                merged.push(group[0].clone());
            } else {
                let path = self.run_path()?;
                let peak = merge_to_file(group, buffer, &path)?;
                self.note(peak);
                // (Runs of its own only: adopted ones are kept.)
                let own = self.temp.as_ref().map(|t| t.path());
                for p in group
                    .iter()
                    .filter(|p| own.is_some_and(|own| p.starts_with(own)))
                {
                    std::fs::remove_file(p).map_err(|source| SortError::Io {
                        path: p.clone(),
                        source,
                    })?;
                }
                merged.push(path);
            }
            if single {
                merged.extend_from_slice(rest);
                break;
            }
        }
        self.runs = merged;
        Ok(())
    }
}

/// Moves a file, copying it when it is on another file system.
fn move_file(from: &Path, to: &Path) -> io::Result<()> {
    match std::fs::rename(from, to) {
        Err(e) if e.kind() == io::ErrorKind::CrossesDevices => {
            std::fs::copy(from, to)?;
            std::fs::remove_file(from)
        }
        r => r,
    }
}

/// The next capacity of a doubling vector: twice `cap` (at least `initial`),
/// at most `limit`.
fn grown(cap: usize, initial: usize, limit: usize) -> usize {
    cap.saturating_mul(2).max(initial).min(limit)
}

/// The merge's reader buffer and fan-in for a budget.
fn merge_geometry(memory: usize) -> (usize, usize) {
    let buffer = (memory / 2).clamp(MIN_MERGE_BUFFER, MERGE_BUFFER);
    (buffer, (memory / buffer).max(2))
}

/// The current line of one run, ordered so that [`BinaryHeap`] (a max-heap)
/// yields the smallest line first.
struct Head {
    line: Vec<u8>,
    run: usize,
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.line == other.line
    }
}

impl Eq for Head {}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        other.line.cmp(&self.line)
    }
}

/// Reads the next line of a run into `line` (without `'\n'`); false at the
/// end of the run.
fn read_line(
    reader: &mut BufReader<File>,
    line: &mut Vec<u8>,
    path: &Path,
) -> Result<bool, SortError> {
    line.clear();
    let n = reader
        .read_until(b'\n', line)
        .map_err(|source| SortError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    if n == 0 {
        return Ok(false);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    Ok(true)
}

/// Merges sorted runs, giving each line in order to `out`. Returns the
/// bytes held at most (reader buffers plus line buffers).
fn merge(
    runs: &[PathBuf],
    buffer: usize,
    out: &mut dyn FnMut(&[u8]) -> Result<(), SortError>,
) -> Result<usize, SortError> {
    let mut readers = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::with_capacity(runs.len());
    let mut line_bytes = 0usize;
    for (run, path) in runs.iter().enumerate() {
        let file = File::open(path).map_err(|source| SortError::Io {
            path: path.clone(),
            source,
        })?;
        let mut reader = BufReader::with_capacity(buffer, file);
        let mut line = Vec::new();
        if read_line(&mut reader, &mut line, path)? {
            line_bytes += line.capacity();
            heap.push(Head { line, run });
        }
        readers.push(reader);
    }
    let readers_bytes = runs.len() * buffer;
    let mut peak = readers_bytes + line_bytes;
    while let Some(mut top) = heap.peek_mut() {
        out(&top.line)?;
        let run = top.run;
        let before = top.line.capacity();
        let more = read_line(&mut readers[run], &mut top.line, &runs[run])?;
        let after = top.line.capacity();
        if after != before {
            line_bytes = line_bytes - before + after;
            peak = peak.max(readers_bytes + line_bytes);
        }
        if !more {
            line_bytes -= after;
            PeekMut::pop(top);
        }
    }
    Ok(peak)
}

/// Merges sorted runs into a new run file. Returns the bytes held at most.
fn merge_to_file(runs: &[PathBuf], buffer: usize, path: &Path) -> Result<usize, SortError> {
    let io_err = |source| SortError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = File::create(path).map_err(io_err)?;
    let mut w = BufWriter::with_capacity(SPILL_BUFFER, file);
    let mut out = |line: &[u8]| {
        w.write_all(line)
            .and_then(|()| w.write_all(b"\n"))
            .map_err(io_err)
    };
    let peak = merge(runs, buffer, &mut out)?;
    w.flush().map_err(io_err)?;
    Ok(peak + SPILL_BUFFER)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator (xorshift64*), enough for test data.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Random lines: empty ones, prefixes of earlier ones, bytes >= 0x80,
    /// duplicates; never `'\n'`.
    fn random_lines(rng: &mut Rng, n: usize, max_len: u64) -> Vec<Vec<u8>> {
        let alphabet: &[u8] = b"\x00\x01\t\r abAB09,)/{}\x7f\x80\xa0\xc3\xff";
        let mut lines: Vec<Vec<u8>> = Vec::with_capacity(n);
        for _ in 0..n {
            let line = match rng.below(10) {
                0 => Vec::new(),
                1 | 2 if !lines.is_empty() => {
                    let other = &lines[rng.below(lines.len() as u64) as usize];
                    let cut = rng.below(other.len() as u64 + 1) as usize;
                    other[..cut].to_vec()
                }
                3 if !lines.is_empty() => lines[rng.below(lines.len() as u64) as usize].clone(),
                _ => {
                    let len = rng.below(max_len + 1);
                    (0..len)
                        .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                        .collect()
                }
            };
            lines.push(line);
        }
        lines
    }

    /// A private parent folder for the sorter's temporary folder, so tests
    /// can check it is left empty.
    fn parent() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("spinneret-sort-test-")
            .tempdir()
            .expect("test temporary folder")
    }

    fn is_empty_dir(dir: &Path) -> bool {
        std::fs::read_dir(dir)
            .expect("read test folder")
            .next()
            .is_none()
    }

    fn sort_with(lines: &[Vec<u8>], memory: usize, dir: &Path) -> (Vec<Vec<u8>>, SortStats) {
        let mut sorter = ExternalSorter::new(SortOptions {
            memory,
            temp_dir: Some(dir.to_path_buf()),
        });
        for line in lines {
            sorter.push(line).expect("push");
        }
        let mut out = Vec::new();
        let stats = sorter
            .finish(&mut |line: &[u8]| {
                out.push(line.to_vec());
                Ok(())
            })
            .expect("finish");
        (out, stats)
    }

    /// The documented bound on `peak_bytes`.
    fn bound(memory: usize, longest: usize) -> usize {
        let (buffer, fan_in) = merge_geometry(memory);
        let accumulate = memory + longest + INDEX_ENTRY_BYTES + SPILL_BUFFER;
        let merge = fan_in * (buffer + 2 * longest.max(8)) + SPILL_BUFFER;
        accumulate.max(merge)
    }

    fn check(lines: &[Vec<u8>], memory: usize) -> SortStats {
        let dir = parent();
        let (out, stats) = sort_with(lines, memory, dir.path());
        let mut expected = lines.to_vec();
        expected.sort();
        assert_eq!(out.len(), expected.len());
        assert!(
            out == expected,
            "output differs from sort() (memory {memory})"
        );
        assert_eq!(stats.lines, lines.len() as u64);
        let longest = lines.iter().map(Vec::len).max().unwrap_or(0);
        assert!(
            stats.peak_bytes <= bound(memory, longest),
            "peak {} over bound {} (memory {memory}, longest {longest})",
            stats.peak_bytes,
            bound(memory, longest)
        );
        assert!(is_empty_dir(dir.path()), "temporary folder left behind");
        stats
    }

    #[test]
    fn persisted_runs_survive_a_stop_and_merge_with_the_rest_unremoved() {
        // Lines pushed in three stretches, persisted after each of the
        // first two (as a resumable run's checkpoints); the sorter of the
        // first two stretches is dropped (a stop) and a new one adopts the
        // kept runs and takes the third: the output is the sort of all.
        let mut rng = Rng(5);
        let lines = random_lines(&mut rng, 6000, 40);
        let kept_dir = parent();
        let spill_dir = parent();
        let opts = SortOptions {
            memory: 8 * 1024, // small: the sorter spills runs of its own too
            temp_dir: Some(spill_dir.path().to_path_buf()),
        };
        let mut kept = Vec::new();
        let mut sorter = ExternalSorter::new(opts.clone());
        for stretch in lines[..4000].chunks(2000) {
            for line in stretch {
                sorter.push(line).unwrap();
            }
            kept.extend(sorter.persist(kept_dir.path(), kept.len()).unwrap());
        }
        // Lines after the last persist are lost with the stop.
        sorter.push(b"lost").unwrap();
        drop(sorter);
        assert!(kept.len() > 2, "{}", kept.len());
        assert!(is_empty_dir(spill_dir.path()));

        let mut sorter = ExternalSorter::new(opts);
        sorter.adopt(kept.clone());
        for line in &lines[4000..] {
            sorter.push(line).unwrap();
        }
        let mut out = Vec::new();
        sorter
            .finish(&mut |l: &[u8]| {
                out.push(l.to_vec());
                Ok(())
            })
            .unwrap();
        let mut expected = lines.clone();
        expected.sort();
        assert!(out == expected, "output differs from sort()");
        assert!(kept.iter().all(|p| p.exists()), "a kept run was removed");
        assert!(is_empty_dir(spill_dir.path()));
    }

    #[test]
    fn random_lines_in_memory() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let lines = random_lines(&mut rng, 5000, 40);
        let stats = check(&lines, 1 << 20);
        assert_eq!((stats.runs, stats.merge_passes), (0, 0));
        assert!(stats.peak_bytes <= 1 << 20);
    }

    #[test]
    fn random_lines_one_merge_pass() {
        let mut rng = Rng(42);
        let lines = random_lines(&mut rng, 20_000, 60);
        let stats = check(&lines, 512 * 1024);
        assert!(stats.runs > 1, "{stats:?}");
        assert_eq!(stats.merge_passes, 1, "{stats:?}");
    }

    #[test]
    fn tiny_budget_many_runs_multi_pass() {
        let mut rng = Rng(7);
        let lines = random_lines(&mut rng, 3000, 30);
        // A 300-byte budget holds a handful of lines: hundreds of runs, a
        // fan-in of 2, so many passes.
        let stats = check(&lines, 300);
        assert!(stats.runs > 100, "{stats:?}");
        assert!(stats.merge_passes > 3, "{stats:?}");
    }

    #[test]
    fn three_runs_fan_in_two() {
        // Budget 8 KiB: reader buffer 4 KiB, fan-in 2. Lines of 100 bytes,
        // 70 a run: 3 runs, one intermediate pass merging 2 of them.
        let mut rng = Rng(3);
        let lines: Vec<Vec<u8>> = (0..180)
            .map(|_| (0..100).map(|_| b'a' + rng.below(26) as u8).collect())
            .collect();
        assert_eq!(merge_geometry(8 * 1024), (4096, 2));
        let stats = check(&lines, 8 * 1024);
        assert_eq!((stats.runs, stats.merge_passes), (3, 2), "{stats:?}");
    }

    #[test]
    fn line_longer_than_budget() {
        let mut rng = Rng(11);
        let mut lines = random_lines(&mut rng, 200, 20);
        lines.insert(50, vec![b'm'; 10_000]);
        lines.push(vec![0xff; 5000]);
        let stats = check(&lines, 1024);
        assert!(stats.runs >= 2, "{stats:?}");
        // Alone, as the only line.
        let stats = check(&[vec![b'x'; 4096]], 100);
        assert_eq!(stats.lines, 1);
    }

    #[test]
    fn empty_input() {
        let stats = check(&[], 1024);
        assert_eq!(stats, SortStats::default());
        let stats = check(&[Vec::new(), Vec::new()], 1024);
        assert_eq!(stats.lines, 2);
    }

    #[test]
    fn byte_order_matches_c_locale() {
        let lines: Vec<Vec<u8>> = [&b"b"[..], b"", b"a\xff", b"a", b"a\x80", b"A", b"a ", b"ab"]
            .iter()
            .map(|l| l.to_vec())
            .collect();
        let dir = parent();
        for memory in [1 << 20, 40] {
            let (out, _) = sort_with(&lines, memory, dir.path());
            let want: Vec<&[u8]> = vec![b"", b"A", b"a", b"a ", b"ab", b"a\x80", b"a\xff", b"b"];
            assert_eq!(out, want);
        }
    }

    #[test]
    fn newline_is_rejected() {
        let mut sorter = ExternalSorter::new(SortOptions::default());
        sorter.push(b"ok").expect("push");
        match sorter.push(b"bad\nline") {
            Err(SortError::Newline { line: 1, offset: 3 }) => {}
            other => panic!("expected Newline, got {other:?}"),
        }
        let mut out = Vec::new();
        let stats = sorter
            .finish(&mut |l: &[u8]| {
                out.push(l.to_vec());
                Ok(())
            })
            .expect("finish");
        assert_eq!(out, vec![b"ok".to_vec()]);
        assert_eq!(stats.lines, 1);
    }

    #[test]
    fn temp_folder_removed_after_finish_and_drop() {
        let dir = parent();
        let opts = SortOptions {
            memory: 200,
            temp_dir: Some(dir.path().to_path_buf()),
        };
        let mut sorter = ExternalSorter::new(opts.clone());
        for i in 0..100u32 {
            sorter.push(format!("line {i}").as_bytes()).expect("push");
        }
        let spill = sorter.spill_dir().expect("spilled").to_path_buf();
        assert!(spill.is_dir() && spill.starts_with(dir.path()));
        sorter.finish(&mut |_| Ok(())).expect("finish");
        assert!(!spill.exists() && is_empty_dir(dir.path()));

        let mut sorter = ExternalSorter::new(opts);
        for i in 0..100u32 {
            sorter.push(format!("line {i}").as_bytes()).expect("push");
        }
        let spill = sorter.spill_dir().expect("spilled").to_path_buf();
        drop(sorter);
        assert!(!spill.exists() && is_empty_dir(dir.path()));
    }

    #[test]
    fn broken_pipe_stops_with_sink_error() {
        for memory in [1 << 20, 200] {
            let dir = parent();
            let mut sorter = ExternalSorter::new(SortOptions {
                memory,
                temp_dir: Some(dir.path().to_path_buf()),
            });
            for i in 0..100u32 {
                sorter.push(format!("{i:03}").as_bytes()).expect("push");
            }
            let mut seen = 0;
            let result = sorter.finish(&mut |_| {
                seen += 1;
                if seen == 3 {
                    Err(io::Error::from(io::ErrorKind::BrokenPipe))
                } else {
                    Ok(())
                }
            });
            match result {
                Err(SortError::Sink(e)) => assert_eq!(e.kind(), io::ErrorKind::BrokenPipe),
                other => panic!("expected Sink(BrokenPipe), got {other:?}"),
            }
            assert_eq!(seen, 3);
            assert!(is_empty_dir(dir.path()), "temporary folder left behind");
        }
    }

    #[test]
    fn missing_temp_parent_is_an_io_error() {
        let dir = parent();
        let missing = dir.path().join("absent");
        let mut sorter = ExternalSorter::new(SortOptions {
            memory: 10,
            temp_dir: Some(missing.clone()),
        });
        sorter.push(b"first line").expect("fits alone");
        match sorter.push(b"second line") {
            Err(SortError::Io { path, .. }) => assert_eq!(path, missing),
            other => panic!("expected Io, got {other:?}"),
        }
    }
}
