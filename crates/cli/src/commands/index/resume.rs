//! `index --resume`: what the index sink keeps at a checkpoint, and how a
//! run goes on from one (the journal itself: [`crate::outputs::resume`]).
//!
//! A checkpoint keeps the run's counts and, by output:
//!
//! - sorted lines (the default): the sorted runs of every line made so far,
//!   in the folder's `runs/` ([`ExternalSorter::persist`]); a resumed run's
//!   sorter adopts them, and the sorted output — the multiset of lines in
//!   byte order — is the same wherever the runs were cut;
//! - `--no-sort`: the lines, in the folder's output file, flushed;
//! - `--format parquet`: the rows, in a Parquet part per checkpoint,
//!   joined at the end ([`crate::outputs::parts`]).
//!
//! The end of every input settles the records held for a join (a request
//! waiting for its response) — records of two inputs are never joined —
//! so a checkpoint holds no record half-settled.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use spinneret_index::cc_columns;
use spinneret_index::sort::ExternalSorter;

use super::args::{IndexArgs, IndexFormat};
use super::result::IndexResult;
use crate::Error;
use crate::columnar::BatchWriter;
use crate::inputs::Source;
use crate::outputs::parts::SharedParts;
use crate::outputs::resume::Resume;

/// What a checkpoint of `index` keeps.
#[derive(Debug, Default, Clone, Copy, Serialize, Deserialize)]
pub struct State {
    /// Records read.
    pub records: u64,
    /// Lines written.
    pub lines: u64,
    /// Damaged records.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
    /// Records not seekable.
    pub unseekable: u64,
    /// Sorted runs in `runs/`.
    pub runs: usize,
    /// Whole Parquet parts.
    pub parts: usize,
}

/// A resumable `index` run's own files.
#[derive(Debug)]
pub struct IndexResume<'r> {
    resume: &'r mut Resume,
    /// The Parquet parts (`--format parquet`).
    pub parts: Option<SharedParts>,
    /// Sorted runs kept in `runs/`.
    runs: usize,
}

impl<'r> IndexResume<'r> {
    /// Starts the resumable run of `args` over `sources`, from the
    /// journal's checkpoint if there is one: the run's files, and the
    /// state there.
    pub fn start(
        resume: &'r mut Resume,
        args: &IndexArgs,
        sources: &[Source],
    ) -> Result<(IndexResume<'r>, Option<State>), Error> {
        resume.start(&args.resume_key(), sources)?;
        let state: Option<State> = resume.restored_as()?;
        let s = state.unwrap_or_default();
        let file_error = |name: &str| {
            let path = resume.file(name).display().to_string();
            move |source| Error::ResumeFile { path, source }
        };
        let parts = match args.format {
            IndexFormat::Parquet => Some(crate::outputs::parts::shared_in(resume, s.parts)?),
            IndexFormat::Cdxj | IndexFormat::Cdx11 => None,
        };
        // Runs past the checkpoint's (made before a stop) go.
        let runs_dir = resume.file("runs");
        std::fs::create_dir_all(&runs_dir).map_err(file_error("runs"))?;
        let entries = std::fs::read_dir(&runs_dir).map_err(file_error("runs"))?;
        for entry in entries {
            let path = entry.map_err(file_error("runs"))?.path();
            let number = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.parse::<usize>().ok());
            if number.is_none_or(|n| n >= s.runs) {
                std::fs::remove_file(&path).map_err(file_error("runs"))?;
            }
        }
        let r = IndexResume {
            resume,
            parts,
            runs: s.runs,
        };
        Ok((r, state))
    }

    /// The sorted runs kept, for the run's sorter to adopt.
    pub fn kept_runs(&self) -> Vec<PathBuf> {
        let dir = self.resume.file("runs");
        (0..self.runs)
            .map(|n| dir.join(format!("{n:06}")))
            .collect()
    }

    /// Where the sorter spills its own runs by default: the folder, so
    /// that a checkpoint moves them rather than copies them.
    pub fn spill_dir(&self) -> PathBuf {
        self.resume.file("")
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
pub fn restored_result(state: &State, result: &mut IndexResult) {
    result.records = state.records;
    result.lines = state.lines;
    result.damaged = state.damaged;
    result.unreadable = state.unreadable;
    result.unseekable = state.unseekable;
}

impl IndexResume<'_> {
    /// An input of `bytes` ended: whether a checkpoint is due.
    pub fn due(&mut self, bytes: u64) -> bool {
        self.resume.input_done(bytes)
    }

    /// Persists the sorter's lines as kept runs.
    pub fn persist(&mut self, sorter: &mut ExternalSorter) -> Result<(), Error> {
        let kept = sorter
            .persist(&self.resume.file("runs"), self.runs)
            .map_err(|e| Error::Index(e.to_string()))?;
        self.runs += kept.len();
        Ok(())
    }

    /// Seals the Parquet part being written ([`seal_part`]).
    pub fn seal(
        &mut self,
        parquet: &mut (cc_columns::CcColumns, BatchWriter),
        out: &mut dyn std::io::Write,
    ) -> Result<(), Error> {
        match &self.parts {
            Some(parts) => seal_part(parquet, out, parts),
            None => Ok(()),
        }
    }

    /// The checkpoint: the journal's line with `result`'s counts (the
    /// output written out, the runs persisted or the part sealed before).
    pub fn checkpoint(&mut self, result: &IndexResult) -> Result<(), Error> {
        let state = State {
            records: result.records,
            lines: result.lines,
            damaged: result.damaged,
            unreadable: result.unreadable,
            unseekable: result.unseekable,
            runs: self.runs,
            parts: self.parts.as_ref().map_or(0, |p| p.borrow().count()),
        };
        self.resume
            .checkpoint(serde_json::to_value(state).unwrap_or_default())
    }
}

/// Ends the part being written when it has rows: the rows held written,
/// the Parquet file's last row group and footer into it (through `out`),
/// then sealed; a new Parquet file starts for the next part.
// (Without the `parquet` feature there is no writer, and no part.)
#[cfg_attr(not(feature = "parquet"), allow(unreachable_code, unused_variables))]
pub fn seal_part(
    parquet: &mut (cc_columns::CcColumns, BatchWriter),
    out: &mut dyn std::io::Write,
    parts: &SharedParts,
) -> Result<(), Error> {
    let (cols, writer) = parquet;
    if !cols.is_empty() {
        let batch = cols.finish().map_err(|e| Error::Parquet(e.into()))?;
        writer.write(&batch, out).map_err(Error::Parquet)?;
    }
    if writer.rows() == 0 {
        return Ok(());
    }
    let fresh = BatchWriter::new(cc_columns::schema()).map_err(Error::Parquet)?;
    let done = std::mem::replace(writer, fresh);
    done.finish(out).map_err(Error::Parquet)?;
    crate::outputs::parts::seal(parts)
}
