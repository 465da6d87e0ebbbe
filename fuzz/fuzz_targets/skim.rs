//! `Content::Skim` against `Content::Head` (spinneret-warc's skim: a gzip
//! member inflated only through its record's head, the next member found
//! by magic and ISIZE) on gzip-per-record WARCs made from the input and
//! then damaged by it.
//!
//! Properties: neither path panics or loops; on the undamaged file the two
//! give the same items (records compared without their blocks, the one
//! field the skim shortens); on the damaged file the skim loses no record
//! the full read gives (each appears, equal), and each record only the skim
//! gives is at an offset where the full read reported damage (damage the
//! skim cannot see: inside bytes it does not inflate).
//!
//! Input: a level byte (gzip level 0-9 by its value mod 10), a count byte
//! (1-8 records), then per record a field: its target path and payload
//! seed (payloads are the seed repeated to 16-40 KB, so the skim takes
//! them); then the damage: up to 8 (offset, kind) byte triples — flip a
//! byte, cut the file, insert bytes — at offsets scaled to the file.
#![no_main]

use flate2::Compression;
use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::Input;
use spinneret_warc::{Content, Options, Reader, RecordError};
use std::collections::{HashMap, HashSet};
use std::io::Write;

/// Items of one read: records by offset (block left out), and the offsets
/// of damage reports.
#[derive(Default, PartialEq, Debug)]
struct Items {
    all: Vec<String>,
    records: HashMap<u64, Vec<String>>,
    damage: HashSet<u64>,
}

fn read(file: &[u8], content: Content) -> Items {
    let opts = Options {
        content,
        ..Options::default()
    };
    let mut items = Items::default();
    for item in Reader::with_options(file, opts) {
        assert!(items.all.len() <= file.len() + 16, "no progress");
        match item {
            Ok(mut rec) => {
                rec.block = Default::default();
                let shown = format!("{rec:?}");
                items
                    .records
                    .entry(rec.offset)
                    .or_default()
                    .push(shown.clone());
                items.all.push(shown);
            }
            Err(e) => {
                if matches!(
                    e,
                    RecordError::CorruptMember { .. }
                        | RecordError::BadBoundary { .. }
                        | RecordError::Truncated { .. }
                        | RecordError::Garbage { .. }
                ) {
                    items.damage.insert(e.offset());
                }
                items.all.push(format!("ERR {e}"));
            }
        }
    }
    items
}

fn member(record: &[u8], level: u32) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::new(level));
    e.write_all(record).expect("in memory");
    e.finish().expect("in memory")
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let level = u32::from(input.byte() % 10);
    let count = 1 + usize::from(input.byte() % 8);
    let mut file = Vec::new();
    for i in 0..count {
        let field = input.field();
        let (path, seed) = field.split_at(field.len().min(16));
        let seed = if seed.is_empty() {
            b"x".as_slice()
        } else {
            seed
        };
        let size = 16_384 + (i * 3_001 + seed.len() * 97) % 24_000;
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
        while block.len() < size {
            block.extend_from_slice(seed);
        }
        block.truncate(size);
        let path = String::from_utf8_lossy(path).replace(['\r', '\n', ' '], "_");
        let mut record = format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://e.com/{path}\r\n\
             WARC-Date: 2026-12-08T00:00:00Z\r\nWARC-Payload-Digest: sha1:AAAA\r\n\
             Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .into_bytes();
        record.extend_from_slice(&block);
        record.extend_from_slice(b"\r\n\r\n");
        file.extend(member(&record, level));
    }
    // Undamaged: the same items.
    let head = read(&file, Content::Head(64 << 20));
    assert_eq!(read(&file, Content::Skim(64 << 20)).all, head.all);

    // Damaged.
    for _ in 0..8 {
        let (a, b, kind) = (input.byte(), input.byte(), input.byte());
        if file.is_empty() {
            break;
        }
        let at = (usize::from(a) << 8 | usize::from(b)) * file.len() / 65_536;
        match kind % 4 {
            0 | 1 => file[at] ^= 1 << (kind >> 5),
            2 => file.truncate(at.max(1)),
            _ => file
                .splice(at..at, [kind, a, b, 0x1f, 0x8b, 0x08])
                .for_each(drop),
        }
    }
    let head = read(&file, Content::Head(64 << 20));
    let skim = read(&file, Content::Skim(64 << 20));
    for (offset, records) in &head.records {
        assert_eq!(
            skim.records.get(offset),
            Some(records),
            "the skim lost a record at {offset}"
        );
    }
    for offset in skim.records.keys() {
        assert!(
            head.records.contains_key(offset) || head.damage.contains(offset),
            "a record at {offset} only the skim gives, with no damage reported there"
        );
    }
});
