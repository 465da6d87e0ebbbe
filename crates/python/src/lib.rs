//! spinneret for Python: the extension module `spinneret._spinneret`,
//! re-exported by the pure-Python package `spinneret`
//! (`python/spinneret/__init__.py`, with type stubs).
//!
//! One module per concern, each a thin layer over a library crate:
//! [`url`] (the WHATWG `URL`, `join_url`), [`canon`] (`canonicalize`,
//! `surt`, `registrable_domain`, `surt_host`), [`encoding`] (`detect_encoding`,
//! `decode`), [`links`] (`links`, `Link`), [`warc_links`] (a WARC file's
//! links as Arrow record batches), [`index`] (`warc_index`: its index as
//! Common Crawl's cc-index-table batches), [`text`] (`text`,
//! `extract_text`: a page's readable text, whole or main content, plain or
//! Markdown, and its metadata), [`warc_text`] (every HTML page's text of
//! a WARC file as Arrow record batches) and [`arrays`] (the vectorized
//! calls over Arrow arrays). The three WARC functions share `sources`
//! (their inputs: paths, globs, manifests, file objects, and through
//! [`remote`] `s3://`, `gs://`, `az://` and `http(s)://` objects) and `batches`
//! (the reading thread, its channel and the Python classes of the
//! batches); `repr` makes the Python string literals of `repr`s. Modules
//! import one another one way only, and none imports from this file.
//!
//! Invariants: nothing a caller passes makes Rust panic into the
//! interpreter — bad values raise `ValueError`, wrong types `TypeError`
//! (PyO3's argument extraction); work that grows with the input (decoding,
//! extraction) runs with the GIL released, so Python threads scale.

#![forbid(unsafe_code)]

use pyo3::prelude::*;

pub mod arrays;
mod batches;
pub mod canon;
pub mod encoding;
pub mod get;
pub mod index;
pub mod links;
#[cfg(feature = "remote")]
pub mod remote;
mod repr;
mod sources;
pub mod text;
pub mod url;
pub mod warc_links;
pub mod warc_text;

/// The extension module: every class and function of the package.
#[pymodule]
fn _spinneret(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<url::PyUrl>()?;
    m.add_function(wrap_pyfunction!(url::join_url, m)?)?;
    m.add_function(wrap_pyfunction!(canon::canonicalize, m)?)?;
    m.add_function(wrap_pyfunction!(canon::surt, m)?)?;
    m.add_function(wrap_pyfunction!(canon::registrable_domain, m)?)?;
    m.add_function(wrap_pyfunction!(canon::surt_host, m)?)?;
    m.add_function(wrap_pyfunction!(canon::profiles, m)?)?;
    m.add_function(wrap_pyfunction!(canon::rules, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::detect_encoding, m)?)?;
    m.add_function(wrap_pyfunction!(encoding::decode, m)?)?;
    m.add_class::<links::PyLink>()?;
    m.add_function(wrap_pyfunction!(links::links, m)?)?;
    m.add_class::<warc_links::LinkBatch>()?;
    m.add_class::<warc_links::LinkBatches>()?;
    m.add_function(wrap_pyfunction!(warc_links::warc_links, m)?)?;
    m.add_class::<index::IndexBatch>()?;
    m.add_class::<index::IndexBatches>()?;
    m.add_function(wrap_pyfunction!(index::warc_index, m)?)?;
    m.add_class::<get::Records>()?;
    m.add_function(wrap_pyfunction!(get::get_records, m)?)?;
    #[cfg(feature = "remote")]
    m.add_function(wrap_pyfunction!(remote::remote_options, m)?)?;
    m.add_function(wrap_pyfunction!(text::text, m)?)?;
    m.add_function(wrap_pyfunction!(text::extract_text, m)?)?;
    m.add_class::<warc_text::TextBatch>()?;
    m.add_class::<warc_text::TextBatches>()?;
    m.add_function(wrap_pyfunction!(warc_text::warc_text, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::canonicalize_array, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::surt_array, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::surt_host_array, m)?)?;
    m.add_function(wrap_pyfunction!(arrays::join_url_array, m)?)?;
    Ok(())
}
