//! The WARC/ARC reader on arbitrary bytes, plain and wrapped in gzip
//! members: it never panics and always makes progress — it ends after at
//! most a few items per input byte and record offsets never go backwards —
//! and reading the same file from an `io::Read` in fuzzer-sized pieces gives
//! the same records and errors as reading it from memory, and so does
//! reading it with its whole gzip members inflated ahead
//! (`Reader::from_read_ahead`, the splitter fed in the same pieces).
//!
//! Input: a flags byte (bit 0 wrap in gzip, bit 1 small size limits so the
//! limit paths run, bits 2-3 what a record carries: 0 the decoded payload,
//! 1 the block, 2-3 the block's first 48 bytes), a read-size byte (reads of that many 64-byte units;
//! 0: whole reads), a segment byte (the
//! uncompressed size of each gzip member in 64-byte units; 0: one member),
//! then the file's bytes.
#![no_main]

use flate2::Compression;
use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::{ChunkedReader, Input};
use spinneret_warc::ahead::{InlinePrefetch, Splitter};
use spinneret_warc::{Content, Options, Reader};
use std::io::Write;

/// Every item of `reader` rendered with `Debug`, checking progress.
fn read_all(reader: Reader<'_>, limit: usize) -> Vec<String> {
    let mut items = Vec::new();
    let mut last_offset = 0;
    for item in reader {
        if let Ok(record) = &item {
            assert!(
                record.offset >= last_offset,
                "record offsets went backwards"
            );
            last_offset = record.offset;
        }
        items.push(format!("{item:?}"));
        assert!(items.len() <= limit, "more than {limit} items: no progress");
    }
    items
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let read_size = usize::from(input.byte()) * 64;
    let segment = usize::from(input.byte()) * 64;
    let plain = input.rest();
    let gzipped;
    let file = if flags & 1 != 0 {
        let mut out = Vec::new();
        let segment = if segment == 0 {
            plain.len().max(1)
        } else {
            segment
        };
        for piece in plain.chunks(segment) {
            let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
            encoder.write_all(piece).expect("in memory");
            out.extend(encoder.finish().expect("in memory"));
        }
        gzipped = out;
        gzipped.as_slice()
    } else {
        plain
    };
    let content = match (flags >> 2) & 3 {
        0 => Content::Payload,
        1 => Content::Block,
        _ => Content::Head(48),
    };
    let options = if flags & 2 != 0 {
        Options {
            max_record_size: 64,
            max_body_size: 32,
            content,
        }
    } else {
        Options {
            content,
            ..Options::default()
        }
    };
    let limit = 2 * (file.len() + plain.len()) + 16;
    let in_memory = read_all(Reader::with_options(file, options), limit);
    let streamed = read_all(
        Reader::from_read(ChunkedReader::new(file, read_size), options),
        limit,
    );
    assert_eq!(
        in_memory, streamed,
        "in memory vs read in pieces of {read_size} bytes"
    );
    let (mut splitter, mut candidates) = (Splitter::new(&options), Vec::new());
    let piece_size = if read_size == 0 {
        file.len().max(1)
    } else {
        read_size
    };
    for piece in file.chunks(piece_size) {
        splitter.push(piece, &mut candidates);
    }
    splitter.finish(&mut candidates);
    let mut prefetch = InlinePrefetch::new(&options);
    prefetch.add(file, &candidates);
    let ahead = read_all(
        Reader::from_read_ahead(
            ChunkedReader::new(file, read_size),
            options,
            Box::new(prefetch),
        ),
        limit,
    );
    assert_eq!(in_memory, ahead, "in memory vs inflated ahead");
});
