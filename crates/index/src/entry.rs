//! One record's index entry: what a replay system needs to find it (its
//! SURT key and timestamp), to describe it (URL, media type, status,
//! payload digest) and to read it (the byte range in its file), plus the
//! fields Common Crawl adds on request.
//!
//! The reference is cdxj-indexer (pywb's indexer) over warcio: the same
//! records get a line (`response`, `revisit`, `resource`, `metadata`;
//! `resource`/`metadata` records of `application/warc-fields` are not
//! listed; [`RecordTypes`] changes the set), and each field has its value:
//!
//! - key: the `surt` package's `surt(url)` (spinneret-canon's port) of a
//!   `WARC-Target-URI` that is a URL (one that the WHATWG parser rejects —
//!   `http://exa mple.com/`, `index.html` — is an [`EntryError::NotAUrl`],
//!   the record gets no line), or `-` for a record without a
//!   `WARC-Target-URI` where the WARC standard makes one optional (`warcinfo`, `metadata`, a type it does not name;
//!   an ARC file's `filedesc` header is read as a `warcinfo`), listed with
//!   `--records all` as cdxj-indexer lists it: with no `url`;
//! - timestamp: the `WARC-Date`'s digits to the second (warcio drops
//!   fractions of a second), in UTC; a date that is not one is an
//!   [`EntryError::BadDate`], the record gets no line
//!   ([`crate::warc_date`]);
//! - `mime`: `warc/revisit` for a revisit, the HTTP `Content-Type` of a
//!   response or request, the WARC `Content-Type` otherwise, cut at the
//!   first `;` or white space; absent when there is none;
//! - `status`: the HTTP status of a response or revisit with an HTTP head
//!   (a revisit's head is the revisited response's, as the crawler
//!   recorded it); one that is not a three-digit code (`HTTP/1.1 20 OK`,
//!   `000`) is an [`EntryError::BadStatus`], the record gets no line;
//! - `digest`: `WARC-Payload-Digest` as written, or, when absent, computed
//!   as warcio does: SHA-1, base32, of the payload as stored (the block
//!   after the HTTP head) — unless only the head of a record larger than
//!   the reader's limit was read, or the record is a `warcinfo` or a
//!   `revisit` (whose payload is not the resource's: warcio's
//!   `NO_PAYLOAD_DIGEST_TYPES`), when it stays absent;
//! - offset and length: see [`Placement`].
//!
//! Invariant: an entry is made from the record alone (on any worker);
//! what depends on neighbours — a request joined to its response, a member
//! shared by several records — is settled in input order by
//! [`crate::join`] and [`Placement::seekable`].

use sha1::{Digest, Sha1};
use spinneret_canon::surt::{SurtCanonicalizer, SurtOptions, surt_string};
use spinneret_warc::{Container, Record, RecordType, http};

use crate::mime_sniff;
use crate::request::RequestHead;
use crate::warc_date::{BadDate, cdx_timestamp};

/// Where a record is in its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// The record's file offset (its gzip member's start when compressed).
    pub offset: u64,
    /// Where the next item of the file starts (or the file's size).
    pub end: u64,
    /// The record's position in the decompressed stream.
    pub stream_offset: u64,
    /// Its header and block, without the CR/LFs after them.
    pub stored_len: u64,
    /// The file's container.
    pub container: Container,
    /// Whether the record starts its gzip member ([`Record::starts_member`]).
    pub starts_member: bool,
    /// Whether it ends its gzip member ([`Record::ends_member`]).
    pub ends_member: bool,
}

impl Placement {
    /// The offset and length a replay system reads: for a compressed file,
    /// the record's member(s) (`end - offset`); for a plain one, the record
    /// without the blank lines after it (as warcio counts it).
    pub fn range(&self) -> (u64, u64) {
        match self.container {
            Container::Plain => (self.offset, self.stored_len),
            Container::Gzip | Container::Zstd => {
                (self.offset, self.end.saturating_sub(self.offset))
            }
        }
    }

