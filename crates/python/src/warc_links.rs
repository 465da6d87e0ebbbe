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

use std::path::PathBuf;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use spinneret_canon::Canonicalizer;
use spinneret_columns::{LinkColumns, LinkFields, schema};
use spinneret_extract::{Extractor, Headers};
use spinneret_url::Url;
use spinneret_warc::{Record, RecordType};

use crate::batches::{Batching, Rows, batch_classes, read_records, start};
use crate::links::fields;
use crate::sources::{Source, manifest_of, source_of};

/// The reading thread's settings.
struct Job {
    source: Source,
    name: String,
    canon: Option<String>,
}

/// The reading thread: records to batches, until the end or until the
/// iterator is gone (a send fails).
fn read_all(job: Job, rows: Rows<LinkColumns>) {
    let mut canon = match job.canon.as_deref() {
        Some(name) => match crate::canon::profile(name, &[]) {
            Ok(p) => Some(Canonicalizer::new(p)),
            Err(e) => return rows.fail(e.to_string()),
        },
        None => None,
    };
    let mut extractor = Extractor::new();
    read_records(job.source, &job.name, rows, |record, name, rows| {
        let id = format!("{name}:{}", record.offset);
        record_links(record, &id, &mut extractor, canon.as_mut(), &mut rows.cols);
    });
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

batch_classes! {
    /// One batch of links: pass it to `pyarrow.record_batch(batch)`,
    /// `polars.DataFrame(batch)` or anything that takes the Arrow PyCapsule
    /// interface (`__arrow_c_array__`).
    batch LinkBatch;
    /// The batches of [`warc_links`]: an iterator of [`LinkBatch`], and an
    /// Arrow stream (`pyarrow.RecordBatchReader.from_stream(batches)`).
    batches LinkBatches of schema;
    /// Inputs that could not be read (missing, unreadable, a glob
    /// matching nothing), so far; their messages are in `errors`.
    unreadable;
    /// The first bad records' messages (`FILE: offset N: what`).
    errors;
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
    let batching = Batching::new(batch_rows, None, strict)?;
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
        (None, Some(list)) => manifest_of(&list)?,
        (Some(source), None) => source_of(source, "warc_links")?,
    };
    let job = Job {
        source,
        name,
        canon,
    };
    let rx = start("spinneret-warc-links", batching, move |rows| {
        read_all(job, rows)
    })?;
    Ok(LinkBatches { rx })
}
