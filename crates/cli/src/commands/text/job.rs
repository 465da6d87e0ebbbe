//! The text job: on a worker, whether an item is a page ([`selected`]),
//! its text extracted ([`spinneret_text::extract_owned_page`]) and
//! rendered in the output's form — a JSON line, a WET conversion record
//! (gzipped there, in parallel), the text and its line feed, or for
//! Parquet the row itself.

use std::io;
use std::path::Path;

use serde::Serialize;
use spinneret_columns::text::TextFields;
use spinneret_index::entry::sha1_base32;
use spinneret_text::{Extraction, Options, Page, extract_owned_page};
use spinneret_warc::Record;

use super::args::TextFormat;
use super::wet::{self, Conversion, Wet};
use crate::driver::Job;
use crate::inputs::Item;

/// Whether a record is a page whose text is wanted: a `response` or
/// `resource` whose payload is HTML ([`Record::is_html`]) and not empty,
/// with a 2xx HTTP status or no HTTP head (unless `any_status`).
pub fn selected(record: &Record, any_status: bool) -> bool {
    record.is_html()
        && !record.body.is_empty()
        && (any_status || record.status().is_none_or(|s| (200..300).contains(&s)))
}

/// One page's row: the fields of [`spinneret_columns::text::schema`], in
/// its order (the keys of a JSON line).
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    record_id: Option<String>,
    url: Option<String>,
    date: Option<String>,
    file: String,
    offset: u64,
    status: Option<u16>,
    content_type: Option<String>,
    encoding: &'static str,
    language: Option<&'static str>,
    language_confidence: Option<f32>,
    html_lang: Option<String>,
    content_language: Option<String>,
    title: Option<String>,
    canonical: Option<String>,
    published: Option<String>,
    page_type: &'static str,
    text: String,
}

impl Row {
    /// The row of an extraction; the rest is where the page came from.
    fn new(ex: Extraction, from: Origin<'_>) -> Row {
        let Extraction {
            text,
            metadata,
            language,
            encoding,
            page_type,
        } = ex;
        Row {
            record_id: from.record.and_then(|r| r.record_id.clone()),
            url: from.url.map(str::to_owned),
            date: from.record.and_then(|r| r.date.clone()),
            file: from.file.to_owned(),
            offset: from.record.map_or(0, |r| r.offset),
            status: from.record.and_then(Record::status),
            content_type: from
                .record
                .and_then(Record::payload_content_type)
                .map(str::to_owned),
            encoding,
            language: language.map(|l| l.code),
            // The column is 32-bit: the JSON value is the same number.
            language_confidence: language.map(|l| l.confidence as f32),
            html_lang: metadata.html_lang,
            content_language: metadata.content_language,
            title: metadata.title,
            canonical: metadata.canonical,
            published: metadata.published,
            page_type: page_type.as_str(),
            text,
        }
    }

    /// The row as the columns' borrowed fields.
    pub fn fields(&self) -> TextFields<'_> {
        TextFields {
            record_id: self.record_id.as_deref(),
            url: self.url.as_deref(),
            date: self.date.as_deref(),
            file: &self.file,
            offset: self.offset,
            status: self.status,
            content_type: self.content_type.as_deref(),
            encoding: self.encoding,
            language: self.language,
            language_confidence: self.language_confidence,
            html_lang: self.html_lang.as_deref(),
            content_language: self.content_language.as_deref(),
            title: self.title.as_deref(),
            canonical: self.canonical.as_deref(),
            published: self.published.as_deref(),
            page_type: self.page_type,
            text: &self.text,
        }
    }
}

/// Where a page came from.
#[derive(Clone, Copy)]
struct Origin<'a> {
    /// The input file's name, as given.
    file: &'a str,
    /// Its record (none for an HTML file).
    record: Option<&'a Record>,
    /// The page's URL.
    url: Option<&'a str>,
}

/// One page, rendered.
pub enum Out {
    /// The output's bytes (a JSON line, a WET record, the text).
    Bytes(Vec<u8>),
    /// A Parquet row, for the sink's batch.
    Row(Box<Row>),
}

/// One item's result.
pub enum Done {
    /// A page; `record`: it was a WARC/ARC record (not an HTML file).
    Page {
        /// Whether the page was a WARC/ARC record.
        record: bool,
        /// The page, rendered.
        out: Out,
    },
    /// A record that is not a page.
    Skipped,
    /// Damage or an unreadable input, for stderr.
    Problem {
        /// `bad record` or `cannot read`.
        what: &'static str,
        /// The message (`FILE: offset N: what`).
        msg: String,
    },
    /// The page could not be rendered (an I/O error of the encoder).
    Failed(io::Error),
}

