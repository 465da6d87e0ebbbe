//! `spinneret-columns`: a crawl's links, and its pages' text, as Arrow
//! record batches.
//!
//! For links, one schema ([`schema`]) and one batch builder ([`LinkColumns`]) for every
//! columnar output of spinneret: `spinneret links --format parquet` (the
//! CLI) and `spinneret.warc_links` (the Python package), so a table written
//! by one reads as the other's.
//!
//! Columns, in order: the fields of `spinneret links`' JSON rows
//! (`source`, `target`, `error`, `raw`, `tag`, `attr`, `kind`, `rel`,
//! `text`, `record` = `FILE:OFFSET`), then `offset` (the record's byte
//! offset in its file; 0 for an HTML file) and `status` (the HTTP status;
//! null without an HTTP head). `target`, `error`, `tag`, `rel`, `text` and
//! `status` are nullable, as in the JSON rows.
//!
//! Invariants: every batch [`LinkColumns::finish`] makes has [`schema`]'s
//! fields; [`LinkColumns::bytes`] never undercounts the strings held, so a
//! caller can bound a batch's memory by it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod text;

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{StringBuilder, UInt16Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

/// The links' schema (shared: built once).
pub fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
            Arc::new(Schema::new(vec![
                text("source", false),
                text("target", true),
                text("error", true),
                text("raw", false),
                text("tag", true),
                text("attr", false),
                text("kind", false),
                text("rel", true),
                text("text", true),
                text("record", false),
                Field::new("offset", DataType::UInt64, false),
                Field::new("status", DataType::UInt16, true),
            ]))
        })
        .clone()
}

/// One link's row, borrowed: the values of [`schema`]'s columns.
#[derive(Debug, Clone, Copy)]
pub struct LinkFields<'a> {
    /// The page's URL.
    pub source: &'a str,
    /// The resolved (and canonicalized) target; `None` when it does not
    /// parse.
    pub target: Option<&'a str>,
    /// Why the target does not parse (the URL Standard's failure name).
    pub error: Option<&'a str>,
    /// The link as written in the page or header.
    pub raw: &'a str,
    /// The element (`svg:`-prefixed in SVG); `None` for header links.
    pub tag: Option<&'a str>,
    /// The attribute (or header) the link came from.
    pub attr: &'a str,
    /// The link's kind (`LinkKind::as_str`).
    pub kind: &'a str,
    /// The element's `rel`.
    pub rel: Option<&'a str>,
    /// The anchor text.
    pub text: Option<&'a str>,
    /// Where the page came from: `FILE:OFFSET`.
    pub record: &'a str,
    /// The record's byte offset in its file.
    pub offset: u64,
    /// The record's HTTP status, when it has an HTTP head.
    pub status: Option<u16>,
}

/// Bytes a row costs besides its strings: a 4-byte offset per string
/// column, the 8-byte offset and 2-byte status values, validity bits.
const ROW_OVERHEAD: usize = 10 * 4 + 8 + 2 + 2;

/// The columns of a batch being filled.
pub struct LinkColumns {
    source: StringBuilder,
    target: StringBuilder,
    error: StringBuilder,
    raw: StringBuilder,
    tag: StringBuilder,
    attr: StringBuilder,
    kind: StringBuilder,
    rel: StringBuilder,
    text: StringBuilder,
    record: StringBuilder,
    offset: UInt64Builder,
    status: UInt16Builder,
    rows: usize,
    bytes: usize,
}

impl Default for LinkColumns {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for LinkColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LinkColumns")
            .field("rows", &self.rows)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

impl LinkColumns {
    /// No rows.
    pub fn new() -> Self {
        // Small first capacities: a page has a few hundred links, and a
        // builder grows as it needs.
        let text = || StringBuilder::with_capacity(64, 1024);
        LinkColumns {
            source: text(),
            target: text(),
            error: text(),
            raw: text(),
            tag: text(),
            attr: text(),
            kind: text(),
            rel: text(),
            text: text(),
            record: text(),
            offset: UInt64Builder::with_capacity(64),
            status: UInt16Builder::with_capacity(64),
            rows: 0,
            bytes: 0,
        }
    }

