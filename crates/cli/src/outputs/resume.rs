//! `--resume`: a long run that can be stopped at any moment — `kill -9`
//! and a lost machine included — and started again with the same command,
//! finishing with the output an uninterrupted run makes, byte for byte,
//! and reading again only the inputs it had not finished.
//!
//! The run works in a folder beside the output, `.NAME.spinneret-resume`
//! (hidden, and not named like a crawl file):
//!
//! - `journal`, JSON Lines. The first line names the command (its flags
//!   that shape the output) and its inputs (name and size, in order); each
//!   further line is a [`Checkpoint`]: how many inputs are finished, the
//!   output file's length and the input bytes read then, and what the
//!   command's sink holds (its counts; how many sorted runs, Parquet parts
//!   or `--unique` keys of its own files are finished).
//! - `output`: the output as it is written;
//! - the sink's own files ([`Resume::file`]): sorted runs, Parquet parts,
//!   `--unique`'s keys.
//!
//! **Checkpoints** fall at the end of an input, the first one after
//! `--checkpoint-every` bytes of input were finished since the last: the
//! sink writes out what it holds, every file is `fsync`ed, then the
//! journal's line is appended and `fsync`ed. A journal line therefore never
//! names bytes that are not on disk, and a line cut by the stop is not a
//! line (it does not parse, and is dropped).
//!
//! **Resuming**: the journal's first line must be the command's (else
//! [`Error::Resume`]: another command's folder is never taken over); its
//! last whole line is where the run goes on from. The output is cut back to
//! the length it names, the sink's files after it are removed by the sink,
//! and the run starts at the first input not finished.
//!
//! **Why the bytes are the same**: the output of the finished inputs is on
//! disk up to the checkpoint, the sink's state is restored as it was there,
//! and where checkpoints fall depends only on the inputs' sizes, never on
//! time — so a Parquet file, made of one part per checkpoint, has the same
//! parts, and the same row groups, however often the run was stopped.
//!
//! At the end the output is renamed to its final name and the folder
//! removed; until then nothing is under the final name. (A folder left
//! without its output is that of a run stopped between the two: its
//! journal is dropped, and the next run starts anew.) An error (a full
//! disk) keeps the folder: the same command goes on once the cause is
//! gone. The folder is locked while a run works in it.
//!
//! Limits: standard input cannot be resumed (it cannot be read again from
//! an input's start), and is refused.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::Error;
use crate::inputs::{Source, source_len, source_name};

/// The journal's format version (its first line's `spinneret_resume`).
const VERSION: u32 = 1;

/// The journal's first line: which run it is of.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Header {
    spinneret_resume: u32,
    /// The command and its flags that shape the output.
    command: String,
    /// The inputs: name (as shown) and size in bytes.
    inputs: Vec<(String, u64)>,
}

/// Where a run stood at the end of an input: the journal's other lines.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Inputs finished (the first this many of the run's sources).
    pub inputs: usize,
    /// The output file's length.
    pub output: u64,
    /// Input bytes read in those inputs.
    pub bytes: u64,
    /// What the sink holds, in its own terms.
    pub state: serde_json::Value,
}

/// A resumable run's folder, journal and output file.
#[derive(Debug)]
pub struct Resume {
    dir: PathBuf,
    journal: File,
    output: File,
    /// Input bytes between checkpoints.
    every: u64,
    /// The checkpoint the run went on from.
    restored: Option<Checkpoint>,
    /// Inputs and input bytes finished, since the run's start.
    inputs: usize,
    bytes: u64,
    /// Input bytes finished since the last checkpoint.
    since: u64,
}

/// The resume folder of the output `path`: `.NAME.spinneret-resume`
/// beside it.
pub fn folder(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy());
    path.with_file_name(format!(".{name}.spinneret-resume"))
}

