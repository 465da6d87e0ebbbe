//! Any bytes, any headers, any URL: a decision and a decoding, never a
//! panic; and streaming decodes a page far larger than memory would allow
//! holding three times, in pieces.

use spinneret_encoding::{Change, Encoding, Policy, Sniffer};
use spinneret_testdata::Rng;
use std::io::Read;

/// Fragments that steer inputs into every branch of the sniffing code.
const PIECES: &[&[u8]] = &[
    b"<meta charset=",
    b"<meta http-equiv=content-type content=\"text/html; charset=",
    b"<meta content='charset=",
    b"<!--",
    b"-->",
    b"<?xml version=\"1.0\" encoding=\"",
    b"<?",
    b"</",
    b"<!",
    b">",
    b"\"",
    b"'",
    b"=",
    b" ",
    b"utf-16",
    b"x-user-defined",
    b"shift_jis",
    b"windows-1251",
    b"bogus",
    b"\xEF\xBB\xBF",
    b"\xFF\xFE",
    b"\xFE\xFF",
    b"\x00",
    b"\x1B$B",
    b"\xC3\xA9",
    b"\xE9",
    b"\xF0\x9F\x98",
];

const CONTENT_TYPES: &[&[u8]] = &[
    b"",
    b"text/html",
    b"text/html; charset=windows-1251",
    b"text/html;charset=\"utf-8\"",
    b"text/html; charset=bogus; charset=utf-8",
    b"text/html; charset=",
    b";;;charset=\"\\",
    b"\xFF\xFE; charset=\xE9",
    b"text/plain, text/html; charset=koi8-r",
];

const URLS: &[&str] = &[
    "",
    "https://example.ru/",
    "https://example.XN--P1AI/x",
    "http://[::1]/",
    "http://a..b./",
    "not a url",
    "https://\u{FFFD}.\u{FFFD}/",
    "https://example.co.jp:99999/",
];

fn random_input(rng: &mut Rng) -> Vec<u8> {
    let mut out = Vec::new();
    let parts = rng.below(40);
    for _ in 0..parts {
        if rng.below(3) == 0 {
            let n = rng.below(8);
            out.extend((0..n).map(|_| rng.next_u64() as u8));
        } else {
            out.extend_from_slice(PIECES[rng.below(PIECES.len())]);
        }
    }
    if rng.below(4) == 0 {
        // Push the interesting part past the 1024-byte prescan window.
        let mut long = vec![b'a'; 1000 + rng.below(100)];
        long.extend_from_slice(&out);
        out = long;
    }
    out
}

#[test]
fn never_panics_and_streaming_matches_whole() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    for i in 0..20_000 {
        let input = random_input(&mut rng);
        let ct = CONTENT_TYPES[rng.below(CONTENT_TYPES.len())];
        let url = URLS[rng.below(URLS.len())];
        for policy in [Policy::Browser, Policy::Crawler] {
            let sniffer = Sniffer::new(policy).content_type(ct).url(url);
            let whole = sniffer.decode(&input);
            // Streaming in small reads gives the same decision and text.
            let mut streamed = String::new();
            let reader = SmallReads {
                data: &input,
                at: 0,
                step: 1 + rng.below(7),
            };
            let (d, _) = sniffer
                .decode_stream(reader, |s| streamed.push_str(s))
                .expect("reading from memory cannot fail");
            assert_eq!(
                d.encoding, whole.determination.encoding,
                "case {i}: {input:?}"
            );
            assert_eq!(streamed, whole.text, "case {i}: {input:?}");
            // A late <meta> of any encoding is handled.
            let mut det = whole.determination;
            let late = Encoding::for_label(PIECES[rng.below(PIECES.len())]).unwrap_or(utf8());
            let change = det.change_the_encoding(late, &input[..input.len() / 2]);
            assert!(matches!(
                change,
                Change::Ignored | Change::Keep | Change::SwitchInPlace(_) | Change::Reparse(_)
            ));
        }
    }
}

fn utf8() -> &'static Encoding {
    Encoding::for_label(b"utf-8").expect("utf-8 is a label")
}

/// A reader that hands out at most `step` bytes per read.
struct SmallReads<'a> {
    data: &'a [u8],
    at: usize,
    step: usize,
}

impl Read for SmallReads<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len() - self.at);
        buf[..n].copy_from_slice(&self.data[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// 512 MiB of windows-1251 text, generated on the fly and never held: the
/// sink sees it in pieces no larger than the streaming buffers.
#[test]
fn streams_a_huge_page_in_pieces() {
    const SIZE: usize = 512 * 1024 * 1024;
    struct Generated {
        left: usize,
        head: &'static [u8],
    }
    impl Read for Generated {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if !self.head.is_empty() {
                let n = self.head.len().min(buf.len());
                buf[..n].copy_from_slice(&self.head[..n]);
                self.head = &self.head[n..];
                return Ok(n);
            }
            let n = self.left.min(buf.len());
            for (i, b) in buf[..n].iter_mut().enumerate() {
                // "Привет " in windows-1251, repeated.
                *b = b"\xcf\xf0\xe8\xe2\xe5\xf2 "[(self.left - i) % 7];
            }
            self.left -= n;
            Ok(n)
        }
    }
    let reader = Generated {
        left: SIZE,
        head: b"<meta charset=windows-1251>",
    };
    let (mut chars, mut largest_piece) = (0usize, 0usize);
    let (d, had_errors) = Sniffer::new(Policy::Browser)
        .decode_stream(reader, |s| {
            chars += s.chars().count();
            largest_piece = largest_piece.max(s.len());
        })
        .expect("generated input reads fine");
    assert_eq!(d.encoding.name(), "windows-1251");
    assert!(!had_errors);
    assert_eq!(chars, SIZE + "<meta charset=windows-1251>".len());
    // Pieces are bounded by the streaming buffers, not by the page.
    assert!(
        largest_piece <= 4 * 1024 * 1024,
        "a piece of {largest_piece} bytes"
    );
}
