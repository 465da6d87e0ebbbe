//! The commonest tag and attribute names — 1 to 7 bytes of `[a-z0-9-]`
//! (`a`, `div`, `href`, `class`) — read as one block, for the tag fast
//! path (`fast_tag.rs`).
//!
//! Why: byte by byte, a name cost a class-table test per byte and then an
//! interning lookup that compared it again byte by byte (about 55
//! instructions for `class`). One 16-byte block classified at once
//! ([`NotShortName`]) gives where the name ends and the byte there, and its
//! first 8 bytes, masked to the name, are the key its interned form is
//! found by ([`crate::names::from_short_key`]).
//!
//! Invariant: [`short_name`] returns a name only when every byte of it is
//! `[a-z0-9-]` and the byte after it is not. Such bytes are name bytes for
//! the tag name and attribute name states alike (no upper case to lower,
//! no NUL, quote, `<`, `=`, `/`, `>` or whitespace), so the states' name
//! ends at the same byte; whether that byte may end the name in the fast
//! path is the caller's check, as for a name read byte by byte. Anything
//! else — a longer name, another byte in it, fewer than 16 bytes left in
//! the buffer — is `None`, and the caller reads the name byte by byte.

use crate::byte_scan::{ByteSet, NotShortName};

/// A short name: where it ends, the byte there, and its key (its bytes as
/// a little-endian integer, zero above them).
pub(super) struct ShortName {
    pub(super) end: usize,
    pub(super) next: u8,
    pub(super) key: u64,
}

/// Bit k set when byte k of `block` is not a short name's byte.
#[inline(always)]
fn ends(block: &[u8; 16]) -> u32 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        NotShortName::bits(block)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        block
            .iter()
            .enumerate()
            .filter(|&(_, &c)| NotShortName::contains(c))
            .fold(0, |bits, (k, _)| bits | 1 << k)
    }
}

/// The name that starts at `start`, if it is 1 to 7 bytes of `[a-z0-9-]`
/// followed by another byte, all within 16 bytes of `b` from `start`.
#[inline(always)]
pub(super) fn short_name(b: &[u8], start: usize) -> Option<ShortName> {
    let block: &[u8; 16] = b.get(start..)?.first_chunk()?;
    let len = ends(block).trailing_zeros() as usize;
    if len == 0 || len >= 8 {
        return None;
    }
    let word = u64::from_le_bytes(block[..8].try_into().ok()?);
    Some(ShortName {
        end: start + len,
        next: block[len],
        key: word & (u64::MAX >> (64 - 8 * len)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_name_byte(c: u8) -> bool {
        c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-'
    }

    #[test]
    fn names_end_where_a_byte_scan_ends_them() {
        let inputs: &[&[u8]] = &[
            b"a href=x>........",
            b"div>............",
            b"class=\"x\"........",
            b"h1 id=a>........",
            b"my-el x>........",
            b"abcdefg>........",
            b"abcdefgh>........",
            b"Div>............",
            b"di\xc3\xa9>............",
            b"a\0b>............",
            b"a>",
            b"div>...........",
            b"",
        ];
        for &input in inputs {
            let scanned = input.iter().take_while(|&&c| is_name_byte(c)).count();
            let want = Some(scanned).filter(|n| (1..8).contains(n) && input.len() >= 16);
            let got = short_name(input, 0);
            assert_eq!(got.as_ref().map(|s| s.end), want, "{input:?}");
            if let Some(s) = got {
                assert_eq!(s.next, input[s.end]);
                let mut key = [0u8; 8];
                key[..s.end].copy_from_slice(&input[..s.end]);
                assert_eq!(s.key, u64::from_le_bytes(key));
            }
        }
        // From an offset, and past the end.
        assert!(short_name(b"xx div>..........", 3).is_none());
        assert_eq!(
            short_name(b"xx div>.............", 3).map(|s| s.end),
            Some(6)
        );
        assert!(short_name(b"div", usize::MAX).is_none());
    }

    #[test]
    fn every_short_interned_name_is_found_by_its_key() {
        use crate::names::{LocalName, from_short_key};
        for &name in LocalName::ALL {
            let text = name.as_str().as_bytes();
            let short = text.len() <= 7 && text.iter().all(|&c| is_name_byte(c));
            let mut block = [b' '; 16];
            block[..text.len()].copy_from_slice(text);
            // A name that is not short may have a short prefix
            // (`xlink` of `xlink:href`), which the caller's check of the
            // byte after it turns down.
            match short_name(&block, 0) {
                Some(s) if s.end == text.len() => {
                    assert!(short, "{text:?}");
                    assert_eq!(from_short_key(s.key), Some(name), "{text:?}");
                }
                _ => assert!(!short, "{text:?}"),
            }
        }
        // Keys of names that are not interned.
        for miss in [
            &b"path"[..],
            b"g",
            b"x",
            b"data-a",
            b"aria",
            b"divv",
            b"clas",
            b"a1",
        ] {
            let mut block = [b' '; 16];
            block[..miss.len()].copy_from_slice(miss);
            let s = short_name(&block, 0).expect("a short name");
            assert_eq!(from_short_key(s.key), None, "{miss:?}");
        }
    }
}
