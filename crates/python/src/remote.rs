//! Remote inputs of the Python readers (`warc_links`, `warc_text`,
//! `warc_index`, `get_records`): `s3://bucket/key`, `s3://bucket/prefix/`
//! (listed as a directory is walked), `gs://`, `az://`, `http(s)://`,
//! read by one process-wide [`spinneret_remote::Client`], made on first
//! use with the options of the last `remote_options()` call (else the
//! defaults: credentials as the AWS tools find them, `AWS_ENDPOINT_URL`).
//!
//! Invariant: a remote input's name, in messages and in the `file` of
//! what the readers yield, is its redacted URL (no userinfo, no query).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use spinneret_remote::{Client, ObjectReader, Options, redact};

/// The client, once made; replaced by `remote_options()`.
static CLIENT: Mutex<Option<Arc<Client>>> = Mutex::new(None);

/// The process-wide client (made on first use).
fn client() -> Result<Arc<Client>, String> {
    let mut held = CLIENT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(c) = held.as_ref() {
        return Ok(Arc::clone(c));
    }
    let c = Arc::new(Client::new(Options::default()).map_err(|e| e.to_string())?);
    *held = Some(Arc::clone(&c));
    Ok(c)
}

/// Sets how remote inputs (`s3://`, `gs://`, `az://`, `http(s)://`) are
/// read from now on, as the CLI's flags of the same names do:
/// `no_sign_request` for public buckets, `s3_endpoint` for an
/// S3-compatible store (else `AWS_ENDPOINT_URL`), `timeout` (seconds to
/// wait for a connection or the next bytes), `retries`, `chunk_size`
/// (bytes per range request) and `in_flight` (range requests per object
/// at once).
#[pyfunction]
#[pyo3(signature = (*, no_sign_request = false, s3_endpoint = None, timeout = 30.0, retries = 10, chunk_size = 8 << 20, in_flight = 4))]
pub fn remote_options(
    no_sign_request: bool,
    s3_endpoint: Option<String>,
    timeout: f64,
    retries: usize,
    chunk_size: u64,
    in_flight: usize,
) -> PyResult<()> {
    if !(timeout.is_finite() && timeout > 0.0) {
        return Err(PyValueError::new_err(
            "timeout must be a positive number of seconds",
        ));
    }
    if chunk_size == 0 || in_flight == 0 {
        return Err(PyValueError::new_err(
            "chunk_size and in_flight must be positive",
        ));
    }
    let options = Options {
        no_sign_request,
        s3_endpoint,
        timeout: Duration::from_secs_f64(timeout),
        retries,
        chunk_size,
        chunks_in_flight: in_flight,
    };
    let c = Client::new(options).map_err(|e| PyValueError::new_err(e.to_string()))?;
    *CLIENT.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(c));
    Ok(())
}

/// Whether `input` is a remote URL.
pub(crate) fn is_remote(input: &str) -> bool {
    spinneret_remote::is_remote(input)
}

/// The objects a remote input names: a prefix (a non-HTTP URL ending in
/// `/`) listed, keeping crawl files; else the one object. An error is its
/// message, naming the input (redacted).
pub(crate) fn objects(input: &str) -> Vec<Result<String, String>> {
    let take = |name: &str| spinneret_warc::discover::is_crawl_file_name(name);
    let found = client().and_then(|c| c.objects(input, &take).map_err(|e| e.to_string()));
    match found {
        Ok(found) => found.into_iter().map(|(url, _)| Ok(url)).collect(),
        Err(e) => vec![Err(format!("{}: {e}", redact(input)))],
    }
}

/// The object at `url`, streamed; an error is its message, naming it
/// (redacted).
pub(crate) fn open(url: &str) -> Result<ObjectReader, String> {
    client()
        .and_then(|c| c.open(url).map_err(|e| e.to_string()))
        .map_err(|e| format!("{}: {e}", redact(url)))
}

/// The bytes of `range` of the object at `url` (one range request).
pub(crate) fn fetch_range(url: &str, range: std::ops::Range<u64>) -> Result<Vec<u8>, String> {
    let c = client()?;
    let wanted = [(url.to_owned(), range)];
    match c.fetch_ranges(&wanted, 1).pop() {
        Some(Ok(bytes)) => Ok(bytes.to_vec()),
        Some(Err(e)) => Err(format!("{}: {e}", redact(url))),
        None => Err(format!("{}: no answer", redact(url))),
    }
}
