//! The `spinneret links` run: a producer thread reads inputs into batches of
//! items (at most [`LinksArgs::batch`] records or [`BATCH_BYTES`] of
//! payload); a processor thread has each batch processed in parallel on a
//! rayon pool of `--threads` workers; the calling thread writes each batch's
//! outcomes in input order while the next batch is processed. Each channel
//! holds one batch, so memory is bounded by about five batches (one being
//! read, one queued, one being processed, its queued outcomes, the ones
//! being written; plus the streaming reader's buffers, a few times
//! `--max-record-size`).
//!
//! A page whose rendered lines would pass their budget (twice the page, at
//! least a megabyte: [`Lines`]) comes back from the
//! pool without them, and the writing thread renders it again, in its turn,
//! writing each line as it is made (`StreamOut`); an item over
//! [`STREAM_PAYLOAD`] goes to the writing thread directly (processing it
//! twice, on two threads, would hold the extractor's buffers twice). So a page with a
//! million links costs the page and its compact pending links, not its
//! whole output (nine times the page in JSON Lines); the output bytes and
//! their order are the same either way. A link longer than
//! [`SPILL_ROW`](crate::process::SPILL_ROW) is rendered by the writing
//! thread straight into the output (`Spill`), so a 50 MB link costs the
//! page and its resolved URL, not a 100 MB line too.
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

use std::io::{self, BufWriter, Write};
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use spinneret_warc::Options;

use crate::Error;
use crate::args::{Format, LinksArgs};
use crate::columnar::{ParquetOut, ParquetOutError};
use crate::input::{self, Item, Source};
use crate::output::{Spill, TSV_HEADER, Unique};
use crate::process::{Class, LineOut, Lines, Outcome, Render, process, process_into};
use crate::read_ahead::{Urgent, Workers};
use crate::stats::Stats;
use spinneret_canon::KeyHash;
use spinneret_columns::LinkFields;

/// A batch is sent once its items hold this many payload bytes.
///
/// Why 8 MiB: about five batches are in flight, and every page of memory
/// the run touches is faulted in and zeroed by the kernel once (after a
/// pause, the virtual machine's host may have taken freed pages back, and
/// faults them in again). On the benchmark WARC (100 KB pages on average)
/// 32 MiB batches (256 records) peaked at 276 MB RSS and 8 MiB batches at
/// about 190 MB, with the same user time on two threads.
pub const BATCH_BYTES: usize = 8 << 20;

/// An item with more payload bytes than this is processed by the writing
/// thread, its lines streamed out, instead of by the pool.
pub const STREAM_PAYLOAD: usize = 8 << 20;

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every input was processed.
    Complete,
    /// The output was closed (EPIPE): a normal stop.
    OutputClosed,
    /// `--strict` and a bad record.
    Strict,
}

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

fn input_count(sources: &[Source]) -> u64 {
    sources
        .iter()
        .map(|s| match s {
            Source::Pages(v) => v.len() as u64,
            _ => 1,
        })
        .sum()
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    let style =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style.progress_chars("=> "));
    bar
}

/// The writing thread's [`LineOut`]: each line, once rendered, goes
/// through `--unique` and to the output.
struct StreamOut<'w, 'o> {
    w: &'w mut BufWriter<&'o mut dyn Write>,
    /// The run's `--unique` filter, when on.
    unique: Option<&'w mut Unique>,
    /// The Parquet file, with `--format parquet` (rows instead of lines).
    parquet: Option<&'w mut ParquetOut>,
    /// The line being rendered.
    line: String,
    /// Lines written.
    written: u64,
    /// `Ok(false)` once the output is closed (EPIPE); an error once a write
    /// failed. Nothing is written after either.
    state: Result<bool, Error>,
}

impl LineOut for StreamOut<'_, '_> {
    fn buffer(&mut self) -> Option<&mut String> {
        matches!(self.state, Ok(true)).then_some(&mut self.line)
    }

    fn end_line(&mut self, key: Option<KeyHash>) {
        let fresh = match (&mut self.unique, key) {
            (Some(u), Some(k)) => u.first(k),
            _ => true,
        };
        if fresh {
            match self.w.write_all(self.line.as_bytes()) {
                Ok(()) => self.written += 1,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.state = Ok(false),
                Err(e) => self.state = Err(Error::Output(e)),
            }
        }
        self.line.clear();
    }

