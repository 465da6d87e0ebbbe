//! The vectorized calls: `canonicalize_array`, `surt_array`,
//! `surt_host_array` and `join_url_array` take a column of URLs — an Arrow string array from
//! pyarrow, polars, arro3 or nanoarrow (anything with the Arrow PyCapsule
//! interface, as an array or a stream of chunks), or a Python sequence of
//! strings — and return an Arrow string array (`pyarrow.array(result)`
//! takes it without a copy) with a null wherever an input is null or fails.
//!
//! Why: one Python call per URL costs more than the work it calls (the
//! per-call overhead users of ada-url's Python package meet); one call per
//! column pays it once. The whole loop runs with the GIL released, so
//! Python threads calling these scale with cores.
//!
//! Invariants: the output has the input's length and order; row `i` is
//! what the per-URL function gives for input `i` (its error as null); the
//! tests compare them.

use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{Array, ArrayRef, LargeStringArray, StringArray, StringViewArray};
use arrow_schema::{DataType, Field};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3_arrow::{PyArray, PyChunkedArray};
use spinneret_url::Url;

use crate::canon::with_canonicalizer;

/// A column of strings as Python gives it.
#[derive(FromPyObject)]
pub enum StringsArg {
    /// An Arrow array (`__arrow_c_array__`).
    Array(PyArray),
    /// An Arrow stream of arrays (`__arrow_c_stream__`: a chunked array, a
    /// polars Series).
    Chunked(PyChunkedArray),
    /// A Python sequence of strings (or `None`s).
    List(Vec<Option<String>>),
}

/// The strings of a column, chunk by chunk.
enum Strings {
    Arrow(Vec<ArrayRef>),
    List(Vec<Option<String>>),
}

impl Strings {
    fn from_arg(arg: StringsArg) -> PyResult<Strings> {
        let chunks = match arg {
            StringsArg::Array(a) => vec![a.into_inner().0],
            StringsArg::Chunked(c) => c.into_inner().0,
            StringsArg::List(v) => return Ok(Strings::List(v)),
        };
        for c in &chunks {
            if !matches!(
                c.data_type(),
                DataType::Utf8 | DataType::LargeUtf8 | DataType::Utf8View
            ) {
                return Err(PyTypeError::new_err(format!(
                    "expected an array of strings, not {}",
                    c.data_type()
                )));
            }
        }
        Ok(Strings::Arrow(chunks))
    }

    fn len(&self) -> usize {
        match self {
            Strings::Arrow(chunks) => chunks.iter().map(|c| c.len()).sum(),
            Strings::List(v) => v.len(),
        }
    }

    /// Calls `f` with each string (`None` for a null), in order.
    fn for_each(&self, mut f: impl FnMut(Option<&str>)) {
        match self {
            Strings::List(v) => v.iter().for_each(|s| f(s.as_deref())),
            Strings::Arrow(chunks) => {
                for c in chunks {
                    let any = c.as_any();
                    if let Some(a) = any.downcast_ref::<StringArray>() {
                        a.iter().for_each(&mut f);
                    } else if let Some(a) = any.downcast_ref::<LargeStringArray>() {
                        a.iter().for_each(&mut f);
                    } else if let Some(a) = any.downcast_ref::<StringViewArray>() {
                        a.iter().for_each(&mut f);
                    }
                }
            }
        }
    }
}

/// `f` over every string of `urls`, with the GIL released: the results as
/// an Arrow string array.
fn map_strings(
    py: Python<'_>,
    urls: StringsArg,
    name: &str,
    f: impl FnMut(&str) -> Option<String> + Send,
) -> PyResult<PyArray> {
    let strings = Strings::from_arg(urls)?;
    let array = py.detach(move || {
        let mut f = f;
        let mut out = StringBuilder::with_capacity(strings.len(), 0);
        strings.for_each(|s| out.append_option(s.and_then(&mut f)));
        Arc::new(out.finish()) as ArrayRef
    });
    let field = Field::new(name, DataType::Utf8, true);
    PyArray::try_new(array, Arc::new(field)).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// `canonicalize` over a column of URLs: an Arrow string array, null where
/// an input is null or has no canonical form under the profile. Raises
/// `ValueError` for an unknown profile or rule.
#[pyfunction]
#[pyo3(signature = (urls, profile = "safe", rules = Vec::new()))]
pub fn canonicalize_array(
    py: Python<'_>,
    urls: StringsArg,
    profile: &str,
    rules: Vec<String>,
) -> PyResult<PyArray> {
    // An unknown profile or rule fails before any work.
    crate::canon::profile(profile, &rules)?;
    let mut failed = None;
    let out = map_strings(py, urls, "canonical", |u| {
        match with_canonicalizer(profile, &rules, |c| {
            c.canonicalize(u).ok().map(str::to_owned)
        }) {
            Ok(r) => r,
            Err(e) => {
                failed.get_or_insert(e);
                None
            }
        }
    })?;
    failed.map_or(Ok(out), Err)
}

/// `surt` over a column of URLs, with `surt`'s `canonicalizer` and
/// options: an Arrow string array (null only where an input is null).
#[pyfunction]
#[pyo3(signature = (urls, canonicalizer = None, **options))]
pub fn surt_array(
    py: Python<'_>,
    urls: StringsArg,
    canonicalizer: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyArray> {
    let (canonicalizer, options) = crate::canon::surt_args(canonicalizer, options)?;
    map_strings(py, urls, "surt", |u| {
        Some(spinneret_canon::surt::surt_string(
            u.as_bytes(),
            &canonicalizer,
            &options,
        ))
    })
}

/// `surt_host` over a column of URLs: an Arrow string array, null where a
/// URL is null or its host is left out.
#[pyfunction]
#[pyo3(signature = (urls, strip_www = false))]
pub fn surt_host_array(py: Python<'_>, urls: StringsArg, strip_www: bool) -> PyResult<PyArray> {
    map_strings(py, urls, "host", |u| crate::canon::surt_host(u, strip_www))
}

/// `join_url` over a column of links, all against `base` (parsed once):
/// an Arrow string array, null where a link is null or does not resolve.
/// Raises `ValueError` when `base` is not a URL.
#[pyfunction]
pub fn join_url_array(py: Python<'_>, base: &str, relatives: StringsArg) -> PyResult<PyArray> {
    let base = Url::parse(base).map_err(|e| crate::url::parse_error(base, e))?;
    map_strings(py, relatives, "url", |r| {
        Url::parse_with_base(r, &base)
            .ok()
            .map(|u| u.href().to_owned())
    })
}
