//! `spinneret.warc_text`: the readable text of every HTML page of WARC/ARC
//! files as Arrow record batches — one row per page, the columns of
//! `spinneret text --format parquet` (`spinneret_columns::text::schema`)
//! — for pyarrow, polars, DuckDB, Spark's `mapInArrow` and the
//! language-model corpus pipelines that consume Arrow (datatrove,
//! NeMo-Curator).
//!
//! Which records (those `spinneret text` takes): `response` and
//! `resource` records whose payload is HTML (`Record::is_html`: its
//! Content-Type, or sniffed when the type is missing or unknown), not
//! empty, with a 2xx HTTP status or no HTTP head; with `any_status`,
//! every status.
//!
//! A reading thread of its own reads the files in order (plain, gzip or
//! zstd), extracts each page (crates/text: decoded as a crawler's browser
//! would, with the HTTP `Content-Type` and `Content-Language`, the
//! record's URL as the base and the encoding hint) and sends a batch
//! whenever `batch_rows` rows or `batch_bytes` bytes of strings are held,
//! through a channel that holds one batch: memory stays at about two
//! batches and the largest record, and Python (which never waits with the
//! GIL held) runs while the next batch is made. Batches reach Python
//! through the Arrow C data interface (`TextBatch.__arrow_c_array__`,
//! `TextBatches.__arrow_c_stream__`): no copy.
//!
//! A damaged record is counted (`TextBatches.bad_records`, its message in
//! `errors`) and skipped, as is an input that cannot be read
//! (`unreadable`) when another can; with `strict`, the first raises
//! `ValueError` instead — as `warc_links` does.
//!
//! Invariants: the rows are those of `spinneret text --format jsonl` on
//! the same files with the same options, in the same order (the tests
//! compare every field over the corpus WARCs); no batch holds more than
//! `batch_rows` rows, nor more than `batch_bytes` bytes unless it is one
//! row; the reading thread stops when the iterator is exhausted or
//! dropped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchIterator};
use arrow_schema::ArrowError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use spinneret_columns::text::{TextColumns, TextFields, schema};
use spinneret_text::{Options, Page, extract_page};
use spinneret_warc::{Reader, Record};

use crate::warc_links::{Source, batch_capsules, inputs, schema_capsule, source_of};

/// The most bad-record messages kept in `TextBatches.errors`.
const ERRORS_KEPT: usize = 1000;

/// What the reading thread sends.
enum Message {
    Batch(RecordBatch),
    /// A bad record under `strict`, or a failure to build a batch: the end.
    Failed(String),
}

/// Counts shared by the reading thread and the iterator.
#[derive(Default)]
struct Counts {
    records: AtomicU64,
    pages: AtomicU64,
    bad_records: AtomicU64,
    unreadable: AtomicU64,
    errors: Mutex<Vec<String>>,
}

/// The reading thread's settings.
struct Job {
    source: Source,
    name: String,
    options: Options,
    any_status: bool,
    batch_rows: usize,
    batch_bytes: usize,
    strict: bool,
}

/// The reading thread's state: the rows being filled and where they go.
struct Rows {
    cols: TextColumns,
    tx: SyncSender<Message>,
    counts: Arc<Counts>,
    strict: bool,
}

impl Rows {
    /// Sends the rows held; `false` when the iterator is gone or the
    /// batch cannot be built (then the end).
    fn send(&mut self) -> bool {
        match self.cols.finish() {
            Ok(b) => self.tx.send(Message::Batch(b)).is_ok(),
            Err(e) => {
                let _ = self.tx.send(Message::Failed(e.to_string()));
                false
            }
        }
    }

    /// A bad record or an unreadable input: counted, or the end under
    /// `strict` (after the rows before it). `false`: stop.
    fn report(&mut self, msg: String, unreadable: bool) -> bool {
        if self.strict {
            if self.cols.rows() > 0 && !self.send() {
                return false;
            }
            let _ = self.tx.send(Message::Failed(msg));
            return false;
        }
        let counter = if unreadable {
            &self.counts.unreadable
        } else {
            &self.counts.bad_records
        };
        counter.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut errors) = self.counts.errors.lock()
            && errors.len() < ERRORS_KEPT
        {
            errors.push(msg);
        }
        true
    }
}

/// Whether `spinneret text` takes `record`: an HTML response or resource
/// with a payload, and a 2xx status or no HTTP head (any status with
/// `any_status`).
pub fn takes(record: &Record, any_status: bool) -> bool {
    record.is_html()
        && !record.body.is_empty()
        && (any_status || record.status().is_none_or(|s| (200..300).contains(&s)))
}