    /// Whether replay can seek to the record: always in a plain file; in a
    /// compressed one, when it starts and ends its member(s) (nothing of
    /// another record or damage in them) and, as a check on those, shares
    /// its offset neither with the record before it (`previous_offset`)
    /// nor with the item after it.
    pub fn seekable(&self, previous_offset: Option<u64>) -> bool {
        self.container == Container::Plain
            || (self.starts_member
                && self.ends_member
                && self.end > self.offset
                && previous_offset != Some(self.offset))
    }

    /// The range in the decompressed data, for a record replay cannot seek
    /// to (reported as such, never as a file range).
    pub fn decompressed_range(&self) -> (u64, u64) {
        (self.stream_offset, self.stored_len)
    }
}

/// The record types that get an index line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordTypes {
    bits: u16,
    /// cdxj-indexer's default: `resource` and `metadata` records of
    /// `application/warc-fields` are not listed.
    default_set: bool,
}

impl Default for RecordTypes {
    fn default() -> Self {
        RecordTypes {
            bits: bit(RecordType::Response)
                | bit(RecordType::Revisit)
                | bit(RecordType::Resource)
                | bit(RecordType::Metadata),
            default_set: true,
        }
    }
}

fn bit(kind: RecordType) -> u16 {
    1 << (kind as u16)
}

const ALL_TYPES: [RecordType; 9] = [
    RecordType::Warcinfo,
    RecordType::Response,
    RecordType::Resource,
    RecordType::Request,
    RecordType::Metadata,
    RecordType::Revisit,
    RecordType::Conversion,
    RecordType::Continuation,
    RecordType::Other,
];

impl RecordTypes {
    /// From `--records`: `all`, or a comma-separated list of WARC types.
    pub fn parse(list: &str) -> Result<RecordTypes, String> {
        if list.trim() == "all" {
            return Ok(RecordTypes {
                bits: ALL_TYPES.iter().map(|&k| bit(k)).fold(0, |a, b| a | b),
                default_set: false,
            });
        }
        let mut bits = 0;
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let kind = RecordType::from_name(name);
            if kind == RecordType::Other {
                return Err(format!("unknown record type {name:?}"));
            }
            bits |= bit(kind);
        }
        Ok(RecordTypes {
            bits,
            default_set: false,
        })
    }

    /// Whether `rec` gets a line.
    pub fn lists(&self, rec: &Record) -> bool {
        if self.bits & bit(rec.kind) == 0 {
            return false;
        }
        !(self.default_set
            && matches!(rec.kind, RecordType::Resource | RecordType::Metadata)
            && rec.header("Content-Type") == Some("application/warc-fields"))
    }
}

/// The optional fields (Common Crawl's, and the record id).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fields {
    /// `redirect`: a 3xx response's `Location`, resolved against its URL.
    pub redirect: bool,
    /// `charset`: the payload's encoding as a browser determines it (HTML
    /// and text payloads).
    pub charset: bool,
    /// `mime-detected`: the media type from the payload's bytes.
    pub mime_detected: bool,
    /// `truncated`: `WARC-Truncated`.
    pub truncated: bool,
    /// `recordid`: `WARC-Record-ID`.
    pub record_id: bool,
}

impl Fields {
    /// From `--fields`: a comma-separated list of `redirect`, `charset`,
    /// `mime-detected`, `truncated`, `recordid`, or `cc` for all of
    /// Common Crawl's (all but `recordid`).
    pub fn parse(list: &str) -> Result<Fields, String> {
        let mut f = Fields::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "redirect" => f.redirect = true,
                "charset" => f.charset = true,
                "mime-detected" => f.mime_detected = true,
                "truncated" => f.truncated = true,
                "recordid" => f.record_id = true,
                "cc" => {
                    f.redirect = true;
                    f.charset = true;
                    f.mime_detected = true;
                    f.truncated = true;
                }
                _ => return Err(format!("unknown field {name:?}")),
            }
        }
        Ok(f)
    }
}

