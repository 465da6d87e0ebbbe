//! The end of a run of ordinary bytes: the fast paths' inner loop.
//!
//! A fast path spends its time asking "where does this host / path / query /
//! fragment stop being made of bytes that need no work?". Byte-at-a-time
//! loops answer with one unpredictable branch per path segment and several
//! instructions per byte. Here the question is answered for 16 bytes at a
//! time, and a path run does not stop at every `/` — only at a `/` followed
//! by `.` or `%`, where a dot segment may start — so a whole path is usually
//! one run.
//!
//! Two block classifiers: SSE2 (part of the x86-64 baseline, so no runtime
//! detection) compares a block with each byte value of a set; SSSE3, when
//! the CPU has it (detected once per parse, [`Ssse3::detect`]), looks each
//! byte's two nibbles up in two 16-byte tables with `pshufb` — about a
//! third of the instructions for the path set. The fast paths are generic
//! over the [`Scanner`] and compiled a second time with SSSE3 enabled, so
//! the lookups inline (measured with `crates/bench/callgrind.sh`: ada_kasztp
//! parsed into a `UrlBuf`, 637 → 570 instructions per URL from this alone).
//!
//! [`end_of_run`] has a scalar twin, [`end_of_run_scalar`], used on other
//! targets; the tests compare both classifiers with it on every corpus URL
//! at every offset, and the nibble tables with the sets for every byte.

/// What a run is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Run {
    /// Bytes a host keeps unchanged through the ASCII domain path:
    /// `a-z 0-9 - . _`.
    Host,
    /// Bytes the path state copies unchanged, `/` included, except a `/`
    /// followed by `.` or `%` (returned so the caller can look for a dot
    /// segment). Stops at `?`, `#`, `\`, and anything percent-encoded.
    Path,
    /// Bytes a special URL's query keeps unchanged. Stops at `#`.
    SpecialQuery,
    /// Bytes a fragment keeps unchanged.
    Fragment,
    /// Bytes the opaque path state copies unchanged, and space (printable
    /// ASCII, `0x20..=0x7E`) except `?` and `#`, where the path ends. A
    /// space is copied unless `?` or `#` follows it: the caller checks the
    /// byte before the stop.
    OpaquePath,
}

/// Whether `c` belongs to `run` (the per-byte definition both
/// implementations follow; the path's `/`-pair rule is applied on top).
#[inline(always)]
const fn is_member(c: u8, run: Run) -> bool {
    use crate::percent_encoding::{FRAGMENT, PATH, SPECIAL_QUERY};
    match run {
        Run::Host => {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'-' | b'.' | b'_')
        }
        Run::Path => !PATH.contains(c) && c != b'\\',
        Run::SpecialQuery => !SPECIAL_QUERY.contains(c),
        Run::Fragment => !FRAGMENT.contains(c),
        Run::OpaquePath => c >= b' ' && c < 0x7F && c != b'?' && c != b'#',
    }
}

/// How runs are scanned: SSE2 (the x86-64 baseline) or the portable
/// loop ([`Baseline`]), or SSSE3's table lookups ([`Ssse3`]). The fast
/// paths are generic over their scanner and pick one once per parse
/// (`fast_path::plan`): their SSSE3 copy is compiled with SSSE3 enabled,
/// so its scans inline.
pub(crate) trait Scanner: Copy {
    /// The index of the first byte at or after `i` that ends a `run`, or
    /// `b.len()`.
    fn end_of_run(self, b: &[u8], i: usize, run: Run) -> usize;
}

/// [`end_of_run`]: SSE2 on x86-64, else the portable loop.
#[derive(Clone, Copy)]
pub(crate) struct Baseline;

impl Scanner for Baseline {
    #[inline(always)]
    fn end_of_run(self, b: &[u8], i: usize, run: Run) -> usize {
        end_of_run(b, i, run)
    }
}

