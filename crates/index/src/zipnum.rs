//! ZipNum clusters: sorted index lines in gzip blocks, as pywb reads them.
//!
//! A ZipNum cluster is a sorted CDX or CDXJ index cut into blocks of
//! [`ZipNumOptions::lines_per_block`] lines, each block compressed as one
//! gzip member, the members concatenated into shard files, plus a small
//! secondary index that a replay system binary-searches to find the few
//! blocks a query needs. [`ZipNumWriter`] writes, in one folder:
//!
//! - `NAME-NN.cdx.gz`: the shards (`NN` counts from `00`, two digits or
//!   more). Each block is a gzip member of whole lines, each line ending in
//!   `'\n'`, so a shard also gunzips as a whole into a plain sorted index.
//!   A new shard starts once the current one has reached
//!   [`ZipNumOptions::shard_bytes`] compressed bytes.
//! - `NAME.idx`: one line per block, in block order,
//!   `KEY\tSHARD\tOFFSET\tLENGTH\tBLOCKNO\n`. `KEY` is the block's first
//!   line up to its second space (the `urlkey timestamp` of CDX and CDXJ
//!   lines; the whole line when it has fewer than two spaces), `SHARD` the
//!   shard's file name without `.cdx.gz`, `OFFSET` and `LENGTH` the gzip
//!   member's byte range in that shard, `BLOCKNO` the block's number,
//!   counted from 1 across the whole cluster (not per shard).
//! - `NAME.loc`: one line per shard, `SHARD\tFILE\n`, with `FILE` the
//!   shard's file name relative to the folder (pywb resolves a path without
//!   `://` against the `.loc` file's folder), so the folder can be moved.
//!
//! This is what pywb's `ZipNumIndexSource`
//! (`pywb/warcserver/index/zipnum.py`) expects: it finds the `.loc` by
//! replacing the `.idx` extension; it splits `.idx` lines on tabs into
//! `urlkey, part, offset, length, lineno`; it binary-searches the `.idx` by
//! whole lines, so the keys must be in byte order (they are, when the input
//! is); it counts pages as differences of `lineno`, so block numbers must be
//! consecutive across shards; and it gunzips each block's byte range with a
//! fresh decompressor, so each range must be exactly one gzip member. pywb's
//! test sample (`zipnum-sample.idx`) numbers its blocks from 1.
//!
//! # Input rules
//!
//! Lines are pushed sorted in byte order, without `'\n'`. Lines starting
//! with `" CDX"` (a CDX header, which sorts first) and empty lines are not
//! index entries: they are skipped and counted in [`ZipNumStats::skipped`].
//! Every other line is checked: it must not contain `'\n'`, must not sort
//! before the previous one ([`ZipNumError::Unsorted`]: a misordered cluster
//! would make binary search silently miss entries), and its key must not
//! contain a tab (it would break the `.idx` columns).
//!
//! # Work and memory
//!
//! A block is filled on the caller's thread; compression and file writes
//! happen on one worker thread, so filling the next block overlaps
//! compressing the last. At most three blocks are held at once (one
//! filling, one queued, one compressing) plus one compressed block.
//!
//! The cluster is complete only when [`ZipNumWriter::finish`] returns `Ok`:
//! the `.loc` is written last. Existing files of the same names are
//! overwritten; shard files of an earlier, larger cluster of the same name
//! are left alone (the new `.loc` does not list them).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use flate2::Compression;
use flate2::write::GzEncoder;

/// Settings of a [`ZipNumWriter`].
#[derive(Debug, Clone)]
pub struct ZipNumOptions {
    /// Lines in each gzip block (the last block may hold fewer). At least 1.
    pub lines_per_block: usize,
    /// A new shard starts when the current one has reached this many
    /// compressed bytes (blocks are never split, so a shard can exceed it by
    /// up to one block).
    pub shard_bytes: u64,
    /// The cluster's name: files `NAME-NN.cdx.gz`, `NAME.idx`, `NAME.loc`.
    /// Not empty, `.` or `..`; no `/`, `\`, tab, CR or LF.
    pub name: String,
    /// gzip compression level of the blocks.
    pub level: Compression,
}

