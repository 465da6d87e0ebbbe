//! The Arrow record batches of `warc_links`, `warc_index` and `warc_text`,
//! from the reading thread to Python.
//!
//! [`start`] runs a function's reading thread: it fills columns
//! ([`Rows`]) and sends a batch whenever they hold `batch_rows` rows (or,
//! for `warc_text`, `batch_bytes` bytes of strings) through a channel that
//! holds one batch, so memory stays at about two batches and the largest
//! record, and Python runs while the next batch is made. A bad record or an
//! unreadable input is counted, its message kept ([`Rows::report`]), or the
//! end under `strict`. [`Receiving`] is the other end: the next batch,
//! waited for without the GIL, or the batches left as an Arrow stream.
//! [`batch_classes!`] makes each function's two Python classes (a batch
//! and the iterator of batches: `LinkBatch` and `LinkBatches`, …), which
//! only their names, docstrings and schema tell apart. Batches reach Python
//! through the Arrow C data interface's PyCapsules: no copy.
//!
//! Invariants: a failure is the last message (the reading thread sends
//! nothing after it; the receiving end lets go of the channel when it
//! comes); under `strict` the rows before a bad record are sent before its
//! failure; no batch holds more than `batch_rows` rows; the reading thread
//! stops when a send fails (the iterator exhausted, dropped, or handed over
//! as a stream that is released).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Mutex};

use arrow_array::ffi::{FFI_ArrowArray, FFI_ArrowSchema};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, RecordBatch, RecordBatchIterator, StructArray};
use arrow_schema::{ArrowError, Schema, SchemaRef};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use spinneret_columns::LinkColumns;
use spinneret_columns::text::TextColumns;
use spinneret_index::cc_columns::CcColumns;
use spinneret_warc::{Reader, Record};

use crate::sources::{Source, inputs};

/// The most problems' messages kept in a function's `errors`.
pub(crate) const ERRORS_KEPT: usize = 1000;

/// What the reading thread sends.
enum Message {
    Batch(RecordBatch),
    /// A bad record under `strict`, or a failure to build a batch: the end.
    Failed(String),
}

/// Counts shared by the reading thread and the iterator.
#[derive(Default)]
pub(crate) struct Counts {
    pub(crate) records: AtomicU64,
    /// Pages (rows) extracted: `warc_text`'s alone.
    pub(crate) pages: AtomicU64,
    pub(crate) bad_records: AtomicU64,
    pub(crate) unreadable: AtomicU64,
    errors: Mutex<Vec<String>>,
}

/// The column builders a reading thread fills.
pub(crate) trait Columns: Default + Send + 'static {
    /// The rows held.
    fn rows(&self) -> usize;
    /// The bytes the rows held take, as the builders count them.
    fn bytes(&self) -> usize;
    /// The rows held as a batch; the builders start empty again.
    fn finish(&mut self) -> Result<RecordBatch, ArrowError>;
}

/// [`Columns`] of builders whose methods of these names it calls (`len`
/// is [`CcColumns`]'s row count).
macro_rules! columns {
    ($($cols:ty: $rows:ident),* $(,)?) => {$(
        impl Columns for $cols {
            fn rows(&self) -> usize {
                self.$rows()
            }
            fn bytes(&self) -> usize {
                <$cols>::bytes(self)
            }
            fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
                <$cols>::finish(self)
            }
        }
    )*};
}

columns!(LinkColumns: rows, TextColumns: rows, CcColumns: len);

/// How the reading thread makes batches.
#[derive(Clone, Copy)]
pub(crate) struct Batching {
    /// The most rows of a batch.
    rows: usize,
    /// With `Some`, a batch is sent once its strings take this many bytes.
    bytes: Option<usize>,
    /// Whether a bad record or an unreadable input ends the batches.
    strict: bool,
}

impl Batching {
    /// The arguments `batch_rows`, `batch_bytes` (`warc_text` alone) and
    /// `strict`; `ValueError` for a zero.
    pub(crate) fn new(rows: usize, bytes: Option<usize>, strict: bool) -> PyResult<Self> {
        if rows == 0 {
            return Err(PyValueError::new_err("batch_rows must be at least 1"));
        }
        if bytes == Some(0) {
            return Err(PyValueError::new_err("batch_bytes must be at least 1"));
        }
        Ok(Batching {
            rows,
            bytes,
            strict,
        })
    }
}

/// What [`Rows::report`] counts.
#[derive(Clone, Copy)]
pub(crate) enum Problem {
    BadRecord,
    /// An input that cannot be read (missing, unreadable, a glob matching
    /// nothing).
    Unreadable,
}

/// The reading thread's end: the rows being filled and where they go.
pub(crate) struct Rows<C> {
    pub(crate) cols: C,
    tx: SyncSender<Message>,
    counts: Arc<Counts>,
    batching: Batching,
}

impl<C: Columns> Rows<C> {
    /// The counts the iterator shows.
    pub(crate) fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Whether the rows held make a batch.
    pub(crate) fn full(&self) -> bool {
        self.cols.rows() >= self.batching.rows
            || self
                .batching
                .bytes
                .is_some_and(|max| self.cols.bytes() >= max)
    }

