//! One work item to an [`Outcome`]: the rendered output lines and what the
//! statistics need. Pure (no I/O), so items are processed in parallel and
//! the outcomes written in input order.
//!
//! Which records give links:
//! - `response`/`resource` for which `Record::is_html()` holds: the page,
//!   with the HTTP `Content-Type`, `Location` (3xx only) and `Link` headers;
//! - other `response`/`resource` records that carry a `Location` (3xx) or a
//!   `Link` header: the header links only (counted as `header_only`);
//! - a WAT's `metadata` record (JSON) of a page: the URLs the WAT names
//!   (`wat.rs`);
//! - every other type (`revisit`, `request`, `metadata`, `warcinfo`, …) is
//!   counted and skipped.
//!
//! A record whose `WARC-Target-URI` is missing or not a URL cannot have its
//! links resolved: it is counted (`records_without_url`) and skipped.
//!
//! Invariant: never panics; every link handed over by `extract` becomes one
//! line (before `--unique`, which the writer applies in order).

use spinneret_canon::{Canonicalizer, KeyForm, KeyHash, Profile};
use spinneret_columns::{LinkColumns, LinkFields};
use std::cell::RefCell;

use spinneret_extract::{Extractor, Headers, KindCounts, Link};
use spinneret_url::Url;
use spinneret_warc::{Record, RecordType};

use super::args::Format;
use super::format::{LinkRow, PageJson, Spill};
use super::wat::{self, WatItem};
use crate::driver::Job;
use crate::inputs::Item;

