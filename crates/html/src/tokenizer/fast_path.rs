//! The fast paths of the step loop: the commonest tokens of the data state
//! read without the general machinery, when errors are not reported (they
//! do not track the positions errors need).
//!
//! - [`Core::fast_scan`], tried first by every step: a text run with
//!   nothing to decode that ends where markup starts (the same token as the
//!   data state of `text.rs`; one that begins with a CRLF and has no other
//!   CR or reference is the input from the LF on), or a tag the tag fast
//!   path (`fast_tag.rs`) accepts (the same token as the tag states of
//!   `tag.rs`);
//! - [`Core::fast_text_decoded`], tried by `Core::scan_states` before the
//!   states: a data-state text run with character references (decoded by
//!   `char_ref.rs`) or CRs to normalize;
//! - [`Core::fast_comment`], likewise: a `<!--…-->` comment whose data the
//!   comment states of `comment.rs` would give unchanged.
//!
//! Invariant: each produces exactly the token the states would, or returns
//! `None` having changed nothing the states read, and the states take the
//! token from its start. (With `Tokenizer::skip_data_text`, `fast_scan`
//! may first pass over a data-state text run that ends at markup: the
//! position then moves to the markup, a token boundary of the states
//! too.) So a change to the data state, the tag states or the comment
//! states must be checked against these.

use super::TextMode;
use super::fast_tag::Attempt;
use super::run::Run;
use super::step::{Built, Core, Scan};
use crate::acc::Acc;
use crate::byte_scan::{self, end_of_run};

/// A data-state text run at `p` that begins with a CRLF, as indentation
/// after a line end does in pages written with CRLF line ends: where it
/// ends at markup with no other CR or reference, the end. Newline
/// normalization turns the pair into its LF, so the run's text is then the
/// input from `p + 1` on. (Out of line: the fast path's loop stays small.)
#[inline(never)]
fn crlf_run_end(b: &[u8], p: usize) -> Option<usize> {
    let q = end_of_run::<byte_scan::Data>(b, p + 2);
    (*b.get(q)? == b'<' && starts_markup(*b.get(q + 1)?)).then_some(q)
}

/// Whether `c` after a '<' in the data state starts markup (a tag, an end
/// tag, a markup declaration or a bogus comment), which ends a text run.
#[inline]
fn starts_markup(c: u8) -> bool {
    c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?')
}

impl Core {
    /// The two commonest tokens in the data state without the general
    /// machinery: a text run with nothing to decode that ends where markup
    /// starts, and a tag the fast tag path accepts. `None` leaves
    /// everything as it was (but the scratch space and attribute list,
    /// which every step starts by clearing) for [`Core::scan_states`].
    /// Only when errors are not reported.
    #[inline(always)]
    pub(super) fn fast_scan<const SKIP: bool>(
        &mut self,
        input: &str,
        at_eof: bool,
    ) -> Option<Built> {
        if self.mode != TextMode::Data || self.report {
            return None;
        }
        let b = input.as_bytes();
        let mut p = self.pos;
        loop {
            if *b.get(p)? == b'<' {
                // Tag open state / end tag open state, with a letter next.
                let (name_start, end) = match *b.get(p + 1)? {
                    c if c.is_ascii_alphabetic() => (p + 1, false),
                    b'/' if b.get(p + 2)?.is_ascii_alphabetic() => (p + 2, true),
                    _ => return None,
                };
                self.scratch.clear();
                self.attrs.clear();
                let mut run = Run {
                    input,
                    b,
                    at_eof,
                    core: self,
                };
                return match run.fast_tag(name_start, end) {
                    Ok(Attempt::Done(Scan::Built(built))) => Some(built),
                    _ => None,
                };
            }
            if !SKIP || !self.skip_text {
                break;
            }
            p = self.skip_data_text(b, p)?;
        }
        // Data state: a run of ordinary text up to a '<' that starts markup
        // (a tag open state that does not emit the '<' as text).
        let q = end_of_run::<byte_scan::Data>(b, p);
        match (b.get(q)?, b.get(q + 1)?) {
            (b'<', &c) if starts_markup(c) => {
                self.pos = q;
                Some(Built::Text(Acc::of_input(p, q)))
            }
            (b'\r', b'\n') if q == p => {
                let end = crlf_run_end(b, p)?;
                self.pos = end;
                Some(Built::Text(Acc::of_input(p + 1, end)))
            }
            _ => None,
        }
    }

