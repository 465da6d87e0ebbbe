//! The "in template" insertion mode (§13.2.6.4.18) and its stack of
//! template insertion modes.

use super::{Flow, InsertionMode, Tok, TreeBuilder, TreeErrorKind, TreeSink};
use crate::names::LocalName as L;

impl<S: TreeSink> TreeBuilder<S> {
    /// The "in template" insertion mode.
    pub(crate) fn in_template<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        use InsertionMode as M;
        match token {
            Tok::Text(_) | Tok::Comment(_) | Tok::Doctype(_) => self.in_body(token),
            Tok::Start(tag) => {
                let mode = match tag.local() {
                    Some(
                        L::Base
                        | L::Basefont
                        | L::Bgsound
                        | L::Link
                        | L::Meta
                        | L::Noframes
                        | L::Script
                        | L::Style
                        | L::Template
                        | L::Title,
                    ) => return self.in_head(token),
                    Some(L::Caption | L::Colgroup | L::Tbody | L::Tfoot | L::Thead) => M::InTable,
                    Some(L::Col) => M::InColumnGroup,
                    Some(L::Tr) => M::InTableBody,
                    Some(L::Td | L::Th) => M::InRow,
                    _ => M::InBody,
                };
                // Replace the current template insertion mode, switch to
                // it and reprocess.
                self.state.template_modes.pop();
                self.state.template_modes.push(mode);
                self.state.mode = mode;
                Flow::Again(token)
            }
            Tok::End(tag) if tag.is(L::Template) => self.in_head(token),
            Tok::End(_) => {
                self.error(TreeErrorKind::UnexpectedEndTag);
                Flow::Done
            }
            Tok::Eof => {
                if !self.stack_has(L::Template) {
                    return Flow::Done;
                }
                self.error(TreeErrorKind::EofWithOpenElements);
                self.pop_until(L::Template);
                self.clear_formatting_to_marker();
                self.state.template_modes.pop();
                self.reset_insertion_mode();
                Flow::Again(token)
            }
        }
    }
}
