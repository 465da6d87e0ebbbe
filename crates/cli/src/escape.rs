//! Escaping for the rows of text outputs: JSON strings (as serde_json
//! writes them, with a fast path for strings that need no escape) and TSV
//! fields, appended to anything that takes a row's text ([`RowText`]: a
//! `String`, or a writer's buffer for a row too long to hold).
//!
//! Invariant: [`json_string`] writes exactly serde_json's string (tested
//! on every ASCII byte at every position); [`tsv_escape`] leaves no tab,
//! CR or LF in a field.

use std::ops::Range;

/// Where a row is rendered: a `String` (the lines of a page, kept until
/// they are written), or a writer's buffer that passes a row too long to
/// hold on to the output as it is rendered (`links`' spilling line).
pub trait RowText {
    /// Appends `s`.
    fn push_str(&mut self, s: &str);
    /// Appends `c`.
    fn push(&mut self, c: char);
    /// Room for `additional` more bytes is likely to be needed.
    fn reserve(&mut self, additional: usize);
    /// The bytes rendered so far.
    fn rendered(&self) -> usize;
    /// Appends the bytes `range` of what was rendered (made by `render`)
    /// again: copied when they are still held, else rendered again.
    fn push_again(&mut self, range: Range<usize>, render: impl FnOnce(&mut Self));
}

impl RowText for String {
    #[inline(always)]
    fn push_str(&mut self, s: &str) {
        String::push_str(self, s);
    }

    #[inline(always)]
    fn push(&mut self, c: char) {
        String::push(self, c);
    }

    #[inline(always)]
    fn reserve(&mut self, additional: usize) {
        String::reserve(self, additional);
    }

    #[inline(always)]
    fn rendered(&self) -> usize {
        String::len(self)
    }

    #[inline(always)]
    fn push_again(&mut self, range: Range<usize>, _: impl FnOnce(&mut Self)) {
        self.extend_from_within(range);
    }
}

/// Appends `s` as a JSON string, escaped as serde_json does (`\"`, `\\`,
/// `\b \f \n \r \t`, other controls as `\u00xx`; everything else as is).
pub fn json_string(s: &str, out: &mut (impl RowText + ?Sized)) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push('"');
    // Fast path: nothing needs an escape (almost every URL and text).
    if is_clean(bytes) {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0C => "\\f",
            0x00..=0x1F => "",
            _ => continue,
        };
        // Bytes before `i` are whole UTF-8 sequences: `b` is ASCII.
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// Whether no byte of `b` needs an escape. From 16 bytes on, 16 bytes per
/// step ([`block_is_clean`]), the tail as the last (overlapping) block;
/// from 8, two overlapping words; below that, byte by byte.
#[inline(always)]
pub(crate) fn is_clean(b: &[u8]) -> bool {
    let n = b.len();
    if n < 8 {
        return b.iter().all(|&c| !escapes(c));
    }
    if n < 16 {
        let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        return !(needs_escape(word(0)) | needs_escape(word(n - 8)));
    }
    let block = |i: usize| -> &[u8; 16] { b[i..i + 16].try_into().expect("16 bytes") };
    let mut i = 0;
    while i + 16 <= n {
        if !block_is_clean(block(i)) {
            return false;
        }
        i += 16;
    }
    block_is_clean(block(n - 16))
}

/// Whether byte `c` needs an escape in a JSON string.
#[inline(always)]
fn escapes(c: u8) -> bool {
    (c < 0x20) | (c == b'"') | (c == b'\\')
}

/// Whether no byte of `block` needs an escape. Written without a branch per
/// byte so that the compiler makes it one SSE2 test of all 16 bytes (about
/// 18 instructions, against 26 for two words of SWAR tests).
#[inline(always)]
fn block_is_clean(block: &[u8; 16]) -> bool {
    let mut any = 0u8;
    for &c in block {
        any |= u8::from(escapes(c));
    }
    any == 0
}

/// Whether any of the 8 bytes of `x` is a control (< 0x20), `"` or `\\`
/// (exact: the SWAR tests below have no false negatives, and a false
/// positive only sends the string to the byte loop).
#[inline]
fn needs_escape(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let below_0x20 = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    (below_0x20 | has_zero(x ^ (ONES * u64::from(b'"'))) | has_zero(x ^ (ONES * u64::from(b'\\'))))
        != 0
}

/// Appends `s` with `\\`, tab, CR and LF escaped.
pub fn tsv_escape(s: &str, out: &mut (impl RowText + ?Sized)) {
    // Runs without an escape are appended whole.
    let mut rest = s;
    while let Some(i) = rest.find(['\\', '\t', '\n', '\r']) {
        out.push_str(&rest[..i]);
        out.push_str(match rest.as_bytes()[i] {
            b'\\' => "\\\\",
            b'\t' => "\\t",
            b'\n' => "\\n",
            _ => "\\r",
        });
        rest = &rest[i + 1..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_match_serde_json() {
        let mut all = String::new();
        for c in (0u32..0x80).chain([0xA0, 0x2028, 0x1F600]) {
            all.push(char::from_u32(c).unwrap());
        }
        let long = format!("{all}{all} and then a long clean tail of ASCII text é ü {all}");
        for s in [
            "",
            "plain",
            "a\"b\\c",
            "tab\there\n",
            "\u{7f}\u{1}é",
            "0123456789abcdef\"",
            all.as_str(),
            &long,
        ] {
            let mut out = String::new();
            json_string(s, &mut out);
            assert_eq!(out, serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn every_ascii_byte_at_every_position_of_short_and_long_strings() {
        for len in [1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 50] {
            for pos in 0..len {
                for b in 0..0x80u8 {
                    let mut v = vec![b'a'; len];
                    v[pos] = b;
                    let s = String::from_utf8(v).unwrap();
                    let mut out = String::new();
                    json_string(&s, &mut out);
                    assert_eq!(out, serde_json::to_string(&s).unwrap(), "{s:?}");
                }
            }
        }
    }

    /// The 16-byte block test and the 8-byte word test, for every byte value
    /// at every position.
    #[test]
    fn block_and_word_tests_are_exact_per_byte() {
        for b in 0..=255u8 {
            let want_escape = b < 0x20 || b == b'"' || b == b'\\';
            for pos in 0..16 {
                let mut block = *b"abcdefghijklmnop";
                block[pos] = b;
                assert_eq!(block_is_clean(&block), !want_escape, "{b:#x} at {pos}");
                if pos < 8 {
                    let word = u64::from_le_bytes(block[..8].try_into().unwrap());
                    assert_eq!(needs_escape(word), want_escape, "{b:#x} at {pos}");
                }
            }
        }
    }
}
