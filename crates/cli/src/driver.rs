//! The run of every subcommand that reads crawl files (`links`, `index`, `text`,
//! `check`): sources → items → a per-item function on the workers → its
//! results written in input order.
//!
//! A subcommand is a [`Job`] (what a worker makes of one [`Item`]) and a
//! [`Sink`] (how the calling thread writes each result, in input order);
//! the threading is here, once:
//!
//! - a producer thread reads the inputs ([`inputs::produce()`]) into batches
//!   of at most [`Drive::batch`] items or [`BATCH_BYTES`] of their
//!   [`Item::weight`];
//! - a processor thread has each batch processed in parallel on a rayon
//!   pool of [`Drive::threads`] workers (which also inflate gzip members
//!   ahead of the reader: see `read_ahead`);
//! - the calling thread hands each batch's results to the sink, in input
//!   order, while the next batch is processed.
//!
//! Each channel holds one batch, so memory is bounded by about five
//! batches (one being read, one queued, one being processed, its queued
//! results, the ones being written) plus the reader's buffers.
//!
//! Stops: the sink stops the run by returning [`Flow::Stop`] (a closed
//! output pipe, a `--strict` stop); the producer and the workers then stop
//! at their next batch. Invariant: what the sink is given, and in which
//! order, depends only on the inputs, never on the threads or the batch
//! size.

use std::io::Write;
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use spinneret_warc::Options;

use crate::Error;
use crate::inputs::{self, Item, Source};
use crate::read_ahead::{Urgent, Workers};

/// A batch is sent once its items hold this many payload bytes.
///
/// Why 8 MiB: about five batches are in flight, and every page of memory
/// the run touches is faulted in and zeroed by the kernel once (after a
/// pause, the virtual machine's host may have taken freed pages back, and
/// faults them in again). On the benchmark WARC (100 KB pages on average)
/// 32 MiB batches (256 records) peaked at 276 MB RSS and 8 MiB batches at
/// about 190 MB, with the same user time on two threads.
pub const BATCH_BYTES: usize = 8 << 20;

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

impl Status {
    /// Why the run stopped early, as `--stats` says it (`None`: it did
    /// not).
    pub fn stopped(self) -> Option<&'static str> {
        match self {
            Status::Complete => None,
            Status::OutputClosed => Some("output closed"),
            Status::Strict => Some("strict"),
        }
    }
}

/// Whether the run goes on after a result is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Go,
    /// Stop the run, with this status.
    Stop(Status),
}

/// `Flow::Go` while the output is open, else a stop for its closing.
pub fn open_flow(open: bool) -> Flow {
    if open {
        Flow::Go
    } else {
        Flow::Stop(Status::OutputClosed)
    }
}

/// What a subcommand's workers do: one item to its result, on any thread.
pub trait Job: Sync {
    /// The result of one item.
    type Done: Send;
    /// Processes one item (on a worker of the pool).
    fn process(&self, item: Item) -> Self::Done;
}

/// How a subcommand writes its results, on the calling thread, in input
/// order.
pub trait Sink<D> {
    /// Before the first result (a header line, say).
    fn begin(&mut self) -> Result<Flow, Error> {
        Ok(Flow::Go)
    }
    /// Writes one item's result; problems go to `report`.
    fn write(&mut self, done: D, report: &mut Report<'_>) -> Result<Flow, Error>;
    /// Every result of an input, `bytes` long, was written (called in
    /// order between the results, and after the last input's; a sink of a
    /// `--resume` run makes its checkpoints here).
    fn input_done(&mut self, _bytes: u64, _report: &mut Report<'_>) -> Result<Flow, Error> {
        Ok(Flow::Go)
    }
    /// After the last result (what the sink held back), unless the run
    /// stopped.
    fn end(&mut self, _report: &mut Report<'_>) -> Result<Flow, Error> {
        Ok(Flow::Go)
    }
    /// The progress bar's message after each batch (`secs` since start).
    fn progress(&self, _secs: f64) -> Option<String> {
        None
    }
}

/// Where a sink reports a bad record or an unreadable input: a line on
/// the diagnostic stream, above the progress bar.
pub struct Report<'a> {
    diag: &'a mut dyn Write,
    bar: &'a ProgressBar,
    strict: bool,
}

impl Report<'_> {
    /// Writes `spinneret: WHAT: MSG`; with `--strict` the run stops.
    pub fn problem(&mut self, what: &str, msg: &str) -> Flow {
        let diag = &mut *self.diag;
        self.bar.suspend(|| {
            let _ = writeln!(diag, "spinneret: {what}: {msg}");
        });
        if self.strict {
            Flow::Stop(Status::Strict)
        } else {
            Flow::Go
        }
    }

    /// Writes a line as is (a warning that does not stop the run).
    pub fn note(&mut self, line: &str) {
        let diag = &mut *self.diag;
        self.bar.suspend(|| {
            let _ = writeln!(diag, "{line}");
        });
    }
}

/// A batch of items on its way to the workers.
#[derive(Default)]
struct Batch {
    items: Vec<Item>,
    /// The inputs that ended in it: how many of its items come before the
    /// end, and the input position there.
    ends: Vec<(usize, u64)>,
    /// The input position after its last item.
    pos: u64,
}

/// The producer's side: items into batches, each sent once full.
struct Batches {
    tx: std::sync::mpsc::SyncSender<Batch>,
    batch: Batch,
    weight: usize,
    max_items: usize,
}