/// Appends the row of `record` (a page [`takes`] accepts, from the file
/// called `file`) to `cols`.
fn push_page(record: &Record, file: &str, options: &Options, cols: &mut TextColumns) {
    let content_type = record.payload_content_type();
    let content_language = record
        .http
        .as_ref()
        .and_then(|h| h.header("content-language"));
    let url = record.target_uri.as_deref();
    let page = Page {
        bytes: &record.body,
        url,
        content_type: content_type.map(str::as_bytes),
        content_language,
    };
    let ex = extract_page(&page, options);
    cols.push(&TextFields {
        record_id: record.record_id.as_deref(),
        url,
        date: record.date.as_deref(),
        file,
        offset: record.offset,
        status: record.status(),
        content_type,
        encoding: ex.encoding,
        language: ex.language.map(|l| l.code),
        language_confidence: ex.language.map(|l| l.confidence as f32),
        html_lang: ex.html_lang.as_deref(),
        content_language: ex.content_language.as_deref(),
        title: ex.title.as_deref(),
        canonical: ex.canonical.as_deref(),
        published: ex.published.as_deref(),
        text: &ex.text,
    });
}

/// The reading thread: records to rows, until the end or until the
/// iterator is gone (a send fails).
fn read_all(job: Job, tx: SyncSender<Message>, counts: Arc<Counts>) {
    let mut rows = Rows {
        cols: TextColumns::new(),
        tx,
        counts: counts.clone(),
        strict: job.strict,
    };
    let files = match inputs(job.source, &job.name) {
        Ok(files) => files,
        Err(msg) => {
            let _ = rows.tx.send(Message::Failed(msg));
            return;
        }
    };
    for (name, reader) in files {
        let reader = match reader {
            Ok(r) => r,
            Err(msg) => {
                if !rows.report(msg, true) {
                    return;
                }
                continue;
            }
        };
        for r in Reader::from_read(reader, spinneret_warc::Options::default()) {
            counts.records.fetch_add(1, Ordering::Relaxed);
            match r {
                Ok(record) if takes(&record, job.any_status) => {
                    push_page(&record, &name, &job.options, &mut rows.cols);
                    counts.pages.fetch_add(1, Ordering::Relaxed);
                }
                Ok(_) => continue,
                Err(e) => {
                    // The reader's message names the offset.
                    if !rows.report(format!("{name}: {e}"), false) {
                        return;
                    }
                }
            }
            let full = rows.cols.rows() >= job.batch_rows || rows.cols.bytes() >= job.batch_bytes;
            if full && !rows.send() {
                return;
            }
        }
    }
    if rows.cols.rows() > 0 {
        rows.send();
    }
}

/// One batch of pages' text: pass it to `pyarrow.record_batch(batch)`,
/// `polars.DataFrame(batch)` or anything that takes the Arrow PyCapsule
/// interface (`__arrow_c_array__`).
#[pyclass(name = "TextBatch", module = "spinneret", frozen)]
pub struct TextBatch {
    batch: RecordBatch,
}

#[pymethods]
impl TextBatch {
    /// The number of rows.
    #[getter]
    fn num_rows(&self) -> usize {
        self.batch.num_rows()
    }

    fn __len__(&self) -> usize {
        self.batch.num_rows()
    }

    /// The Arrow PyCapsule interface: `(schema, array)` capsules.
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
        let _ = requested_schema; // the batch has one schema
        batch_capsules(py, &self.batch)
    }

    /// The Arrow PyCapsule interface: the schema capsule.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &self.batch.schema())
    }

    fn __repr__(&self) -> String {
        format!("TextBatch(num_rows={})", self.batch.num_rows())
    }
}

/// The batches of [`warc_text`]: an iterator of [`TextBatch`], and an
/// Arrow stream (`pyarrow.RecordBatchReader.from_stream(batches)`).
#[pyclass(name = "TextBatches", module = "spinneret")]
pub struct TextBatches {
    /// `None` once exhausted or handed over as a stream. (In a mutex: a
    /// Python object may be used from any thread.)
    rx: Option<Mutex<Receiver<Message>>>,
    counts: Arc<Counts>,
}

#[pymethods]
impl TextBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next batch; waits without the GIL.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<TextBatch>> {
        let Some(rx) = &self.rx else {
            return Ok(None);
        };
        let got = py.detach(|| rx.lock().ok().and_then(|rx| rx.recv().ok()));
        match got {
            Some(Message::Batch(batch)) => Ok(Some(TextBatch { batch })),
            Some(Message::Failed(msg)) => {
                self.rx = None;
                Err(PyValueError::new_err(msg))
            }
            None => {
                self.rx = None;
                Ok(None)
            }
        }
    }

    /// Records read so far (bad ones included).
    #[getter]
    fn records(&self) -> u64 {
        self.counts.records.load(Ordering::Relaxed)
    }

    /// Pages (rows) extracted so far.
    #[getter]
    fn pages(&self) -> u64 {
        self.counts.pages.load(Ordering::Relaxed)
    }

    /// Bad records so far (skipped; without `strict`).
    #[getter]
    fn bad_records(&self) -> u64 {
        self.counts.bad_records.load(Ordering::Relaxed)
    }

    /// Inputs that could not be read (missing, unreadable, a glob
    /// matching nothing), so far; their messages are in `errors`.
    #[getter]
    fn unreadable(&self) -> u64 {
        self.counts.unreadable.load(Ordering::Relaxed)
    }

    /// The first problems' messages (`FILE: offset N: what`).
    #[getter]
    fn errors(&self) -> Vec<String> {
        self.counts
            .errors
            .lock()
            .map(|e| e.clone())
            .unwrap_or_default()
    }

    /// The Arrow schema of the batches.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        schema_capsule(py, &schema())
    }

    /// The Arrow PyCapsule stream interface: the batches not yet taken, as
    /// an `ArrowArrayStream` (the iterator is used up).
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &mut self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema; // the batches have one schema
        let rx = self.rx.take().and_then(|m| m.into_inner().ok());
        let batches = std::iter::from_fn(move || match rx.as_ref()?.recv() {
            Ok(Message::Batch(b)) => Some(Ok(b)),
            Ok(Message::Failed(msg)) => Some(Err(ArrowError::ExternalError(msg.into()))),
            Err(_) => None,
        });
        let reader = RecordBatchIterator::new(batches, schema());
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