/// How entries are made.
#[derive(Debug, Clone, Default)]
pub struct IndexOptions {
    /// The record types listed.
    pub records: RecordTypes,
    /// The optional fields.
    pub fields: Fields,
    /// Join POST/PUT requests to their responses and fold the request
    /// body into the key (`__wb_method=post&…`), as pywb indexes
    /// collections (cdxj-indexer `--post-append`).
    pub post_append: bool,
}

/// One record's index entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The record type.
    pub kind: RecordType,
    /// Whether the record gets a line ([`RecordTypes`]); a request that
    /// is not listed is kept for its join only.
    pub listed: bool,
    /// The SURT key.
    pub urlkey: String,
    /// `YYYYMMDDhhmmss` (or fewer digits when the date has fewer).
    pub timestamp: String,
    /// The record's URL (`WARC-Target-URI`); None only for the record
    /// types where the WARC standard makes it optional (see
    /// [`EntryError::NoUrl`]), whose key is then `-`.
    pub url: Option<String>,
    /// The media type.
    pub mime: Option<String>,
    /// The HTTP status.
    pub status: Option<u16>,
    /// The payload digest (`sha1:BASE32`, as written in the record).
    pub digest: Option<String>,
    /// Where it is.
    pub placement: Placement,
    /// Whether replay can seek to it (settled in input order: see
    /// [`Placement::seekable`]; true until then).
    pub seekable: bool,
    /// `redirect` (when asked for).
    pub redirect: Option<String>,
    /// `charset` (when asked for).
    pub charset: Option<&'static str>,
    /// `mime-detected` (when asked for).
    pub mime_detected: Option<&'static str>,
    /// `truncated` (when asked for).
    pub truncated: Option<String>,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// Whether the line shows the record id (`recordid`).
    pub show_record_id: bool,
    /// `WARC-Concurrent-To` (the first).
    pub concurrent_to: Option<String>,
    /// A POST/PUT's method, once joined (`method` field).
    pub method: Option<String>,
    /// A POST/PUT's folded body, once joined (`requestBody` field).
    pub request_body: Option<String>,
    /// A request's HTTP head and body, for the join.
    pub request: Option<RequestHead>,
}

/// Why a record gets no entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EntryError {
    /// The record has no target URI, and is of a type that must have one
    /// (`response`, `resource`, `request`, `revisit`, `conversion`,
    /// `continuation`: WARC 1.1 §5.3).
    #[error("no WARC-Target-URI")]
    NoUrl,
    /// The record's `WARC-Target-URI` is not a URL (the WHATWG URL
    /// parser, which replay systems' canonicalizers follow, fails on it):
    /// its key and `url` would name nothing a replay system can look up.
    #[error("WARC-Target-URI {uri:?} is not a URL: {why}")]
    NotAUrl {
        /// The URI as recorded.
        uri: String,
        /// Why it does not parse.
        why: String,
    },
    /// The record has no `WARC-Date`.
    #[error("no WARC-Date")]
    NoDate,
    /// The record's HTTP status is not a three-digit code (100–999: the
    /// line's `status` field would not be one).
    #[error("HTTP status {0} is not a three-digit code")]
    BadStatus(u16),
    /// The record's `WARC-Date` is not a date ([`crate::warc_date`]).
    #[error(transparent)]
    BadDate(#[from] BadDate),
}

/// The SURT key of `url`, as the `surt` package's `surt(url)`.
pub fn url_key(url: &str) -> String {
    surt_string(
        url.as_bytes(),
        &SurtCanonicalizer::default(),
        &SurtOptions::default(),
    )
}

