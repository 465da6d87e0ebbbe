//! The check job: each record verified on its own on a worker
//! ([`verify::verify_record`]); a reader error's kind told again from its
//! message ([`reader_kind`]).

use std::sync::Arc;

use spinneret_warc::verify::{self, RecordSummary, Severity, Verdict};

use crate::driver::Job;
use crate::inputs::Item;

/// The kind and severity of a reader error from its message (a
/// `RecordError`'s `Display`, `offset N: …`), and the message without
/// its offset.
pub fn reader_kind(what: &str) -> (&'static str, Severity, &str) {
    let rest = what
        .strip_prefix("offset ")
        .and_then(|r| r.split_once(": "))
        .map_or(what, |(_, r)| r);
    let kind = if rest.starts_with("corrupt ") {
        "corrupt-member"
    } else if rest.ends_with("bytes of unrecognized data skipped") {
        "garbage"
    } else if rest.starts_with("bad record header") {
        "bad-header"
    } else if rest.starts_with("record truncated") {
        "truncated-record"
    } else if rest.starts_with("record does not end at a record boundary") {
        "bad-boundary"
    } else if rest.starts_with("record of ") && rest.contains("exceeds max_record_size") {
        "too-large"
    } else if rest.starts_with("read error") {
        "read-error"
    } else if rest.starts_with("bad HTTP message") {
        "bad-http"
    } else {
        "bad-record"
    };
    let severity = if kind == "too-large" {
        Severity::Warning
    } else {
        Severity::Error
    };
    (kind, severity, rest)
}

/// One item's result.
pub enum Done {
    /// A record, checked on its own.
    Record {
        /// The input file's name.
        file: Arc<str>,
        /// What the file's checks need of the record.
        summary: RecordSummary,
        /// The record's own checks.
        verdict: Verdict,
    },
    /// A reader error.
    Reader {
        /// The input file's name.
        file: Arc<str>,
        /// Where, when known.
        offset: Option<u64>,
        /// The reader's message.
        what: String,
    },
    /// An input that cannot be read (or is not a crawl file).
    Unreadable {
        /// The input's name.
        file: Arc<str>,
        /// Why.
        what: String,
    },
}

/// The check job (it needs no settings).
pub struct CheckJob;

impl Job for CheckJob {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        match item {
            Item::Record { file, record, .. } => Done::Record {
                summary: RecordSummary::of(&record),
                verdict: verify::verify_record(&record),
                file,
            },
            Item::Bad { file, offset, what } => Done::Reader { file, offset, what },
            Item::Unreadable { file, what } => Done::Unreadable { file, what },
            Item::Page { file, .. } => Done::Unreadable {
                file,
                what: "an HTML page (a manifest of pages), not a WARC/ARC file".to_owned(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use spinneret_warc::verify::Problem;
    use spinneret_warc::{Container, HeaderProblem, RecordError};

    /// Each reader error's message is told back as the kind and severity
    /// `verify::Problem` gives it.
    #[test]
    fn reader_kinds_from_messages() {
        let errors = [
            RecordError::CorruptMember {
                offset: 10,
                container: Container::Gzip,
                detail: "invalid gzip header".into(),
            },
            RecordError::Garbage { offset: 1, len: 5 },
            RecordError::BadHeader {
                offset: 2,
                problem: HeaderProblem::MissingContentLength,
            },
            RecordError::Truncated {
                offset: 3,
                declared: 9,
                available: 1,
                target_uri: None,
            },
            RecordError::BadBoundary {
                offset: 4,
                target_uri: Some("http://e.com/".into()),
            },
            RecordError::TooLarge {
                offset: 5,
                length: 9,
                limit: 1,
                target_uri: None,
            },
            RecordError::Io {
                offset: 6,
                detail: "record truncated".into(),
            },
            RecordError::BadHttp {
                offset: 7,
                target_uri: None,
                problem: spinneret_warc::HttpProblem::BadStatusLine,
            },
        ];
        for e in errors {
            let msg = e.to_string();
            let p = Problem::from(e);
            let (kind, severity, rest) = reader_kind(&msg);
            assert_eq!((kind, severity), (p.kind(), p.severity()), "{msg}");
            assert!(!rest.starts_with("offset"), "{rest}");
        }
        assert_eq!(reader_kind("something else").0, "bad-record");
    }
}
