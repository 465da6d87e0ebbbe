//! Character references: the two table-driven steps of the HTML Standard's
//! character reference states, kept apart from the tokenizer's state machine.
//!
//! - [`match_named`] is the matching step of the *named character reference
//!   state*: "consume the maximum number of characters possible, where the
//!   consumed characters are one of the identifiers in the named character
//!   references table". It works on the bytes right after `&` and never
//!   allocates. It walks the sorted table ([`ENTITIES`]) like a trie: after
//!   `d` bytes, `ENTITIES[lo..hi]` are exactly the names starting with those
//!   `d` bytes. The first byte picks its range from an index built at compile
//!   time ([`FIRST_BYTE`]); each later byte narrows the range by two
//!   branch-free binary searches on the names' byte `d`. Because names sort
//!   before their extensions, the name equal to the consumed bytes (if any)
//!   is `ENTITIES[lo]`; the last one seen is the longest match. The walk stops
//!   after at most [`MAX_NAME_LEN`]` + 1` bytes whatever the input's length.
//!   Two shortcuts come first: a name of at most 8 bytes that ends in `;`
//!   (nearly every reference real pages use) is found by one probe of a
//!   hash table keyed by those bytes ([`SHORT_NAMES`]), and input whose
//!   first two bytes start no name is no match ([`FIRST_TWO_BYTES`]), as
//!   after the `&` of most query strings. Both tables are built at compile
//!   time from [`ENTITIES`].
//! - [`numeric_replacement`] is the *numeric character reference end state*:
//!   the parse error and the replacement for a code point (the C1 remapping
//!   table included).
//!
//! Invariants: [`ENTITIES`] is sorted by name bytes, has no empty name, and
//! no name is longer than [`MAX_NAME_LEN`] (the unit tests check all three).
//! What the tokenizer does around these steps — flushing code points consumed
//! as a character reference, the attribute-value special case, the
//! missing-semicolon error — stays in the tokenizer.

use crate::entities::{ENTITIES, MAX_NAME_LEN};

/// Result of matching a named character reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NamedMatch {
    /// The longest table name that is a prefix of the input: its length in bytes (a trailing ';' included when it is part of the name) and its replacement characters.
    Found { len: usize, chars: &'static str },
    /// No table name is a prefix of the input.
    NotFound,
    /// The input ended while a longer name could still match, and `at_eof` is false: call again with more input.
    NeedMore,
}

