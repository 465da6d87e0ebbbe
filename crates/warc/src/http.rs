//! HTTP messages stored in records: a tolerant status-line and header parser,
//! payload decoding (chunked, gzip, deflate, br) with a size limit, and HTML
//! selection (Content-Type, else the MIME Sniffing standard's HTML
//! signatures).
//!
//! Invariants: parsing never fails on header syntax (lines without a colon are
//! ignored, LF-only line ends and obs-fold are accepted, bytes are decoded
//! lossily); only a missing `HTTP/x.y NNN` status line is an error. Decoding
//! never fails either: a failure keeps the best body and reports a
//! [`BodyError`].

use std::borrow::Cow;
use std::io::Read;

use crate::error::{BodyError, HttpProblem};

/// A parsed HTTP response head.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Http {
    /// e.g. `HTTP/1.1`.
    pub version: String,
    /// The status code (0–999).
    pub status: u16,
    /// The reason phrase (may be empty).
    pub reason: String,
    /// Header fields in order, names as written, values trimmed, bytes
    /// decoded as UTF-8 lossily.
    pub headers: Vec<(String, String)>,
}

impl Http {
    /// The first value of a header (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Splits `block` into lines (without CR/LF), returning each line's slice and
/// the offset after its terminator.
fn next_line(block: &[u8], from: usize) -> Option<(&[u8], usize)> {
    if from >= block.len() {
        return None;
    }
    let rest = &block[from..];
    let (line, next) = match memchr::memchr(b'\n', rest) {
        Some(i) => (&rest[..i], from + i + 1),
        None => (rest, block.len()),
    };
    // Every CR before the LF: some files end lines with CR CR LF (a CRLF
    // file converted again), which warcio and pywb read.
    let cr = line.iter().rev().take_while(|&&b| b == b'\r').count();
    Some((&line[..line.len() - cr], next))
}

/// Parses header lines from `from` to the first empty line; returns the
/// fields and the offset after the empty line (or the end of `block`).
pub fn parse_fields(block: &[u8], mut from: usize) -> (Vec<(String, String)>, usize) {
    let mut fields: Vec<(String, String)> = Vec::new();
    while let Some((line, next)) = next_line(block, from) {
        from = next;
        if line.is_empty() {
            break;
        }
        if matches!(line[0], b' ' | b'\t') {
            if let Some((_, v)) = fields.last_mut() {
                v.push(' ');
                v.push_str(String::from_utf8_lossy(line).trim());
            }
            continue;
        }
        if let Some(colon) = memchr::memchr(b':', line) {
            let name = String::from_utf8_lossy(&line[..colon]).trim().to_string();
            let value = String::from_utf8_lossy(&line[colon + 1..])
                .trim()
                .to_string();
            fields.push((name, value));
        }
    }
    (fields, from)
}

/// Parses an HTTP response head at the start of `block`; returns it and the
/// offset of the body.
pub fn parse_response(block: &[u8]) -> Result<(Http, usize), HttpProblem> {
    let mut from = 0;
    while from < block.len() && matches!(block[from], b'\r' | b'\n') {
        from += 1;
    }
    let (line, next) = next_line(block, from).ok_or(HttpProblem::BadStatusLine)?;
    if !line.starts_with(b"HTTP/") {
        return Err(HttpProblem::BadStatusLine);
    }
    let text = String::from_utf8_lossy(line);
    let mut parts = text.splitn(2, [' ', '\t']);
    let version = parts.next().unwrap_or_default().to_string();
    let rest = parts.next().unwrap_or_default().trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return Err(HttpProblem::BadStatusLine);
    }
    let status: u16 = rest[..digits]
        .parse()
        .map_err(|_| HttpProblem::BadStatusLine)?;
    let reason = rest[digits..].trim().to_string();
    let (headers, body) = parse_fields(block, next);
    Ok((
        Http {
            version,
            status,
            reason,
            headers,
        },
        body,
    ))
}

/// Removes `Transfer-Encoding: chunked` framing. Tolerates a missing final
/// chunk (end of data) but not a malformed size line or a short chunk.
pub fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut pos = 0;
    loop {
        let Some((line, next)) = next_line(body, pos) else {
            return if out.is_empty() && !body.is_empty() {
                None
            } else {
                Some(out)
            };
        };
        let line = line.split(|&b| b == b';').next().unwrap_or_default();
        let hex = line.trim_ascii();
        if hex.is_empty() || hex.len() > 15 || !hex.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        let size = usize::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
        if size == 0 {
            return Some(out);
        }
        let end = next.checked_add(size)?;
        let chunk = body.get(next..end)?;
        out.extend_from_slice(chunk);
        pos = end;
        // The CRLF after the chunk data.
        if body.get(pos) == Some(&b'\r') {
            pos += 1;
        }
        if body.get(pos) == Some(&b'\n') {
            pos += 1;
        }
    }
}

