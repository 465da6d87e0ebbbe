//! The inputs of `warc_links`, `warc_text` and `warc_index`: a path — a
//! file, a directory walked for WARC/ARC files, a glob —, a list of paths,
//! a manifest listing paths, or a binary file object, as the files to read
//! in order, each opened when its turn comes (a folder of thousands of
//! WARCs holds one descriptor at a time).
//!
//! Invariants: a path names the files `spinneret links`, `index` and
//! `text` read for it, in the same order; a part that yields nothing (a
//! missing file, a glob matching nothing) stays in its place as its
//! message, for the reading thread to count as unreadable (or to stop at
//! under `strict`).

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Files in reading order; an unreadable input is its message in place.
pub(crate) type Paths = Vec<Result<PathBuf, String>>;

/// A Python binary file object as a [`Read`]: each read takes the GIL.
pub(crate) struct PyFile(Py<PyAny>);

impl Read for PyFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        Python::attach(|py| {
            let chunk = self
                .0
                .bind(py)
                .call_method1("read", (buf.len(),))
                .map_err(|e| io::Error::other(e.to_string()))?;
            let bytes = chunk.cast::<PyBytes>().map_err(|_| {
                io::Error::new(io::ErrorKind::InvalidData, "read() did not return bytes")
            })?;
            let b = bytes.as_bytes();
            let n = b.len().min(buf.len());
            buf[..n].copy_from_slice(&b[..n]);
            Ok(n)
        })
    }
}

/// Where the records come from.
pub(crate) enum Source {
    /// Files, in reading order, each with its name; an unreadable input
    /// is its message in place.
    Paths(Paths),
    File(PyFile),
}

/// The inputs of `source` (called `name`), each with its name, each
/// file opened when its turn comes; `Err` when none is readable (the first
/// input's message).
pub(crate) fn inputs(
    source: Source,
    name: &str,
) -> Result<Box<dyn Iterator<Item = (String, Opened)>>, String> {
    Ok(match source {
        Source::File(f) => Box::new(std::iter::once((
            name.to_owned(),
            Ok(Box::new(io::BufReader::with_capacity(1 << 16, f)) as Box<dyn Read>),
        ))),
        Source::Paths(paths) => {
            if !paths.iter().any(Result::is_ok) {
                return Err(match paths.into_iter().find_map(Result::err) {
                    Some(msg) => msg,
                    None => format!("{name}: no WARC/ARC file found"),
                });
            }
            Box::new(paths.into_iter().map(|p| match p {
                Ok(p) => (shown_name(&p), open(&p)),
                Err(msg) => (String::new(), Err(msg)),
            }))
        }
    })
}

/// An input opened for reading, or why it cannot be.
pub(crate) type Opened = Result<Box<dyn Read>, String>;

/// A path's name as shown: a remote URL redacted.
pub(crate) fn shown_name(path: &Path) -> String {
    let name = path.display().to_string();
    #[cfg(feature = "remote")]
    if crate::remote::is_remote(&name) {
        return spinneret_remote::redact(&name);
    }
    name
}

/// A WARC/ARC file (or, with the `remote` feature, a remote object),
/// buffered; an error is its message.
pub(crate) fn open(path: &Path) -> Opened {
    #[cfg(feature = "remote")]
    if let Some(url) = path.to_str().filter(|p| crate::remote::is_remote(p)) {
        return crate::remote::open(url)
            .map(|r| Box::new(io::BufReader::with_capacity(1 << 16, r)) as Box<dyn Read>);
    }
    match std::fs::File::open(path) {
        Ok(f) => Ok(Box::new(io::BufReader::with_capacity(1 << 16, f))),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The files a path argument names: a file, a directory walked for
/// WARC/ARC files, or a glob (as the CLI takes them), each part that
/// yields nothing as its message.
pub(crate) fn expand(arg: &str, out: &mut Paths) {
    #[cfg(feature = "remote")]
    if crate::remote::is_remote(arg) {
        out.extend(
            crate::remote::objects(arg)
                .into_iter()
                .map(|r| r.map(PathBuf::from)),
        );
        return;
    }
    let found = spinneret_warc::discover::Discover::default().expand(arg);
    out.extend(found.into_iter().map(|r| r.map_err(|e| e.to_string())));
}

/// The files of path arguments, each [`expand`]ed, in order.
fn expand_all(args: &[PathBuf]) -> Paths {
    let mut paths = Vec::new();
    for p in args {
        expand(&p.display().to_string(), &mut paths);
    }
    paths
}

/// The files of a path or a list of paths, and the source's name (the
/// path, or `[paths]`); `None` for anything else.
///
/// Expansion (a directory walk, a remote listing) runs with the GIL
/// released: a listing may wait on a server, and that server may be
/// Python's own.
pub(crate) fn paths_of(source: &Bound<'_, PyAny>) -> Option<(Paths, String)> {
    let py = source.py();
    if let Ok(path) = source.extract::<PathBuf>() {
        let name = path.display().to_string();
        let paths = py.detach(|| {
            let mut paths = Vec::new();
            expand(&name, &mut paths);
            paths
        });
        Some((paths, shown_name(Path::new(&name))))
    } else if let Ok(list) = source.extract::<Vec<PathBuf>>() {
        Some((py.detach(|| expand_all(&list)), "[paths]".to_owned()))
    } else {
        None
    }
}

/// The files (or the file object) of a source of `function` (`warc_links`,
/// `warc_text`), and its name.
pub(crate) fn source_of(source: &Bound<'_, PyAny>, function: &str) -> PyResult<(Source, String)> {
    Ok(if let Some((paths, name)) = paths_of(source) {
        (Source::Paths(paths), name)
    } else if source.hasattr("read")? {
        if source.hasattr("closed")? && source.getattr("closed")?.is_truthy()? {
            return Err(PyValueError::new_err("I/O operation on closed file"));
        }
        let name = match source.getattr("name") {
            Ok(n) => n.str()?.to_string(),
            Err(_) => "-".to_owned(),
        };
        (Source::File(PyFile(source.clone().unbind())), name)
    } else {
        return Err(PyTypeError::new_err(format!(
            "{function}() takes a path, a list of paths or a binary file object, not {}",
            source.get_type().name()?
        )));
    })
}

/// The files a manifest lists (paths, one a line, plain or gzip, relative
/// to the manifest's folder; Common Crawl's `warc.paths.gz`; a line that is
/// a remote URL taken as it is), and its name.
pub(crate) fn manifest_of(list: &Path) -> PyResult<(Source, String)> {
    let dir = list.parent().map(PathBuf::from).unwrap_or_default();
    let text = spinneret_warc::discover::read_list_file(list).map_err(|source| {
        let e = spinneret_warc::discover::InputError::Io {
            path: list.display().to_string(),
            source,
        };
        PyValueError::new_err(e.to_string())
    })?;
    let listed: Vec<PathBuf> = spinneret_warc::discover::paths_of_list(&text, Path::new(""))
        .into_iter()
        .map(|p| {
            #[cfg(feature = "remote")]
            if p.to_str().is_some_and(crate::remote::is_remote) {
                return p;
            }
            dir.join(p)
        })
        .collect();
    Ok((
        Source::Paths(expand_all(&listed)),
        list.display().to_string(),
    ))
}
