//! Verification of what a WARC file claims (`spinneret check`): digests,
//! mandatory fields, HTTP heads, revisits, framing, one record per gzip
//! member.
//!
//! Two layers:
//! - [`verify_record`] (and [`check_record`], its problems alone) checks one
//!   record on its own, from its block as stored: read the file with
//!   [`Content::Block`](crate::Content::Block), since digests cover whole
//!   blocks. It is pure and runs on any thread.
//! - [`FileCheck`] checks what needs the records before it, in file order:
//!   one record per compressed member, unique record ids, and revisits
//!   against the originals they name. It keeps one small entry per record
//!   of the file ([`RecordSummary`]), never a block.
//!
//! The reader's own errors ([`RecordError`]: a bad header, a truncated
//! block, a `Content-Length` that does not end at a record boundary, a
//! corrupt gzip member, garbage between records, …) are problems too:
//! [`Problem::Reader`], at the error's offset.
//!
//! # Checks and severities
//!
//! An **error** means the file does not hold what it claims, or cannot be
//! read as the standard says; a **warning**, a deviation from WARC 1.1 or
//! RFC 9112 that readers tolerate, or a claim that cannot be checked
//! because it is written wrong; a **note**, something worth knowing that
//! is nobody's fault. A caller's exit code reflects errors only.
//!
//! | check | severity |
//! |---|---|
//! | `WARC-Block-Digest` over the block differs | error |
//! | `WARC-Payload-Digest` over the payload as transferred differs (and over the de-chunked and content-decoded body too) | error |
//! | payload digest matches the de-chunked or content-decoded body only (writers disagree: webarchive-discovery#234) | warning |
//! | digest value without `algorithm:` or not decodable for its algorithm | warning |
//! | digest of an algorithm not computed here (not SHA-1/SHA-2/MD5) | note |
//! | `WARC-Record-ID`, `WARC-Date`, `WARC-Type` or `Content-Length` missing | error |
//! | `WARC-Date` not `YYYY-MM-DDThh:mm:ss[.f]Z` (WARC 1.0/1.1's W3C-ISO8601 in UTC, to the second) | warning |
//! | `WARC-Record-ID` not `<scheme:…>` | warning |
//! | `WARC-Type` or version (`WARC/1.0`, `WARC/1.1`) not one WARC 1.1 defines | note |
//! | a record that declares an HTTP message (Content-Type `application/http`; a response, or a request without Content-Type, to an `http(s):` target: the reader's rule) has no start line | error |
//! | HTTP head deviations ([`HttpSyntax`]; how strict: see `head.rs`) | warning |
//! | `revisit` without `WARC-Profile`, or an identical-payload-digest revisit without `WARC-Payload-Digest` | error |
//! | `revisit` without `WARC-Refers-To-Target-URI` (WARC/1.1, where it is recommended) | warning |
//! | `WARC-Refers-To` on a type that shall not have it | warning |
//! | `WARC-Truncated` (the crawler cut the record; its digests cover what is stored) | note |
//! | two records in one gzip member / zstd frame (the WARC standard's compression annex: one record per member; warcio check refuses such files) | error |
//! | a `WARC-Record-ID` used twice in the file (ids are to be globally unique; wget 1.14 reuses one for its manifest and arguments records, and concatenated files repeat their `warcinfo`: the records themselves are intact) | warning |
//! | a revisit naming an earlier record of the file whose payload digest differs | error |
//! | … whose target URI or date differs from the revisit's `WARC-Refers-To-*` | warning |
//! | a revisit naming a record not in the file (it may be in another) | not reported |
//! | reader errors: bad header, truncated record, bad boundary (`Content-Length` disagrees), corrupt member, garbage, read error, HTTP message that does not parse | error |
//! | record over the reader's size limit (skipped, not verified) | warning |
//!
//! What a digest is computed over: the block digest over the whole block;
//! the payload digest over the block after the HTTP head for `response`
//! and `request` records with an HTTP message, over the whole block for the
//! other types. A `revisit`'s payload digest names its original's payload
//! and a segmented record's the whole payload: neither is verifiable here
//! ([`DigestOutcome::NotApplicable`]).
//!
//! Invariants: no input panics; every problem names what it concerns
//! (field, declared and computed value, line, offset); the problems of a
//! record depend on its bytes only, and those of [`FileCheck`] on the
//! records before it in the file.

