//! Text: the states that emit character tokens, coalesced into one text
//! run per token. The data state (with the tag open state's cases that
//! emit the `<` as text); the RCDATA and RAWTEXT states; the script data
//! state and its sub-states (script data less-than sign, escape start,
//! escape start dash, escaped, escaped dash, escaped dash dash, escaped
//! less-than sign, double escape start, double escaped, double escaped
//! dash, double escaped dash dash, double escaped less-than sign, double
//! escape end); the PLAINTEXT state; and the CDATA section, CDATA section
//! bracket and CDATA section end states. The less-than sign, end tag open
//! and end tag name states of RCDATA, RAWTEXT and script data are
//! [`Run::appropriate_end_tag_at`], a look-ahead for an appropriate end tag
//! (read by `tag.rs` from its name on); anything else there is text.
//!
//! Other producers of the same text tokens, in the data state only and only
//! when errors are not reported: `Core::fast_scan` (a run with nothing to
//! decode that ends where markup starts) and `Core::fast_text_decoded` (a
//! run with character references or CRs), both in `fast_path.rs`. A change
//! to where the data state ends a run, or to what it emits, must be made
//! there too. Character references are decoded by `char_ref.rs` for every
//! producer.

use super::TextMode;
use super::run::{NeedMore, Peek, R, Run, is_ws_after_newline_normalization};
use super::step::{Built, Scan};
use crate::acc::Acc;
use crate::byte_scan::{self, ENDS_DATA_CHECKED, end_of_run, end_of_run_in_class};
use crate::error::ErrorCode;

/// Script data sub-states within one text run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ScriptState {
    Data,
    EscapeStart,
    EscapeStartDash,
    Escaped,
    EscapedDash,
    EscapedDashDash,
    EscapedLessThan,
    DoubleEscapeStart,
    DoubleEscaped,
    DoubleEscapedDash,
    DoubleEscapedDashDash,
    DoubleEscapedLessThan,
    DoubleEscapeEnd,
}