/// Whether `b` can be the first byte of a named character reference (every
/// name starts with an ASCII alphanumeric).
#[inline]
pub(crate) fn could_start_name(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// `input` is the text right after '&'. With `at_eof` true, the input's end is the end of the document.
///
/// Returns the longest table name that is a prefix of `input`, or
/// [`NamedMatch::NeedMore`] when `at_eof` is false and all of `input` is a
/// proper prefix of some name (so more input could give a longer match, even
/// if a shorter name already matched). Only the first
/// [`MAX_NAME_LEN`]` + 1` bytes of `input` are ever looked at.
pub(crate) fn match_named(input: &[u8], at_eof: bool) -> NamedMatch {
    let Some(&first) = input.first() else {
        return if at_eof {
            NamedMatch::NotFound
        } else {
            NamedMatch::NeedMore
        };
    };
    if !could_start_name(first) {
        return NamedMatch::NotFound;
    }
    if let Some(found) = match_short(input) {
        return found;
    }
    if let [a, b, ..] = *input
        && !starts_some_name(a, b)
    {
        return NamedMatch::NotFound;
    }
    match_in_table(input, first, at_eof)
}

/// [`match_named`]'s walk of the whole table, from a first byte that can
/// start a name.
fn match_in_table(input: &[u8], first: u8, at_eof: bool) -> NamedMatch {
    // Invariant: ENTITIES[lo..hi] (non-empty) are the names that start with
    // input[..depth].
    let lo = usize::from(FIRST_BYTE[usize::from(first)]);
    let hi = usize::from(FIRST_BYTE[usize::from(first) + 1]);
    if lo == hi {
        return NamedMatch::NotFound;
    }
    let (mut lo, mut hi, mut depth) = (lo, hi, 1);
    let mut found = NamedMatch::NotFound;
    loop {
        debug_assert!(lo < hi && depth <= MAX_NAME_LEN);
        // The name equal to input[..depth], if any, sorts first in the range.
        let exact = ENTITIES[lo].0.len() == depth;
        if exact {
            found = NamedMatch::Found {
                len: depth,
                chars: ENTITIES[lo].1,
            };
        }
        let start = lo + usize::from(exact);
        let Some(&b) = input.get(depth) else {
            // The input ended: names in start..hi would need more of it.
            return if start < hi && !at_eof {
                NamedMatch::NeedMore
            } else {
                found
            };
        };
        if !b.is_ascii() {
            return found;
        }
        // Every name in start..hi is longer than `depth`, and they are sorted
        // by their byte at `depth`.
        let longer = &ENTITIES[start..hi];
        let from = lower_bound(longer, depth, b);
        let to = from + lower_bound(&longer[from..], depth, b + 1);
        if from == to {
            return found;
        }
        lo = start + from;
        hi = start + to;
        depth += 1;
    }
}

/// A name that ends in `;` and has at most 8 bytes, `;` included, at the
/// input's start (with 8 bytes of input to read): `&amp;`, `&quot;`,
/// `&nbsp;`, `&raquo;`, `&hellip;` and 1,614 more, nearly every named
/// reference real pages use. No name extends a name that ends in `;`, so
/// it is the longest match, and the table walk is skipped. The input's
/// first 8 bytes up to its first `;` are the name's key ([`short_key`]);
/// one probe of [`SHORT_NAMES`] usually finds it. `None` when there is no
/// `;` in the 8 bytes or the key is not a name (the walk decides then).
#[inline]
fn match_short(input: &[u8]) -> Option<NamedMatch> {
    let word = u64::from_le_bytes(*input.first_chunk::<8>()?);
    // The lowest byte equal to ';' (the bytes above it may be flagged
    // wrongly: a borrow only runs upward from the first zero byte).
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let x = word ^ (ONES * u64::from(b';'));
    let semicolons = x.wrapping_sub(ONES) & !x & HIGHS;
    if semicolons == 0 {
        return None;
    }
    let len = semicolons.trailing_zeros() as usize / 8 + 1;
    let key = short_key(word, len);
    let mut slot = short_slot(key);
    loop {
        match SHORT_NAMES.keys[slot] {
            k if k == key => {
                let chars = ENTITIES[usize::from(SHORT_NAMES.entries[slot])].1;
                return Some(NamedMatch::Found { len, chars });
            }
            0 => return None,
            _ => slot = (slot + 1) % SHORT_SLOTS,
        }
    }
}

/// The key of a name of `len` (1 to 8) bytes whose bytes are the low bytes
/// of `word` (little-endian): those bytes, the others zero. No name's key
/// is 0.
#[inline]
const fn short_key(word: u64, len: usize) -> u64 {
    if len >= 8 {
        word
    } else {
        word & ((1u64 << (8 * len)) - 1)
    }
}

/// The slots of [`SHORT_NAMES`]: a power of two, more than twice the 1,619
/// names it holds, so that probes stay short (the unit tests bound them).
const SHORT_SLOTS: usize = 4096;

/// Where a key's probe starts: the top bits of a multiplicative hash.
#[inline]
const fn short_slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - SHORT_SLOTS.trailing_zeros())) as usize
}

/// An open-addressed table (linear probing) of every name that ends in
/// `;` and has at most 8 bytes: each slot's key (0: empty) and the name's
/// index in [`ENTITIES`]. Built at compile time from [`ENTITIES`].
struct ShortNames {
    keys: [u64; SHORT_SLOTS],
    entries: [u16; SHORT_SLOTS],
}