mod digest;
mod head;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::fmt;

pub use digest::{Algorithm, Encoding, Labelled, encode};
pub use head::HttpSyntax;

use crate::error::RecordError;
use crate::http::{self, Http};
use crate::record::{Record, RecordType};

/// How bad a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The file does not hold what it claims, or cannot be read as the
    /// standard says.
    Error,
    /// A deviation readers tolerate, or a claim written so that it cannot
    /// be checked.
    Warning,
    /// Worth knowing; nobody's fault.
    Note,
}

impl Severity {
    /// `error`, `warning`, `note`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which digest field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigestField {
    /// `WARC-Block-Digest`.
    Block,
    /// `WARC-Payload-Digest`.
    Payload,
}

impl fmt::Display for DigestField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DigestField::Block => "WARC-Block-Digest",
            DigestField::Payload => "WARC-Payload-Digest",
        })
    }
}

/// Why a declared digest cannot be verified.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unverifiable {
    /// No `algorithm:` label.
    #[error("no `algorithm:` label")]
    NoAlgorithm,
    /// An algorithm this module does not compute.
    #[error("unknown algorithm {0:?}")]
    UnknownAlgorithm(String),
    /// The value is not base32, hex or base64 of the algorithm's size.
    #[error("value is not base32, hex or base64 of the algorithm's digest size")]
    BadEncoding,
    /// The record does not hold its whole block (not read with
    /// [`Content::Block`](crate::Content::Block)).
    #[error("the record's block was not read whole")]
    BlockNotHeld,
}

/// Which decoding of an HTTP body a payload digest matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decoding {
    /// `Transfer-Encoding: chunked` removed.
    DeChunked,
    /// Transfer and content codings removed (the entity a browser sees).
    ContentDecoded,
}

impl fmt::Display for Decoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decoding::DeChunked => "de-chunked",
            Decoding::ContentDecoded => "content-decoded",
        })
    }
}