impl Default for ZipNumOptions {
    /// 3000 lines a block (the common choice of ZipNum builders), 1 GiB
    /// shards, name `index`, level 6.
    fn default() -> Self {
        ZipNumOptions {
            lines_per_block: 3000,
            shard_bytes: 1 << 30,
            name: "index".to_owned(),
            level: Compression::new(6),
        }
    }
}

/// What a cluster holds, returned by [`ZipNumWriter::finish`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ZipNumStats {
    /// Index lines written into blocks.
    pub lines: u64,
    /// Lines pushed but not indexed: CDX headers and empty lines.
    pub skipped: u64,
    /// Blocks written (lines of the `.idx`).
    pub blocks: u64,
    /// Shard file names, in order (lines of the `.loc`).
    pub shards: Vec<String>,
    /// Bytes of all shards together.
    pub compressed_bytes: u64,
    /// Path of the `.idx` file.
    pub idx: PathBuf,
    /// Path of the `.loc` file.
    pub loc: PathBuf,
}

/// Why writing a cluster failed.
#[derive(Debug, thiserror::Error)]
pub enum ZipNumError {
    /// Creating or writing a file or the folder failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or folder concerned.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The options cannot make a cluster.
    #[error("invalid ZipNum options: {0}")]
    Options(&'static str),
    /// A pushed line contained `'\n'`.
    #[error("line {line} contains a newline at byte {offset}")]
    Newline {
        /// 0-based number of the line among those pushed.
        line: u64,
        /// Byte offset of the first `'\n'` in it.
        offset: usize,
    },
    /// A pushed line sorts before the line pushed before it.
    #[error("line {line} sorts before the previous line: input not sorted")]
    Unsorted {
        /// 0-based number of the line among those pushed.
        line: u64,
    },
    /// A line's key (up to its second space) contains a tab.
    #[error("line {line}: its key contains a tab, which the .idx cannot hold")]
    TabInKey {
        /// 0-based number of the line among those pushed.
        line: u64,
    },
    /// An earlier error stopped this writer; nothing more is written.
    #[error("the writer stopped after an earlier error")]
    Stopped,
    /// The compression thread panicked (a bug).
    #[error("the ZipNum compression thread panicked")]
    WorkerPanicked,
}

/// One filled block on its way to the worker.
struct Block {
    key: Vec<u8>,
    data: Vec<u8>,
}

/// What the worker reports when its queue closes.
struct WorkerStats {
    blocks: u64,
    shards: Vec<String>,
    compressed_bytes: u64,
}

/// Writes a ZipNum cluster from sorted lines (see the module docs).
#[derive(Debug)]
pub struct ZipNumWriter {
    dir: PathBuf,
    name: String,
    lines_per_block: usize,
    key: Vec<u8>,
    data: Vec<u8>,
    in_block: usize,
    prev: Vec<u8>,
    pushed: u64,
    lines: u64,
    skipped: u64,
    queue: Option<SyncSender<Block>>,
    worker: Option<JoinHandle<Result<WorkerStats, ZipNumError>>>,
}

impl ZipNumWriter {
    /// Starts a cluster in `dir` (created if missing): validates the options,
    /// creates `NAME.idx` and starts the compression thread.
    pub fn create(dir: &Path, opts: ZipNumOptions) -> Result<Self, ZipNumError> {
        if opts.lines_per_block == 0 {
            return Err(ZipNumError::Options("lines_per_block must be at least 1"));
        }
        let name = opts.name;
        if name.is_empty()
            || name == "."
            || name == ".."
            || name.contains(['/', '\\', '\t', '\r', '\n'])
        {
            return Err(ZipNumError::Options(
                "name must be a plain file name without tab, CR or LF",
            ));
        }
        std::fs::create_dir_all(dir).map_err(|source| ZipNumError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
        let idx_path = dir.join(format!("{name}.idx"));
        let idx = File::create(&idx_path).map_err(|source| ZipNumError::Io {
            path: idx_path.clone(),
            source,
        })?;
        let shards = Shards {
            dir: dir.to_path_buf(),
            name: name.clone(),
            level: opts.level,
            shard_bytes: opts.shard_bytes,
            current: None,
            names: Vec::new(),
            idx: BufWriter::new(idx),
            idx_path,
            blocks: 0,
            compressed_bytes: 0,
            out: Vec::new(),
        };
        let (queue, blocks) = sync_channel::<Block>(1);
        let worker = std::thread::Builder::new()
            .name("zipnum-writer".to_owned())
            .spawn(move || shards.run(blocks))
            .map_err(|source| ZipNumError::Io {
                path: dir.to_path_buf(),
                source,
            })?;
        Ok(ZipNumWriter {
            dir: dir.to_path_buf(),
            name,
            lines_per_block: opts.lines_per_block,
            key: Vec::new(),
            data: Vec::new(),
            in_block: 0,
            prev: Vec::new(),
            pushed: 0,
            lines: 0,
            skipped: 0,
            queue: Some(queue),
            worker: Some(worker),
        })
    }

    /// Takes the next line, without its `'\n'`; lines must come in byte
    /// order. Skips CDX headers (lines starting with `" CDX"`) and empty
    /// lines. Errors leave the line untaken; an I/O error of the worker
    /// stops the writer.
    pub fn push(&mut self, line: &[u8]) -> Result<(), ZipNumError> {
        let number = self.pushed;
        self.pushed += 1;
        if let Some(offset) = memchr::memchr(b'\n', line) {
            return Err(ZipNumError::Newline {
                line: number,
                offset,
            });
        }
        if line.is_empty() || line.starts_with(b" CDX") {
            self.skipped += 1;
            return Ok(());
        }
        if self.lines > 0 && line < self.prev.as_slice() {
            return Err(ZipNumError::Unsorted { line: number });
        }
        if self.in_block == 0 {
            let key = block_key(line);
            if memchr::memchr(b'\t', key).is_some() {
                return Err(ZipNumError::TabInKey { line: number });
            }
            self.key.clear();
            self.key.extend_from_slice(key);
        }
        self.prev.clear();
        self.prev.extend_from_slice(line);
        self.data.extend_from_slice(line);
        self.data.push(b'\n');
        self.in_block += 1;
        self.lines += 1;
        if self.in_block == self.lines_per_block {
            self.send_block()?;
        }
        Ok(())
    }

    /// Writes the last block, waits for the worker, and writes the `.loc`.
    pub fn finish(mut self) -> Result<ZipNumStats, ZipNumError> {
        if self.in_block > 0 {
            self.send_block()?;
        }
        self.queue = None;
        let stats = self.join()?;
        let loc = self.dir.join(format!("{}.loc", self.name));
        let io_err = |source| ZipNumError::Io {
            path: loc.clone(),
            source,
        };
        let mut w = BufWriter::new(File::create(&loc).map_err(io_err)?);
        for shard in &stats.shards {
            writeln!(w, "{shard}\t{shard}.cdx.gz").map_err(io_err)?;
        }
        w.flush().map_err(io_err)?;
        Ok(ZipNumStats {
            lines: self.lines,
            skipped: self.skipped,
            blocks: stats.blocks,
            shards: stats.shards,
            compressed_bytes: stats.compressed_bytes,
            idx: self.dir.join(format!("{}.idx", self.name)),
            loc,
        })
    }

    /// Hands the filled block to the worker (waiting while one is queued).
    fn send_block(&mut self) -> Result<(), ZipNumError> {
        let capacity = self.data.len();
        let block = Block {
            key: std::mem::take(&mut self.key),
            data: std::mem::replace(&mut self.data, Vec::with_capacity(capacity)),
        };
        self.in_block = 0;
        let Some(queue) = &self.queue else {
            return Err(ZipNumError::Stopped);
        };
        if queue.send(block).is_err() {
            // The worker stopped: report its error.
            self.queue = None;
            return match self.join() {
                Ok(_) => Err(ZipNumError::Stopped),
                Err(e) => Err(e),
            };
        }
        Ok(())
    }

    /// Waits for the worker and takes its result.
    fn join(&mut self) -> Result<WorkerStats, ZipNumError> {
        let worker = self.worker.take().ok_or(ZipNumError::Stopped)?;
        worker.join().map_err(|_| ZipNumError::WorkerPanicked)?
    }
}

/// A block's key: its first line up to the second space.
fn block_key(line: &[u8]) -> &[u8] {
    let mut spaces = memchr::memchr_iter(b' ', line);
    match (spaces.next(), spaces.next()) {
        (Some(_), Some(second)) => &line[..second],
        _ => line,
    }
}

/// The worker's state: the shard being written and the `.idx`.
struct Shards {
    dir: PathBuf,
    name: String,
    level: Compression,
    shard_bytes: u64,
    /// The open shard: file, name, path and bytes written.
    current: Option<(File, String, PathBuf, u64)>,
    names: Vec<String>,
    idx: BufWriter<File>,
    idx_path: PathBuf,
    blocks: u64,
    compressed_bytes: u64,
    /// Reused buffer of the compressed block.
    out: Vec<u8>,
}

impl Shards {
    /// Compresses and writes blocks until the queue closes, then flushes.
    fn run(mut self, blocks: Receiver<Block>) -> Result<WorkerStats, ZipNumError> {
        for block in blocks {
            self.write_block(&block)?;
        }
        self.idx.flush().map_err(|source| ZipNumError::Io {
            path: self.idx_path.clone(),
            source,
        })?;
        Ok(WorkerStats {
            blocks: self.blocks,
            shards: self.names,
            compressed_bytes: self.compressed_bytes,
        })
    }