/// The readable text of every HTML page of WARC/ARC files (plain, gzip
/// per record or whole file, zstd) as Arrow record batches, one row per
/// page: `record_id`, `url`, `date`, `file`, `offset`, `status`,
/// `content_type`, `encoding`, `language` (detected, ISO 639-3),
/// `language_confidence`, `html_lang`, `content_language`, `title`,
/// `canonical`, `published`, `text` — the rows of `spinneret text
/// --format jsonl` with the same options, in the same order. `path`: a
/// file, a directory (walked for WARC/ARC files, sorted), a glob, a list
/// of those, or a binary file object. The pages: HTML `response` and
/// `resource` records with a payload and a 2xx status or none
/// (`any_status`: every status). `main_content`, `format` (`"text"` or
/// `"markdown"`) and `links` (Markdown only) as for `text()`. A batch
/// holds at most `batch_rows` rows and, unless it is one page, about
/// `batch_bytes` bytes of strings. Bad records and unreadable inputs are
/// counted (`.bad_records`, `.unreadable`, `.errors`) and skipped; with
/// `strict`, the first raises `ValueError`.
#[pyfunction]
#[pyo3(signature = (
    path,
    main_content = true,
    format = "text",
    links = false,
    any_status = false,
    batch_rows = 4096,
    batch_bytes = 64 << 20,
    strict = false,
))]
#[allow(clippy::too_many_arguments)]
pub fn warc_text(
    path: &Bound<'_, PyAny>,
    main_content: bool,
    format: &str,
    links: bool,
    any_status: bool,
    batch_rows: usize,
    batch_bytes: usize,
    strict: bool,
) -> PyResult<TextBatches> {
    if batch_rows == 0 {
        return Err(PyValueError::new_err("batch_rows must be at least 1"));
    }
    if batch_bytes == 0 {
        return Err(PyValueError::new_err("batch_bytes must be at least 1"));
    }
    let options = crate::text::options(main_content, format, links)?;
    let (source, name) = source_of(path, "warc_text")?;
    let job = Job {
        source,
        name,
        options,
        any_status,
        batch_rows,
        batch_bytes,
        strict,
    };
    let (tx, rx) = sync_channel(1);
    let counts = Arc::new(Counts::default());
    let thread_counts = counts.clone();
    std::thread::Builder::new()
        .name("spinneret-warc-text".into())
        .spawn(move || read_all(job, tx, thread_counts))
        .map_err(|e| PyValueError::new_err(format!("cannot start the reading thread: {e}")))?;
    Ok(TextBatches {
        rx: Some(Mutex::new(rx)),
        counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A record read from `warc` (one record, plain).
    fn record(warc: &[u8]) -> Record {
        Reader::from_read(warc, spinneret_warc::Options::default())
            .next()
            .unwrap()
            .unwrap()
    }

    fn response(status: &str, content_type: &str, body: &str) -> Record {
        let http = format!("HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n\r\n{body}");
        let warc = format!(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://e.com/\r\n\
             WARC-Date: 2025-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:1>\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        );
        record(warc.as_bytes())
    }

    #[test]
    fn html_pages_with_a_payload_and_a_2xx_status_are_taken() {
        assert!(takes(&response("200 OK", "text/html", "<p>x"), false));
        assert!(takes(
            &response("204 No Content", "text/html", "<p>x"),
            false
        ));
        let missing = response("404 Not Found", "text/html", "<p>x");
        assert!(!takes(&missing, false) && takes(&missing, true));
        assert!(!takes(&response("200 OK", "text/html", ""), true));
        assert!(!takes(&response("200 OK", "image/png", "<p>x"), true));
        assert!(takes(
            &response("200 OK", "unknown/unknown", "<html><p>x"),
            false
        ));
    }

    #[test]
    fn a_page_becomes_a_row_of_the_schema() {
        let r = response(
            "200 OK",
            "text/html; charset=windows-1252",
            "<html lang=fr><title>T</title><p>caf\u{e9}",
        );
        let mut cols = TextColumns::new();
        push_page(&r, "f.warc", &Options::default(), &mut cols);
        let b = cols.finish().unwrap();
        assert_eq!((b.num_rows(), b.schema()), (1, schema()));
    }
}