/// One thing wrong (or worth knowing) about a record or a file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    /// The block's digest differs from `WARC-Block-Digest`.
    #[error(
        "WARC-Block-Digest mismatch: declared {declared}, computed {computed} over the {len}-byte block"
    )]
    BlockDigestMismatch {
        /// The value declared.
        declared: String,
        /// The digest computed, written as the declared one is.
        computed: String,
        /// The block's length.
        len: u64,
    },
    /// The payload's digest differs from `WARC-Payload-Digest`, also over
    /// the de-chunked and decoded body.
    #[error(
        "WARC-Payload-Digest mismatch: declared {declared}, computed {computed} over the {len}-byte payload"
    )]
    PayloadDigestMismatch {
        /// The value declared.
        declared: String,
        /// The digest computed over the payload as transferred.
        computed: String,
        /// The payload's length.
        len: u64,
    },
    /// The payload digest is over the de-chunked or decoded body, not the
    /// payload as transferred.
    #[error(
        "WARC-Payload-Digest {declared} is over the {decoding} body, not the payload as transferred (writers disagree: webarchive-discovery#234)"
    )]
    PayloadDigestOverDecoded {
        /// The value declared.
        declared: String,
        /// The body it matched.
        decoding: Decoding,
    },
    /// A digest that cannot be verified.
    #[error("{field} {value:?} cannot be verified: {reason}")]
    UnverifiableDigest {
        /// Which field.
        field: DigestField,
        /// Its value.
        value: String,
        /// Why.
        reason: Unverifiable,
    },
    /// A mandatory WARC field is missing.
    #[error("mandatory field {0} is missing")]
    MissingField(&'static str),
    /// A WARC field's value is not of its form.
    #[error("{name} {value:?} is not {form}")]
    MalformedField {
        /// The field.
        name: &'static str,
        /// Its value.
        value: String,
        /// The form it should have.
        form: &'static str,
    },
    /// A `WARC-Type` WARC 1.1 does not define.
    #[error("WARC-Type {0:?} is not a type WARC 1.1 defines")]
    UnknownRecordType(String),
    /// A version line other than `WARC/1.0` or `WARC/1.1`.
    #[error("version {0:?} is not WARC/1.0 or WARC/1.1; checked as WARC/1.0")]
    OtherVersion(String),
    /// A record that declares an HTTP message has none.
    #[error("the record declares an HTTP message (by {by}) but its block has no HTTP {line} line")]
    NoHttpMessage {
        /// `status` or `request`.
        line: &'static str,
        /// What declares it: `its Content-Type`, `its http(s) target`.
        by: &'static str,
    },
    /// A deviation of the HTTP head from RFC 9112.
    #[error("HTTP head, line {line}: {what}")]
    HttpSyntax {
        /// The line (1-based, in the block).
        line: usize,
        /// What is wrong.
        what: HttpSyntax,
    },
    /// A `revisit` without `WARC-Profile`.
    #[error("revisit record without WARC-Profile (mandatory)")]
    RevisitWithoutProfile,
    /// An identical-payload-digest `revisit` without `WARC-Payload-Digest`.
    #[error(
        "identical-payload-digest revisit without WARC-Payload-Digest (the profile requires it)"
    )]
    RevisitWithoutPayloadDigest,
    /// A WARC/1.1 `revisit` without `WARC-Refers-To-Target-URI`.
    #[error("revisit record without WARC-Refers-To-Target-URI (WARC/1.1 recommends it)")]
    RevisitWithoutTargetUri,
    /// `WARC-Refers-To` on a type that shall not have it.
    #[error(
        "WARC-Refers-To in a {0} record (WARC 1.1: not in warcinfo, response, resource, request or continuation records)"
    )]
    RefersToNotAllowed(&'static str),
    /// The crawler cut the record.
    #[error("WARC-Truncated: {0} (the crawler cut the record; its digests cover what is stored)")]
    Truncated(String),
    /// Two records in one gzip member or zstd frame.
    #[error(
        "this record shares the compressed member at offset {offset} with the record before it: the WARC standard's compression annex asks one record per member, so that replay can seek to each"
    )]
    SharedMember {
        /// The member's offset.
        offset: u64,
    },
    /// A record id used twice in the file.
    #[error("WARC-Record-ID {id} is also the record's at offset {first_offset}")]
    DuplicateRecordId {
        /// The id.
        id: String,
        /// Where it was first used.
        first_offset: u64,
    },
    /// A revisit whose payload digest differs from its original's.
    #[error(
        "revisit's WARC-Payload-Digest {revisit} differs from {original} of the record it refers to ({refers_to} at offset {original_offset})"
    )]
    RevisitDigestDiffers {
        /// `WARC-Refers-To`.
        refers_to: String,
        /// The original's offset.
        original_offset: u64,
        /// The revisit's payload digest.
        revisit: String,
        /// The original's.
        original: String,
    },
    /// A revisit's `WARC-Refers-To-Target-URI` or `-Date` differs from its
    /// original's target URI or date.
    #[error(
        "revisit's {field} {revisit:?} differs from {original:?} of the record it refers to (offset {original_offset})"
    )]
    RevisitOriginalDiffers {
        /// `WARC-Refers-To-Target-URI` or `WARC-Refers-To-Date`.
        field: &'static str,
        /// The revisit's value.
        revisit: String,
        /// The original's target URI or date.
        original: String,
        /// The original's offset.
        original_offset: u64,
    },
    /// An error of the reader, at its offset.
    #[error("{0}")]
    Reader(RecordError),
}

impl From<RecordError> for Problem {
    fn from(e: RecordError) -> Problem {
        Problem::Reader(e)
    }
}