impl inputs::produce::Emit for Batches {
    fn item(&mut self, item: Item, pos: u64) -> bool {
        self.weight += item.weight();
        self.batch.items.push(item);
        self.batch.pos = pos;
        if self.batch.items.len() >= self.max_items || self.weight >= BATCH_BYTES {
            self.weight = 0;
            self.tx.send(std::mem::take(&mut self.batch)).is_ok()
        } else {
            true
        }
    }

    fn input_end(&mut self, pos: u64) -> bool {
        self.batch.ends.push((self.batch.items.len(), pos));
        true
    }
}

/// How to run: threads, batch size, reader options, progress, `--strict`.
#[derive(Debug, Clone, Copy)]
pub struct Drive {
    /// Worker threads.
    pub threads: usize,
    /// Items per batch at most.
    pub batch: usize,
    /// The WARC reader's options.
    pub opts: Options,
    /// Stop at the first problem a sink reports.
    pub strict: bool,
    /// Show a progress bar on stderr.
    pub progress: bool,
}

/// The result of [`drive`].
#[derive(Debug, Clone, Copy)]
pub struct Driven {
    /// How the run ended.
    pub status: Status,
    /// Input bytes read.
    pub bytes: u64,
}

fn progress_bar(total: u64) -> ProgressBar {
    let bar = ProgressBar::new(total);
    let style =
        ProgressStyle::with_template("{elapsed_precise} [{wide_bar}] {bytes}/{total_bytes} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style.progress_chars("=> "));
    bar
}

/// Runs `job` over the items of `sources`, each result given to `sink` in
/// input order; problems a sink reports go to `diag`.
pub fn drive<J: Job>(
    sources: &[Source],
    job: &J,
    sink: &mut dyn Sink<J::Done>,
    how: &Drive,
    diag: &mut dyn Write,
) -> Result<Driven, Error> {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(how.threads)
        .build()
        .map_err(|e| Error::Threads(e.to_string()))?;
    let urgent = Arc::new(Urgent::default());
    let bar = if how.progress {
        progress_bar(sources.iter().map(inputs::source_len).sum())
    } else {
        ProgressBar::hidden()
    };
    let batch_items = how.batch.max(1);
    let opts = how.opts;
    let mut status = Status::Complete;

    let result: Result<u64, Error> = std::thread::scope(|scope| {
        let (tx, rx) = sync_channel::<Batch>(1);
        // With one worker, the producer inflates itself (a second core's
        // work); with more, the workers inflate (see `read_ahead`).
        let workers = (how.threads > 1).then_some(Workers {
            pool: &pool,
            urgent: &urgent,
        });
        let producer = scope.spawn(move || {
            let mut batches = Batches {
                tx,
                batch: Batch::default(),
                weight: 0,
                max_items: batch_items,
            };
            let done = inputs::produce(sources, opts, workers, &mut batches);
            if !batches.batch.items.is_empty() || !batches.batch.ends.is_empty() {
                batches.batch.pos = done;
                let _ = batches.tx.send(batches.batch);
            }
            done
        });

        // The batches' results, processed on the pool by their own thread
        // so that the workers go on while this thread writes.
        let (done_tx, done_rx) = sync_channel::<(Vec<J::Done>, Vec<(usize, u64)>, u64)>(1);
        let (pool, urgent) = (&pool, &urgent);
        let processor = scope.spawn(move || {
            for Batch { items, ends, pos } in rx.iter() {
                let results: Vec<J::Done> = pool.install(|| {
                    items
                        .into_par_iter()
                        .map(|item| {
                            // The reading thread may be waiting for these.
                            urgent.run_all();
                            job.process(item)
                        })
                        .collect()
                });
                if done_tx.send((results, ends, pos)).is_err() {
                    // The writer stopped: so does the producer, once its
                    // channel's receiver (`rx`, dropped here) is gone.
                    break;
                }
            }
        });

        let mut consume = || -> Result<(), Error> {
            if let Flow::Stop(s) = sink.begin()? {
                status = s;
                return Ok(());
            }
            let mut report = Report {
                diag,
                bar: &bar,
                strict: how.strict,
            };
            // Where the last input ended.
            let mut ended = 0u64;
            for (results, ends, pos) in done_rx.iter() {
                let mut ends = ends.into_iter().peekable();
                for (i, done) in results.into_iter().enumerate() {
                    while let Some((_, at)) = ends.next_if(|&(before, _)| before == i) {
                        if let Flow::Stop(s) = sink.input_done(at - ended, &mut report)? {
                            status = s;
                            return Ok(());
                        }
                        ended = at;
                    }
                    if let Flow::Stop(s) = sink.write(done, &mut report)? {
                        status = s;
                        return Ok(());
                    }
                }
                for (_, at) in ends {
                    if let Flow::Stop(s) = sink.input_done(at - ended, &mut report)? {
                        status = s;
                        return Ok(());
                    }
                    ended = at;
                }
                bar.set_position(pos);
                if let Some(msg) = sink.progress(start.elapsed().as_secs_f64().max(1e-9)) {
                    bar.set_message(msg);
                }
            }
            if let Flow::Stop(s) = sink.end(&mut report)? {
                status = s;
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
    bar.finish_and_clear();
    Ok(Driven {
        status,
        bytes: result?,
    })
}
