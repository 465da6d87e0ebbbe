//! `spinneret.detect_encoding` and `spinneret.decode`: a page's encoding
//! as a browser (`policy="browser"`, the HTML Standard exactly) or a
//! crawler (`policy="crawler"`, which trusts valid UTF-8 over a stale
//! `<meta>`) determines it, and the page decoded with it (crates/encoding).
//!
//! Invariant: decoding never fails (malformed bytes become U+FFFD, as in a
//! browser); it runs with the GIL released.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use spinneret_encoding::{Determination, Policy, Sniffer, decode_with};

/// The policy called `name`.
fn policy(name: &str) -> PyResult<Policy> {
    match name {
        "crawler" => Ok(Policy::Crawler),
        "browser" => Ok(Policy::Browser),
        _ => Err(PyValueError::new_err(format!(
            "unknown policy {name:?} (policies: crawler, browser)"
        ))),
    }
}

/// The determination for `data` with the transport's `Content-Type`
/// (whose `charset` counts) and the page's URL (whose top-level domain
/// guides the detector).
fn determine(
    data: &[u8],
    content_type: Option<&str>,
    url: Option<&str>,
    policy_name: &str,
) -> PyResult<Determination> {
    let mut sniffer = Sniffer::new(policy(policy_name)?);
    if let Some(ct) = content_type {
        sniffer = sniffer.content_type(ct.as_bytes());
    }
    if let Some(u) = url {
        sniffer = sniffer.url(u);
    }
    Ok(sniffer.determine(data))
}

/// The WHATWG name of the encoding of `data` (e.g. `"UTF-8"`,
/// `"windows-1252"`, `"Shift_JIS"`): BOM, the `Content-Type` charset, the
/// `<meta>` prescan, then detection, as `policy` (`"crawler"` or
/// `"browser"`) decides.
#[pyfunction]
#[pyo3(signature = (data, content_type = None, url = None, policy = "crawler"))]
pub fn detect_encoding(
    py: Python<'_>,
    data: &[u8],
    content_type: Option<&str>,
    url: Option<&str>,
    policy: &str,
) -> PyResult<&'static str> {
    py.detach(|| determine(data, content_type, url, policy))
        .map(|d| d.encoding.name())
}

/// `data` decoded with the encoding [`detect_encoding`] determines
/// (malformed bytes become U+FFFD).
#[pyfunction]
#[pyo3(signature = (data, content_type = None, url = None, policy = "crawler"))]
pub fn decode(
    py: Python<'_>,
    data: &[u8],
    content_type: Option<&str>,
    url: Option<&str>,
    policy: &str,
) -> PyResult<String> {
    py.detach(|| {
        let d = determine(data, content_type, url, policy)?;
        Ok(decode_with(data, d.encoding).0.into_owned())
    })
}
