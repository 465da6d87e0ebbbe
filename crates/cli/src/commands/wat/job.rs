//! One item to its WAT record, on a worker: the source record's JSON
//! ([`spinneret_wat::record_metadata`]) framed as a `metadata` record
//! (gzipped there, in parallel).
//!
//! The record's headers, in Common Crawl's order: `WARC-Type: metadata`,
//! `WARC-Target-URI` (the source's; a warcinfo's `WARC-Filename`),
//! `WARC-Date` (the run's date), `WARC-Record-ID`, `WARC-Refers-To` (the
//! source's record id), `Content-Type: application/json`,
//! `WARC-Block-Digest` (as Common Crawl's 2024 WATs add it),
//! `Content-Length`. The record id is the RFC 4122 version-5 UUID of
//! `urn:spinneret:wat:` and the source's record id (or, without one, its
//! file name and offset): the same source record, the same id.
//!
//! `Container.Gzip-Metadata` needs the source's gzip member as stored:
//! for a local gzip file it is read again from the file (the member's
//! bytes at the record's offset); for standard input and remote inputs
//! it is left out, and so is `Trailing-Slop-Length` of a gzip record.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use spinneret_warc::{Container as Packing, Record, RecordType};
use spinneret_wat::{Container, GzipMember, record_metadata, sha1_digest};

use crate::driver::Job;
use crate::inputs::Item;
use crate::outputs::warc_records::{NAMESPACE_URL, WarcDate, uuid_v5_urn, warc_record};

/// The most bytes of a gzip member read again for its framing.
const MAX_MEMBER: u64 = 256 << 20;

/// What one item gave.
#[derive(Debug)]
pub enum Done {
    /// A metadata record, framed (and gzipped when the file is).
    Record(Vec<u8>),
    /// An item without a record (an HTML file).
    Skipped,
    /// A bad record: the message for stderr.
    Bad(String),
    /// An unreadable input: the message for stderr.
    Unreadable(String),
    /// A record could not be written (the message).
    Failed(String),
}

/// The WAT job.
pub struct WatJob {
    /// Gzip members.
    pub gzip: bool,
    /// The records' `WARC-Date`.
    pub date: WarcDate,
}

impl Job for WatJob {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        match item {
            Item::Unreadable { file, what } => Done::Unreadable(format!("{file}: {what}")),
            Item::Bad { file, offset, what } => Done::Bad(match offset {
                Some(o) if !what.starts_with("offset ") => format!("{file}: offset {o}: {what}"),
                _ => format!("{file}: {what}"),
            }),
            Item::Page { .. } => Done::Skipped,
            Item::Record {
                file,
                record,
                end,
                container,
            } => {
                let compressed = container != Packing::Plain;
                // A record alone in its member: the member is the bytes
                // from its offset to the next item's.
                let alone = record.starts_member && record.ends_member;
                let gzip = (container == Packing::Gzip && alone)
                    .then(|| member_of(&file, record.offset, end))
                    .flatten();
                let trailing = match (compressed, gzip) {
                    (false, _) => end.checked_sub(record.offset + record.stored_len),
                    (true, Some(g)) => u64::from(g.isize).checked_sub(record.stored_len),
                    (true, None) => None,
                };
                let c = Container {
                    filename: &file,
                    compressed,
                    offset: record.offset,
                    gzip,
                    trailing,
                };
                match self.record(&record, &c, &file) {
                    Ok(bytes) => Done::Record(bytes),
                    Err(e) => Done::Failed(format!("{file}: offset {}: {e}", record.offset)),
                }
            }
        }
    }
}

impl WatJob {
    fn record(&self, record: &Record, c: &Container<'_>, file: &str) -> std::io::Result<Vec<u8>> {
        let mut json = String::with_capacity(2048 + record.block.len() / 8);
        record_metadata(record, c).write(&mut json);
        let target = match record.kind {
            RecordType::Warcinfo => record.header("WARC-Filename").map(str::to_owned),
            _ => record.target_uri.clone(),
        };
        let identity = match &record.record_id {
            Some(id) => id.clone(),
            None => format!("{file}\n{}", record.offset),
        };
        let id = uuid_v5_urn(
            &NAMESPACE_URL,
            format!("urn:spinneret:wat:{identity}").as_bytes(),
        );
        let date = self.date.iso();
        let digest = sha1_digest(json.as_bytes());
        let mut headers = vec![("WARC-Type", "metadata")];
        if let Some(t) = &target {
            headers.push(("WARC-Target-URI", t));
        }
        headers.push(("WARC-Date", &date));
        headers.push(("WARC-Record-ID", &id));
        if let Some(r) = &record.record_id {
            headers.push(("WARC-Refers-To", r));
        }
        headers.push(("Content-Type", "application/json"));
        headers.push(("WARC-Block-Digest", &digest));
        warc_record(&headers, json.as_bytes(), self.gzip)
    }
}

/// The gzip member at `offset..end` of the local file `file`, when it is
/// one and can be read: its header (the first bytes; a header with long
/// optional fields, up to the whole member) and its footer are read.
fn member_of(file: &str, offset: u64, end: u64) -> Option<GzipMember> {
    /// Enough for a header without long optional fields.
    const HEAD: u64 = 512;
    let len = end.checked_sub(offset).filter(|&l| l >= 18)?;
    if file == "-" || file.contains("://") {
        return None;
    }
    let mut f = File::open(Path::new(file)).ok()?;
    let mut read_at = |at: u64, n: u64| -> Option<Vec<u8>> {
        f.seek(SeekFrom::Start(at)).ok()?;
        let mut buf = vec![0; usize::try_from(n).ok()?];
        f.read_exact(&mut buf).ok()?;
        Some(buf)
    };
    let footer = read_at(end - 8, 8)?;
    let head = read_at(offset, len.min(HEAD))?;
    GzipMember::from_parts(&head, &footer, len).or_else(|| {
        // Optional fields past the first bytes: the whole member.
        let whole = read_at(offset, len.min(MAX_MEMBER))?;
        GzipMember::from_parts(&whole, &footer, len)
    })
}