static SHORT_NAMES: ShortNames = {
    let mut table = ShortNames {
        keys: [0; SHORT_SLOTS],
        entries: [0; SHORT_SLOTS],
    };
    let mut i = 0;
    while i < ENTITIES.len() {
        let name = ENTITIES[i].0;
        if name.len() <= 8 && name[name.len() - 1] == b';' {
            let mut bytes = [0u8; 8];
            let mut j = 0;
            while j < name.len() {
                bytes[j] = name[j];
                j += 1;
            }
            let key = u64::from_le_bytes(bytes);
            let mut slot = short_slot(key);
            while table.keys[slot] != 0 {
                slot = (slot + 1) % SHORT_SLOTS;
            }
            table.keys[slot] = key;
            table.entries[slot] = i as u16;
        }
        i += 1;
    }
    table
};

/// Whether some name starts with the two ASCII bytes `a`, `b`: bit
/// `a * 128 + b` (every name has at least two bytes, so input whose first
/// two bytes start no name matches nothing, as after `&` in `?a=1&t=2`).
static FIRST_TWO_BYTES: [u64; 256] = {
    let mut bits = [0u64; 256];
    let mut i = 0;
    while i < ENTITIES.len() {
        let name = ENTITIES[i].0;
        let pair = name[0] as usize * 128 + name[1] as usize;
        bits[pair / 64] |= 1 << (pair % 64);
        i += 1;
    }
    bits
};

/// Whether some name starts with `a`, `b` (any bytes).
#[inline]
fn starts_some_name(a: u8, b: u8) -> bool {
    if a >= 0x80 || b >= 0x80 {
        return false;
    }
    let pair = usize::from(a) * 128 + usize::from(b);
    FIRST_TWO_BYTES[pair / 64] & (1 << (pair % 64)) != 0
}

/// `FIRST_BYTE[b]..FIRST_BYTE[b + 1]` is the range of [`ENTITIES`] whose
/// names start with the ASCII byte `b`.
static FIRST_BYTE: [u16; 129] = {
    assert!(ENTITIES.len() <= u16::MAX as usize);
    let mut index = [0u16; 129];
    let (mut i, mut b) = (0, 0);
    while b < index.len() {
        while i < ENTITIES.len() && (ENTITIES[i].0[0] as usize) < b {
            i += 1;
        }
        index[b] = i as u16;
        b += 1;
    }
    assert!(i == ENTITIES.len(), "every name starts with an ASCII byte");
    index
};

/// The number of leading entries of `names` whose byte at `depth` is below
/// `b`. Every name in `names` is longer than `depth`, and `names` is sorted by
/// that byte. Branch-free halving: the probes of a binary search over a table
/// are not predictable, so a compare-and-select beats a branch.
#[inline(always)]
fn lower_bound(names: &[(&[u8], &str)], depth: usize, b: u8) -> usize {
    let mut size = names.len();
    if size == 0 {
        return 0;
    }
    let mut base = 0;
    while size > 1 {
        let half = size / 2;
        let mid = base + half;
        base = if names[mid].0[depth] < b { mid } else { base };
        size -= half;
    }
    base + usize::from(names[base].0[depth] < b)
}

/// A parse error of the numeric character reference end state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NumericError {
    /// `null-character-reference`
    Null,
    /// `character-reference-outside-unicode-range`
    OutsideUnicodeRange,
    /// `surrogate-character-reference`
    Surrogate,
    /// `noncharacter-character-reference`
    Noncharacter,
    /// `control-character-reference`
    Control,
}

/// The standard's replacements for the C1 controls 0x80..=0x9F (the
/// windows-1252 meaning of those bytes); a code point without a table entry
/// (0x81, 0x8D, 0x8F, 0x90, 0x9D) stays itself.
const C1_REPLACEMENTS: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}', '\u{017D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{9D}', '\u{017E}', '\u{0178}',
];

