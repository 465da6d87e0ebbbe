//! `spinneret links` on the [`crate::driver`]: its
//! [`Job`](job::LinksJob) processes each item into an
//! [`Outcome`](job::Outcome) (the page's rendered lines or Arrow rows),
//! its [`Sink`](sink::LinksSink) writes them in input order, through
//! `--unique`, as JSON Lines, TSV or Parquet.
//!
//! A page whose rendered lines would pass their budget (twice the page, at
//! least a megabyte: [`Lines`](job::Lines)) comes back from the pool
//! without them, and the writing thread renders it again, in its turn,
//! writing each line as it is made (`StreamOut`); an item over
//! [`STREAM_PAYLOAD`](job::STREAM_PAYLOAD) goes to the writing thread
//! directly (processing it twice, on two threads, would hold the
//! extractor's buffers twice). So a page with a million links costs the
//! page and its compact pending links, not its whole output (nine times
//! the page in JSON Lines); the output bytes and their order are the same
//! either way. A link longer than [`SPILL_ROW`](job::SPILL_ROW) is
//! rendered by the writing thread straight into the output (`Spill`), so a
//! 50 MB link costs the page and its resolved URL, not a 100 MB line too.
//!
//! Files: [`args`] (the flags), [`job`] (an item to its lines or rows, on
//! a worker), [`sink`] (in input order, `--unique`, streaming), [`format`](mod@format)
//! (a link as a JSON or TSV line), [`parquet`] (the Parquet writer),
//! [`stats`] (`--stats` and the summary line).
//!
//! Stops: a bad record is reported on the diagnostic stream (`file: offset
//! N: what`) and counted; an input that cannot be read is reported
//! (`cannot read: path: why`), counted, and makes the exit code 1 once the
//! rest is done; with `--strict` the run stops at either
//! ([`Status::Strict`], exit code 2). A closed output pipe (EPIPE) stops the
//! run quietly ([`Status::OutputClosed`], exit code 0). Any other output
//! error is an [`Error::Output`].
//!
//! Invariant: the output bytes depend only on the inputs and the output
//! options, never on `--threads` or `--batch`.

pub mod args;
pub mod format;
pub mod job;
#[cfg(feature = "parquet")]
pub mod parquet;
#[cfg(not(feature = "parquet"))]
#[path = "parquet_absent.rs"]
pub mod parquet;
pub mod resume;
pub mod sink;
pub mod stats;
pub mod wat;

use std::io::{BufWriter, Write};
use std::time::Instant;

use spinneret_warc::Options;

pub use args::{Format, LinksArgs};
use format::Unique;
use job::{LinksJob, Render};
use parquet::ParquetOut;
use resume::LinksResume;
use sink::LinksSink;
pub use stats::Stats;

use crate::Error;
use crate::columnar;
use crate::driver::{self, Drive, Status};
use crate::inputs;
use crate::outputs::parts::PartsOut;
use crate::outputs::resume::Resume;
use crate::outputs::{self, Binary};

impl RunResult {
    /// The process exit code: 2 for a strict stop; 1 when an input could
    /// not be read (the rest was processed, as ripgrep does); else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Strict => 2,
            Status::Complete if self.stats.unreadable_inputs > 0 => 1,
            Status::Complete | Status::OutputClosed => 0,
        }
    }
}

/// The result of a run.
#[derive(Debug)]
pub struct RunResult {
    /// How the run ended (and so the exit code).
    pub status: Status,
    /// What it read and wrote.
    pub stats: Stats,
}

