//! `spinneret.warc_index`: the index of WARC/ARC files as Arrow record
//! batches of Common Crawl's cc-index-table columns
//! (`spinneret_index::cc_columns`, the schema of `spinneret index --format
//! parquet`), for pyarrow, polars, DuckDB and Spark's `mapInArrow`.
//!
//! A reading thread of its own reads the files in order (plain, gzip or
//! zstd, as `spinneret index` reads them: every record's block up to 64
//! MiB, the start of a longer one), makes each record's entry
//! (`Entry::of`, the CLI's per-record function), settles joins and
//! seekability in input order with the CLI's own `Settler` (a POST or PUT
//! request's body folded into its response's key with `post_append`; a
//! record sharing its gzip member gets -1 as offset and length), and sends
//! a batch every `batch_rows` rows through a channel that holds one batch:
//! memory stays at about two batches and the largest record, and Python
//! runs while the next batch is made. Batches reach Python through the
//! Arrow C data interface (`IndexBatch.__arrow_c_array__`,
//! `IndexBatches.__arrow_c_stream__`): no copy.
//!
//! A bad record (damaged, without a URL or date, or with a range the
//! schema's 32-bit integers cannot hold) is counted
//! (`IndexBatches.bad_records`, its message in `errors`) and skipped;
//! with `strict`, it raises `ValueError` instead.
//!
//! Invariants: the rows are those of `spinneret index --no-sort` on the
//! same files with the same options, in the same order (the tests compare
//! them over the corpus WARCs); the reading thread stops when the iterator
//! is exhausted or dropped.

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
use pyo3::types::PyCapsule;
use spinneret_index::cc_columns::{CcColumns, cc_path_parts, schema};
use spinneret_index::entry::{Entry, Fields, IndexOptions, RecordTypes};
use spinneret_index::ordered::{PlacedRecords, Settled, Settler};
use spinneret_warc::{Content, Options, Reader};

/// The most bad-record messages kept in `IndexBatches.errors`.
const ERRORS_KEPT: usize = 1000;

/// A record block up to this size is read whole (the CLI's default
/// `--max-record-size`).
const MAX_RECORD: usize = 64 << 20;

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

/// One input file: its path (or why there is none) and the values of its
/// `warc_filename` and `warc_segment` columns.
struct Input {
    path: Result<PathBuf, String>,
    filename: String,
    segment: Option<String>,
}

/// The reading thread's settings.
struct Job {
    inputs: Vec<Input>,
    opts: IndexOptions,
    batch_rows: usize,
    strict: bool,
}

/// The reading thread's state: the rows being filled and where they go.
struct Rows {
    cols: CcColumns,
    tx: SyncSender<Message>,
    counts: Arc<Counts>,
    strict: bool,
    batch_rows: usize,
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

