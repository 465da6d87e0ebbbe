//! `spinneret links` on the [`driver`]: its [`Job`]
//! processes each item into an [`Outcome`] (the page's rendered lines or
//! Arrow rows), its [`Sink`] writes them in input order, through
//! `--unique`, as JSON Lines, TSV or Parquet.
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
use std::time::Instant;

use spinneret_warc::Options;

use crate::Error;
use crate::args::{Format, LinksArgs};
use crate::columnar::{self, ParquetOut, ParquetOutError};
use crate::driver::{self, Drive, Flow, Job, Report, Sink};
use crate::input::{self, Item, Source};
use crate::output::{Spill, TSV_HEADER, Unique};
use crate::process::{Class, LineOut, Lines, Outcome, Render, process, process_into};
use crate::stats::Stats;
use spinneret_canon::KeyHash;
use spinneret_columns::LinkFields;

pub use crate::driver::{BATCH_BYTES, Status};

/// An item with more payload bytes than this is processed by the writing
/// thread, its lines streamed out, instead of by the pool.
pub const STREAM_PAYLOAD: usize = 8 << 20;

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
                self.state = columnar::parquet_written(parquet.write_stream(&mut *self.w));
            }
        }
    }
}

/// The links job: each item's outcome, and the item itself when the writer
/// is to process it (again), streaming — no outcome for an item over
/// [`STREAM_PAYLOAD`], an outcome without lines for one whose lines went
/// over their budget.
struct LinksJob<'r> {
    render: Render<'r>,
}

/// One item's result: its outcome, and the item when the writer processes
/// it (again).
type Done = (Option<Outcome>, Option<Item>);

impl Job for LinksJob<'_> {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        if item.weight() > STREAM_PAYLOAD {
            return (None, Some(item));
        }
        let o = process(&item, self.render);
        let again = o.lines.over_budget.then_some(item);
        (Some(o), again)
    }
}

/// The links sink: lines (or Parquet rows) in input order, through
/// `--unique`, counted in the run's statistics.
struct LinksSink<'a, 'o> {
    args: &'a LinksArgs,
    render: Render<'a>,
    w: BufWriter<&'o mut dyn Write>,
    unique: Unique,
    parquet: Option<ParquetOut>,
    stats: Stats,
}

impl Sink<Done> for LinksSink<'_, '_> {
    fn begin(&mut self) -> Result<Flow, Error> {
        if self.args.format == Format::Tsv {
            return Ok(driver::open_flow(driver::write_bytes(
                &mut self.w,
                format!("{TSV_HEADER}\n").as_bytes(),
            )?));
        }
        Ok(Flow::Go)
    }

    fn write(&mut self, (done, again): Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        // An item this thread processes (again), streaming its lines: its
        // outcome comes after its lines, which is the same for the
        // statistics, and a bad item has no lines.
        let (o, open) = match (done, again) {
            (done, Some(item)) => {
                let mut stream = StreamOut {
                    w: &mut self.w,
                    unique: self.args.unique.then_some(&mut self.unique),
                    parquet: self.parquet.as_mut(),
                    line: String::new(),
                    written: 0,
                    state: Ok(true),
                };
                let (record_type, class, body_error) =
                    process_into(&item, self.render, &mut stream);
                self.stats.links_written += stream.written;
                let mut open = stream.state?;
                if open && let Some(p) = &mut self.parquet {
                    // The page's last rows.
                    open = columnar::parquet_written(p.write_stream(&mut self.w))?;
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
            (None, None) => return Ok(Flow::Go),
        };
        self.stats.add(&o);
        let bad = match &o.class {
            Class::Bad(msg) => Some(("bad record", msg)),
            Class::Unreadable(msg) => Some(("cannot read", msg)),
            _ => None,
        };
        if let Some((what, msg)) = bad
            && let Flow::Stop(s) = report.problem(what, msg)
        {
            return Ok(Flow::Stop(s));
        }
        if !open {
            return Ok(Flow::Stop(Status::OutputClosed));
        }
        if let Some(p) = &mut self.parquet {
            let Some(mut columns) = o.lines.columns else {
                return Ok(Flow::Go);
            };
            let keys = &o.lines.keys;
            let written = columns
                .finish()
                .map_err(ParquetOutError::from)
                .and_then(|batch| {
                    p.write(
                        &batch,
                        self.args.unique.then_some((&mut self.unique, &keys[..])),
                        &mut self.w,
                    )
                });
            return match written {
                Ok(rows) => {
                    self.stats.links_written += rows as u64;
                    Ok(Flow::Go)
                }
                Err(e) => Ok(driver::open_flow(columnar::parquet_written(Err(e))?)),
            };
        }
        if !self.args.unique {
            // Every line: the page's text at once.
            if !driver::write_bytes(&mut self.w, o.lines.text.as_bytes())? {
                return Ok(Flow::Stop(Status::OutputClosed));
            }
            self.stats.links_written += o.lines.ends.len() as u64;
            return Ok(Flow::Go);
        }
        for (key, line) in o.lines.iter() {
            if let Some(k) = key
                && !self.unique.first(k)
            {
                continue;
            }
            if !driver::write_bytes(&mut self.w, line.as_bytes())? {
                return Ok(Flow::Stop(Status::OutputClosed));
            }
            self.stats.links_written += 1;
        }
        Ok(Flow::Go)
    }

    fn progress(&self, secs: f64) -> Option<String> {
        Some(format!(
            "{:.0} pages/s",
            self.stats.html_pages as f64 / secs
        ))
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
        threads: args.threads,
        batch: usize::try_from(args.batch).unwrap_or(usize::MAX),
        opts: Options {
            max_record_size: args.max_record_size,
            ..Options::default()
        },
        strict: args.strict,
        progress,
    };
    let mut sink = LinksSink {
        args,
        render,
        w: BufWriter::with_capacity(1 << 16, out),
        unique: Unique::default(),
        parquet: match args.format {
            Format::Parquet => Some(ParquetOut::new().map_err(Error::Parquet)?),
            Format::Jsonl | Format::Tsv => None,
        },
        stats: Stats {
            inputs: input_count(&sources),
            ..Stats::default()
        },
    };
    let driven = driver::drive(&sources, &LinksJob { render }, &mut sink, &how, diag)?;
    let LinksSink {
        mut w,
        parquet,
        mut stats,
        ..
    } = sink;
    let mut status = driven.status;
    stats.bytes = driven.bytes;
    if status != Status::OutputClosed
        && let Some(p) = parquet
        && !columnar::parquet_written(p.finish(&mut w))?
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