impl Resume {
    /// Opens the resume folder of the output `path` (made if missing) and
    /// locks it; a checkpoint every `every` input bytes.
    pub fn open(path: &Path, every: u64) -> Result<Resume, Error> {
        let dir = folder(path);
        let err = |p: &Path| {
            let p = p.display().to_string();
            move |source| Error::ResumeFile { path: p, source }
        };
        std::fs::create_dir_all(&dir).map_err(err(&dir))?;
        let open = |p: &Path| {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(p)
                .map_err(err(p))
        };
        let journal_path = dir.join("journal");
        let journal = open(&journal_path)?;
        match journal.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                return Err(Error::Resume {
                    dir: dir.display().to_string(),
                    what: "another run is writing this output".to_owned(),
                });
            }
            Err(std::fs::TryLockError::Error(e)) => return Err(err(&journal_path)(e)),
        }
        // A folder without its output is one whose run put the output in
        // place and was stopped before it removed the folder: its journal
        // is of a finished run, and a new one starts.
        let output_path = dir.join("output");
        if !output_path.exists() {
            journal.set_len(0).map_err(err(&journal_path))?;
        }
        let output = open(&output_path)?;
        Ok(Resume {
            dir,
            journal,
            output,
            every: every.max(1),
            restored: None,
            inputs: 0,
            bytes: 0,
            since: 0,
        })
    }

    /// A writer on the output file, at its end once [`Resume::start`] cut
    /// it back (the two share the file's position).
    pub fn writer(&self) -> Result<File, Error> {
        self.output
            .try_clone()
            .map_err(|e| self.file_error("output", e))
    }

    /// A file of the sink's own in the folder.
    pub fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The checkpoint the run goes on from, if any.
    pub fn restored(&self) -> Option<&Checkpoint> {
        self.restored.as_ref()
    }

    /// The sink's state at the checkpoint the run goes on from, if any.
    pub fn restored_state(&self) -> Option<&serde_json::Value> {
        self.restored.as_ref().map(|c| &c.state)
    }

    /// The sink's state at the checkpoint the run goes on from, read as
    /// `T` (a journal that does not read is an [`Error::Resume`]).
    pub fn restored_as<T: serde::de::DeserializeOwned>(&self) -> Result<Option<T>, Error> {
        let Some(state) = self.restored_state() else {
            return Ok(None);
        };
        serde_json::from_value(state.clone())
            .map(Some)
            .map_err(|e| Error::Resume {
                dir: self.dir.display().to_string(),
                what: format!("its journal does not read: {e}"),
            })
    }

    /// Inputs finished before this run started.
    pub fn skipped(&self) -> usize {
        self.restored.as_ref().map_or(0, |c| c.inputs)
    }

    /// Starts the run of `command` over `sources`: goes on from the
    /// journal's last checkpoint when the journal is this run's (the
    /// output cut back to it), else starts a new journal (an empty one, or
    /// one cut short before its first line, is new). The run then reads
    /// `sources[self.skipped()..]`.
    pub fn start(&mut self, command: &str, sources: &[Source]) -> Result<(), Error> {
        if sources.iter().any(|s| matches!(s, Source::Stdin)) {
            return Err(Error::Usage(
                "--resume cannot go on with standard input: give files or URLs",
            ));
        }
        let header = Header {
            spinneret_resume: VERSION,
            command: command.to_owned(),
            inputs: sources
                .iter()
                .map(|s| (source_name(s), source_len(s)))
                .collect(),
        };
        let (found, last, whole) = self.read_journal()?;
        match found {
            Some(h) if h == header => {
                self.restored = last;
                // A line cut by the stop goes: the next one starts clean.
                self.journal
                    .set_len(whole)
                    .map_err(|e| self.file_error("journal", e))?;
            }
            Some(_) => {
                return Err(Error::Resume {
                    dir: self.dir.display().to_string(),
                    what: "it holds the run of another command or of other inputs; \
                           remove it to start over"
                        .to_owned(),
                });
            }
            None => {
                let mut line = serde_json::to_vec(&header).unwrap_or_default();
                line.push(b'\n');
                let j = &mut self.journal;
                let written = j
                    .set_len(0)
                    .and_then(|()| j.write_all(&line))
                    .and_then(|()| j.sync_data());
                written.map_err(|e| self.file_error("journal", e))?;
            }
        }
        let len = self.restored.as_ref().map_or(0, |c| c.output);
        let out = &mut self.output;
        let cut = out.set_len(len).and_then(|()| out.seek(SeekFrom::End(0)));
        cut.map_err(|e| self.file_error("output", e))?;
        Ok(())
    }

    /// The journal's header, its last checkpoint and the length of its
    /// whole lines.
    fn read_journal(&self) -> Result<(Option<Header>, Option<Checkpoint>, u64), Error> {
        let failed = |e| file_error(&self.dir, "journal", e);
        let j = &self.journal;
        (&*j).seek(SeekFrom::Start(0)).map_err(failed)?;
        let mut lines = BufReader::new(j);
        let (mut header, mut last, mut whole) = (None, None, 0u64);
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = lines.read_until(b'\n', &mut line).map_err(failed)?;
            if n == 0 || line.last() != Some(&b'\n') {
                break;
            }
            if header.is_none() {
                match serde_json::from_slice::<Header>(&line) {
                    Ok(h) => header = Some(h),
                    Err(_) => break,
                }
            } else {
                match serde_json::from_slice::<Checkpoint>(&line) {
                    Ok(c) => last = Some(c),
                    Err(_) => break,
                }
            }
            whole += n as u64;
        }
        Ok((header, last, whole))
    }

    /// An input of this run finished, `bytes` of input: whether a
    /// checkpoint is due now (`--checkpoint-every` bytes since the last).
    pub fn input_done(&mut self, bytes: u64) -> bool {
        self.inputs += 1;
        self.bytes += bytes;
        self.since += bytes;
        self.since >= self.every
    }

    /// Records a checkpoint after the input [`Resume::input_done`] last
    /// counted: the sink has written everything out (its own files synced)
    /// and holds `state`. The output is synced, then the journal's line is
    /// appended and synced.
    pub fn checkpoint(&mut self, state: serde_json::Value) -> Result<(), Error> {
        let (restored_inputs, restored_bytes) = self
            .restored
            .as_ref()
            .map_or((0, 0), |c| (c.inputs, c.bytes));
        let out = &mut self.output;
        let len = out.sync_data().and_then(|()| out.seek(SeekFrom::End(0)));
        let output = len.map_err(|e| self.file_error("output", e))?;
        let c = Checkpoint {
            inputs: restored_inputs + self.inputs,
            output,
            bytes: restored_bytes + self.bytes,
            state,
        };
        let mut line = serde_json::to_vec(&c).unwrap_or_default();
        line.push(b'\n');
        let j = &mut self.journal;
        let written = j
            .seek(SeekFrom::End(0))
            .and_then(|_| j.write_all(&line))
            .and_then(|()| j.sync_data());
        written.map_err(|e| self.file_error("journal", e))?;
        self.since = 0;
        Ok(())
    }

    /// The input bytes the finished inputs held before this run.
    pub fn bytes_before(&self) -> u64 {
        self.restored.as_ref().map_or(0, |c| c.bytes)
    }

    /// The run completed: the output goes under its final name `path` and
    /// the folder is removed.
    pub fn finish(self, path: &Path) -> Result<(), Error> {
        let output = self.dir.join("output");
        std::fs::rename(&output, path).map_err(|source| Error::Commit {
            path: path.display().to_string(),
            source,
        })?;
        drop(self.journal);
        // The output is in place: what is left is the run's bookkeeping,
        // and a folder that could not be removed is only untidy.
        let _ = std::fs::remove_dir_all(&self.dir);
        Ok(())
    }

    fn file_error(&self, name: &str, source: io::Error) -> Error {
        file_error(&self.dir, name, source)
    }
}