/// Where [`process`] puts the rendered lines (or, for `--format parquet`,
/// the rows) of an item: [`Lines`] keeps them for the writer, a streaming
/// writer writes each at once.
pub trait LineOut {
    /// The buffer the next line is rendered into (appended to), or `None`
    /// when the lines (or rows) are no longer wanted (the item went over
    /// its budget, or the output is closed).
    fn buffer(&mut self) -> Option<&mut String>;
    /// The line just rendered into [`LineOut::buffer`] is complete; `key`
    /// is its `--unique` key (computed only with `--unique`).
    fn end_line(&mut self, key: Option<KeyHash>);
    /// A page of `payload` bytes is about to be rendered.
    fn page(&mut self, payload: usize) {
        let _ = payload;
    }
    /// A line too long to hold whole ([`SPILL_ROW`]): a writer renders it
    /// with `render`, passing it on to the output as it is made (`key` is
    /// its `--unique` key); an out that keeps its lines drops them and
    /// marks the item for the writer.
    fn spill(&mut self, key: Option<KeyHash>, render: &mut dyn FnMut(&mut Spill<'_>));
    /// A row of a columnar output (`--format parquet`), instead of a line;
    /// `key` is its `--unique` key.
    fn row(&mut self, fields: &LinkFields<'_>, key: Option<KeyHash>);
}

/// A link whose `raw` and `target` together pass this many bytes is
/// rendered through [`LineOut::spill`]: a writer does not hold its whole
/// line (a 50 MB link is a 100 MB line).
pub const SPILL_ROW: usize = 1 << 20;

/// The least render budget of an item (see [`Lines::over_budget`]).
pub const MIN_RENDER_BUDGET: usize = 1 << 20;

/// The output lines of one item, rendered into one text (one allocation
/// per page, not one per link), up to a budget; for `--format parquet`,
/// its rows as Arrow columns instead.
///
/// Budget: an item's lines (or columns) are kept while their text is at most
/// [`Lines::budget_for`] its payload (twice its size, at least
/// [`MIN_RENDER_BUDGET`]); past that they are dropped and
/// [`Lines::over_budget`] is set, and the writer renders the item again,
/// streaming each line out (`super::sink::StreamOut`). So one page with a million links
/// does not hold its whole rendered output (nine times the page, in JSON
/// Lines) in memory.
#[derive(Debug, Default)]
pub struct Lines {
    /// Every line, each ending in a line feed.
    pub text: String,
    /// Where each line ends in `text`, with its `--unique` key (computed
    /// only with `--unique`).
    pub ends: Vec<LineEnd>,
    /// The rows of a columnar output (`--format parquet`); `None` until
    /// the first.
    pub columns: Option<LinkColumns>,
    /// The `--unique` key of each row of `columns` (with `--unique` only).
    pub keys: Vec<KeyHash>,
    /// The most bytes `text` (or `columns`) may hold.
    budget: usize,
    /// The lines went over the budget and were dropped.
    pub over_budget: bool,
}

/// The end of one line of [`Lines`].
#[derive(Debug, Clone, Copy)]
pub struct LineEnd {
    /// The line's `--unique` key, when `--unique` is on.
    pub key: Option<KeyHash>,
    /// The byte offset just past the line's newline in the text.
    pub end: usize,
}

impl Lines {
    /// No lines, with the budget for an item of `payload` bytes.
    pub fn with_budget_for(payload: usize) -> Lines {
        Lines {
            budget: Lines::budget_for(payload),
            ..Lines::default()
        }
    }

    /// The render budget of an item of `payload` bytes, in bytes of text.
    pub fn budget_for(payload: usize) -> usize {
        payload.saturating_mul(2).max(MIN_RENDER_BUDGET)
    }

    /// The lines, with their keys.
    pub fn iter(&self) -> impl Iterator<Item = (Option<KeyHash>, &str)> + '_ {
        let mut start = 0;
        self.ends.iter().map(move |e| {
            let line = &self.text[start..e.end];
            start = e.end;
            (e.key, line)
        })
    }
}

impl Lines {
    /// Drops the lines: the item is rendered again by the writer.
    fn drop_lines(&mut self) {
        self.over_budget = true;
        self.text = String::new();
        self.ends = Vec::new();
        self.columns = None;
        self.keys = Vec::new();
    }
}

impl LineOut for Lines {
    fn page(&mut self, payload: usize) {
        // The rendered lines are about as long as the page (JSON Lines:
        // 31.6 MB for 44 MB of HTML on a 300-record WARC, but more than the
        // page for 43 % of pages and more than 1.5 times it for 10 %): room
        // for twice the page up front spares most of the doublings that
        // copied the text again (4 % of the pipeline's instructions in
        // all). Untouched capacity costs no memory.
        self.text
            .reserve(payload.saturating_mul(2).min(self.budget));
    }

    fn buffer(&mut self) -> Option<&mut String> {
        (!self.over_budget).then_some(&mut self.text)
    }

    fn end_line(&mut self, key: Option<KeyHash>) {
        if self.text.len() > self.budget {
            self.drop_lines();
            return;
        }
        self.ends.push(LineEnd {
            key,
            end: self.text.len(),
        });
    }

    fn spill(&mut self, _: Option<KeyHash>, _: &mut dyn FnMut(&mut Spill<'_>)) {
        // The writer renders the item again, streaming.
        self.drop_lines();
    }

    fn row(&mut self, fields: &LinkFields<'_>, key: Option<KeyHash>) {
        if self.over_budget {
            return;
        }
        let columns = self.columns.get_or_insert_with(LinkColumns::new);
        columns.push(fields);
        if columns.bytes() > self.budget {
            self.drop_lines();
            return;
        }
        self.keys.extend(key);
    }
}

/// What one HTML page gave.
#[derive(Debug, Clone)]
pub struct PageStats {
    /// Links found (header links included).
    pub links: usize,
    /// Links found, by kind.
    pub by_kind: KindCounts,
    /// Links whose target does not parse.
    pub failures: usize,
    /// Links whose target does not parse, by kind.
    pub failures_by_kind: KindCounts,
    /// The step that decided the encoding (`Step::as_str`).
    pub step: &'static str,
    /// The encoding's name (WHATWG Encoding Standard).
    pub encoding: &'static str,
    /// Whether a late `<meta>` asked to change the encoding (switch or
    /// reparse).
    pub encoding_changed: bool,
    /// Whether that change re-decoded and re-scanned the page.
    pub restarted: bool,
}

/// How an item was classified.
#[derive(Debug)]
pub enum Class {
    /// An HTML page (record or file).
    Html(PageStats),
    /// A non-HTML record with header links only.
    HeaderOnly(PageStats),
    /// A processed record that is not HTML and has no header links.
    NonHtml,
    /// A record type that is not processed.
    Skipped,
    /// A record without a usable target URI.
    NoUrl,
    /// A bad record or page: the message for stderr.
    Bad(String),
    /// An input that could not be read at all: the message for stderr.
    Unreadable(String),
}

/// The result of one item.
#[derive(Debug)]
pub struct Outcome {
    /// The record type name, `html-file` for an HTML file, `bad` for
    /// damage.
    pub record_type: &'static str,
    /// What the item gave.
    pub class: Class,
    /// Whether the payload could only be partly decoded.
    pub body_error: bool,
    /// The item's rendered output lines.
    pub lines: Lines,
}

/// Where a page came from, for its rows.
#[derive(Debug, Clone, Copy)]
pub struct Origin<'a> {
    /// `FILE:OFFSET` of its record, or `FILE:0` for an HTML file.
    pub id: &'a str,
    /// The record's offset in its file (0 for an HTML file).
    pub offset: u64,
    /// The record's HTTP status, when it has an HTTP head.
    pub status: Option<u16>,
}

/// Output settings every item needs.
#[derive(Debug, Clone, Copy)]
pub struct Render<'p> {
    /// The output format.
    pub format: Format,
    /// Whether lines carry `--unique` keys.
    pub unique: bool,
    /// The canonicalization profile of targets; `None` for plain WHATWG
    /// serialization (the `whatwg` profile).
    pub canon: Option<&'p Profile>,
}

thread_local! {
    /// Each worker thread's extractor: its buffers are kept from page to
    /// page.
    static EXTRACTOR: RefCell<Extractor> = RefCell::new(Extractor::new());
}

/// What renders a page's links into rows: the page and its output
/// settings.
struct Emit<'a> {
    source: &'a str,
    record: &'a str,
    page_json: PageJson,
    canon: Option<Canonicalizer>,
    render: Render<'a>,
    origin: Origin<'a>,
}

