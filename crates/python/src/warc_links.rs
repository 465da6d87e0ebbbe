//! `spinneret.warc_links`: every link of a WARC/ARC file as Arrow record
//! batches, for pyarrow, polars, DuckDB and Spark's `mapInArrow`.
//!
//! A reading thread of its own reads the file (plain, gzip or zstd, as
//! `spinneret links` does), extracts each record's links as the CLI does
//! (`response`/`resource` records: an HTML page's links with the HTTP
//! `Link` and 3xx `Location` headers' first; header links only for other
//! payloads) and sends a batch every `batch_rows` rows through a channel
//! that holds one batch: memory stays at about two batches and the largest
//! record, whatever the file's size, and Python runs while the next batch
//! is made. Batches reach Python through the Arrow C data interface
//! (`LinkBatch.__arrow_c_array__`, `LinkBatches.__arrow_c_stream__`):
//! no copy.
//!
//! Columns (`spinneret_columns::schema`, the schema of `spinneret links
//! --format parquet` too): the CLI's JSON row fields (`source`, `target`,
//! `error`, `raw`, `tag`, `attr`, `kind`, `rel`, `text`, `record` =
//! `FILE:OFFSET`), then `offset` (the record's offset in the file) and
//! `status` (its HTTP status, null without an HTTP head). A bad record is counted
//! (`LinkBatches.bad_records`, its message in `errors`) and the file
//! goes on; with `strict`, it raises `ValueError` instead.
//!
//! Invariants: the rows are those of `spinneret links` on the same file, in
//! the same order (the tests compare them over the corpus WARCs); the
//! reading thread stops when the iterator is exhausted or dropped.

use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, RecordBatch, RecordBatchIterator, StructArray};
use arrow_schema::{ArrowError, Schema};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule};
use spinneret_canon::Canonicalizer;
use spinneret_columns::{LinkColumns, LinkFields, schema};
use spinneret_extract::{Extractor, Headers};
use spinneret_url::Url;
use spinneret_warc::{Options, Reader, Record, RecordType};

use crate::links::fields;

/// The most bad-record messages kept in `LinkBatches.errors`.
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
    bad_records: AtomicU64,
    unreadable: AtomicU64,
    errors: Mutex<Vec<String>>,
}

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
    Paths(Vec<Result<PathBuf, String>>),
    File(PyFile),
}

/// The reading thread's settings.
struct Job {
    source: Source,
    name: String,
    canon: Option<String>,
    batch_rows: usize,
    strict: bool,
}

/// The reading thread: records to batches, until the end or until the
/// iterator is gone (a send fails).
fn read_all(job: Job, tx: SyncSender<Message>, counts: Arc<Counts>) {
    let mut canon = match job.canon.as_deref() {
        Some(name) => match crate::canon::profile(name, &[]) {
            Ok(p) => Some(Canonicalizer::new(p)),
            Err(e) => {
                let _ = tx.send(Message::Failed(e.to_string()));
                return;
            }
        },
        None => None,
    };
    let mut extractor = Extractor::new();
    let mut cols = LinkColumns::new();
    // A record with more links than a batch holds is sent in slices of the
    // batch (no copy).
    let batch_rows = job.batch_rows;
    let send = |cols: &mut LinkColumns| match cols.finish() {
        Ok(b) => (0..b.num_rows()).step_by(batch_rows).all(|start| {
            let len = batch_rows.min(b.num_rows() - start);
            tx.send(Message::Batch(b.slice(start, len))).is_ok()
        }),
        Err(e) => {
            let _ = tx.send(Message::Failed(e.to_string()));
            false
        }
    };
    // A bad record or an unreadable file: kept, or the end under `strict`
    // (after the rows before it). `false`: stop.
    let report = |msg: String, counter: &AtomicU64, cols: &mut LinkColumns| {
        if job.strict {
            if cols.rows() > 0 && !send(cols) {
                return false;
            }
            let _ = tx.send(Message::Failed(msg));
            return false;
        }
        counter.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut errors) = counts.errors.lock()
            && errors.len() < ERRORS_KEPT
        {
            errors.push(msg);
        }
        true
    };
    let files = match inputs(job.source, &job.name) {
        Ok(files) => files,
        Err(msg) => {
            let _ = tx.send(Message::Failed(msg));
            return;
        }
    };
    for (name, reader) in files {
        let reader = match reader {
            Ok(r) => r,
            Err(msg) => {
                if !report(msg, &counts.unreadable, &mut cols) {
                    return;
                }
                continue;
            }
        };
        for r in Reader::from_read(reader, Options::default()) {
            counts.records.fetch_add(1, Ordering::Relaxed);
            match r {
                Ok(record) => {
                    let id = format!("{name}:{}", record.offset);
                    record_links(&record, &id, &mut extractor, canon.as_mut(), &mut cols);
                }
                Err(e) => {
                    if !report(format!("{name}: {e}"), &counts.bad_records, &mut cols) {
                        return;
                    }
                }
            }
            if cols.rows() >= batch_rows && !send(&mut cols) {
                return;
            }
        }
    }
    if cols.rows() > 0 {
        send(&mut cols);
    }
}

