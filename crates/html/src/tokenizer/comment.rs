//! Markup declarations and comments: the markup declaration open state
//! (which also recognises `<!DOCTYPE`, handed to `doctype.rs`, and
//! `<![CDATA[`, which switches to the CDATA section state of `text.rs`),
//! the bogus comment state, and the comment states — comment start,
//! comment start dash, comment, comment less-than sign (and its bang,
//! bang dash and bang dash dash states), comment end dash, comment end and
//! comment end bang.
//!
//! Another producer of the same tokens: `Core::fast_comment`
//! (`fast_path.rs`) reads a `<!--…-->` comment of the data state without
//! these states when errors are not reported; it accepts only comments
//! whose data these states would give unchanged, and leaves the rest here.
//! A change to the comment states must keep it in step.

use super::TextMode;
use super::run::{NeedMore, Peek, R, Run};
use super::step::{Built, Scan};
use crate::acc::Acc;
use crate::error::ErrorCode;

/// Comment states.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum CommentState {
    Start,
    StartDash,
    Comment,
    LessThan,
    LessThanBang,
    LessThanBangDash,
    LessThanBangDashDash,
    EndDash,
    End,
    EndBang,
}

impl<'a> Run<'a, '_> {
    // Tokenizer: markup declaration open state (after "<!")
    pub(super) fn markup_declaration_open(&mut self, p: usize) -> R<Scan> {
        if self.starts_with_at(p, b"--", false)? {
            return self.comment(p + 2);
        }
        if self.starts_with_at(p, b"DOCTYPE", true)? {
            return self.doctype(p + 7);
        }
        if self.starts_with_at(p, b"[CDATA[", false)? {
            let foreign = match &self.core.simulator {
                Some(sim) => sim.in_foreign_content(),
                None => self.core.cdata_allowed,
            };
            if foreign {
                self.core.mode = TextMode::CdataSection;
                self.core.pos = p + 7;
                return Ok(Scan::Nothing);
            }
            // Reported at the last character of "[CDATA[".
            self.err(ErrorCode::CdataInHtmlContent, p + 6);
            return self.bogus_comment(p);
        }
        self.err(ErrorCode::IncorrectlyOpenedComment, p);
        self.bogus_comment(p)
    }

    // Tokenizer: bogus comment state (data starts at `p`)
    pub(super) fn bogus_comment(&mut self, mut p: usize) -> R<Scan> {
        let mut acc = Acc::new();
        loop {
            let q = memchr::memchr3(b'>', b'\r', 0, &self.b[p..]).map_or(self.b.len(), |i| p + i);
            self.push(&mut acc, p, q);
            p = q;
            match self.peek(p) {
                Peek::More => return Err(NeedMore),
                Peek::Eof => {
                    self.core.pos = p;
                    return Ok(Scan::Built(Built::Comment(acc)));
                }
                Peek::Ascii(b'>', _) => {
                    self.core.pos = p + 1;
                    return Ok(Scan::Built(Built::Comment(acc)));
                }
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

    // Tokenizer: comment start state and the comment states (after "<!--")
    fn comment(&mut self, mut p: usize) -> R<Scan> {
        use CommentState as C;
        let mut acc = Acc::new();
        let mut st = C::Start;
        let done = |run: &mut Self, acc: Acc, end: usize| -> R<Scan> {
            run.core.pos = end;
            Ok(Scan::Built(Built::Comment(acc)))
        };
        loop {
            if st == C::Comment {
                let q = memchr::memchr3(b'-', b'<', b'\r', &self.b[p..])
                    .map_or(self.b.len(), |i| p + i);
                // NUL is rare in comments: check the run once.
                let q = match memchr::memchr(0, &self.b[p..q]) {
                    Some(i) => p + i,
                    None => q,
                };
                self.push(&mut acc, p, q);
                p = q;
            }
            let (c, len) = match self.peek(p) {
                Peek::More => return Err(NeedMore),
                Peek::Eof => {
                    // Every comment state ends the same way at EOF (those
                    // that reconsume get there too).
                    self.err(ErrorCode::EofInComment, p);
                    return done(self, acc, p);
                }
                Peek::Ascii(c, len) => (c, len),
                Peek::Other(len) => (0x80, len),
            };
            match st {
                C::Start => match c {
                    b'-' => {
                        st = C::StartDash;
                        p += 1;
                    }
                    b'>' => {
                        self.err(ErrorCode::AbruptClosingOfEmptyComment, p);
                        return done(self, acc, p + 1);
                    }
                    _ => st = C::Comment,
                },
                C::StartDash => match c {
                    b'-' => {
                        st = C::End;
                        p += 1;
                    }
                    b'>' => {
                        self.err(ErrorCode::AbruptClosingOfEmptyComment, p);
                        return done(self, acc, p + 1);
                    }
                    _ => {
                        self.push(&mut acc, p - 1, p);
                        st = C::Comment;
                    }
                },
                C::Comment => match c {
                    b'<' => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = C::LessThan;
                    }
                    b'-' => {
                        p += 1;
                        st = C::EndDash;
                    }
                    0 => {
                        self.err(ErrorCode::UnexpectedNullCharacter, p);
                        self.push_char(&mut acc, '\u{FFFD}');
                        p += 1;
                    }
                    _ => {
                        self.push_normalized(&mut acc, p, c, len);
                        p += len;
                    }
                },
                C::LessThan => match c {
                    b'!' => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                        st = C::LessThanBang;
                    }
                    b'<' => {
                        self.push(&mut acc, p, p + 1);
                        p += 1;
                    }
                    _ => st = C::Comment,
                },
                C::LessThanBang => {
                    if c == b'-' {
                        p += 1;
                        st = C::LessThanBangDash;
                    } else {
                        st = C::Comment;
                    }
                }
                C::LessThanBangDash => {
                    if c == b'-' {
                        p += 1;
                        st = C::LessThanBangDashDash;
                    } else {
                        // Reconsume in the comment end dash state: the dash
                        // consumed is pending there.
                        st = C::EndDash;
                    }
                }
                C::LessThanBangDashDash => {
                    if c != b'>' {
                        self.err(ErrorCode::NestedComment, p);
                    }
                    st = C::End;
                }
                C::EndDash => {
                    if c == b'-' {
                        p += 1;
                        st = C::End;
                    } else {
                        // Append the pending '-'.
                        self.push(&mut acc, p - 1, p);
                        st = C::Comment;
                    }
                }
                C::End => match c {
                    b'>' => return done(self, acc, p + 1),
                    b'!' => {
                        p += 1;
                        st = C::EndBang;
                    }
                    b'-' => {
                        // Append one '-' of the pending "--"; two stay pending.
                        self.push(&mut acc, p - 2, p - 1);
                        p += 1;
                    }
                    _ => {
                        self.push(&mut acc, p - 2, p);
                        st = C::Comment;
                    }
                },
                C::EndBang => match c {
                    b'-' => {
                        self.push(&mut acc, p - 3, p);
                        p += 1;
                        st = C::EndDash;
                    }
                    b'>' => {
                        self.err(ErrorCode::IncorrectlyClosedComment, p);
                        return done(self, acc, p + 1);
                    }
                    _ => {
                        self.push(&mut acc, p - 3, p);
                        st = C::Comment;
                    }
                },
            }
        }
    }
}
