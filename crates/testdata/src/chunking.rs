//! Ways of cutting one input into consecutive pieces, for tests that feed a
//! streaming parser chunk by chunk and check that the result does not depend
//! on where the chunks end.
//!
//! Every [`Chunking`] covers its input exactly: its pieces, concatenated in
//! order, give the input back, and no piece is empty. An empty input has no
//! pieces. The cuts are reproducible from the seed (the crate's xorshift
//! [`Rng`](crate::Rng)), so a failure names the chunking that caused it.
//!
//! - [`text_chunkings`] cuts a `&str` only at char boundaries: one char per
//!   piece, then pieces of pseudo-random byte lengths (1 to 4, 1 to 32,
//!   1 to 256) each extended to the next char boundary.
//! - [`byte_chunkings`] cuts a `&[u8]` anywhere, inside UTF-8 sequences and
//!   `\r\n` pairs too: one byte per piece, then the same pseudo-random
//!   lengths. It exercises a decoder's carry-over between chunks.

use crate::Rng;
use std::ops::Range;

/// The largest piece length of each pseudo-random chunking, in bytes.
const RANDOM_MAX_LENGTHS: [usize; 3] = [4, 32, 256];

/// One way of cutting an input into consecutive non-empty pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunking<'a, T: ?Sized> {
    /// What the cut is, for failure messages: `"1 char"`, `"1 byte"`,
    /// `"random 1..=32 bytes, seed 7"`.
    pub name: String,
    /// The pieces, in input order; concatenated they are the input.
    pub pieces: Vec<&'a T>,
}

/// Cuts of `input` at char boundaries: one char per piece, then pieces of
/// pseudo-random lengths (up to 4, 32 and 256 bytes, rounded up to a char
/// boundary) drawn from `seed`.
///
/// ```
/// let input = "a<b>é</b>";
/// for chunking in spinneret_testdata::text_chunkings(input, 42) {
///     assert_eq!(chunking.pieces.concat(), input, "{}", chunking.name);
/// }
/// ```
pub fn text_chunkings(input: &str, seed: u64) -> Vec<Chunking<'_, str>> {
    let to_pieces = |ends: Vec<usize>| -> Vec<_> {
        piece_ranges(ends, input.len())
            .into_iter()
            .map(|r| &input[r])
            .collect()
    };
    let mut out = vec![Chunking {
        name: "1 char".to_owned(),
        pieces: to_pieces(input.char_indices().skip(1).map(|(i, _)| i).collect()),
    }];
    for (k, max) in RANDOM_MAX_LENGTHS.into_iter().enumerate() {
        let ends = random_ends(input.len(), max, seed, k, |i| input.is_char_boundary(i));
        out.push(Chunking {
            name: format!("random 1..={max} bytes, seed {seed}"),
            pieces: to_pieces(ends),
        });
    }
    out
}

/// Cuts of `input` at any byte: one byte per piece, then pieces of
/// pseudo-random lengths (up to 4, 32 and 256 bytes) drawn from `seed`.
///
/// ```
/// let input = "é\r\n".as_bytes();
/// let chunkings = spinneret_testdata::byte_chunkings(input, 1);
/// assert_eq!(chunkings[0].pieces, [&[0xC3][..], &[0xA9], b"\r", b"\n"]);
/// ```
pub fn byte_chunkings(input: &[u8], seed: u64) -> Vec<Chunking<'_, [u8]>> {
    let to_pieces = |ends: Vec<usize>| -> Vec<_> {
        piece_ranges(ends, input.len())
            .into_iter()
            .map(|r| &input[r])
            .collect()
    };
    let mut out = vec![Chunking {
        name: "1 byte".to_owned(),
        pieces: to_pieces((1..input.len()).collect()),
    }];
    for (k, max) in RANDOM_MAX_LENGTHS.into_iter().enumerate() {
        let ends = random_ends(input.len(), max, seed, k, |_| true);
        out.push(Chunking {
            name: format!("random 1..={max} bytes, seed {seed}"),
            pieces: to_pieces(ends),
        });
    }
    out
}

