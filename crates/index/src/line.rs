//! Index lines: CDXJ (pywb, cdxj-indexer, Common Crawl) and the classic
//! 11-field CDX, rendered from an [`Entry`].
//!
//! CDXJ: `urlkey timestamp {json}`, the JSON object written as Python's
//! `json.dumps` writes it (cdxj-indexer's writer): `", "` and `": "`
//! separators, every value a string, characters outside ASCII escaped as
//! `\uXXXX` (surrogate pairs above U+FFFF). Keys in cdxj-indexer's order
//! (`url`, `mime`, `status`, `digest`, `length`, `offset`, `filename`),
//! Common Crawl's after `mime` (`mime-detected`) and after `filename`
//! (`redirect`, `charset`, `truncated`), then `recordid`, a joined POST's
//! `requestBody` and `method`, and `offset-kind` for a record replay cannot
//! seek to (see [`Range`]).
//!
//! CDX: ` CDX N b a m s k r M S V g` — key, timestamp, URL, media type,
//! status, digest (without its `sha1:`), redirect, meta tags, length,
//! offset, file; `-` for an absent field (an empty one stays empty, as
//! cdxj-indexer writes it).

use std::fmt::Write;

use crate::entry::Entry;

/// The header line of an 11-field CDX file.
pub const CDX11_HEADER: &str = " CDX N b a m s k r M S V g";

/// The offset and length written for an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// The file range replay reads.
    File(u64, u64),
    /// The range in the decompressed data: the record shares its gzip
    /// member (a whole-file gzip), so no file offset reaches it; marked
    /// `"offset-kind": "decompressed"` in CDXJ.
    Decompressed(u64, u64),
}

impl Range {
    fn numbers(self) -> (u64, u64) {
        match self {
            Range::File(o, l) | Range::Decompressed(o, l) => (o, l),
        }
    }
}

/// Appends `s` as a JSON string, as Python's `json.dumps` (ASCII only).
pub fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
}

/// Appends the CDXJ line of `e` (with its `\n`).
pub fn cdxj(out: &mut String, e: &Entry, filename: &str, range: Range) {
    out.push_str(&e.urlkey);
    out.push(' ');
    out.push_str(&e.timestamp);
    out.push_str(" {");
    let mut first = true;
    let mut field = |out: &mut String, name: &str, value: &str| {
        if !first {
            out.push_str(", ");
        }
        first = false;
        push_json_str(out, name);
        out.push_str(": ");
        push_json_str(out, value);
    };
    let (offset, length) = range.numbers();
    if let Some(url) = &e.url {
        field(out, "url", url);
    }
    if let Some(m) = &e.mime {
        field(out, "mime", m);
    }
    if let Some(m) = e.mime_detected {
        field(out, "mime-detected", m);
    }
    if let Some(s) = e.status {
        field(out, "status", &s.to_string());
    }
    if let Some(d) = &e.digest {
        field(out, "digest", d);
    }
    field(out, "length", &length.to_string());
    field(out, "offset", &offset.to_string());
    field(out, "filename", filename);
    if let Some(r) = &e.redirect {
        field(out, "redirect", r);
    }
    if let Some(c) = e.charset {
        field(out, "charset", c);
    }
    if let Some(t) = &e.truncated {
        field(out, "truncated", t);
    }
    if let Some(id) = e.record_id.as_deref().filter(|_| e.show_record_id) {
        field(out, "recordid", id);
    }
    if let Some(b) = &e.request_body {
        field(out, "requestBody", b);
    }
    if let Some(m) = &e.method {
        field(out, "method", m);
    }
    if matches!(range, Range::Decompressed(..)) {
        field(out, "offset-kind", "decompressed");
    }
    out.push_str("}\n");
}

/// Appends the 11-field CDX line of `e` (with its `\n`).
pub fn cdx11(out: &mut String, e: &Entry, filename: &str, range: Range) {
    let dash = |v: Option<&str>| v.unwrap_or("-").to_owned();
    let (offset, length) = range.numbers();
    let digest = e
        .digest
        .as_deref()
        .map(|d| d.rsplit(':').next().unwrap_or(d));
    let fields = [
        e.urlkey.clone(),
        e.timestamp.clone(),
        dash(e.url.as_deref()),
        dash(e.mime.as_deref()),
        e.status.map_or_else(|| "-".to_owned(), |s| s.to_string()),
        dash(digest),
        dash(e.redirect.as_deref()),
        "-".to_owned(),
        length.to_string(),
        offset.to_string(),
        filename.to_owned(),
    ];
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // A CDX field cannot hold a space or a line break.
        if f.contains([' ', '\n', '\r']) {
            out.push_str(
                &f.replace(' ', "%20")
                    .replace('\n', "%0A")
                    .replace('\r', "%0D"),
            );
        } else {
            out.push_str(f);
        }
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_written_as_python_writes_them() {
        let mut s = String::new();
        push_json_str(&mut s, "a\"b\\c\n\u{1}é😀/");
        assert_eq!(s, r#""a\"b\\c\n\u0001\u00e9\ud83d\ude00/""#);
    }
}
