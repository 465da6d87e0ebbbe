//! `decode_parallel` against `decode_with`: the same text and error flag.
//!
//! - The lemma the cuts rest on, checked at every allowed cut: for each
//!   multibyte encoding that is cut, decoding the bytes before and after a
//!   `>` or line feed separately (each from the initial state, each with
//!   end-of-queue) joins into the decoding of the whole — on adversarial
//!   bytes (pending leads, gb18030 four-byte prefixes, and errors right
//!   before the cut).
//! - Every corpus page, in its determined encoding and in each encoding
//!   that is cut, in 2 to 64 pieces on rayon's pool.

use std::borrow::Cow;

use encoding_rs::{
    BIG5, EUC_JP, EUC_KR, GB18030, GBK, ISO_2022_JP, ISO_8859_2, KOI8_U, SHIFT_JIS, UTF_8,
    UTF_16BE, WINDOWS_1251, WINDOWS_1252, X_USER_DEFINED,
};
use spinneret_encoding::parallel::cuts;
use spinneret_encoding::{Encoding, Policy, decode_parallel, decode_with};
use spinneret_testdata::Rng;

use crate::corpus::{pages, sniffer};

const MULTIBYTE: [&Encoding; 6] = [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GB18030, GBK];

/// Bytes that exercise the decoders' states: lead bytes of every
/// multibyte encoding, ASCII digits (gb18030's second and fourth bytes),
/// trail bytes, and the cut bytes themselves.
fn hostile(rng: &mut Rng, len: usize) -> Vec<u8> {
    const ALPHABET: &[u8] =
        b">\n>\n0912AZaz\x7f\x80\x81\x8e\x8f\x9f\xa0\xa1\xc8\xe0\xef\xfc\xfd\xfe\xff";
    (0..len)
        .map(|_| match rng.below(4) {
            0 => rng.next_u64() as u8,
            _ => rng.pick(ALPHABET),
        })
        .collect()
}

fn joined(encoding: &'static Encoding, parts: &[&[u8]]) -> (String, bool) {
    let mut text = String::new();
    let mut errors = false;
    for part in parts {
        let (t, e) = encoding.decode_without_bom_handling(part);
        text.push_str(&t);
        errors |= e;
    }
    (text, errors)
}

#[test]
fn a_cut_after_a_markup_byte_leaves_the_decoder_initial() {
    let mut rng = Rng(0x5EED_0043);
    let mut checked = 0usize;
    for encoding in MULTIBYTE {
        for _ in 0..40 {
            let bytes = hostile(&mut rng, 600);
            let (whole, whole_errors) = encoding.decode_without_bom_handling(&bytes);
            for at in (1..bytes.len()).filter(|&i| matches!(bytes[i - 1], b'>' | b'\n')) {
                let (text, errors) = joined(encoding, &[&bytes[..at], &bytes[at..]]);
                assert_eq!(
                    (text.as_str(), errors),
                    (&*whole, whole_errors),
                    "{} cut at {at} of {:?}",
                    encoding.name(),
                    bytes
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "only {checked} cuts checked");
}

#[test]
fn random_bytes_in_pieces_equal_the_whole() {
    let mut rng = Rng(0xDEC0_DE43);
    let others = [
        WINDOWS_1252,
        WINDOWS_1251,
        ISO_8859_2,
        KOI8_U,
        X_USER_DEFINED,
        UTF_8,
        ISO_2022_JP,
        UTF_16BE,
    ];
    for &encoding in MULTIBYTE.iter().chain(&others) {
        for len in [0, 1, 2, 17, 300, 5_000] {
            let bytes = hostile(&mut rng, len);
            let want = decode_with(&bytes, encoding);
            for pieces in [1, 2, 3, 7, 64, 1_000] {
                let got = decode_parallel(&bytes, encoding, pieces);
                assert_eq!(got, want, "{} {len} bytes {pieces} pieces", encoding.name());
            }
        }
    }
}

#[test]
fn a_byte_order_mark_chooses_the_encoding_of_the_whole() {
    let body = "<p>caf\u{e9} \u{65e5}\u{672c}</p>\n".repeat(40);
    let utf8 = [b"\xEF\xBB\xBF".as_slice(), body.as_bytes()].concat();
    for encoding in [WINDOWS_1252, SHIFT_JIS] {
        let (text, errors) = decode_parallel(&utf8, encoding, 4);
        assert_eq!((&*text, errors), (body.as_str(), false));
        assert!(cuts(&utf8, encoding, 4).is_empty());
    }
}

#[test]
fn every_corpus_page_in_pieces_equals_the_whole() {
    let pages = pages();
    let mut cut = 0usize;
    let mut owned = 0usize;
    for page in &pages {
        let determined = sniffer(Policy::Crawler, page)
            .determine(&page.bytes)
            .encoding;
        let mut runs: Vec<(&'static Encoding, usize)> =
            [2, 5, 64].iter().map(|&n| (determined, n)).collect();
        runs.extend(MULTIBYTE.iter().map(|&e| (e, 7)));
        runs.extend([(WINDOWS_1252, 7), (X_USER_DEFINED, 3)]);
        for (encoding, pieces) in runs {
            let want = decode_with(&page.bytes, encoding);
            let got = decode_parallel(&page.bytes, encoding, pieces);
            assert_eq!(
                got,
                want,
                "{} as {} in {pieces} pieces",
                page.path,
                encoding.name()
            );
            assert_eq!(
                matches!(got.0, Cow::Borrowed(_)),
                matches!(want.0, Cow::Borrowed(_)),
                "{}: lent as decode_with lends",
                page.path
            );
            if !cuts(&page.bytes, encoding, pieces).is_empty() {
                cut += 1;
                owned += usize::from(matches!(got.0, Cow::Owned(_)));
            }
        }
    }
    println!(
        "{} pages; {cut} decodings cut, {owned} of them not ASCII",
        pages.len()
    );
    assert!(pages.len() >= 800 && cut > 5 * pages.len());
}