/// SSSE3 scans; a value exists only on a CPU that has SSSE3.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[derive(Clone, Copy)]
pub(crate) struct Ssse3(());

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
impl Ssse3 {
    /// The scanner, if the CPU has SSSE3 (detected once, then cached by
    /// the standard library).
    #[inline]
    pub(crate) fn detect() -> Option<Ssse3> {
        std::is_x86_feature_detected!("ssse3").then_some(Ssse3(()))
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
impl Scanner for Ssse3 {
    #[inline(always)]
    fn end_of_run(self, b: &[u8], i: usize, run: Run) -> usize {
        // SAFETY: an `Ssse3` is only made by `Ssse3::detect` on a CPU that
        // has SSSE3, which is all `end_of_run_ssse3` asks for beyond SSE2
        // (enabled for this build by the cfg).
        unsafe { sse2::end_of_run_ssse3(b, i, run) }
    }
}

/// The index of the first byte at or after `i` that ends a `run`, or
/// `b.len()` (SSE2 on x86-64, else the portable loop).
#[inline]
pub(crate) fn end_of_run(b: &[u8], i: usize, run: Run) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // SAFETY: SSE2 is enabled for this build (the cfg above), which is
        // all `sse2::end_of_run`'s target feature asks for.
        unsafe { sse2::end_of_run(b, i, run) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        end_of_run_scalar(b, i, run)
    }
}

/// The portable definition of [`end_of_run`].
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))] // tests only here
pub(crate) fn end_of_run_scalar(b: &[u8], mut i: usize, run: Run) -> usize {
    while i < b.len() {
        let c = b[i];
        if !is_member(c, run) {
            return i;
        }
        if run == Run::Path && c == b'/' && matches!(b.get(i + 1), Some(b'.' | b'%')) {
            return i;
        }
        i += 1;
    }
    b.len()
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use super::Run;
    use core::arch::x86_64::{
        __m128i, _mm_and_si128, _mm_cmpeq_epi8, _mm_cmpgt_epi8, _mm_cmplt_epi8, _mm_loadu_si128,
        _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_setzero_si128, _mm_shuffle_epi8,
        _mm_srli_epi16,
    };

    /// Loads 16 bytes.
    #[inline]
    #[target_feature(enable = "sse2")]
    fn load(chunk: &[u8; 16]) -> __m128i {
        // SAFETY: `chunk` refers to 16 readable bytes, and `_mm_loadu_si128`
        // has no alignment requirement.
        unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) }
    }

    #[inline]
    #[target_feature(enable = "sse2")]
    fn eq(v: __m128i, c: u8) -> __m128i {
        _mm_cmpeq_epi8(v, _mm_set1_epi8(c as i8))
    }

    /// Bytes in `lo..=hi` (both below 0x80).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn in_range(v: __m128i, lo: u8, hi: u8) -> __m128i {
        _mm_and_si128(
            _mm_cmpgt_epi8(v, _mm_set1_epi8(lo as i8 - 1)),
            _mm_cmplt_epi8(v, _mm_set1_epi8(hi as i8 + 1)),
        )
    }

    /// Bit k is set when byte k of the block is not a member of `run`
    /// (before the path's `/`-pair rule).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn non_members(v: __m128i, run: Run) -> u32 {
        let or = _mm_or_si128;
        let members = match run {
            Run::Host => or(
                or(in_range(v, b'a', b'z'), in_range(v, b'0', b'9')),
                or(or(eq(v, b'-'), eq(v, b'.')), eq(v, b'_')),
            ),
            Run::OpaquePath => {
                // As signed bytes, members are > 0x1F (non-ASCII is
                // negative) and not DEL, `?` or `#`.
                let printable = _mm_cmpgt_epi8(v, _mm_set1_epi8(0x1F));
                let bad = or(eq(v, 0x7F), or(eq(v, b'?'), eq(v, b'#')));
                return !(_mm_movemask_epi8(printable) as u32 & !(_mm_movemask_epi8(bad) as u32))
                    & 0xFFFF;
            }
            _ => {
                // Every set excludes C0 controls, space, DEL and non-ASCII:
                // as signed bytes, members are > 0x20 and not 0x7F.
                let printable = _mm_cmpgt_epi8(v, _mm_set1_epi8(0x20));
                let bad = or(or(eq(v, 0x7F), eq(v, b'"')), or(eq(v, b'<'), eq(v, b'>')));
                let bad = match run {
                    Run::Path => or(
                        or(or(bad, eq(v, b'#')), or(eq(v, b'?'), eq(v, b'`'))),
                        or(or(eq(v, b'{'), eq(v, b'}')), or(eq(v, b'^'), eq(v, b'\\'))),
                    ),
                    Run::SpecialQuery => or(or(bad, eq(v, b'#')), eq(v, b'\'')),
                    _ => or(bad, eq(v, b'`')),
                };
                // members = printable and not bad
                return !(_mm_movemask_epi8(printable) as u32 & !(_mm_movemask_epi8(bad) as u32))
                    & 0xFFFF;
            }
        };
        !(_mm_movemask_epi8(members) as u32) & 0xFFFF
    }

    /// A run's non-members as two nibble tables: byte `c` is a non-member
    /// when `lo[c & 15] & hi[c >> 4]` is not zero.
    pub(super) struct Nibbles {
        pub(super) lo: [u8; 16],
        pub(super) hi: [u8; 16],
    }

    /// The nibble tables of `run`, derived from [`super::is_member`] at
    /// compile time. Each high nibble's row of 16 bytes gets a bit: rows of
    /// non-members only share bit 0 (set in every `lo` entry); every other
    /// row with non-members has a bit of its own, set in `lo` at its
    /// non-members' low nibbles. (The sets here have at most five such
    /// rows; more than seven would not fit, and fails to compile.)
    pub(super) const fn nibbles(run: Run) -> Nibbles {
        let (mut lo, mut hi) = ([1u8; 16], [0u8; 16]);
        let mut next_bit = 1;
        let mut h = 0;
        while h < 16 {
            let mut row = 0u16;
            let mut l = 0;
            while l < 16 {
                if !super::is_member((h * 16 + l) as u8, run) {
                    row |= 1 << l;
                }
                l += 1;
            }
            if row == 0xFFFF {
                hi[h] = 1;
            } else if row != 0 {
                assert!(next_bit < 8, "more than seven mixed rows");
                let bit = 1u8 << next_bit;
                next_bit += 1;
                hi[h] = bit;
                let mut l = 0;
                while l < 16 {
                    if row & (1 << l) != 0 {
                        lo[l] |= bit;
                    }
                    l += 1;
                }
            }
            h += 1;
        }
        Nibbles { lo, hi }
    }

    const NIBBLES: [Nibbles; 5] = [
        nibbles(Run::Host),
        nibbles(Run::Path),
        nibbles(Run::SpecialQuery),
        nibbles(Run::Fragment),
        nibbles(Run::OpaquePath),
    ];

    #[inline]
    #[target_feature(enable = "ssse3")]
    fn non_members_by_nibbles(v: __m128i, run: Run) -> u32 {
        let t = &NIBBLES[run as usize];
        let low_nibbles = _mm_set1_epi8(0x0F);
        let lo = _mm_and_si128(v, low_nibbles);
        let hi = _mm_and_si128(_mm_srli_epi16(v, 4), low_nibbles);
        let marked = _mm_and_si128(
            _mm_shuffle_epi8(load(&t.lo), lo),
            _mm_shuffle_epi8(load(&t.hi), hi),
        );
        !(_mm_movemask_epi8(_mm_cmpeq_epi8(marked, _mm_setzero_si128())) as u32) & 0xFFFF
    }

    /// Bit k set when byte k is `/` and byte k+1 is `.` or `%` (byte 16 is
    /// `next`).
    #[inline]
    #[target_feature(enable = "sse2")]
    fn slash_before_dot(v: __m128i, next: Option<u8>) -> u32 {
        let slash = _mm_movemask_epi8(eq(v, b'/')) as u32;
        if slash == 0 {
            return 0;
        }
        let dot = _mm_movemask_epi8(_mm_or_si128(eq(v, b'.'), eq(v, b'%'))) as u32;
        let carry = matches!(next, Some(b'.' | b'%')) as u32;
        slash & ((dot >> 1) | (carry << 15))
    }

    /// The block loop both variants share (a macro, so that each variant's
    /// target features reach it); `$classify` gives a block's non-members
    /// as bits.
    macro_rules! scan_blocks {
        ($b:expr, $i:expr, $run:expr, $classify:ident) => {{
            let (b, mut i, run) = ($b, $i, $run);
            let n = b.len();
            while i < n {
                // A whole block at `i`; or, for the last partial block, the
                // input's last 16 bytes (overlapping bytes already scanned,
                // whose bits are shifted out); or, for an input shorter than 16
                // bytes, a zero-padded copy (padding bits masked out).
                let (v, shift, valid) = if let Some(chunk) = b.get(i..i + 16) {
                    (load(chunk.try_into().expect("16 bytes")), 0, 0xFFFF)
                } else if n >= 16 {
                    let chunk = &b[n - 16..];
                    (
                        load(chunk.try_into().expect("16 bytes")),
                        i - (n - 16),
                        0xFFFF,
                    )
                } else {
                    let mut buf = [0u8; 16];
                    buf[..n].copy_from_slice(b);
                    (load(&buf), i, (1u32 << n) - 1)
                };
                let mut stop = $classify(v, run);
                if run == Run::Path {
                    stop |= slash_before_dot(
                        v,
                        if shift == 0 {
                            b.get(i + 16).copied()
                        } else {
                            None
                        },
                    );
                }
                stop = (stop & valid) >> shift;
                if stop != 0 {
                    return i + stop.trailing_zeros() as usize;
                }
                i += 16;
            }
            n
        }};
    }

    /// [`super::end_of_run`] with SSE2 alone: each set is compared byte
    /// value by byte value.
    #[inline]
    #[target_feature(enable = "sse2")]
    pub(super) fn end_of_run(b: &[u8], i: usize, run: Run) -> usize {
        scan_blocks!(b, i, run, non_members)
    }

    /// [`super::end_of_run`] with SSSE3: each set is two 16-entry nibble
    /// tables looked up with `pshufb` ([`non_members_by_nibbles`]), a
    /// third of the instructions of [`non_members`] for the path set.
    #[inline]
    #[target_feature(enable = "ssse3")]
    pub(super) fn end_of_run_ssse3(b: &[u8], i: usize, run: Run) -> usize {
        scan_blocks!(b, i, run, non_members_by_nibbles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUNS: [Run; 5] = [
        Run::Host,
        Run::Path,
        Run::SpecialQuery,
        Run::Fragment,
        Run::OpaquePath,
    ];

    /// Every variant (the dispatching one, and on x86-64 SSE2 alone and
    /// SSSE3 when the CPU has it) against the scalar definition.
    fn check(text: &[u8]) {
        for run in RUNS {
            for i in 0..=text.len() {
                let want = end_of_run_scalar(text, i, run);
                let what = || format!("{run:?} at {i} of {:?}", String::from_utf8_lossy(text));
                assert_eq!(end_of_run(text, i, run), want, "{}", what());
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                {
                    // SAFETY: SSE2 is enabled for this build (the cfg).
                    let sse2 = unsafe { sse2::end_of_run(text, i, run) };
                    assert_eq!(sse2, want, "SSE2: {}", what());
                    if std::is_x86_feature_detected!("ssse3") {
                        // SAFETY: the CPU has SSSE3 (detected just above).
                        let ssse3 = unsafe { sse2::end_of_run_ssse3(text, i, run) };
                        assert_eq!(ssse3, want, "SSSE3: {}", what());
                    }
                }
            }
        }
    }

    /// The nibble tables mark exactly each set's non-members.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[test]
    fn nibble_tables_are_the_sets() {
        for run in RUNS {
            let t = sse2::nibbles(run);
            for c in 0..=255u8 {
                let marked = t.lo[usize::from(c & 15)] & t.hi[usize::from(c >> 4)] != 0;
                assert_eq!(marked, !is_member(c, run), "{run:?} {c:#04x}");
            }
        }
    }

    #[test]
    fn every_byte_value_in_every_block_position() {
        for c in 0..=255u8 {
            for pos in [0, 1, 7, 14, 15, 16, 17, 31] {
                let mut t = vec![b'a'; 40];
                t[pos] = c;
                check(&t);
                // The '/'-pair rule across a block boundary.
                t[pos] = b'/';
                t[pos + 1] = c;
                check(&t);
            }
        }
    }

    #[test]
    fn lengths_around_block_sizes() {
        for len in 0..70 {
            check(&vec![b'x'; len]);
            let mut t: Vec<u8> = (0..len)
                .map(|k| if k % 5 == 4 { b'/' } else { b'a' })
                .collect();
            check(&t);
            if len > 0 {
                t[len - 1] = b'.';
                check(&t);
            }
        }
    }

    #[test]
    fn corpus_urls_at_every_offset() {
        for line in spinneret_testdata::lines("corpus/urls/ada_userbait.txt") {
            check(line.as_bytes());
        }
    }

    #[test]
    fn definitions() {
        assert_eq!(end_of_run_scalar(b"a/b/.x", 0, Run::Path), 3);
        assert_eq!(end_of_run_scalar(b"a/b?x", 0, Run::Path), 3);
        assert_eq!(end_of_run_scalar(b"ab-c.d_e:80", 0, Run::Host), 8);
        assert_eq!(end_of_run_scalar(b"a='b", 0, Run::SpecialQuery), 2);
        assert_eq!(end_of_run_scalar(b"a?b/c#d", 0, Run::SpecialQuery), 5);
        assert_eq!(end_of_run_scalar(b"a#b`", 0, Run::Fragment), 3);
    }
}
