//! Where a command's output goes, once for every command: `-o FILE`
//! (written under a temporary name and renamed when the run completes:
//! [`pending`]) or standard output, a binary format refused on a terminal,
//! and what a write's failure means — a closed pipe (`EPIPE`: the reader has what it
//! wanted, as `spinneret links … | head` does) ends the run quietly, any
//! other error ends it with [`Error::Output`].
//!
//! Invariants: nothing is created or written before the command line is
//! known to be usable (a refusal comes before `-o` is created); a file
//! under an output's final name (`-o`, `--stats`) is a whole output — a run
//! that fails, or is stopped by a signal, leaves what was there before.

pub mod parts;
pub mod pending;
pub mod resume;
pub mod warc_records;

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use crate::Error;
use pending::PendingFile;
use resume::Resume;

/// A run's output: standard output, or the `-o` file, pending until
/// [`Output::finish`].
#[derive(Debug)]
pub enum Output {
    /// Standard output, locked.
    Stdout(io::StdoutLock<'static>),
    /// The `-o` file, under its temporary name.
    File(PendingFile),
}

impl Output {
    /// The run completed: the `-o` file is put in place.
    pub fn finish(self, path: &Path) -> Result<(), Error> {
        match self {
            Output::Stdout(_) => Ok(()),
            Output::File(f) => f.commit().map_err(|source| Error::Commit {
                path: path.display().to_string(),
                source,
            }),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File(w) => w.write(buf),
        }
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.write_all(buf),
            Output::File(w) => w.write_all(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File(w) => w.flush(),
        }
    }
}

/// A binary output format (Parquet, gzipped WARC), which [`open`] refuses
/// to write to a terminal.
#[derive(Debug, Clone, Copy)]
pub struct Binary {
    /// The format, as `--format` names it.
    pub format: &'static str,
    /// Another way out than `-o FILE`, for the message (` or --no-gzip`),
    /// or empty.
    pub or: &'static str,
}

impl Binary {
    /// Apache Parquet.
    pub const PARQUET: Binary = Binary {
        format: "parquet",
        or: "",
    };
}

/// Runs a command as the binary does: `run` given the output ([`open`]),
/// standard error for problems and the summary, and whether a progress
/// bar is shown there ([`progress_shown`]). The `-o` file is put in place
/// once `run` returns (its result, whatever the exit code it makes); an
/// error removes it.
pub fn run_to<R>(
    path: Option<&Path>,
    binary: Option<Binary>,
    run: impl FnOnce(&mut dyn Write, &mut dyn Write, bool) -> Result<R, Error>,
) -> Result<R, Error> {
    let mut out = open(path, binary)?;
    let result =
        run(&mut out, &mut io::stderr(), progress_shown()).map_err(|e| match (e, path) {
            // The file's name in the message: `-o FILE: cannot be written:
            // No space left on device`.
            (Error::Output(source), Some(path)) => Error::Write {
                path: path.display().to_string(),
                source,
            },
            (e, _) => e,
        })?;
    if let Some(path) = path {
        out.finish(path)?;
    }
    Ok(result)
}

/// Runs a `--resume` command as the binary does ([`run_to`]'s resumable
/// twin): `run` given the resume folder's output file and the run's
/// [`Resume`]; the output is put in place under `path` once `run` returns,
/// and the folder removed. An error keeps the folder, for the same command
/// to go on.
pub fn run_resumable<R>(
    path: &Path,
    every: u64,
    run: impl FnOnce(&mut dyn Write, &mut Resume, &mut dyn Write, bool) -> Result<R, Error>,
) -> Result<R, Error> {
    let mut resume = Resume::open(path, every)?;
    let mut out = resume.writer()?;
    let result = run(&mut out, &mut resume, &mut io::stderr(), progress_shown()).map_err(|e| {
        let _ = writeln!(
            io::stderr(),
            "spinneret: the run's journal stays in {}: the same command goes on from its last checkpoint",
            resume::folder(path).display()
        );
        match e {
            Error::Output(source) => Error::Write {
                path: path.display().to_string(),
                source,
            },
            e => e,
        }
    })?;
    out.flush().map_err(Error::Output)?;
    drop(out);
    resume.finish(path)?;
    Ok(result)
}

/// The output: the `-o` file (pending under its temporary name until
/// [`Output::finish`]) or standard output (locked). A `binary` format to
/// standard output on a terminal is an [`Error::BinaryToTerminal`] saying
/// what to give instead.
pub fn open(path: Option<&Path>, binary: Option<Binary>) -> Result<Output, Error> {
    if let Some(path) = path {
        let file = PendingFile::create(path).map_err(|source| Error::Create {
            path: path.display().to_string(),
            source,
        })?;
        return Ok(Output::File(file));
    }
    let stdout = io::stdout();
    if let Some(b) = binary
        && stdout.is_terminal()
    {
        return Err(Error::BinaryToTerminal(format!(
            "--format {} writes a binary file: give -o FILE{}, or redirect the output",
            b.format, b.or
        )));
    }
    Ok(Output::Stdout(stdout.lock()))
}

/// Whether a write went out: `Ok(false)` when the output was closed (a
/// closed pipe), [`Error::Output`] for any other failure.
pub fn written(result: io::Result<()>) -> Result<bool, Error> {
    match result {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(Error::Output(e)),
    }
}

/// Writes `bytes`: `Ok(false)` when the output is closed ([`written`]).
pub fn write(w: &mut impl Write, bytes: &[u8]) -> Result<bool, Error> {
    written(w.write_all(bytes))
}

/// Flushes `w`: `Ok(false)` when the output is closed ([`written`]).
pub fn flush(w: &mut impl Write) -> Result<bool, Error> {
    written(w.flush())
}

/// Writes a run's statistics as pretty JSON (and a line feed) to `path`
/// (`--stats FILE`).
pub fn write_stats(path: &Path, stats: &impl serde::Serialize) -> Result<(), Error> {
    let json = serde_json::to_string_pretty(stats).unwrap_or_default();
    write_file(path, (json + "\n").as_bytes())
}

/// Writes a small output file whole (`--stats`, `canon-eval --json`,
/// `--html`), under a temporary name first as `-o` files are; an error is
/// an [`Error::Stats`] naming the file.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let written = PendingFile::create(path).and_then(|mut f| {
        f.write_all(bytes)?;
        f.commit()
    });
    written.map_err(|source| Error::Stats {
        path: path.display().to_string(),
        source,
    })
}

/// A run's summary line: `spinneret COMMAND: N what, …, X MB in Y s`.
pub fn summary(
    command: &str,
    counts: &[(u64, &str)],
    bytes: u64,
    elapsed: std::time::Duration,
) -> String {
    let mut line = format!("spinneret {command}: ");
    for (n, what) in counts {
        line.push_str(&format!("{n} {what}, "));
    }
    let mb = bytes as f64 / 1e6;
    line + &format!("{mb:.1} MB in {:.2} s", elapsed.as_secs_f64())
}

/// Whether standard error is a terminal: a run shows its progress bar
/// there only then.
pub fn progress_shown() -> bool {
    io::stderr().is_terminal()
}
