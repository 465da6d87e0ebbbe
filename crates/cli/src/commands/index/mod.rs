//! `spinneret index`: WARC/ARC files to the sorted CDXJ or CDX index a
//! replay system (pywb, OpenWayback, OutbackCDX) serves, or a ZipNum
//! cluster of it.
//!
//! On the [`driver`]: the workers read each record's head
//! (`Content::Head`: a block up to `--max-record-size` whole, the start of
//! a longer one; with `--skim`, `Content::Skim`: a gzip member holding one
//! response or resource is inflated through its HTTP head only, the next
//! member found by its magic and its trailer's length) and make its [`Entry`](spinneret_index::entry::Entry); the sink, in input order, joins
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
//!
//! Files: [`args`] (the flags), `job` (a record to its entry, on the
//! workers), `sink` (lines in input order: joins, byte ranges, the sort,
//! Parquet, ZipNum), `result` (the run's counts and exit code).

pub mod args;
pub mod job;
pub mod result;
pub mod resume;
pub mod sink;

use std::collections::HashSet;
use std::io::{BufWriter, Write};

use spinneret_index::cc_columns::{self, CcColumns};
use spinneret_index::entry::IndexOptions;
use spinneret_index::ordered::Settler;
use spinneret_index::sort::{ExternalSorter, SortOptions};
use spinneret_warc::{Content, Options};

pub use args::{IndexArgs, IndexFormat};
use job::IndexJob;
pub use result::IndexResult;
use resume::IndexResume;
use sink::{IndexSink, Lines};

use crate::Error;
use crate::columnar::BatchWriter;
use crate::driver::{self, Drive, Status};
use crate::outputs::parts::PartsOut;
use crate::outputs::resume::Resume;
use crate::outputs::{self, Binary};

/// Runs `spinneret index`: lines to `out` (or the ZipNum folder),
/// problems and the summary to `diag`.
pub fn run(
    args: &IndexArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<IndexResult, Error> {
    run_on(args, out, None, diag, progress)
}

/// [`run`], resumable when given the run's [`Resume`] (`--resume`: `out`
/// is then the resume folder's output file).
fn run_on(
    args: &IndexArgs,
    out: &mut dyn Write,
    resume: Option<&mut Resume>,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<IndexResult, Error> {
    let start = std::time::Instant::now();
    let sources = args.input.sources(args.input.discover())?;
    let (resume, state) = match resume {
        Some(r) => {
            let (r, state) = IndexResume::start(r, args, &sources)?;
            (Some(r), state)
        }
        None => (None, None),
    };
    let skip = resume.as_ref().map_or(0, |r| r.skipped());
    let bytes_before = resume.as_ref().map_or(0, |r| r.bytes_before());
    let parts = resume.as_ref().and_then(|r| r.parts.clone());
    // Parquet rows of a resumable run go into its parts.
    let mut parts_out = parts.clone().map(PartsOut);
    let target: &mut dyn Write = match &mut parts_out {
        Some(p) => p,
        None => &mut *out,
    };
    let opts = IndexOptions {
        records: args.records.unwrap_or_default(),
        fields: args.fields.unwrap_or_default(),
        post_append: !args.no_post_append,
    };
    let head = usize::try_from(args.max_record_size).unwrap_or(usize::MAX);
    // The skim reads no payload: not when a field is made from one.
    let skim = args.skim && !opts.fields.charset && !opts.fields.mime_detected;
    let how = Drive {
        threads: args.workers.threads,
        batch: 1024,
        opts: Options {
            max_record_size: args.max_record_size,
            content: if skim {
                Content::Skim(head)
            } else {
                Content::Head(head)
            },
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
        Lines::Parquet(Box::new((CcColumns::new(), writer)), target)
    } else if args.no_sort {
        Lines::Direct(BufWriter::with_capacity(1 << 16, target))
    } else {
        let mut sorter = ExternalSorter::new(SortOptions {
            // Half for the lines, half for the merge: see `--memory`.
            memory: usize::try_from(args.memory / 2).unwrap_or(usize::MAX),
            // A resumable run's spills go beside its kept runs (moved
            // there at a checkpoint, not copied).
            temp_dir: (args.temp_dir.clone()).or_else(|| resume.as_ref().map(|r| r.spill_dir())),
        });
        if let Some(r) = &resume {
            sorter.adopt(r.kept_runs());
        }
        Lines::Sorted(sorter, target)
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
        resume,
        resumed: state.is_some(),
    };
    if let Some(state) = &state {
        resume::restored_result(state, &mut sink.result);
    }
    let driven = driver::drive(&sources[skip..], &IndexJob { opts }, &mut sink, &how, diag)?;
    let (mut lines, mut result) = {
        // The rest of the sink ends here, its borrow of the output with it.
        let sink = sink;
        (sink.lines, sink.result)
    };
    let status = match (&parts, &mut lines) {
        (Some(parts), Lines::Parquet(parquet, part_out)) => {
            // The last part, then the parts joined into the output.
            resume::seal_part(parquet, &mut **part_out, parts)?;
            drop(lines);
            let parts = parts.borrow();
            let joined = if parts.count() == 0 {
                // No rows at all: the file of none.
                BatchWriter::new(cc_columns::schema()).and_then(|w| w.finish(&mut *out))
            } else {
                parts.join(&mut *out)
            };
            joined.map_err(Error::Parquet)?;
            driven.status
        }
        _ => lines.finish(args, driven.status)?,
    };
    result.status = status;
    let counts = [
        (result.records, "records"),
        (result.lines, "lines"),
        (result.damaged, "damaged"),
        (result.unreadable, "unreadable inputs"),
        (result.unseekable, "not seekable"),
    ];
    let bytes = bytes_before + driven.bytes;
    let summary = outputs::summary("index", &counts, bytes, start.elapsed());
    let _ = writeln!(diag, "{summary}");
    Ok(result)
}

/// `spinneret index` as the binary runs it: to `-o FILE` or standard
/// output (Parquet refused on a terminal), problems and the summary to
/// standard error; the exit code.
pub fn exec(args: &IndexArgs) -> Result<u8, Error> {
    if let (true, Some(path)) = (args.resumable.resume, &args.output) {
        let every = args.resumable.checkpoint_every;
        let run = |out: &mut dyn Write, resume: &mut Resume, diag: &mut dyn Write, progress| {
            run_on(args, out, Some(resume), diag, progress)
        };
        return Ok(outputs::run_resumable(path, every, run)?.exit_code());
    }
    let binary = (args.format == IndexFormat::Parquet).then_some(Binary::PARQUET);
    let run = |out: &mut dyn Write, diag: &mut dyn Write, progress| run(args, out, diag, progress);
    Ok(outputs::run_to(args.output.as_deref(), binary, run)?.exit_code())
}
