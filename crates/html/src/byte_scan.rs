//! Finding the byte that ends a run of ordinary text: the tokenizer's inner
//! loop.
//!
//! Most of a page is runs the tokenizer copies or skips unchanged — text,
//! attribute values, style sheets — and each ends only at one of a few
//! bytes (`<`, `&`, a quote, CR, NUL). A byte-at-a-time table walk costs
//! about three instructions per byte and a call to `memchr3` about seventy
//! per call, which dominates the short runs between tags. Here 16 bytes are
//! compared against up to four stop bytes at once with SSE2 (part of the
//! x86-64 baseline, so no runtime detection); after four blocks without a
//! stop, a long run goes on with `memchr`'s AVX2 search where three stop
//! bytes suffice.
//!
//! Each stop set is a const generic parameter, so every scan is compiled
//! with its stop bytes as constants and its first block inline.
//!
//! [`find_stop`] has a scalar twin, [`find_stop_scalar`], used on other
//! targets; the tests compare the two at every offset of every byte value
//! in every block position, and on corpus pages.

/// The bytes that end a run, four of them packed in a `u32` (repeats
/// allowed, so sets of fewer than four bytes are fine). A const generic
/// parameter, so each scan is compiled with its stop bytes as constants.
pub(crate) type Stops = u32;

const fn stops(set: [u8; 4]) -> Stops {
    u32::from_le_bytes(set)
}

/// The data state: `<`, `&`, and CR (NUL is ordinary text there).
pub(crate) const DATA: Stops = stops([b'<', b'&', b'\r', b'<']);
/// The RCDATA state.
pub(crate) const RCDATA: Stops = stops([b'<', b'&', b'\r', 0]);
/// The RAWTEXT state.
pub(crate) const RAWTEXT: Stops = stops([b'<', b'\r', 0, 0]);
/// The script data state.
pub(crate) const SCRIPT_DATA: Stops = stops([b'<', b'\r', 0, 0]);
/// The script data escaped and double escaped states.
pub(crate) const SCRIPT_ESCAPED: Stops = stops([b'-', b'<', b'\r', 0]);
/// A double-quoted attribute value.
pub(crate) const DQ_VALUE: Stops = stops([b'"', b'&', b'\r', 0]);
/// A single-quoted attribute value.
pub(crate) const SQ_VALUE: Stops = stops([b'\'', b'&', b'\r', 0]);

#[inline(always)]
fn contains(set: Stops, c: u8) -> bool {
    set.to_le_bytes().contains(&c)
}

/// The three bytes that are the whole set, if it has at most three.
#[inline(always)]
fn as_three(set: Stops) -> Option<[u8; 3]> {
    let [a, b, c, d] = set.to_le_bytes();
    (d == a || d == b || d == c).then_some([a, b, c])
}

/// Blocks scanned with SSE2 before a long run is handed to `memchr`.
const SHORT_BLOCKS: usize = 4;

/// The index of the first byte at or after `i` that is one of `STOPS`, or
/// `b.len()` (or `i`, when `i` is past the end).
#[inline(always)]
pub(crate) fn find_stop<const STOPS: Stops>(b: &[u8], i: usize) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // The first block inline: most runs between markup are short.
        match b.get(i..i + 16) {
            Some(block) => match sse2::stop_bits::<STOPS>(block.try_into().expect("16 bytes")) {
                0 => sse2::find_stop_after::<STOPS>(b, i + 16),
                bits => i + bits.trailing_zeros() as usize,
            },
            None => sse2::find_stop_near_end::<STOPS>(b, i),
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        find_stop_scalar(b, i, STOPS)
    }
}

