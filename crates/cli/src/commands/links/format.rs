//! Rendering of one link as a line (JSON Lines or TSV) and `--unique`.
//!
//! Fields, in this order: `source` (the page URL), `target` (the resolved
//! URL, or null), `error` (the URL Standard's name of the failure, or null),
//! `raw` (the URL text as found), `tag` (the element, `svg:`-prefixed in SVG;
//! null for HTTP headers), `attr` (attribute, `#text` for `<style>` text, or
//! the header name), `kind` (see `spinneret_extract::LinkKind`), `rel`,
//! `text` (anchor text), `record` (`file:offset`).
//!
//! Invariant: one link is exactly one line; TSV fields never contain a tab
//! or a line break (escaped as `\t`, `\n`, `\r`, `\\`; null is empty).

use std::borrow::Cow;
use std::collections::HashSet;
use std::io::{self, Write};
use std::ops::Range;

use spinneret_canon::KeyHash;
use spinneret_columns::LinkFields;
use spinneret_extract::Link;

use crate::escape::{RowText, is_clean, json_string, tsv_escape};

/// A format whose rows are lines of text (every `--format` but
/// `parquet`, whose rows are Arrow columns: [`super::parquet`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    /// JSON Lines.
    Jsonl,
    /// Tab-separated values.
    Tsv,
}

/// The TSV header line (without line break).
pub const TSV_HEADER: &str = "source\ttarget\terror\traw\ttag\tattr\tkind\trel\ttext\trecord";

/// A line rendered straight into a writer (a buffered one: small pieces
/// are cheap), for a row too long to hold whole. Nothing of it is kept, so
/// a piece to repeat is rendered again. The first write error is kept and
/// every later piece dropped.
pub struct Spill<'a> {
    w: &'a mut dyn Write,
    /// Bytes passed to the writer.
    written: usize,
    error: Option<io::Error>,
}

impl<'a> Spill<'a> {
    /// A line rendered into `w`.
    pub fn new(w: &'a mut dyn Write) -> Spill<'a> {
        Spill {
            w,
            written: 0,
            error: None,
        }
    }

    /// The first write error, if any.
    pub fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

impl RowText for Spill<'_> {
    fn push_str(&mut self, s: &str) {
        if self.error.is_none() {
            match self.w.write_all(s.as_bytes()) {
                Ok(()) => self.written += s.len(),
                Err(e) => self.error = Some(e),
            }
        }
    }

    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    fn reserve(&mut self, _: usize) {}

    fn rendered(&self) -> usize {
        self.written
    }

    fn push_again(&mut self, _: Range<usize>, render: impl FnOnce(&mut Self)) {
        render(self);
    }
}

/// The fields every link of a page shares (`source` and `record`), as
/// JSON strings: escaped once per page, not once per link.
#[derive(Debug)]
pub struct PageJson {
    source: String,
    record: String,
}

impl PageJson {
    /// The JSON strings of a page's URL and record.
    pub fn new(source: &str, record: &str) -> PageJson {
        let mut json = PageJson {
            source: String::with_capacity(source.len() + 2),
            record: String::with_capacity(record.len() + 2),
        };
        json_string(source, &mut json.source);
        json_string(record, &mut json.record);
        json
    }
}

/// One link, borrowed, in output order of fields.
#[derive(Debug)]
pub struct LinkRow<'a> {
    /// The page's URL.
    pub source: &'a str,
    /// The resolved (and canonicalized) target; `None` when it does not parse.
    pub target: Option<&'a str>,
    /// Why the target does not parse (the URL Standard's failure name).
    pub error: Option<&'static str>,
    /// The link as written in the page or header.
    pub raw: &'a str,
    /// The element (`svg:`-prefixed in SVG); `None` for header links.
    pub tag: Option<Cow<'a, str>>,
    /// The attribute (or header) the link came from.
    pub attr: &'static str,
    /// The link's kind (`LinkKind::as_str`).
    pub kind: &'static str,
    /// The `rel` attribute, when the element has one.
    pub rel: Option<&'a str>,
    /// The anchor text of an `<a>`/`<area>` link.
    pub text: Option<&'a str>,
    /// Where the page came from: `FILE:OFFSET` of its WARC/ARC record, or the HTML file.
    pub record: &'a str,
}