impl Problem {
    /// How bad it is.
    pub fn severity(&self) -> Severity {
        use Severity::{Error, Note, Warning};
        match self {
            Problem::BlockDigestMismatch { .. }
            | Problem::PayloadDigestMismatch { .. }
            | Problem::MissingField(_)
            | Problem::NoHttpMessage { .. }
            | Problem::RevisitWithoutProfile
            | Problem::RevisitWithoutPayloadDigest
            | Problem::SharedMember { .. }
            | Problem::RevisitDigestDiffers { .. } => Error,
            Problem::PayloadDigestOverDecoded { .. }
            | Problem::MalformedField { .. }
            | Problem::HttpSyntax { .. }
            | Problem::RevisitWithoutTargetUri
            | Problem::RefersToNotAllowed(_)
            | Problem::DuplicateRecordId { .. }
            | Problem::RevisitOriginalDiffers { .. } => Warning,
            Problem::UnverifiableDigest { reason, .. } => match reason {
                Unverifiable::NoAlgorithm | Unverifiable::BadEncoding => Warning,
                Unverifiable::UnknownAlgorithm(_) | Unverifiable::BlockNotHeld => Note,
            },
            Problem::UnknownRecordType(_) | Problem::OtherVersion(_) | Problem::Truncated(_) => {
                Note
            }
            Problem::Reader(RecordError::TooLarge { .. }) => Warning,
            Problem::Reader(_) => Error,
        }
    }

    /// A stable name of the problem's kind (for JSON and summaries).
    pub fn kind(&self) -> &'static str {
        match self {
            Problem::BlockDigestMismatch { .. } => "block-digest-mismatch",
            Problem::PayloadDigestMismatch { .. } => "payload-digest-mismatch",
            Problem::PayloadDigestOverDecoded { .. } => "payload-digest-over-decoded-body",
            Problem::UnverifiableDigest { .. } => "unverifiable-digest",
            Problem::MissingField(_) => "missing-field",
            Problem::MalformedField { .. } => "malformed-field",
            Problem::UnknownRecordType(_) => "unknown-record-type",
            Problem::OtherVersion(_) => "other-version",
            Problem::NoHttpMessage { .. } => "no-http-message",
            Problem::HttpSyntax { .. } => "http-syntax",
            Problem::RevisitWithoutProfile => "revisit-without-profile",
            Problem::RevisitWithoutPayloadDigest => "revisit-without-payload-digest",
            Problem::RevisitWithoutTargetUri => "revisit-without-target-uri",
            Problem::RefersToNotAllowed(_) => "refers-to-not-allowed",
            Problem::Truncated(_) => "truncated",
            Problem::SharedMember { .. } => "shared-member",
            Problem::DuplicateRecordId { .. } => "duplicate-record-id",
            Problem::RevisitDigestDiffers { .. } => "revisit-digest-differs",
            Problem::RevisitOriginalDiffers { .. } => "revisit-original-differs",
            Problem::Reader(e) => match e {
                RecordError::CorruptMember { .. } => "corrupt-member",
                RecordError::Garbage { .. } => "garbage",
                RecordError::BadHeader { .. } => "bad-header",
                RecordError::Truncated { .. } => "truncated-record",
                RecordError::BadBoundary { .. } => "bad-boundary",
                RecordError::TooLarge { .. } => "too-large",
                RecordError::Io { .. } => "read-error",
                RecordError::BadHttp { .. } => "bad-http",
            },
        }
    }

    /// The file offset the problem carries (a reader error's); the others
    /// concern the record they were found in.
    pub fn offset(&self) -> Option<u64> {
        match self {
            Problem::Reader(e) => Some(e.offset()),
            _ => None,
        }
    }
}

/// What became of one declared digest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DigestOutcome {
    /// It matches.
    Verified,
    /// It does not match.
    Mismatch,
    /// It matches the de-chunked or decoded body only.
    OverDecoded,
    /// It cannot be verified (unknown algorithm, bad value).
    Unverifiable,
    /// Not verifiable by its nature (a revisit's or a segment's payload).
    NotApplicable,
}

/// Everything [`verify_record`] found about one record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The problems, in the order checked.
    pub problems: Vec<Problem>,
    /// The block digest's outcome, when one is declared.
    pub block: Option<DigestOutcome>,
    /// The payload digest's outcome, when one is declared.
    pub payload: Option<DigestOutcome>,
}

