//! A record from its header and block: the WARC fields it exposes, the HTTP
//! head of `response` and `revisit` records, and the decoded payload of
//! `response` and `resource` records.
//!
//! The payload is not copied when it can be a range of the reader's buffer:
//! when the reader hands the buffer over ([`Block::Owned`]) and the payload
//! needs no decoding, the record's [`Body`] is that range of the buffer.
//! A `response` that declares an HTTP message (`application/http`, or an
//! `http:`/`https:` target) but does not parse as one is an error; one that
//! declares none and has no status line keeps its whole block as the
//! payload. A `resource` record's payload is its block, cut at
//! `max_body_size`.

use std::borrow::Cow;
use std::ops::Range;

use crate::body::Body;
use crate::error::{HttpProblem, RecordError};
use crate::http;
use crate::reader::{Content, Header, Options};
use crate::record::{Record, RecordType};
use crate::warc_header::field;

/// A record's block: in the reader's buffer, or the buffer the reader handed
/// over to the record, with the block's range in it.
pub(crate) enum Block<'b> {
    Borrowed(&'b [u8]),
    Owned(Vec<u8>, Range<usize>),
}

/// Where a record's payload is, once decoded.
enum Payload {
    None,
    /// A range of the block.
    InBlock(Range<usize>),
    Decoded(Vec<u8>),
}

/// The record from its header and block: the WARC fields it exposes, the
/// HTTP head of `response`/`revisit` records, and the decoded payload of
/// `response`/`resource` records.
pub(crate) fn build(
    header: Header,
    offset: u64,
    block: Block<'_>,
    opts: &Options,
) -> Result<Record, RecordError> {
    let Header {
        version,
        fields,
        arc,
        target_uri,
        ..
    } = header;
    let bytes: &[u8] = match &block {
        Block::Borrowed(b) => b,
        Block::Owned(buf, range) => &buf[range.clone()],
    };
    let (kind, date, content_type, target_uri) = match &arc {
        Some(h) => {
            let kind = if h.url.starts_with("filedesc:") {
                RecordType::Warcinfo
            } else {
                RecordType::Response
            };
            let target = (kind != RecordType::Warcinfo).then_some(h.url.clone());
            (kind, Some(h.date.clone()), Some(h.mime.clone()), target)
        }
        None => (
            RecordType::from_name(field(&fields, "WARC-Type").unwrap_or("")),
            field(&fields, "WARC-Date").map(str::to_string),
            field(&fields, "Content-Type").map(str::to_string),
            target_uri,
        ),
    };
    let mut rec = Record {
        kind,
        version,
        offset,
        target_uri,
        date,
        record_id: field(&fields, "WARC-Record-ID").map(str::to_string),
        payload_digest: field(&fields, "WARC-Payload-Digest").map(str::to_string),
        refers_to: field(&fields, "WARC-Refers-To").map(str::to_string),
        refers_to_target_uri: field(&fields, "WARC-Refers-To-Target-URI").map(str::to_string),
        refers_to_date: field(&fields, "WARC-Refers-To-Date").map(str::to_string),
        truncated: field(&fields, "WARC-Truncated").map(str::to_string),
        content_type,
        block_len: bytes.len() as u64,
        stream_offset: 0,
        stored_len: 0,
        starts_member: true,
        ends_member: true,
        warc_headers: fields,
        http: None,
        body: Body::default(),
        block: Body::default(),
        body_error: None,
    };
    let decode = opts.content == Content::Payload;
    let mut payload = Payload::None;
    let wants_http = matches!(kind, RecordType::Response | RecordType::Revisit);
    if wants_http && !bytes.is_empty() {
        let declared_http = rec
            .content_type
            .as_deref()
            .is_some_and(|c| c.to_ascii_lowercase().contains("application/http"))
            || rec
                .target_uri
                .as_deref()
                .is_some_and(|u| u.starts_with("http:") || u.starts_with("https:"));
        match http::parse_response(bytes) {
            Ok((h, body_at)) => {
                if kind == RecordType::Response && decode {
                    let (body, err) = http::decode_body(&h, &bytes[body_at..], opts.max_body_size);
                    payload = match body {
                        // A borrowed body is a prefix of what it was given.
                        Cow::Borrowed(b) => Payload::InBlock(body_at..body_at + b.len()),
                        Cow::Owned(b) => Payload::Decoded(b),
                    };
                    rec.body_error = err;
                }
                rec.http = Some(h);
            }
            // Reading blocks rather than payloads (an indexer, a verifier),
            // a response that is not HTTP is still a record: it has no
            // HTTP head.
            Err(problem) if declared_http && kind == RecordType::Response && decode => {
                return Err(RecordError::BadHttp {
                    offset,
                    target_uri: rec.target_uri,
                    problem,
                });
            }
            Err(HttpProblem::BadStatusLine) => {
                if kind == RecordType::Response && decode {
                    payload = Payload::InBlock(0..bytes.len());
                }
            }
        }
    } else if decode && (kind == RecordType::Resource || is_wat_json(kind, &rec)) {
        payload = Payload::InBlock(0..bytes.len().min(opts.max_body_size));
    }
    if !decode {
        rec.block = match block {
            Block::Borrowed(b) => Body::from(b.to_vec()),
            Block::Owned(buf, range) => Body::in_buffer(buf, range),
        };
        return Ok(rec);
    }
    rec.body = match (payload, block) {
        (Payload::None, _) => Body::default(),
        (Payload::Decoded(b), _) => Body::from(b),
        (Payload::InBlock(r), Block::Borrowed(b)) => Body::from(b[r].to_vec()),
        (Payload::InBlock(r), Block::Owned(buf, range)) => {
            Body::in_buffer(buf, range.start + r.start..range.start + r.end)
        }
    };
    Ok(rec)
}

/// A WAT record: `metadata` whose block is JSON (`application/json`), the
/// page's links for a reader of WAT files.
fn is_wat_json(kind: RecordType, rec: &Record) -> bool {
    kind == RecordType::Metadata
        && rec.content_type.as_deref().is_some_and(|c| {
            c.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/json")
        })
}