/// Reads at most `limit` bytes from a decoder; returns the bytes and the
/// error that stopped it, if any.
fn read_limited(
    mut r: impl Read,
    limit: usize,
    coding: &'static str,
) -> (Vec<u8>, Option<BodyError>) {
    let mut out = Vec::new();
    let res = (&mut r).take(limit as u64 + 1).read_to_end(&mut out);
    match res {
        Err(e) => (
            out,
            Some(BodyError::Decode {
                coding,
                detail: e.to_string(),
            }),
        ),
        Ok(_) if out.len() > limit => {
            out.truncate(limit);
            (out, Some(BodyError::TooLarge { limit }))
        }
        Ok(_) => (out, None),
    }
}

/// Decodes one content coding. `None` when the bytes are evidently not in
/// that coding (a stale header over an already-decoded payload).
fn decode_one(coding: &str, body: &[u8], limit: usize) -> Option<(Vec<u8>, Option<BodyError>)> {
    match coding {
        "gzip" | "x-gzip" => {
            if !body.starts_with(b"\x1f\x8b") {
                return None;
            }
            Some(read_limited(
                flate2::read::MultiGzDecoder::new(body),
                limit,
                "gzip",
            ))
        }
        "deflate" => {
            let zlib = body.len() >= 2
                && body[0] & 0x0f == 8
                && (u16::from(body[0]) << 8 | u16::from(body[1])) % 31 == 0;
            if zlib {
                Some(read_limited(
                    flate2::read::ZlibDecoder::new(body),
                    limit,
                    "deflate",
                ))
            } else {
                Some(read_limited(
                    flate2::read::DeflateDecoder::new(body),
                    limit,
                    "deflate",
                ))
            }
        }
        "br" => Some(read_limited(
            brotli_decompressor::Decompressor::new(body, 4096),
            limit,
            "br",
        )),
        _ => None,
    }
}

/// Decodes a stored HTTP body per its `Transfer-Encoding` and
/// `Content-Encoding` headers. A body that needs no decoding is borrowed:
/// then it is always a prefix of `raw` (all of it, or `limit` bytes).
pub fn decode_body<'r>(
    http: &Http,
    raw: &'r [u8],
    limit: usize,
) -> (Cow<'r, [u8]>, Option<BodyError>) {
    let mut error = None;
    let chunked = http
        .header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    let mut body = if chunked {
        match dechunk(raw) {
            Some(b) => Cow::Owned(b),
            None => {
                error = Some(BodyError::BadChunked);
                Cow::Borrowed(raw)
            }
        }
    } else {
        Cow::Borrowed(raw)
    };
    if body.len() > limit {
        body = match body {
            Cow::Borrowed(b) => Cow::Borrowed(&b[..limit]),
            Cow::Owned(mut b) => {
                b.truncate(limit);
                Cow::Owned(b)
            }
        };
        error = Some(BodyError::TooLarge { limit });
    }
    let codings: Vec<String> = http
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case("content-encoding"))
        .flat_map(|(_, v)| v.split(',').map(|c| c.trim().to_ascii_lowercase()))
        .filter(|c| !c.is_empty() && c != "identity" && c != "none")
        .collect();
    // Codings are listed in the order applied: undo them last to first.
    for coding in codings.iter().rev() {
        match decode_one(coding, &body, limit) {
            Some((decoded, e)) => {
                if e.is_some() && decoded.is_empty() {
                    error = e;
                    break;
                }
                body = Cow::Owned(decoded);
                if e.is_some() {
                    error = e;
                }
            }
            None => {
                if !matches!(coding.as_str(), "gzip" | "x-gzip" | "deflate" | "br") {
                    error = Some(BodyError::Unsupported(coding.clone()));
                }
                break;
            }
        }
    }
    (body, error)
}

