//! Line and column tracking, for the positions of parse errors (only when
//! errors are reported).
//!
//! Positions are those of the standard's input stream after newline
//! normalization: CRLF and CR are one newline, and columns count UTF-16 code
//! units (as the html5lib tests and JavaScript do). Nothing is counted
//! until an error needs a position: the core keeps the position of the
//! current token's start ([`Core::lc`](super::Core)) and of the last error,
//! and advances from whichever is nearer, so a token with many errors
//! stays linear. Not a spec algorithm; no state depends on it.

use super::Core;

/// Line/column bookkeeping for error positions (only when reporting).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct LineCol {
    /// Global byte offset of the position.
    offset: usize,
    /// 1-based line.
    pub(super) line: u32,
    /// 1-based column, in UTF-16 code units.
    pub(super) col: u32,
    /// Whether the character before was a CR (so an LF here is the same
    /// newline).
    after_cr: bool,
}

impl LineCol {
    pub(super) fn start() -> LineCol {
        LineCol {
            offset: 0,
            line: 1,
            col: 1,
            after_cr: false,
        }
    }

    /// Advances over `text` (which starts at `self.offset`).
    fn advance(&mut self, text: &str) {
        for c in text.chars() {
            match c {
                '\n' if self.after_cr => {}
                '\n' | '\r' => {
                    self.line += 1;
                    self.col = 1;
                }
                _ => self.col += c.len_utf16() as u32,
            }
            self.after_cr = c == '\r';
        }
        self.offset += text.len();
    }
}

impl Core {
    /// Moves the line/column tracker to global offset `to` over `input`
    /// (the current buffer).
    pub(super) fn track_to(&mut self, input: &str, to: usize) {
        if to > self.lc.offset {
            let from = self.lc.offset - self.base;
            let end = to - self.base;
            self.lc.advance(&input[from..end]);
        }
    }

    /// Called by the stream before it drops `n` consumed bytes from the
    /// front of its buffer.
    pub(crate) fn before_drain(&mut self, input: &str, n: usize) {
        if self.report {
            self.track_to(input, self.base + n);
        }
    }

    /// The line/column at global offset `global`, counted from the last
    /// error's position when that is on the way (errors within a token come
    /// in order, so a token with many errors stays linear), else from the
    /// token's start.
    pub(super) fn line_col_at(&mut self, input: &str, global: usize) -> LineCol {
        let mut lc = if self.err_lc.offset <= global && self.err_lc.offset >= self.lc.offset {
            self.err_lc
        } else {
            self.lc
        };
        if global >= lc.offset {
            let from = lc.offset - self.base;
            lc.advance(&input[from..global - self.base]);
        }
        self.err_lc = lc;
        lc
    }
}
