//! `spinneret.get_records`: the records index rows name, each read by its
//! byte range from a folder and checked to be one WARC record, as
//! `spinneret get` does (`spinneret_index::fetch`): what a DuckDB query
//! over an index hands to Python.
//!
//! Rows are taken one at a time from any iterable: CDXJ or CDX lines
//! (`str`), mappings with `filename`, `offset`, `length` (or Common
//! Crawl's `warc_filename`, `warc_record_offset`, `warc_record_length`),
//! or `(filename, offset, length)` sequences. Each record is yielded as
//! `bytes`, a gzip member (verbatim when the file stored it as one), which
//! warcio and `spinneret.warc_links(io.BytesIO(…))` read. A row that names
//! no record, or a range that is not one, is counted and its message kept
//! (`.bad`, `.errors`), or raises `ValueError` with `strict`. The range is
//! read without the GIL.

use std::path::{Path, PathBuf};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyIterator, PyMapping, PyString};
use spinneret_index::fetch::{FetchError, Legend, Location, fetch, locate};

use crate::batches::ERRORS_KEPT;

/// The records of [`get_records`]: an iterator of `bytes`.
#[pyclass(name = "Records", module = "spinneret")]
pub struct Records {
    rows: Py<PyIterator>,
    base: PathBuf,
    max_record_size: u64,
    strict: bool,
    /// The columns of CDX lines (a ` CDX` legend row changes them).
    legend: Legend,
    bad: u64,
    errors: Vec<String>,
}

impl Records {
    /// Counts a bad row, or raises under `strict`.
    fn bad_row(&mut self, msg: String) -> PyResult<()> {
        if self.strict {
            return Err(PyValueError::new_err(msg));
        }
        self.bad += 1;
        if self.errors.len() < ERRORS_KEPT {
            self.errors.push(msg);
        }
        Ok(())
    }
}

/// The record a row names (`Ok(None)`: a row that names none, such as a
/// CDX legend).
fn location_of(row: &Bound<'_, PyAny>, legend: &mut Legend) -> Result<Option<Location>, String> {
    if let Ok(line) = row.cast::<PyString>() {
        let line = line.to_str().map_err(|e| e.to_string())?;
        return locate(line, legend).map_err(|e| e.to_string());
    }
    let field = |names: [&str; 2]| -> Result<Bound<'_, PyAny>, String> {
        let mapping = row.cast::<PyMapping>().map_err(|_| {
            "a row is a str, a mapping or a (filename, offset, length) sequence".to_owned()
        })?;
        for name in names {
            if let Ok(v) = mapping.get_item(name) {
                return Ok(v);
            }
        }
        Err(format!("no `{}` or `{}` in the row", names[0], names[1]))
    };
    let number = |v: Bound<'_, PyAny>, what: &str| -> Result<u64, String> {
        v.extract::<u64>()
            .or_else(|_| {
                v.extract::<String>()
                    .map_err(|_| ())
                    .and_then(|s| s.parse().map_err(|_| ()))
            })
            .map_err(|()| format!("`{what}` is not a whole number"))
    };
    let (filename, offset, length) = if row.cast::<PyMapping>().is_ok() {
        (
            field(["filename", "warc_filename"])?,
            field(["offset", "warc_record_offset"])?,
            field(["length", "warc_record_length"])?,
        )
    } else {
        let parts: Vec<Bound<'_, PyAny>> = row.extract().map_err(|_| {
            "a row is a str, a mapping or a (filename, offset, length) sequence".to_owned()
        })?;
        let [f, o, l]: [Bound<'_, PyAny>; 3] = parts
            .try_into()
            .map_err(|_| "a sequence row has three items: filename, offset, length".to_owned())?;
        (f, o, l)
    };
    Ok(Some(Location {
        filename: filename
            .extract::<String>()
            .map_err(|_| "`filename` is not a string".to_owned())?,
        offset: number(offset, "offset")?,
        length: number(length, "length")?,
    }))
}

/// The record at `loc` under `base`: a folder, or (with the `remote`
/// feature) a remote prefix, read with one range request.
fn read_record(base: &Path, loc: &Location, max: u64) -> Result<Vec<u8>, FetchError> {
    #[cfg(feature = "remote")]
    if let Some(base) = base.to_str().filter(|b| crate::remote::is_remote(b)) {
        use spinneret_index::fetch::{check_length, check_record, url_under};
        check_length(loc, max)?;
        let url = url_under(base, &loc.filename)?;
        let range = loc.offset..loc.offset.saturating_add(loc.length);
        let bytes = crate::remote::fetch_range(&url, range).map_err(|why| FetchError::Io {
            path: spinneret_remote::redact(&url),
            source: std::io::Error::other(why),
        })?;
        return check_record(bytes, loc, max);
    }
    fetch(base, loc, max)
}

#[pymethods]
impl Records {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next record, as `bytes` (a gzip member).
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyBytes>>> {
        loop {
            let mut rows = self.rows.bind(py).clone();
            let Some(row) = rows.next() else {
                return Ok(None);
            };
            let row = row?;
            let loc = match location_of(&row, &mut self.legend) {
                Ok(Some(loc)) => loc,
                Ok(None) => continue,
                Err(msg) => {
                    self.bad_row(format!("bad row: {msg}"))?;
                    continue;
                }
            };
            let (base, max) = (&self.base, self.max_record_size);
            match py.detach(|| read_record(base, &loc, max)) {
                Ok(bytes) => return Ok(Some(PyBytes::new(py, &bytes).unbind())),
                Err(e) => {
                    let mut msg = format!(
                        "bad range: {} offset {} length {}: {e}",
                        loc.filename, loc.offset, loc.length
                    );
                    if let Some(cause) = std::error::Error::source(&e) {
                        msg.push_str(&format!(": {cause}"));
                    }
                    self.bad_row(msg)?;
                }
            }
        }
    }

    /// Rows skipped so far: naming no record, or a range that is not one.
    #[getter]
    fn bad(&self) -> u64 {
        self.bad
    }

    /// The first bad rows' messages.
    #[getter]
    fn errors(&self) -> Vec<String> {
        self.errors.clone()
    }
}

/// The records `rows` name (index lines, mappings or `(filename, offset,
/// length)` sequences), each read by its byte range from the folder
/// `base` and checked to be one WARC record, yielded as `bytes` (gzip
/// members, verbatim when stored as one). Bad rows are counted (`.bad`,
/// `.errors`) and skipped; with `strict`, the first raises `ValueError`.
#[pyfunction]
#[pyo3(signature = (rows, base = PathBuf::from("."), max_record_size = 1 << 30, strict = false))]
pub fn get_records(
    rows: &Bound<'_, PyAny>,
    base: PathBuf,
    max_record_size: u64,
    strict: bool,
) -> PyResult<Records> {
    // A single string is one row, not an iterable of characters.
    let rows = if rows.cast::<PyString>().is_ok() {
        (rows.clone(),).into_pyobject(rows.py())?.try_iter()?
    } else {
        rows.try_iter()?
    };
    Ok(Records {
        rows: rows.unbind(),
        base,
        max_record_size,
        strict,
        legend: Legend::default(),
        bad: 0,
        errors: Vec::new(),
    })
}
