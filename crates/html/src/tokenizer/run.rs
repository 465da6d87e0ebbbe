//! One scan from a token boundary: [`Run`], the cursor the spec states
//! share, and what they read the input through.
//!
//! [`Run::peek`] is where input preprocessing happens for the states: it
//! normalizes newlines (a CR, or CRLF, is seen as one LF) and tells the
//! end of the input from the end of the buffer ([`Peek::More`], on which
//! a state returns [`NeedMore`] so the step can be retried with more
//! input). [`Run::scan`] dispatches on the text mode to the states of
//! `text.rs`, which hand markup to `tag.rs`, `comment.rs` and `doctype.rs`.

use super::TextMode;
use super::step::{Built, Core, Scan};
use crate::acc::Acc;
use crate::error::ErrorCode;

/// One scan from a token boundary over the current buffer.
pub(super) struct Run<'a, 'c> {
    /// The buffer; positions are offsets in it, and the token being read
    /// starts at the core's `pos`.
    pub(super) input: &'a str,
    /// `input`'s bytes.
    pub(super) b: &'a [u8],
    /// Whether the buffer ends where the input ends (no more will come).
    pub(super) at_eof: bool,
    /// The core whose token is being read.
    pub(super) core: &'c mut Core,
}

/// Early exit from a scan when the buffer ends mid-token.
pub(super) struct NeedMore;

/// What a state returns: its result, or [`NeedMore`].
pub(super) type R<T> = Result<T, NeedMore>;

#[inline]
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// Whitespace as the tokenizer states see it: tab, LF, FF and space. CR is
/// not among them because input preprocessing normalizes newlines (CR and
/// CRLF become LF) before tokenization; here [`Run::peek`] does it, so a
/// state never sees a CR.
#[inline]
pub(super) fn is_ws_after_newline_normalization(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

/// The byte at `p` as the tokenizer sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Peek {
    /// End of input (the real end).
    Eof,
    /// End of the buffer; more input may come.
    More,
    /// An ASCII byte (CR already normalized to LF) and how many input bytes
    /// it takes (2 for CRLF).
    Ascii(u8, usize),
    /// A non-ASCII character and its UTF-8 length.
    Other(usize),
}

impl<'a> Run<'a, '_> {
    #[inline]
    pub(super) fn peek(&self, p: usize) -> Peek {
        match self.b.get(p) {
            None => {
                if self.at_eof {
                    Peek::Eof
                } else {
                    Peek::More
                }
            }
            Some(b'\r') => match self.b.get(p + 1) {
                Some(b'\n') => Peek::Ascii(b'\n', 2),
                Some(_) => Peek::Ascii(b'\n', 1),
                None if self.at_eof => Peek::Ascii(b'\n', 1),
                None => Peek::More,
            },
            Some(&c) if c < 0x80 => Peek::Ascii(c, 1),
            Some(&c) => Peek::Other(utf8_len(c)),
        }
    }

    #[inline]
    pub(super) fn err(&mut self, code: ErrorCode, p: usize) {
        if self.core.report {
            self.core.push_error(self.input, code, p);
        }
    }

    #[inline]
    pub(super) fn push(&mut self, acc: &mut Acc, from: usize, to: usize) {
        acc.push_input(from, to, self.input, &mut self.core.scratch);
    }

    #[inline]
    pub(super) fn push_char(&mut self, acc: &mut Acc, c: char) {
        acc.push_char(c, self.input, &mut self.core.scratch);
    }

    /// Appends the character at `p` (of source length `len`, normalized
    /// byte `c`) to `acc`: CR/CRLF become LF.
    #[inline]
    pub(super) fn push_normalized(&mut self, acc: &mut Acc, p: usize, c: u8, len: usize) {
        if c == b'\n' && self.b[p] == b'\r' {
            self.push_char(acc, '\n');
        } else {
            self.push(acc, p, p + len);
        }
    }

    pub(super) fn finish_text(&mut self, acc: Acc, p: usize) -> Scan {
        self.core.pos = p;
        if acc.is_empty() {
            Scan::Nothing
        } else {
            Scan::Built(Built::Text(acc))
        }
    }

    #[inline(never)]
    pub(super) fn scan(&mut self, start: usize) -> Scan {
        let r = match self.core.mode {
            TextMode::Data => self.data(start),
            TextMode::Rcdata => self.rcdata_rawtext(start, true),
            TextMode::Rawtext => self.rcdata_rawtext(start, false),
            TextMode::ScriptData => self.script_data(start),
            TextMode::Plaintext => self.plaintext(start),
            TextMode::CdataSection => self.cdata(start),
        };
        match r {
            Ok(Scan::Nothing) if start == self.b.len() && self.at_eof && self.core.pos == start => {
                Scan::End
            }
            Ok(s) => s,
            Err(NeedMore) => Scan::NeedMore,
        }
    }
}

impl<'a> Run<'a, '_> {
    /// Whether the input at `p` starts with `word` (ASCII case-insensitive
    /// when `fold`), waiting for more input when it cannot tell yet.
    pub(super) fn starts_with_at(&self, p: usize, word: &[u8], fold: bool) -> R<bool> {
        for (i, &w) in word.iter().enumerate() {
            match self.b.get(p + i) {
                None if !self.at_eof => return Err(NeedMore),
                None => return Ok(false),
                Some(&c) => {
                    let same = if fold {
                        c.eq_ignore_ascii_case(&w)
                    } else {
                        c == w
                    };
                    if !same {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }
}
