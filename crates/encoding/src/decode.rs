//! Decoding with the determined encoding, whole or streaming.
//!
//! Decoding is the Encoding Standard's *decode* (encoding_rs
//! `Encoding::decode` / `new_decoder`): a BOM, if present, wins and is
//! removed; malformed input becomes U+FFFD. The text is borrowed from the
//! input whenever encoding_rs can (valid UTF-8, or ASCII-only input in an
//! ASCII-compatible encoding).
//!
//! Streaming ([`Sniffer::decode_stream`]) decides from a prefix: when the
//! first [`MAX_PREFIX`] bytes are all ASCII it decides without the
//! detector (the default step), where the whole-input API would still see
//! later non-ASCII bytes — the only case in which the two can differ.
//!
//! Streaming holds, at any time, the sniffing
//! prefix (at most [`MAX_PREFIX`] bytes), one input chunk and one output
//! chunk — never the whole document, so a 1 GB page costs a few hundred KiB.

use std::borrow::Cow;
use std::io::Read;

use encoding_rs::{CoderResult, Encoding};

use crate::determine::{DetectorInput, Determination, Sniffer};
use crate::error::EncodingError;
use crate::prescan::PRESCAN_WINDOW;

/// The most bytes buffered before deciding, when streaming.
pub const MAX_PREFIX: usize = 1024 * 1024;
/// Input chunk size when streaming.
const CHUNK: usize = 64 * 1024;

/// A decoded document.
#[derive(Clone, Debug)]
pub struct Decoded<'a> {
    /// The text (borrowed from the input when possible).
    pub text: Cow<'a, str>,
    /// The encoding decision.
    pub determination: Determination,
    /// Whether malformed sequences were replaced with U+FFFD.
    pub had_errors: bool,
    /// The raw bytes.
    pub raw: &'a [u8],
}

/// Decodes `bytes` as `encoding` (BOM handling per the standard).
pub fn decode_with<'a>(bytes: &'a [u8], encoding: &'static Encoding) -> (Cow<'a, str>, bool) {
    let (text, _, had_errors) = encoding.decode(bytes);
    (text, had_errors)
}

impl Sniffer<'_> {
    /// Determines the encoding of `bytes` and decodes them.
    pub fn decode<'a>(&self, bytes: &'a [u8]) -> Decoded<'a> {
        let determination = self.determine(bytes);
        let (text, had_errors) = decode_with(bytes, determination.encoding);
        Decoded {
            text,
            determination,
            had_errors,
            raw: bytes,
        }
    }

    /// Reads a document from `reader`, determines its encoding from a
    /// prefix (the prescan window, and for the detector the bytes up to the
    /// first non-ASCII byte plus its window, at most [`MAX_PREFIX`]), then
    /// decodes everything, passing the text to `sink` in pieces.
    pub fn decode_stream(
        &self,
        mut reader: impl Read,
        mut sink: impl FnMut(&str),
    ) -> Result<(Determination, bool), EncodingError> {
        let tail = match self.detector_input_setting() {
            DetectorInput::Whole => MAX_PREFIX,
            DetectorInput::AfterFirstNonAscii(n) | DetectorInput::UntilStable(n) => n,
        };
        // The prefix.
        let mut prefix = Vec::with_capacity(PRESCAN_WINDOW * 4);
        let mut eof = false;
        let mut first_non_ascii: Option<usize> = None;
        loop {
            let need = match first_non_ascii {
                Some(i) => i.saturating_add(tail).max(PRESCAN_WINDOW),
                None => MAX_PREFIX,
            }
            .min(MAX_PREFIX);
            if prefix.len() >= need {
                break;
            }
            let old = prefix.len();
            prefix.resize(need.min(old + CHUNK), 0);
            let n = read_retrying(&mut reader, &mut prefix[old..])?;
            prefix.truncate(old + n);
            if n == 0 {
                eof = true;
                break;
            }
            if first_non_ascii.is_none() {
                first_non_ascii =
                    crate::determine::first_non_ascii_or_esc(&prefix[old..]).map(|i| old + i);
            }
        }
        let determination = self.determine_prefix(&prefix, eof);
        // Decode the prefix, then the rest.
        let mut decoder = determination.encoding.new_decoder();
        let mut out = String::with_capacity(CHUNK * 3 + 16);
        let mut had_errors = false;
        let mut feed = |src: &[u8], last: bool, out: &mut String| {
            let mut src = src;
            loop {
                let (result, read, errors) = decoder.decode_to_string(src, out, last);
                had_errors |= errors;
                src = &src[read..];
                match result {
                    CoderResult::InputEmpty => break,
                    CoderResult::OutputFull => {
                        sink(out);
                        out.clear();
                    }
                }
            }
            if !out.is_empty() {
                sink(out);
                out.clear();
            }
        };
        feed(&prefix, eof, &mut out);
        drop(prefix);
        if !eof {
            let mut buf = vec![0u8; CHUNK];
            loop {
                let n = read_retrying(&mut reader, &mut buf)?;
                feed(&buf[..n], n == 0, &mut out);
                if n == 0 {
                    break;
                }
            }
        }
        Ok((determination, had_errors))
    }
}

fn read_retrying(reader: &mut impl Read, buf: &mut [u8]) -> Result<usize, EncodingError> {
    loop {
        match reader.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(EncodingError::Io(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::determine::Policy;
    use encoding_rs::*;

    #[test]
    fn borrowed_when_valid_utf8() {
        let d = Sniffer::new(Policy::Browser).decode("<meta charset=utf-8>\u{e9}".as_bytes());
        assert!(matches!(d.text, Cow::Borrowed(_)));
        let d = Sniffer::new(Policy::Browser).decode(b"\xEF\xBB\xBFabc");
        assert_eq!(d.text, "abc");
        assert_eq!(d.raw.len(), 6);
    }

    #[test]
    fn malformed_input_is_replaced() {
        let d = Sniffer::new(Policy::Browser).decode(b"<meta charset=utf-8>a\xFFb");
        assert_eq!(d.text, "<meta charset=utf-8>a\u{FFFD}b");
        assert!(d.had_errors);
        let d = Sniffer::new(Policy::Browser).decode(b"<meta charset=iso-2022-kr>abc");
        assert_eq!(
            (d.determination.encoding, &*d.text),
            (REPLACEMENT, "\u{FFFD}")
        );
    }

    #[test]
    fn stream_equals_whole() {
        let mut page = b"<html><meta charset=windows-1251>".to_vec();
        let text = "Привет мир! ".repeat(20_000);
        let (body, _, _) = WINDOWS_1251.encode(&text);
        page.extend_from_slice(&body);
        for policy in [Policy::Browser, Policy::Crawler] {
            let s = Sniffer::new(policy);
            let whole = s.decode(&page);
            let mut text = String::new();
            let (d, _) = s.decode_stream(&page[..], |t| text.push_str(t)).unwrap();
            assert_eq!(d, whole.determination);
            assert_eq!(text, whole.text);
        }
        // Detector path, non-ASCII late.
        let mut page = vec![b'a'; 100_000];
        page.extend_from_slice(&body);
        let s = Sniffer::new(Policy::Browser);
        let mut text = String::new();
        let (d, _) = s.decode_stream(&page[..], |t| text.push_str(t)).unwrap();
        assert_eq!(d.encoding, WINDOWS_1251);
        assert_eq!(text, WINDOWS_1251.decode(&page).0);
    }
}
