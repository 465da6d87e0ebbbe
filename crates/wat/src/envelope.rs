//! The JSON of one source record: `Container` (where the record is) and
//! `Envelope` (its WARC header, then what its block holds), in the key
//! order of Common Crawl's generator.
//!
//! ```text
//! {"Container":{"Filename","Compressed","Offset","Gzip-Metadata":{…}},
//!  "Envelope":{"Payload-Metadata":{…},"Format":"WARC/1.0",
//!              "WARC-Header-Length","WARC-Header-Metadata":{…}}}
//! ```
//!
//! `Payload-Metadata` by record type:
//! - `request`: `HTTP-Request-Metadata` (`Request-Message`, `Headers`,
//!   `Entity-*`);
//! - `response` with an HTTP block, and `revisit`: `HTTP-Response-Metadata`
//!   (`Response-Message`, `Headers`, the page's `HTML-Metadata` when it is
//!   HTML, `Entity-*`);
//! - `warcinfo`: `WARC-Info-Metadata`, its fields;
//! - `metadata` (not JSON): `WARC-Metadata-Metadata.Metadata-Records`;
//! - every record: `Actual-Content-Length`, `Trailing-Slop-Length` (when
//!   the bytes after the block are known) and `Block-Digest`.
//!
//! Numbers are strings, as in Common Crawl's files; a header given twice
//! becomes an array ([`Object::accumulate`]); names are as written.
//!
//! Deliberate differences from the fork, where its parser loses or
//! changes what the record says:
//! - header values are UTF-8 (lossy), not ASCII with other bytes dropped;
//! - the HTTP version is written as given (`HTTP/2` stays `HTTP/2`; the
//!   fork writes every version but 0.9 and 1.1 as `HTTP/1.0`), and the
//!   status as its digits;
//! - a warcinfo block keeps its last field (the fork's parser drops it
//!   when the block does not end with an empty line, as Common Crawl's do,
//!   and sets `Headers-Corrupt`);
//! - a record the fork cannot parse (a response block that is not HTTP, a
//!   record without a target URI) still gets its `Container`, `Envelope`
//!   and digests; the fork writes nothing for it (or stops);
//! - HTML is read after its transfer and content codings are removed, in
//!   the encoding a browser would choose (the fork reads the stored bytes
//!   in the charset of the `Content-Type` header, a `<meta http-equiv>` or
//!   a detector; Common Crawl's crawler stores payloads decoded, so for its
//!   WARCs only the charset rules differ).
//!
//! One quirk is kept, because consumers compare against it: a request's
//! `Headers-Length` does not count its request line's line end.

use sha1::{Digest, Sha1};
use spinneret_encoding::{Policy, Sniffer, decode_with};
use spinneret_warc::http::{decode_body, parse_fields, parse_response};
use spinneret_warc::verify::Encoding;
use spinneret_warc::{Record, RecordType};

use crate::html::html_metadata;
use crate::json::{Object, Value};

/// The most bytes of an HTML payload read after decoding.
const MAX_HTML: usize = 64 << 20;

/// Where a source record is: the `Container` object.
#[derive(Debug, Clone, Default)]
pub struct Container<'a> {
    /// The source file's name (its last path component is written).
    pub filename: &'a str,
    /// Whether the file is compressed.
    pub compressed: bool,
    /// The record's offset: its gzip member's in a compressed file.
    pub offset: u64,
    /// The record's gzip member, when it was read.
    pub gzip: Option<GzipMember>,
    /// The bytes after the record's block up to the next record (the
    /// CR/LFs), when known.
    pub trailing: Option<u64>,
}

/// A gzip member's framing: `Gzip-Metadata`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GzipMember {
    /// The whole member's size (the fork's `Deflate-Length`).
    pub member_len: u64,
    /// The member header's size (10 without optional fields).
    pub header_len: u64,
    /// The footer's CRC-32 of the inflated data.
    pub crc: u32,
    /// The footer's inflated size, modulo 2³².
    pub isize: u32,
}

impl GzipMember {
    /// The framing of the gzip member `member` (all its bytes), or none
    /// when it is not one (RFC 1952: magic, method 8, the optional fields
    /// its flags announce, an 8-byte footer).
    pub fn of(member: &[u8]) -> Option<GzipMember> {
        let footer = member.len().checked_sub(8).map(|at| &member[at..])?;
        GzipMember::from_parts(member, footer, member.len() as u64)
    }

