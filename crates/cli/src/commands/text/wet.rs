//! `spinneret text --format wet`: Common Crawl's WET files, record by
//! record.
//!
//! A WET file is a WARC/1.0 file: a `warcinfo` record ([`Wet::warcinfo`]:
//! `WARC-Type`, `WARC-Date`, `WARC-Filename` when the file has a name,
//! `WARC-Record-ID`, `Content-Type: application/warc-fields`, then
//! `Software-Info`, `Extracted-Date`, `format`, `conformsTo` and what was
//! extracted), then one `conversion` record per page
//! ([`Wet::conversion`]), its header fields in Common Crawl's order:
//! `WARC-Type`, `WARC-Target-URI`, `WARC-Date` (the response's),
//! `WARC-Record-ID`, `WARC-Refers-To` (the response's record id),
//! `WARC-Block-Digest` (`sha1:` and base32), `WARC-Identified-Content-Language`
//! (the detected ISO 639-3 code, when there is one), `Spinneret-Page-Type`
//! (an extension field: the page's type, `article`, `listing`…),
//! `Content-Type` (`text/plain`, or `text/markdown` for Markdown) and
//! `Content-Length`.
//! The block is the page's title on a line of its own (when it has one),
//! then its text, UTF-8, ending in a line feed (an empty block when the
//! page has neither). Each record ends in CRLF CRLF, as WARC requires,
//! and is its own gzip member unless the file is plain.
//!
//! Record ids are deterministic: RFC 4122 name-based (version 5, SHA-1)
//! UUIDs of the response's record id and the extraction's options, and
//! the warcinfo record's of its own content; so the same inputs with the
//! same options and `--date` give the same file, byte for byte, and a
//! conversion record's id does not depend on the run that made it.
//!
//! Invariant: every record is complete and its digest is of its block;
//! header values never hold a line break.

use std::io;

use spinneret_text::{Format, Options};

pub use crate::outputs::warc_records::WarcDate;
use crate::outputs::warc_records::{CONFORMS_TO, NAMESPACE_URL, clean, uuid_v5_urn, warc_record};

/// What was extracted, in words: `whole page, plain text`, `main
/// content, Markdown with links`, … (the warcinfo's `extraction` field,
/// and part of every conversion record's id: changing a wording changes
/// the ids).
pub fn extraction(o: &Options) -> String {
    let what = if o.main_content {
        "main content"
    } else {
        "whole page"
    };
    let form = match o.format {
        Format::Text => "plain text",
        Format::Markdown if o.links => "Markdown with links",
        Format::Markdown => "Markdown",
    };
    format!("{what}, {form}")
}