    /// A bad record or an unreadable file: counted, or the end under
    /// `strict` (after the rows before it). `false`: stop.
    fn report(&mut self, msg: String, unreadable: bool) -> bool {
        if self.strict {
            if !self.cols.is_empty() && !self.send() {
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

    /// Appends the rows of settled entries (of `inputs`' files); sends a
    /// full batch. `false`: stop.
    fn add(&mut self, settled: Settled<usize>, inputs: &[Input]) -> bool {
        for (file, e, range) in settled {
            let input = &inputs[file];
            if let Err(why) = self
                .cols
                .push(&e, &input.filename, range, input.segment.as_deref())
            {
                let msg = format!("{}: offset {}: {why}", name_of(input), e.placement.offset);
                if !self.report(msg, false) {
                    return false;
                }
            }
            if self.cols.len() >= self.batch_rows && !self.send() {
                return false;
            }
        }
        true
    }
}

/// An input's name in messages.
fn name_of(input: &Input) -> String {
    match &input.path {
        Ok(p) => p.display().to_string(),
        Err(_) => input.filename.clone(),
    }
}

/// The reading thread: records to rows, until the end or until the
/// iterator is gone (a send fails).
fn read_all(job: Job, tx: SyncSender<Message>, counts: Arc<Counts>) {
    let mut rows = Rows {
        cols: CcColumns::new(),
        tx,
        counts: counts.clone(),
        strict: job.strict,
        batch_rows: job.batch_rows,
    };
    // One readable file at least, or the first error is the end.
    if !job.inputs.iter().any(|i| i.path.is_ok()) {
        let msg = match job.inputs.iter().find_map(|i| i.path.as_ref().err()) {
            Some(msg) => msg.clone(),
            None => "no WARC/ARC file found".to_owned(),
        };
        let _ = rows.tx.send(Message::Failed(msg));
        return;
    }
    let read = Options {
        max_record_size: MAX_RECORD as u64,
        content: Content::Head(MAX_RECORD),
        ..Options::default()
    };
    let mut settler = Settler::new(job.opts.post_append);
    for (file, input) in job.inputs.iter().enumerate() {
        // Each file is opened when its turn comes.
        let opened = match &input.path {
            Ok(p) => std::fs::File::open(p).map_err(|e| format!("{}: {e}", p.display())),
            Err(msg) => Err(msg.clone()),
        };
        let f = match opened {
            Ok(f) => f,
            Err(msg) => {
                if !rows.report(msg, true) || !rows.add(settler.separate(), &job.inputs) {
                    return;
                }
                continue;
            }
        };
        let reader: Box<dyn Read> = Box::new(io::BufReader::with_capacity(1 << 16, f));
        for item in PlacedRecords::new(Reader::from_read(reader, read)) {
            counts.records.fetch_add(1, Ordering::Relaxed);
            let settled = match item {
                Ok(placed) => {
                    let offset = placed.record.offset;
                    let entry = match Entry::of(&placed.record, placed.placement(), &job.opts) {
                        None => None,
                        Some(Ok(e)) => Some(e),
                        Some(Err(what)) => {
                            let msg = format!("{}: offset {offset}: {what}", name_of(input));
                            if !rows.report(msg, false) {
                                return;
                            }
                            None
                        }
                    };
                    settler.record(file, offset, entry)
                }
                Err(e) => {
                    // The reader's message names the offset.
                    if !rows.report(format!("{}: {e}", name_of(input)), false) {
                        return;
                    }
                    settler.damage(file, e.offset())
                }
            };
            if !rows.add(settled, &job.inputs) {
                return;
            }
        }
    }
    if rows.add(settler.finish(), &job.inputs) && !rows.cols.is_empty() {
        rows.send();
    }
}

/// The files a path argument names: a file, a directory walked for
/// WARC/ARC files, or a glob (as `spinneret index` takes them), each part
/// that yields nothing as its message.
fn expand(arg: &str, out: &mut Vec<Result<PathBuf, String>>) {
    let found = spinneret_warc::discover::Discover::default().expand(arg);
    out.extend(found.into_iter().map(|r| r.map_err(|e| e.to_string())));
}

/// A path's `warc_filename` (the file's name, as the CLI's default) and
/// `warc_segment` (of a Common Crawl path), unless given.
fn input_of(path: Result<PathBuf, String>, filename: Option<&str>, segment: Option<&str>) -> Input {
    let (name, cc_segment) = match &path {
        Ok(p) => (
            p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            cc_path_parts(&p.to_string_lossy().replace('\\', "/")).map(|c| c.segment),
        ),
        Err(_) => (String::new(), None),
    };
    Input {
        path,
        filename: filename.map_or(name, str::to_owned),
        segment: segment.map(str::to_owned).or(cc_segment),
    }
}

/// A comma-separated list given as a string or a sequence of strings.
fn list_of(v: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if let Ok(s) = v.extract::<String>() {
        return Ok(s);
    }
    match v.extract::<Vec<String>>() {
        Ok(items) => Ok(items.join(",")),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} takes a string or a list of strings, not {}",
            v.get_type().name()?
        ))),
    }
}

/// The Arrow C data interface's capsules of `batch`: its schema and its
/// columns as one struct array.
fn batch_capsules<'py>(
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

/// The schema capsule of `schema`.
fn schema_capsule<'py>(py: Python<'py>, schema: &Schema) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi =
        FFI_ArrowSchema::try_from(schema).map_err(|e| PyValueError::new_err(e.to_string()))?;
    PyCapsule::new_with_value(py, ffi, c"arrow_schema")
}

/// One batch of index rows: pass it to `pyarrow.record_batch(batch)`,
/// `polars.DataFrame(batch)` or anything that takes the Arrow PyCapsule
/// interface (`__arrow_c_array__`).
#[pyclass(name = "IndexBatch", module = "spinneret", frozen)]
pub struct IndexBatch {
    batch: RecordBatch,
}

#[pymethods]
impl IndexBatch {
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
        format!("IndexBatch(num_rows={})", self.batch.num_rows())
    }
}

/// The batches of [`warc_index`]: an iterator of [`IndexBatch`], and an
/// Arrow stream (`pyarrow.RecordBatchReader.from_stream(batches)`).
#[pyclass(name = "IndexBatches", module = "spinneret")]
pub struct IndexBatches {
    /// `None` once exhausted or handed over as a stream. (In a mutex: a
    /// Python object may be used from any thread.)
    rx: Option<Mutex<Receiver<Message>>>,
    counts: Arc<Counts>,
}