    /// Sends the rows held; `false` when the iterator is gone or the
    /// batch cannot be built (then the end).
    pub(crate) fn send(&mut self) -> bool {
        let batch = match self.cols.finish() {
            Ok(b) => b,
            Err(e) => {
                self.fail(e.to_string());
                return false;
            }
        };
        // A record with more rows than a batch holds (a page's links) is
        // sent in slices of the batch (no copy).
        let most = self.batching.rows;
        (0..batch.num_rows()).step_by(most).all(|start| {
            let len = most.min(batch.num_rows() - start);
            self.tx
                .send(Message::Batch(batch.slice(start, len)))
                .is_ok()
        })
    }

    /// Sends the rows held, if any; `false`: stop.
    pub(crate) fn flush(&mut self) -> bool {
        self.cols.rows() == 0 || self.send()
    }

    /// The end: `msg` raised as `ValueError` by the iterator.
    pub(crate) fn fail(&self, msg: String) {
        let _ = self.tx.send(Message::Failed(msg));
    }

    /// A bad record or an unreadable input: counted, or the end under
    /// `strict` (after the rows before it). `false`: stop.
    pub(crate) fn report(&mut self, msg: String, problem: Problem) -> bool {
        if self.batching.strict {
            if self.flush() {
                self.fail(msg);
            }
            return false;
        }
        let counter = match problem {
            Problem::BadRecord => &self.counts.bad_records,
            Problem::Unreadable => &self.counts.unreadable,
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

/// The reading thread of `warc_links` and `warc_text`: the records of
/// `source` (called `name`), in order, each given to `each` with its
/// input's name to fill `rows`, sent whenever they make a batch; until the
/// end or until the iterator is gone (a send fails).
pub(crate) fn read_records<C: Columns>(
    source: Source,
    name: &str,
    mut rows: Rows<C>,
    mut each: impl FnMut(&Record, &str, &mut Rows<C>),
) {
    let files = match inputs(source, name) {
        Ok(files) => files,
        Err(msg) => return rows.fail(msg),
    };
    for (name, reader) in files {
        let reader = match reader {
            Ok(r) => r,
            Err(msg) => {
                if !rows.report(msg, Problem::Unreadable) {
                    return;
                }
                continue;
            }
        };
        for r in Reader::from_read(reader, spinneret_warc::Options::default()) {
            rows.counts.records.fetch_add(1, Ordering::Relaxed);
            match r {
                Ok(record) => each(&record, &name, &mut rows),
                Err(e) => {
                    // The reader's message names the offset.
                    if !rows.report(format!("{name}: {e}"), Problem::BadRecord) {
                        return;
                    }
                }
            }
            if rows.full() && !rows.send() {
                return;
            }
        }
    }
    rows.flush();
}

/// Starts `read` on a reading thread called `thread`, with empty rows
/// batched as `batching` says; the iterator's end.
pub(crate) fn start<C: Columns>(
    thread: &str,
    batching: Batching,
    read: impl FnOnce(Rows<C>) + Send + 'static,
) -> PyResult<Receiving> {
    let (tx, rx) = sync_channel(1);
    let counts = Arc::new(Counts::default());
    let rows = Rows {
        cols: C::default(),
        tx,
        counts: counts.clone(),
        batching,
    };
    std::thread::Builder::new()
        .name(thread.into())
        .spawn(move || read(rows))
        .map_err(|e| PyValueError::new_err(format!("cannot start the reading thread: {e}")))?;
    Ok(Receiving {
        rx: Some(Mutex::new(rx)),
        counts,
    })
}

/// The iterator's end of the channel.
pub(crate) struct Receiving {
    /// `None` once exhausted or handed over as a stream. (In a mutex: a
    /// Python object may be used from any thread.)
    rx: Option<Mutex<Receiver<Message>>>,
    counts: Arc<Counts>,
}

impl Receiving {
    /// The next batch: `Ok(None)` at the end; an error for a bad record
    /// under `strict`. Waits without the GIL.
    pub(crate) fn next_batch(&mut self, py: Python<'_>) -> PyResult<Option<RecordBatch>> {
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

    /// The counts so far.
    pub(crate) fn counts(&self) -> &Counts {
        &self.counts
    }

    /// The first problems' messages.
    pub(crate) fn errors(&self) -> Vec<String> {
        self.counts
            .errors
            .lock()
            .map(|e| e.clone())
            .unwrap_or_default()
    }

    /// The batches not yet taken as an `ArrowArrayStream` capsule of
    /// `schema` (the iterator is used up).
    pub(crate) fn stream<'py>(
        &mut self,
        py: Python<'py>,
        schema: SchemaRef,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let rx = self.rx.take().and_then(|m| m.into_inner().ok());
        let batches = std::iter::from_fn(move || match rx.as_ref()?.recv() {
            Ok(Message::Batch(b)) => Some(Ok(b)),
            Ok(Message::Failed(msg)) => Some(Err(ArrowError::ExternalError(msg.into()))),
            Err(_) => None,
        });
        let reader = RecordBatchIterator::new(batches, schema);
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
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

/// The schema capsule of `schema`.
pub(crate) fn schema_capsule<'py>(
    py: Python<'py>,
    schema: &Schema,
) -> PyResult<Bound<'py, PyCapsule>> {
    let ffi =
        FFI_ArrowSchema::try_from(schema).map_err(|e| PyValueError::new_err(e.to_string()))?;
    PyCapsule::new_with_value(py, ffi, c"arrow_schema")
}

/// A function's two Python classes: `batch`, one record batch (frozen),
/// and `batches`, the iterator of them and Arrow stream (`schema`, a
/// function, gives their schema), made as `batches { rx }` of the
/// [`Receiving`] end `rx`. The docstrings of the classes and of the
/// getters `unreadable`, `errors` and `pages` (given for `warc_text`
/// alone) are the caller's.
macro_rules! batch_classes {
    (
        $(#[$batch_doc:meta])*
        batch $batch:ident;
        $(#[$batches_doc:meta])*
        batches $batches:ident of $schema:path;
        $(#[$unreadable_doc:meta])*
        unreadable;
        $(#[$errors_doc:meta])*
        errors;
        $(
            $(#[$pages_doc:meta])*
            pages;
        )?
    ) => {
        $(#[$batch_doc])*
        #[::pyo3::pyclass(module = "spinneret", frozen)]
        pub struct $batch {
            batch: ::arrow_array::RecordBatch,
        }

        #[::pyo3::pymethods]
        impl $batch {
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
                py: ::pyo3::Python<'py>,
                requested_schema: Option<::pyo3::Bound<'py, ::pyo3::PyAny>>,
            ) -> ::pyo3::PyResult<(
                ::pyo3::Bound<'py, ::pyo3::types::PyCapsule>,
                ::pyo3::Bound<'py, ::pyo3::types::PyCapsule>,
            )> {
                let _ = requested_schema; // the batch has one schema
                $crate::batches::batch_capsules(py, &self.batch)
            }

            /// The Arrow PyCapsule interface: the schema capsule.
            fn __arrow_c_schema__<'py>(
                &self,
                py: ::pyo3::Python<'py>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyCapsule>> {
                $crate::batches::schema_capsule(py, &self.batch.schema())
            }

            fn __repr__(&self) -> String {
                format!(
                    concat!(stringify!($batch), "(num_rows={})"),
                    self.batch.num_rows()
                )
            }
        }

        $(#[$batches_doc])*
        #[::pyo3::pyclass(module = "spinneret")]
        pub struct $batches {
            rx: $crate::batches::Receiving,
        }

        $crate::batches::batch_classes! {
            @methods $batches of $schema, batch $batch;
            counters {
                /// Records read so far (bad ones included).
                records,
                $($(#[$pages_doc])* pages,)?
                /// Bad records so far (skipped; without `strict`).
                bad_records,
                $(#[$unreadable_doc])*
                unreadable,
            }
            $(#[$errors_doc])*
            errors;
        }
    };
    // The methods of `batches`: a getter per counter of [`Counts`] named.
    (
        @methods $batches:ident of $schema:path, batch $batch:ident;
        counters { $($(#[$counter_doc:meta])* $counter:ident,)* }
        $(#[$errors_doc:meta])*
        errors;
    ) => {
        #[::pyo3::pymethods]
        impl $batches {
            fn __iter__(slf: ::pyo3::PyRef<'_, Self>) -> ::pyo3::PyRef<'_, Self> {
                slf
            }

            /// The next batch; waits without the GIL.
            fn __next__(&mut self, py: ::pyo3::Python<'_>) -> ::pyo3::PyResult<Option<$batch>> {
                Ok(self.rx.next_batch(py)?.map(|batch| $batch { batch }))
            }

            $(
                $(#[$counter_doc])*
                #[getter]
                fn $counter(&self) -> u64 {
                    self.rx.counts().$counter.load(::std::sync::atomic::Ordering::Relaxed)
                }
            )*

            $(#[$errors_doc])*
            #[getter]
            fn errors(&self) -> Vec<String> {
                self.rx.errors()
            }

            /// The Arrow schema of the batches.
            fn __arrow_c_schema__<'py>(
                &self,
                py: ::pyo3::Python<'py>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyCapsule>> {
                $crate::batches::schema_capsule(py, &$schema())
            }

            /// The Arrow PyCapsule stream interface: the batches not yet taken, as
            /// an `ArrowArrayStream` (the iterator is used up).
            #[pyo3(signature = (requested_schema = None))]
            fn __arrow_c_stream__<'py>(
                &mut self,
                py: ::pyo3::Python<'py>,
                requested_schema: Option<::pyo3::Bound<'py, ::pyo3::PyAny>>,
            ) -> ::pyo3::PyResult<::pyo3::Bound<'py, ::pyo3::types::PyCapsule>> {
                let _ = requested_schema; // the batches have one schema
                self.rx.stream(py, $schema())
            }
        }
    };
}

pub(crate) use batch_classes;
