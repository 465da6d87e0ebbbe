//! The record type produced by [`crate::Reader`].
//!
//! Invariant: `body` is non-empty only for processed records (`response`,
//! `resource`): the HTTP body after transfer and content decoding, or the
//! whole block when there is no HTTP message. Skipped types (`request`,
//! `metadata`, `warcinfo`, `revisit`, …) keep their headers (and, for
//! `revisit`, the parsed HTTP head) so later stages can count them.

use crate::body::Body;
use crate::error::BodyError;
use crate::http::{self, Http};

/// The WARC-Type of a record (ARC records map to `Warcinfo` for the
/// `filedesc://` header, `Response` for every other record, as pywb does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordType {
    /// `warcinfo`: information about the file (an ARC file's `filedesc:`).
    Warcinfo,
    /// `response`: a server's response, usually an HTTP message.
    Response,
    /// `resource`: a resource without the protocol around it.
    Resource,
    /// `request`: the request that was sent.
    Request,
    /// `metadata`: information about another record.
    Metadata,
    /// `revisit`: content already archived in another record.
    Revisit,
    /// `conversion`: another record's content transformed.
    Conversion,
    /// `continuation`: a segment of a record split over several.
    Continuation,
    /// A type this crate does not know.
    Other,
}

impl RecordType {
    /// From a `WARC-Type` value (case-insensitive).
    pub fn from_name(name: &str) -> Self {
        match name.trim().to_ascii_lowercase().as_str() {
            "warcinfo" => RecordType::Warcinfo,
            "response" => RecordType::Response,
            "resource" => RecordType::Resource,
            "request" => RecordType::Request,
            "metadata" => RecordType::Metadata,
            "revisit" => RecordType::Revisit,
            "conversion" => RecordType::Conversion,
            "continuation" => RecordType::Continuation,
            _ => RecordType::Other,
        }
    }

    /// The `WARC-Type` name.
    pub fn name(self) -> &'static str {
        match self {
            RecordType::Warcinfo => "warcinfo",
            RecordType::Response => "response",
            RecordType::Resource => "resource",
            RecordType::Request => "request",
            RecordType::Metadata => "metadata",
            RecordType::Revisit => "revisit",
            RecordType::Conversion => "conversion",
            RecordType::Continuation => "continuation",
            RecordType::Other => "other",
        }
    }

    /// Whether the payload of this type is decoded (`response`, `resource`).
    pub fn is_processed(self) -> bool {
        matches!(self, RecordType::Response | RecordType::Resource)
    }
}