/// The text job: what to extract and how to render it.
pub struct TextJob<'a> {
    /// What text is extracted.
    pub options: Options,
    /// The output's form.
    pub format: TextFormat,
    /// `--any-status`.
    pub any_status: bool,
    /// The WET writer (`--format wet`).
    pub wet: Option<&'a Wet>,
}

impl TextJob<'_> {
    /// A page's text, rendered; `page` says what the response said, and
    /// the payload is given away (a UTF-8 page becomes the document's
    /// text without a copy).
    fn page(&self, payload: Vec<u8>, page: &Page<'_>, from: Origin<'_>) -> Done {
        // A WET record without a record id to refer to is named by the
        // payload's digest, taken before the payload is given away.
        let digest = (self.format == TextFormat::Wet
            && from.record.and_then(|r| r.record_id.as_ref()).is_none())
        .then(|| sha1_base32(&payload));
        let ex = extract_owned_page(payload, page, &self.options);
        let row = Row::new(ex, from);
        let out = match self.format {
            TextFormat::Parquet => Ok(Out::Row(Box::new(row))),
            TextFormat::Jsonl => serde_json::to_vec(&row)
                .map(|mut line| {
                    line.push(b'\n');
                    Out::Bytes(line)
                })
                .map_err(io::Error::other),
            TextFormat::Text | TextFormat::Markdown => {
                let mut text = row.text.into_bytes();
                text.push(b'\n');
                Ok(Out::Bytes(text))
            }
            TextFormat::Wet => self
                .conversion(&row, from, digest.as_deref())
                .map(Out::Bytes),
        };
        match out {
            Ok(out) => Done::Page {
                record: from.record.is_some(),
                out,
            },
            Err(e) => Done::Failed(e),
        }
    }

    /// A page's WET conversion record; `digest` is its payload's SHA-1
    /// (base 32), where the page has no record id.
    fn conversion(&self, row: &Row, from: Origin<'_>, digest: Option<&str>) -> io::Result<Vec<u8>> {
        let Some(wet) = self.wet else {
            return Err(io::Error::other("no WET writer"));
        };
        // An HTML file without a URL is its `file:` URL in a WARC file.
        let target = match (from.record, &row.url) {
            (_, Some(u)) => Some(u.clone()),
            (None, None) => Some(wet::file_url(Path::new(from.file))),
            (Some(_), None) => None,
        };
        // What names the page for its record id: its response's id, or
        // (an ARC record, an HTML file) its URL, date and payload digest,
        // which do not depend on the file's name or the run.
        let identity = match &row.record_id {
            Some(id) => id.clone(),
            None => format!(
                "{}\n{}\n{}",
                target.as_deref().unwrap_or(""),
                row.date.as_deref().unwrap_or(""),
                digest.unwrap_or_default()
            ),
        };
        wet.conversion(&Conversion {
            target_uri: target.as_deref(),
            date: row.date.as_deref(),
            refers_to: row.record_id.as_deref(),
            identity: &identity,
            language: row.language,
            title: row.title.as_deref(),
            page_type: Some(row.page_type),
            text: &row.text,
        })
    }
}

impl Job for TextJob<'_> {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        match item {
            Item::Record {
                file, mut record, ..
            } => {
                if !selected(&record, self.any_status) {
                    return Done::Skipped;
                }
                let body = std::mem::take(&mut record.body).into_vec();
                let page = Page {
                    bytes: &[],
                    url: record.target_uri.as_deref(),
                    content_type: record.payload_content_type().map(str::as_bytes),
                    content_language: record
                        .http
                        .as_ref()
                        .and_then(|h| h.header("content-language")),
                };
                let from = Origin {
                    file: &file,
                    record: Some(&record),
                    url: record.target_uri.as_deref(),
                };
                self.page(body, &page, from)
            }
            Item::Page { file, url, body } => {
                let url = Some(url.as_str()).filter(|u| !u.is_empty());
                let page = Page {
                    url,
                    ..Page::new(&[])
                };
                let from = Origin {
                    file: &file,
                    record: None,
                    url,
                };
                self.page(body, &page, from)
            }
            Item::Bad { file, offset, what } => Done::Problem {
                what: "bad record",
                // A RecordError's message starts with "offset N: ".
                msg: match offset {
                    Some(o) if !what.starts_with("offset ") => {
                        format!("{file}: offset {o}: {what}")
                    }
                    _ => format!("{file}: {what}"),
                },
            },
            Item::Unreadable { file, what } => Done::Problem {
                what: "cannot read",
                msg: format!("{file}: {what}"),
            },
        }
    }
}
