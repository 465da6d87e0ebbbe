//! The character reference states, the tokenizer's side: the character
//! reference state, the named character reference state, the ambiguous
//! ampersand state, and the numeric character reference state with its
//! successors (hexadecimal and decimal character reference start states,
//! hexadecimal and decimal character reference states, numeric character
//! reference end state). Matching a name against the standard's table, and
//! the numeric replacement table, are `crate::char_ref`'s.
//!
//! Every producer of decoded text comes here: the data and RCDATA states
//! (`text.rs`), the attribute value states (`tag.rs`), and two fast paths
//! that share this code rather than copy it — the decoded text run
//! (`Core::fast_text_decoded`, `fast_path.rs`) and the tag fast path
//! (`fast_tag.rs`) for attribute values. A change here changes all of them.

use super::run::{NeedMore, Peek, R, Run};
use crate::acc::Acc;
use crate::char_ref::{NamedMatch, NumericError, match_named, numeric_replacement};
use crate::error::ErrorCode;

impl<'a> Run<'a, '_> {
    // Tokenizer: character reference state (at '&'); appends the result to
    // `acc` and returns the position to continue from (the return state
    // reconsumes there).
    pub(super) fn char_ref(&mut self, amp: usize, acc: &mut Acc, in_attr: bool) -> R<usize> {
        let p = amp + 1;
        match self.peek(p) {
            Peek::More => Err(NeedMore),
            Peek::Ascii(c, _) if c.is_ascii_alphanumeric() => {
                self.named_char_ref(amp, acc, in_attr)
            }
            Peek::Ascii(b'#', _) => self.numeric_char_ref(amp, acc),
            _ => {
                self.push(acc, amp, p);
                Ok(p)
            }
        }
    }

    // Tokenizer: named character reference state
    fn named_char_ref(&mut self, amp: usize, acc: &mut Acc, in_attr: bool) -> R<usize> {
        let p = amp + 1;
        match match_named(&self.b[p..], self.at_eof) {
            NamedMatch::NeedMore => Err(NeedMore),
            NamedMatch::Found { len, chars } => {
                let end = p + len;
                let last_is_semicolon = self.b[end - 1] == b';';
                if in_attr && !last_is_semicolon {
                    match self.peek(end) {
                        Peek::More => return Err(NeedMore),
                        Peek::Ascii(c, _) if c == b'=' || c.is_ascii_alphanumeric() => {
                            // Historical: flush the consumed text as is.
                            self.push(acc, amp, end);
                            return Ok(end);
                        }
                        _ => {}
                    }
                }
                if !last_is_semicolon {
                    self.err(ErrorCode::MissingSemicolonAfterCharacterReference, end);
                }
                acc.push_str(chars, self.input, &mut self.core.scratch);
                Ok(end)
            }
            NamedMatch::NotFound => {
                // Flush "&", then the ambiguous ampersand state.
                let mut q = p;
                loop {
                    match self.peek(q) {
                        Peek::More => return Err(NeedMore),
                        Peek::Ascii(c, _) if c.is_ascii_alphanumeric() => q += 1,
                        Peek::Ascii(b';', _) => {
                            self.err(ErrorCode::UnknownNamedCharacterReference, q);
                            break;
                        }
                        _ => break,
                    }
                }
                self.push(acc, amp, q);
                Ok(q)
            }
        }
    }

    // Tokenizer: numeric character reference state and its successors
    fn numeric_char_ref(&mut self, amp: usize, acc: &mut Acc) -> R<usize> {
        let mut q = amp + 2;
        let hex = match self.peek(q) {
            Peek::More => return Err(NeedMore),
            Peek::Ascii(b'x' | b'X', _) => {
                q += 1;
                true
            }
            _ => false,
        };
        let radix = if hex { 16 } else { 10 };
        let digits_start = q;
        let mut value: u32 = 0;
        // Digits are ASCII, so the raw byte decides (a CR, which `peek`
        // would normalize, is not a digit either way).
        loop {
            let d = match self.b.get(q) {
                None if self.at_eof => break,
                None => return Err(NeedMore),
                Some(&c @ b'0'..=b'9') => c - b'0',
                Some(&c @ (b'a'..=b'f' | b'A'..=b'F')) if hex => (c | 0x20) - b'a' + 10,
                Some(_) => break,
            };
            value = value
                .saturating_mul(radix)
                .saturating_add(u32::from(d))
                .min(0x110000);
            q += 1;
        }
        if q == digits_start {
            // Absence of digits: flush "&#" or "&#x" and reconsume.
            self.err(ErrorCode::AbsenceOfDigitsInNumericCharacterReference, q);
            self.push(acc, amp, q);
            return Ok(q);
        }
        match self.peek(q) {
            Peek::Ascii(b';', _) => q += 1,
            _ => self.err(ErrorCode::MissingSemicolonAfterCharacterReference, q),
        }
        // Numeric character reference end state.
        let (c, error) = numeric_replacement(value);
        if let Some(e) = error {
            let code = match e {
                NumericError::Null => ErrorCode::NullCharacterReference,
                NumericError::OutsideUnicodeRange => {
                    ErrorCode::CharacterReferenceOutsideUnicodeRange
                }
                NumericError::Surrogate => ErrorCode::SurrogateCharacterReference,
                NumericError::Noncharacter => ErrorCode::NoncharacterCharacterReference,
                NumericError::Control => ErrorCode::ControlCharacterReference,
            };
            self.err(code, q);
        }
        self.push_char(acc, c);
        Ok(q)
    }
}
