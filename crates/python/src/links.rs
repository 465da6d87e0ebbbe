//! `spinneret.links`: every outlink of a page, with the fields of
//! `spinneret links`' JSON rows (crates/extract).
//!
//! Invariants: a `Link`'s fields are what the CLI writes for the same page
//! and URL (`source`, `target`, `error`, `raw`, `tag`, `attr`, `kind`,
//! `rel`, `text`, `record`; the tests compare them on corpus pages);
//! extraction runs with the GIL released, and the Python objects are made
//! after it.

use std::borrow::Cow;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use spinneret_canon::Canonicalizer;
use spinneret_extract::{Extractor, Headers, Link};
use spinneret_url::Url;

use crate::canon::with_canonicalizer;

/// One link of a page: the fields of a `spinneret links` JSON row.
///
/// A page's links share its URL (one `Arc`), known element names are the
/// interned static names, and a link's own texts are boxed (no spare
/// capacity): 1M links from one page hold about 360 bytes each, the
/// Python object included (about 410 at the call's peak, 640 before).
#[pyclass(name = "Link", module = "spinneret", frozen, eq, hash)]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PyLink {
    source: Arc<str>,
    target: Option<Box<str>>,
    /// Why the link does not resolve (the URL Standard's failure name).
    #[pyo3(get)]
    error: Option<&'static str>,
    raw: Box<str>,
    tag: Option<Cow<'static, str>>,
    /// The attribute (`#text` for a `<style>` element's CSS).
    #[pyo3(get)]
    attr: &'static str,
    /// What the link is for (`a`, `img`, `stylesheet`, …: the CLI's kinds).
    #[pyo3(get)]
    kind: &'static str,
    rel: Option<Box<str>>,
    text: Option<Box<str>>,
}

#[pymethods]
impl PyLink {
    /// The page's URL.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The resolved (and, with a profile, canonicalized) URL; `None` when
    /// the link does not resolve.
    #[getter]
    fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// The link as written in the page (character references resolved,
    /// ASCII whitespace stripped).
    #[getter]
    fn raw(&self) -> &str {
        &self.raw
    }

    /// The element (`svg:`-prefixed in SVG); `None` for header links.
    #[getter]
    fn tag(&self) -> Option<&str> {
        self.tag.as_deref()
    }

    /// The element's `rel`.
    #[getter]
    fn rel(&self) -> Option<&str> {
        self.rel.as_deref()
    }

    /// The anchor text of an `<a>` link.
    #[getter]
    fn text(&self) -> Option<&str> {
        self.text.as_deref()
    }

    /// Where the page came from (`FILE:OFFSET` of a WARC record): always
    /// `None` here, since `links` reads a page given as bytes (the rows of
    /// `warc_links` carry it).
    #[getter]
    fn record(&self) -> Option<&str> {
        None
    }

    fn __repr__(&self) -> String {
        let opt = |v: Option<&str>| v.map_or("None".into(), crate::repr::py_repr);
        format!(
            "Link(target={}, raw={}, tag={}, attr={}, kind={})",
            opt(self.target.as_deref()),
            crate::repr::py_repr(&self.raw),
            opt(self.tag.as_deref()),
            crate::repr::py_repr(self.attr),
            crate::repr::py_repr(self.kind)
        )
    }

    /// The fields as a dict (the CLI's JSON row).
    fn as_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("source", &*self.source)?;
        d.set_item("target", self.target.as_deref())?;
        d.set_item("error", self.error)?;
        d.set_item("raw", &*self.raw)?;
        d.set_item("tag", self.tag.as_deref())?;
        d.set_item("attr", self.attr)?;
        d.set_item("kind", self.kind)?;
        d.set_item("rel", self.rel.as_deref())?;
        d.set_item("text", self.text.as_deref())?;
        d.set_item("record", self.record())?;
        Ok(d)
    }
}

/// Every link of the page `html` (the response body, bytes) fetched from
/// `url`: each link attribute, `srcset`, `<meta refresh>`, CSS `url()`,
/// resolved against the page's `<base>` with queries encoded in the page's
/// encoding (determined from the bytes and `content_type`, the HTTP
/// `Content-Type`). With `canon` (a profile name), targets are
/// canonicalized as `spinneret links --profile canon` does.
#[pyfunction]
#[pyo3(signature = (html, url, content_type = None, canon = None))]
pub fn links(
    py: Python<'_>,
    html: &[u8],
    url: &str,
    content_type: Option<&str>,
    canon: Option<&str>,
) -> PyResult<Vec<PyLink>> {
    let page = Url::parse(url).map_err(|e| crate::url::parse_error(url, e))?;
    if let Some(name) = canon {
        // An unknown profile fails before the page is read.
        crate::canon::profile(name, &[])?;
    }
    let source: Arc<str> = page.href().into();
    py.detach(|| {
        let headers = Headers {
            content_type: content_type.map(str::as_bytes).into_iter().collect(),
            ..Headers::default()
        };
        let mut out = Vec::new();
        let mut extractor = Extractor::new();
        let mut run = |mut canon: Option<&mut Canonicalizer>| {
            extractor.extract(html, &page, &headers, |l| {
                let f = fields(&l, canon.as_deref_mut());
                out.push(PyLink {
                    source: source.clone(),
                    target: f.target.map(Into::into),
                    error: f.error,
                    raw: l.raw.into(),
                    tag: f.tag.map(static_tag),
                    attr: l.attribute,
                    kind: l.kind.as_str(),
                    rel: l.rel.map(Into::into),
                    text: l.text.map(Into::into),
                });
            });
        };
        match canon {
            Some(name) => with_canonicalizer(name, &[], |c| run(Some(c)))?,
            None => run(None),
        }
        Ok::<_, PyErr>(out)
    })
}

/// A tag name as a link keeps it: the interned static name when it is a
/// known one (almost always), else owned.
fn static_tag(tag: Cow<'_, str>) -> Cow<'static, str> {
    match spinneret_html::LocalName::from_lowercase(tag.as_bytes()) {
        Some(known) => Cow::Borrowed(known.as_str()),
        None => Cow::Owned(tag.into_owned()),
    }
}

/// The fields of a link's row that are not the link's own text: the
/// target (canonicalized by `canon` when given; a target a rule cannot
/// canonicalize stays as WHATWG serialized it, as in the CLI), the URL
/// Standard's name of a failure, and the tag (`svg:`-prefixed in SVG).
pub(crate) struct Fields<'a> {
    pub(crate) target: Option<Cow<'a, str>>,
    pub(crate) error: Option<&'static str>,
    pub(crate) tag: Option<Cow<'a, str>>,
}

/// The [`Fields`] of `l`.
pub(crate) fn fields<'a>(l: &'a Link<'_>, canon: Option<&mut Canonicalizer>) -> Fields<'a> {
    let target = match (&l.target, canon) {
        (Ok(u), Some(c)) => Some(match c.canonicalize_url(u) {
            Ok(t) if t != u.href() => Cow::Owned(t.to_owned()),
            _ => Cow::Borrowed(u.href()),
        }),
        (Ok(u), None) => Some(Cow::Borrowed(u.href())),
        (Err(_), _) => None,
    };
    let tag = match (l.element, l.svg) {
        ("", _) => None,
        (e, true) => Some(Cow::Owned(format!("svg:{e}"))),
        (e, false) => Some(Cow::Borrowed(e)),
    };
    Fields {
        target,
        error: l.target.as_ref().err().map(|e| e.kind().spec_name()),
        tag,
    }
}