/// The portable definition of [`find_stop`].
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))] // tests only here
pub(crate) fn find_stop_scalar(b: &[u8], i: usize, set: Stops) -> usize {
    b.get(i..)
        .and_then(|rest| rest.iter().position(|&c| contains(set, c)))
        .map_or(b.len().max(i), |k| i + k)
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::{SHORT_BLOCKS, Stops, as_three};
    use core::arch::x86_64::{
        _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };

    /// Bit k is set when byte k of `block` is one of `STOPS`.
    #[inline(always)]
    pub(super) fn stop_bits<const STOPS: Stops>(block: &[u8; 16]) -> u32 {
        let [a, b, c, d] = STOPS.to_le_bytes();
        // SAFETY: SSE2 is enabled for this build (the module's cfg), which
        // is all these intrinsics need; `block` refers to 16 readable
        // bytes, and `_mm_loadu_si128` has no alignment requirement.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast());
            let eq = |c: u8| _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8));
            let any = _mm_or_si128(_mm_or_si128(eq(a), eq(b)), _mm_or_si128(eq(c), eq(d)));
            _mm_movemask_epi8(any) as u32
        }
    }

    /// [`super::find_stop`] after a first block without a stop.
    #[inline(never)]
    pub(super) fn find_stop_after<const STOPS: Stops>(b: &[u8], mut i: usize) -> usize {
        for _ in 1..SHORT_BLOCKS {
            match b.get(i..i + 16) {
                Some(block) => match stop_bits::<STOPS>(block.try_into().expect("16 bytes")) {
                    0 => i += 16,
                    bits => return i + bits.trailing_zeros() as usize,
                },
                None => return find_stop_near_end::<STOPS>(b, i),
            }
        }
        // A long run: memchr's AVX2 search when three bytes cover the set.
        if let Some([x, y, z]) = as_three(STOPS) {
            return memchr::memchr3(x, y, z, &b[i..]).map_or(b.len(), |k| i + k);
        }
        while let Some(block) = b.get(i..i + 16) {
            match stop_bits::<STOPS>(block.try_into().expect("16 bytes")) {
                0 => i += 16,
                bits => return i + bits.trailing_zeros() as usize,
            }
        }
        find_stop_near_end::<STOPS>(b, i)
    }

    /// [`super::find_stop`] where fewer than 16 bytes are left after `i`:
    /// the input's last 16 bytes (bits of bytes before `i` shifted out), or
    /// for an input shorter than 16 bytes a zero-padded copy (padding bits
    /// masked out).
    #[inline(never)]
    pub(super) fn find_stop_near_end<const STOPS: Stops>(b: &[u8], i: usize) -> usize {
        let n = b.len();
        if i >= n {
            return i;
        }
        let bits = if n >= 16 {
            stop_bits::<STOPS>(b[n - 16..].try_into().expect("16 bytes")) >> (i - (n - 16))
        } else {
            let mut block = [0u8; 16];
            block[..n].copy_from_slice(b);
            (stop_bits::<STOPS>(&block) & ((1u32 << n) - 1)) >> i
        };
        match bits {
            0 => n,
            bits => i + bits.trailing_zeros() as usize,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_one<const STOPS: Stops>(text: &[u8]) {
        for i in 0..=text.len() + 1 {
            assert_eq!(
                find_stop::<STOPS>(text, i),
                find_stop_scalar(text, i, STOPS),
                "{:?} at {i} of {:?}",
                STOPS.to_le_bytes(),
                String::from_utf8_lossy(text)
            );
        }
    }

    fn check(text: &[u8]) {
        check_one::<DATA>(text);
        check_one::<RCDATA>(text);
        check_one::<RAWTEXT>(text);
        check_one::<SCRIPT_DATA>(text);
        check_one::<SCRIPT_ESCAPED>(text);
        check_one::<DQ_VALUE>(text);
        check_one::<SQ_VALUE>(text);
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
        assert_eq!(find_stop_scalar(b"ab<c", 0, DATA), 2);
        assert_eq!(find_stop_scalar(b"ab\0c", 0, DATA), 4);
        assert_eq!(find_stop_scalar(b"ab\0c", 0, RCDATA), 2);
        assert_eq!(find_stop_scalar(b"a&b<", 0, RAWTEXT), 3);
        assert_eq!(find_stop_scalar(b"a'b\"", 0, DQ_VALUE), 3);
        assert_eq!(find_stop_scalar(b"a\"b'", 0, SQ_VALUE), 3);
        assert_eq!(find_stop_scalar(b"abc", 5, DATA), 5);
    }
}