/// The interior cut positions of a pseudo-random chunking of `len` bytes:
/// strictly increasing, each in `1..len` and accepted by `is_boundary`.
/// `stream` tells the chunkings of one seed apart.
fn random_ends(
    len: usize,
    max: usize,
    seed: u64,
    stream: usize,
    is_boundary: impl Fn(usize) -> bool,
) -> Vec<usize> {
    // Spread the seed so that small seeds (0, 1, 2…) give unrelated
    // sequences and a zero state (which xorshift never leaves) is avoided.
    let mixed = (seed ^ (stream as u64).wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        | 1;
    let mut rng = Rng(mixed);
    let mut ends = Vec::new();
    let mut at = 0;
    loop {
        at += 1 + rng.below(max);
        while at < len && !is_boundary(at) {
            at += 1;
        }
        if at >= len {
            return ends;
        }
        ends.push(at);
    }
}

/// The byte ranges between consecutive cut positions: from 0 to the first
/// of `ends`, …, from the last of `ends` to `len`. An empty input (`len` 0)
/// has no ranges.
fn piece_ranges(ends: Vec<usize>, len: usize) -> Vec<Range<usize>> {
    if len == 0 {
        return Vec::new();
    }
    let starts = std::iter::once(0).chain(ends.iter().copied());
    let stops = ends.iter().copied().chain(std::iter::once(len));
    starts.zip(stops).map(|(start, stop)| start..stop).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const INPUTS: &[&str] = &[
        "",
        "a",
        "<p>One<p>Two",
        "a\r\nb\u{0}c",
        "é€😀<svg><path/></svg>",
        "<!DOCTYPE html><table><tr><td>x</td></tr></table><template><b>y</b></template>",
    ];

    #[test]
    fn text_pieces_concatenate_back_to_the_input() {
        let long = "<div class=a>ü€😀 text &amp; more</div>\n".repeat(200);
        for input in INPUTS.iter().copied().chain([long.as_str()]) {
            for seed in [0, 1, 2, 0xDEAD_BEEF] {
                let chunkings = text_chunkings(input, seed);
                assert_eq!(chunkings.len(), 1 + RANDOM_MAX_LENGTHS.len());
                for c in &chunkings {
                    assert_eq!(c.pieces.concat(), input, "{}", c.name);
                    assert!(c.pieces.iter().all(|p| !p.is_empty()), "{}", c.name);
                }
                assert_eq!(chunkings[0].pieces.len(), input.chars().count());
            }
        }
    }

    #[test]
    fn byte_pieces_concatenate_back_to_the_input() {
        let long = "<div class=a>ü€😀 text</div>\r\n".repeat(200);
        for input in INPUTS.iter().copied().chain([long.as_str()]) {
            for seed in [0, 3, 0xFFFF_FFFF_FFFF_FFFF] {
                let chunkings = byte_chunkings(input.as_bytes(), seed);
                for c in &chunkings {
                    assert_eq!(c.pieces.concat(), input.as_bytes(), "{}", c.name);
                    assert!(c.pieces.iter().all(|p| !p.is_empty()), "{}", c.name);
                }
                assert_eq!(chunkings[0].pieces.len(), input.len());
            }
        }
    }

    #[test]
    fn random_pieces_vary_and_respect_their_bound() {
        let input = "x".repeat(10_000);
        let chunkings = text_chunkings(&input, 9);
        for (c, max) in chunkings[1..].iter().zip(RANDOM_MAX_LENGTHS) {
            assert!(c.pieces.iter().all(|p| p.len() <= max), "{}", c.name);
            let lengths: std::collections::BTreeSet<usize> =
                c.pieces.iter().map(|p| p.len()).collect();
            assert!(lengths.len() > 1, "{}: one length only", c.name);
        }
        // Reproducible from the seed; another seed cuts elsewhere.
        assert_eq!(text_chunkings(&input, 9), chunkings);
        assert_ne!(text_chunkings(&input, 10)[2], chunkings[2]);
    }
}