    /// Data-state text at `p` left out (`Tokenizer::skip_data_text`): the
    /// run ends at the first '<' that starts markup, whatever comes before
    /// (character references and CRs only change the text). Moves the
    /// position there and returns it: the markup is the next token, taken
    /// by the fast path or the states. `None` (the position unchanged) for
    /// a run that reaches the end of the input, left to the states.
    #[inline(never)]
    fn skip_data_text(&mut self, b: &[u8], p: usize) -> Option<usize> {
        let mut q = p;
        loop {
            q += memchr::memchr(b'<', b.get(q..)?)?;
            if starts_markup(*b.get(q + 1)?) {
                break;
            }
            q += 1;
        }
        self.pos = q;
        Some(q)
    }

    /// A data-state text run with character references or newlines to
    /// normalize (which give it its own copy in scratch space), read
    /// without the general machinery; `None` as for [`Core::fast_scan`].
    pub(super) fn fast_text_decoded(&mut self, input: &str, at_eof: bool) -> Option<Built> {
        let b = input.as_bytes();
        let mut p = self.pos;
        self.scratch.clear();
        let mut text = Acc::new();
        loop {
            let q = end_of_run::<byte_scan::Data>(b, p);
            text.push_input(p, q, input, &mut self.scratch);
            p = match *b.get(q)? {
                b'<' => {
                    if starts_markup(*b.get(q + 1)?) {
                        self.pos = q;
                        return (!text.is_empty()).then_some(Built::Text(text));
                    }
                    // Tag open state, anything else: the '<' is text.
                    text.push_input(q, q + 1, input, &mut self.scratch);
                    q + 1
                }
                b'\r' => {
                    text.push_char('\n', input, &mut self.scratch);
                    match b.get(q + 1) {
                        Some(b'\n') => q + 2,
                        Some(_) => q + 1,
                        None if at_eof => q + 1,
                        None => return None,
                    }
                }
                _ => {
                    let mut run = Run {
                        input,
                        b,
                        at_eof,
                        core: self,
                    };
                    run.char_ref(q, &mut text, false).ok()?
                }
            };
        }
    }

    /// A comment `<!--…-->` read without the comment states: its data has
    /// no CR, NUL or `--!`, and does not start with `-` or `>` (the comment
    /// start states' cases). Inside such data every `<!`, `<!-`, `<!--` and
    /// lone `-` or `--` is literal text for the standard's states too (they
    /// only add parse errors), so the comment ends at the first `-->` and
    /// its data is everything before. `None` as for [`Core::fast_scan`].
    pub(super) fn fast_comment(&mut self, input: &str) -> Option<Built> {
        let b = input.as_bytes();
        let start = self.pos + 4;
        if b.get(self.pos..start)? != b"<!--" || matches!(b.get(start)?, b'-' | b'>') {
            return None;
        }
        let mut i = start;
        loop {
            let q = end_of_run::<byte_scan::CommentData>(b, i);
            if b.get(q)? != &b'-' {
                // CR or NUL.
                return None;
            }
            match (b.get(q + 1)?, b.get(q + 2)?) {
                (b'-', b'>') => {
                    self.pos = q + 3;
                    return Some(Built::Comment(Acc::of_input(start, q)));
                }
                (b'-', b'!') => return None,
                _ => i = q + 1,
            }
        }
    }
}