impl<'a> LinkRow<'a> {
    /// The row of `link` found on page `source` in record `record`.
    #[inline(always)]
    pub fn new(link: &'a Link<'_>, source: &'a str, record: &'a str) -> Self {
        let tag = if link.element.is_empty() {
            None
        } else if link.svg {
            Some(Cow::Owned(format!("svg:{}", link.element)))
        } else {
            Some(Cow::Borrowed(link.element))
        };
        LinkRow {
            source,
            target: link.target.as_ref().ok().map(|u| u.href()),
            error: link.target.as_ref().err().map(|e| e.kind().spec_name()),
            raw: link.raw,
            tag,
            attr: link.attribute,
            kind: link.kind.as_str(),
            rel: link.rel,
            text: link.text,
            record,
        }
    }

    /// Appends the row and a line feed to `out`. `page`, when given, has
    /// the row's `source` and `record` already escaped for JSON.
    pub fn write(&self, format: LineFormat, page: Option<&PageJson>, out: &mut impl RowText) {
        match format {
            LineFormat::Jsonl => {
                // Written by hand, field by field (serde_json's output, byte
                // for byte: tests/golden.rs and the test below compare):
                // serializing through serde cost a String per link.
                // Each field's separator and name is one constant piece
                // (`,"target":`), and a missing value's piece includes its
                // `null`: a third of the appends of piece-by-piece writing.
                // The fields are written one by one, not in a loop, so each
                // piece's length is a constant and its copy a few moves,
                // not a call to `memcpy`.
                let len = |v: Option<&str>| v.map_or(0, str::len);
                out.reserve(
                    200 + self.source.len()
                        + len(self.target)
                        + self.raw.len()
                        + len(self.rel)
                        + len(self.text)
                        + self.record.len(),
                );
                out.push_str("{\"source\":");
                match page {
                    Some(p) => out.push_str(&p.source),
                    None => json_string(self.source, out),
                }
                out.push_str(",\"target\":");
                let target_json = out.rendered();
                match self.target {
                    Some(t) => json_string(t, out),
                    None => out.push_str("null"),
                }
                let target_json = target_json..out.rendered();
                // The error, attribute and kind names are constants with
                // nothing to escape.
                match self.error {
                    Some(e) => push_quoted(out, ",\"error\":\"", e),
                    None => out.push_str(",\"error\":null"),
                }
                out.push_str(",\"raw\":");
                if self.target == Some(self.raw) {
                    // An absolute link already in its serialized form (half
                    // the links): the same JSON string again.
                    out.push_again(target_json, |out| json_string(self.raw, out));
                } else {
                    json_string(self.raw, out);
                }
                json_field(out, ",\"tag\":", ",\"tag\":null", self.tag.as_deref());
                push_quoted(out, ",\"attr\":\"", self.attr);
                push_quoted(out, ",\"kind\":\"", self.kind);
                json_field(out, ",\"rel\":", ",\"rel\":null", self.rel);
                json_field(out, ",\"text\":", ",\"text\":null", self.text);
                out.push_str(",\"record\":");
                match page {
                    Some(p) => out.push_str(&p.record),
                    None => json_string(self.record, out),
                }
                out.push('}');
            }
            LineFormat::Tsv => {
                let fields: [Option<&str>; 10] = [
                    Some(self.source),
                    self.target,
                    self.error,
                    Some(self.raw),
                    self.tag.as_deref(),
                    Some(self.attr),
                    Some(self.kind),
                    self.rel,
                    self.text,
                    Some(self.record),
                ];
                for (i, f) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push('\t');
                    }
                    tsv_escape(f.unwrap_or(""), out);
                }
            }
        }
        out.push('\n');
    }

    /// The row's values for a columnar output, with its record's `offset`
    /// and HTTP `status`.
    pub fn fields(&self, offset: u64, status: Option<u16>) -> LinkFields<'_> {
        LinkFields {
            source: self.source,
            target: self.target,
            error: self.error,
            raw: self.raw,
            tag: self.tag.as_deref(),
            attr: self.attr,
            kind: self.kind,
            rel: self.rel,
            text: self.text,
            record: self.record,
            offset,
            status,
        }
    }

    /// The `--unique` key of a link that does not parse: its raw text,
    /// marked so it cannot equal a target.
    pub fn raw_key(&self) -> KeyHash {
        let mut k = String::with_capacity(self.raw.len() + 1);
        k.push('\0');
        k.push_str(self.raw);
        KeyHash::of(&k)
    }
}

