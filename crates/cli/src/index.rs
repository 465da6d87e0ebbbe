//! `spinneret index`: WARC/ARC files to the sorted CDXJ or CDX index a
//! replay system (pywb, OpenWayback, OutbackCDX) serves, or a ZipNum
//! cluster of it.
//!
//! On the [`driver`]: the workers read each record's head
//! (`Content::Head`: a block up to `--max-record-size` whole, the start of
//! a longer one) and make its [`Entry`]; the sink, in input order, joins
//! requests to their responses and settles each record's byte range
//! ([`Settler`], shared with the Python package's `warc_index`: a record
//! sharing its gzip member with another cannot be seeked to: its
//! decompressed range is written, marked, and reported once per file;
//! `--strict` stops instead), renders the line and hands it to the
//! external sort (bounded by `--memory`), straight to the output
//! (`--no-sort`) or, once sorted, to a ZipNum writer (`--zipnum DIR`).
//!
//! A damaged record is reported (`file: offset N: what`) and skipped: no
//! line is written for it, the rest is indexed, and the exit code is 1.

use std::collections::HashSet;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::{Args, ValueEnum};
use spinneret_index::cc_columns::{self, CcColumns};
use spinneret_index::entry::{Entry, Fields, IndexOptions, Placement, RecordTypes};
use spinneret_index::line::{self, CDX11_HEADER, Range};
use spinneret_index::ordered::{Settled, Settler};
use spinneret_index::sort::{ExternalSorter, SortError, SortOptions};
use spinneret_index::zipnum::{ZipNumOptions, ZipNumWriter};
use spinneret_warc::{Content, Options};

use crate::Error;
use crate::columnar::{self, BatchWriter, STREAM_BATCH_BYTES, STREAM_BATCH_ROWS};
use crate::driver::{self, Drive, Flow, Job, Report, Sink, Status};
use crate::input::{self, Item};

/// Index line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IndexFormat {
    /// `urlkey timestamp {json}`: pywb's and cdxj-indexer's CDXJ.
    Cdxj,
    /// The classic CDX ` CDX N b a m s k r M S V g`, header line included.
    Cdx11,
    /// Common Crawl's cc-index-table columns as one Parquet file, rows in
    /// input order (`spinneret_index::cc_columns`).
    Parquet,
}

/// `spinneret index [OPTIONS] INPUT...`
#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// WARC/ARC files (plain, .gz, .zst), directories (walked), globs, or
    /// `-` for standard input.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// In directories, take every file whose first bytes are a WARC/ARC
    /// record (or a compressed one), whatever its name.
    #[arg(long)]
    pub sniff: bool,

    /// A list of WARC paths, one per line (plain or .gz, as Common
    /// Crawl's `warc.paths.gz`), relative to `--dir`.
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The folder `--manifest` paths are relative to (default: the
    /// manifest's own).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    pub dir: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = IndexFormat::Cdxj)]
    pub format: IndexFormat,

    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Optional fields, comma-separated: redirect, charset, mime-detected,
    /// truncated, recordid, or cc (Common Crawl's four).
    #[arg(long, value_name = "LIST", value_parser = parse_fields)]
    pub fields: Option<Fields>,

    /// Record types that get a line: a comma-separated list of WARC types,
    /// or `all`. Default: response, revisit, resource, metadata (not those
    /// of application/warc-fields), as cdxj-indexer.
    #[arg(long, value_name = "TYPES", value_parser = parse_records)]
    pub records: Option<RecordTypes>,

    /// Do not fold POST/PUT request bodies into the key (pywb indexes
    /// collections with them folded: `?__wb_method=post&…`).
    #[arg(long)]
    pub no_post_append: bool,

    /// Write lines in input order, unsorted, as they are made.
    #[arg(long, conflicts_with = "zipnum")]
    pub no_sort: bool,

    /// Memory for sorting: lines are held up to half of it, then sorted
    /// runs go to temporary files, merged with the other half as read
    /// buffers (the binary's allocator keeps freed memory for reuse, so
    /// the two halves add up).
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = crate::args::parse_size)]
    pub memory: u64,

    /// Folder for the sort's temporary files (default: the system's).
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,

    /// Write a ZipNum cluster (gzip blocks, `.idx`, `.loc`) into DIR
    /// instead of plain lines.
    #[arg(long, value_name = "DIR")]
    pub zipnum: Option<PathBuf>,

    /// ZipNum lines per gzip block.
    #[arg(long, value_name = "N", default_value_t = 3000, requires = "zipnum")]
    pub lines: usize,

    /// ZipNum: start a new shard once one has this many bytes.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = crate::args::parse_size, requires = "zipnum")]
    pub shard_size: u64,

    /// ZipNum cluster's name (files NAME-NN.cdx.gz, NAME.idx, NAME.loc).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "index",
        requires = "zipnum"
    )]
    pub cluster_name: String,

    /// The `filename` field is the path relative to DIR (default: the
    /// file's name).
    #[arg(long, value_name = "DIR")]
    pub dir_root: Option<PathBuf>,

    /// The `filename` field, for every input (standard input's default is
    /// `-`).
    #[arg(long, value_name = "NAME")]
    pub filename: Option<String>,

    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// A record block up to this size is read whole (its payload digest
    /// computed when the record has none); of a larger one, only the
    /// start (it is indexed all the same).
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = crate::args::parse_size)]
    pub max_record_size: u64,

    /// Stop at the first damaged record, unreadable input, or record that
    /// replay cannot seek to (exit code 2).
    #[arg(long)]
    pub strict: bool,
}

