//! Pages' text as Arrow record batches: the one schema ([`schema`]) and
//! batch builder ([`TextColumns`]) of `spinneret text --format parquet`
//! and the Python package's `warc_text`, so that a table written by one
//! reads as the other's (and as the `jsonl` rows, which have the same
//! fields).
//!
//! Columns, in order: `record_id` (the response's `WARC-Record-ID`),
//! `url` (`WARC-Target-URI`, or the page's URL), `date` (`WARC-Date`),
//! `file` and `offset` (where the record is: its file and byte offset;
//! 0 for an HTML file), `status` (HTTP), `content_type` (the HTTP
//! `Content-Type` as sent), `encoding` (the one the page was decoded
//! with), `language` (detected, ISO 639-3), `language_confidence`,
//! `html_lang`, `content_language`, `title`, `canonical`, `published`,
//! `page_type` (`article`, `forum`, `product`, `collection`, `listing`,
//! `documentation`, `service`) and `text`. All are nullable but `file`,
//! `offset`, `encoding`, `page_type` and `text`.
//!
//! Invariants: every batch [`TextColumns::finish`] makes has [`schema`]'s
//! fields; [`TextColumns::bytes`] never undercounts the strings held.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{Float32Builder, StringBuilder, UInt16Builder, UInt64Builder};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef};

/// The text rows' schema (shared: built once).
pub fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
            Arc::new(Schema::new(vec![
                text("record_id", true),
                text("url", true),
                text("date", true),
                text("file", false),
                Field::new("offset", DataType::UInt64, false),
                Field::new("status", DataType::UInt16, true),
                text("content_type", true),
                text("encoding", false),
                text("language", true),
                Field::new("language_confidence", DataType::Float32, true),
                text("html_lang", true),
                text("content_language", true),
                text("title", true),
                text("canonical", true),
                text("published", true),
                text("page_type", false),
                text("text", false),
            ]))
        })
        .clone()
}

/// One page's row, borrowed: the values of [`schema`]'s columns.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextFields<'a> {
    /// The response record's `WARC-Record-ID`.
    pub record_id: Option<&'a str>,
    /// The page's URL.
    pub url: Option<&'a str>,
    /// The record's `WARC-Date`.
    pub date: Option<&'a str>,
    /// The file the page came from.
    pub file: &'a str,
    /// The record's byte offset in its file (0 for an HTML file).
    pub offset: u64,
    /// The HTTP status.
    pub status: Option<u16>,
    /// The HTTP `Content-Type`, as sent.
    pub content_type: Option<&'a str>,
    /// The encoding the page was decoded with (WHATWG name).
    pub encoding: &'a str,
    /// The detected language (ISO 639-3).
    pub language: Option<&'a str>,
    /// The detector's confidence, 0 to 1.
    pub language_confidence: Option<f32>,
    /// `<html lang>`.
    pub html_lang: Option<&'a str>,
    /// The HTTP `Content-Language`, else `<meta http-equiv>`'s.
    pub content_language: Option<&'a str>,
    /// The document's title.
    pub title: Option<&'a str>,
    /// The canonical URL, resolved.
    pub canonical: Option<&'a str>,
    /// The declared publication date, as written.
    pub published: Option<&'a str>,
    /// The page's type (`spinneret_text::PageType`'s name).
    pub page_type: &'a str,
    /// The text.
    pub text: &'a str,
}

/// Bytes a row costs besides its strings: a 4-byte offset per string
/// column, the offset, status and confidence values, validity bits.
const ROW_OVERHEAD: usize = 14 * 4 + 8 + 2 + 4 + 2;

/// The columns of a batch being filled.
pub struct TextColumns {
    strings: [StringBuilder; 14],
    offset: UInt64Builder,
    status: UInt16Builder,
    confidence: Float32Builder,
    rows: usize,
    bytes: usize,
}

impl Default for TextColumns {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for TextColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextColumns")
            .field("rows", &self.rows)
            .field("bytes", &self.bytes)
            .finish_non_exhaustive()
    }
}