    /// Appends one row.
    pub fn push(&mut self, f: &LinkFields<'_>) {
        let len = |s: Option<&str>| s.map_or(0, str::len);
        self.bytes += ROW_OVERHEAD
            + f.source.len()
            + len(f.target)
            + len(f.error)
            + f.raw.len()
            + len(f.tag)
            + f.attr.len()
            + f.kind.len()
            + len(f.rel)
            + len(f.text)
            + f.record.len();
        self.source.append_value(f.source);
        self.target.append_option(f.target);
        self.error.append_option(f.error);
        self.raw.append_value(f.raw);
        self.tag.append_option(f.tag);
        self.attr.append_value(f.attr);
        self.kind.append_value(f.kind);
        self.rel.append_option(f.rel);
        self.text.append_option(f.text);
        self.record.append_value(f.record);
        self.offset.append_value(f.offset);
        self.status.append_option(f.status);
        self.rows += 1;
    }

    /// The rows appended since the last [`finish`](Self::finish).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bytes those rows hold (strings and per-row overhead; not the
    /// builders' spare capacity).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The rows so far as a batch of [`schema`]; the columns start empty
    /// again.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        self.bytes = 0;
        let columns: Vec<ArrayRef> = vec![
            Arc::new(self.source.finish()),
            Arc::new(self.target.finish()),
            Arc::new(self.error.finish()),
            Arc::new(self.raw.finish()),
            Arc::new(self.tag.finish()),
            Arc::new(self.attr.finish()),
            Arc::new(self.kind.finish()),
            Arc::new(self.rel.finish()),
            Arc::new(self.text.finish()),
            Arc::new(self.record.finish()),
            Arc::new(self.offset.finish()),
            Arc::new(self.status.finish()),
        ];
        RecordBatch::try_new(schema(), columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{UInt16Type, UInt64Type};

    fn row<'a>(target: Option<&'a str>, status: Option<u16>) -> LinkFields<'a> {
        LinkFields {
            source: "https://a.example/",
            target,
            error: target.is_none().then_some("invalid-URL-unit"),
            raw: "x y",
            tag: Some("a"),
            attr: "href",
            kind: "a",
            rel: None,
            text: Some("X"),
            record: "f.warc:7",
            offset: 7,
            status,
        }
    }

    #[test]
    fn rows_become_a_batch_of_the_schema_with_nulls_where_absent() {
        let mut c = LinkColumns::new();
        c.push(&row(Some("https://a.example/x"), Some(200)));
        c.push(&row(None, None));
        assert_eq!(c.rows(), 2);
        let b = c.finish().unwrap();
        assert_eq!(b.schema(), schema());
        assert_eq!(b.num_rows(), 2);
        let target = b.column_by_name("target").unwrap().as_string::<i32>();
        assert_eq!(target.value(0), "https://a.example/x");
        assert!(target.is_null(1));
        let error = b.column_by_name("error").unwrap().as_string::<i32>();
        assert!(error.is_null(0));
        assert_eq!(error.value(1), "invalid-URL-unit");
        let status = b
            .column_by_name("status")
            .unwrap()
            .as_primitive::<UInt16Type>();
        assert_eq!((status.value(0), status.is_null(1)), (200, true));
        let offset = b
            .column_by_name("offset")
            .unwrap()
            .as_primitive::<UInt64Type>();
        assert_eq!(offset.values().to_vec(), vec![7, 7]);
        // The columns start empty again.
        assert_eq!((c.rows(), c.bytes()), (0, 0));
        assert_eq!(c.finish().unwrap().num_rows(), 0);
    }

    #[test]
    fn bytes_count_every_string_held() {
        let mut c = LinkColumns::new();
        let long = "y".repeat(1 << 20);
        let mut f = row(Some(&long), Some(200));
        f.raw = &long;
        c.push(&f);
        assert!(c.bytes() >= 2 << 20, "{}", c.bytes());
        let b = c.finish().unwrap();
        // What the batch holds is what bytes() said, within the overhead.
        assert!(b.get_array_memory_size() >= 2 << 20);
    }
}