/// The problems of one record on its own ([`verify_record`]'s).
pub fn check_record(rec: &Record) -> Vec<Problem> {
    verify_record(rec).problems
}

/// The WARC 1.1 record types.
const TYPES: [&str; 8] = [
    "warcinfo",
    "response",
    "resource",
    "request",
    "metadata",
    "revisit",
    "conversion",
    "continuation",
];

/// A decoded body this large at most is hashed to try a mismatching payload
/// digest against it (a larger one cannot be held to try).
const MAX_DECODED: usize = 1 << 30;

/// Checks one record on its own: its digests, mandatory fields, HTTP head
/// and revisit fields. `rec` should hold its whole block (read with
/// [`Content::Block`](crate::Content::Block)); if it does not, its digests
/// are [`Unverifiable::BlockNotHeld`].
pub fn verify_record(rec: &Record) -> Verdict {
    let mut v = Verdict::default();
    let warc = rec.version.starts_with("WARC/");
    if warc {
        fields(rec, &mut v.problems);
    }
    let block: &[u8] = &rec.block;
    let http_payload = http_message(rec, &mut v.problems);
    if !warc {
        return v;
    }
    let held = block.len() as u64 == rec.block_len;
    let mut block_hash: Option<(Algorithm, Vec<u8>)> = None;
    if let Some(value) = rec.header("WARC-Block-Digest") {
        let outcome = if held {
            match Labelled::parse(value) {
                Ok(l) => {
                    let computed = l.algorithm.hash(block);
                    let outcome = if computed == l.bytes {
                        DigestOutcome::Verified
                    } else {
                        v.problems.push(Problem::BlockDigestMismatch {
                            declared: value.trim().to_owned(),
                            computed: l.render(&computed),
                            len: block.len() as u64,
                        });
                        DigestOutcome::Mismatch
                    };
                    block_hash = Some((l.algorithm, computed));
                    outcome
                }
                Err(reason) => unverifiable(&mut v.problems, DigestField::Block, value, reason),
            }
        } else {
            let reason = Unverifiable::BlockNotHeld;
            unverifiable(&mut v.problems, DigestField::Block, value, reason)
        };
        v.block = Some(outcome);
    }
    if let Some(value) = rec.payload_digest.as_deref() {
        let segmented = rec.header("WARC-Segment-Number").is_some();
        v.payload = Some(
            if matches!(rec.kind, RecordType::Revisit | RecordType::Continuation) || segmented {
                DigestOutcome::NotApplicable
            } else if !held {
                let reason = Unverifiable::BlockNotHeld;
                unverifiable(&mut v.problems, DigestField::Payload, value, reason)
            } else {
                let (payload, http) = match &http_payload {
                    Some((at, http)) => (&block[(*at).min(block.len())..], Some(http)),
                    None => (block, None),
                };
                let reuse = block_hash.filter(|_| payload.len() == block.len());
                payload_digest(value, payload, http, reuse, &mut v.problems)
            },
        );
    }
    v
}

fn unverifiable(
    problems: &mut Vec<Problem>,
    field: DigestField,
    value: &str,
    reason: Unverifiable,
) -> DigestOutcome {
    problems.push(Problem::UnverifiableDigest {
        field,
        value: value.trim().to_owned(),
        reason,
    });
    DigestOutcome::Unverifiable
}

