//! WARC header blocks (WARC/1.0 and WARC/1.1, section 4 "File and record
//! model"): a version line, named fields in the form of HTTP header fields,
//! and an empty line; the block that follows is `Content-Length` bytes long.
//!
//! The reader finds the header's end with [`header_len`] (reading more data
//! until it succeeds or [`MAX_HEADER`] bytes are buffered) and then parses
//! the whole header with [`parse_warc_header`]. Both are pure functions of
//! the bytes; where to resume after a bad header is the reader's decision.

use crate::error::HeaderProblem;
use crate::http;

/// The longest WARC header block accepted, in bytes.
pub(crate) const MAX_HEADER: usize = 256 << 10;

/// A parsed WARC header block.
#[derive(Debug, Clone)]
pub(crate) struct WarcHeader {
    /// The version line, trimmed (`WARC/1.1`).
    pub version: String,
    /// The named fields in order, as written.
    pub fields: Vec<(String, String)>,
    /// `WARC-Target-URI`, without the angle brackets some writers add.
    pub target_uri: Option<String>,
    /// `Content-Length`: the length of the block after the header.
    pub length: u64,
}

/// The length of the header block at the start of `data`, up to and
/// including the empty line that ends it (CRLF, bare LF, or CRs then LF as
/// in a CRLF file converted twice), or `None` when `data` holds no empty
/// line yet.
pub(crate) fn header_len(data: &[u8]) -> Option<usize> {
    let mut at = 0;
    while let Some(i) = memchr::memchr(b'\n', &data[at..]) {
        let start = at + i + 1;
        let crs = data[start..].iter().take_while(|&&b| b == b'\r').count();
        if data.get(start + crs) == Some(&b'\n') {
            return Some(start + crs + 1);
        }
        at = start;
    }
    None
}

/// Parses a whole header block (as delimited by [`header_len`]). Fails
/// when `Content-Length` is missing or not a decimal number.
pub(crate) fn parse_warc_header(block: &[u8]) -> Result<WarcHeader, HeaderProblem> {
    let nl = memchr::memchr(b'\n', block).unwrap_or(block.len());
    let version = String::from_utf8_lossy(&block[..nl]).trim().to_string();
    let (fields, _) = http::parse_fields(block, nl + 1);
    let target_uri =
        field(&fields, "WARC-Target-URI").map(|s| s.trim_matches(['<', '>']).to_string());
    let length = field(&fields, "Content-Length")
        .ok_or(HeaderProblem::MissingContentLength)?
        .trim()
        .parse::<u64>()
        .map_err(|_| HeaderProblem::BadContentLength)?;
    Ok(WarcHeader {
        version,
        fields,
        target_uri,
        length,
    })
}

/// The value of the first field named `name` (case-insensitive).
pub(crate) fn field<'f>(fields: &'f [(String, String)], name: &str) -> Option<&'f str> {
    fields
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}