/// The numeric character reference end state: the character a reference to
/// `code` stands for and the parse error it raises, if any.
///
/// The caller saturates: any number above 0x10FFFF may be passed as 0x110000.
pub(crate) fn numeric_replacement(code: u32) -> (char, Option<NumericError>) {
    // The commonest codes first (`&#39;`, `&#x27;`, `&#8217;`): printable
    // ASCII, and U+00A0 up to the surrogates (below the noncharacters
    // too), which are themselves with no error.
    if matches!(code, 0x20..=0x7E | 0xA0..=0xD7FF) {
        return (scalar(code), None);
    }
    numeric_end_state(code)
}

/// [`numeric_replacement`] by the standard's steps, for any code.
fn numeric_end_state(code: u32) -> (char, Option<NumericError>) {
    const REPLACEMENT: char = '\u{FFFD}';
    match code {
        0 => (REPLACEMENT, Some(NumericError::Null)),
        0x11_0000.. => (REPLACEMENT, Some(NumericError::OutsideUnicodeRange)),
        0xD800..=0xDFFF => (REPLACEMENT, Some(NumericError::Surrogate)),
        // Noncharacters: U+FDD0..U+FDEF and the last two code points of
        // every plane.
        0xFDD0..=0xFDEF => (scalar(code), Some(NumericError::Noncharacter)),
        _ if code & 0xFFFE == 0xFFFE => (scalar(code), Some(NumericError::Noncharacter)),
        // 0x0D, or a control that is not ASCII whitespace.
        0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F => (scalar(code), Some(NumericError::Control)),
        0x80..=0x9F => (
            C1_REPLACEMENTS[(code - 0x80) as usize],
            Some(NumericError::Control),
        ),
        _ => (scalar(code), None),
    }
}