/// Verifies `WARC-Payload-Digest` over `payload` (as transferred), then over
/// its de-chunked and decoded body. `reuse`: the block's digest when the
/// payload is the block.
fn payload_digest(
    value: &str,
    payload: &[u8],
    http: Option<&Http>,
    reuse: Option<(Algorithm, Vec<u8>)>,
    problems: &mut Vec<Problem>,
) -> DigestOutcome {
    let l = match Labelled::parse(value) {
        Ok(l) => l,
        Err(reason) => return unverifiable(problems, DigestField::Payload, value, reason),
    };
    let computed = match reuse {
        Some((alg, d)) if alg == l.algorithm => d,
        _ => l.algorithm.hash(payload),
    };
    if computed == l.bytes {
        return DigestOutcome::Verified;
    }
    if let Some(h) = http {
        let chunked = h
            .header("transfer-encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        let dechunked = if chunked {
            http::dechunk(payload)
        } else {
            None
        };
        let mut found = dechunked
            .as_deref()
            .filter(|d| l.algorithm.hash(d) == l.bytes)
            .map(|_| Decoding::DeChunked);
        let coded = h.headers.iter().any(|(n, v)| {
            n.eq_ignore_ascii_case("content-encoding")
                && !matches!(
                    v.trim().to_ascii_lowercase().as_str(),
                    "" | "identity" | "none"
                )
        });
        if found.is_none() && coded {
            let (decoded, err) = http::decode_body(h, payload, MAX_DECODED);
            if err.is_none() && l.algorithm.hash(&decoded) == l.bytes {
                found = Some(Decoding::ContentDecoded);
            }
        }
        if let Some(decoding) = found {
            problems.push(Problem::PayloadDigestOverDecoded {
                declared: value.trim().to_owned(),
                decoding,
            });
            return DigestOutcome::OverDecoded;
        }
    }
    problems.push(Problem::PayloadDigestMismatch {
        declared: value.trim().to_owned(),
        computed: l.render(&computed),
        len: payload.len() as u64,
    });
    DigestOutcome::Mismatch
}

/// The record's HTTP head, checked: where its payload starts and its
/// fields, when the record holds an HTTP message (a `response` the reader
/// parsed; a `request` or `revisit` that declares one).
fn http_message(rec: &Record, problems: &mut Vec<Problem>) -> Option<(usize, Http)> {
    let block: &[u8] = &rec.block;
    // The reader's rule (`record_build.rs`): a Content-Type naming
    // application/http, or an http(s) target.
    let declared = rec
        .content_type
        .as_deref()
        .is_some_and(|c| c.to_ascii_lowercase().contains("application/http"));
    let http_target = rec
        .target_uri
        .as_deref()
        .is_some_and(|u| u.starts_with("http:") || u.starts_with("https:"));
    let by = if declared {
        "its Content-Type"
    } else {
        "its http(s) target"
    };
    let (request, line) = match rec.kind {
        RecordType::Response
            if rec.http.is_some() || ((declared || http_target) && !block.is_empty()) =>
        {
            (false, "status")
        }
        RecordType::Revisit if rec.http.is_some() || (declared && !block.is_empty()) => {
            (false, "status")
        }
        RecordType::Request if declared || (rec.content_type.is_none() && http_target) => {
            (true, "request")
        }
        _ => return None,
    };
    if (block.len() as u64) < rec.block_len {
        return None; // only the head was read: nothing to split
    }
    let head = head::scan(block, request);
    if !head.start_line {
        problems.push(Problem::NoHttpMessage { line, by });
        return None;
    }
    for &(line, what) in &head.issues {
        problems.push(Problem::HttpSyntax { line, what });
    }
    let http = Http {
        headers: head.headers,
        ..Http::default()
    };
    Some((head.body_at, http))
}