    fn write_block(&mut self, block: &Block) -> Result<(), ZipNumError> {
        let mut gz = GzEncoder::new(std::mem::take(&mut self.out), self.level);
        let member = gz.write_all(&block.data).and_then(|()| gz.finish());
        let mut member = member.map_err(|source| ZipNumError::Io {
            path: self.dir.clone(),
            source,
        })?;
        if self.current.is_none() {
            let shard = format!("{}-{:02}", self.name, self.names.len());
            let path = self.dir.join(format!("{shard}.cdx.gz"));
            let file = File::create(&path).map_err(|source| ZipNumError::Io {
                path: path.clone(),
                source,
            })?;
            self.names.push(shard.clone());
            self.current = Some((file, shard, path, 0));
        }
        let Some((file, shard, path, offset)) = &mut self.current else {
            return Err(ZipNumError::Stopped);
        };
        file.write_all(&member).map_err(|source| ZipNumError::Io {
            path: path.clone(),
            source,
        })?;
        self.blocks += 1;
        let length = member.len() as u64;
        self.idx
            .write_all(&block.key)
            .and_then(|()| writeln!(self.idx, "\t{shard}\t{offset}\t{length}\t{}", self.blocks))
            .map_err(|source| ZipNumError::Io {
                path: self.idx_path.clone(),
                source,
            })?;
        *offset += length;
        self.compressed_bytes += length;
        if *offset >= self.shard_bytes {
            // Closes the shard; the next block starts a new one.
            self.current = None;
        }
        member.clear();
        self.out = member;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::bufread::GzDecoder;
    use std::io::Read;

    fn tempdir() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("spinneret-zipnum-test-")
            .tempdir()
            .expect("test temporary folder")
    }

