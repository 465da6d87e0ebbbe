//! Percent-encoding helpers shared by the rules and the byte-level
//! canonicalizers (Safe Browsing, Internet Archive).
//!
//! All functions work on bytes and never panic on malformed escapes: a `%`
//! not followed by two hex digits is an ordinary byte.

/// The value of an ASCII hex digit.
#[inline]
pub fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The byte a `%XX` escape at `s[i]` stands for, if `s[i..i + 3]` is one.
#[inline]
pub fn escape_at(s: &[u8], i: usize) -> Option<u8> {
    if s.get(i) != Some(&b'%') {
        return None;
    }
    let hi = hex_value(*s.get(i + 1)?)?;
    let lo = hex_value(*s.get(i + 2)?)?;
    Some(hi << 4 | lo)
}

/// RFC 3986 §2.3 unreserved characters: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
#[inline]
pub fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%XX` (upper-case hex) for `b`.
#[inline]
pub fn push_escape(out: &mut Vec<u8>, b: u8) {
    out.extend_from_slice(&[
        b'%',
        UPPER_HEX[(b >> 4) as usize],
        UPPER_HEX[(b & 15) as usize],
    ]);
}

/// Rewrites the escapes of `s`: an escape whose byte satisfies `decode` is
/// replaced by that byte; the others keep their place, with upper-case hex
/// when `upper`; a `%` that starts no escape becomes `%25` when `stray`.
/// Returns whether anything changed. `scratch` is reused.
///
/// Invariant the callers rely on: `decode` only accepts printable ASCII, so
/// the result is still valid UTF-8.
pub fn recode(
    s: &mut String,
    scratch: &mut Vec<u8>,
    decode: impl Fn(u8) -> bool,
    upper: bool,
    stray: bool,
) -> bool {
    let bytes = s.as_bytes();
    let Some(first) = memchr_percent(bytes) else {
        return false;
    };
    scratch.clear();
    scratch.extend_from_slice(&bytes[..first]);
    let mut changed = false;
    let mut i = first;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(v) = escape_at(bytes, i) {
            // A hex digit decoded after a `%` or a `%` and one hex digit
            // that start no escape would make one (`%4%41` → `%4A`), and
            // the next pass would decode it: such an escape stays.
            let n = scratch.len();
            let joins = v.is_ascii_hexdigit()
                && (scratch.last() == Some(&b'%')
                    || n >= 2 && scratch[n - 2] == b'%' && scratch[n - 1].is_ascii_hexdigit());
            if decode(v) && !joins {
                debug_assert!((0x21..0x7F).contains(&v));
                scratch.push(v);
                changed = true;
            } else if upper {
                let e = &bytes[i..i + 3];
                push_escape(scratch, v);
                changed |= scratch[scratch.len() - 3..] != *e;
            } else {
                scratch.extend_from_slice(&bytes[i..i + 3]);
            }
            i += 3;
        } else if b == b'%' && stray {
            scratch.extend_from_slice(b"%25");
            changed = true;
            i += 1;
        } else {
            scratch.push(b);
            i += 1;
        }
    }
    if changed {
        s.clear();
        // Only ASCII bytes were added or removed around whole UTF-8
        // sequences, so the buffer is valid UTF-8.
        s.push_str(std::str::from_utf8(scratch).expect("recode keeps UTF-8"));
    }
    changed
}

fn memchr_percent(b: &[u8]) -> Option<usize> {
    b.iter().position(|&c| c == b'%')
}

/// Percent-decodes `s` once (every valid escape).
pub fn unescape_once(s: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while i < s.len() {
        if let Some(v) = escape_at(s, i) {
            out.push(v);
            i += 3;
        } else {
            out.push(s[i]);
            i += 1;
        }
    }
}

/// Percent-decodes until no valid escape is left (the Safe Browsing
/// "repeatedly unescape" step). Terminates: every round that changes
/// anything shortens the input by two bytes per escape.
pub fn unescape_repeatedly(s: &[u8]) -> Vec<u8> {
    let mut cur = s.to_vec();
    let mut next = Vec::with_capacity(cur.len());
    loop {
        if !(0..cur.len()).any(|i| escape_at(&cur, i).is_some()) {
            return cur;
        }
        unescape_once(&cur, &mut next);
        std::mem::swap(&mut cur, &mut next);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recode_unreserved_and_upper() {
        let mut s = String::from("/%7e%41%2f%zz%");
        let mut sc = Vec::new();
        assert!(recode(&mut s, &mut sc, is_unreserved, true, false));
        assert_eq!(s, "/~A%2F%zz%");
        let mut s = String::from("/%zz%4");
        assert!(recode(&mut s, &mut sc, is_unreserved, false, true));
        assert_eq!(s, "/%25zz%254");
        let mut s = String::from("/%2f");
        assert!(!recode(&mut s, &mut sc, is_unreserved, false, false));
        assert_eq!(s, "/%2f");
        let mut s = String::from("/plain");
        assert!(!recode(&mut s, &mut sc, is_unreserved, true, false));
        // A decoded hex digit never completes an escape.
        let mut s = String::from("/%4%41%%42z");
        assert!(!recode(&mut s, &mut sc, is_unreserved, false, false));
        assert_eq!(s, "/%4%41%%42z");
    }

    #[test]
    fn unescape_repeatedly_reaches_a_fixed_point() {
        // (The urlcanon `unescapeRepeatedly` table runs in tests/urlcanon.rs.)
        for (i, o) in [("%2541", "A"), ("%%32%35", "%"), ("a%2", "a%2")] {
            assert_eq!(unescape_repeatedly(i.as_bytes()), o.as_bytes(), "{i}");
        }
    }
}