#[pymethods]
impl IndexBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// The next batch; waits without the GIL.
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<IndexBatch>> {
        let Some(rx) = &self.rx else {
            return Ok(None);
        };
        let got = py.detach(|| rx.lock().ok().and_then(|rx| rx.recv().ok()));
        match got {
            Some(Message::Batch(batch)) => Ok(Some(IndexBatch { batch })),
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

    /// Bad records so far (skipped; without `strict`).
    #[getter]
    fn bad_records(&self) -> u64 {
        self.counts.bad_records.load(Ordering::Relaxed)
    }

    /// Inputs that could not be read so far; their messages are in
    /// `errors`.
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

/// The index of WARC/ARC files (plain, gzip per record or whole file,
/// zstd) as Arrow record batches of Common Crawl's cc-index-table columns,
/// at most `batch_rows` rows each: the rows of `spinneret index --no-sort`
/// with the same options, in the same order. `path`: a file, a directory
/// (walked for WARC/ARC files, sorted), a glob, or a list of those.
/// `fields`: the optional fields (`"cc"`, or a list or comma-separated
/// string of `redirect`, `charset`, `mime-detected`, `truncated`);
/// `records`: the record types listed (`"all"` or a list; default
/// `response`, `revisit`, `resource`, `metadata`); `post_append`: fold
/// POST/PUT bodies into the key as pywb does. `filename`: the
/// `warc_filename` of every row (default: the file's name); `segment`: the
/// `warc_segment` (default: that of a Common Crawl path, else empty).
/// Bad records and unreadable inputs are counted (`.bad_records`,
/// `.unreadable`, `.errors`) and skipped; with `strict`, the first raises
/// `ValueError`.
#[pyfunction]
#[pyo3(signature = (
    path,
    fields = None,
    records = None,
    post_append = true,
    batch_rows = 65536,
    filename = None,
    segment = None,
    strict = false,
))]
#[allow(clippy::too_many_arguments)]
pub fn warc_index(
    path: &Bound<'_, PyAny>,
    fields: Option<&Bound<'_, PyAny>>,
    records: Option<&Bound<'_, PyAny>>,
    post_append: bool,
    batch_rows: usize,
    filename: Option<String>,
    segment: Option<String>,
    strict: bool,
) -> PyResult<IndexBatches> {
    if batch_rows == 0 {
        return Err(PyValueError::new_err("batch_rows must be at least 1"));
    }
    let fields = match fields {
        Some(f) => Fields::parse(&list_of(f, "fields")?).map_err(PyValueError::new_err)?,
        None => Fields::default(),
    };
    let records = match records {
        Some(r) => RecordTypes::parse(&list_of(r, "records")?).map_err(PyValueError::new_err)?,
        None => RecordTypes::default(),
    };
    let mut paths = Vec::new();
    if let Ok(p) = path.extract::<PathBuf>() {
        expand(&p.display().to_string(), &mut paths);
    } else if let Ok(list) = path.extract::<Vec<PathBuf>>() {
        for p in &list {
            expand(&p.display().to_string(), &mut paths);
        }
    } else {
        return Err(PyTypeError::new_err(format!(
            "warc_index() takes a path or a list of paths, not {}",
            path.get_type().name()?
        )));
    }
    let inputs = paths
        .into_iter()
        .map(|p| input_of(p, filename.as_deref(), segment.as_deref()))
        .collect();
    let job = Job {
        inputs,
        opts: IndexOptions {
            records,
            fields,
            post_append,
        },
        batch_rows,
        strict,
    };
    let (tx, rx) = sync_channel(1);
    let counts = Arc::new(Counts::default());
    let thread_counts = counts.clone();
    std::thread::Builder::new()
        .name("spinneret-warc-index".into())
        .spawn(move || read_all(job, tx, thread_counts))
        .map_err(|e| PyValueError::new_err(format!("cannot start the reading thread: {e}")))?;
    Ok(IndexBatches {
        rx: Some(Mutex::new(rx)),
        counts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_take_their_names_and_common_crawl_segments() {
        let i = input_of(
            Ok(PathBuf::from(
                "/data/crawl-data/CC-MAIN-2024-10/segments/1707947473347.0/warc/x.warc.gz",
            )),
            None,
            None,
        );
        assert_eq!(i.filename, "x.warc.gz");
        assert_eq!(i.segment.as_deref(), Some("1707947473347.0"));
        let j = input_of(Ok(PathBuf::from("a/b.warc")), Some("f"), Some("s"));
        assert_eq!(
            (j.filename.as_str(), j.segment.as_deref()),
            ("f", Some("s"))
        );
        assert_eq!(
            input_of(Ok(PathBuf::from("b.warc")), None, None).segment,
            None
        );
    }
}
