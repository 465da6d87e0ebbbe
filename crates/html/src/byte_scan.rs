//! Where a run of ordinary bytes ends: the tokenizer's inner loop, and
//! every byte-class table the tokenizer uses.
//!
//! Most of a page is runs the tokenizer copies or skips unchanged — text,
//! attribute names and values, style sheets — and a run ends at the first
//! byte of a small set (`<`, `&`, a quote, CR, NUL, whitespace). A
//! byte-at-a-time table walk costs three to ten instructions per byte and a
//! call to `memchr3` about seventy per call, which dominates the short runs
//! between tags. Here 16 bytes are classified at once with SSE2 (part of
//! the x86-64 baseline, so no runtime detection); after four blocks without
//! the end of the run, a long run goes on with `memchr`'s AVX2 search where
//! three bytes make up the set.
//!
//! Each set of bytes that end a run is a type ([`ByteSet`]): up to four
//! exact bytes ([`Bytes`]) or a class of the tag states ([`AttrName`],
//! [`UnquotedValue`]), so every scan is compiled with its set as constants
//! and its first block inline.
//!
//! [`end_of_run`] has a scalar twin, [`end_of_run_scalar`], used on other
//! targets; the tests compare the two at every offset of every byte value
//! in every block position, and on corpus pages. (The URL crate's
//! `byte_runs` module answers the same question for URL components, in the
//! same words.)
//!
//! The tag states and the data state with errors reported walk runs byte by
//! byte instead, through one table of byte classes ([`RUN_ENDS`], with
//! [`end_of_run_in_class`]): their runs are short or rare, and one table
//! serves several classes.

/// A set of bytes that end a run: a run ends at the first byte of the set.
pub(crate) trait ByteSet {
    /// Whether `c` is in the set (the definition).
    fn contains(c: u8) -> bool;
    /// Three bytes that are the whole set, if there are such.
    fn as_three() -> Option<[u8; 3]> {
        None
    }
    /// Bit k is set when byte k of `block` is in the set.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    fn bits(block: &[u8; 16]) -> u32;
}

/// Up to four exact bytes, packed little-endian in a `u32` (repeats
/// allowed, so sets of fewer than four bytes are fine).
pub(crate) struct Bytes<const SET: u32>;

const fn bytes(set: [u8; 4]) -> u32 {
    u32::from_le_bytes(set)
}

/// The data state: `<`, `&`, and CR (NUL is ordinary text there).
pub(crate) type Data = Bytes<{ bytes([b'<', b'&', b'\r', b'<']) }>;
/// NUL alone (the tree builder's search for NULs in text).
pub(crate) type Nul = Bytes<{ bytes([0, 0, 0, 0]) }>;
/// The RCDATA state.
pub(crate) type Rcdata = Bytes<{ bytes([b'<', b'&', b'\r', 0]) }>;
/// The RAWTEXT state.
pub(crate) type Rawtext = Bytes<{ bytes([b'<', b'\r', 0, 0]) }>;
/// The script data state.
pub(crate) type ScriptData = Bytes<{ bytes([b'<', b'\r', 0, 0]) }>;
/// The script data escaped and double escaped states.
pub(crate) type ScriptEscaped = Bytes<{ bytes([b'-', b'<', b'\r', 0]) }>;
/// Comment data (on the fast path, which leaves CR and NUL to the comment
/// states).
pub(crate) type CommentData = Bytes<{ bytes([b'-', b'\r', 0, 0]) }>;
/// A double-quoted attribute value.
pub(crate) type DqValue = Bytes<{ bytes([b'"', b'&', b'\r', 0]) }>;
/// A single-quoted attribute value.
pub(crate) type SqValue = Bytes<{ bytes([b'\'', b'&', b'\r', 0]) }>;

impl<const SET: u32> ByteSet for Bytes<SET> {
    #[inline(always)]
    fn contains(c: u8) -> bool {
        SET.to_le_bytes().contains(&c)
    }

