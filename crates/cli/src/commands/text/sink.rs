//! The text sink: pages in input order — a `warcinfo` record first for
//! WET, a form feed line between pages of `--format text`, the rows into
//! Arrow batches and a Parquet file of
//! [`spinneret_columns::text::schema`] — and the run's counts.

use std::io::{BufWriter, Write};

use spinneret_columns::text::TextColumns;

use super::args::TextFormat;
use super::job::{Done, Out};
use super::result::TextResult;
use super::resume::TextResume;
use crate::Error;
use crate::columnar::{self, BatchWriter, ParquetOutError, STREAM_BATCH_BYTES};
use crate::driver::{self, Flow, Report, Sink, Status};
use crate::outputs;

/// A Parquet row group ends once its encoded size passes this: rows of
/// text are long, and the writer holds a row group in memory.
pub const ROW_GROUP_BYTES: usize = 64 << 20;

/// A new Parquet file of text rows.
pub fn parquet_writer() -> Result<BatchWriter, Error> {
    BatchWriter::with_row_group_bytes(spinneret_columns::text::schema(), Some(ROW_GROUP_BYTES))
        .map_err(Error::Parquet)
}

/// Rows are handed to the Parquet writer in batches of at most this many.
const BATCH_ROWS: usize = 4096;

/// The line between two pages of `--format text` and `markdown`.
const PAGE_SEPARATOR: &[u8] = b"\x0c\n";

/// Where the pages go, and what was counted.
pub struct TextSink<'a, 'o> {
    pub(super) format: TextFormat,
    pub(super) w: BufWriter<&'o mut dyn Write>,
    /// The WET file's warcinfo record (`--format wet`).
    pub(super) warcinfo: Option<Vec<u8>>,
    /// The rows being batched and the Parquet file (`--format parquet`).
    pub(super) parquet: Option<(TextColumns, BatchWriter)>,
    pub(super) result: &'a mut TextResult,
    /// A `--resume` run's files.
    pub(super) resume: Option<TextResume<'a>>,
}

impl TextSink<'_, '_> {
    /// With `--resume` and Parquet: the rows held written, and the part
    /// being written sealed when it has rows.
    pub fn seal_part(&mut self) -> Result<(), Error> {
        let Some(parts) = self.resume.as_ref().and_then(|r| r.parts.clone()) else {
            return Ok(());
        };
        if !self.write_batch()? {
            return Err(Error::Output(std::io::ErrorKind::BrokenPipe.into()));
        }
        match &mut self.parquet {
            Some((_, writer)) => {
                super::resume::seal_part(writer, parquet_writer()?, &mut self.w, &parts)
            }
            None => Ok(()),
        }
    }

    /// Writes the rows held as a batch.
    pub fn write_batch(&mut self) -> Result<bool, Error> {
        let Some((cols, writer)) = &mut self.parquet else {
            return Ok(true);
        };
        if cols.rows() == 0 {
            return Ok(true);
        }
        let batch = cols
            .finish()
            .map_err(|e| Error::Parquet(ParquetOutError::Arrow(e)))?;
        columnar::parquet_written(writer.write(&batch, &mut self.w))
    }
}

impl Sink<Done> for TextSink<'_, '_> {
    fn begin(&mut self) -> Result<Flow, Error> {
        match self.warcinfo.take() {
            Some(info) => Ok(driver::open_flow(outputs::write(&mut self.w, &info)?)),
            None => Ok(Flow::Go),
        }
    }

    fn write(&mut self, done: Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        let out = match done {
            Done::Skipped => {
                self.result.records += 1;
                self.result.skipped += 1;
                return Ok(Flow::Go);
            }
            Done::Problem { what, msg } => {
                if what == "cannot read" {
                    self.result.unreadable += 1;
                } else {
                    self.result.damaged += 1;
                }
                return Ok(report.problem(what, &msg));
            }
            Done::Failed(e) => return Err(Error::Output(e)),
            Done::Page { record, out } => {
                self.result.records += u64::from(record);
                out
            }
        };
        let first = self.result.pages == 0;
        self.result.pages += 1;
        match out {
            Out::Bytes(bytes) => {
                if !first
                    && matches!(self.format, TextFormat::Text | TextFormat::Markdown)
                    && !outputs::write(&mut self.w, PAGE_SEPARATOR)?
                {
                    return Ok(Flow::Stop(Status::OutputClosed));
                }
                Ok(driver::open_flow(outputs::write(&mut self.w, &bytes)?))
            }
            Out::Row(row) => {
                let Some((cols, _)) = &mut self.parquet else {
                    return Ok(Flow::Go);
                };
                cols.push(&row.fields());
                if cols.rows() >= BATCH_ROWS || cols.bytes() >= STREAM_BATCH_BYTES {
                    return Ok(driver::open_flow(self.write_batch()?));
                }
                Ok(Flow::Go)
            }
        }
    }

    fn input_done(&mut self, bytes: u64, _: &mut Report<'_>) -> Result<Flow, Error> {
        if self.resume.as_mut().is_some_and(|r| r.due(bytes)) {
            self.seal_part()?;
            self.w.flush().map_err(Error::Output)?;
            if let Some(r) = &mut self.resume {
                r.checkpoint(self.result)?;
            }
        }
        Ok(Flow::Go)
    }

    fn progress(&self, secs: f64) -> Option<String> {
        Some(format!("{:.0} pages/s", self.result.pages as f64 / secs))
    }
}
