//! *Changing the encoding while parsing*: what the pipeline does when the
//! tree builder meets a `<meta>` declaring an encoding after the prescan
//! window while the confidence is tentative.
//!
//! The tree builder's part ("in head", start tag `meta`) is
//! [`meta_element_encoding`]: the encoding a `<meta>` element's attributes
//! declare. The standard's algorithm is
//! [`Determination::change_the_encoding`]; it returns a [`Change`] telling
//! the caller whether to keep going, switch decoders in place, or re-decode
//! from the start.
//!
//! Invariant: after any call the confidence is no longer tentative, except
//! when the call was [`Change::Ignored`] because it already was not.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

use crate::determine::{Confidence, Determination, Step};
use crate::prescan::extract_from_meta_content;

/// What the caller must do after [`Determination::change_the_encoding`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// The confidence was not tentative: nothing changes.
    Ignored,
    /// Keep decoding as before; the confidence is now certain (steps 1, 4).
    Keep,
    /// The bytes decoded so far mean the same in the new encoding: switch to
    /// a decoder for it from the current position (step 5).
    SwitchInPlace(&'static Encoding),
    /// Re-decode the document from the start with this encoding, certain
    /// (step 6: "restart the navigate algorithm", from memory).
    Reparse(&'static Encoding),
}

/// The tree builder's rule for a `<meta>` start tag: the `charset`
/// attribute's encoding if it has one that is a label; otherwise, with
/// `http-equiv` ASCII case-insensitively `Content-Type` and a `content`
/// attribute, the encoding extracted from `content`.
pub fn meta_element_encoding(
    charset: Option<&[u8]>,
    http_equiv: Option<&[u8]>,
    content: Option<&[u8]>,
) -> Option<&'static Encoding> {
    if let Some(e) = charset.and_then(Encoding::for_label) {
        return Some(e);
    }
    if http_equiv.is_some_and(|h| h.eq_ignore_ascii_case(b"content-type")) {
        return extract_from_meta_content(content?);
    }
    None
}

impl Determination {
    /// *Change the encoding* to `new`, given the bytes converted so far
    /// (`consumed`, from the start of the document). Updates `self` and says
    /// what the caller must do.
    pub fn change_the_encoding(&mut self, new: &'static Encoding, consumed: &[u8]) -> Change {
        // The tree builder acts only while the confidence is tentative.
        if self.confidence != Confidence::Tentative {
            return Change::Ignored;
        }
        // 1. UTF-16 in use: certain, and return.
        if self.encoding == UTF_16BE || self.encoding == UTF_16LE {
            self.confidence = Confidence::Certain;
            return Change::Keep;
        }
        // 2. New UTF-16 → UTF-8.
        // 3. New x-user-defined → windows-1252.
        let new = if new == UTF_16BE || new == UTF_16LE {
            UTF_8
        } else if new == X_USER_DEFINED {
            WINDOWS_1252
        } else {
            new
        };
        // 4. Same encoding: certain, and return.
        if new == self.encoding {
            self.confidence = Confidence::Certain;
            return Change::Keep;
        }
        let old = self.encoding;
        self.encoding = new;
        self.step = Step::Meta;
        self.confidence = Confidence::Certain;
        self.declared = None;
        // 5. Same interpretation of the bytes so far: change on the fly.
        if same_interpretation(consumed, old, new) {
            return Change::SwitchInPlace(new);
        }
        // 6. Otherwise: re-decode from the start with the new encoding.
        Change::Reparse(new)
    }
}

/// Whether `bytes` decode to the same text, without errors, in both.
fn same_interpretation(bytes: &[u8], a: &'static Encoding, b: &'static Encoding) -> bool {
    let ascii_prefix = a.is_ascii_compatible() && b.is_ascii_compatible() && bytes.is_ascii();
    if ascii_prefix {
        // ISO-2022-JP is ASCII-compatible only outside escape sequences.
        return !bytes.contains(&0x1B);
    }
    let (ta, ea) = a.decode_without_bom_handling(bytes);
    let (tb, eb) = b.decode_without_bom_handling(bytes);
    !ea && !eb && ta == tb
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::*;

    fn tentative(e: &'static Encoding) -> Determination {
        Determination {
            encoding: e,
            step: Step::Detector,
            confidence: Confidence::Tentative,
            declared: None,
        }
    }

    #[test]
    fn steps() {
        let mut d = tentative(WINDOWS_1252);
        assert_eq!(
            d.change_the_encoding(ISO_8859_2, b"<p>ascii"),
            Change::SwitchInPlace(ISO_8859_2)
        );
        assert_eq!(
            (d.encoding, d.step, d.confidence),
            (ISO_8859_2, Step::Meta, Confidence::Certain)
        );
        // Certain now: later metas are ignored.
        assert_eq!(d.change_the_encoding(GBK, b""), Change::Ignored);

        let mut d = tentative(WINDOWS_1252);
        assert_eq!(
            d.change_the_encoding(ISO_8859_2, b"<p>\xFE"),
            Change::Reparse(ISO_8859_2)
        );

        let mut d = tentative(WINDOWS_1252);
        assert_eq!(d.change_the_encoding(WINDOWS_1252, b"\xFE"), Change::Keep);
        assert_eq!(d.confidence, Confidence::Certain);

        let mut d = tentative(UTF_16LE);
        assert_eq!(d.change_the_encoding(GBK, b""), Change::Keep);
        assert_eq!(d.encoding, UTF_16LE);

        let mut d = tentative(WINDOWS_1252);
        assert_eq!(
            d.change_the_encoding(UTF_16BE, b"a"),
            Change::SwitchInPlace(UTF_8)
        );
        let mut d = tentative(WINDOWS_1252);
        assert_eq!(d.change_the_encoding(X_USER_DEFINED, b"\xFE"), Change::Keep);

        let mut d = tentative(ISO_2022_JP);
        assert_eq!(
            d.change_the_encoding(SHIFT_JIS, b"\x1B$B"),
            Change::Reparse(SHIFT_JIS)
        );

        let mut d = Determination {
            confidence: Confidence::Certain,
            ..tentative(GBK)
        };
        assert_eq!(d.change_the_encoding(BIG5, b""), Change::Ignored);
    }

    #[test]
    fn meta_element_rules() {
        assert_eq!(meta_element_encoding(Some(b"gbk"), None, None), Some(GBK));
        assert_eq!(
            meta_element_encoding(Some(b"bogus"), Some(b"Content-Type"), Some(b"charset=big5")),
            Some(BIG5)
        );
        assert_eq!(
            meta_element_encoding(None, Some(b"refresh"), Some(b"charset=big5")),
            None
        );
        assert_eq!(
            meta_element_encoding(None, Some(b"content-type"), None),
            None
        );
        assert_eq!(meta_element_encoding(None, None, None), None);
    }
}
