//! The streaming reader on inputs too large to hold: a generated
//! multi-hundred-MB gzip-per-record WARC read from a generator `Read`
//! (never materialized), with its memory checked through
//! `Reader::peak_buffer`; and read errors of the underlying reader.

use spinneret_testdata::Rng;
use std::io::{self, Read, Write};

use spinneret_warc::{Options, Reader, RecordError};

/// A WARC response record with an HTML body of `len` pseudo-random bytes.
fn record(i: usize, len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut body = b"<html><a href=\"/x\">x</a>".to_vec();
    while body.len() < len {
        let v = rng.next_u64();
        body.extend((0..8).map(|k| b'a' + ((v >> (k * 8)) % 26) as u8));
    }
    body.truncate(len);
    let http = [
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n",
            body.len()
        )
        .into_bytes(),
        body,
    ]
    .concat();
    let mut rec = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/{i}\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    rec.extend(http);
    rec.extend_from_slice(b"\r\n\r\n");
    rec
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// Replays pre-compressed gzip members cyclically until `total` bytes were
/// produced (whole members only), in reads of varying sizes.
struct Generator {
    members: Vec<Vec<u8>>,
    next: usize,
    at: usize,
    produced: u64,
    total: u64,
    rng: Rng,
}

impl Read for Generator {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == 0 && self.produced >= self.total {
            return Ok(0);
        }
        let m = &self.members[self.next % self.members.len()];
        let want = 1 + (self.rng.next_u64() % 100_000) as usize;
        let n = want.min(out.len()).min(m.len() - self.at);
        out[..n].copy_from_slice(&m[self.at..self.at + n]);
        self.at += n;
        self.produced += n as u64;
        if self.at == m.len() {
            self.at = 0;
            self.next += 1;
        }
        Ok(n)
    }
}

#[test]
fn a_large_gzip_warc_streams_in_bounded_memory() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let opts = Options {
        max_record_size: 1 << 20,
        ..Options::default()
    };
    // 15 records of 1 KiB .. 900 KiB, and one of 2 MiB (over the limit).
    let mut members: Vec<Vec<u8>> = (0..15)
        .map(|i| gzip(&record(i, 1024 + i * 60_000, &mut rng)))
        .collect();
    members.push(gzip(&record(15, 2 << 20, &mut rng)));
    let sizes: Vec<u64> = members.iter().map(|m| m.len() as u64).collect();
    let total: u64 = 400 << 20;
    let generator = Generator {
        members,
        next: 0,
        at: 0,
        produced: 0,
        total,
        rng: Rng(99),
    };
    let mut reader = Reader::from_read(generator, opts);
    let (mut records, mut too_large, mut offset, mut i) = (0u64, 0u64, 0u64, 0usize);
    let mut other = Vec::new();
    for item in reader.by_ref() {
        let size = sizes[i % sizes.len()];
        match item {
            Ok(r) => {
                assert_eq!(r.offset, offset, "record {i}");
                assert!(r.is_html());
                assert_eq!(
                    r.target_uri.as_deref(),
                    Some(format!("https://example.com/{}", i % sizes.len()).as_str())
                );
                records += 1;
            }
            Err(RecordError::TooLarge { offset: o, .. }) => {
                assert_eq!(o, offset, "record {i}");
                too_large += 1;
            }
            Err(e) => other.push(e),
        }
        offset += size;
        i += 1;
    }
    assert!(other.is_empty(), "{other:?}");
    assert!(offset >= total, "stopped at {offset}");
    assert_eq!(reader.bytes_read(), offset);
    let members = i as u64;
    assert_eq!(too_large, members / 16);
    assert_eq!(records + too_large, members);
    let peak = reader.peak_buffer();
    println!(
        "{members} members, {records} records, {too_large} too large, {} MiB read, peak buffers {} KiB",
        offset >> 20,
        peak >> 10
    );
    // The record cap is 1 MiB + 256 KiB; buffers stay within a few caps.
    assert!(peak <= 12 << 20, "peak buffers {peak} bytes");
}

/// A reader that fails after `ok` bytes.
struct Failing<'a> {
    data: &'a [u8],
    ok: usize,
}

impl Read for Failing<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.ok == 0 {
            return Err(io::Error::other("disk on fire"));
        }
        let n = out.len().min(self.ok).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        self.ok -= n;
        Ok(n)
    }
}

/// A read error is one `RecordError::Io` at the offset reached, after the
/// records before it (the record it cuts is reported as truncated), and ends
/// the iteration; plain and gzip alike.
#[test]
fn read_errors_end_the_stream() {
    let mut rng = Rng(5);
    let plain: Vec<u8> = (0..3).flat_map(|i| record(i, 100, &mut rng)).collect();
    let gz: Vec<u8> = (0..3)
        .flat_map(|i| gzip(&record(i, 100, &mut rng)))
        .collect();
    for data in [&plain, &gz] {
        let cut = data.len() / 2;
        let items: Vec<_> =
            Reader::from_read(Failing { data, ok: cut }, Options::default()).collect();
        let last = items.last().unwrap();
        assert!(
            matches!(last, Err(RecordError::Io { offset, .. }) if *offset == cut as u64),
            "{items:?}"
        );
        assert!(items[0].is_ok(), "{items:?}");
        let io = items
            .iter()
            .filter(|i| matches!(i, Err(RecordError::Io { .. })));
        assert_eq!(io.count(), 1, "{items:?}");
    }
}
