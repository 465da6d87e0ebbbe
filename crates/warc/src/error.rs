//! Typed errors of the record layer.
//!
//! Every [`RecordError`] carries the file offset it concerns (the start of a
//! gzip/zstd member, of a plain record, or of skipped bytes); the reader
//! always resumes after reporting one. [`BodyError`] is not an iteration
//! error: it is attached to a record whose payload could only be partly
//! decoded (the record is still produced, with the best body available).

use std::fmt;

/// The container a file was detected as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Container {
    /// Uncompressed WARC or ARC.
    Plain,
    /// gzip members (usually one per record, possibly one for the whole file).
    Gzip,
    /// zstd frames (usually one per record), with an optional dictionary frame.
    Zstd,
}

impl fmt::Display for Container {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Container::Plain => "plain",
            Container::Gzip => "gzip",
            Container::Zstd => "zstd",
        })
    }
}

/// What is wrong with a record header (WARC header block or ARC header line).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HeaderProblem {
    /// Neither a `WARC/x.y` version line nor a valid ARC header line.
    #[error("no WARC version line or ARC header line")]
    NotARecord,
    /// The header block has no terminating empty line within the limit.
    #[error("header block not terminated within {0} bytes")]
    Unterminated(usize),
    /// A WARC header without `Content-Length`.
    #[error("missing Content-Length")]
    MissingContentLength,
    /// A `Content-Length` that is not a decimal number.
    #[error("invalid Content-Length")]
    BadContentLength,
}

/// What is wrong with an HTTP message in a `response`/`revisit` record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum HttpProblem {
    /// The block does not start with `HTTP/x.y NNN`.
    #[error("no HTTP status line")]
    BadStatusLine,
}

/// One iteration error. Iteration continues after it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A gzip member or zstd frame failed to decode (corrupt or truncated).
    /// Records decoded from it before the failure point that are followed by
    /// another record header were produced; the rest of the member is lost.
    #[error("offset {offset}: corrupt {container} member: {detail}")]
    CorruptMember {
        /// File offset of the member or frame.
        offset: u64,
        /// The container format (gzip or zstd).
        container: Container,
        /// The decoder's message.
        detail: String,
    },
    /// Bytes between members (or in place of a member) that are not a
    /// member start; skipped up to the next member magic.
    #[error("offset {offset}: {len} bytes of unrecognized data skipped")]
    Garbage {
        /// File offset of the first skipped byte.
        offset: u64,
        /// Number of bytes skipped.
        len: u64,
    },
    /// A bad record header; the reader resynchronizes on the next record.
    #[error("offset {offset}: bad record header: {problem}")]
    BadHeader {
        /// File offset of the record.
        offset: u64,
        /// What is wrong with the header.
        problem: HeaderProblem,
    },
    /// The record's block ends before its declared length (end of file, or a
    /// corrupt member / garbage follows).
    #[error("offset {offset}: record truncated: declared {declared} bytes, {available} available")]
    Truncated {
        /// File offset of the record.
        offset: u64,
        /// The block length the header declares.
        declared: u64,
        /// The bytes of the block that were there.
        available: u64,
        /// The record's target URI, when the header gave one.
        target_uri: Option<String>,
    },
    /// The declared length does not end at a record boundary (the next bytes
    /// are neither a record header nor the end of the member/file): the
    /// length or the block is damaged. The reader resynchronizes after the
    /// header.
    #[error("offset {offset}: record does not end at a record boundary (damaged length?)")]
    BadBoundary {
        /// File offset of the record.
        offset: u64,
        /// The record's target URI, when the header gave one.
        target_uri: Option<String>,
    },
    /// The record is larger than `max_record_size`; it was skipped.
    #[error("offset {offset}: record of {length} bytes exceeds max_record_size {limit}; skipped")]
    TooLarge {
        /// File offset of the record.
        offset: u64,
        /// The block length the header declares.
        length: u64,
        /// The limit it exceeds ([`crate::Options::max_record_size`]).
        limit: u64,
        /// The record's target URI, when the header gave one.
        target_uri: Option<String>,
    },
    /// Reading the input failed (streaming reader only); nothing after
    /// `offset` is read and iteration ends after this error.
    #[error("offset {offset}: read error: {detail}")]
    Io {
        /// File offset where reading failed.
        offset: u64,
        /// The I/O error's message.
        detail: String,
    },
    /// A `response` record whose HTTP message cannot be parsed.
    #[error("offset {offset}: bad HTTP message: {problem}")]
    BadHttp {
        /// File offset of the record.
        offset: u64,
        /// The record's target URI, when the header gave one.
        target_uri: Option<String>,
        /// What is wrong with the HTTP message.
        problem: HttpProblem,
    },
}

impl RecordError {
    /// The file offset the error concerns.
    pub fn offset(&self) -> u64 {
        match self {
            RecordError::CorruptMember { offset, .. }
            | RecordError::Garbage { offset, .. }
            | RecordError::BadHeader { offset, .. }
            | RecordError::Truncated { offset, .. }
            | RecordError::BadBoundary { offset, .. }
            | RecordError::TooLarge { offset, .. }
            | RecordError::BadHttp { offset, .. }
            | RecordError::Io { offset, .. } => *offset,
        }
    }
}

/// Why a payload could only be partly decoded. The record keeps the best body
/// available (raw bytes when dechunking failed, the decoded prefix when a
/// content coding failed or hit the size limit).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// `Transfer-Encoding: chunked` but the body is not valid chunked data;
    /// the raw body is kept.
    #[error("invalid chunked transfer coding")]
    BadChunked,
    /// A content coding failed part-way; the decoded prefix is kept.
    #[error("{coding} decoding failed: {detail}")]
    Decode {
        /// The content coding (`gzip`, `deflate`, `br`).
        coding: &'static str,
        /// The decoder's message.
        detail: String,
    },
    /// Decoding would exceed `max_body_size`; the first bytes are kept.
    #[error("decoded body exceeds {limit} bytes; truncated")]
    TooLarge {
        /// The limit ([`crate::Options::max_body_size`]).
        limit: usize,
    },
    /// A content coding this crate does not decode; the body is kept as is.
    #[error("unsupported content coding {0:?}")]
    Unsupported(String),
}
