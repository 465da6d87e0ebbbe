//! `spinneret check`: verify what WARC files claim — digests, mandatory
//! fields, HTTP heads, revisits, framing, one record per gzip member (the
//! checks and their severities: [`spinneret_warc::verify`]).
//!
//! On the [`driver`]: the reader keeps every record's whole
//! block ([`Content::Block`], up to `--max-record-size`, 1 GiB by default:
//! a verifier hashes whole records); the workers run
//! [`verify_record`](spinneret_warc::verify::verify_record) and drop the
//! block; the sink, in input order, runs each file's
//! [`FileCheck`](spinneret_warc::verify::FileCheck) (shared members, duplicate ids, revisits against their
//! originals) and writes one line per problem, as
//! `FILE\tOFFSET\tRECORD-ID\tSEVERITY\tWHAT` (`-` for an empty column;
//! tabs and line ends in a value become spaces) or as JSON Lines
//! (`file`, `offset`, `record_id`, `severity`, `kind`, `message`). A summary
//! goes to the diagnostic stream: files, records, digests verified /
//! failed / unverifiable, problems by kind.
//!
//! Exit code ([`CheckResult::exit_code`]): 1 when any error was found or an
//! input could not be read (with `--strict`, any warning too); else 0.
//! A closed output pipe stops the run quietly; the exit code then reflects
//! what was checked.
//!
//! The reader's errors reach the sink as [`Item::Bad`](crate::inputs::Item::Bad) with the error's
//! message, whose kind [`reader_kind`](job::reader_kind) tells again (each `RecordError`'s
//! message starts its own way; a test pins them to
//! [`Problem::kind`](spinneret_warc::verify::Problem::kind)).
//!
//! Files: [`args`] (the flags), `job` (a record verified on a worker),
//! `sink` (each file's checks and the problem lines, in input order),
//! [`stats`] (the counts, the summary and the exit code).

pub mod args;
pub mod job;
pub mod sink;
pub mod stats;

use std::io::{BufWriter, Write};
use std::time::Instant;

use spinneret_warc::{Content, Options};

pub use args::{CheckArgs, CheckFormat};
use job::CheckJob;
use sink::CheckSink;
pub use stats::{CheckResult, CheckStats, DigestCounts};

use crate::Error;
use crate::driver::{self, Drive, Status};
use crate::inputs;
use crate::outputs;

/// Runs `spinneret check`: problem lines to `out`, the summary to `diag`,
/// a progress bar on stderr when `progress`.
pub fn run(
    args: &CheckArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<CheckResult, Error> {
    let start = Instant::now();
    let sources = args.input.sources(args.input.discover())?;
    let how = Drive {
        threads: args.workers.threads,
        batch: 256,
        opts: Options {
            max_record_size: args.max_record_size,
            content: Content::Block,
            ..Options::default()
        },
        strict: false,
        progress,
    };
    let mut sink = CheckSink {
        format: args.format,
        quiet: args.quiet,
        w: BufWriter::with_capacity(1 << 16, out),
        current: None,
        stats: CheckStats {
            inputs: inputs::count(&sources),
            ..CheckStats::default()
        },
    };
    let driven = driver::drive(&sources, &CheckJob, &mut sink, &how, diag)?;
    let CheckSink {
        mut w, mut stats, ..
    } = sink;
    let mut status = driven.status;
    if status != Status::OutputClosed && !outputs::flush(&mut w)? {
        status = Status::OutputClosed;
    }
    stats.bytes = driven.bytes;
    stats.stopped = status.stopped();
    stats.elapsed_seconds = start.elapsed().as_secs_f64();
    stats.mb_per_s = if stats.elapsed_seconds > 0.0 {
        stats.bytes as f64 / 1e6 / stats.elapsed_seconds
    } else {
        0.0
    };
    if let Some(path) = &args.stats {
        outputs::write_stats(path, &stats)?;
    }
    let _ = writeln!(diag, "{}", stats.summary());
    Ok(CheckResult {
        status,
        stats,
        strict: args.strict,
    })
}

/// `spinneret check` as the binary runs it: problem lines to standard
/// output, the summary to standard error; the exit code.
pub fn exec(args: &CheckArgs) -> Result<u8, Error> {
    let run = |out: &mut dyn Write, diag: &mut dyn Write, progress| run(args, out, diag, progress);
    Ok(outputs::run_to(None, None, run)?.exit_code())
}