    /// The framing of a gzip member `member_len` bytes long from its first
    /// bytes `head` (at least its header: 10 bytes and the optional fields;
    /// the whole member will do) and its last 8 bytes `footer`.
    pub fn from_parts(head: &[u8], footer: &[u8], member_len: u64) -> Option<GzipMember> {
        if member_len < 18 || footer.len() != 8 || !head.starts_with(b"\x1f\x8b\x08") {
            return None;
        }
        let flags = *head.get(3)?;
        let mut at = 10usize;
        if flags & 0x04 != 0 {
            let xlen = usize::from(u16::from_le_bytes([*head.get(10)?, *head.get(11)?]));
            at = at.checked_add(2 + xlen)?;
        }
        for bit in [0x08, 0x10] {
            if flags & bit != 0 {
                let nul = head.get(at..)?.iter().position(|&b| b == 0)?;
                at += nul + 1;
            }
        }
        if flags & 0x02 != 0 {
            at += 2;
        }
        if at as u64 + 8 > member_len || at > head.len() {
            return None;
        }
        let f = footer;
        Some(GzipMember {
            member_len,
            header_len: at as u64,
            crc: u32::from_le_bytes([f[0], f[1], f[2], f[3]]),
            isize: u32::from_le_bytes([f[4], f[5], f[6], f[7]]),
        })
    }
}

/// `sha1:` and the base32 SHA-1 of `bytes`, as WARC digests are written.
pub fn sha1_digest(bytes: &[u8]) -> String {
    let hash = Sha1::digest(bytes);
    let mut s = String::from("sha1:");
    s.push_str(spinneret_warc::verify::encode(&hash, Encoding::Base32).trim_end_matches('='));
    s
}

/// The JSON object of `record` (read with its whole block,
/// [`spinneret_warc::Content::Block`]) at `container`.
pub fn record_metadata(record: &Record, container: &Container<'_>) -> Object {
    let mut out = Object::new();
    out.put("Container", container_object(container));
    out.put("Envelope", envelope(record, container));
    out
}

fn container_object(c: &Container<'_>) -> Object {
    let mut o = Object::new();
    let name = c.filename.rsplit(['/', '\\']).next().unwrap_or(c.filename);
    o.put("Filename", name);
    o.put("Compressed", c.compressed);
    o.put("Offset", c.offset.to_string());
    if let Some(g) = c.gzip {
        let mut m = Object::new();
        m.put("Deflate-Length", g.member_len.to_string());
        m.put("Header-Length", g.header_len.to_string());
        m.put("Footer-Length", "8");
        // Java's int: the CRC and size as signed 32-bit numbers.
        m.put("Inflated-CRC", (g.crc as i32).to_string());
        m.put("Inflated-Length", (g.isize as i32).to_string());
        o.put("Gzip-Metadata", m);
    }
    o
}

