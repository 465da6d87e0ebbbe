//! Decoding one document on several threads: the input cut into pieces,
//! each piece decoded on rayon's current pool, the texts joined in order.
//!
//! Invariant: [`decode_parallel`] gives exactly [`decode_with`]'s text and
//! error flag, for any bytes, encoding and piece count.
//!
//! Why a cut is exact. A BOM is looked at once, at the start, as the
//! Encoding Standard's *decode* does, and chooses the encoding of the
//! whole; every piece is then decoded from the decoder's initial state
//! with *end-of-queue* at its end. That equals one decoding of the whole
//! where, at each cut, the whole's decoder is in its initial state with
//! nothing to reprocess — then the piece's end emits nothing and the next
//! piece starts where the whole's decoder stood. So cuts go where that
//! holds:
//!
//! - single-byte encodings (and x-user-defined): a decoder without state —
//!   any cut;
//! - Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030 and GBK: just after a `>` or
//!   a line feed. Neither byte is a valid trail (or gb18030 second, third
//!   or fourth) byte of any of them, so each decoder meets it either in
//!   its initial state, where it emits it, or with a pending lead, where
//!   the standard resets the state, reports an error and reprocesses the
//!   byte (gb18030 reprocesses the pending bytes before it too, which ends
//!   with the byte met again): after it the decoder is always initial.
//!   Markup has such a byte every few dozen bytes;
//! - not cut: UTF-8 (decoding valid UTF-8 only validates it, and the whole
//!   text is lent from the input — pieces would copy it), ISO-2022-JP (its
//!   state is the escape mode, which a byte does not reset), UTF-16BE/LE
//!   (a surrogate pair may straddle any cut) and replacement.
//!
//! The text is lent from the input where [`decode_with`]'s would be (every
//! piece ASCII); else the calling thread's first piece's text grows into
//! the whole (`String::reserve` of the rest, then each later piece's text
//! appended) — the copy of all but the first piece is the price of
//! decoding in parallel.

use std::borrow::Cow;

use encoding_rs::{BIG5, EUC_JP, EUC_KR, Encoding, GB18030, GBK, SHIFT_JIS};

use crate::decode::decode_with;

/// Where a decoding of `bytes` as `encoding` may be cut into about
/// `pieces` pieces: the offsets (strictly increasing, inside `bytes`) at
/// which a piece ends and the next starts. Empty where the encoding is not
/// cut (see the module doc), where `bytes` start with a byte order mark,
/// or where `pieces < 2`; fewer than `pieces - 1` offsets where the input
/// has too few places to cut.
pub fn cuts(bytes: &[u8], encoding: &'static Encoding, pieces: usize) -> Vec<usize> {
    if pieces < 2 || Encoding::for_bom(bytes).is_some() {
        return Vec::new();
    }
    let Some(rule) = CutRule::of(encoding) else {
        return Vec::new();
    };
    // No piece is empty: at most one per byte.
    let pieces = pieces.min(bytes.len());
    let mut cuts: Vec<usize> = Vec::with_capacity(pieces.saturating_sub(1));
    for k in 1..pieces {
        // The k-th even share, moved to the next place the rule allows.
        let target = (bytes.len() as u128 * k as u128 / pieces as u128) as usize;
        let from = target.max(cuts.last().copied().unwrap_or(0));
        let at = match rule {
            CutRule::Anywhere => Some(from),
            CutRule::AfterMarkupByte => {
                memchr::memchr2(b'>', b'\n', &bytes[from..]).map(|i| from + i + 1)
            }
        };
        match at {
            // No place to cut before the end: none after this share either.
            None => break,
            Some(at) if at >= bytes.len() => break,
            Some(at) if at > cuts.last().copied().unwrap_or(0) => cuts.push(at),
            Some(_) => {}
        }
    }
    cuts
}