fn parse_fields(s: &str) -> Result<Fields, String> {
    Fields::parse(s)
}

fn parse_records(s: &str) -> Result<RecordTypes, String> {
    RecordTypes::parse(s)
}

/// The result of an index run.
#[derive(Debug, Clone, Copy)]
pub struct IndexResult {
    /// How the run ended.
    pub status: Status,
    /// Records read.
    pub records: u64,
    /// Lines written.
    pub lines: u64,
    /// Damaged records skipped.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
    /// Records written with decompressed offsets (not seekable).
    pub unseekable: u64,
}

impl IndexResult {
    /// 2 for a strict stop; 1 when a record was damaged or an input
    /// unreadable; else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Strict => 2,
            _ if self.damaged + self.unreadable > 0 => 1,
            _ => 0,
        }
    }
}

/// One item's result.
enum Done {
    /// A record's entry (None: a record that gets no line and joins
    /// nothing, which still separates its neighbours).
    Record {
        file: Arc<str>,
        entry: Option<Result<Box<Entry>, String>>,
        offset: u64,
    },
    /// Damage or an unreadable input, for stderr.
    Problem {
        what: &'static str,
        msg: String,
        /// The damage's file and offset (none for an unreadable input).
        at: Option<(Arc<str>, u64)>,
    },
}

struct IndexJob {
    opts: IndexOptions,
}

impl Job for IndexJob {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        match item {
            Item::Record {
                file,
                record,
                end,
                container,
            } => {
                let placement = Placement {
                    offset: record.offset,
                    end,
                    stream_offset: record.stream_offset,
                    stored_len: record.stored_len,
                    container,
                    starts_member: record.starts_member,
                    ends_member: record.ends_member,
                };
                let entry = Entry::of(&record, placement, &self.opts)
                    .map(|r| r.map(Box::new).map_err(|e| e.to_string()));
                Done::Record {
                    file,
                    entry,
                    offset: record.offset,
                }
            }
            Item::Bad { file, what, offset } => Done::Problem {
                at: offset.map(|o| (file.clone(), o)),
                what: "bad record",
                // The reader's message names the offset.
                msg: format!("{file}: {what}"),
            },
            Item::Unreadable { file, what } => Done::Problem {
                at: None,
                what: "cannot read",
                msg: format!("{file}: {what}"),
            },
            Item::Page { file, .. } => Done::Problem {
                at: None,
                what: "bad record",
                msg: format!("{file}: an HTML page, not a WARC/ARC record: not indexed"),
            },
        }
    }
}