/// One WARC or ARC record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// The record type (`WARC-Type`; for ARC, see [`RecordType`]).
    pub kind: RecordType,
    /// `WARC/1.0`, `WARC/1.1`, … or `ARC`.
    pub version: String,
    /// File offset of the record: its first byte in a plain file, the start of
    /// its gzip member / zstd frame in a compressed one (for a member holding
    /// several records, the member's start).
    pub offset: u64,
    /// `WARC-Target-URI` (angle brackets removed), or the ARC URL.
    pub target_uri: Option<String>,
    /// `WARC-Date` as written; ARC dates converted to `YYYY-MM-DDThh:mm:ssZ`.
    pub date: Option<String>,
    /// `WARC-Record-ID` as written.
    pub record_id: Option<String>,
    /// `WARC-Payload-Digest` as written.
    pub payload_digest: Option<String>,
    /// `WARC-Refers-To` (a `revisit` record's original).
    pub refers_to: Option<String>,
    /// `WARC-Refers-To-Target-URI`.
    pub refers_to_target_uri: Option<String>,
    /// `WARC-Refers-To-Date`.
    pub refers_to_date: Option<String>,
    /// `WARC-Truncated`, when the crawler cut the record.
    pub truncated: Option<String>,
    /// The block's Content-Type (WARC header; ARC header field).
    pub content_type: Option<String>,
    /// Length of the record block as stored (as declared, with
    /// [`Content::Head`](crate::Content::Head)).
    pub block_len: u64,
    /// Position of the record's first byte in the file's decoded stream
    /// (the file offset for a plain file; inside the decompressed data for
    /// a compressed one, where [`Record::offset`] is its member's start).
    pub stream_offset: u64,
    /// The record's length in the decoded stream: its header and block,
    /// without the CR/LFs after it (what warcio counts as an uncompressed
    /// record's length).
    pub stored_len: u64,
    /// Whether the record starts its gzip member or zstd frame (nothing of
    /// an earlier record or damage in it before the record; always true in
    /// a plain file): with the next record's, whether replay can seek to
    /// the record at [`Record::offset`].
    pub starts_member: bool,
    /// Whether the record ends its gzip member or zstd frame (nothing of a
    /// later record in it after the record's CR/LFs; always true in a
    /// plain file). A record that starts and ends its member(s) is what
    /// replay reads at [`Record::offset`].
    pub ends_member: bool,
    /// All WARC header fields in order (empty for ARC).
    pub warc_headers: Vec<(String, String)>,
    /// The HTTP response head (`response` and `revisit` records).
    pub http: Option<Http>,
    /// The decoded payload (processed types only, with
    /// [`Content::Payload`](crate::Content::Payload)), or a WAT
    /// `metadata` record's JSON.
    pub body: Body,
    /// The block as stored, or its first bytes: every record, with
    /// [`Content::Block`](crate::Content::Block) or
    /// [`Content::Head`](crate::Content::Head); empty otherwise.
    pub block: Body,
    /// Set when the payload could only be partly decoded.
    pub body_error: Option<BodyError>,
}

/// The response header fields a link extractor reads
/// ([`Record::link_headers`]), values as received.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinkHeaders<'r> {
    /// Each `Content-Type` field value, in order.
    pub content_type: Vec<&'r [u8]>,
    /// The first `Location` of a 3xx response.
    pub location: Option<&'r str>,
    /// Each `Link` field value, in order.
    pub link: Vec<&'r str>,
}

impl Record {
    /// The first value of a WARC header field (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.warc_headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The HTTP status, when there is an HTTP message.
    pub fn status(&self) -> Option<u16> {
        self.http.as_ref().map(|h| h.status)
    }

    /// The payload's media type as declared: the HTTP `Content-Type`, else
    /// (no HTTP message) the block's Content-Type.
    pub fn payload_content_type(&self) -> Option<&str> {
        match &self.http {
            Some(h) => h.header("content-type"),
            None => self.content_type.as_deref(),
        }
    }

    /// The response header fields a link extractor reads: each
    /// `Content-Type` (the WARC header's when the record has no HTTP head),
    /// every `Link`, and the first `Location` of a 3xx response.
    pub fn link_headers(&self) -> LinkHeaders<'_> {
        let mut h = LinkHeaders::default();
        if let Some(http) = &self.http {
            for (name, value) in &http.headers {
                if name.eq_ignore_ascii_case("content-type") {
                    h.content_type.push(value.as_bytes());
                } else if name.eq_ignore_ascii_case("link") {
                    h.link.push(value);
                } else if name.eq_ignore_ascii_case("location")
                    && (300..400).contains(&http.status)
                    && h.location.is_none()
                {
                    h.location = Some(value);
                }
            }
        } else if let Some(ct) = &self.content_type {
            h.content_type.push(ct.as_bytes());
        }
        h
    }

    /// Whether the payload is HTML: a processed record whose declared type is
    /// `text/html` or `application/xhtml+xml`, or whose type is missing or
    /// unknown (`unknown/unknown`, `application/unknown`, `*/*`, no `/`) and
    /// whose body starts with an HTML signature of the MIME Sniffing standard.
    pub fn is_html(&self) -> bool {
        if !self.kind.is_processed() {
            return false;
        }
        let essence = http::mime_essence(self.payload_content_type());
        match essence.as_str() {
            "text/html" | "application/xhtml+xml" => true,
            e if http::is_unknown_type(e) => http::sniff_html(&self.body),
            _ => false,
        }
    }
}