/// The WARC fields' checks: mandatory ones, their forms, the type, the
/// version, revisit fields, `WARC-Truncated`.
fn fields(rec: &Record, problems: &mut Vec<Problem>) {
    if !matches!(rec.version.as_str(), "WARC/1.0" | "WARC/1.1") {
        problems.push(Problem::OtherVersion(rec.version.clone()));
    }
    for name in ["WARC-Record-ID", "WARC-Date", "WARC-Type", "Content-Length"] {
        if rec.header(name).is_none() {
            problems.push(Problem::MissingField(name));
        }
    }
    if let Some(id) = rec.header("WARC-Record-ID")
        && !is_bracketed_uri(id.trim())
    {
        problems.push(Problem::MalformedField {
            name: "WARC-Record-ID",
            value: id.to_owned(),
            form: "`<uri>`",
        });
    }
    if let Some(date) = rec.header("WARC-Date")
        && !is_warc_date(date.trim())
    {
        problems.push(Problem::MalformedField {
            name: "WARC-Date",
            value: date.to_owned(),
            form: "W3C-ISO8601 in UTC to the second (YYYY-MM-DDThh:mm:ss[.f]Z)",
        });
    }
    let type_name = rec.header("WARC-Type").map(str::trim);
    if let Some(t) = type_name
        && !TYPES.iter().any(|k| k.eq_ignore_ascii_case(t))
    {
        problems.push(Problem::UnknownRecordType(t.to_owned()));
    }
    if rec.header("WARC-Refers-To").is_some()
        && matches!(
            rec.kind,
            RecordType::Warcinfo
                | RecordType::Response
                | RecordType::Resource
                | RecordType::Request
                | RecordType::Continuation
        )
    {
        problems.push(Problem::RefersToNotAllowed(rec.kind.name()));
    }
    if rec.kind == RecordType::Revisit {
        match rec.header("WARC-Profile") {
            None => problems.push(Problem::RevisitWithoutProfile),
            Some(p) => {
                if p.contains("identical-payload-digest") && rec.payload_digest.is_none() {
                    problems.push(Problem::RevisitWithoutPayloadDigest);
                }
            }
        }
        if rec.version == "WARC/1.1" && rec.refers_to_target_uri.is_none() {
            problems.push(Problem::RevisitWithoutTargetUri);
        }
    }
    if let Some(t) = &rec.truncated {
        problems.push(Problem::Truncated(t.trim().to_owned()));
    }
}

/// `<scheme:rest>` with no whitespace or angle brackets inside.
fn is_bracketed_uri(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('<').and_then(|s| s.strip_suffix('>')) else {
        return false;
    };
    let Some((scheme, rest)) = inner.split_once(':') else {
        return false;
    };
    let mut sc = scheme.bytes();
    sc.next().is_some_and(|b| b.is_ascii_alphabetic())
        && sc.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        && !rest.is_empty()
        && !inner
            .bytes()
            .any(|b| b.is_ascii_whitespace() || b.is_ascii_control() || matches!(b, b'<' | b'>'))
}

/// `YYYY-MM-DDThh:mm:ss[.f+]Z` with valid ranges.
fn is_warc_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 20 || b[b.len() - 1] != b'Z' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let d = b.get(r)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0u32, |n, &c| n * 10 + u32::from(c - b'0')))
    };
    let seps = [(4, b'-'), (7, b'-'), (10, b'T'), (13, b':'), (16, b':')];
    if seps.iter().any(|&(i, c)| b[i] != c) {
        return false;
    }
    let (Some(y), Some(mo), Some(d), Some(h), Some(mi), Some(sec)) = (
        num(0..4),
        num(5..7),
        num(8..10),
        num(11..13),
        num(14..16),
        num(17..19),
    ) else {
        return false;
    };
    let fraction = &b[19..b.len() - 1];
    let fraction_ok = fraction.is_empty()
        || (fraction.len() >= 2
            && fraction[0] == b'.'
            && fraction[1..].iter().all(u8::is_ascii_digit));
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match mo {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    fraction_ok && (1..=days).contains(&d) && h < 24 && mi < 60 && sec <= 60
}

/// What [`FileCheck`] needs of a record: its position and the fields
/// revisits and ids are checked with (no block).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecordSummary {
    /// The record's offset ([`Record::offset`]: its member's, when
    /// compressed).
    pub offset: u64,
    /// Its type.
    pub kind: Option<RecordType>,
    /// `WARC-Record-ID` (WARC records only).
    pub record_id: Option<String>,
    /// `WARC-Target-URI`.
    pub target_uri: Option<String>,
    /// `WARC-Date`.
    pub date: Option<String>,
    /// `WARC-Payload-Digest`.
    pub payload_digest: Option<String>,
    /// `WARC-Refers-To`.
    pub refers_to: Option<String>,
    /// `WARC-Refers-To-Target-URI`.
    pub refers_to_target_uri: Option<String>,
    /// `WARC-Refers-To-Date`.
    pub refers_to_date: Option<String>,
}