    fn spill(&mut self, key: Option<KeyHash>, render: &mut dyn FnMut(&mut Spill<'_>)) {
        // Nothing more is written once the output is closed or failed.
        let fresh = match (&mut self.unique, key) {
            (Some(u), Some(k)) => u.first(k),
            _ => true,
        };
        if fresh && matches!(self.state, Ok(true)) {
            let mut spill = Spill::new(&mut *self.w);
            render(&mut spill);
            match spill.finish() {
                Ok(()) => self.written += 1,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => self.state = Ok(false),
                Err(e) => self.state = Err(Error::Output(e)),
            }
        }
    }

    fn row(&mut self, fields: &LinkFields<'_>, key: Option<KeyHash>) {
        let fresh = match (&mut self.unique, key) {
            (Some(u), Some(k)) => u.first(k),
            _ => true,
        };
        let Some(parquet) = self.parquet.as_deref_mut() else {
            return;
        };
        if fresh && matches!(self.state, Ok(true)) {
            parquet.push_streamed(fields);
            self.written += 1;
            if parquet.stream_full() {
                self.state = parquet_written(parquet.write_stream(&mut *self.w));
            }
        }
    }
}

/// A Parquet write's result as a run's: `Ok(false)` once the output is
/// closed (EPIPE).
fn parquet_written(r: Result<(), ParquetOutError>) -> Result<bool, Error> {
    match r {
        Ok(()) => Ok(true),
        Err(ParquetOutError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(ParquetOutError::Io(e)) => Err(Error::Output(e)),
        Err(e) => Err(Error::Parquet(e)),
    }
}

/// Runs `spinneret links`: output lines to `out`, bad-record lines and the
/// summary to `diag`, a progress bar on stderr when `progress`.
pub fn run(
    args: &LinksArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<RunResult, Error> {
    let start = Instant::now();
    let sources = input::resolve(args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| Error::Threads(e.to_string()))?;
    let urgent = Arc::new(Urgent::default());
    let bar = if progress {
        progress_bar(sources.iter().map(input::source_len).sum())
    } else {
        ProgressBar::hidden()
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
    let opts = Options {
        max_record_size: args.max_record_size,
        ..Options::default()
    };
    let batch_records = usize::try_from(args.batch).unwrap_or(usize::MAX).max(1);
    let mut stats = Stats {
        inputs: input_count(&sources),
        ..Stats::default()
    };
    let mut status = Status::Complete;
    let mut w = BufWriter::with_capacity(1 << 16, out);
    let mut unique = Unique::default();
    let mut parquet = match args.format {
        Format::Parquet => Some(ParquetOut::new().map_err(Error::Parquet)?),
        Format::Jsonl | Format::Tsv => None,
    };

    // Ok(false): the output pipe is closed.
    let write = |w: &mut BufWriter<&mut dyn Write>, bytes: &[u8]| match w.write_all(bytes) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Error::Output(e)),
    };

    let result: Result<u64, Error> = std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<(Vec<Item>, u64)>(1);
        let sources = &sources;
        // With one worker, the producer inflates itself (a second core's
        // work); with more, the workers inflate (see `read_ahead`).
        let workers = (args.threads > 1).then_some(Workers {
            pool: &pool,
            urgent: &urgent,
        });
        let producer = scope.spawn(move || {
            let mut batch = Vec::new();
            let mut weight = 0usize;
            let done = input::produce(sources, opts, workers, &mut |item, pos| {
                weight += item.weight();
                batch.push(item);
                if batch.len() >= batch_records || weight >= BATCH_BYTES {
                    weight = 0;
                    tx.send((std::mem::take(&mut batch), pos)).is_ok()
                } else {
                    true
                }
            });
            if !batch.is_empty() {
                let _ = tx.send((batch, done));
            }
            done
        });

        // The batches' outcomes, processed on the pool by their own thread
        // so that the workers go on while this thread writes.
        // Each item's outcome, and the item itself when the writer is to
        // process it (again), streaming: no outcome for an item over
        // STREAM_PAYLOAD, an outcome without lines for one whose lines went
        // over their budget.
        type Done = (Option<Outcome>, Option<Item>);
        let (done_tx, done_rx) = sync_channel::<(Vec<Done>, u64)>(1);
        let (pool, urgent) = (&pool, &urgent);
        let processor = scope.spawn(move || {
            for (batch, pos) in rx.iter() {
                let outcomes: Vec<Done> = pool.install(|| {
                    batch
                        .into_par_iter()
                        .map(|item| {
                            // The reading thread may be waiting for these.
                            urgent.run_all();
                            if item.weight() > STREAM_PAYLOAD {
                                return (None, Some(item));
                            }
                            let o = process(&item, render);
                            let again = o.lines.over_budget.then_some(item);
                            (Some(o), again)
                        })
                        .collect()
                });
                if done_tx.send((outcomes, pos)).is_err() {
                    // The writer stopped: so does the producer, once its
                    // channel's receiver (`rx`, dropped here) is gone.
                    break;
                }
            }
        });

        let mut consume = || -> Result<(), Error> {
            if args.format == Format::Tsv && !write(&mut w, format!("{TSV_HEADER}\n").as_bytes())? {
                status = Status::OutputClosed;
                return Ok(());
            }
            for (outcomes, pos) in done_rx.iter() {
                for (done, again) in outcomes {
                    // An item this thread processes (again), streaming its
                    // lines: its outcome comes after its lines, which is
                    // the same for the statistics, and a bad item has no
                    // lines.
                    let (o, open) = match (done, again) {
                        (done, Some(item)) => {
                            let mut stream = StreamOut {
                                w: &mut w,
                                unique: args.unique.then_some(&mut unique),
                                parquet: parquet.as_mut(),
                                line: String::new(),
                                written: 0,
                                state: Ok(true),
                            };
                            let (record_type, class, body_error) =
                                process_into(&item, render, &mut stream);
                            stats.links_written += stream.written;
                            let mut open = stream.state?;
                            if open && let Some(p) = &mut parquet {
                                // The page's last rows.
                                open = parquet_written(p.write_stream(&mut w))?;
                            }
                            let o = done.unwrap_or(Outcome {
                                record_type,
                                class,
                                body_error,
                                lines: Lines::default(),
                            });
                            (o, open)
                        }
                        (Some(o), None) => (o, true),
                        (None, None) => continue,
                    };
                    stats.add(&o);
                    let bad = match &o.class {
                        Class::Bad(msg) => Some(("bad record", msg)),
                        Class::Unreadable(msg) => Some(("cannot read", msg)),
                        _ => None,
                    };
                    if let Some((what, msg)) = bad {
                        bar.suspend(|| {
                            let _ = writeln!(diag, "spinneret: {what}: {msg}");
                        });
                        if args.strict {
                            status = Status::Strict;
                            return Ok(());
                        }
                    }
                    if !open {
                        status = Status::OutputClosed;
                        return Ok(());
                    }
                    if let Some(p) = &mut parquet {
                        let Some(mut columns) = o.lines.columns else {
                            continue;
                        };
                        let keys = &o.lines.keys;
                        let written =
                            columns
                                .finish()
                                .map_err(ParquetOutError::from)
                                .and_then(|batch| {
                                    p.write(
                                        &batch,
                                        args.unique.then_some((&mut unique, &keys[..])),
                                        &mut w,
                                    )
                                });
                        match written {
                            Ok(rows) => stats.links_written += rows as u64,
                            Err(e) => {
                                if !parquet_written(Err(e))? {
                                    status = Status::OutputClosed;
                                    return Ok(());
                                }
                            }
                        }
                        continue;
                    }
                    if !args.unique {
                        // Every line: the page's text at once.
                        if !write(&mut w, o.lines.text.as_bytes())? {
                            status = Status::OutputClosed;
                            return Ok(());
                        }
                        stats.links_written += o.lines.ends.len() as u64;
                        continue;
                    }
                    for (key, line) in o.lines.iter() {
                        if let Some(k) = key
                            && !unique.first(k)
                        {
                            continue;
                        }
                        if !write(&mut w, line.as_bytes())? {
                            status = Status::OutputClosed;
                            return Ok(());
                        }
                        stats.links_written += 1;
                    }
                }
                bar.set_position(pos);
                let secs = start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{:.0} pages/s", stats.html_pages as f64 / secs));
            }
            Ok(())
        };
        let r = consume();
        // Unblocks the processor, and through it the producer, if the run
        // stopped early.
        drop(done_rx);
        let _ = processor.join();
        let bytes = producer.join().unwrap_or(0);
        r.map(|()| bytes)
    });
    stats.bytes = result?;
    if status != Status::OutputClosed
        && let Some(p) = parquet
        && !parquet_written(p.finish(&mut w))?
    {
        status = Status::OutputClosed;
    }
    if status != Status::OutputClosed {
        match w.flush() {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status = Status::OutputClosed,
            Err(e) => return Err(Error::Output(e)),
        }
    }
    stats.stopped = match status {
        Status::Complete => None,
        Status::OutputClosed => Some("output closed"),
        Status::Strict => Some("strict"),
    };
    stats.finish(start.elapsed());
    bar.finish_and_clear();
    if let Some(path) = &args.stats {
        let json = serde_json::to_string_pretty(&stats).unwrap_or_default();
        std::fs::write(path, json + "\n").map_err(|source| Error::Stats {
            path: path.display().to_string(),
            source,
        })?;
    }
    let _ = writeln!(diag, "{}", stats.summary());
    Ok(RunResult { status, stats })
}