impl<'a> Emit<'a> {
    fn new(source: &'a str, origin: Origin<'a>, render: Render<'a>) -> Emit<'a> {
        Emit {
            source,
            record: origin.id,
            page_json: PageJson::new(source, origin.id),
            canon: render.canon.map(|p| Canonicalizer::new(p.clone())),
            render,
            origin,
        }
    }

    /// Hands link `l`'s line (or row) to `out`.
    fn link(&mut self, l: &Link<'_>, out: &mut dyn LineOut) {
        let (source, record, render) = (self.source, self.record, self.render);
        let mut canonical = None;
        let Some(format) = render.format.lines() else {
            // A columnar output: the row's values are copied into the
            // columns (no line to spill).
            if out.buffer().is_some() {
                let (row, key) =
                    link_row(l, source, record, &mut self.canon, render, &mut canonical);
                out.row(&row.fields(self.origin.offset, self.origin.status), key);
            }
            return;
        };
        let target_len = l.target.as_ref().map_or(0, |u| u.href().len());
        if l.raw.len() + target_len > SPILL_ROW {
            // A line too long to hold whole (canonicalization does not
            // make a URL much shorter).
            let (row, key) = link_row(l, source, record, &mut self.canon, render, &mut canonical);
            let page_json = &self.page_json;
            out.spill(key, &mut |spill| {
                row.write(format, Some(page_json), spill);
            });
            return;
        }
        let Some(text) = out.buffer() else {
            return;
        };
        let (row, key) = link_row(l, source, record, &mut self.canon, render, &mut canonical);
        row.write(format, Some(&self.page_json), text);
        out.end_line(key);
    }
}

fn run_extract(
    body: &[u8],
    page: &Url,
    headers: &Headers<'_>,
    origin: Origin<'_>,
    render: Render<'_>,
    out: &mut dyn LineOut,
) -> PageStats {
    let mut emit = Emit::new(page.href(), origin, render);
    if render.format.lines().is_some() {
        out.page(body.len());
    }
    let mut extractor = EXTRACTOR.with_borrow_mut(std::mem::take);
    let s = extractor.extract(body, page, headers, |l| emit.link(&l, out));
    EXTRACTOR.set(extractor);
    PageStats {
        links: s.links,
        by_kind: s.by_kind,
        failures: s.failures,
        failures_by_kind: s.failures_by_kind,
        step: s.encoding.step.as_str(),
        encoding: s.encoding.encoding.name(),
        encoding_changed: matches!(
            s.encoding_change,
            Some(
                spinneret_encoding::Change::SwitchInPlace(_)
                    | spinneret_encoding::Change::Reparse(_)
            )
        ),
        restarted: s.restarted,
    }
}

/// The rows of a WAT record's page ([`wat::wat_links`]), and its class.
fn run_wat(file: &str, record: &Record, render: Render<'_>, out: &mut dyn LineOut) -> Class {
    let page = match wat::wat_links(record) {
        WatItem::Page(page) => page,
        WatItem::NotAPage => return Class::Skipped,
        WatItem::NoUrl => return Class::NoUrl,
        WatItem::Bad(e) => return Class::Bad(format!("{file}: offset {}: {e}", record.offset)),
    };
    let id = format!("{file}:{}", record.offset);
    let origin = Origin {
        id: &id,
        offset: record.offset,
        status: page.status,
    };
    let mut emit = Emit::new(page.url.href(), origin, render);
    if render.format.lines().is_some() {
        out.page(record.body.len());
    }
    let mut stats = PageStats {
        links: 0,
        by_kind: KindCounts::default(),
        failures: 0,
        failures_by_kind: KindCounts::default(),
        step: "wat",
        encoding: "UTF-8",
        encoding_changed: false,
        restarted: false,
    };
    for link in &page.links {
        let l = link.as_link();
        stats.links += 1;
        stats.by_kind.0[l.kind as usize] += 1;
        if l.target.is_err() {
            stats.failures += 1;
            stats.failures_by_kind.0[l.kind as usize] += 1;
        }
        emit.link(&l, out);
    }
    if page.html {
        Class::Html(stats)
    } else if stats.links > 0 {
        Class::HeaderOnly(stats)
    } else {
        Class::NonHtml
    }
}

/// The row of link `l`, with its target canonicalized when a profile
/// other than `whatwg` is on (into `canonical`, when that changes it), and
/// its `--unique` key when `--unique` is on.
#[inline(always)]
fn link_row<'a>(
    l: &'a Link<'_>,
    source: &'a str,
    record: &'a str,
    canon: &mut Option<Canonicalizer>,
    render: Render<'_>,
    canonical: &'a mut Option<String>,
) -> (LinkRow<'a>, Option<KeyHash>) {
    let mut row = LinkRow::new(l, source, record);
    // A target a rule cannot canonicalize stays as WHATWG serialized it.
    // Copied (out of the canonicalizer, which the key needs next) only when
    // it differs from the serialization: no copy for most links, and not a
    // second copy of a 50 MB URL.
    *canonical = match (&mut *canon, &l.target) {
        (Some(c), Ok(url)) => c
            .canonicalize_url(url)
            .ok()
            .filter(|t| *t != url.href())
            .map(str::to_owned),
        _ => None,
    };
    if canonical.is_some() {
        row.target = canonical.as_deref();
    }
    let key = render.unique.then(|| match (canon, row.target) {
        (Some(c), Some(t)) if c.profile().key != KeyForm::Url => {
            c.key_hash(t).unwrap_or_else(|_| KeyHash::of(t))
        }
        (_, Some(t)) => KeyHash::of(t),
        (_, None) => row.raw_key(),
    });
    (row, key)
}

