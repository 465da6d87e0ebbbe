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

use std::sync::atomic::Ordering;

use pyo3::prelude::*;
use spinneret_columns::text::{TextColumns, TextFields, schema};
use spinneret_text::{Options, Page, extract_page};
use spinneret_warc::Record;

use crate::batches::{Batching, Rows, batch_classes, read_records, start};
use crate::sources::{Source, source_of};

/// The reading thread's settings.
struct Job {
    source: Source,
    name: String,
    options: Options,
    any_status: bool,
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
        page_type: ex.page_type.as_str(),
        text: &ex.text,
    });
}

/// The reading thread: records to rows, until the end or until the
/// iterator is gone (a send fails).
fn read_all(job: Job, rows: Rows<TextColumns>) {
    read_records(job.source, &job.name, rows, |record, name, rows| {
        if takes(record, job.any_status) {
            push_page(record, name, &job.options, &mut rows.cols);
            rows.counts().pages.fetch_add(1, Ordering::Relaxed);
        }
    });
}

batch_classes! {
    /// One batch of pages' text: pass it to `pyarrow.record_batch(batch)`,
    /// `polars.DataFrame(batch)` or anything that takes the Arrow PyCapsule
    /// interface (`__arrow_c_array__`).
    batch TextBatch;
    /// The batches of [`warc_text`]: an iterator of [`TextBatch`], and an
    /// Arrow stream (`pyarrow.RecordBatchReader.from_stream(batches)`).
    batches TextBatches of schema;
    /// Inputs that could not be read (missing, unreadable, a glob
    /// matching nothing), so far; their messages are in `errors`.
    unreadable;
    /// The first problems' messages (`FILE: offset N: what`).
    errors;
    /// Pages (rows) extracted so far.
    pages;
}

/// The readable text of every HTML page of WARC/ARC files (plain, gzip
/// per record or whole file, zstd) as Arrow record batches, one row per
/// page: `record_id`, `url`, `date`, `file`, `offset`, `status`,
/// `content_type`, `encoding`, `language` (detected, ISO 639-3),
/// `language_confidence`, `html_lang`, `content_language`, `title`,
/// `canonical`, `published`, `page_type`, `text` — the rows of `spinneret text
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
    let batching = Batching::new(batch_rows, Some(batch_bytes), strict)?;
    let options = crate::text::options(main_content, format, links, true)?;
    let (source, name) = source_of(path, "warc_text")?;
    let job = Job {
        source,
        name,
        options,
        any_status,
    };
    let rx = start("spinneret-warc-text", batching, move |rows| {
        read_all(job, rows)
    })?;
    Ok(TextBatches { rx })
}

#[cfg(test)]
mod tests {
    use spinneret_warc::Reader;

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