    #[inline(always)]
    fn as_three() -> Option<[u8; 3]> {
        let [a, b, c, d] = SET.to_le_bytes();
        (d == a || d == b || d == c).then_some([a, b, c])
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn bits(block: &[u8; 16]) -> u32 {
        let [a, b, c, d] = SET.to_le_bytes();
        let v = sse2::load(block);
        sse2::mask(sse2::or(
            sse2::or(sse2::eq(v, a), sse2::eq(v, b)),
            sse2::or(sse2::eq(v, c), sse2::eq(v, d)),
        ))
    }
}

/// What ends an attribute name (or a tag name) on the tag fast path: any
/// byte up to space (whitespace, CR, NUL and other controls), an upper-case
/// letter, and `/ > = " ' <`. (Controls other than whitespace are ordinary
/// name characters; the fast path hands them to the tag states.)
pub(crate) struct AttrName;

impl ByteSet for AttrName {
    #[inline(always)]
    fn contains(c: u8) -> bool {
        c <= b' ' || c.is_ascii_uppercase() || matches!(c, b'/' | b'>' | b'=' | b'"' | b'\'' | b'<')
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn bits(block: &[u8; 16]) -> u32 {
        use sse2::{eq, or};
        let v = sse2::load(block);
        let symbols = or(
            or(eq(v, b'/'), eq(v, b'>')),
            or(or(eq(v, b'='), eq(v, b'"')), or(eq(v, b'\''), eq(v, b'<'))),
        );
        sse2::mask(or(
            or(sse2::at_most(v, b' '), sse2::in_range(v, b'A', b'Z')),
            symbols,
        ))
    }
}

/// Any byte but `[a-z0-9-]`: what ends the commonest names, read whole by
/// the tag fast path (`tokenizer/short_name.rs`).
pub(crate) struct NotShortName;

impl ByteSet for NotShortName {
    #[inline(always)]
    fn contains(c: u8) -> bool {
        !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn bits(block: &[u8; 16]) -> u32 {
        use sse2::{eq, in_range, or};
        let v = sse2::load(block);
        let name = or(
            or(in_range(v, b'a', b'z'), in_range(v, b'0', b'9')),
            eq(v, b'-'),
        );
        !sse2::mask(name) & 0xFFFF
    }
}

/// What ends an unquoted attribute value on the tag fast path: any byte up
/// to space (whitespace, CR, NUL and other controls) and `& > " ' < = \``.
/// (Controls other than whitespace are ordinary value characters; the fast
/// path hands them to the tag states.)
pub(crate) struct UnquotedValue;

impl ByteSet for UnquotedValue {
    #[inline(always)]
    fn contains(c: u8) -> bool {
        c <= b' ' || matches!(c, b'&' | b'>' | b'"' | b'\'' | b'<' | b'=' | b'`')
    }

    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    fn bits(block: &[u8; 16]) -> u32 {
        use sse2::{eq, or};
        let v = sse2::load(block);
        let symbols = or(
            or(or(eq(v, b'&'), eq(v, b'>')), or(eq(v, b'"'), eq(v, b'\''))),
            or(or(eq(v, b'<'), eq(v, b'=')), eq(v, b'`')),
        );
        sse2::mask(or(sse2::at_most(v, b' '), symbols))
    }
}

/// Which kinds of run each byte ends, one bit per kind (the `ENDS_*`
/// masks): the byte-at-a-time counterpart of the [`ByteSet`]s, for the
/// tag states and the tag fast path's short names, and for the data state
/// when errors are reported.
pub(crate) static RUN_ENDS: [u8; 256] = build_run_ends();

/// A tag name (tag name state): whitespace, CR, NUL, `/`, `>` and the
/// upper-case letters (which the tag states lower-case one by one).
pub(crate) const ENDS_TAG_NAME: u8 = 1;
/// An attribute name (attribute name state): whitespace, CR, NUL,
/// `/ > = " ' <` and the upper-case letters.
pub(crate) const ENDS_ATTR_NAME: u8 = 2;
/// An unquoted attribute value: whitespace, CR, NUL and `& > " ' < = \``.
pub(crate) const ENDS_UNQUOTED_VALUE: u8 = 4;
/// Data-state text when errors are reported: `<`, `&`, CR and NUL (which
/// is reported there).
pub(crate) const ENDS_DATA_CHECKED: u8 = 8;
/// [`ENDS_TAG_NAME`] without the upper-case letters (which the fast tag
/// path lower-cases itself).
pub(crate) const ENDS_TAG_NAME_ANY_CASE: u8 = 16;
/// [`ENDS_ATTR_NAME`] without the upper-case letters.
pub(crate) const ENDS_ATTR_NAME_ANY_CASE: u8 = 32;

const fn build_run_ends() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        let ws = matches!(c, b'\t' | b'\n' | b'\x0C' | b' ' | b'\r');
        let special = c == 0 || c == b'\r';
        let mut f = 0;
        if ws || special || matches!(c, b'/' | b'>') {
            f |= ENDS_TAG_NAME_ANY_CASE;
        }
        if ws || special || matches!(c, b'/' | b'>') || c.is_ascii_uppercase() {
            f |= ENDS_TAG_NAME;
        }
        if ws || special || matches!(c, b'/' | b'>' | b'=' | b'"' | b'\'' | b'<') {
            f |= ENDS_ATTR_NAME_ANY_CASE;
        }
        if ws
            || special
            || matches!(c, b'/' | b'>' | b'=' | b'"' | b'\'' | b'<')
            || c.is_ascii_uppercase()
        {
            f |= ENDS_ATTR_NAME;
        }
        if ws || special || matches!(c, b'&' | b'>' | b'"' | b'\'' | b'<' | b'=' | b'`') {
            f |= ENDS_UNQUOTED_VALUE;
        }
        if special || matches!(c, b'<' | b'&') {
            f |= ENDS_DATA_CHECKED;
        }
        t[i] = f;
        i += 1;
    }
    t
}

/// The index of the first byte at or after `i` in the class `mask` of
/// [`RUN_ENDS`], or `b.len()`. Eight bytes are decided per branch.
#[inline]
pub(crate) fn end_of_run_in_class(b: &[u8], mut i: usize, mask: u8) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        if chunk.iter().fold(0, |acc, &c| acc | RUN_ENDS[c as usize]) & mask != 0 {
            break;
        }
        i += 8;
    }
    while i < b.len() && RUN_ENDS[b[i] as usize] & mask == 0 {
        i += 1;
    }
    i
}