/// The HTTP headers `extract` uses, from a record.
fn headers(record: &Record) -> Headers<'_> {
    let h = record.link_headers();
    Headers {
        content_type: h.content_type,
        location: h.location,
        link: h.link,
    }
}

/// Processes one item, keeping its rendered lines within their budget
/// ([`Lines`]).
pub fn process(item: &Item, render: Render<'_>) -> Outcome {
    let mut lines = Lines::with_budget_for(item.weight());
    let (record_type, class, body_error) = process_into(item, render, &mut lines);
    Outcome {
        record_type,
        class,
        body_error,
        lines,
    }
}

/// Processes one item, handing each rendered line to `out`: its record
/// type, class and whether its body was damaged.
pub fn process_into(
    item: &Item,
    render: Render<'_>,
    out: &mut dyn LineOut,
) -> (&'static str, Class, bool) {
    match item {
        Item::Unreadable { file, what } => (
            "unreadable",
            Class::Unreadable(format!("{file}: {what}")),
            false,
        ),
        Item::Bad { file, offset, what } => (
            "bad",
            // A RecordError's message starts with "offset N: ".
            Class::Bad(match offset {
                Some(o) if !what.starts_with("offset ") => format!("{file}: offset {o}: {what}"),
                _ => format!("{file}: {what}"),
            }),
            false,
        ),
        Item::Page { file, url, body } => {
            let id = format!("{file}:0");
            let origin = Origin {
                id: &id,
                offset: 0,
                status: None,
            };
            let class = match Url::parse(url) {
                Ok(page) => Class::Html(run_extract(
                    body,
                    &page,
                    &Headers::default(),
                    origin,
                    render,
                    out,
                )),
                Err(e) => Class::Bad(format!("{file}: page URL {url:?}: {e}")),
            };
            ("html-file", class, false)
        }
        Item::Record { file, record, .. } => {
            let kind = record.kind;
            let body_error = record.body_error.is_some();
            let class = if kind == RecordType::Metadata && !record.body.is_empty() {
                run_wat(file, record, render, out)
            } else if !matches!(kind, RecordType::Response | RecordType::Resource) {
                Class::Skipped
            } else {
                let h = headers(record);
                let html = record.is_html();
                if !html && h.location.is_none() && h.link.is_empty() {
                    Class::NonHtml
                } else {
                    match record.target_uri.as_deref().map(|u| Url::parse(u.trim())) {
                        Some(Ok(page)) => {
                            let id = format!("{file}:{}", record.offset);
                            let origin = Origin {
                                id: &id,
                                offset: record.offset,
                                status: record.http.as_ref().map(|h| h.status),
                            };
                            if html {
                                Class::Html(run_extract(
                                    &record.body,
                                    &page,
                                    &h,
                                    origin,
                                    render,
                                    out,
                                ))
                            } else {
                                let h = Headers {
                                    content_type: Vec::new(),
                                    ..h
                                };
                                Class::HeaderOnly(run_extract(b"", &page, &h, origin, render, out))
                            }
                        }
                        _ => Class::NoUrl,
                    }
                }
            };
            (kind.name(), class, body_error)
        }
    }
}

/// An item with more payload bytes than this is processed by the writing
/// thread, its lines streamed out, instead of by the pool.
pub const STREAM_PAYLOAD: usize = 8 << 20;

/// The links job: each item's outcome, and the item itself when the writer
/// is to process it (again), streaming — no outcome for an item over
/// [`STREAM_PAYLOAD`], an outcome without lines for one whose lines went
/// over their budget.
pub struct LinksJob<'r> {
    /// How its lines are rendered.
    pub render: Render<'r>,
}

/// One item's result: its outcome, and the item when the writer processes
/// it (again).
pub type Done = (Option<Outcome>, Option<Item>);

impl Job for LinksJob<'_> {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        if item.weight() > STREAM_PAYLOAD {
            return (None, Some(item));
        }
        let o = process(&item, self.render);
        let again = o.lines.over_budget.then_some(item);
        (Some(o), again)
    }
}