impl RecordSummary {
    /// The summary of `rec`.
    pub fn of(rec: &Record) -> RecordSummary {
        let warc = rec.version.starts_with("WARC/");
        let trimmed = |s: &Option<String>| s.as_deref().map(|s| s.trim().to_owned());
        RecordSummary {
            offset: rec.offset,
            kind: Some(rec.kind),
            record_id: warc.then(|| trimmed(&rec.record_id)).flatten(),
            target_uri: trimmed(&rec.target_uri),
            date: trimmed(&rec.date),
            payload_digest: trimmed(&rec.payload_digest),
            refers_to: trimmed(&rec.refers_to),
            refers_to_target_uri: rec
                .refers_to_target_uri
                .as_deref()
                .map(|s| s.trim().trim_matches(['<', '>']).to_owned()),
            refers_to_date: trimmed(&rec.refers_to_date),
        }
    }
}

/// A record seen earlier in the file.
#[derive(Debug)]
struct Seen {
    offset: u64,
    target_uri: Option<String>,
    date: Option<String>,
    payload_digest: Option<String>,
}

/// The checks of one file that need the records before the current one:
/// feed it every record of the file in order.
///
/// Memory: one entry per record with an id (its id, offset, target URI,
/// date and payload digest), for the revisits and duplicate ids.
#[derive(Debug, Default)]
pub struct FileCheck {
    /// The previous record's offset.
    last_offset: Option<u64>,
    /// The member already reported as shared.
    shared_reported: Option<u64>,
    /// Records by id.
    seen: HashMap<String, Seen>,
}

impl FileCheck {
    /// A check for a new file.
    pub fn new() -> FileCheck {
        FileCheck::default()
    }

    /// [`FileCheck::record`] of a record.
    pub fn check(&mut self, rec: &Record) -> Vec<Problem> {
        self.record(&RecordSummary::of(rec))
    }

    /// The problems of the next record of the file that need the records
    /// before it: a member shared with the previous record (reported once
    /// per member, at its second record), a duplicate id, a revisit whose
    /// original (earlier in the file) disagrees.
    pub fn record(&mut self, s: &RecordSummary) -> Vec<Problem> {
        let mut problems = Vec::new();
        if self.last_offset == Some(s.offset) && self.shared_reported != Some(s.offset) {
            self.shared_reported = Some(s.offset);
            problems.push(Problem::SharedMember { offset: s.offset });
        }
        self.last_offset = Some(s.offset);
        if s.kind == Some(RecordType::Revisit)
            && let Some(to) = &s.refers_to
            && let Some(orig) = self.seen.get(to)
        {
            revisit_against(s, to, orig, &mut problems);
        }
        if let Some(id) = &s.record_id {
            match self.seen.get(id) {
                Some(first) => problems.push(Problem::DuplicateRecordId {
                    id: id.clone(),
                    first_offset: first.offset,
                }),
                None => {
                    self.seen.insert(
                        id.clone(),
                        Seen {
                            offset: s.offset,
                            target_uri: s.target_uri.clone(),
                            date: s.date.clone(),
                            payload_digest: s.payload_digest.clone(),
                        },
                    );
                }
            }
        }
        problems
    }
}

/// A revisit against the original it names.
fn revisit_against(s: &RecordSummary, to: &str, orig: &Seen, problems: &mut Vec<Problem>) {
    if let (Some(r), Some(o)) = (&s.payload_digest, &orig.payload_digest)
        && let (Ok(rl), Ok(ol)) = (Labelled::parse(r), Labelled::parse(o))
        && rl.algorithm == ol.algorithm
        && rl.bytes != ol.bytes
    {
        problems.push(Problem::RevisitDigestDiffers {
            refers_to: to.to_owned(),
            original_offset: orig.offset,
            revisit: r.clone(),
            original: o.clone(),
        });
    }
    let pairs = [
        (
            "WARC-Refers-To-Target-URI",
            &s.refers_to_target_uri,
            &orig.target_uri,
        ),
        ("WARC-Refers-To-Date", &s.refers_to_date, &orig.date),
    ];
    for (field, revisit, original) in pairs {
        if let (Some(r), Some(o)) = (revisit, original)
            && r != o
        {
            problems.push(Problem::RevisitOriginalDiffers {
                field,
                revisit: r.clone(),
                original: o.clone(),
                original_offset: orig.offset,
            });
        }
    }
}