fn envelope(record: &Record, c: &Container<'_>) -> Object {
    let block: &[u8] = &record.block;
    let mut payload = Object::new();
    let tail = |p: &mut Object| {
        p.put("Actual-Content-Length", block.len().to_string());
        if let Some(t) = c.trailing {
            p.put("Trailing-Slop-Length", t.to_string());
        }
        p.put("Block-Digest", sha1_digest(block));
    };
    let content_type = record.content_type.as_deref().unwrap_or("");
    match record.kind {
        RecordType::Request => {
            payload.put("Actual-Content-Type", "application/http; msgtype=request");
            payload.put("HTTP-Request-Metadata", request(block));
            tail(&mut payload);
        }
        RecordType::Revisit => {
            payload.put("Actual-Content-Type", "application/http; msgtype=response");
            payload.put("HTTP-Response-Metadata", response(record, block));
            tail(&mut payload);
        }
        RecordType::Response if is_http_response(content_type, record) => {
            payload.put("Actual-Content-Type", "application/http; msgtype=response");
            payload.put("HTTP-Response-Metadata", response(record, block));
            tail(&mut payload);
        }
        RecordType::Warcinfo => {
            tail(&mut payload);
            payload.put("Actual-Content-Type", "application/warc-fields");
            let mut info = Object::new();
            for (name, value) in parse_fields(block, 0).0 {
                info.accumulate(&name, value);
            }
            payload.put("WARC-Info-Metadata", info);
        }
        RecordType::Metadata if !content_type.starts_with("application/json") => {
            payload.put("Actual-Content-Type", "application/metadata-fields");
            let records: Vec<Value> = parse_fields(block, 0)
                .0
                .into_iter()
                .map(|(name, value)| {
                    let mut r = Object::new();
                    r.put("Name", name);
                    r.put("Value", value);
                    r.into()
                })
                .collect();
            let mut m = Object::new();
            m.put("Metadata-Records", records);
            payload.put("WARC-Metadata-Metadata", m);
            tail(&mut payload);
        }
        _ => tail(&mut payload),
    }
    let mut env = Object::new();
    env.put("Payload-Metadata", payload);
    if record.version == "ARC" {
        env.put("Format", "ARC");
        let mut arc = Object::new();
        arc.put_opt("Target-URI", record.target_uri.as_deref());
        arc.put_opt("Date", record.date.as_deref());
        arc.put_opt("Content-Type", record.content_type.as_deref());
        arc.put("Content-Length", record.block_len.to_string());
        env.put("ARC-Header-Metadata", arc);
    } else {
        env.put("Format", "WARC/1.0");
        let header_len = record.stored_len.saturating_sub(record.block_len);
        env.put("WARC-Header-Length", header_len.to_string());
        let mut h = Object::new();
        for (name, value) in &record.warc_headers {
            h.accumulate(name, value.as_str());
        }
        env.put("WARC-Header-Metadata", h);
    }
    env
}

/// Whether a `response` record's block is an HTTP response: its
/// `Content-Type` says so (the fork's test), or (an ARC record, a
/// missing type) the block parsed as one.
fn is_http_response(content_type: &str, record: &Record) -> bool {
    let essence = content_type.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/http") {
        return true;
    }
    (content_type.is_empty() || record.version == "ARC") && record.http.is_some()
}

/// `HTTP-Request-Metadata` of a request block.
fn request(block: &[u8]) -> Object {
    let line_end = block
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(block.len());
    let line = String::from_utf8_lossy(&block[..line_end]);
    let terminator = if line.ends_with('\r') { 2 } else { 1 }.min(block.len() - line_end + 1);
    let line = line.trim_end_matches('\r');
    let mut parts = line.split(' ').filter(|p| !p.is_empty());
    let method = parts.next().unwrap_or("");
    let path = parts.next().unwrap_or("");
    let version = parts.next().unwrap_or("");
    let known = ["GET", "HEAD", "POST", "PUT", "TRACE", "DELETE", "CONNECT"];
    let method = known
        .iter()
        .find(|m| m.eq_ignore_ascii_case(method))
        .copied()
        .unwrap_or("UNK");
    let mut msg = Object::new();
    msg.put("Method", method);
    msg.put("Path", path);
    msg.put("Version", version);
    let (fields, body) = parse_fields(block, (line_end + 1).min(block.len()));
    let mut o = Object::new();
    o.put("Request-Message", msg);
    o.put(
        "Headers-Length",
        body.saturating_sub(terminator).to_string(),
    );
    o.put("Headers", headers_object(&fields));
    let entity = &block[body.min(block.len())..];
    entity_keys(&mut o, entity, 0);
    o
}

/// `HTTP-Response-Metadata` of a response or revisit block.
fn response(record: &Record, block: &[u8]) -> Object {
    let mut o = Object::new();
    let Some((http, body)) = parse_response(block)
        .ok()
        .or_else(|| lenient_response(block))
    else {
        // Not an HTTP response (an empty revisit block): what the fork
        // writes for one.
        let mut msg = Object::new();
        msg.put("Status", "0");
        msg.put("Version", "HTTP/1.0");
        o.put("Response-Message", msg);
        o.put("Headers-Length", "0");
        o.put("Headers-Corrupt", true);
        o.put("Headers", Object::new());
        entity_keys(&mut o, b"", 0);
        return o;
    };
    let mut msg = Object::new();
    let status = if (100..=599).contains(&http.status) {
        http.status
    } else {
        0
    };
    msg.put("Status", status.to_string());
    msg.put("Version", http.version.as_str());
    msg.put(
        "Reason",
        if http.reason.is_empty() {
            "UNK"
        } else {
            http.reason.as_str()
        },
    );
    o.put("Response-Message", msg);
    o.put("Headers-Length", body.to_string());
    o.put("Headers", headers_object(&http.headers));
    let rest = &block[body.min(block.len())..];
    // The entity ends where the first Content-Length says, when it is a
    // number within the block.
    let declared = http
        .header("content-length")
        .and_then(|v| v.trim().parse::<usize>().ok());
    let entity = match declared {
        Some(n) if n <= rest.len() => &rest[..n],
        _ => rest,
    };
    if record.kind != RecordType::Revisit && is_html(record, &http) {
        o.put("HTML-Metadata", page_metadata(record, &http, entity));
    }
    entity_keys(&mut o, entity, (rest.len() - entity.len()) as u64);
    o
}