/// A `file:` URL for a local path (made absolute against the working
/// folder): the target of an HTML file's record when no URL was given.
pub fn file_url(path: &std::path::Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut url = String::from("file://");
    let text = abs.to_string_lossy().replace('\\', "/");
    if !text.starts_with('/') {
        url.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

/// One page's conversion record, as [`Wet::conversion`] writes it.
#[derive(Debug, Clone, Copy)]
pub struct Conversion<'a> {
    /// `WARC-Target-URI` (none only for a record that had none).
    pub target_uri: Option<&'a str>,
    /// The response's `WARC-Date` (the run's date when it has none).
    pub date: Option<&'a str>,
    /// The response's `WARC-Record-ID`, for `WARC-Refers-To`.
    pub refers_to: Option<&'a str>,
    /// What names the page for its record id: its response's record id,
    /// or (a record without one, an HTML file) its URL, date and payload
    /// digest.
    pub identity: &'a str,
    /// The detected language (ISO 639-3).
    pub language: Option<&'a str>,
    /// The page's title.
    pub title: Option<&'a str>,
    /// The page's type (`spinneret_text::PageType`'s name), or none.
    pub page_type: Option<&'a str>,
    /// The page's text.
    pub text: &'a str,
}

/// How the WET file is written: its options and date.
#[derive(Debug, Clone)]
pub struct Wet {
    /// One gzip member per record (else plain records).
    pub gzip: bool,
    /// The warcinfo's date, and that of records without one.
    pub date: WarcDate,
    /// The extraction's options.
    pub options: Options,
    /// The records taken, in words (the warcinfo's `records` field).
    pub records: &'static str,
    /// [`extraction`] of the options.
    extraction: String,
}

impl Wet {
    /// A WET writer for text extracted with `options` on `date`.
    pub fn new(options: Options, gzip: bool, date: WarcDate, records: &'static str) -> Wet {
        Wet {
            gzip,
            date,
            options,
            records,
            extraction: extraction(&options),
        }
    }

    /// The `Content-Type` of conversion records.
    fn content_type(&self) -> &'static str {
        match self.options.format {
            Format::Text => "text/plain",
            Format::Markdown => "text/markdown",
        }
    }

    /// The warcinfo record that starts the file (`filename`: the file's
    /// name, for `WARC-Filename`).
    pub fn warcinfo(&self, filename: Option<&str>) -> io::Result<Vec<u8>> {
        let fields = [
            (
                "Software-Info",
                format!("spinneret {}", env!("CARGO_PKG_VERSION")),
            ),
            ("Extracted-Date", self.date.http()),
            ("format", "WARC File Format 1.0".to_owned()),
            ("conformsTo", CONFORMS_TO.to_owned()),
            ("extraction", self.extraction.clone()),
            ("records", self.records.to_owned()),
        ];
        let mut block = String::new();
        for (name, value) in &fields {
            block.push_str(name);
            block.push_str(": ");
            block.push_str(&clean(value));
            block.push_str("\r\n");
        }
        let date = self.date.iso();
        // Its id is named by all it holds: the same run, the same id.
        let name = format!(
            "urn:spinneret:text:warcinfo:{}\n{date}\n{block}",
            filename.unwrap_or("")
        );
        let id = uuid_v5_urn(&NAMESPACE_URL, name.as_bytes());
        let mut headers = vec![("WARC-Type", "warcinfo"), ("WARC-Date", &date)];
        if let Some(f) = filename {
            headers.push(("WARC-Filename", f));
        }
        headers.push(("WARC-Record-ID", &id));
        headers.push(("Content-Type", "application/warc-fields"));
        warc_record(&headers, block.as_bytes(), self.gzip)
    }

    /// A page's conversion record.
    ///
    /// Its id is the version-5 UUID of
    /// `urn:spinneret:text:conversion:EXTRACTION\nIDENTITY`: re-running
    /// the same extraction over the same records gives the same ids, and
    /// another extraction of the same record (main content, Markdown)
    /// another id.
    pub fn conversion(&self, c: &Conversion<'_>) -> io::Result<Vec<u8>> {
        let mut block = String::with_capacity(c.text.len() + 128);
        if let Some(title) = c.title.filter(|t| !t.is_empty()) {
            block.push_str(&clean(title));
            block.push('\n');
        }
        if !c.text.is_empty() {
            block.push_str(c.text);
            block.push('\n');
        }
        let name = format!(
            "urn:spinneret:text:conversion:{}\n{}",
            self.extraction, c.identity
        );
        let id = uuid_v5_urn(&NAMESPACE_URL, name.as_bytes());
        let run_date = self.date.iso();
        let digest = spinneret_index::entry::sha1_base32(block.as_bytes());
        let mut headers = vec![("WARC-Type", "conversion")];
        if let Some(t) = c.target_uri {
            headers.push(("WARC-Target-URI", t));
        }
        headers.push(("WARC-Date", c.date.unwrap_or(&run_date)));
        headers.push(("WARC-Record-ID", &id));
        if let Some(r) = c.refers_to {
            headers.push(("WARC-Refers-To", r));
        }
        headers.push(("WARC-Block-Digest", &digest));
        if let Some(l) = c.language {
            headers.push(("WARC-Identified-Content-Language", l));
        }
        // An extension field (WARC 1.1 §5: fields it does not define are
        // allowed; readers ignore what they do not know).
        if let Some(t) = c.page_type {
            headers.push(("Spinneret-Page-Type", t));
        }
        headers.push(("Content-Type", self.content_type()));
        warc_record(&headers, block.as_bytes(), self.gzip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wet(options: Options, gzip: bool) -> Wet {
        let date = WarcDate::parse("2026-01-02T03:04:05Z").unwrap();
        Wet::new(options, gzip, date, "test")
    }

    #[test]
    fn a_conversion_record_byte_for_byte() {
        let w = wet(Options::default(), false);
        let c = Conversion {
            target_uri: Some("https://a.example/"),
            date: Some("2025-05-05T05:05:05Z"),
            refers_to: Some("<urn:uuid:1>"),
            identity: "<urn:uuid:1>",
            language: Some("eng"),
            title: Some("A title"),
            page_type: None,
            text: "Hello\n\nworld",
        };
        let rec = String::from_utf8(w.conversion(&c).unwrap()).unwrap();
        let block = "A title\nHello\n\nworld\n";
        let id = uuid_v5_urn(
            &NAMESPACE_URL,
            b"urn:spinneret:text:conversion:whole page, plain text\n<urn:uuid:1>",
        );
        let want = format!(
            "WARC/1.0\r\nWARC-Type: conversion\r\nWARC-Target-URI: https://a.example/\r\n\
             WARC-Date: 2025-05-05T05:05:05Z\r\nWARC-Record-ID: {id}\r\n\
             WARC-Refers-To: <urn:uuid:1>\r\nWARC-Block-Digest: {}\r\n\
             WARC-Identified-Content-Language: eng\r\nContent-Type: text/plain\r\n\
             Content-Length: {}\r\n\r\n{block}\r\n\r\n",
            spinneret_index::entry::sha1_base32(block.as_bytes()),
            block.len()
        );
        assert_eq!(rec, want);
        // Another extraction of the same record: another id; no title,
        // language or text: none of their lines, an empty block.
        let md = wet(
            Options {
                main_content: true,
                format: Format::Markdown,
                ..Options::default()
            },
            false,
        );
        let bare = Conversion {
            language: None,
            title: None,
            page_type: None,
            text: "",
            refers_to: None,
            date: None,
            ..c
        };
        let rec = String::from_utf8(md.conversion(&bare).unwrap()).unwrap();
        assert!(!rec.contains(&id));
        assert!(rec.contains("WARC-Date: 2026-01-02T03:04:05Z\r\n"), "{rec}");
        assert!(rec.contains("Content-Type: text/markdown\r\n"), "{rec}");
        assert!(rec.ends_with("Content-Length: 0\r\n\r\n\r\n\r\n"), "{rec}");
        assert!(!rec.contains("Refers-To") && !rec.contains("Language"));
    }

    #[test]
    fn records_gzip_as_members_of_their_own() {
        use std::io::Read;
        let plain = wet(Options::default(), false);
        let gz = wet(Options::default(), true);
        let info = plain.warcinfo(Some("x.warc.wet.gz")).unwrap();
        let text = String::from_utf8(info.clone()).unwrap();
        assert!(text.starts_with(
            "WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: 2026-01-02T03:04:05Z\r\n\
             WARC-Filename: x.warc.wet.gz\r\nWARC-Record-ID: <urn:uuid:"
        ));
        assert!(text.contains("\r\nExtracted-Date: Fri, 02 Jan 2026 03:04:05 GMT\r\n"));
        assert_eq!(info, plain.warcinfo(Some("x.warc.wet.gz")).unwrap());
        let member = gz.warcinfo(Some("x.warc.wet.gz")).unwrap();
        assert_eq!(&member[..2], &[0x1f, 0x8b]);
        let mut back = Vec::new();
        flate2::read::GzDecoder::new(&member[..])
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, info);
        // Deterministic bytes, line breaks kept out of headers.
        let c = Conversion {
            target_uri: Some("https://a.example/\r\nX: y"),
            date: None,
            refers_to: None,
            identity: "x",
            language: None,
            title: Some("T\nU"),
            page_type: None,
            text: "body",
        };
        assert_eq!(gz.conversion(&c).unwrap(), gz.conversion(&c).unwrap());
        let rec = String::from_utf8(plain.conversion(&c).unwrap()).unwrap();
        assert!(rec.contains("WARC-Target-URI: https://a.example/  X: y\r\n"));
        assert!(rec.contains("\r\n\r\nT U\nbody\n\r\n\r\n"));
    }

    #[test]
    fn file_urls_escape_what_a_url_cannot_hold() {
        let u = file_url(std::path::Path::new("/tmp/a b#c?d%.html"));
        assert_eq!(u, "file:///tmp/a%20b%23c%3Fd%25.html");
        assert!(file_url(std::path::Path::new("rel.html")).starts_with("file:///"));
    }
}