/// Where lines go.
enum Lines<'o> {
    /// Straight out, in input order.
    Direct(BufWriter<&'o mut dyn Write>),
    /// Into the external sort (then out, or into a ZipNum cluster).
    Sorted(ExternalSorter, &'o mut dyn Write),
    /// Into cc-index rows, written as Parquet in input order (boxed: the
    /// builders and the writer are large).
    Parquet(Box<(CcColumns, BatchWriter)>, &'o mut dyn Write),
}

struct IndexSink<'a, 'o> {
    args: &'a IndexArgs,
    lines: Lines<'o>,
    line: String,
    /// Joins and seekability, in input order.
    settler: Settler<Arc<str>>,
    /// Files reported as not seekable.
    warned: HashSet<Arc<str>>,
    result: IndexResult,
}

impl IndexSink<'_, '_> {
    /// The `filename` field of `file`.
    fn filename(&self, file: &str) -> String {
        if let Some(f) = &self.args.filename {
            return f.clone();
        }
        let path = Path::new(file);
        if let Some(root) = &self.args.dir_root
            && let Ok(rel) = path.strip_prefix(root)
        {
            return rel.to_string_lossy().replace('\\', "/");
        }
        path.file_name()
            .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned())
    }

    /// Writes the line of `e` (settled: it gets one) at `range`.
    fn emit(
        &mut self,
        file: &Arc<str>,
        e: &Entry,
        range: Range,
        report: &mut Report<'_>,
    ) -> Result<Flow, Error> {
        if let Range::Decompressed(..) = range {
            self.result.unseekable += 1;
            if self.warned.insert(file.clone()) {
                let msg = format!(
                    "{file}: records share gzip members (a whole-file gzip?): replay cannot seek to them; \
                     their lines carry decompressed offsets, marked \"offset-kind\": \"decompressed\""
                );
                if let Flow::Stop(s) = report.problem("not seekable", &msg) {
                    return Ok(Flow::Stop(s));
                }
            }
        }
        let name = self.filename(file);
        if let Lines::Parquet(parquet, out) = &mut self.lines {
            let (cols, writer) = &mut **parquet;
            if let Err(why) = cols.push(e, &name, range, None) {
                self.result.damaged += 1;
                let msg = format!("{file}: offset {}: {why}", e.placement.offset);
                return Ok(report.problem("bad record", &msg));
            }
            self.result.lines += 1;
            if cols.len() >= STREAM_BATCH_ROWS || cols.bytes() >= STREAM_BATCH_BYTES {
                let batch = cols.finish().map_err(|e| Error::Parquet(e.into()))?;
                if !columnar::parquet_written(writer.write(&batch, &mut **out))? {
                    return Ok(Flow::Stop(Status::OutputClosed));
                }
            }
            return Ok(Flow::Go);
        }
        self.line.clear();
        match self.args.format {
            IndexFormat::Cdxj => line::cdxj(&mut self.line, e, &name, range),
            IndexFormat::Cdx11 => line::cdx11(&mut self.line, e, &name, range),
            IndexFormat::Parquet => unreachable!("parquet rows are not lines"),
        }
        self.result.lines += 1;
        match &mut self.lines {
            Lines::Direct(w) => match w.write_all(self.line.as_bytes()) {
                Ok(()) => Ok(Flow::Go),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    Ok(Flow::Stop(Status::OutputClosed))
                }
                Err(e) => Err(Error::Output(e)),
            },
            Lines::Parquet(..) => Ok(Flow::Go),
            Lines::Sorted(s, _) => {
                let l = self.line.strip_suffix('\n').unwrap_or(&self.line);
                s.push(l.as_bytes())
                    .map_err(|e| Error::Index(e.to_string()))?;
                Ok(Flow::Go)
            }
        }
    }

    /// Writes the lines of settled entries, in order.
    fn emit_all(
        &mut self,
        settled: Settled<Arc<str>>,
        report: &mut Report<'_>,
    ) -> Result<Flow, Error> {
        for (file, e, range) in settled {
            if let Flow::Stop(s) = self.emit(&file, &e, range, report)? {
                return Ok(Flow::Stop(s));
            }
        }
        Ok(Flow::Go)
    }
}

