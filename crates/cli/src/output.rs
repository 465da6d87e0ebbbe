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

/// A format whose rows are lines of text (every `--format` but
/// `parquet`, whose rows are Arrow columns: `crate::parquet`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineFormat {
    /// JSON Lines.
    Jsonl,
    /// Tab-separated values.
    Tsv,
}

/// The TSV header line (without line break).
pub const TSV_HEADER: &str = "source\ttarget\terror\traw\ttag\tattr\tkind\trel\ttext\trecord";

/// Where a row is rendered: a `String` (the lines of a page, kept until
/// they are written), or a writer's buffer that passes a row too long to
/// hold on to the output as it is rendered (`pipeline`'s spilling line).
pub trait RowText {
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends `c`.
    fn push(&mut self, c: char);
    /// Room for `additional` more bytes is likely to be needed.
    fn reserve(&mut self, additional: usize);
    /// The bytes rendered so far.
    fn rendered(&self) -> usize;
    /// Appends the bytes `range` of what was rendered (made by `render`)
    /// again: copied when they are still held, else rendered again.
    fn push_again(&mut self, range: Range<usize>, render: impl FnOnce(&mut Self));
}

impl RowText for String {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }

    #[inline(always)]
    fn push(&mut self, c: char) {
        String::push(self, c);
    }

    #[inline(always)]
    fn reserve(&mut self, additional: usize) {
        String::reserve(self, additional);
    }

    #[inline(always)]
    fn rendered(&self) -> usize {
        String::len(self)
    }

    #[inline(always)]
    fn push_again(&mut self, range: Range<usize>, _: impl FnOnce(&mut Self)) {
        self.extend_from_within(range);
    }
}

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

/// Appends `s` as a JSON string, escaped as serde_json does (`\"`, `\\`,
/// `\b \f \n \r \t`, other controls as `\u00xx`; everything else as is).
pub fn json_string(s: &str, out: &mut (impl RowText + ?Sized)) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push('"');
    // Fast path: nothing needs an escape (almost every URL and text).
    if is_clean(bytes) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..=0x1F => "",
            _ => continue,
        };
        // Bytes before `i` are whole UTF-8 sequences: `b` is ASCII.
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether no byte of `b` needs an escape. From 16 bytes on, 16 bytes per
/// step ([`block_is_clean`]), the tail as the last (overlapping) block;
/// from 8, two overlapping words; below that, byte by byte.
#[inline(always)]
fn is_clean(b: &[u8]) -> bool {
    let n = b.len();
    if n < 8 {
        return b.iter().all(|&c| !escapes(c));
    }
    if n < 16 {
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        return !(needs_escape(word(0)) | needs_escape(word(n - 8)));
    }
    let block = |i: usize| -> &[u8; 16] { b[i..i + 16].try_into().expect("16 bytes") };
    let mut i = 0;
    while i + 16 <= n {
        if !block_is_clean(block(i)) {
            return false;
        }
        i += 16;
    }
    block_is_clean(block(n - 16))
}

/// Whether byte `c` needs an escape in a JSON string.
#[inline(always)]
fn escapes(c: u8) -> bool {
    (c < 0x20) | (c == b'"') | (c == b'\\')
}

/// Whether no byte of `block` needs an escape. Written without a branch per
/// byte so that the compiler makes it one SSE2 test of all 16 bytes (about
/// 18 instructions, against 26 for two words of SWAR tests).
#[inline(always)]
fn block_is_clean(block: &[u8; 16]) -> bool {
    let mut any = 0u8;
    for &c in block {
        any |= u8::from(escapes(c));
    }
    any == 0
}

/// Whether any of the 8 bytes of `x` is a control (< 0x20), `"` or `\\`
/// (exact: the SWAR tests below have no false negatives, and a false
/// positive only sends the string to the byte loop).
#[inline]
fn needs_escape(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_0x20 = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    (below_0x20 | has_zero(x ^ (ONES * u64::from(b'"'))) | has_zero(x ^ (ONES * u64::from(b'\\'))))
        != 0
}

/// Appends `s` with `\\`, tab, CR and LF escaped.
pub fn tsv_escape(s: &str, out: &mut (impl RowText + ?Sized)) {
    // Runs without an escape are appended whole.
    let mut rest = s;
    while let Some(i) = rest.find(['\\', '\t', '\n', '\r']) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            b'\n' => "\\n",
            _ => "\\r",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

/// The keys already printed (`--unique`): 128-bit hashes, 16 bytes per
/// distinct target however long its URL. Measured peak RSS of a set alone:
/// 10M keys 410 MiB, 30M keys 1.6 GiB; 100M ≈ 2.3 GiB (3.4 GiB while the
/// table doubles).
#[derive(Debug, Default)]
pub struct Unique {
    seen: HashSet<KeyHash>,
}

impl Unique {
    /// Whether `key` is new (and remembers it).
    pub fn first(&mut self, key: KeyHash) -> bool {
        self.seen.insert(key)
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
    fn json_strings_match_serde_json() {
        let mut all = String::new();
        for c in (0u32..0x80).chain([0xA0, 0x2028, 0x1F600]) {
            all.push(char::from_u32(c).unwrap());
        }
        let long = format!("{all}{all} and then a long clean tail of ASCII text é ü {all}");
        for s in [
            "",
            "plain",
            "a\"b\\c",
            "tab\there\n",
            "\u{7f}\u{1}é",
            "0123456789abcdef\"",
            all.as_str(),
            &long,
        ] {
            let mut out = String::new();
            json_string(s, &mut out);
            assert_eq!(out, serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn every_ascii_byte_at_every_position_of_short_and_long_strings() {
        for len in [1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 50] {
            for pos in 0..len {
                for b in 0..0x80u8 {
                    let mut v = vec![b'a'; len];
                    v[pos] = b;
                    let s = String::from_utf8(v).unwrap();
                    let mut out = String::new();
                    json_string(&s, &mut out);
                    assert_eq!(out, serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    /// The 16-byte block test and the 8-byte word test, for every byte value
    /// at every position.
    #[test]
    fn block_and_word_tests_are_exact_per_byte() {
        for b in 0..=255u8 {
            let want_escape = b < 0x20 || b == b'"' || b == b'\\';
            for pos in 0..16 {
                let mut block = *b"abcdefghijklmnop";
                block[pos] = b;
                assert_eq!(block_is_clean(&block), !want_escape, "{b:#x} at {pos}");
                if pos < 8 {
                    let word = u64::from_le_bytes(block[..8].try_into().unwrap());
                    assert_eq!(needs_escape(word), want_escape, "{b:#x} at {pos}");
                }
            }
        }
    }

    #[test]
    fn unique_remembers() {
        let mut u = Unique::default();
        assert!(u.first(KeyHash::of("a")));
        assert!(!u.first(KeyHash::of("a")));
        assert!(u.first(KeyHash::of("\0a")));
    }
}
