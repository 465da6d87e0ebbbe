//! Streaming: chunks of any size in, the same tokens out.
//!
//! The stream keeps one buffer holding the input from the start of the
//! first incomplete token on. Each feed appends the chunk and runs the core
//! until it needs more input; the consumed prefix is then dropped. A token
//! that is still incomplete is re-scanned from its start on a later feed —
//! but only once the buffer has grown to twice the incomplete part, so a
//! huge token fed in tiny chunks costs linear, not quadratic, time. Memory
//! is bounded by the largest token (times two), not by the document.

use crate::error::ParseError;
use crate::token::Token;
use crate::tokenizer::{Core, TokenizerOptions};

/// A tokenizer fed in chunks.
///
/// ```
/// use spinneret_html::{StreamTokenizer, Token, TokenizerOptions};
/// let mut names = Vec::new();
/// let mut t = StreamTokenizer::new(TokenizerOptions::default());
/// for chunk in ["<di", "v class=a>te", "xt</div>"] {
///     t.feed(chunk, |tok| if let Token::StartTag(tag) = tok { names.push(tag.name.as_str().to_owned()) });
/// }
/// t.finish(|_| {});
/// assert_eq!(names, ["div"]);
/// ```
pub struct StreamTokenizer {
    buf: String,
    core: Core,
    /// Don't re-run the core before the buffer reaches this length.
    retry_at: usize,
    finished: bool,
}

impl StreamTokenizer {
    /// A streaming tokenizer.
    pub fn new(options: TokenizerOptions) -> StreamTokenizer {
        StreamTokenizer {
            buf: String::new(),
            core: Core::new(&options),
            retry_at: 0,
            finished: false,
        }
    }

    /// Appends a chunk and passes every token completed by it to `sink`.
    pub fn feed(&mut self, chunk: &str, sink: impl FnMut(Token<'_>)) {
        assert!(!self.finished, "feed after finish");
        let global = self.core.base + self.buf.len();
        self.core.scan_stream_errors(chunk, global);
        self.buf.push_str(chunk);
        if self.buf.len() >= self.retry_at {
            self.run(false, sink);
        }
    }

    /// Ends the input and passes the remaining tokens to `sink`.
    pub fn finish(&mut self, sink: impl FnMut(Token<'_>)) {
        if !self.finished {
            self.run(true, sink);
            self.finished = true;
        }
    }

    /// The parse errors so far (when `report_errors` is on).
    pub fn errors(&self) -> &[ParseError] {
        self.core.errors()
    }

    fn run(&mut self, at_eof: bool, mut sink: impl FnMut(Token<'_>)) {
        let mut pending = None;
        loop {
            let Some(t) = self.core.step(&self.buf, at_eof) else {
                if self.core.needs_more {
                    pending = Some(self.buf.len() - self.core.pos);
                }
                break;
            };
            sink(t);
        }
        // Drop the consumed prefix.
        let consumed = self.core.pos;
        if consumed > 0 {
            self.core.before_drain(&self.buf, consumed);
            self.buf.drain(..consumed);
            self.core.base += consumed;
            self.core.pos = 0;
        }
        // Retry an incomplete token once the buffer holds twice as much.
        self.retry_at = pending.map_or(0, |n| (2 * n).max(n + 1));
    }
}