/// A response head whose status line the HTTP parser refuses but which
/// still has a version, a three-digit status and a reason (`HTTPX/1.1 200
/// OK`, which browsers and warcio read): the fork reads its status and
/// headers too.
fn lenient_response(block: &[u8]) -> Option<(spinneret_warc::Http, usize)> {
    let line_end = block.iter().position(|&b| b == b'\n')?;
    let line = String::from_utf8_lossy(&block[..line_end]);
    let mut parts = line.trim_end_matches('\r').splitn(3, ' ');
    let version = parts.next()?.to_owned();
    let code = parts.next()?;
    if code.len() != 3 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (headers, body) = parse_fields(block, line_end + 1);
    let http = spinneret_warc::Http {
        version,
        status: code.parse().ok()?,
        reason: parts.next().unwrap_or("").trim().to_owned(),
        headers,
    };
    Some((http, body))
}

fn entity_keys(o: &mut Object, entity: &[u8], slop: u64) {
    o.put("Entity-Length", entity.len().to_string());
    o.put("Entity-Digest", sha1_digest(entity));
    o.put("Entity-Trailing-Slop-Length", slop.to_string());
}

fn headers_object(fields: &[(String, String)]) -> Object {
    let mut h = Object::new();
    for (name, value) in fields {
        h.accumulate(name, value.as_str());
    }
    h
}

/// The fork's test: `WARC-Identified-Payload-Type` when the record has
/// one (exactly `text/html` or `application/xhtml+xml`), else an HTTP
/// `Content-Type` containing `html`.
fn is_html(record: &Record, http: &spinneret_warc::Http) -> bool {
    let identified = record
        .warc_headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("WARC-Identified-Payload-Type"))
        .map(|(_, v)| v.as_str())
        .filter(|v| !v.is_empty());
    match identified {
        Some(t) => t == "text/html" || t == "application/xhtml+xml",
        None => http
            .header("content-type")
            .is_some_and(|ct| ct.to_ascii_lowercase().contains("html")),
    }
}

/// The page's `HTML-Metadata`: its payload decoded (codings, then
/// characters) and read by [`html_metadata`].
fn page_metadata(record: &Record, http: &spinneret_warc::Http, entity: &[u8]) -> Object {
    let (payload, _) = decode_body(http, entity, MAX_HTML);
    let mut sniffer = Sniffer::new(Policy::Crawler);
    if let Some(url) = record.target_uri.as_deref() {
        sniffer = sniffer.url(url);
    }
    for (name, value) in &http.headers {
        if name.eq_ignore_ascii_case("content-type") {
            sniffer = sniffer.content_type(value.as_bytes());
        }
    }
    let det = sniffer.determine(&payload);
    let text = decode_with(&payload, det.encoding).0;
    html_metadata(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_member_framing() {
        let member = [
            0x1f, 0x8b, 0x08, 0x08, 0, 0, 0, 0, 0, 3, b'a', b'b', 0, 0x03, 0x00, 1, 2, 3, 4, 0, 0,
            0, 0,
        ];
        let g = GzipMember::of(&member).unwrap();
        assert_eq!(g.header_len, 13);
        assert_eq!(g.member_len, 23);
        assert_eq!(g.crc, 0x0403_0201);
        assert_eq!(g.isize, 0);
        assert!(GzipMember::of(b"\x1f\x8b\x08\x08\0\0\0\0\0\x03abc").is_none());
        assert!(GzipMember::of(b"plain text, not a member").is_none());
    }

    #[test]
    fn digests_are_base32_sha1() {
        assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }
}
