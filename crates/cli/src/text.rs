//! `spinneret text`: the readable text of a crawl's HTML pages — the
//! whole page or its main content, plain or Markdown (through
//! `spinneret-text`) — as JSON Lines, Common Crawl's WET ([`wet`]),
//! Parquet, or the bare text.
//!
//! On the [`driver`]: the workers take each item, decide whether it is a
//! page ([`selected`]: an HTML `response` or `resource` with a 2xx status
//! or no HTTP head, and a payload; every HTML file), extract its text
//! with [`spinneret_text::extract_owned_page`] and render it in the output's
//! form — a JSON line, a WET conversion record (gzipped there, in
//! parallel), the text and its line feed, or for Parquet the row itself;
//! the sink writes them in input order (a `warcinfo` record first for
//! WET; a form feed line between pages of `--format text`; the rows into
//! Arrow batches and a Parquet file of
//! [`spinneret_columns::text::schema`]).
//!
//! A damaged record is reported (`file: offset N: what`) and skipped, the
//! rest written, and the exit code is 1, as for an input that cannot be
//! read; with `--strict` the run stops at either (exit code 2). A closed
//! output pipe stops the run quietly.
//!
//! Invariant: the output depends only on the inputs and the options
//! (and, for WET, the date), never on `--threads`.

pub mod wet;

use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use serde::Serialize;
use spinneret_columns::text::{TextColumns, TextFields};
use spinneret_index::entry::sha1_base32;
use spinneret_text::{Extraction, Options, Page, extract_owned_page};
use spinneret_warc::Record;

use crate::Error;
use crate::args::{TextArgs, TextFormat};
use crate::columnar::{self, BatchWriter, ParquetOutError, STREAM_BATCH_BYTES};
use crate::driver::{self, Drive, Flow, Job, Report, Sink, Status};
use crate::input::{self, Inputs, Item};
use wet::{Conversion, WarcDate, Wet};

/// A Parquet row group ends once its encoded size passes this: rows of
/// text are long, and the writer holds a row group in memory.
pub const ROW_GROUP_BYTES: usize = 64 << 20;

/// Rows are handed to the Parquet writer in batches of at most this many.
const BATCH_ROWS: usize = 4096;

/// The line between two pages of `--format text` and `markdown`.
const PAGE_SEPARATOR: &[u8] = b"\x0c\n";

/// Whether a record is a page whose text is wanted: a `response` or
/// `resource` whose payload is HTML ([`Record::is_html`]) and not empty,
/// with a 2xx HTTP status or no HTTP head (unless `any_status`).
pub fn selected(record: &Record, any_status: bool) -> bool {
    record.is_html()
        && !record.body.is_empty()
        && (any_status || record.status().is_none_or(|s| (200..300).contains(&s)))
}

/// The result of a text run.
#[derive(Debug, Clone, Copy)]
pub struct TextResult {
    /// How the run ended.
    pub status: Status,
    /// WARC/ARC records read (damaged ones not included).
    pub records: u64,
    /// Pages written (selected records and HTML files).
    pub pages: u64,
    /// Records skipped: not HTML, no payload, another status or type.
    pub skipped: u64,
    /// Damaged records (and HTML files over the size limit), skipped.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
}

impl TextResult {
    /// 2 for a strict stop; 1 when a record was damaged or an input
    /// unreadable; else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Strict => 2,
            _ if self.damaged + self.unreadable > 0 => 1,
            _ => 0,
        }
    }
}

/// One page's row: the fields of [`spinneret_columns::text::schema`], in
/// its order (the keys of a JSON line).
#[derive(Debug, Clone, Serialize)]
struct Row {
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
            text,
        }
    }

    /// The row as the columns' borrowed fields.
    fn fields(&self) -> TextFields<'_> {
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
enum Out {
    /// The output's bytes (a JSON line, a WET record, the text).
    Bytes(Vec<u8>),
    /// A Parquet row, for the sink's batch.
    Row(Box<Row>),
}

/// One item's result.
enum Done {
    /// A page; `record`: it was a WARC/ARC record (not an HTML file).
    Page { record: bool, out: Out },
    /// A record that is not a page.
    Skipped,
    /// Damage or an unreadable input, for stderr.
    Problem { what: &'static str, msg: String },
    /// The page could not be rendered (an I/O error of the encoder).
    Failed(io::Error),
}

struct TextJob<'a> {
    options: Options,
    format: TextFormat,
    any_status: bool,
    wet: Option<&'a Wet>,
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

struct TextSink<'a, 'o> {
    format: TextFormat,
    w: BufWriter<&'o mut dyn Write>,
    /// The WET file's warcinfo record (`--format wet`).
    warcinfo: Option<Vec<u8>>,
    /// The rows being batched and the Parquet file (`--format parquet`).
    parquet: Option<(TextColumns, BatchWriter)>,
    result: &'a mut TextResult,
}

impl TextSink<'_, '_> {
    /// Writes the rows held as a batch.
    fn write_batch(&mut self) -> Result<bool, Error> {
        let Some((cols, writer)) = &mut self.parquet else {
            return Ok(true);
        };
        if cols.rows() == 0 {
            return Ok(true);
        }
        let batch = cols
            .finish()
            .map_err(|e| Error::Parquet(ParquetOutError::Arrow(e)))?;
        columnar::parquet_written(writer.write(&batch, &mut self.w))
    }
}

impl Sink<Done> for TextSink<'_, '_> {
    fn begin(&mut self) -> Result<Flow, Error> {
        match self.warcinfo.take() {
            Some(info) => Ok(driver::open_flow(driver::write_bytes(&mut self.w, &info)?)),
            None => Ok(Flow::Go),
        }
    }

