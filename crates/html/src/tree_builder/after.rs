//! The insertion modes after the body and for framesets (§13.2.6.4.19 to
//! §13.2.6.4.23): after body, in frameset, after frameset, after after
//! body and after after frameset.

use super::head::{Spaces, split_spaces};
use super::{Flow, InsertionMode, Tok, TreeBuilder, TreeErrorKind, TreeSink, is_space, split_text};
use crate::names::LocalName as L;
use crate::token::TokenText;

impl<S: TreeSink> TreeBuilder<S> {
    /// The "after body" insertion mode.
    pub(crate) fn after_body<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => match split_spaces(t) {
                Spaces::All(_) => self.in_body(token),
                Spaces::Then(ws, rest) => {
                    self.in_body(Tok::Text(ws));
                    self.after_body_else(Tok::Text(rest))
                }
            },
            Tok::Comment(c) => {
                if let Some(root) = self.state.open.first() {
                    let root = root.node;
                    self.append_comment_to(root, c);
                }
                Flow::Done
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) if tag.is(L::Html) => self.in_body(token),
            Tok::End(tag) if tag.is(L::Html) => {
                if self.state.context.is_some() {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                } else {
                    self.state.mode = InsertionMode::AfterAfterBody;
                }
                Flow::Done
            }
            Tok::Eof => Flow::Done,
            _ => self.after_body_else(token),
        }
    }

    fn after_body_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.error(TreeErrorKind::UnexpectedStartTag);
        self.state.mode = InsertionMode::InBody;
        Flow::Again(token)
    }

    /// Inserts the whitespace characters of `t` (dropping the others, a
    /// parse error), as the frameset modes do.
    fn insert_spaces_only(&mut self, t: TokenText<'_>) {
        if !t.as_str().bytes().all(is_space) {
            self.error(TreeErrorKind::UnexpectedText);
        }
        for spaces in space_runs(t) {
            self.insert_text(spaces);
        }
    }

    /// The "in frameset" insertion mode.
    pub(crate) fn in_frameset<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => self.insert_spaces_only(t),
            Tok::Comment(c) => self.insert_comment(c),
            Tok::Doctype(_) => self.error(TreeErrorKind::UnexpectedDoctype),
            Tok::Start(tag) => match tag.local() {
                Some(L::Html) => return self.in_body(token),
                Some(L::Frameset) => {
                    self.insert_html_element(&tag);
                }
                Some(L::Frame) => {
                    self.insert_html_element(&tag);
                    self.pop();
                }
                Some(L::Noframes) => return self.in_head(token),
                _ => self.error(TreeErrorKind::UnexpectedStartTag),
            },
            Tok::End(tag) if tag.is(L::Frameset) => {
                if self.state.open.len() <= 1 {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.pop();
                if self.state.context.is_none() && !self.current_is(L::Frameset) {
                    self.state.mode = InsertionMode::AfterFrameset;
                }
            }
            Tok::End(_) => self.error(TreeErrorKind::UnexpectedEndTag),
            Tok::Eof => {
                if self.state.open.len() > 1 {
                    self.error(TreeErrorKind::EofWithOpenElements);
                }
            }
        }
        Flow::Done
    }

    /// The "after frameset" insertion mode.
    pub(crate) fn after_frameset<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => self.insert_spaces_only(t),
            Tok::Comment(c) => self.insert_comment(c),
            Tok::Doctype(_) => self.error(TreeErrorKind::UnexpectedDoctype),
            Tok::Start(tag) if tag.is(L::Html) => return self.in_body(token),
            Tok::End(tag) if tag.is(L::Html) => self.state.mode = InsertionMode::AfterAfterFrameset,
            Tok::Start(tag) if tag.is(L::Noframes) => return self.in_head(token),
            Tok::Eof => {}
            Tok::Start(_) => self.error(TreeErrorKind::UnexpectedStartTag),
            Tok::End(_) => self.error(TreeErrorKind::UnexpectedEndTag),
        }
        Flow::Done
    }

    /// The "after after body" insertion mode.
    pub(crate) fn after_after_body<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Comment(c) => {
                let doc = self.sink.document();
                self.append_comment_to(doc, c);
                Flow::Done
            }
            Tok::Doctype(_) => self.in_body(token),
            Tok::Text(t) => match split_spaces(t) {
                Spaces::All(_) => self.in_body(token),
                Spaces::Then(ws, rest) => {
                    self.in_body(Tok::Text(ws));
                    self.after_after_body_else(Tok::Text(rest))
                }
            },
            Tok::Start(tag) if tag.is(L::Html) => self.in_body(token),
            Tok::Eof => Flow::Done,
            _ => self.after_after_body_else(token),
        }
    }

    fn after_after_body_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.error(TreeErrorKind::UnexpectedStartTag);
        self.state.mode = InsertionMode::InBody;
        Flow::Again(token)
    }

    /// The "after after frameset" insertion mode.
    pub(crate) fn after_after_frameset<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Comment(c) => {
                let doc = self.sink.document();
                self.append_comment_to(doc, c);
                Flow::Done
            }
            Tok::Doctype(_) => self.in_body(token),
            Tok::Text(t) => {
                // Whitespace by the in body rules; other text ignored.
                if !t.as_str().bytes().all(is_space) {
                    self.error(TreeErrorKind::UnexpectedText);
                }
                for spaces in space_runs(t) {
                    self.in_body(Tok::Text(spaces));
                }
                Flow::Done
            }
            Tok::Start(tag) if tag.is(L::Html) => self.in_body(token),
            Tok::Start(tag) if tag.is(L::Noframes) => self.in_head(token),
            Tok::Eof => Flow::Done,
            _ => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                Flow::Done
            }
        }
    }
}

/// The runs of whitespace in `t`, in order (with their input offsets).
fn space_runs(t: TokenText<'_>) -> impl Iterator<Item = TokenText<'_>> {
    let mut rest = t;
    std::iter::from_fn(move || {
        let r = rest.as_str();
        let start = r.bytes().position(is_space)?;
        let after = split_text(rest, start).1;
        let len = after
            .as_str()
            .bytes()
            .position(|b| !is_space(b))
            .unwrap_or(after.as_str().len());
        let (spaces, next) = split_text(after, len);
        rest = next;
        Some(spaces)
    })
}
