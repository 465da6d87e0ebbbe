//! `spinneret.URL` and `spinneret.join_url`: the WHATWG URL Standard's
//! `URL` class (crates/url) with the attributes, setters and failures of
//! the standard's API.
//!
//! Invariants: a `URL` always holds a parsed URL (a failed parse raises
//! `ValueError` naming the standard's failure, and a failed `href` setter
//! leaves the URL as it was); equality, hashing and pickling go by `href`.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;
use spinneret_url::{ParseError, Url};

/// A base URL argument: a `URL` or a string.
#[derive(FromPyObject)]
pub enum BaseArg<'py> {
    /// A parsed URL.
    Url(PyRef<'py, PyUrl>),
    /// A string, parsed first.
    Str(String),
}

/// The `ValueError` for `input` failing with `e`: the standard's name of
/// the failure first, so callers can match on it.
pub fn parse_error(input: &str, e: ParseError) -> PyErr {
    PyValueError::new_err(format!("{}: {e} (input {input:?})", e.kind().spec_name()))
}

/// `input` parsed against `base` (a `URL` or a string, itself parsed).
pub fn parse(input: &str, base: Option<&BaseArg<'_>>) -> PyResult<Url> {
    match base {
        None => Url::parse(input).map_err(|e| parse_error(input, e)),
        Some(BaseArg::Url(b)) => {
            Url::parse_with_base(input, &b.url).map_err(|e| parse_error(input, e))
        }
        Some(BaseArg::Str(s)) => {
            let b = Url::parse(s).map_err(|e| parse_error(s, e))?;
            Url::parse_with_base(input, &b).map_err(|e| parse_error(input, e))
        }
    }
}

/// A URL as the WHATWG URL Standard parses it.
///
/// `URL(input, base=None)` parses `input` (against `base`, a `URL` or a
/// string); it raises `ValueError` (its message starts with the standard's
/// name of the failure, e.g. `invalid-URL-unit`… or `missing-scheme-non-relative-URL`)
/// when the input is not a URL. The attributes are those of the standard's
/// API; assigning one runs the standard's setter.
#[pyclass(name = "URL", module = "spinneret")]
#[derive(Clone)]
pub struct PyUrl {
    pub(crate) url: Url,
}

#[pymethods]
impl PyUrl {
    #[new]
    #[pyo3(signature = (input, base = None))]
    fn new(input: &str, base: Option<BaseArg<'_>>) -> PyResult<Self> {
        Ok(PyUrl {
            url: parse(input, base.as_ref())?,
        })
    }

    /// Whether `input` parses (against `base`), without raising.
    #[staticmethod]
    #[pyo3(signature = (input, base = None))]
    fn can_parse(input: &str, base: Option<BaseArg<'_>>) -> bool {
        parse(input, base.as_ref()).is_ok()
    }

    /// The whole URL, serialized. Assigning parses the value (no base)
    /// and raises `ValueError` when it is not a URL.
    #[getter]
    fn href(&self) -> &str {
        self.url.href()
    }

    #[setter]
    fn set_href(&mut self, value: &str) -> PyResult<()> {
        self.url.set_href(value).map_err(|e| parse_error(value, e))
    }

    /// The origin, serialized (`null` for an opaque origin).
    #[getter]
    fn origin(&self) -> String {
        self.url.origin().ascii_serialization()
    }

    /// The scheme and `:`.
    #[getter]
    fn protocol(&self) -> &str {
        self.url.protocol()
    }

    #[setter]
    fn set_protocol(&mut self, value: &str) {
        self.url.set_protocol(value);
    }

    /// The username (percent-encoded).
    #[getter]
    fn username(&self) -> &str {
        self.url.username()
    }

    #[setter]
    fn set_username(&mut self, value: &str) {
        self.url.set_username(value);
    }

    /// The password (percent-encoded).
    #[getter]
    fn password(&self) -> &str {
        self.url.password()
    }

    #[setter]
    fn set_password(&mut self, value: &str) {
        self.url.set_password(value);
    }

    /// The host and, when there is one, `:` and the port.
    #[getter]
    fn host(&self) -> &str {
        self.url.host()
    }

    #[setter]
    fn set_host(&mut self, value: &str) {
        self.url.set_host(value);
    }

    /// The host.
    #[getter]
    fn hostname(&self) -> &str {
        self.url.hostname()
    }

    #[setter]
    fn set_hostname(&mut self, value: &str) {
        self.url.set_hostname(value);
    }

    /// The port, or `""` (the scheme's default port is never shown).
    #[getter]
    fn port(&self) -> &str {
        self.url.port()
    }

    #[setter]
    fn set_port(&mut self, value: &str) {
        self.url.set_port(value);
    }

    /// The path.
    #[getter]
    fn pathname(&self) -> &str {
        self.url.pathname()
    }

    #[setter]
    fn set_pathname(&mut self, value: &str) {
        self.url.set_pathname(value);
    }

    /// `?` and the query, or `""` when the query is empty or absent.
    #[getter]
    fn search(&self) -> &str {
        self.url.search()
    }

    #[setter]
    fn set_search(&mut self, value: &str) {
        self.url.set_search(value);
    }

    /// `#` and the fragment, or `""` when the fragment is empty or absent.
    #[getter]
    fn hash(&self) -> &str {
        self.url.hash()
    }

    #[setter]
    fn set_hash(&mut self, value: &str) {
        self.url.set_hash(value);
    }

    fn __str__(&self) -> &str {
        self.url.href()
    }

    fn __repr__(&self) -> String {
        format!("URL({})", crate::repr::py_repr(self.url.href()))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .extract::<PyRef<'_, PyUrl>>()
            .is_ok_and(|o| o.url.href() == self.url.href())
    }

    fn __ne__(&self, other: &Bound<'_, PyAny>) -> bool {
        !self.__eq__(other)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.url.href().hash(&mut h);
        h.finish()
    }

    /// Pickling: the class and the href.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String,)) {
        (slf.get_type(), (slf.borrow().url.href().to_owned(),))
    }
}

/// `relative` resolved against `base` (both strings), serialized; `None`
/// when `base` is not a URL or `relative` does not resolve against it (the
/// WHATWG algorithm, unlike `urllib.parse.urljoin`, which never fails and
/// does not follow the standard).
#[pyfunction]
pub fn join_url(base: &str, relative: &str) -> Option<String> {
    let base = Url::parse(base).ok()?;
    Url::parse_with_base(relative, &base)
        .ok()
        .map(|u| u.href().to_owned())
}