/// A media type cut at its first `;` or white space (cdxj-indexer's
/// `[;\s]` split), or None when nothing is left.
fn mime_of(value: Option<&str>) -> Option<String> {
    value.map(|v| {
        v.split(|c: char| c == ';' || c.is_whitespace())
            .next()
            .unwrap_or("")
            .trim()
            .to_owned()
    })
}

/// `sha1:` and the RFC 4648 base32 of the SHA-1 of `bytes`.
pub fn sha1_base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let hash = Sha1::digest(bytes);
    let mut out = String::with_capacity(37);
    out.push_str("sha1:");
    // 20 bytes = 160 bits = 32 base32 digits, no padding.
    for chunk in hash.chunks(5) {
        let n = chunk.iter().fold(0u64, |a, &b| (a << 8) | u64::from(b));
        for i in (0..8).rev() {
            out.push(ALPHABET[((n >> (i * 5)) & 31) as usize] as char);
        }
    }
    out
}

impl Entry {
    /// The entry of `rec` at `placement`, or None when the record neither
    /// gets a line nor is needed for a join.
    pub fn of(
        rec: &Record,
        placement: Placement,
        opts: &IndexOptions,
    ) -> Option<Result<Entry, EntryError>> {
        let listed = opts.records.lists(rec);
        let joins =
            opts.post_append && matches!(rec.kind, RecordType::Request | RecordType::Response);
        if !listed && !joins {
            return None;
        }
        Some(Self::make(rec, placement, opts, listed))
    }

    fn make(
        rec: &Record,
        placement: Placement,
        opts: &IndexOptions,
        listed: bool,
    ) -> Result<Entry, EntryError> {
        let url = rec.target_uri.clone();
        let url_optional = matches!(
            rec.kind,
            RecordType::Warcinfo | RecordType::Metadata | RecordType::Other
        );
        if url.is_none() && !url_optional {
            return Err(EntryError::NoUrl);
        }
        if let Some(u) = &url
            && let Err(e) = spinneret_url::Url::parse(u)
        {
            return Err(EntryError::NotAUrl {
                uri: u.clone(),
                why: e.to_string(),
            });
        }
        let timestamp = cdx_timestamp(rec.date.as_deref().ok_or(EntryError::NoDate)?)?;
        let complete = rec.block.len() as u64 == rec.block_len;
        let request = (rec.kind == RecordType::Request)
            .then(|| RequestHead::parse(&rec.block, complete))
            .flatten();
        let mime = match rec.kind {
            RecordType::Revisit => Some("warc/revisit".to_owned()),
            RecordType::Response => {
                mime_of(rec.http.as_ref().and_then(|h| h.header("content-type")))
            }
            RecordType::Request => mime_of(request.as_ref().and_then(|r| r.header("content-type"))),
            _ => mime_of(rec.content_type.as_deref()),
        };
        let status = match rec.kind {
            RecordType::Response | RecordType::Revisit => rec.status(),
            _ => None,
        };
        if let Some(s) = status
            && !(100..=999).contains(&s)
        {
            return Err(EntryError::BadStatus(s));
        }
        let payload = payload_of(rec, request.as_ref());
        let digest = rec.payload_digest.clone().or_else(|| {
            let has_payload = !matches!(rec.kind, RecordType::Warcinfo | RecordType::Revisit);
            (complete && has_payload).then(|| sha1_base32(payload))
        });
        let f = &opts.fields;
        let redirect = match &url {
            Some(url) if f.redirect => redirect_of(rec, url),
            _ => None,
        };
        let (charset, mime_detected) = if (f.charset || f.mime_detected)
            && matches!(rec.kind, RecordType::Response | RecordType::Resource)
        {
            sniff(rec, payload, f)
        } else {
            (None, None)
        };
        Ok(Entry {
            kind: rec.kind,
            listed,
            urlkey: url.as_deref().map_or_else(|| "-".to_owned(), url_key),
            timestamp,
            url,
            mime,
            status,
            digest,
            placement,
            seekable: true,
            redirect,
            charset,
            mime_detected,
            truncated: if f.truncated {
                rec.truncated.clone()
            } else {
                None
            },
            record_id: rec.record_id.clone(),
            show_record_id: f.record_id,
            concurrent_to: rec.header("WARC-Concurrent-To").map(str::to_owned),
            method: None,
            request_body: None,
            request,
        })
    }
}