/// The error of the folder's file `name`.
fn file_error(dir: &Path, name: &str, source: io::Error) -> Error {
    Error::ResumeFile {
        path: dir.join(name).display().to_string(),
        source,
    }
}

/// Syncs a finished file of the sink's own (a run, a part) to disk, and
/// the folder that names it.
pub fn sync_file(path: &Path) -> io::Result<()> {
    File::open(path)?.sync_all()?;
    if let Some(dir) = path.parent() {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inputs::source::tmpdir;

    fn sources(d: &Path) -> Vec<Source> {
        let a = d.join("a.warc");
        std::fs::write(&a, b"0123456789").unwrap();
        vec![Source::Warc(a)]
    }

    #[test]
    fn a_checkpoint_is_where_the_next_run_goes_on_and_a_cut_line_is_dropped() {
        let d = tmpdir("resume-journal");
        let out = d.join("out.jsonl");
        let src = sources(&d);
        let mut r = Resume::open(&out, 5).unwrap();
        r.start("links x", &src).unwrap();
        assert!(r.restored().is_none());
        let mut w = r.writer().unwrap();
        w.write_all(b"line 1\n").unwrap();
        assert!(r.input_done(10));
        r.checkpoint(serde_json::json!({"n": 1})).unwrap();
        w.write_all(b"half of line 2").unwrap();
        drop((w, r));
        // A stop while the next line was written to the journal.
        let journal = folder(&out).join("journal");
        let mut j = OpenOptions::new().append(true).open(&journal).unwrap();
        j.write_all(b"{\"inputs\": 2, \"outp").unwrap();
        drop(j);

        let mut r = Resume::open(&out, 5).unwrap();
        r.start("links x", &src).unwrap();
        let c = r.restored().unwrap();
        assert_eq!((c.inputs, c.output, c.bytes), (1, 7, 10));
        assert_eq!(r.restored_state().unwrap()["n"], 1);
        let mut w = r.writer().unwrap();
        w.write_all(b"line 2\n").unwrap();
        r.finish(&out).unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"line 1\nline 2\n");
        assert!(!folder(&out).exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn another_command_or_other_inputs_are_refused_and_the_folder_is_locked() {
        let d = tmpdir("resume-refused");
        let out = d.join("out.cdxj");
        let src = sources(&d);
        let mut r = Resume::open(&out, 1).unwrap();
        r.start("index a", &src).unwrap();
        let e = Resume::open(&out, 1).unwrap_err();
        assert!(e.to_string().contains("another run"), "{e}");
        drop(r);
        let mut r = Resume::open(&out, 1).unwrap();
        let e = r.start("index b", &src).unwrap_err();
        assert!(e.to_string().contains("another command"), "{e}");
        std::fs::write(d.join("a.warc"), b"changed size").unwrap();
        let e = r.start("index a", &src).unwrap_err();
        assert!(e.to_string().contains("other inputs"), "{e}");
        let e = r.start("index a", &[Source::Stdin]).unwrap_err();
        assert!(e.to_string().contains("standard input"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