/// Appends `piece` and `v` as a JSON string, or `null_piece` when there is
/// no `v`.
#[inline(always)]
fn json_field(
    out: &mut impl RowText,
    piece: &'static str,
    null_piece: &'static str,
    v: Option<&str>,
) {
    match v {
        Some(v) => {
            out.push_str(piece);
            json_string(v, out);
        }
        None => out.push_str(null_piece),
    }
}

/// Appends `open` (which ends in a quote), `v` and a quote: `v` is a name
/// of this program's with nothing to escape.
#[inline(always)]
fn push_quoted(out: &mut impl RowText, open: &'static str, v: &str) {
    debug_assert!(is_clean(v.as_bytes()), "{v:?}");
    out.push_str(open);
    out.push_str(v);
    out.push('"');
}

/// The keys already printed (`--unique`): 128-bit hashes, 16 bytes per
/// distinct target however long its URL. Measured peak RSS of a set alone:
/// 10M keys 410 MiB, 30M keys 1.6 GiB; 100M ≈ 2.3 GiB (3.4 GiB while the
/// table doubles).
#[derive(Debug, Default)]
pub struct Unique {
    seen: HashSet<KeyHash>,
    /// With `--resume`: the keys first seen since the last checkpoint, for
    /// its file of keys.
    fresh: Option<Vec<KeyHash>>,
}

impl Unique {
    /// Whether `key` is new (and remembers it).
    pub fn first(&mut self, key: KeyHash) -> bool {
        let new = self.seen.insert(key);
        if new && let Some(fresh) = &mut self.fresh {
            fresh.push(key);
        }
        new
    }

    /// The set of a `--resume` run, holding `seen` (the keys of the
    /// checkpoint it goes on from), which keeps the new keys for
    /// [`Unique::take_fresh`].
    pub fn resumable(seen: impl IntoIterator<Item = KeyHash>) -> Unique {
        Unique {
            seen: seen.into_iter().collect(),
            fresh: Some(Vec::new()),
        }
    }

    /// The keys first seen since the last call.
    pub fn take_fresh(&mut self) -> Vec<KeyHash> {
        self.fresh.as_mut().map(std::mem::take).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spinneret_extract::{Headers, extract};
    use spinneret_url::Url;

    fn rows(html: &str, format: LineFormat) -> String {
        let page = Url::parse("https://example.com/d/p.html").unwrap();
        let mut out = String::new();
        extract(html.as_bytes(), &page, &Headers::default(), |l| {
            LinkRow::new(&l, page.href(), "f.warc:7").write(format, None, &mut out)
        });
        out
    }

    #[test]
    fn jsonl_fields_in_order() {
        let out = rows(
            "<a href='x y' rel=nofollow>T</a><a href='http://[x'>",
            LineFormat::Jsonl,
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"source":"https://example.com/d/p.html","target":"https://example.com/d/x%20y","error":null,"raw":"x y","tag":"a","attr":"href","kind":"hyperlink","rel":"nofollow","text":"T","record":"f.warc:7"}"#
        );
        let v: serde_json::Value = serde_json::from_str(lines[1]).unwrap();
        assert_eq!(v["target"], serde_json::Value::Null);
        assert_eq!(v["error"], "IPv6-unclosed");
    }