/// Decodes `bytes` as `encoding`, as [`decode_with`] does, cut into (at
/// most) `pieces` pieces ([`cuts`]) decoded on rayon's current pool: the
/// calling thread decodes the first piece, the pool the others. The same
/// text and error flag as [`decode_with`]; the text is lent from `bytes`
/// where that one's would be.
pub fn decode_parallel<'a>(
    bytes: &'a [u8],
    encoding: &'static Encoding,
    pieces: usize,
) -> (Cow<'a, str>, bool) {
    let cuts = cuts(bytes, encoding, pieces);
    if cuts.is_empty() {
        return decode_with(bytes, encoding);
    }
    let mut rest: Vec<&[u8]> = Vec::with_capacity(cuts.len());
    for (i, &start) in cuts.iter().enumerate() {
        let end = cuts.get(i + 1).copied().unwrap_or(bytes.len());
        rest.push(&bytes[start..end]);
    }
    let mut texts: Vec<Option<(Cow<'a, str>, bool)>> = vec![None; rest.len()];
    let first = rayon::in_place_scope(|scope| {
        for (slot, piece) in texts.iter_mut().zip(&rest) {
            scope.spawn(move |_| *slot = Some(encoding.decode_without_bom_handling(piece)));
        }
        encoding.decode_without_bom_handling(&bytes[..cuts[0]])
    });
    let texts: Vec<(Cow<'a, str>, bool)> = texts
        .into_iter()
        .map(|t| t.expect("the scope ran every piece"))
        .collect();
    let had_errors = first.1 || texts.iter().any(|t| t.1);
    let all_lent = matches!(first.0, Cow::Borrowed(_))
        && texts.iter().all(|t| matches!(t.0, Cow::Borrowed(_)));
    if all_lent {
        // Every piece ASCII: so is the whole, which decode_with lends.
        let text = std::str::from_utf8(bytes).expect("ASCII pieces join into ASCII");
        return (Cow::Borrowed(text), had_errors);
    }
    let mut text = first.0.into_owned();
    text.reserve(texts.iter().map(|t| t.0.len()).sum());
    for (piece, _) in &texts {
        text.push_str(piece);
    }
    (Cow::Owned(text), had_errors)
}

/// Where an encoding's decoding may be cut.
#[derive(Clone, Copy)]
enum CutRule {
    /// A decoder without state.
    Anywhere,
    /// Just after a `>` or a line feed.
    AfterMarkupByte,
}

impl CutRule {
    fn of(encoding: &'static Encoding) -> Option<CutRule> {
        // is_single_byte: the single-byte encodings and x-user-defined.
        if encoding.is_single_byte() {
            Some(CutRule::Anywhere)
        } else if [SHIFT_JIS, EUC_JP, EUC_KR, BIG5, GB18030, GBK].contains(&encoding) {
            Some(CutRule::AfterMarkupByte)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_2022_JP, UTF_8, UTF_16LE, WINDOWS_1252};

    #[test]
    fn cuts_follow_the_rule() {
        let page = b"<p>a\xe9b</p>\n<p>c</p>".repeat(50);
        let cuts = cuts(&page, SHIFT_JIS, 8);
        assert_eq!(cuts.len(), 7);
        for &c in &cuts {
            assert!(matches!(page[c - 1], b'>' | b'\n'), "cut {c}");
        }
        assert_eq!(super::cuts(&page, WINDOWS_1252, 8).len(), 7);
        for serial in [UTF_8, ISO_2022_JP, UTF_16LE] {
            assert!(super::cuts(&page, serial, 8).is_empty());
        }
        // A BOM chooses the encoding of the whole: not cut.
        let bommed = [b"\xEF\xBB\xBF".as_slice(), &page].concat();
        assert!(super::cuts(&bommed, WINDOWS_1252, 8).is_empty());
        // No place to cut.
        assert!(super::cuts(b"abc\xe9", EUC_JP, 4).is_empty());
        // More pieces than bytes: one byte each; and no search per asked
        // piece where there is no place to cut.
        assert_eq!(super::cuts(b"abcd", WINDOWS_1252, usize::MAX), [1, 2, 3]);
        let no_markup = vec![0x82; 1 << 20];
        assert!(super::cuts(&no_markup, SHIFT_JIS, 1 << 20).is_empty());
        let late = [&no_markup[..], b">"].concat();
        assert!(super::cuts(&late, SHIFT_JIS, 1 << 20).is_empty());
    }

    #[test]
    fn lent_where_decode_with_lends() {
        let page = b"<p>plain ascii</p>".repeat(100);
        let (text, errors) = decode_parallel(&page, WINDOWS_1252, 4);
        assert!(matches!(text, Cow::Borrowed(_)));
        assert!(!errors);
        let page = b"<p>caf\xe9</p>".repeat(100);
        let (text, _) = decode_parallel(&page, WINDOWS_1252, 4);
        assert_eq!(text, "<p>café</p>".repeat(100));
    }
}