/// `code` as a `char`; only called on Unicode scalar values.
#[inline]
fn scalar(code: u32) -> char {
    char::from_u32(code).unwrap_or('\u{FFFD}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn found(len: usize, chars: &'static str) -> NamedMatch {
        NamedMatch::Found { len, chars }
    }

    /// The definition, by linear scan.
    fn reference(input: &[u8], at_eof: bool) -> NamedMatch {
        if !at_eof
            && ENTITIES
                .iter()
                .any(|(n, _)| n.len() > input.len() && n.starts_with(input))
        {
            return NamedMatch::NeedMore;
        }
        ENTITIES
            .iter()
            .filter(|(n, _)| input.starts_with(n))
            .max_by_key(|(n, _)| n.len())
            .map_or(NamedMatch::NotFound, |&(n, c)| found(n.len(), c))
    }

    /// `match_short` answers for every name that ends in `;` and has at
    /// most 8 bytes, when 8 bytes of input follow the `&`; wherever it
    /// answers, it answers as the table walk does, whatever follows.
    #[test]
    fn short_names_are_the_table_walks_longest_matches() {
        let mut answered = 0;
        for (name, _) in ENTITIES {
            let short = name.len() <= 8 && name.ends_with(b";");
            for tail in [
                &b""[..],
                b"xxxxxxxx",
                b";;;;;;;;",
                b"amp;amp;",
                b"\xC3\xA9\xC3\xA9;;;;",
            ] {
                let input = [name, tail].concat();
                let Some(quick) = match_short(&input) else {
                    assert!(
                        !short || input.len() < 8,
                        "{:?}",
                        String::from_utf8_lossy(&input)
                    );
                    continue;
                };
                answered += usize::from(tail.is_empty());
                for at_eof in [false, true] {
                    assert_eq!(
                        quick,
                        match_in_table(&input, input[0], at_eof),
                        "{:?}",
                        String::from_utf8_lossy(&input)
                    );
                }
            }
        }
        // Names of exactly 8 bytes need no tail.
        let eight = ENTITIES
            .iter()
            .filter(|(n, _)| n.len() == 8 && n.ends_with(b";"))
            .count();
        assert_eq!(answered, eight);
        // Keys that are not names, and no ';' in the first 8 bytes.
        for input in [
            &b"ampx;aaaa"[..],
            b"xyz;aaaaa",
            b"Amp;aaaaa",
            b"amp=1&b=2",
            b"ampampamp;",
            b";aaaaaaaa",
        ] {
            assert_eq!(
                match_short(input),
                None,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
    }

    /// The short-name table holds every such name once, and its probes are
    /// short: at most this many slots for a name, and for a miss.
    #[test]
    fn short_name_table_probes_are_short() {
        let names: Vec<&[u8]> = ENTITIES
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| n.len() <= 8 && n.ends_with(b";"))
            .collect();
        assert_eq!(names.len(), 1619);
        let used = SHORT_NAMES.keys.iter().filter(|&&k| k != 0).count();
        assert_eq!(used, names.len());
        // The longest run of occupied slots bounds every probe, hit or miss.
        let mut longest = 0;
        let mut run = 0;
        for &k in SHORT_NAMES.keys.iter().chain(SHORT_NAMES.keys.iter()) {
            run = if k == 0 { 0 } else { run + 1 };
            longest = longest.max(run);
        }
        assert!(longest <= 24, "longest probe {longest}");
        for name in names {
            let mut bytes = [0u8; 8];
            bytes[..name.len()].copy_from_slice(name);
            let key = short_key(u64::from_le_bytes(bytes), name.len());
            let slot = (0..SHORT_SLOTS)
                .map(|i| (short_slot(key) + i) % SHORT_SLOTS)
                .find(|&s| SHORT_NAMES.keys[s] == key)
                .unwrap();
            assert_eq!(ENTITIES[usize::from(SHORT_NAMES.entries[slot])].0, name);
        }
    }

    /// The two-byte filter: a pair starts some name exactly when a name
    /// starts with it, for every pair of bytes.
    #[test]
    fn first_two_bytes_filter_is_exact() {
        assert!(ENTITIES.iter().all(|(n, _)| n.len() >= 2));
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                let want = ENTITIES.iter().any(|(n, _)| n[0] == a && n[1] == b);
                assert_eq!(starts_some_name(a, b), want, "{a:#x} {b:#x}");
            }
        }
    }

    #[test]
    fn table_shape() {
        assert_eq!(ENTITIES.len(), 2231);
        let with_semicolon = ENTITIES.iter().filter(|(n, _)| n.ends_with(b";")).count();
        assert_eq!(with_semicolon, 2125);
        assert_eq!(ENTITIES.len() - with_semicolon, 106);
        assert!(
            ENTITIES.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted, unique"
        );
        for (name, chars) in ENTITIES {
            assert!(!name.is_empty() && name.len() <= MAX_NAME_LEN);
            assert!(!chars.is_empty());
            let body = name.strip_suffix(b";").unwrap_or(name);
            assert!(body.iter().all(|&b| b.is_ascii_alphanumeric()));
            assert!(could_start_name(name[0]));
            if !name.ends_with(b";") {
                // Every legacy name also exists with ';' and the same value.
                let mut with = name.to_vec();
                with.push(b';');
                let i = ENTITIES
                    .binary_search_by(|(n, _)| (*n).cmp(&with[..]))
                    .unwrap();
                assert_eq!(ENTITIES[i].1, *chars);
            }
        }
        assert_eq!(
            ENTITIES.iter().map(|(n, _)| n.len()).max(),
            Some(MAX_NAME_LEN)
        );
    }

    #[test]
    fn specific_matches() {
        assert_eq!(match_named(b"amp;", false), found(4, "&"));
        assert_eq!(match_named(b"amp;x", true), found(4, "&"));
        assert_eq!(match_named(b"amp", true), found(3, "&"));
        assert_eq!(match_named(b"ampx", false), found(3, "&"));
        assert_eq!(match_named(b"AMP;", false), found(4, "&"));
        assert_eq!(match_named(b"AMP ", false), found(3, "&"));
        assert_eq!(match_named(b"Amp;", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"notin;", true), found(6, "\u{2209}"));
        assert_eq!(match_named(b"notin", true), found(3, "\u{ac}"));
        assert_eq!(match_named(b"notit;", true), found(3, "\u{ac}"));
        assert_eq!(match_named(b"not", true), found(3, "\u{ac}"));
        assert_eq!(
            match_named(b"NotEqualTilde;", true),
            found(14, "\u{2242}\u{338}")
        );
        // "Not" is a name only with ';' (unlike the legacy "not").
        assert_eq!(match_named(b"NotEqualTilde", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"NotEqualTildf;", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"Not;", true), found(4, "\u{2aec}"));
        assert_eq!(match_named(b"lt;", false), found(3, "<"));
        assert_eq!(match_named(b"ltx", false), found(2, "<"));
        assert_eq!(match_named(b"nbsp;&", false), found(5, "\u{a0}"));
        assert_eq!(match_named(b"quot;", true), found(5, "\""));
        assert_eq!(match_named(b"frac12;", true), found(7, "\u{bd}"));
        assert_eq!(match_named(b"frac12", true), found(6, "\u{bd}"));
        assert_eq!(match_named(b"sup2;", true), found(5, "\u{b2}"));
        assert_eq!(
            match_named(b"CounterClockwiseContourIntegral;", true),
            found(32, "\u{2233}")
        );
        assert_eq!(match_named(b"xyz;", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"xyz", false), NamedMatch::NotFound);
        assert_eq!(match_named(b";", false), NamedMatch::NotFound);
        assert_eq!(match_named(b"", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"1", false), NamedMatch::NotFound);
    }

    #[test]
    fn need_more() {
        // A shorter name matched, but a longer one could still.
        assert_eq!(match_named(b"amp", false), NamedMatch::NeedMore);
        assert_eq!(match_named(b"not", false), NamedMatch::NeedMore);
        assert_eq!(match_named(b"notin", false), NamedMatch::NeedMore);
        assert_eq!(match_named(b"NotEqualTilde", false), NamedMatch::NeedMore);
        // Nothing matched yet.
        assert_eq!(match_named(b"", false), NamedMatch::NeedMore);
        assert_eq!(match_named(b"a", false), NamedMatch::NeedMore);
        assert_eq!(
            match_named(b"CounterClockwise", false),
            NamedMatch::NeedMore
        );
        // The same inputs at the end of the document.
        assert_eq!(match_named(b"a", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"CounterClockwise", true), NamedMatch::NotFound);
        assert_eq!(match_named(b"notin", true), found(3, "\u{ac}"));
        // Complete names that nothing extends need no more input.
        assert_eq!(match_named(b"amp;", false), found(4, "&"));
        assert_eq!(match_named(b"notin;", false), found(6, "\u{2209}"));
    }

    #[test]
    fn long_input_is_bounded() {
        let mut long = b"CounterClockwiseContourIntegral;".to_vec();
        long.extend(std::iter::repeat_n(b'a', 10_000));
        assert_eq!(match_named(&long, false), found(32, "\u{2233}"));
        let junk = vec![b'a'; 10_000];
        assert_eq!(match_named(&junk, false), NamedMatch::NotFound);
    }

    #[test]
    fn agrees_with_linear_scan() {
        let suffixes: [&[u8]; 11] = [
            b"",
            b";",
            b"x",
            b"1",
            b"=",
            b";;",
            b"\xff",
            b"\xc3\xa9",
            // Enough bytes for the short-name table to be asked.
            b";;;;;;;;",
            b"xxxxxxxx",
            b"=1&amp;b",
        ];
        for (name, _) in ENTITIES {
            for cut in 0..=name.len() {
                for suffix in suffixes {
                    let mut input = name[..cut].to_vec();
                    input.extend_from_slice(suffix);
                    for at_eof in [false, true] {
                        assert_eq!(
                            match_named(&input, at_eof),
                            reference(&input, at_eof),
                            "{:?} at_eof={at_eof}",
                            String::from_utf8_lossy(&input)
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_first_byte() {
        for b in 0..=u8::MAX {
            for input in [vec![b], vec![b, b't'], vec![b, b't', b';']] {
                for at_eof in [false, true] {
                    assert_eq!(
                        match_named(&input, at_eof),
                        reference(&input, at_eof),
                        "{input:?} at_eof={at_eof}"
                    );
                }
            }
        }
    }

    /// Runs each `&name` / `&name;` test of html5lib's namedEntities.test
    /// through the named character reference state as the data state would
    /// at the end of the input.
    #[test]
    fn html5lib_named_entities() {
        let text =
            spinneret_testdata::read_to_string("testdata/html5lib/tokenizer/namedEntities.test");
        let json: Value = serde_json::from_str(&text).unwrap();
        let mut checked = 0;
        for test in json["tests"].as_array().unwrap() {
            let input = test["input"].as_str().unwrap();
            let Some(name) = input.strip_prefix('&') else {
                continue;
            };
            let body = name.strip_suffix(';').unwrap_or(name);
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
                continue;
            }
            let (output, errors) = match match_named(name.as_bytes(), true) {
                NamedMatch::Found { len, chars } => {
                    let errors: &[&str] = if name.as_bytes()[len - 1] == b';' {
                        &[]
                    } else {
                        &["missing-semicolon-after-character-reference"]
                    };
                    (format!("{chars}{}", &name[len..]), errors)
                }
                NamedMatch::NotFound => {
                    let errors: &[&str] = if name.ends_with(';') {
                        &["unknown-named-character-reference"]
                    } else {
                        &[]
                    };
                    (input.to_owned(), errors)
                }
                NamedMatch::NeedMore => panic!("NeedMore at EOF for {input}"),
            };
            let expected = test["output"].as_array().unwrap();
            assert_eq!(expected.len(), 1, "{input}");
            assert_eq!(expected[0][0], "Character", "{input}");
            assert_eq!(expected[0][1], output.as_str(), "{input}");
            let codes: Vec<&str> = test
                .get("errors")
                .and_then(Value::as_array)
                .map(|e| e.iter().map(|e| e["code"].as_str().unwrap()).collect())
                .unwrap_or_default();
            assert_eq!(codes, errors, "{input}");
            checked += 1;
        }
        assert_eq!(checked, 4210);
    }

    #[test]
    fn numeric_categories() {
        use NumericError::*;
        // The quick ranges answer as the steps do, for every code.
        for code in (0..=0x11_0001).chain([u32::MAX]) {
            assert_eq!(
                numeric_replacement(code),
                numeric_end_state(code),
                "{code:#x}"
            );
        }
        assert_eq!(numeric_replacement(0), ('\u{FFFD}', Some(Null)));
        assert_eq!(
            numeric_replacement(0x11_0000),
            ('\u{FFFD}', Some(OutsideUnicodeRange))
        );
        assert_eq!(
            numeric_replacement(u32::MAX),
            ('\u{FFFD}', Some(OutsideUnicodeRange))
        );
        assert_eq!(
            numeric_replacement(0x10_FFFF),
            ('\u{10FFFF}', Some(Noncharacter))
        );
        assert_eq!(numeric_replacement(0x10_FFFD), ('\u{10FFFD}', None));
        assert_eq!(numeric_replacement(0xD800), ('\u{FFFD}', Some(Surrogate)));
        assert_eq!(numeric_replacement(0xDFFF), ('\u{FFFD}', Some(Surrogate)));
        assert_eq!(
            numeric_replacement(0xFDD0),
            ('\u{FDD0}', Some(Noncharacter))
        );
        assert_eq!(
            numeric_replacement(0xFDEF),
            ('\u{FDEF}', Some(Noncharacter))
        );
        assert_eq!(numeric_replacement(0xFDF0), ('\u{FDF0}', None));
        assert_eq!(
            numeric_replacement(0xFFFE),
            ('\u{FFFE}', Some(Noncharacter))
        );
        assert_eq!(
            numeric_replacement(0x1FFFF),
            ('\u{1FFFF}', Some(Noncharacter))
        );
        assert_eq!(numeric_replacement(0x1FFFD), ('\u{1FFFD}', None));
        for ws in [0x09, 0x0A, 0x0C, 0x20] {
            assert_eq!(numeric_replacement(ws), (char::from(ws as u8), None));
        }
        assert_eq!(numeric_replacement(0x0D), ('\r', Some(Control)));
        assert_eq!(numeric_replacement(0x01), ('\u{1}', Some(Control)));
        assert_eq!(numeric_replacement(0x0B), ('\u{B}', Some(Control)));
        assert_eq!(numeric_replacement(0x1F), ('\u{1F}', Some(Control)));
        assert_eq!(numeric_replacement(0x7F), ('\u{7F}', Some(Control)));
        assert_eq!(numeric_replacement(0x80), ('\u{20AC}', Some(Control)));
        assert_eq!(numeric_replacement(0x81), ('\u{81}', Some(Control)));
        assert_eq!(numeric_replacement(0x82), ('\u{201A}', Some(Control)));
        assert_eq!(numeric_replacement(0x9F), ('\u{178}', Some(Control)));
        assert_eq!(numeric_replacement(0xA0), ('\u{A0}', None));
        assert_eq!(numeric_replacement(0x41), ('A', None));
        assert_eq!(numeric_replacement(0x1F600), ('\u{1F600}', None));
        let remapped = (0x80..=0x9F)
            .filter(|&c| numeric_replacement(c).0 as u32 != c)
            .count();
        assert_eq!(remapped, 27);
    }

    /// html5lib's numericEntities.test: the replacement and the errors of
    /// each `&#…` test (the missing-semicolon error is the tokenizer's).
    #[test]
    fn html5lib_numeric_entities() {
        let text =
            spinneret_testdata::read_to_string("testdata/html5lib/tokenizer/numericEntities.test");
        let json: Value = serde_json::from_str(&text).unwrap();
        let mut checked = 0;
        for test in json["tests"].as_array().unwrap() {
            let input = test["input"].as_str().unwrap();
            let rest = input.strip_prefix("&#").unwrap();
            let (radix, digits) = match rest.strip_prefix(['x', 'X']) {
                Some(hex) => (16, hex),
                None => (10, rest),
            };
            let end = digits
                .find(|c: char| !c.is_digit(radix))
                .unwrap_or(digits.len());
            let code = digits[..end].chars().fold(0u32, |n, c| {
                n.saturating_mul(radix)
                    .saturating_add(c.to_digit(radix).unwrap())
                    .min(0x11_0000)
            });
            let tail = &digits[end..];
            let tail = tail.strip_prefix(';').unwrap_or(tail);
            let (ch, error) = numeric_replacement(code);
            let expected = test["output"].as_array().unwrap();
            assert_eq!(expected.len(), 1, "{input}");
            assert_eq!(expected[0][1], format!("{ch}{tail}").as_str(), "{input}");
            let codes: Vec<&str> = test
                .get("errors")
                .and_then(Value::as_array)
                .map(|e| e.iter().map(|e| e["code"].as_str().unwrap()).collect())
                .unwrap_or_default();
            let codes: Vec<&str> = codes
                .into_iter()
                .filter(|&c| c != "missing-semicolon-after-character-reference")
                .collect();
            let ours = error.map(|e| match e {
                NumericError::Null => "null-character-reference",
                NumericError::OutsideUnicodeRange => "character-reference-outside-unicode-range",
                NumericError::Surrogate => "surrogate-character-reference",
                NumericError::Noncharacter => "noncharacter-character-reference",
                NumericError::Control => "control-character-reference",
            });
            assert_eq!(codes, ours.into_iter().collect::<Vec<_>>(), "{input}");
            checked += 1;
        }
        assert!(checked > 300, "{checked}");
    }
}