impl TextColumns {
    /// No rows.
    pub fn new() -> Self {
        TextColumns {
            strings: std::array::from_fn(|_| StringBuilder::new()),
            offset: UInt64Builder::new(),
            status: UInt16Builder::new(),
            confidence: Float32Builder::new(),
            rows: 0,
            bytes: 0,
        }
    }

    /// Appends one row.
    pub fn push(&mut self, f: &TextFields<'_>) {
        let before: [Option<&str>; 4] = [f.record_id, f.url, f.date, Some(f.file)];
        let after: [Option<&str>; 10] = [
            f.content_type,
            Some(f.encoding),
            f.language,
            f.html_lang,
            f.content_language,
            f.title,
            f.canonical,
            f.published,
            Some(f.page_type),
            Some(f.text),
        ];
        self.bytes += ROW_OVERHEAD;
        for (builder, value) in self.strings.iter_mut().zip(before.iter().chain(&after)) {
            self.bytes += value.map_or(0, str::len);
            builder.append_option(*value);
        }
        self.offset.append_value(f.offset);
        self.status.append_option(f.status);
        self.confidence.append_option(f.language_confidence);
        self.rows += 1;
    }

    /// The rows appended since the last [`finish`](Self::finish).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The bytes those rows hold (strings and per-row overhead).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The rows so far as a batch of [`schema`]; the columns start empty
    /// again.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        self.bytes = 0;
        let mut s = self
            .strings
            .iter_mut()
            .map(|b| Arc::new(b.finish()) as ArrayRef);
        let mut next = || s.next().expect("14 string columns");
        let (record_id, url, date, file) = (next(), next(), next(), next());
        let (content_type, encoding, language) = (next(), next(), next());
        let (html_lang, content_language, title) = (next(), next(), next());
        let (canonical, published, page_type, text) = (next(), next(), next(), next());
        let columns: Vec<ArrayRef> = vec![
            record_id,
            url,
            date,
            file,
            Arc::new(self.offset.finish()),
            Arc::new(self.status.finish()),
            content_type,
            encoding,
            language,
            Arc::new(self.confidence.finish()),
            html_lang,
            content_language,
            title,
            canonical,
            published,
            page_type,
            text,
        ];
        RecordBatch::try_new(schema(), columns)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_array::Array;
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float32Type, UInt64Type};

    #[test]
    fn rows_become_a_batch_of_the_schema() {
        let mut c = TextColumns::new();
        c.push(&TextFields {
            record_id: Some("<urn:uuid:1>"),
            url: Some("https://a.example/"),
            file: "f.warc.gz",
            offset: 9,
            encoding: "UTF-8",
            language: Some("eng"),
            language_confidence: Some(0.5),
            title: Some("T"),
            page_type: "listing",
            text: "Hello",
            ..TextFields::default()
        });
        c.push(&TextFields {
            file: "p.html",
            encoding: "windows-1252",
            text: "",
            ..TextFields::default()
        });
        assert_eq!(c.rows(), 2);
        assert!(c.bytes() > "Hello".len());
        let b = c.finish().unwrap();
        assert_eq!(b.schema(), schema());
        let col = |n: &str| b.column_by_name(n).unwrap().clone();
        assert_eq!(col("record_id").as_string::<i32>().value(0), "<urn:uuid:1>");
        assert!(col("record_id").is_null(1));
        assert_eq!(col("file").as_string::<i32>().value(1), "p.html");
        assert_eq!(col("encoding").as_string::<i32>().value(1), "windows-1252");
        assert_eq!(col("text").as_string::<i32>().value(0), "Hello");
        assert_eq!(col("title").as_string::<i32>().value(0), "T");
        assert_eq!(col("page_type").as_string::<i32>().value(0), "listing");
        assert_eq!(col("offset").as_primitive::<UInt64Type>().value(0), 9);
        assert_eq!(
            col("language_confidence")
                .as_primitive::<Float32Type>()
                .value(0),
            0.5
        );
        assert!(col("status").is_null(0));
        assert_eq!((c.rows(), c.bytes()), (0, 0));
    }
}