/// The payload as stored: the block after the HTTP head of a record with
/// one (response, revisit; a request's after its request head, `request`),
/// the whole block otherwise.
fn payload_of<'r>(rec: &'r Record, request: Option<&RequestHead>) -> &'r [u8] {
    let block = &rec.block[..];
    let head_end = match rec.kind {
        RecordType::Response | RecordType::Revisit if rec.http.is_some() => {
            http::parse_response(block).ok().map(|(_, at)| at)
        }
        RecordType::Request => request.map(|r| r.body_at),
        _ => None,
    };
    &block[head_end.unwrap_or(0).min(block.len())..]
}

/// A 3xx response's first `Location`, resolved against `url` (as written
/// when it does not resolve).
fn redirect_of(rec: &Record, url: &str) -> Option<String> {
    let location = rec.link_headers().location?.trim().to_owned();
    let resolved = spinneret_url::Url::parse(url)
        .ok()
        .and_then(|base| spinneret_url::Url::parse_with_base(&location, &base).ok())
        .map(|u| u.href().to_owned());
    Some(resolved.unwrap_or(location))
}

/// The `charset` and `mime-detected` of a response or resource payload,
/// from its first bytes (content codings removed; at most 64 KiB decoded).
fn sniff(rec: &Record, payload: &[u8], f: &Fields) -> (Option<&'static str>, Option<&'static str>) {
    const SNIFF_LIMIT: usize = 64 << 10;
    let decoded = match &rec.http {
        Some(h) => http::decode_body(h, payload, SNIFF_LIMIT).0,
        None => std::borrow::Cow::Borrowed(&payload[..payload.len().min(SNIFF_LIMIT)]),
    };
    let declared = match &rec.http {
        Some(h) => h.header("content-type"),
        None => rec.content_type.as_deref(),
    };
    let detected = mime_sniff::detect(declared, &decoded);
    let mime_detected = f.mime_detected.then_some(detected);
    let charset = if f.charset && is_text(detected) && !decoded.is_empty() {
        let mut sniffer = spinneret_encoding::Sniffer::new(spinneret_encoding::Policy::Browser)
            .url(rec.target_uri.as_deref().unwrap_or(""));
        if let Some(ct) = declared {
            sniffer = sniffer.content_type(ct.as_bytes());
        }
        let complete = decoded.len() < SNIFF_LIMIT;
        Some(sniffer.determine_prefix(&decoded, complete).encoding.name())
    } else {
        None
    };
    (charset, mime_detected)
}

/// Whether a detected media type is text a charset applies to.
fn is_text(mime: &str) -> bool {
    mime.starts_with("text/")
        || mime.ends_with("+xml")
        || mime.ends_with("/xml")
        || mime == "application/json"
        || mime == "application/javascript"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn media_types_are_cut_as_cdxj_indexer_cuts_them() {
        assert_eq!(
            mime_of(Some("text/html; charset=utf-8")).unwrap(),
            "text/html"
        );
        assert_eq!(mime_of(Some(" text/html")).unwrap(), "");
        assert_eq!(mime_of(Some("")).unwrap(), "");
        assert_eq!(mime_of(None), None);
    }

    #[test]
    fn the_empty_payload_has_the_known_digest() {
        assert_eq!(sha1_base32(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    #[test]
    fn record_types_parse() {
        assert!(RecordTypes::parse("response,request").is_ok());
        assert!(RecordTypes::parse("all").is_ok());
        assert!(RecordTypes::parse("responses").is_err());
    }
}