impl Sink<Done> for IndexSink<'_, '_> {
    fn begin(&mut self) -> Result<Flow, Error> {
        if self.args.format == IndexFormat::Cdx11
            && self.args.zipnum.is_none()
            && let Lines::Direct(w) = &mut self.lines
        {
            return match writeln!(w, "{CDX11_HEADER}") {
                Ok(()) => Ok(Flow::Go),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    Ok(Flow::Stop(Status::OutputClosed))
                }
                Err(e) => Err(Error::Output(e)),
            };
        }
        Ok(Flow::Go)
    }

    fn write(&mut self, done: Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        let (file, entry, offset) = match done {
            Done::Problem { what, msg, at } => {
                if what == "cannot read" {
                    self.result.unreadable += 1;
                } else {
                    self.result.damaged += 1;
                }
                if let Flow::Stop(s) = report.problem(what, &msg) {
                    return Ok(Flow::Stop(s));
                }
                // Damage separates the records around it.
                let settled = match at {
                    Some((file, offset)) => self.settler.damage(file, offset),
                    None => self.settler.separate(),
                };
                return self.emit_all(settled, report);
            }
            Done::Record {
                file,
                entry,
                offset,
            } => (file, entry, offset),
        };
        self.result.records += 1;
        let entry = match entry {
            None => None,
            Some(Err(what)) => {
                self.result.damaged += 1;
                let msg = format!("{file}: offset {offset}: {what}");
                if let Flow::Stop(s) = report.problem("bad record", &msg) {
                    return Ok(Flow::Stop(s));
                }
                // A damaged record separates its neighbours as any
                // record without an entry does.
                None
            }
            Some(Ok(e)) => Some(*e),
        };
        let settled = self.settler.record(file, offset, entry);
        self.emit_all(settled, report)
    }

    fn end(&mut self, report: &mut Report<'_>) -> Result<Flow, Error> {
        let settled = self.settler.finish();
        self.emit_all(settled, report)
    }

    fn progress(&self, secs: f64) -> Option<String> {
        Some(format!(
            "{:.0} records/s",
            self.result.records as f64 / secs
        ))
    }
}