/// The essence of a MIME type (`type/subtype`, lower case), or "" when absent.
pub fn mime_essence(content_type: Option<&str>) -> String {
    content_type
        .unwrap_or("")
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

/// Whether a Content-Type is missing or one of the MIME Sniffing standard's
/// unknown types (`unknown/unknown`, `application/unknown`, `*/*`).
pub fn is_unknown_type(essence: &str) -> bool {
    matches!(
        essence,
        "" | "unknown/unknown" | "application/unknown" | "*/*"
    ) || !essence.contains('/')
}

/// The MIME Sniffing standard's HTML signatures (§7.1, "identifying a resource
/// with an unknown MIME type"): after leading whitespace, one of these
/// case-insensitive patterns followed by a tag-terminating byte (space or `>`).
pub fn sniff_html(body: &[u8]) -> bool {
    const PATTERNS: [&[u8]; 17] = [
        b"<!DOCTYPE HTML",
        b"<HTML",
        b"<HEAD",
        b"<SCRIPT",
        b"<IFRAME",
        b"<H1",
        b"<DIV",
        b"<FONT",
        b"<TABLE",
        b"<A",
        b"<STYLE",
        b"<TITLE",
        b"<B",
        b"<BODY",
        b"<BR",
        b"<P",
        b"<!--",
    ];
    // The resource header is at most 1445 bytes.
    let head = &body[..body.len().min(1445)];
    let start = head
        .iter()
        .position(|b| !matches!(b, 0x09 | 0x0a | 0x0c | 0x0d | 0x20))
        .unwrap_or(head.len());
    let s = &head[start..];
    PATTERNS.iter().any(|p| {
        s.len() > p.len()
            && s[..p.len()].eq_ignore_ascii_case(p)
            && matches!(s[p.len()], b' ' | b'>')
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn tolerant_head() {
        let (h, body) =
            parse_response(b"HTTP/1.0 204\nContent-Type: text/html\nbroken line\n X: y\n\nhi")
                .unwrap();
        assert_eq!((h.status, h.reason.as_str()), (204, ""));
        assert_eq!(h.header("content-type"), Some("text/html X: y"));
        assert_eq!(body, 56);
        assert!(parse_response(b"garbage").is_err());
        assert!(parse_response(b"HTTP/1.1 abc").is_err());
        let (h, _) = parse_response(b"HTTP/1.1 200 OK\r\nX: \xff\r\n").unwrap();
        assert_eq!(h.header("x"), Some("\u{fffd}"));
    }

    #[test]
    fn chunked() {
        assert_eq!(
            dechunk(b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n").unwrap(),
            b"abcde"
        );
        assert_eq!(dechunk(b"3\r\nabc\r\n").unwrap(), b"abc");
        assert!(dechunk(b"<html>").is_none());
        assert!(dechunk(b"10\r\nabc").is_none());
    }

    #[test]
    fn codings_and_limits() {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(&[b'a'; 10_000]).unwrap();
        let gz = e.finish().unwrap();
        let http = Http {
            headers: vec![("Content-Encoding".into(), "gzip".into())],
            ..Http::default()
        };
        let (b, err) = decode_body(&http, &gz, 1 << 20);
        assert_eq!((b.len(), err), (10_000, None));
        let (b, err) = decode_body(&http, &gz, 100);
        assert_eq!(
            (b.len(), err),
            (100, Some(BodyError::TooLarge { limit: 100 }))
        );
        // A stale header over a plain payload is left alone.
        let (b, err) = decode_body(&http, b"<html>", 100);
        assert_eq!((b.as_ref(), err), (&b"<html>"[..], None));
        let (b, err) = decode_body(&http, &gz[..gz.len() / 2], 1 << 20);
        assert!(
            matches!(err, Some(BodyError::Decode { .. })),
            "{err:?} {}",
            b.len()
        );
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        z.write_all(b"zlib!").unwrap();
        let http = Http {
            headers: vec![("content-encoding".into(), "deflate".into())],
            ..Http::default()
        };
        assert_eq!(&*decode_body(&http, &z.finish().unwrap(), 100).0, b"zlib!");
    }

    #[test]
    fn sniffing() {
        assert!(sniff_html(b"  \n<!doctype html>"));
        assert!(sniff_html(b"<p>x"));
        assert!(sniff_html(b"<!-- c -->"));
        assert!(!sniff_html(b"<pre>"));
        assert!(!sniff_html(b"<html"));
        assert!(!sniff_html(b"{\"a\":1}"));
        assert!(is_unknown_type(&mime_essence(None)));
        assert_eq!(mime_essence(Some("Text/HTML; charset=x")), "text/html");
    }
}
