//! Percent-encoded bytes (URL Standard §1.3): the encode sets, percent-encode,
//! percent-decode, and *percent-encode after encoding* with a caller-supplied
//! query encoder.
//!
//! Every encode set is a 128-bit table of the ASCII bytes it contains; every
//! set contains all non-ASCII code points, so encoding works byte by byte on
//! UTF-8: a byte ≥ 0x80 is always encoded. This is why the parser can walk its
//! input as bytes — UTF-8 percent-encoding a code point is percent-encoding
//! each of its bytes.

/// A percent-encode set: the ASCII bytes it contains, as a bitmap. Bytes
/// ≥ 0x80 are always in every set (the standard's sets all contain every
/// code point above U+007E).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodeSet([u64; 2]);

impl EncodeSet {
    const fn from_bytes(base: EncodeSet, extra: &[u8]) -> EncodeSet {
        let mut bits = base.0;
        let mut i = 0;
        while i < extra.len() {
            let b = extra[i];
            bits[(b >> 6) as usize] |= 1 << (b & 63);
            i += 1;
        }
        EncodeSet(bits)
    }

    /// Whether `byte` must be percent-encoded under this set.
    #[inline(always)]
    pub const fn contains(&self, byte: u8) -> bool {
        byte >= 0x80 || (self.0[(byte >> 6) as usize] >> (byte & 63)) & 1 == 1
    }
}

const fn c0_and_del() -> EncodeSet {
    let mut set = EncodeSet([0, 0]);
    let mut b = 0u8;
    while b < 0x20 {
        set = EncodeSet::from_bytes(set, &[b]);
        b += 1;
    }
    EncodeSet::from_bytes(set, &[0x7F])
}

/// The C0 control percent-encode set: C0 controls and all code points above
/// U+007E (so U+007F is included).
pub const C0_CONTROL: EncodeSet = c0_and_del();
/// The fragment percent-encode set.
pub const FRAGMENT: EncodeSet = EncodeSet::from_bytes(C0_CONTROL, b" \"<>`");
/// The query percent-encode set.
pub const QUERY: EncodeSet = EncodeSet::from_bytes(C0_CONTROL, b" \"#<>");
/// The special-query percent-encode set (query set plus `'`).
pub const SPECIAL_QUERY: EncodeSet = EncodeSet::from_bytes(QUERY, b"'");
/// The path percent-encode set.
pub const PATH: EncodeSet = EncodeSet::from_bytes(QUERY, b"?^`{}");
/// The userinfo percent-encode set.
pub const USERINFO: EncodeSet = EncodeSet::from_bytes(PATH, b"/:;=@[\\]|");
/// The component percent-encode set (what JavaScript's `encodeURIComponent` uses).
pub const COMPONENT: EncodeSet = EncodeSet::from_bytes(USERINFO, b"$%&+,");
/// The application/x-www-form-urlencoded percent-encode set.
pub const FORM_URLENCODED: EncodeSet = EncodeSet::from_bytes(COMPONENT, b"!'()~");

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends the percent-encoding of `byte` (`%XX`, upper-case hex).
#[inline]
pub fn percent_encode_byte(byte: u8, out: &mut String) {
    out.push('%');
    out.push(UPPER_HEX[(byte >> 4) as usize] as char);
    out.push(UPPER_HEX[(byte & 15) as usize] as char);
}

/// UTF-8 percent-encodes `input` using `set`, appending to `out`.
///
/// ```
/// use spinneret_url::percent_encoding::{utf8_percent_encode, USERINFO};
/// let mut out = String::new();
/// utf8_percent_encode("Say what‽", USERINFO, &mut out);
/// assert_eq!(out, "Say%20what%E2%80%BD");
/// ```
pub fn utf8_percent_encode(input: &str, set: EncodeSet, out: &mut String) {
    let bytes = input.as_bytes();
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if set.contains(b) {
            // Bytes in `start..i` are unencoded, hence ASCII, so when the run
            // is non-empty both ends are char boundaries. (`start` alone may
            // sit inside a multi-byte code point whose bytes are all encoded.)
            if i > start {
                out.push_str(&input[start..i]);
            }
            percent_encode_byte(b, out);
            start = i + 1;
        }
    }
    if start < bytes.len() {
        out.push_str(&input[start..]);
    }
}

/// Whether `input` needs no change under `set`.
#[inline]
pub fn is_clean(input: &[u8], set: EncodeSet) -> bool {
    !input.iter().any(|&b| set.contains(b))
}

#[inline]
pub(crate) fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// Percent-decodes a byte sequence: `%XX` with two hex digits becomes the
/// byte; every other byte, including a `%` not followed by two hex digits, is
/// kept.
///
/// ```
/// use spinneret_url::percent_encoding::percent_decode;
/// assert_eq!(percent_decode(b"%25%s%1G"), b"%%s%1G");
/// ```
pub fn percent_decode(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        let b = input[i];
        if b == b'%'
            && i + 2 < input.len()
            && let (Some(h), Some(l)) = (hex_value(input[i + 1]), hex_value(input[i + 2]))
        {
            out.push(h << 4 | l);
            i += 3;
            continue;
        }
        out.push(b);
        i += 1;
    }
    out
}

