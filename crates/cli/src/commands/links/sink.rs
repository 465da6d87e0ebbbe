//! The links sink: each item's lines (or Parquet rows) written in input
//! order through `--unique`, counted in the run's statistics; an item
//! the pool handed back is processed here, its lines streamed out
//! ([`StreamOut`]).

use std::io::{BufWriter, Write};

use spinneret_canon::KeyHash;
use spinneret_columns::LinkFields;

use super::args::{Format, LinksArgs};
use super::format::{Spill, TSV_HEADER, Unique};
use super::job::{Class, Done, LineOut, Lines, Outcome, Render, process_into};
use super::parquet::ParquetOut;
use super::resume::LinksResume;
use super::stats::Stats;
use crate::Error;
use crate::columnar::{self, ParquetOutError};
use crate::driver::{self, Flow, Report, Sink, Status};
use crate::outputs;

/// The writing thread's [`LineOut`]: each line, once rendered, goes
/// through `--unique` and to the output.
pub struct StreamOut<'w, 'o> {
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

impl StreamOut<'_, '_> {
    /// Counts a line written, or keeps why nothing more is
    /// ([`StreamOut::state`]).
    fn wrote(&mut self, result: std::io::Result<()>) {
        match outputs::written(result) {
            Ok(true) => self.written += 1,
            closed_or_failed => self.state = closed_or_failed,
        }
    }
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
            let result = self.w.write_all(self.line.as_bytes());
            self.wrote(result);
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
            let result = spill.finish();
            self.wrote(result);
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

/// The links sink: lines (or Parquet rows) in input order, through
/// `--unique`, counted in the run's statistics.
pub struct LinksSink<'a, 'o> {
    pub(super) args: &'a LinksArgs,
    pub(super) render: Render<'a>,
    pub(super) w: BufWriter<&'o mut dyn Write>,
    pub(super) unique: Unique,
    pub(super) parquet: Option<ParquetOut>,
    pub(super) stats: Stats,
    /// A `--resume` run's files.
    pub(super) resume: Option<LinksResume<'a>>,
    /// The run goes on from a checkpoint (the TSV header is written).
    pub(super) resumed: bool,
}

impl Sink<Done> for LinksSink<'_, '_> {
    fn begin(&mut self) -> Result<Flow, Error> {
        if self.args.format == Format::Tsv && !self.resumed {
            return Ok(driver::open_flow(outputs::write(
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
            if !outputs::write(&mut self.w, o.lines.text.as_bytes())? {
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
            if !outputs::write(&mut self.w, line.as_bytes())? {
                return Ok(Flow::Stop(Status::OutputClosed));
            }
            self.stats.links_written += 1;
        }
        Ok(Flow::Go)
    }

    fn input_done(&mut self, bytes: u64, _: &mut Report<'_>) -> Result<Flow, Error> {
        if let Some(r) = &mut self.resume {
            let (unique, stats) = (&mut self.unique, &self.stats);
            r.input_done(bytes, &mut self.parquet, &mut self.w, unique, stats)?;
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