    /// Sorted CDXJ-like lines: `urlkey timestamp {json}`, with repeated keys.
    fn cdxj_lines(n: usize) -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = (0..n)
            .map(|i| {
                let host = i / 7;
                let ts = 20_140_101_000_000u64 + (i as u64 * 7919) % 1000;
                format!(
                    "com,example{host:04})/page/{} {ts} {{\"url\": \"http://example{host:04}.com/page/{}\", \"status\": \"200\", \"length\": \"{}\"}}",
                    i % 3,
                    i % 3,
                    1000 + i
                )
                .into_bytes()
            })
            .collect();
        lines.sort();
        lines
    }

    /// One `.idx` line, split.
    #[derive(Debug, PartialEq)]
    struct IdxLine {
        key: String,
        shard: String,
        offset: u64,
        length: u64,
        block: u64,
    }

    fn read_idx(path: &Path) -> Vec<IdxLine> {
        let text = std::fs::read_to_string(path).expect("read .idx");
        text.lines()
            .map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                assert_eq!(f.len(), 5, "idx line {l:?}");
                IdxLine {
                    key: f[0].to_owned(),
                    shard: f[1].to_owned(),
                    offset: f[2].parse().expect("offset"),
                    length: f[3].parse().expect("length"),
                    block: f[4].parse().expect("block number"),
                }
            })
            .collect()
    }

    fn read_loc(path: &Path) -> Vec<(String, String)> {
        let text = std::fs::read_to_string(path).expect("read .loc");
        text.lines()
            .map(|l| {
                let (shard, file) = l.split_once('\t').expect("tab in .loc line");
                (shard.to_owned(), file.to_owned())
            })
            .collect()
    }

    /// Gunzips exactly one gzip member that must span all of `bytes`.
    fn gunzip_member(bytes: &[u8]) -> Vec<u8> {
        let mut dec = GzDecoder::new(bytes);
        let mut out = Vec::new();
        dec.read_to_end(&mut out).expect("gunzip block");
        assert!(dec.into_inner().is_empty(), "bytes after the gzip member");
        out
    }

    /// Splits a file of concatenated gzip members into the members' texts.
    fn gunzip_members(mut bytes: &[u8]) -> Vec<Vec<u8>> {
        let mut members = Vec::new();
        while !bytes.is_empty() {
            let mut dec = GzDecoder::new(bytes);
            let mut out = Vec::new();
            dec.read_to_end(&mut out).expect("gunzip member");
            bytes = dec.into_inner();
            members.push(out);
        }
        members
    }

    fn split_lines(text: &[u8]) -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = text.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        if lines.last().is_some_and(Vec::is_empty) {
            lines.pop();
        }
        lines
    }

    fn write(dir: &Path, opts: ZipNumOptions, lines: &[Vec<u8>]) -> ZipNumStats {
        let mut w = ZipNumWriter::create(dir, opts).expect("create");
        for line in lines {
            w.push(line).expect("push");
        }
        w.finish().expect("finish")
    }

    /// Reads a cluster back and checks it against `lines`, block by block.
    fn verify(
        dir: &Path,
        stats: &ZipNumStats,
        lines: &[Vec<u8>],
        per_block: usize,
    ) -> Vec<IdxLine> {
        let idx = read_idx(&stats.idx);
        let loc = read_loc(&stats.loc);
        assert_eq!(idx.len() as u64, stats.blocks);
        assert_eq!(idx.len(), lines.len().div_ceil(per_block));
        let names: Vec<String> = loc.iter().map(|(s, _)| s.clone()).collect();
        assert_eq!(names, stats.shards);
        let mut total = 0;
        for (shard, file) in &loc {
            assert_eq!(file, &format!("{shard}.cdx.gz"));
            let bytes = std::fs::read(dir.join(file)).expect("read shard");
            let mine: Vec<&IdxLine> = idx.iter().filter(|e| &e.shard == shard).collect();
            assert!(!mine.is_empty(), "shard {shard} without blocks");
            // Members are contiguous from 0 to the end of the file.
            let mut at = 0;
            for e in &mine {
                assert_eq!(e.offset, at, "gap before block {}", e.block);
                at += e.length;
            }
            assert_eq!(
                at,
                bytes.len() as u64,
                "shard {shard} has bytes past its blocks"
            );
            total += at;
        }
        assert_eq!(total, stats.compressed_bytes);
        for (i, (e, chunk)) in idx.iter().zip(lines.chunks(per_block)).enumerate() {
            assert_eq!(e.block, i as u64 + 1, "block numbers count from 1");
            let path = dir.join(format!("{}.cdx.gz", e.shard));
            let bytes = std::fs::read(path).expect("read shard");
            let member = &bytes[e.offset as usize..(e.offset + e.length) as usize];
            let text = gunzip_member(member);
            assert!(text.ends_with(b"\n"));
            assert_eq!(split_lines(&text), chunk, "block {}", e.block);
            assert_eq!(e.key.as_bytes(), block_key(&chunk[0]));
        }
        // The .idx is in byte order, as pywb's binary search needs.
        assert!(idx.windows(2).all(|w| w[0].key <= w[1].key));
        idx
    }

    #[test]
    fn blocks_read_back() {
        let dir = tempdir();
        let lines = cdxj_lines(1000);
        let opts = ZipNumOptions {
            lines_per_block: 37,
            name: "test".to_owned(),
            ..ZipNumOptions::default()
        };
        let stats = write(dir.path(), opts, &lines);
        assert_eq!(stats.shards, vec!["test-00".to_owned()]);
        assert_eq!((stats.lines, stats.skipped), (1000, 0));
        let idx = verify(dir.path(), &stats, &lines, 37);
        assert_eq!(idx[0].key, "com,example0000)/page/0 20140101000000");
        assert_eq!(stats.loc, dir.path().join("test.loc"));
        assert_eq!(stats.idx, dir.path().join("test.idx"));
    }

    #[test]
    fn shards_split_by_size() {
        let dir = tempdir();
        let lines = cdxj_lines(2000);
        let opts = ZipNumOptions {
            lines_per_block: 20,
            shard_bytes: 4000,
            ..ZipNumOptions::default()
        };
        let stats = write(dir.path(), opts, &lines);
        assert!(stats.shards.len() > 3, "{:?}", stats.shards);
        assert_eq!(stats.shards[0], "index-00");
        let idx = verify(dir.path(), &stats, &lines, 20);
        // Every shard but the last reached shard_bytes with its last block,
        // and not before it.
        let last = stats.shards.len() - 1;
        for (n, shard) in stats.shards.iter().enumerate() {
            let blocks: Vec<&IdxLine> = idx.iter().filter(|e| &e.shard == shard).collect();
            let end = blocks.last().map(|e| e.offset + e.length).unwrap_or(0);
            let before = blocks.last().map(|e| e.offset).unwrap_or(0);
            assert!(before < 4000, "{shard} went on past shard_bytes");
            if n < last {
                assert!(end >= 4000, "{shard} closed early");
            }
        }
        // A shard of one block each.
        let dir = tempdir();
        let opts = ZipNumOptions {
            lines_per_block: 100,
            shard_bytes: 1,
            ..ZipNumOptions::default()
        };
        let stats = write(dir.path(), opts, &lines);
        assert_eq!(stats.shards.len(), 20);
        verify(dir.path(), &stats, &lines, 100);
    }

    #[test]
    fn headers_and_empty_lines_are_skipped() {
        let dir = tempdir();
        let lines = cdxj_lines(10);
        let mut w = ZipNumWriter::create(dir.path(), ZipNumOptions::default()).expect("create");
        w.push(b" CDX N b a m s k r M S V g").expect("header");
        w.push(b"").expect("empty");
        for line in &lines {
            w.push(line).expect("push");
        }
        let stats = w.finish().expect("finish");
        assert_eq!((stats.lines, stats.skipped, stats.blocks), (10, 2, 1));
        verify(dir.path(), &stats, &lines, 3000);
    }

    #[test]
    fn empty_input_makes_empty_idx_and_loc() {
        let dir = tempdir();
        let stats = write(dir.path(), ZipNumOptions::default(), &[]);
        assert_eq!((stats.blocks, stats.shards.len()), (0, 0));
        assert_eq!(std::fs::read(&stats.idx).expect("idx").len(), 0);
        assert_eq!(std::fs::read(&stats.loc).expect("loc").len(), 0);
    }

    #[test]
    fn bad_input_is_rejected() {
        let dir = tempdir();
        let mut w = ZipNumWriter::create(dir.path(), ZipNumOptions::default()).expect("create");
        w.push(b"b 1 x").expect("push");
        assert!(matches!(
            w.push(b"a 1 x"),
            Err(ZipNumError::Unsorted { line: 1 })
        ));
        assert!(matches!(
            w.push(b"c\n1"),
            Err(ZipNumError::Newline { line: 2, offset: 1 })
        ));
        w.push(b"b 1 x").expect("duplicates are fine");
        let stats = w.finish().expect("finish");
        assert_eq!(stats.lines, 2);

        let mut w = ZipNumWriter::create(dir.path(), ZipNumOptions::default()).expect("create");
        assert!(matches!(
            w.push(b"a\tb 1 x"),
            Err(ZipNumError::TabInKey { line: 0 })
        ));
        w.push(b"a 1 x\ty").expect("a tab after the key is fine");
        w.finish().expect("finish");

        for opts in [
            ZipNumOptions {
                lines_per_block: 0,
                ..ZipNumOptions::default()
            },
            ZipNumOptions {
                name: "a/b".to_owned(),
                ..ZipNumOptions::default()
            },
            ZipNumOptions {
                name: String::new(),
                ..ZipNumOptions::default()
            },
        ] {
            assert!(matches!(
                ZipNumWriter::create(dir.path(), opts),
                Err(ZipNumError::Options(_))
            ));
        }
    }

    #[test]
    fn keys() {
        assert_eq!(block_key(b"a b c d"), b"a b");
        assert_eq!(block_key(b"a b"), b"a b");
        assert_eq!(block_key(b"a"), b"a");
        assert_eq!(block_key(b"a  b"), b"a ");
    }

    /// pywb's ZipNum test sample: its lines, re-zipped with its block size,
    /// give the same keys, block numbers and block contents.
    #[test]
    fn pywb_sample() {
        let base = spinneret_testdata::shared_dir().join("corpus/warc/cdx/pywb");
        let gz = base.join("zipcdx__zipnum-sample.cdx.gz");
        let idx_path = base.join("zipcdx__zipnum-sample.idx");
        let bytes = std::fs::read(&gz)
            .unwrap_or_else(|e| panic!("pywb ZipNum sample {} missing: {e}", gz.display()));
        let sample_idx = read_idx(&idx_path);
        // The sample's blocks are gzip members whose text lacks a final
        // '\n': gunzip member by member, never as one stream (that would
        // join each block's last line with the next block's first).
        let blocks: Vec<Vec<Vec<u8>>> = gunzip_members(&bytes)
            .iter()
            .map(|m| split_lines(m))
            .collect();
        assert_eq!(blocks.len(), sample_idx.len());
        let per_block = blocks[0].len();
        assert_eq!(per_block, 5, "the sample's block size");
        assert!(
            blocks[..blocks.len() - 1]
                .iter()
                .all(|b| b.len() == per_block)
        );
        let lines: Vec<Vec<u8>> = blocks.concat();

        let dir = tempdir();
        let opts = ZipNumOptions {
            lines_per_block: per_block,
            name: "zipnum".to_owned(),
            ..ZipNumOptions::default()
        };
        let stats = write(dir.path(), opts, &lines);
        let ours = verify(dir.path(), &stats, &lines, per_block);
        assert_eq!(ours.len(), sample_idx.len());
        for (o, s) in ours.iter().zip(&sample_idx) {
            assert_eq!((&o.key, o.block), (&s.key, s.block));
            assert_eq!(o.shard, "zipnum-00");
        }
        // The sample's own offsets delimit its members exactly, as ours do.
        let mut at = 0;
        for s in &sample_idx {
            assert_eq!(s.offset, at);
            at += s.length;
            let text = gunzip_member(&bytes[s.offset as usize..at as usize]);
            assert_eq!(block_key(&split_lines(&text)[0]), s.key.as_bytes());
        }
        assert_eq!(at, bytes.len() as u64);
    }
}