/// One piece of a legacy encoder's output: bytes, or a scalar value the
/// encoding cannot represent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EncodedPiece<'a> {
    /// Bytes in the target encoding.
    Bytes(&'a [u8]),
    /// A scalar value the encoding cannot represent (the encoder's "error").
    /// It is written as `%26%23` + decimal code point + `%3B`, the
    /// percent-encoding of an HTML numeric character reference.
    Unmappable(char),
}

/// Encodes query strings in a document's encoding (the URL parser's
/// *encoding* argument).
///
/// The parser calls it only for the query of special, non-`ws`/`wss` URLs,
/// and only when [`QueryEncoder::is_utf8`] is false; UTF-8 is handled inside
/// the URL crate. An implementation must already have applied the standard's
/// *get an output encoding* (UTF-16BE/LE and replacement become UTF-8), which
/// it reports through `is_utf8`.
///
/// The whole query is passed in one call because encoders can be stateful
/// (ISO-2022-JP).
pub trait QueryEncoder {
    /// Whether the output encoding is UTF-8.
    fn is_utf8(&self) -> bool;
    /// Encodes `input`, passing the output to `sink` in order.
    fn encode(&self, input: &str, sink: &mut dyn FnMut(EncodedPiece<'_>));
}

/// Percent-encode after encoding (URL Standard): encodes `input` with
/// `encoder` (UTF-8 when `None`), then percent-encodes the bytes in `set`;
/// unmappable code points become `%26%23NNN%3B`. `space_as_plus` is the
/// application/x-www-form-urlencoded rule.
pub fn percent_encode_after_encoding(
    encoder: Option<&dyn QueryEncoder>,
    input: &str,
    set: EncodeSet,
    space_as_plus: bool,
    out: &mut String,
) {
    let emit = |bytes: &[u8], out: &mut String| {
        for &b in bytes {
            if space_as_plus && b == b' ' {
                out.push('+');
            } else if set.contains(b) {
                percent_encode_byte(b, out);
            } else {
                out.push(b as char);
            }
        }
    };
    match encoder {
        Some(enc) if !enc.is_utf8() => enc.encode(input, &mut |piece| match piece {
            EncodedPiece::Bytes(b) => emit(b, out),
            EncodedPiece::Unmappable(c) => {
                out.push_str("%26%23");
                out.push_str(&(c as u32).to_string());
                out.push_str("%3B");
            }
        }),
        _ if !space_as_plus => utf8_percent_encode(input, set, out),
        _ => emit(input.as_bytes(), out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_nest_as_the_standard_defines() {
        for b in 0u8..=0x7F {
            if C0_CONTROL.contains(b) {
                assert!(FRAGMENT.contains(b) && QUERY.contains(b));
            }
            if QUERY.contains(b) {
                assert!(SPECIAL_QUERY.contains(b) && PATH.contains(b));
            }
            if PATH.contains(b) {
                assert!(USERINFO.contains(b));
            }
            if USERINFO.contains(b) {
                assert!(COMPONENT.contains(b));
            }
            if COMPONENT.contains(b) {
                assert!(FORM_URLENCODED.contains(b));
            }
        }
        assert!(C0_CONTROL.contains(0x7F) && !C0_CONTROL.contains(b'~'));
        assert!(FRAGMENT.contains(b'`') && !QUERY.contains(b'`'));
        assert!(!FORM_URLENCODED.contains(b'*') && FORM_URLENCODED.contains(b'~'));
        assert!(!PATH.contains(b'%') && COMPONENT.contains(b'%'));
        assert!((0x80..=0xFF).all(|b| C0_CONTROL.contains(b)));
    }

    #[test]
    fn form_urlencoded_keeps_exactly_the_unreserved_few() {
        let kept: String = (0u8..0x80)
            .filter(|&b| !FORM_URLENCODED.contains(b))
            .map(|b| b as char)
            .collect();
        assert_eq!(
            kept,
            "*-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
        );
    }

    #[test]
    fn decode_edge_cases() {
        assert_eq!(percent_decode(b"%"), b"%");
        assert_eq!(percent_decode(b"%4"), b"%4");
        assert_eq!(percent_decode(b"%41"), b"A");
        assert_eq!(percent_decode(b"a%4"), b"a%4");
        assert_eq!(percent_decode("‽%25%2E".as_bytes()), b"\xE2\x80\xBD%.");
    }

    #[test]
    fn encode_after_encoding_utf8_with_plus() {
        let mut out = String::new();
        percent_encode_after_encoding(None, "1+1 ≡ 2%20", FORM_URLENCODED, true, &mut out);
        assert_eq!(out, "1%2B1+%E2%89%A1+2%2520");
    }
}