/// Runs `spinneret index`: lines to `out` (or the ZipNum folder),
/// problems and the summary to `diag`.
pub fn run(
    args: &IndexArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<IndexResult, Error> {
    let start = std::time::Instant::now();
    let sources = input::resolve_crawl(
        &args.inputs,
        args.sniff,
        args.manifest.as_deref(),
        args.dir.as_deref(),
    )?;
    let opts = IndexOptions {
        records: args.records.unwrap_or_default(),
        fields: args.fields.unwrap_or_default(),
        post_append: !args.no_post_append,
    };
    let head = usize::try_from(args.max_record_size).unwrap_or(usize::MAX);
    let how = Drive {
        threads: args.threads,
        batch: 1024,
        opts: Options {
            max_record_size: args.max_record_size,
            content: Content::Head(head),
            ..Options::default()
        },
        strict: args.strict,
        progress,
    };
    let lines = if args.format == IndexFormat::Parquet {
        if args.zipnum.is_some() {
            return Err(Error::Index(
                "--zipnum writes CDX lines: not with --format parquet".to_owned(),
            ));
        }
        let writer = BatchWriter::new(cc_columns::schema()).map_err(Error::Parquet)?;
        Lines::Parquet(Box::new((CcColumns::new(), writer)), out)
    } else if args.no_sort {
        Lines::Direct(BufWriter::with_capacity(1 << 16, out))
    } else {
        Lines::Sorted(
            ExternalSorter::new(SortOptions {
                // Half for the lines, half for the merge: see `--memory`.
                memory: usize::try_from(args.memory / 2).unwrap_or(usize::MAX),
                temp_dir: args.temp_dir.clone(),
            }),
            out,
        )
    };
    let mut sink = IndexSink {
        args,
        lines,
        line: String::new(),
        settler: Settler::new(opts.post_append),
        warned: HashSet::new(),
        result: IndexResult {
            status: Status::Complete,
            records: 0,
            lines: 0,
            damaged: 0,
            unreadable: 0,
            unseekable: 0,
        },
    };
    let driven = driver::drive(&sources, &IndexJob { opts }, &mut sink, &how, diag)?;
    let mut status = driven.status;
    let mut result = sink.result;
    match sink.lines {
        Lines::Direct(mut w) => {
            if status != Status::OutputClosed
                && let Err(e) = w.flush()
            {
                if e.kind() == io::ErrorKind::BrokenPipe {
                    status = Status::OutputClosed;
                } else {
                    return Err(Error::Output(e));
                }
            }
        }
        Lines::Parquet(parquet, out) if status != Status::OutputClosed => {
            let (mut cols, mut writer) = *parquet;
            let r = (|| {
                let batch = cols.finish()?;
                writer.write(&batch, out)?;
                writer.finish(out)
            })();
            if !columnar::parquet_written(r)? {
                status = Status::OutputClosed;
            }
        }
        Lines::Parquet(..) => {}
        Lines::Sorted(sorter, out) if status == Status::Complete => {
            status = finish_sorted(args, sorter, out)?;
        }
        Lines::Sorted(..) => {}
    }
    result.status = status;
    let _ = writeln!(
        diag,
        "spinneret index: {} records, {} lines, {} damaged, {} unreadable inputs, {} not seekable, {:.1} MB in {:.2} s",
        result.records,
        result.lines,
        result.damaged,
        result.unreadable,
        result.unseekable,
        driven.bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(result)
}

/// Writes the sorted lines out, or into a ZipNum cluster.
fn finish_sorted(
    args: &IndexArgs,
    sorter: ExternalSorter,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    let index_err = |e: String| Error::Index(e);
    if let Some(dir) = &args.zipnum {
        std::fs::create_dir_all(dir).map_err(|source| Error::Input {
            path: dir.display().to_string(),
            source,
        })?;
        let mut z = ZipNumWriter::create(
            dir,
            ZipNumOptions {
                lines_per_block: args.lines.max(1),
                shard_bytes: args.shard_size,
                name: args.cluster_name.clone(),
                ..ZipNumOptions::default()
            },
        )
        .map_err(|e| index_err(e.to_string()))?;
        let mut failed = None;
        sorter
            .finish(&mut |l| {
                z.push(l).map_err(|e| {
                    let msg = e.to_string();
                    failed = Some(msg.clone());
                    io::Error::other(msg)
                })
            })
            .map_err(|e| index_err(failed.clone().unwrap_or_else(|| e.to_string())))?;
        z.finish().map_err(|e| index_err(e.to_string()))?;
        return Ok(Status::Complete);
    }
    let mut w = BufWriter::with_capacity(1 << 16, out);
    if args.format == IndexFormat::Cdx11 {
        match writeln!(w, "{CDX11_HEADER}") {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(Status::OutputClosed),
            Err(e) => return Err(Error::Output(e)),
        }
    }
    let r = sorter.finish(&mut |l| {
        w.write_all(l)?;
        w.write_all(b"\n")
    });
    let r = r
        .map(|_| ())
        .and_then(|()| w.flush().map_err(SortError::Sink));
    match r {
        Ok(()) => Ok(Status::Complete),
        Err(SortError::Sink(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            Ok(Status::OutputClosed)
        }
        Err(SortError::Sink(e)) => Err(Error::Output(e)),
        Err(e) => Err(index_err(e.to_string())),
    }
}