    fn write(&mut self, done: Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        let out = match done {
            Done::Skipped => {
                self.result.records += 1;
                self.result.skipped += 1;
                return Ok(Flow::Go);
            }
            Done::Problem { what, msg } => {
                if what == "cannot read" {
                    self.result.unreadable += 1;
                } else {
                    self.result.damaged += 1;
                }
                return Ok(report.problem(what, &msg));
            }
            Done::Failed(e) => return Err(Error::Output(e)),
            Done::Page { record, out } => {
                self.result.records += u64::from(record);
                out
            }
        };
        let first = self.result.pages == 0;
        self.result.pages += 1;
        match out {
            Out::Bytes(bytes) => {
                if !first
                    && matches!(self.format, TextFormat::Text | TextFormat::Markdown)
                    && !driver::write_bytes(&mut self.w, PAGE_SEPARATOR)?
                {
                    return Ok(Flow::Stop(Status::OutputClosed));
                }
                Ok(driver::open_flow(driver::write_bytes(&mut self.w, &bytes)?))
            }
            Out::Row(row) => {
                let Some((cols, _)) = &mut self.parquet else {
                    return Ok(Flow::Go);
                };
                cols.push(&row.fields());
                if cols.rows() >= BATCH_ROWS || cols.bytes() >= STREAM_BATCH_BYTES {
                    return Ok(driver::open_flow(self.write_batch()?));
                }
                Ok(Flow::Go)
            }
        }
    }

    fn progress(&self, secs: f64) -> Option<String> {
        Some(format!("{:.0} pages/s", self.result.pages as f64 / secs))
    }
}

/// What the warcinfo says of the records taken.
fn records_taken(any_status: bool) -> &'static str {
    if any_status {
        "HTML responses and resources of any HTTP status"
    } else {
        "HTML responses and resources with a 2xx HTTP status or none"
    }
}

/// Runs `spinneret text`: the output to `out`, problems and the summary
/// to `diag`, a progress bar on stderr when `progress`.
pub fn run(
    args: &TextArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<TextResult, Error> {
    let start = Instant::now();
    if let Some(why) = args.conflicts() {
        return Err(Error::Usage(why));
    }
    let sources = input::resolve_inputs(&Inputs {
        inputs: &args.inputs,
        sniff: args.sniff,
        html: args.html.as_deref(),
        url: args.url.as_deref(),
        manifest: args.manifest.as_deref(),
        dir: args.dir.as_deref(),
    })?;
    let options = Options {
        main_content: args.main_content,
        format: args.text_format(),
        links: args.links,
    };
    let wet = (args.format == TextFormat::Wet).then(|| {
        Wet::new(
            options,
            args.gzip(),
            args.date.unwrap_or_else(WarcDate::now),
            records_taken(args.any_status),
        )
    });
    let warcinfo = match &wet {
        Some(w) => {
            let name = args
                .output
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            Some(w.warcinfo(name.as_deref()).map_err(Error::Output)?)
        }
        None => None,
    };
    let parquet = match args.format {
        TextFormat::Parquet => Some((
            TextColumns::new(),
            BatchWriter::with_row_group_bytes(
                spinneret_columns::text::schema(),
                Some(ROW_GROUP_BYTES),
            )
            .map_err(Error::Parquet)?,
        )),
        _ => None,
    };
    let how = Drive {
        threads: args.threads,
        batch: 256,
        opts: spinneret_warc::Options {
            max_record_size: args.max_record_size,
            ..spinneret_warc::Options::default()
        },
        strict: args.strict,
        progress,
    };
    let job = TextJob {
        options,
        format: args.format,
        any_status: args.any_status,
        wet: wet.as_ref(),
    };
    let mut result = TextResult {
        status: Status::Complete,
        records: 0,
        pages: 0,
        skipped: 0,
        damaged: 0,
        unreadable: 0,
    };
    let mut sink = TextSink {
        format: args.format,
        w: BufWriter::with_capacity(1 << 16, out),
        warcinfo,
        parquet,
        result: &mut result,
    };
    let driven = driver::drive(&sources, &job, &mut sink, &how, diag)?;
    let mut status = driven.status;
    if status != Status::OutputClosed && !sink.write_batch()? {
        status = Status::OutputClosed;
    }
    let TextSink { mut w, parquet, .. } = sink;
    if status != Status::OutputClosed
        && let Some((_, writer)) = parquet
        && !columnar::parquet_written(writer.finish(&mut w))?
    {
        status = Status::OutputClosed;
    }
    if status != Status::OutputClosed {
        match w.flush() {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status = Status::OutputClosed,
            Err(e) => return Err(Error::Output(e)),
        }
    }
    result.status = status;
    let _ = writeln!(
        diag,
        "spinneret text: {} records, {} pages, {} skipped, {} damaged, {} unreadable inputs, {:.1} MB in {:.2} s",
        result.records,
        result.pages,
        result.skipped,
        result.damaged,
        result.unreadable,
        driven.bytes as f64 / 1e6,
        start.elapsed().as_secs_f64()
    );
    Ok(result)
}