/// The inputs of `source` (called `name`), each with its name, each
/// file opened when its turn comes (a folder of thousands of WARCs holds
/// one descriptor at a time); `Err` when none is readable (the first
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
                Ok(p) => (p.display().to_string(), open(&p)),
                Err(msg) => (String::new(), Err(msg)),
            }))
        }
    })
}

/// An input opened for reading, or why it cannot be.
pub(crate) type Opened = Result<Box<dyn Read>, String>;

/// A WARC/ARC file, buffered; an error is its message.
pub(crate) fn open(path: &std::path::Path) -> Opened {
    match std::fs::File::open(path) {
        Ok(f) => Ok(Box::new(io::BufReader::with_capacity(1 << 16, f))),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// The files a path argument names: a file, a directory walked for
/// WARC/ARC files, or a glob (as `spinneret links` takes them), each part
/// that yields nothing as its message.
pub(crate) fn expand(arg: &str, out: &mut Vec<Result<PathBuf, String>>) {
    let found = spinneret_warc::discover::Discover::default().expand(arg);
    out.extend(found.into_iter().map(|r| r.map_err(|e| e.to_string())));
}

/// Appends the links of `record` (identified as `id`, `FILE:OFFSET`) to
/// `cols`: which records give links is what `spinneret links` decides.
fn record_links(
    record: &Record,
    id: &str,
    extractor: &mut Extractor,
    mut canon: Option<&mut Canonicalizer>,
    cols: &mut LinkColumns,
) {
    if !matches!(record.kind, RecordType::Response | RecordType::Resource) {
        return;
    }
    let h = record.link_headers();
    let html = record.is_html();
    if !html && h.location.is_none() && h.link.is_empty() {
        return;
    }
    let Some(Ok(page)) = record.target_uri.as_deref().map(|u| Url::parse(u.trim())) else {
        return;
    };
    let headers = Headers {
        content_type: if html { h.content_type } else { Vec::new() },
        location: h.location,
        link: h.link,
    };
    let body: &[u8] = if html { &record.body } else { b"" };
    let status = record.http.as_ref().map(|h| h.status);
    let source = page.href();
    extractor.extract(body, &page, &headers, |l| {
        let f = fields(&l, canon.as_deref_mut());
        cols.push(&LinkFields {
            source,
            target: f.target.as_deref(),
            error: f.error,
            raw: l.raw,
            tag: f.tag.as_deref(),
            attr: l.attribute,
            kind: l.kind.as_str(),
            rel: l.rel,
            text: l.text,
            record: id,
            offset: record.offset,
            status,
        });
    });
}

/// The Arrow C data interface's capsules of `batch`: its schema and its
/// columns as one struct array.
pub(crate) fn batch_capsules<'py>(
    py: Python<'py>,
    batch: &RecordBatch,
) -> PyResult<(Bound<'py, PyCapsule>, Bound<'py, PyCapsule>)> {
    let array = StructArray::from(batch.clone());
    let schema = FFI_ArrowSchema::try_from(array.data_type())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let data = FFI_ArrowArray::new(&array.to_data());
    Ok((
        PyCapsule::new_with_value(py, schema, c"arrow_schema")?,
        PyCapsule::new_with_value(py, data, c"arrow_array")?,
    ))
}

/// One batch of links: pass it to `pyarrow.record_batch(batch)`,
/// `polars.DataFrame(batch)` or anything that takes the Arrow PyCapsule
/// interface (`__arrow_c_array__`).
#[pyclass(name = "LinkBatch", module = "spinneret", frozen)]
pub struct LinkBatch {
    batch: RecordBatch,
}

#[pymethods]
impl LinkBatch {
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
        format!("LinkBatch(num_rows={})", self.batch.num_rows())
    }
}

/// The schema capsule of `schema`.
pub(crate) fn schema_capsule<'py>(
    py: Python<'py>,
    schema: &Schema,
) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi =
        FFI_ArrowSchema::try_from(schema).map_err(|e| PyValueError::new_err(e.to_string()))?;
    PyCapsule::new_with_value(py, ffi, c"arrow_schema")
}

