//! Recording parse errors: errors the states find (pushed with their
//! position as they are found), and input-stream errors (control
//! characters and noncharacters, which the standard reports while
//! preprocessing the input stream) found by a pre-scan of each new piece of
//! input and merged in offset order as each token completes. A step that
//! needs more input drops the errors of its partial token, so every error
//! is recorded once whatever the chunking.

use super::Core;
use crate::error::{ErrorCode, ParseError};

impl Core {
    /// The parse errors so far.
    pub(crate) fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// Pre-scan of newly available input for input-stream errors, at global
    /// offsets starting at `base_offset`.
    pub(crate) fn scan_stream_errors(&mut self, text: &str, base_offset: usize) {
        if !self.report {
            return;
        }
        for (i, c) in text.char_indices() {
            let v = c as u32;
            let code = if (0x01..=0x08).contains(&v)
                || v == 0x0B
                || (0x0E..=0x1F).contains(&v)
                || (0x7F..=0x9F).contains(&v)
            {
                ErrorCode::ControlCharacterInInputStream
            } else if (0xFDD0..=0xFDEF).contains(&v) || (v & 0xFFFE) == 0xFFFE {
                ErrorCode::NoncharacterInInputStream
            } else {
                continue;
            };
            self.stream_errors.push_back((base_offset + i, code));
        }
    }

    pub(super) fn push_error(&mut self, input: &str, code: ErrorCode, offset: usize) {
        let global = self.base + offset;
        let lc = self.line_col_at(input, global);
        self.errors.push(ParseError {
            code,
            line: lc.line,
            col: lc.col,
            offset: global,
        });
    }

    /// Merges queued input-stream errors before global offset `upto` into
    /// the errors of the token just completed (which start at `first`).
    pub(super) fn merge_stream_errors(&mut self, input: &str, first: usize, upto: usize) {
        if self.stream_errors.is_empty() {
            return;
        }
        let mut merged: Vec<ParseError> = Vec::new();
        let tail: Vec<ParseError> = self.errors.drain(first..).collect();
        let mut tail = tail.into_iter().peekable();
        while let Some(&(off, code)) = self.stream_errors.front() {
            if off >= upto {
                break;
            }
            self.stream_errors.pop_front();
            while let Some(e) = tail.peek() {
                if e.offset < off {
                    merged.push(tail.next().expect("peeked"));
                } else {
                    break;
                }
            }
            let lc = self.line_col_at(input, off);
            merged.push(ParseError {
                code,
                line: lc.line,
                col: lc.col,
                offset: off,
            });
        }
        merged.extend(tail);
        self.errors.extend(merged);
    }
}