impl<'a> Run<'a, '_> {
    /// The end of a text run: nothing more, or a text token.
    fn end_of_input(&mut self, acc: Acc, p: usize) -> R<Scan> {
        self.core.pos = p;
        Ok(if acc.is_empty() {
            Scan::End
        } else {
            Scan::Built(Built::Text(acc))
        })
    }

    /// The position of the next byte in `from..` that the data state must
    /// look at.
    #[inline]
    fn find_data_special(&self, from: usize) -> usize {
        if self.core.report {
            end_of_run_in_class(self.b, from, ENDS_DATA_CHECKED)
        } else {
            end_of_run::<byte_scan::Data>(self.b, from)
        }
    }

    // Tokenizer: data state
    pub(super) fn data(&mut self, start: usize) -> R<Scan> {
        let mut acc = Acc::new();
        let mut p = start;
        loop {
            let q = self.find_data_special(p);
            self.push(&mut acc, p, q);
            p = q;
            match self.peek(p) {
                Peek::Eof => return self.end_of_input(acc, p),
                Peek::More => return Err(NeedMore),
                Peek::Ascii(b'<', _) => match self.b.get(p + 1) {
                    None if !self.at_eof => return Err(NeedMore),
                    None => {
                        // Tag open state: EOF.
                        self.err(ErrorCode::EofBeforeTagName, p + 1);
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                    }
                    Some(&c) if c.is_ascii_alphabetic() || matches!(c, b'/' | b'!' | b'?') => {
                        if !acc.is_empty() {
                            return Ok(self.finish_text(acc, p));
                        }
                        return self.markup(p);
                    }
                    Some(_) => {
                        // Tag open state: anything else.
                        self.err(ErrorCode::InvalidFirstCharacterOfTagName, p + 1);
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                    }
                },
                Peek::Ascii(b'&', _) => p = self.char_ref(p, &mut acc, false)?,
                Peek::Ascii(b'\n', len) => {
                    self.push_char(&mut acc, '\n');
                    p += len;
                }
                Peek::Ascii(0, _) => {
                    self.err(ErrorCode::UnexpectedNullCharacter, p);
                    self.push(&mut acc, p, p + 1);
                    p += 1;
                }
                Peek::Ascii(_, len) | Peek::Other(len) => {
                    self.push(&mut acc, p, p + len);
                    p += len;
                }
            }
        }
    }

    // Tokenizer: RCDATA state / RAWTEXT state
    pub(super) fn rcdata_rawtext(&mut self, start: usize, rcdata: bool) -> R<Scan> {
        let mut acc = Acc::new();
        let mut p = start;
        loop {
            let q = if rcdata {
                end_of_run::<byte_scan::Rcdata>(self.b, p)
            } else {
                end_of_run::<byte_scan::Rawtext>(self.b, p)
            };
            self.push(&mut acc, p, q);
            p = q;
            match self.peek(p) {
                Peek::Eof => return self.end_of_input(acc, p),
                Peek::More => return Err(NeedMore),
                Peek::Ascii(b'<', _) => {
                    if self.appropriate_end_tag_at(p)? {
                        if !acc.is_empty() {
                            return Ok(self.finish_text(acc, p));
                        }
                        return self.special_end_tag(p);
                    }
                    self.push(&mut acc, p, p + 1);
                    p += 1;
                }
                Peek::Ascii(b'&', _) => p = self.char_ref(p, &mut acc, false)?,
                Peek::Ascii(b'\n', len) => {
                    self.push_char(&mut acc, '\n');
                    p += len;
                }
                Peek::Ascii(0, _) => {
                    self.err(ErrorCode::UnexpectedNullCharacter, p);
                    self.push_char(&mut acc, '\u{FFFD}');
                    p += 1;
                }
                Peek::Ascii(_, len) | Peek::Other(len) => {
                    self.push(&mut acc, p, p + len);
                    p += len;
                }
            }
        }
    }

    // Tokenizer: PLAINTEXT state
    pub(super) fn plaintext(&mut self, start: usize) -> R<Scan> {
        let mut acc = Acc::new();
        let mut p = start;
        loop {
            let q = memchr::memchr2(b'\r', 0, &self.b[p..]).map_or(self.b.len(), |i| p + i);
            self.push(&mut acc, p, q);
            p = q;
            match self.peek(p) {
                Peek::Eof => return self.end_of_input(acc, p),
                Peek::More => return Err(NeedMore),
                Peek::Ascii(b'\n', len) => {
                    self.push_char(&mut acc, '\n');
                    p += len;
                }
                Peek::Ascii(_, _) | Peek::Other(_) => {
                    self.err(ErrorCode::UnexpectedNullCharacter, p);
                    self.push_char(&mut acc, '\u{FFFD}');
                    p += 1;
                }
            }
        }
    }

    // Tokenizer: CDATA section state (+ bracket and end states)
    pub(super) fn cdata(&mut self, start: usize) -> R<Scan> {
        let mut acc = Acc::new();
        let mut p = start;
        loop {
            let q = memchr::memchr2(b']', b'\r', &self.b[p..]).map_or(self.b.len(), |i| p + i);
            self.push(&mut acc, p, q);
            p = q;
            match self.peek(p) {
                Peek::Eof => {
                    self.err(ErrorCode::EofInCdata, p);
                    // The end of input is handled: leave the section.
                    self.core.mode = TextMode::Data;
                    return self.end_of_input(acc, p);
                }
                Peek::More => return Err(NeedMore),
                Peek::Ascii(b'\n', len) => {
                    self.push_char(&mut acc, '\n');
                    p += len;
                }
                Peek::Ascii(b']', _) => {
                    // CDATA section bracket state / end state.
                    let mut q = p + 1;
                    match self.peek(q) {
                        Peek::More => return Err(NeedMore),
                        Peek::Ascii(b']', _) => {}
                        _ => {
                            self.push(&mut acc, p, p + 1);
                            p += 1;
                            continue;
                        }
                    }
                    // At least "]]": extra ']' are emitted.
                    q += 1;
                    loop {
                        match self.peek(q) {
                            Peek::More => return Err(NeedMore),
                            Peek::Ascii(b']', _) => q += 1,
                            Peek::Ascii(b'>', _) => {
                                self.push(&mut acc, p, q - 2);
                                self.core.mode = TextMode::Data;
                                return Ok(self.finish_text(acc, q + 1));
                            }
                            _ => break,
                        }
                    }
                    self.push(&mut acc, p, q);
                    p = q;
                }
                Peek::Ascii(_, len) | Peek::Other(len) => {
                    self.push(&mut acc, p, p + len);
                    p += len;
                }
            }
        }
    }

    /// Whether `<` at `p` starts an appropriate end tag: `</` + the last
    /// start tag's name (ASCII case-insensitive) + whitespace, `/` or `>`.
    fn appropriate_end_tag_at(&self, p: usize) -> R<bool> {
        match self.peek(p + 1) {
            Peek::More => return Err(NeedMore),
            Peek::Ascii(b'/', _) => {}
            _ => return Ok(false),
        }
        let Some(name) = self.core.last_start_tag.as_str() else {
            // No last start tag: no end tag is appropriate, but the name
            // must still be read to know that; nothing to wait for.
            return Ok(false);
        };
        let from = p + 2;
        for (i, want) in name.bytes().enumerate() {
            match self.b.get(from + i) {
                None if !self.at_eof => return Err(NeedMore),
                Some(&c) if c.to_ascii_lowercase() == want && c.is_ascii_alphabetic() => {}
                _ => return Ok(false),
            }
        }
        Ok(match self.peek(from + name.len()) {
            Peek::More => return Err(NeedMore),
            Peek::Ascii(c, _) => is_ws_after_newline_normalization(c) || c == b'/' || c == b'>',
            _ => false,
        })
    }

    /// An appropriate end tag in RCDATA, RAWTEXT or script data at `p`.
    fn special_end_tag(&mut self, p: usize) -> R<Scan> {
        self.tag(p + 2, true)
    }

    // Tokenizer: script data state and its escaped / double-escaped states
    pub(super) fn script_data(&mut self, start: usize) -> R<Scan> {
        use ScriptState as S;
        let mut acc = Acc::new();
        let mut p = start;
        let mut st = S::Data;
        // The temporary buffer of the double-escape states, only ever
        // compared with "script": how much of it matches, or None once it
        // cannot.
        let mut temp: Option<usize> = Some(0);
        loop {
            // Runs of bytes the current sub-state emits unchanged.
            let run_end = match st {
                S::Data => Some(end_of_run::<byte_scan::ScriptData>(self.b, p)),
                S::Escaped | S::DoubleEscaped => {
                    Some(end_of_run::<byte_scan::ScriptEscaped>(self.b, p))
                }
                _ => None,
            };
            if let Some(q) = run_end {
                self.push(&mut acc, p, q);
                p = q;
            }
            let (c, len) = match self.peek(p) {
                Peek::More => return Err(NeedMore),
                Peek::Eof => {
                    if !matches!(st, S::Data | S::EscapeStart | S::EscapeStartDash) {
                        self.err(ErrorCode::EofInScriptHtmlCommentLikeText, p);
                    }
                    return self.end_of_input(acc, p);
                }
                Peek::Ascii(c, len) => (c, len),
                Peek::Other(len) => (0x80, len),
            };
            // NUL and CR are handled the same way in every sub-state that
            // emits them; states that reconsume fall through first.
            let emit = |run: &mut Self, acc: &mut Acc| {
                if c == 0 {
                    run.err(ErrorCode::UnexpectedNullCharacter, p);
                    run.push_char(acc, '\u{FFFD}');
                } else {
                    run.push_normalized(acc, p, c, len);
                }
            };
            match st {
                S::Data => {
                    if c == b'<' {
                        // Script data less-than sign state, decided by
                        // looking one byte ahead.
                        match self.peek(p + 1) {
                            Peek::More => return Err(NeedMore),
                            Peek::Ascii(b'/', _) => {
                                if self.appropriate_end_tag_at(p)? {
                                    if !acc.is_empty() {
                                        return Ok(self.finish_text(acc, p));
                                    }
                                    return self.special_end_tag(p);
                                }
                                self.push(&mut acc, p, p + 2);
                                p += 2;
                                st = S::Data;
                            }
                            Peek::Ascii(b'!', _) => {
                                self.push(&mut acc, p, p + 2);
                                p += 2;
                                st = S::EscapeStart;
                            }
                            _ => {
                                self.push(&mut acc, p, p + 1);
                                p += 1;
                                st = S::Data;
                            }
                        }
                        continue;
                    }
                    emit(self, &mut acc);
                    p += len;
                }
                S::EscapeStart | S::EscapeStartDash => {
                    if c == b'-' {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = if st == S::EscapeStart {
                            S::EscapeStartDash
                        } else {
                            S::EscapedDashDash
                        };
                    } else {
                        st = S::Data;
                    }
                }
                S::Escaped | S::EscapedDash | S::EscapedDashDash => match c {
                    b'-' => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = match st {
                            S::Escaped => S::EscapedDash,
                            _ => S::EscapedDashDash,
                        };
                    }
                    b'<' => st = S::EscapedLessThan,
                    b'>' if st == S::EscapedDashDash => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = S::Data;
                    }
                    _ => {
                        emit(self, &mut acc);
                        p += len;
                        st = S::Escaped;
                    }
                },
                S::EscapedLessThan => {
                    // `p` is at '<'.
                    match self.peek(p + 1) {
                        Peek::More => return Err(NeedMore),
                        Peek::Ascii(b'/', _) => {
                            if self.appropriate_end_tag_at(p)? {
                                if !acc.is_empty() {
                                    return Ok(self.finish_text(acc, p));
                                }
                                return self.special_end_tag(p);
                            }
                            self.push(&mut acc, p, p + 2);
                            p += 2;
                            st = S::Escaped;
                        }
                        Peek::Ascii(a, _) if a.is_ascii_alphabetic() => {
                            self.push(&mut acc, p, p + 1);
                            p += 1;
                            temp = Some(0);
                            st = S::DoubleEscapeStart;
                        }
                        _ => {
                            self.push(&mut acc, p, p + 1);
                            p += 1;
                            st = S::Escaped;
                        }
                    }
                }
                S::DoubleEscapeStart | S::DoubleEscapeEnd => {
                    if is_ws_after_newline_normalization(c) || c == b'/' || c == b'>' {
                        let is_script = temp == Some(6);
                        st = match (st, is_script) {
                            (S::DoubleEscapeStart, true) => S::DoubleEscaped,
                            (S::DoubleEscapeStart, false) => S::Escaped,
                            (_, true) => S::Escaped,
                            (_, false) => S::DoubleEscaped,
                        };
                        self.push_normalized(&mut acc, p, c, len);
                        p += len;
                    } else if c.is_ascii_alphabetic() {
                        temp = temp.and_then(|n| {
                            (n < 6 && b"script"[n] == c.to_ascii_lowercase()).then_some(n + 1)
                        });
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                    } else {
                        st = if st == S::DoubleEscapeStart {
                            S::Escaped
                        } else {
                            S::DoubleEscaped
                        };
                    }
                }
                S::DoubleEscaped | S::DoubleEscapedDash | S::DoubleEscapedDashDash => match c {
                    b'-' => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = match st {
                            S::DoubleEscaped => S::DoubleEscapedDash,
                            _ => S::DoubleEscapedDashDash,
                        };
                    }
                    b'<' => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = S::DoubleEscapedLessThan;
                    }
                    b'>' if st == S::DoubleEscapedDashDash => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = S::Data;
                    }
                    _ => {
                        emit(self, &mut acc);
                        p += len;
                        st = S::DoubleEscaped;
                    }
                },
                S::DoubleEscapedLessThan => {
                    if c == b'/' {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        temp = Some(0);
                        st = S::DoubleEscapeEnd;
                    } else {
                        st = S::DoubleEscaped;
                    }
                }
            }
        }
    }
}
