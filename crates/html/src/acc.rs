//! Accumulating token text without copying when possible.
//!
//! An [`Acc`] collects one piece of token text (a text run, a name, a
//! value). While everything appended is an unchanged, contiguous range of
//! the input it stays a span of the input; the first change (a decoded
//! character reference, a normalized newline, a replaced NUL, a lower-cased
//! letter) copies what it has into the tokenizer's scratch buffer and
//! appends there from then on.
//!
//! Invariant: at most one `Acc` is *open* (being appended to) at a time, so
//! an owned `Acc` occupies one contiguous range of the scratch buffer.
//! Ranges appended from the input are always cut at char boundaries (the
//! tokenizer only stops on ASCII bytes).

use crate::token::Span;

#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Acc {
    start: usize,
    end: usize,
    owned: bool,
}

impl Acc {
    /// An empty accumulator.
    pub fn new() -> Acc {
        Acc::default()
    }

    /// The unchanged input bytes `from..to`.
    #[inline]
    pub fn of_input(from: usize, to: usize) -> Acc {
        Acc {
            start: from,
            end: to,
            owned: false,
        }
    }

    /// Whether nothing was appended.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// Appends the unchanged input bytes `from..to`. The span cases (an
    /// empty accumulator, or a range that continues it) are inline; copying
    /// into scratch space is not.
    #[inline]
    pub fn push_input(&mut self, from: usize, to: usize, input: &str, scratch: &mut String) {
        if !self.owned {
            if self.start == self.end {
                // Still empty when `from == to`.
                self.start = from;
                self.end = to;
                return;
            }
            if self.end == from {
                self.end = to;
                return;
            }
        }
        if from != to {
            self.push_copy(from, to, input, scratch);
        }
    }

    /// [`Acc::push_input`] when the text must be (or already is) a copy.
    #[inline(never)]
    fn push_copy(&mut self, from: usize, to: usize, input: &str, scratch: &mut String) {
        if !self.owned {
            self.make_owned(input, scratch);
        }
        scratch.push_str(&input[from..to]);
        self.end = scratch.len();
    }

    /// Appends the input bytes `from..to` ASCII-lower-cased.
    pub fn push_lowercased_input(
        &mut self,
        from: usize,
        to: usize,
        input: &str,
        scratch: &mut String,
    ) {
        if !self.owned {
            self.make_owned(input, scratch);
        }
        let start = scratch.len();
        scratch.push_str(&input[from..to]);
        scratch[start..].make_ascii_lowercase();
        self.end = scratch.len();
    }

    /// Appends a character that is not the input's own text.
    #[inline]
    pub fn push_char(&mut self, c: char, input: &str, scratch: &mut String) {
        if !self.owned {
            self.make_owned(input, scratch);
        }
        scratch.push(c);
        self.end = scratch.len();
    }

    /// Appends a string that is not the input's own text.
    pub fn push_str(&mut self, s: &str, input: &str, scratch: &mut String) {
        if !self.owned {
            self.make_owned(input, scratch);
        }
        scratch.push_str(s);
        self.end = scratch.len();
    }

    fn make_owned(&mut self, input: &str, scratch: &mut String) {
        let start = scratch.len();
        scratch.push_str(&input[self.start..self.end]);
        self.start = start;
        self.end = scratch.len();
        self.owned = true;
    }

    /// Where the text lives.
    #[inline]
    pub fn span(&self) -> Span {
        Span {
            start: self.start,
            end: self.end,
            in_scratch: self.owned,
        }
    }

    /// The text's bytes (no char-boundary checks).
    #[inline]
    pub fn bytes<'t>(&self, input: &'t str, scratch: &'t str) -> &'t [u8] {
        self.span().bytes(input, scratch)
    }

    /// The text.
    #[inline]
    pub fn get<'t>(&self, input: &'t str, scratch: &'t str) -> &'t str {
        self.span().get(input, scratch)
    }
}
