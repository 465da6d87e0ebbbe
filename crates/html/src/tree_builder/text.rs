//! The "text" insertion mode (§13.2.6.4.8): the contents of `script`,
//! `style`, `title`, `textarea` and the other raw text and RCDATA
//! elements. Scripts are never run.

use super::{Flow, Tok, TreeBuilder, TreeErrorKind, TreeSink};

impl<S: TreeSink> TreeBuilder<S> {
    /// The "text" insertion mode.
    pub(crate) fn text<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => {
                self.insert_text(t);
                Flow::Done
            }
            Tok::Eof => {
                self.error(TreeErrorKind::EofWithOpenElements);
                self.pop();
                self.state.mode = self.state.original_mode;
                Flow::Again(token)
            }
            Tok::End(_) => {
                self.pop();
                self.state.mode = self.state.original_mode;
                Flow::Done
            }
            // The tokenizer emits only text and end tags in these modes.
            _ => Flow::Done,
        }
    }
}
