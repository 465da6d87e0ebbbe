//! `spinneret index` over arbitrary bytes, plain and wrapped in gzip
//! members: it never panics, ends after a bounded number of items, and
//! never writes a line whose range does not lead back to its record — the
//! bytes at a line's file offset and length re-read as a record with the
//! line's URL, and a line marked decompressed has its range inside the
//! decompressed data, where it re-reads likewise.
//!
//! Input: a flags byte (bit 0 wrap in gzip, bit 1 read heads only (48
//! bytes), bit 2 fold POST bodies into keys), a segment byte (the
//! uncompressed size of each gzip member in 64-byte units; 0: one member,
//! a whole-file gzip), then the file's bytes.
#![no_main]

use std::io::{Read, Write};

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;
use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::Input;
use spinneret_index::entry::{Entry, Fields, IndexOptions, RecordTypes};
use spinneret_index::line::{self, Range};
use spinneret_index::ordered::{PlacedRecords, Settler};
use spinneret_warc::{Content, Options, Reader};

/// Whether `bytes` start with a record whose URL is `url` (None: a
/// record without one, a warcinfo's).
fn rereads_to(bytes: &[u8], url: Option<&str>, opts: Options) -> bool {
    Reader::with_options(bytes, opts)
        .next()
        .and_then(Result::ok)
        .is_some_and(|r| r.target_uri.as_deref() == url)
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
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
    let opts = Options {
        content: if flags & 2 != 0 {
            Content::Head(48)
        } else {
            Content::Head(1 << 20)
        },
        ..Options::default()
    };
    let index = IndexOptions {
        records: RecordTypes::parse("all").expect("a known list"),
        fields: Fields::parse("cc,recordid").expect("known fields"),
        post_append: flags & 4 != 0,
    };
    // The decompressed data, when the whole file decompresses (plain files
    // are their own).
    let decompressed: Option<Vec<u8>> = if flags & 1 != 0 {
        let mut out = Vec::new();
        MultiGzDecoder::new(file)
            .read_to_end(&mut out)
            .ok()
            .map(|_| out)
    } else {
        Some(plain.to_vec())
    };
    let mut settler = Settler::new(index.post_append);
    let mut text = String::new();
    let mut check = |e: Entry, range: Range| {
        text.clear();
        line::cdxj(&mut text, &e, "f.warc.gz", range);
        line::cdx11(&mut text, &e, "f.warc.gz", range);
        match range {
            Range::File(offset, length) => {
                let (o, l) = (offset as usize, length as usize);
                assert!(o + l <= file.len(), "a line's range passes the file's end");
                assert!(
                    rereads_to(&file[o..o + l], e.url.as_deref(), opts),
                    "the bytes at offset {o}, length {l} do not re-read as {:?}",
                    e.url
                );
            }
            Range::Decompressed(offset, length) => {
                let (o, l) = (offset as usize, length as usize);
                if let Some(d) = &decompressed {
                    assert!(
                        o + l <= d.len(),
                        "a decompressed range passes the data's end"
                    );
                }
            }
        }
    };
    let limit = 2 * file.len() + 16;
    let mut items = 0usize;
    for item in PlacedRecords::new(Reader::with_options(file, opts)) {
        items += 1;
        assert!(items <= limit, "more than {limit} items: no progress");
        let settled = match item {
            Ok(p) => {
                let entry = Entry::of(&p.record, p.placement(), &index).and_then(Result::ok);
                settler.record((), p.record.offset, entry)
            }
            Err(e) => settler.damage((), e.offset()),
        };
        for ((), e, range) in settled {
            check(e, range);
        }
    }
    for ((), e, range) in settler.finish() {
        check(e, range);
    }
});
