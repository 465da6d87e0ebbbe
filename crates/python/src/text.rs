//! `spinneret.text` and `spinneret.extract_text`: a page's readable text
//! (crates/text) — the whole page as a browser renders it, or only its
//! main content (the article without navigation, menus, footers,
//! comments, ads), as plain text or Markdown — and, with
//! `extract_text`, the metadata the page declares (title, description,
//! `<html lang>`, `Content-Language`, canonical URL, publication date)
//! with the detected language and the encoding the page was decoded
//! with.
//!
//! Invariants: the text is what `spinneret text --html FILE --url URL`
//! writes for the same bytes and options (the tests compare them on
//! corpus pages); any bytes give a result, never an exception (a bad
//! `format` raises `ValueError`, a wrong type `TypeError`); extraction
//! runs with the GIL released, on a copy of a mutable buffer
//! (`bytearray`, `memoryview`) taken before.

use std::borrow::Cow;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView};
use spinneret_text::{Extraction, Format, Options, Page, extract_page};

/// A bytes-like argument: `bytes` borrowed; `bytearray`, `memoryview`
/// and any other object with the buffer protocol copied (their contents
/// may change while the GIL is released).
pub struct BytesLike<'a>(pub Cow<'a, [u8]>);

impl<'a, 'py> FromPyObject<'a, 'py> for BytesLike<'a> {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(b) = <&'a [u8]>::extract(ob) {
            return Ok(BytesLike(Cow::Borrowed(b)));
        }
        if let Ok(a) = ob.cast::<PyByteArray>() {
            return Ok(BytesLike(Cow::Owned(a.to_vec())));
        }
        // A str has no buffer protocol: `memoryview` refuses it, as it
        // refuses an int or a list (which `bytes()` would take).
        let view = PyMemoryView::from(&ob).map_err(|_| {
            let name = ob
                .get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string());
            PyTypeError::new_err(format!(
                "a bytes-like object is required (bytes, bytearray, memoryview), not {name}"
            ))
        })?;
        let copy = view.call_method0("tobytes")?;
        let bytes = copy.cast::<PyBytes>()?;
        Ok(BytesLike(Cow::Owned(bytes.as_bytes().to_vec())))
    }
}

/// The format called `name`: `"text"` or `"markdown"`.
pub fn format(name: &str) -> PyResult<Format> {
    match name {
        "text" => Ok(Format::Text),
        "markdown" => Ok(Format::Markdown),
        _ => Err(PyValueError::new_err(format!(
            "unknown format {name:?} (formats: text, markdown)"
        ))),
    }
}

/// The extraction options of the Python arguments: `format_name` is
/// checked, and `links` needs Markdown (as `spinneret text --links` needs
/// `--markdown`).
///
/// `language`: whether the language is detected (what the caller returns
/// has it).
pub fn options(
    main_content: bool,
    format_name: &str,
    links: bool,
    language: bool,
) -> PyResult<Options> {
    let format = format(format_name)?;
    if links && format != Format::Markdown {
        return Err(PyValueError::new_err(
            "links=True writes Markdown links: give format=\"markdown\"",
        ));
    }
    Ok(Options {
        main_content,
        format,
        links,
        language,
    })
}

/// Decodes, parses and extracts `html` without the GIL.
fn run(
    py: Python<'_>,
    html: &[u8],
    url: Option<&str>,
    content_type: Option<&str>,
    content_language: Option<&str>,
    options: Options,
) -> Extraction {
    py.detach(|| {
        let page = Page {
            bytes: html,
            url,
            content_type: content_type.map(str::as_bytes),
            content_language,
        };
        extract_page(&page, &options)
    })
}

/// The readable text of the page `html` (bytes-like: the response body)
/// fetched from `url`: the whole page as a browser renders it, or with
/// `main_content` only the article or post (no navigation, menus,
/// headers, footers, sidebars, comments, ads). `format`: `"text"` (blocks
/// on lines of their own, paragraphs separated by a blank line) or
/// `"markdown"` (headings, lists, quotes, code blocks, tables); `links`
/// (Markdown only, else `ValueError`): links as `[text](url)` and images
/// as `![alt](url)`, resolved against the page's base URL. `url` is a
/// hint, never checked: a string that is not a URL resolves nothing. The encoding is the crawler's
/// choice: the BOM, `content_type`'s charset (the HTTP `Content-Type`),
/// `<meta>`, then detection with the URL's top-level domain as a hint.
#[pyfunction]
#[pyo3(signature = (html, url = None, main_content = false, format = "text", links = false, content_type = None))]
pub fn text(
    py: Python<'_>,
    html: BytesLike<'_>,
    url: Option<&str>,
    main_content: bool,
    format: &str,
    links: bool,
    content_type: Option<&str>,
) -> PyResult<String> {
    let options = options(main_content, format, links, false)?;
    Ok(run(py, &html.0, url, content_type, None, options).text)
}

/// [`text`] with the page's metadata, as a dict: `text`, `title`,
/// `description`, `html_lang`, `content_language` (the
/// `content_language` given — the HTTP `Content-Language` — else the
/// page's `<meta http-equiv>`), `canonical` (resolved), `published` (as
/// declared in meta, JSON-LD or `<time>`), `language` (detected from the
/// text, ISO 639-3, or `None`), `language_confidence` (0 to 1, or `None`),
/// `encoding` (the WHATWG name of the one the page was decoded with) and
/// `page_type` (`article`, `forum`, `product`, `collection`, `listing`,
/// `documentation` or `service`).
#[pyfunction]
#[pyo3(signature = (
    html,
    url = None,
    main_content = false,
    format = "text",
    links = false,
    content_type = None,
    content_language = None,
))]
#[allow(clippy::too_many_arguments)]
pub fn extract_text<'py>(
    py: Python<'py>,
    html: BytesLike<'_>,
    url: Option<&str>,
    main_content: bool,
    format: &str,
    links: bool,
    content_type: Option<&str>,
    content_language: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let options = options(main_content, format, links, true)?;
    let ex = run(py, &html.0, url, content_type, content_language, options);
    let d = PyDict::new(py);
    d.set_item("text", &ex.text)?;
    d.set_item("title", ex.title.as_deref())?;
    d.set_item("description", ex.description.as_deref())?;
    d.set_item("html_lang", ex.html_lang.as_deref())?;
    d.set_item("content_language", ex.content_language.as_deref())?;
    d.set_item("canonical", ex.canonical.as_deref())?;
    d.set_item("published", ex.published.as_deref())?;
    d.set_item("language", ex.language.map(|l| l.code))?;
    d.set_item("language_confidence", ex.language.map(|l| l.confidence))?;
    d.set_item("encoding", ex.encoding)?;
    d.set_item("page_type", ex.page_type.as_str())?;
    Ok(d)
}
