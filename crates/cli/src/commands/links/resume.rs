//! `links --resume`: what the links sink keeps at a checkpoint, and how a
//! run goes on from one (the journal itself: [`crate::outputs::resume`]).
//!
//! A checkpoint keeps the run's statistics, the number of Parquet parts
//! (`--format parquet`: the rows are written in a part per checkpoint,
//! joined at the end), and the number of `--unique` keys in the folder's
//! file of keys (`unique`: 16 bytes a key, little-endian, appended at each
//! checkpoint, so that a resumed run prints each target once as the
//! uninterrupted one does). Lines go to the resume folder's output file,
//! flushed at each checkpoint.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};

use serde::{Deserialize, Serialize};
use spinneret_canon::KeyHash;

use super::args::{Format, LinksArgs};
use super::format::Unique;
use super::parquet::ParquetOut;
use super::stats::Stats;
use crate::Error;
use crate::inputs::Source;
use crate::outputs::parts::SharedParts;
use crate::outputs::resume::Resume;

/// What a checkpoint of `links` keeps.
#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    stats: Stats,
    /// Whole Parquet parts.
    parts: usize,
    /// Keys in the file of `--unique` keys.
    keys: u64,
}

/// A resumable `links` run's own files.
#[derive(Debug)]
pub struct LinksResume<'r> {
    resume: &'r mut Resume,
    /// The Parquet parts (`--format parquet`).
    pub parts: Option<SharedParts>,
    /// The file of `--unique` keys, and how many it holds.
    keys: Option<(File, u64)>,
}

/// What a resumed run starts from.
pub struct Restored<'r> {
    /// The run's files.
    pub resume: LinksResume<'r>,
    /// The statistics at the checkpoint.
    pub stats: Option<Stats>,
    /// The `--unique` set at the checkpoint.
    pub unique: Unique,
}

impl<'r> LinksResume<'r> {
    /// Starts the resumable run of `args` over `sources`, from the
    /// journal's checkpoint if there is one.
    pub fn start(
        resume: &'r mut Resume,
        args: &LinksArgs,
        sources: &[Source],
    ) -> Result<Restored<'r>, Error> {
        resume.start(&args.resume_key(), sources)?;
        let state: Option<State> = resume.restored_as()?;
        let (parts, keys) = state.as_ref().map_or((0, 0), |s| (s.parts, s.keys));
        let file_error = |name: &str| {
            let path = resume.file(name).display().to_string();
            move |source| Error::ResumeFile { path, source }
        };
        let parts = match args.format {
            Format::Parquet => Some(crate::outputs::parts::shared_in(resume, parts)?),
            Format::Jsonl | Format::Tsv => None,
        };
        let (keys, unique) = if args.unique {
            let (file, seen) =
                read_keys(&resume.file("unique"), keys).map_err(file_error("unique"))?;
            (Some((file, keys)), Unique::resumable(seen))
        } else {
            (None, Unique::default())
        };
        Ok(Restored {
            resume: LinksResume {
                resume,
                parts,
                keys,
            },
            stats: state.map(|s| s.stats),
            unique,
        })
    }

    /// Input bytes read by the inputs finished before this run.
    pub fn bytes_before(&self) -> u64 {
        self.resume.bytes_before()
    }

    /// Inputs finished before this run.
    pub fn skipped(&self) -> usize {
        self.resume.skipped()
    }
}

/// The file of `--unique` keys at `path`, cut back to its first `count`
/// keys, and those keys.
fn read_keys(path: &std::path::Path, count: u64) -> std::io::Result<(File, Vec<KeyHash>)> {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let len = count * 16;
    file.set_len(len)?;
    let mut bytes = Vec::new();
    (&file).take(len).read_to_end(&mut bytes)?;
    let keys = bytes
        .chunks_exact(16)
        .map(|k| KeyHash(u128::from_le_bytes(k.try_into().unwrap_or_default())))
        .collect();
    file.seek(SeekFrom::End(0))?;
    Ok((file, keys))
}

impl LinksResume<'_> {
    /// An input of `bytes` ended: a checkpoint when one is due — the
    /// Parquet part sealed (when it has rows), the lines flushed through
    /// `w`, `unique`'s new keys appended, then the journal's line with
    /// `stats`.
    pub fn input_done(
        &mut self,
        bytes: u64,
        parquet: &mut Option<ParquetOut>,
        w: &mut dyn Write,
        unique: &mut Unique,
        stats: &Stats,
    ) -> Result<(), Error> {
        if !self.resume.input_done(bytes) {
            return Ok(());
        }
        if let Some(parts) = &self.parts {
            seal_part(parquet, w, parts)?;
        }
        w.flush().map_err(Error::Output)?;
        if let Some((file, count)) = &mut self.keys {
            let fresh = unique.take_fresh();
            let bytes: Vec<u8> = fresh.iter().flat_map(|k| k.0.to_le_bytes()).collect();
            let path = self.resume.file("unique");
            file.write_all(&bytes)
                .and_then(|()| file.sync_data())
                .map_err(|source| Error::ResumeFile {
                    path: path.display().to_string(),
                    source,
                })?;
            *count += fresh.len() as u64;
        }
        let state = State {
            stats: stats.clone(),
            parts: self.parts.as_ref().map_or(0, |p| p.borrow().count()),
            keys: self.keys.as_ref().map_or(0, |(_, n)| *n),
        };
        self.resume
            .checkpoint(serde_json::to_value(&state).unwrap_or_default())
    }
}

/// Ends the part being written when it has rows: the Parquet file's last
/// row group and footer into it (through `w`), then sealed; a new Parquet
/// file starts for the next part.
// (Without the `parquet` feature there is no writer, and no part.)
#[cfg_attr(not(feature = "parquet"), allow(unreachable_code, unused_variables))]
pub fn seal_part(
    parquet: &mut Option<ParquetOut>,
    w: &mut dyn Write,
    parts: &SharedParts,
) -> Result<(), Error> {
    let Some(p) = parquet else {
        return Ok(());
    };
    if p.rows() == 0 {
        return Ok(());
    }
    let done = std::mem::replace(p, ParquetOut::new().map_err(Error::Parquet)?);
    done.finish(w).map_err(Error::Parquet)?;
    w.flush().map_err(Error::Output)?;
    crate::outputs::parts::seal(parts)
}