/// The batches of [`warc_links`]: an iterator of [`LinkBatch`], and an
/// Arrow stream (`pyarrow.RecordBatchReader.from_stream(batches)`).
#[pyclass(name = "LinkBatches", module = "spinneret")]
pub struct LinkBatches {
    /// `None` once exhausted or handed over as a stream. (In a mutex: a
    /// Python object may be used from any thread.)
    rx: Option<Mutex<Receiver<Message>>>,
    counts: Arc<Counts>,
}

impl LinkBatches {
    /// The next batch: `Ok(None)` at the end; an error for a bad record
    /// under `strict`. Waits without the GIL.
    fn next_batch(&mut self, py: Python<'_>) -> PyResult<Option<RecordBatch>> {
        let Some(rx) = &self.rx else {
            return Ok(None);
        };
        let got = py.detach(|| rx.lock().ok().and_then(|rx| rx.recv().ok()));
        match got {
            Some(Message::Batch(b)) => Ok(Some(b)),
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
}

#[pymethods]
impl LinkBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<LinkBatch>> {
        Ok(self.next_batch(py)?.map(|batch| LinkBatch { batch }))
    }

    /// Records read so far (bad ones included).
    #[getter]
    fn records(&self) -> u64 {
        self.counts.records.load(Ordering::Relaxed)
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

    /// The first bad records' messages (`FILE: offset N: what`).
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

/// Every link of WARC/ARC files (plain, gzip per record or whole file,
/// zstd) as Arrow record batches of at most `batch_rows` rows: the columns
/// of `spinneret links` plus each record's `offset` and HTTP `status`.
/// `source` is a path — a file, a directory (walked recursively for files
/// named like WARC/ARC files, sorted, hidden entries skipped) or a glob —,
/// a list of such paths, or a binary file object (`open(p, "rb")`, a
/// stream from fsspec or boto3); or, instead, `manifest`: a file listing
/// paths, one a line, plain or gzip (Common Crawl's `warc.paths.gz`;
/// relative to the manifest's folder). With `canon` (a profile name), targets
/// are canonicalized. Bad records are counted (`.bad_records`, `.errors`)
/// and skipped, and so are inputs that cannot be read (`.unreadable`,
/// `.errors`) when another can; with `strict`, the first raises
/// `ValueError`.
#[pyfunction]
#[pyo3(signature = (source = None, canon = None, batch_rows = 65536, strict = false, manifest = None))]
pub fn warc_links(
    source: Option<&Bound<'_, PyAny>>,
    canon: Option<String>,
    batch_rows: usize,
    strict: bool,
    manifest: Option<PathBuf>,
) -> PyResult<LinkBatches> {
    if batch_rows == 0 {
        return Err(PyValueError::new_err("batch_rows must be at least 1"));
    }
    if let Some(name) = &canon {
        crate::canon::profile(name, &[])?;
    }
    let (source, name) = match (source, manifest) {
        (None, None) => {
            return Err(PyTypeError::new_err(
                "warc_links() needs a source or a manifest",
            ));
        }
        (Some(_), Some(_)) => {
            return Err(PyTypeError::new_err(
                "warc_links() takes a source or a manifest, not both",
            ));
        }
        (None, Some(list)) => {
            let dir = list.parent().map(PathBuf::from).unwrap_or_default();
            let listed = spinneret_warc::discover::read_path_list(&list, &dir)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let mut paths = Vec::new();
            for p in &listed {
                expand(&p.display().to_string(), &mut paths);
            }
            (Source::Paths(paths), list.display().to_string())
        }
        (Some(source), None) => source_of(source, "warc_links")?,
    };
    let (tx, rx) = sync_channel(1);
    let counts = Arc::new(Counts::default());
    let job = Job {
        source,
        name,
        canon,
        batch_rows,
        strict,
    };
    let thread_counts = counts.clone();
    std::thread::Builder::new()
        .name("spinneret-warc-links".into())
        .spawn(move || read_all(job, tx, thread_counts))
        .map_err(|e| PyValueError::new_err(format!("cannot start the reading thread: {e}")))?;
    Ok(LinkBatches {
        rx: Some(Mutex::new(rx)),
        counts,
    })
}

/// The files (or the file object) of a source of `function` (`warc_links`,
/// `warc_text`), and its name.
pub(crate) fn source_of(source: &Bound<'_, PyAny>, function: &str) -> PyResult<(Source, String)> {
    Ok(if let Ok(path) = source.extract::<PathBuf>() {
        let name = path.display().to_string();
        let mut paths = Vec::new();
        expand(&name, &mut paths);
        (Source::Paths(paths), name)
    } else if let Ok(list) = source.extract::<Vec<PathBuf>>() {
        let mut paths = Vec::new();
        for p in &list {
            expand(&p.display().to_string(), &mut paths);
        }
        (Source::Paths(paths), "[paths]".to_owned())
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