/// Runs `spinneret links`: output lines to `out`, bad-record lines and the
/// summary to `diag`, a progress bar on stderr when `progress`.
pub fn run(
    args: &LinksArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<RunResult, Error> {
    run_on(args, out, None, diag, progress)
}

/// [`run`], resumable when given the run's [`Resume`] (`--resume`: `out`
/// is then the resume folder's output file).
fn run_on(
    args: &LinksArgs,
    out: &mut dyn Write,
    resume: Option<&mut Resume>,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<RunResult, Error> {
    let start = Instant::now();
    let sources = (args.input).sources_with_page(args.html.as_deref(), args.url.as_deref())?;
    let (resume, restored_stats, unique) = match resume {
        Some(r) => {
            let restored = LinksResume::start(r, args, &sources)?;
            (Some(restored.resume), restored.stats, restored.unique)
        }
        None => (None, None, Unique::default()),
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
    let profile = args.profile_args.build(&args.profile)?;
    let plain_whatwg = profile.engine == spinneret_canon::Engine::Whatwg
        && profile.rules == spinneret_canon::RuleSet::EMPTY
        && profile.key == spinneret_canon::KeyForm::Url;
    let render = Render {
        format: args.format,
        unique: args.unique,
        canon: (!plain_whatwg).then_some(&profile),
    };
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
    let resumed = restored_stats.is_some();
    let mut sink = LinksSink {
        args,
        render,
        w: BufWriter::with_capacity(1 << 16, target),
        unique,
        parquet: match args.format {
            Format::Parquet => Some(ParquetOut::new().map_err(Error::Parquet)?),
            Format::Jsonl | Format::Tsv => None,
        },
        stats: restored_stats.unwrap_or_else(|| Stats {
            inputs: inputs::count(&sources),
            ..Stats::default()
        }),
        resume,
        resumed,
    };
    let driven = driver::drive(
        &sources[skip..],
        &LinksJob { render },
        &mut sink,
        &how,
        diag,
    )?;
    let mut status = driven.status;
    if let Some(parts) = &parts {
        // The last part, then the parts joined into the output.
        resume::seal_part(&mut sink.parquet, &mut sink.w, parts)?;
    }
    let (mut w, parquet, mut stats) = {
        // The rest of the sink ends here, its borrow of the output with it.
        let sink = sink;
        let LinksSink {
            w, parquet, stats, ..
        } = sink;
        (w, parquet, stats)
    };
    stats.bytes = bytes_before + driven.bytes;
    if let Some(parts) = &parts {
        drop(w);
        let parts = parts.borrow();
        let joined = if parts.count() == 0 {
            // No rows at all: the file of none.
            parquet.map_or(Ok(()), |p| p.finish(&mut *out))
        } else {
            parts.join(&mut *out)
        };
        joined.map_err(Error::Parquet)?;
    } else {
        if status != Status::OutputClosed
            && let Some(p) = parquet
            && !columnar::parquet_written(p.finish(&mut w))?
        {
            status = Status::OutputClosed;
        }
        if status != Status::OutputClosed && !outputs::flush(&mut w)? {
            status = Status::OutputClosed;
        }
    }
    stats.stopped = status.stopped();
    stats.finish(start.elapsed());
    if let Some(path) = &args.stats {
        outputs::write_stats(path, &stats)?;
    }
    let _ = writeln!(diag, "{}", stats.summary());
    Ok(RunResult { status, stats })
}

/// `spinneret links` as the binary runs it: to `-o FILE` or standard
/// output (Parquet refused on a terminal), problems and the summary to
/// standard error; the exit code.
pub fn exec(args: &LinksArgs) -> Result<u8, Error> {
    if let (true, Some(path)) = (args.resumable.resume, &args.output) {
        let every = args.resumable.checkpoint_every;
        let run = |out: &mut dyn Write, resume: &mut Resume, diag: &mut dyn Write, progress| {
            run_on(args, out, Some(resume), diag, progress)
        };
        return Ok(outputs::run_resumable(path, every, run)?.exit_code());
    }
    let binary = (args.format == Format::Parquet).then_some(Binary::PARQUET);
    let run = |out: &mut dyn Write, diag: &mut dyn Write, progress| run(args, out, diag, progress);
    Ok(outputs::run_to(args.output.as_deref(), binary, run)?.exit_code())
}
