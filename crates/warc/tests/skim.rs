//! [`Content::Skim`] against [`Content::Head`] on made gzip-per-record
//! WARCs: the same items on undamaged files (from a slice and streamed);
//! on damaged copies, the same items where the skim can see the damage,
//! and exactly the documented difference where it cannot (a flipped byte
//! inside a payload); and the crafted payload that forges a record, which
//! is why the skim is not `spinneret index`'s default.

use std::io::{self, Read, Write};

use spinneret_testdata::Rng;
use spinneret_warc::{Content, Options, Reader, Record, RecordError};

const HEAD: Content = Content::Head(64 << 20);
const SKIM: Content = Content::Skim(64 << 20);

/// `len` bytes of lower-case words (compressible as text is).
fn words(len: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + 16);
    while out.len() < len {
        let v = rng.next_u64();
        let n = 2 + (v % 9) as usize;
        out.extend((0..n).map(|k| b'a' + ((v >> (8 + k * 5)) % 26) as u8));
        out.push(b' ');
    }
    out.truncate(len);
    out
}

/// Random bytes (incompressible: a deflate writer stores them raw).
fn noise(len: usize, rng: &mut Rng) -> Vec<u8> {
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// A record of `kind` with `block`, closed by two CRLFs.
fn record(kind: &str, uri: &str, digest: bool, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {uri}\r\n\
         WARC-Date: 2026-12-08T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:{:08x}-0000-4000-8000-000000000000>\r\n",
        uri.len() * 7919 + block.len()
    )
    .into_bytes();
    if digest {
        r.extend_from_slice(b"WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\r\n");
    }
    let ct = if kind == "resource" {
        "text/plain"
    } else {
        "application/http; msgtype=response"
    };
    r.extend_from_slice(
        format!(
            "Content-Type: {ct}\r\nContent-Length: {}\r\n\r\n",
            block.len()
        )
        .as_bytes(),
    );
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

fn http(payload: &[u8]) -> Vec<u8> {
    let mut b =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nServer: t\r\n\r\n".to_vec();
    b.extend_from_slice(payload);
    b
}

fn gz(data: &[u8], level: u32) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

/// A file of many record kinds and sizes, one member each, and where each
/// member starts.
fn sample(rng: &mut Rng) -> (Vec<u8>, Vec<usize>) {
    let mut records = vec![record("warcinfo", "urn:x", false, b"software: t\r\n")];
    for i in 0..24 {
        let uri = format!("https://e.com/{i}");
        records.push(record(
            "request",
            &uri,
            false,
            b"GET / HTTP/1.1\r\nHost: e.com\r\n\r\n",
        ));
        let size = [20_000, 70_000, 140_000, 5_000][i % 4];
        records.push(record("response", &uri, true, &http(&words(size, rng))));
    }
    records.push(record(
        "resource",
        "https://e.com/r",
        true,
        &words(40_000, rng),
    ));
    records.push(record(
        "response",
        "https://e.com/nodigest",
        false,
        &http(&words(40_000, rng)),
    ));
    records.push(record(
        "revisit",
        "https://e.com/0",
        true,
        b"HTTP/1.1 200 OK\r\n\r\n",
    ));
    records.push(record("metadata", "https://e.com/0", false, b"via: x\r\n"));
    let mut file = Vec::new();
    let mut starts = Vec::new();
    for (i, r) in records.iter().enumerate() {
        starts.push(file.len());
        file.extend(gz(r, [1, 6, 9][i % 3]));
    }
    (file, starts)
}

/// Every item, a record without its block (the one field the skim may
/// shorten), and how many records were skimmed.
fn items(reader: Reader<'_>) -> (Vec<String>, usize) {
    let mut skimmed = 0;
    let out = reader
        .map(|item: Result<Record, RecordError>| match item {
            Ok(mut rec) => {
                skimmed += usize::from((rec.block.len() as u64) < rec.block_len);
                rec.block = Default::default();
                format!("{rec:?}")
            }
            Err(e) => format!("ERR {e}"),
        })
        .collect();
    (out, skimmed)
}

fn read(file: &[u8], content: Content) -> (Vec<String>, usize) {
    items(Reader::with_options(
        file,
        Options {
            content,
            ..Options::default()
        },
    ))
}

/// A reader handing out its bytes in reads of 1 to 40,000 bytes.
struct Trickle<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = (1 + self.rng.next_u64() as usize % 40_000)
            .min(out.len())
            .min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn read_streamed(file: &[u8], content: Content) -> (Vec<String>, usize) {
    let opts = Options {
        content,
        ..Options::default()
    };
    items(Reader::from_read(
        Trickle {
            data: file,
            rng: Rng(7),
        },
        opts,
    ))
}

#[test]
fn undamaged_files_read_the_same() {
    let mut rng = Rng(63);
    let (file, _) = sample(&mut rng);
    let (head, whole) = read(&file, HEAD);
    assert_eq!(whole, 0);
    assert!(head.iter().all(|i| !i.starts_with("ERR")), "{head:?}");
    let (skim, skimmed) = read(&file, SKIM);
    assert_eq!(skim, head);
    // The 18 responses of 20 KB or more and the resource; not the small,
    // the digestless, the requests.
    assert_eq!(skimmed, 19);
    let (streamed, skimmed) = read_streamed(&file, SKIM);
    assert_eq!(streamed, head);
    assert_eq!(skimmed, 19);
}

/// Damage the skim sees makes it fall back: the same items, errors
/// included.
#[test]
fn damage_the_skim_sees_is_reported_as_without_it() {
    let mut rng = Rng(64);
    let (file, starts) = sample(&mut rng);
    // Member 4 is a 70 KB response (records alternate request, response).
    let (m, next) = (starts[4], starts[5]);
    let mut cases: Vec<(&str, Vec<u8>)> = Vec::new();
    let mut wrong_isize = file.clone();
    wrong_isize[next - 2] ^= 0x40;
    cases.push(("a wrong ISIZE", wrong_isize));
    cases.push((
        "the file cut inside its last member",
        file[..file.len() - 30].to_vec(),
    ));
    cases.push((
        "a response cut inside its member",
        file[..m + 2_000].to_vec(),
    ));
    let mut tail_cut = file[..next - 20].to_vec();
    tail_cut.extend_from_slice(&file[next..]);
    cases.push(("a member missing its last 20 bytes", tail_cut));
    let mut garbage = file[..next].to_vec();
    garbage.extend_from_slice(b"garbage between members");
    garbage.extend_from_slice(&file[next..]);
    cases.push(("garbage between members", garbage));
    // Two records in one member, and one record over two members.
    let (a, b) = (
        record(
            "response",
            "https://e.com/a",
            true,
            &http(&words(30_000, &mut rng)),
        ),
        record(
            "response",
            "https://e.com/b",
            true,
            &http(&words(30_000, &mut rng)),
        ),
    );
    let mut two_in_one = file[..next].to_vec();
    two_in_one.extend(gz(&[a.clone(), b.clone()].concat(), 6));
    two_in_one.extend_from_slice(&file[next..]);
    cases.push(("two records in one member", two_in_one));
    let mut split = file[..next].to_vec();
    split.extend(gz(&a[..20_000], 6));
    split.extend(gz(&a[20_000..], 6));
    split.extend_from_slice(&file[next..]);
    cases.push(("a record over two members", split));
    // The whole file as one gzip member.
    let plain: Vec<u8> = {
        let mut d = flate2::read::MultiGzDecoder::new(&file[..]);
        let mut v = Vec::new();
        d.read_to_end(&mut v).unwrap();
        v
    };
    cases.push(("whole-file gzip", gz(&plain, 6)));
    for (what, damaged) in &cases {
        let (head, _) = read(damaged, HEAD);
        let (skim, _) = read(damaged, SKIM);
        assert_eq!(skim, head, "{what}");
        assert_eq!(read_streamed(damaged, SKIM).0, head, "{what} (streamed)");
    }
}

/// A payload holding the record's exact ISIZE and a gzip magic by
/// construction (stored raw: level 0): a magic that starts no `WARC/`
/// member is stepped over or ends the skim; the items are the same.
#[test]
fn a_payload_with_a_magic_after_the_right_isize() {
    let mut rng = Rng(65);
    let (file, starts) = sample(&mut rng);
    for tail in [
        &[0x00u8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff][..],
        &gz(b"not a record at all", 6)[3..],
        &[0xe0, 1, 2][..],
    ] {
        let size = 60_000;
        let mut payload = noise(size, &mut rng);
        let made = record("response", "https://e.com/m", true, &http(&payload));
        let total = made.len() as u32;
        let at = 30_000;
        payload[at..at + 4].copy_from_slice(&total.to_le_bytes());
        payload[at + 4..at + 7].copy_from_slice(&[0x1f, 0x8b, 0x08]);
        payload[at + 7..at + 7 + tail.len()].copy_from_slice(tail);
        let made = record("response", "https://e.com/m", true, &http(&payload));
        assert_eq!(made.len() as u32, total);
        let mut f = file[..starts[8]].to_vec();
        f.extend(gz(&made, 0));
        f.extend_from_slice(&file[starts[8]..]);
        let (head, _) = read(&f, HEAD);
        assert!(head.iter().any(|i| i.contains("https://e.com/m")));
        assert_eq!(read(&f, SKIM).0, head);
    }
}

/// What the skim cannot see: a flipped byte deep inside a payload. The
/// full read reports the member as corrupt (its record gets no item); the
/// skim gives the record, and every other item is the same.
#[test]
fn a_flipped_payload_byte_is_what_the_skim_does_not_see() {
    let mut rng = Rng(66);
    let (file, starts) = sample(&mut rng);
    let (clean, _) = read(&file, HEAD);
    let (m, next) = (starts[6], starts[7]);
    let mut damaged = file.clone();
    damaged[m + (next - m) * 3 / 4] ^= 0x10;
    let (head, _) = read(&damaged, HEAD);
    let (skim, _) = read(&damaged, SKIM);
    assert_eq!(
        skim, clean,
        "the skim reads the damaged file as the clean one"
    );
    let corrupt: Vec<usize> = (0..head.len())
        .filter(|&i| head[i].starts_with("ERR"))
        .collect();
    assert_eq!(corrupt.len(), 1, "{head:?}");
    assert!(
        head[corrupt[0]].contains(&format!("offset {m}: corrupt")),
        "{}",
        head[corrupt[0]]
    );
    let mut expected = head.clone();
    expected[corrupt[0]] = clean[corrupt[0]].clone();
    assert_eq!(skim, expected);
}

/// Why the skim is not the default: a payload crafted to hold the record's
/// length and then a gzip member of a made-up record, padded with random
/// bytes so the writer stores it raw, is read by the skim as two records —
/// the made-up one at an offset where a replay system would find it. The
/// full read gives the one real record.
#[test]
fn a_crafted_payload_forges_a_record() {
    let mut rng = Rng(67);
    // A made-up record whose member looks random (its payload is).
    let forged = gz(
        &record(
            "response",
            "https://forged.example/",
            true,
            &http(&noise(300, &mut rng)),
        ),
        9,
    );
    let noise_payload = noise(50_000, &mut rng);
    let total = record(
        "response",
        "https://e.com/host",
        true,
        &http(&noise_payload),
    )
    .len() as u32;
    let mut needle = total.to_le_bytes().to_vec();
    needle.extend_from_slice(&forged);
    // Where the writer stores the needle whole (not across the header of
    // one of its stored blocks): the attacker's only unknown, tried here.
    let made = (0..50).find_map(|k| {
        let at = 10_000 + k * 797;
        let mut payload = noise_payload.clone();
        payload[at..at + needle.len()].copy_from_slice(&needle);
        let host = gz(
            &record("response", "https://e.com/host", true, &http(&payload)),
            6,
        );
        host.windows(needle.len())
            .any(|w| w == &needle[..])
            .then_some(host)
    });
    let host = made.expect("the writer stores the needle whole somewhere");
    let mut file = gz(&record("warcinfo", "urn:x", false, b"a: b\r\n"), 6);
    file.extend(host);
    file.extend(gz(
        &record(
            "response",
            "https://e.com/after",
            true,
            &http(&words(30_000, &mut rng)),
        ),
        6,
    ));
    let (head, _) = read(&file, HEAD);
    let (skim, _) = read(&file, SKIM);
    assert!(
        head.iter()
            .all(|i| !i.contains("forged.example") && !i.starts_with("ERR")),
        "{head:?}"
    );
    assert!(
        skim.iter().any(|i| i.contains("forged.example")),
        "{skim:?}"
    );
}
