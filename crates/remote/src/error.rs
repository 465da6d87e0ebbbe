//! What can go wrong reading a remote object. Every message is already
//! scrubbed of secrets ([`crate::redact`]) and does not repeat the object's
//! name: the caller prints that (redacted) beside it.

use std::ops::Range;

/// A remote read that failed (after the retries, where it is retried).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RemoteError {
    /// Not a URL of a kind this build reads.
    #[error("not a remote input (s3://, gs://, az://, http:// or https://)")]
    NotRemote,
    /// The URL does not parse, or names no object.
    #[error("not a valid object URL: {0}")]
    BadUrl(String),
    /// The store could not be set up (bad endpoint, credentials, region).
    #[error("cannot reach the store: {0}")]
    Setup(String),
    /// No object at that name.
    #[error("not found")]
    NotFound,
    /// A listing found nothing under the prefix.
    #[error("no object under this prefix")]
    EmptyPrefix,
    /// A listing found objects under the prefix, but none of the kind
    /// asked for (a crawl-reading command's: WARC/ARC files).
    #[error("no WARC/ARC file under this prefix")]
    NoneTaken,
    /// The store answered with an error, or the connection failed, after
    /// the retries were spent.
    #[error("{0}")]
    Store(String),
    /// The object's ETag changed between two reads of it: its bytes would
    /// mix two versions.
    #[error("the object changed while it was read (its ETag is no longer {was})")]
    Changed {
        /// The ETag of the first answer.
        was: String,
    },
    /// The server answered a range request with other bytes than asked.
    #[error("asked for bytes {}-{}, the server sent {}-{}", asked.start, asked.end.saturating_sub(1), sent.start, sent.end.saturating_sub(1))]
    WrongRange {
        /// The range asked for (end exclusive).
        asked: Range<u64>,
        /// The range the answer said it holds (end exclusive).
        sent: Range<u64>,
    },
    /// A range ends past the object's end.
    #[error("bytes {}-{} are past the object's end ({size} bytes)", range.start, range.end.saturating_sub(1))]
    PastEnd {
        /// The range asked for (end exclusive).
        range: Range<u64>,
        /// The object's size.
        size: u64,
    },
}

impl From<RemoteError> for std::io::Error {
    fn from(e: RemoteError) -> Self {
        let kind = match e {
            RemoteError::NotFound => std::io::ErrorKind::NotFound,
            RemoteError::Changed { .. } | RemoteError::WrongRange { .. } => {
                std::io::ErrorKind::InvalidData
            }
            _ => std::io::ErrorKind::Other,
        };
        std::io::Error::new(kind, e)
    }
}