    /// Every row holds serde_json's serialization of each field, also when
    /// `raw` is the target itself (written by copying the target's JSON).
    #[test]
    fn jsonl_rows_hold_serde_json_fields() {
        let html = concat!(
            "<a href='https://example.com/a'>same</a>",
            "<a href='javascript:f(\"x\\\\y\")'>same, escaped</a>",
            "<a href='b'>relative</a><a href='http://[x'>failure</a>",
            "<img src='data:,a\tb' srcset='https://example.com/c 2x'>"
        );
        let page = Url::parse("https://example.com/d/p.html").unwrap();
        let (mut rows, mut same) = (0, 0);
        extract(html.as_bytes(), &page, &Headers::default(), |l| {
            let row = LinkRow::new(&l, page.href(), "f.warc:7");
            same += usize::from(row.target == Some(row.raw));
            let mut line = String::new();
            row.write(LineFormat::Jsonl, None, &mut line);
            let json = |v: Option<&str>| serde_json::to_string(&v).unwrap();
            let want = format!(
                "{{\"source\":{},\"target\":{},\"error\":{},\"raw\":{},\"tag\":{},\"attr\":{},\"kind\":{},\"rel\":{},\"text\":{},\"record\":{}}}\n",
                json(Some(row.source)),
                json(row.target),
                json(row.error),
                json(Some(row.raw)),
                json(row.tag.as_deref()),
                json(Some(row.attr)),
                json(Some(row.kind)),
                json(row.rel),
                json(row.text),
                json(Some(row.record)),
            );
            assert_eq!(line, want);
            rows += 1;
        });
        assert_eq!((rows, same), (6, 3));
    }

    #[test]
    fn page_fields_escaped_once_give_the_same_rows() {
        let page = Url::parse("https://example.com/d/\"q\"?a=\\").unwrap();
        let record = "dir/f\"1.warc:7";
        let (mut per_link, mut per_page) = (String::new(), String::new());
        let json = PageJson::new(page.href(), record);
        extract(
            b"<a href=x>1</a><img src=y>",
            &page,
            &Headers::default(),
            |l| {
                let row = LinkRow::new(&l, page.href(), record);
                row.write(LineFormat::Jsonl, None, &mut per_link);
                row.write(LineFormat::Jsonl, Some(&json), &mut per_page);
            },
        );
        assert_eq!(per_link.lines().count(), 2);
        assert_eq!(per_link, per_page);
    }

    /// A row rendered into a writer piece by piece (`Spill`) is the row
    /// rendered into a string, in both formats, also when the absolute
    /// link's `raw` repeats its target.
    #[test]
    fn spilled_rows_equal_held_rows() {
        let page = Url::parse("https://example.com/d/p.html").unwrap();
        let html = "<a href='x \\ \"y' rel=nofollow>T\tab</a>\
                    <a href='https://example.com/abs'>A</a><a href='http://[x'>";
        for format in [LineFormat::Jsonl, LineFormat::Tsv] {
            let (mut held, mut spilled) = (String::new(), Vec::new());
            extract(html.as_bytes(), &page, &Headers::default(), |l| {
                let row = LinkRow::new(&l, page.href(), "f.warc:7");
                row.write(format, None, &mut held);
                let mut spill = Spill::new(&mut spilled);
                row.write(format, None, &mut spill);
                assert_eq!(spill.rendered(), spill.written);
                spill.finish().unwrap();
            });
            assert_eq!(held.lines().count(), 3);
            assert_eq!(held.as_bytes(), spilled, "{format:?}");
        }
    }

    #[test]
    fn tsv_escapes_and_svg_tags() {
        let out = rows(
            "<svg><a href='/s'></a></svg><a href='a&#9;b'>x</a>",
            LineFormat::Tsv,
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 2);
        let f: Vec<&str> = lines[0].split('\t').collect();
        assert_eq!(f.len(), 10);
        assert_eq!(f[4], "svg:a");
        assert!(lines[1].contains("a\\tb"), "{}", lines[1]);
        assert_eq!(TSV_HEADER.split('\t').count(), 10);
    }

    #[test]
    fn unique_remembers() {
        let mut u = Unique::default();
        assert!(u.first(KeyHash::of("a")));
        assert!(!u.first(KeyHash::of("a")));
        assert!(u.first(KeyHash::of("\0a")));
    }
}
