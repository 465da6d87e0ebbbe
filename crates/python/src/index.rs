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

use std::path::PathBuf;
use std::sync::atomic::Ordering;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use spinneret_index::cc_columns::{CcColumns, cc_path_parts, schema};
use spinneret_index::entry::{Entry, Fields, IndexOptions, RecordTypes};
use spinneret_index::ordered::{PlacedRecords, Settled, Settler};
use spinneret_warc::{Content, Options, Reader};

use crate::batches::{Batching, Problem, Rows, batch_classes, start};
use crate::sources::{open, paths_of};

/// A record block up to this size is read whole (the CLI's default
/// `--max-record-size`).
const MAX_RECORD: usize = 64 << 20;

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
}

/// Appends the rows of settled entries (of `inputs`' files) to `rows`;
/// sends a full batch. `false`: stop.
fn add(rows: &mut Rows<CcColumns>, settled: Settled<usize>, inputs: &[Input]) -> bool {
    for (file, e, range) in settled {
        let input = &inputs[file];
        if let Err(why) = rows
            .cols
            .push(&e, &input.filename, range, input.segment.as_deref())
        {
            let msg = format!("{}: offset {}: {why}", name_of(input), e.placement.offset);
            if !rows.report(msg, Problem::BadRecord) {
                return false;
            }
        }
        if rows.full() && !rows.send() {
            return false;
        }
    }
    true
}

/// An input's name in messages.
fn name_of(input: &Input) -> String {
    match &input.path {
        Ok(p) => crate::sources::shown_name(p),
        Err(_) => input.filename.clone(),
    }
}

/// The reading thread: records to rows, until the end or until the
/// iterator is gone (a send fails).
fn read_all(job: Job, mut rows: Rows<CcColumns>) {
    // One readable file at least, or the first error is the end.
    if !job.inputs.iter().any(|i| i.path.is_ok()) {
        let msg = match job.inputs.iter().find_map(|i| i.path.as_ref().err()) {
            Some(msg) => msg.clone(),
            None => "no WARC/ARC file found".to_owned(),
        };
        return rows.fail(msg);
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
            Ok(p) => open(p),
            Err(msg) => Err(msg.clone()),
        };
        let reader = match opened {
            Ok(r) => r,
            Err(msg) => {
                if !rows.report(msg, Problem::Unreadable)
                    || !add(&mut rows, settler.separate(), &job.inputs)
                {
                    return;
                }
                continue;
            }
        };
        for item in PlacedRecords::new(Reader::from_read(reader, read)) {
            rows.counts().records.fetch_add(1, Ordering::Relaxed);
            let settled = match item {
                Ok(placed) => {
                    let offset = placed.record.offset;
                    let entry = match Entry::of(&placed.record, placed.placement(), &job.opts) {
                        None => None,
                        Some(Ok(e)) => Some(e),
                        Some(Err(what)) => {
                            let msg = format!("{}: offset {offset}: {what}", name_of(input));
                            if !rows.report(msg, Problem::BadRecord) {
                                return;
                            }
                            None
                        }
                    };
                    settler.record(file, offset, entry)
                }
                Err(e) => {
                    // The reader's message names the offset.
                    if !rows.report(format!("{}: {e}", name_of(input)), Problem::BadRecord) {
                        return;
                    }
                    settler.damage(file, e.offset())
                }
            };
            if !add(&mut rows, settled, &job.inputs) {
                return;
            }
        }
    }
    if add(&mut rows, settler.finish(), &job.inputs) {
        rows.flush();
    }
}

/// A path's `warc_filename` (the file's name, as the CLI's default) and
/// `warc_segment` (of a Common Crawl path), unless given.
fn input_of(path: Result<PathBuf, String>, filename: Option<&str>, segment: Option<&str>) -> Input {
    let (name, cc_segment) = match &path {
        Ok(p) => {
            let shown = PathBuf::from(crate::sources::shown_name(p));
            (
                shown.file_name().map_or_else(
                    || shown.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                ),
                cc_path_parts(&shown.to_string_lossy().replace('\\', "/")).map(|c| c.segment),
            )
        }
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

batch_classes! {
    /// One batch of index rows: pass it to `pyarrow.record_batch(batch)`,
    /// `polars.DataFrame(batch)` or anything that takes the Arrow PyCapsule
    /// interface (`__arrow_c_array__`).
    batch IndexBatch;
    /// The batches of [`warc_index`]: an iterator of [`IndexBatch`], and an
    /// Arrow stream (`pyarrow.RecordBatchReader.from_stream(batches)`).
    batches IndexBatches of schema;
    /// Inputs that could not be read so far; their messages are in
    /// `errors`.
    unreadable;
    /// The first problems' messages (`FILE: offset N: what`).
    errors;
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
    let batching = Batching::new(batch_rows, None, strict)?;
    let fields = match fields {
        Some(f) => Fields::parse(&list_of(f, "fields")?).map_err(PyValueError::new_err)?,
        None => Fields::default(),
    };
    let records = match records {
        Some(r) => RecordTypes::parse(&list_of(r, "records")?).map_err(PyValueError::new_err)?,
        None => RecordTypes::default(),
    };
    let Some((paths, _)) = paths_of(path) else {
        return Err(PyTypeError::new_err(format!(
            "warc_index() takes a path or a list of paths, not {}",
            path.get_type().name()?
        )));
    };
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
    };
    let rx = start("spinneret-warc-index", batching, move |rows| {
        read_all(job, rows)
    })?;
    Ok(IndexBatches { rx })
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
