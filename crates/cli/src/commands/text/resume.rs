//! `text --resume`: what the text sink keeps at a checkpoint, and how a
//! run goes on from one (the journal itself: [`crate::outputs::resume`]).
//!
//! A checkpoint keeps the run's counts, the run's date (a WET file's
//! `warcinfo` and its records without a date of their own carry it: a
//! resumed run writes the first run's), and, for `--format parquet`, the
//! number of Parquet parts (a part per checkpoint, joined at the end:
//! [`crate::outputs::parts`]). Every other format's pages are in the
//! folder's output file, flushed at each checkpoint.

use std::io::Write;

use serde::{Deserialize, Serialize};

use super::args::{TextArgs, TextFormat};
use super::result::TextResult;
use super::wet::WarcDate;
use crate::Error;
use crate::columnar::BatchWriter;
use crate::inputs::Source;
use crate::outputs::parts::SharedParts;
use crate::outputs::resume::Resume;

/// What a checkpoint of `text` keeps.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct State {
    /// Records read.
    pub records: u64,
    /// Pages written.
    pub pages: u64,
    /// Records skipped.
    pub skipped: u64,
    /// Damaged records.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
    /// The run's date.
    pub date: WarcDate,
    /// Whole Parquet parts.
    pub parts: usize,
}

/// A resumable `text` run's own files.
#[derive(Debug)]
pub struct TextResume<'r> {
    resume: &'r mut Resume,
    /// The Parquet parts (`--format parquet`).
    pub parts: Option<SharedParts>,
    /// The run's date.
    date: WarcDate,
}

impl<'r> TextResume<'r> {
    /// Starts the resumable run of `args` over `sources`, from the
    /// journal's checkpoint if there is one: the run's files, and the
    /// state there. `date` is the run's date unless the checkpoint has one.
    pub fn start(
        resume: &'r mut Resume,
        args: &TextArgs,
        sources: &[Source],
        date: WarcDate,
    ) -> Result<(TextResume<'r>, Option<State>), Error> {
        resume.start(&args.resume_key(), sources)?;
        let state: Option<State> = resume.restored_as()?;
        let parts = match args.format {
            TextFormat::Parquet => Some(crate::outputs::parts::shared_in(
                resume,
                state.map_or(0, |s| s.parts),
            )?),
            _ => None,
        };
        let date = state.map_or(date, |s| s.date);
        Ok((
            TextResume {
                resume,
                parts,
                date,
            },
            state,
        ))
    }

    /// The run's date: the first run's.
    pub fn date(&self) -> WarcDate {
        self.date
    }

    /// Inputs finished before this run.
    pub fn skipped(&self) -> usize {
        self.resume.skipped()
    }

    /// Input bytes read by the inputs finished before this run.
    pub fn bytes_before(&self) -> u64 {
        self.resume.bytes_before()
    }
}

/// The counts of a restored `state` as the run's result.
pub fn restored_result(state: &State, result: &mut TextResult) {
    result.records = state.records;
    result.pages = state.pages;
    result.skipped = state.skipped;
    result.damaged = state.damaged;
    result.unreadable = state.unreadable;
}

impl TextResume<'_> {
    /// An input of `bytes` ended: whether a checkpoint is due.
    pub fn due(&mut self, bytes: u64) -> bool {
        self.resume.input_done(bytes)
    }

    /// The checkpoint: the journal's line with `result`'s counts (the
    /// pages written out, or the part sealed, before).
    pub fn checkpoint(&mut self, result: &TextResult) -> Result<(), Error> {
        let state = State {
            records: result.records,
            pages: result.pages,
            skipped: result.skipped,
            damaged: result.damaged,
            unreadable: result.unreadable,
            date: self.date,
            parts: self.parts.as_ref().map_or(0, |p| p.borrow().count()),
        };
        self.resume
            .checkpoint(serde_json::to_value(state).unwrap_or_default())
    }
}

/// Ends the part being written when it has rows: the Parquet file's last
/// row group and footer into it (through `w`, the rows held written
/// before), then sealed; `fresh` takes its place for the next part.
// (Without the `parquet` feature there is no writer, and no part.)
#[cfg_attr(not(feature = "parquet"), allow(unreachable_code, unused_variables))]
pub fn seal_part(
    writer: &mut BatchWriter,
    fresh: BatchWriter,
    w: &mut dyn Write,
    parts: &SharedParts,
) -> Result<(), Error> {
    if writer.rows() == 0 {
        return Ok(());
    }
    let done = std::mem::replace(writer, fresh);
    done.finish(w).map_err(Error::Parquet)?;
    w.flush().map_err(Error::Output)?;
    crate::outputs::parts::seal(parts)
}