/// Blocks scanned with SSE2 before a long run is handed to `memchr`.
const SHORT_BLOCKS: usize = 4;

/// The index of the first byte at or after `i` that is in the set `S`, or
/// `b.len()` (or `i`, when `i` is past the end).
#[inline(always)]
pub(crate) fn end_of_run<S: ByteSet>(b: &[u8], i: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // The first block inline: most runs are short.
        match b.get(i..i + 16) {
            Some(block) => match S::bits(block.try_into().expect("16 bytes")) {
                0 => end_of_run_after::<S>(b, i + 16),
                bits => i + bits.trailing_zeros() as usize,
            },
            None => end_of_run_near_end::<S>(b, i),
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        end_of_run_scalar::<S>(b, i)
    }
}

/// The portable definition of [`end_of_run`].
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))] // tests only here
pub(crate) fn end_of_run_scalar<S: ByteSet>(b: &[u8], i: usize) -> usize {
    b.get(i..)
        .and_then(|rest| rest.iter().position(|&c| S::contains(c)))
        .map_or(b.len().max(i), |k| i + k)
}

/// [`end_of_run`] after a first block without the end of the run.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(never)]
fn end_of_run_after<S: ByteSet>(b: &[u8], mut i: usize) -> usize {
    for _ in 1..SHORT_BLOCKS {
        match b.get(i..i + 16) {
            Some(block) => match S::bits(block.try_into().expect("16 bytes")) {
                0 => i += 16,
                bits => return i + bits.trailing_zeros() as usize,
            },
            None => return end_of_run_near_end::<S>(b, i),
        }
    }
    // A long run: memchr's AVX2 search when three bytes cover the set.
    if let Some([x, y, z]) = S::as_three() {
        return memchr::memchr3(x, y, z, &b[i..]).map_or(b.len(), |k| i + k);
    }
    while let Some(block) = b.get(i..i + 16) {
        match S::bits(block.try_into().expect("16 bytes")) {
            0 => i += 16,
            bits => return i + bits.trailing_zeros() as usize,
        }
    }
    end_of_run_near_end::<S>(b, i)
}

/// [`end_of_run`] where fewer than 16 bytes are left after `i`: the input's
/// last 16 bytes (bits of bytes before `i` shifted out), or for an input
/// shorter than 16 bytes a zero-padded copy (padding bits masked out).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(never)]
fn end_of_run_near_end<S: ByteSet>(b: &[u8], i: usize) -> usize {
    let n = b.len();
    if i >= n {
        return i;
    }
    let bits = if n >= 16 {
        S::bits(b[n - 16..].try_into().expect("16 bytes")) >> (i - (n - 16))
    } else {
        let mut block = [0u8; 16];
        block[..n].copy_from_slice(b);
        (S::bits(&block) & ((1u32 << n) - 1)) >> i
    };
    match bits {
        0 => n,
        bits => i + bits.trailing_zeros() as usize,
    }
}

/// The SSE2 operations the sets are built from.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_max_epu8, _mm_min_epu8, _mm_movemask_epi8,
        _mm_or_si128, _mm_set1_epi8, _mm_sub_epi8,
    };

    // SAFETY (every function here): SSE2 is enabled for this build (the
    // module's cfg), which is all these intrinsics need.

    /// Loads 16 bytes.
    #[inline(always)]
    pub(super) fn load(block: &[u8; 16]) -> __m128i {
        // SAFETY: as above; `block` refers to 16 readable bytes, and
        // `_mm_loadu_si128` has no alignment requirement.
        unsafe { _mm_loadu_si128(block.as_ptr().cast()) }
    }

    /// Bytes equal to `c`.
    #[inline(always)]
    pub(super) fn eq(v: __m128i, c: u8) -> __m128i {
        // SAFETY: as above.
        unsafe { _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8)) }
    }

    /// Bytes at most `c` (unsigned).
    #[inline(always)]
    pub(super) fn at_most(v: __m128i, c: u8) -> __m128i {
        // SAFETY: as above.
        unsafe {
            let c = _mm_set1_epi8(c as i8);
            _mm_cmpeq_epi8(_mm_max_epu8(v, c), c)
        }
    }

    /// Bytes in `lo..=hi` (unsigned).
    #[inline(always)]
    pub(super) fn in_range(v: __m128i, lo: u8, hi: u8) -> __m128i {
        // SAFETY: as above.
        unsafe {
            let offset = _mm_sub_epi8(v, _mm_set1_epi8(lo as i8));
            let width = _mm_set1_epi8((hi - lo) as i8);
            _mm_cmpeq_epi8(_mm_min_epu8(offset, width), offset)
        }
    }

    #[inline(always)]
    pub(super) fn or(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: as above.
        unsafe { _mm_or_si128(a, b) }
    }

    /// One bit per byte: its top bit.
    #[inline(always)]
    pub(super) fn mask(v: __m128i) -> u32 {
        // SAFETY: as above.
        unsafe { _mm_movemask_epi8(v) as u32 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_one<S: ByteSet>(text: &[u8]) {
        for i in 0..=text.len() + 1 {
            assert_eq!(
                end_of_run::<S>(text, i),
                end_of_run_scalar::<S>(text, i),
                "{} at {i} of {:?}",
                std::any::type_name::<S>(),
                String::from_utf8_lossy(text)
            );
        }
    }

    fn check(text: &[u8]) {
        check_one::<Data>(text);
        check_one::<Rcdata>(text);
        check_one::<Rawtext>(text);
        check_one::<ScriptData>(text);
        check_one::<ScriptEscaped>(text);
        check_one::<CommentData>(text);
        check_one::<DqValue>(text);
        check_one::<SqValue>(text);
        check_one::<AttrName>(text);
        check_one::<UnquotedValue>(text);
        check_one::<NotShortName>(text);
    }

    #[test]
    fn every_byte_value_in_every_block_position() {
        for c in 0..=255u8 {
            for pos in [0, 1, 7, 14, 15, 16, 17, 31, 63, 64, 65, 100] {
                let mut t = vec![b'a'; 120];
                t[pos] = c;
                check(&t);
                check(&t[..pos + 1]);
            }
        }
    }

    #[test]
    fn lengths_around_block_sizes() {
        for len in 0..140 {
            check(&vec![b'x'; len]);
            let t: Vec<u8> = (0..len)
                .map(|k| if k % 37 == 36 { b'<' } else { b'a' })
                .collect();
            check(&t);
        }
    }

    #[test]
    fn corpus_pages_at_every_offset() {
        // The first 4 KiB of 40 pages, at every offset: the kinds of run
        // real markup has, short and long.
        let manifest = spinneret_testdata::read_to_string("corpus/pages.tsv");
        let mut lines = manifest.lines();
        let header = lines.next().expect("a header line");
        let col = header
            .split('\t')
            .position(|h| h == "path")
            .expect("a path column");
        for line in lines.take(40) {
            let path = line.split('\t').nth(col).expect("a path field");
            let page = spinneret_testdata::read(&format!("corpus/{path}"));
            check(&page[..page.len().min(4096)]);
        }
    }

    #[test]
    fn definitions() {
        assert_eq!(end_of_run_scalar::<Data>(b"ab<c", 0), 2);
        assert_eq!(end_of_run_scalar::<Data>(b"ab\0c", 0), 4);
        assert_eq!(end_of_run_scalar::<Rcdata>(b"ab\0c", 0), 2);
        assert_eq!(end_of_run_scalar::<Rawtext>(b"a&b<", 0), 3);
        assert_eq!(end_of_run_scalar::<ScriptEscaped>(b"a&b-", 0), 3);
        assert_eq!(end_of_run_scalar::<DqValue>(b"a'b\"", 0), 3);
        assert_eq!(end_of_run_scalar::<SqValue>(b"a\"b'", 0), 3);
        assert_eq!(end_of_run_scalar::<AttrName>(b"data-x\xC3\xA9Y", 0), 8);
        assert_eq!(end_of_run_scalar::<AttrName>(b"a:b_c.d=", 0), 7);
        assert_eq!(end_of_run_scalar::<UnquotedValue>(b"/a/b?c\x7F`", 0), 7);
        assert_eq!(end_of_run_scalar::<UnquotedValue>(b"x\x01", 0), 1);
        assert_eq!(end_of_run_scalar::<Data>(b"abc", 5), 5);
    }
}
