//! The end tags of the "in body" insertion mode (§13.2.6.4.7).

use super::tag_sets::{Scope, is_heading};
use super::{Flow, InsertionMode, TagTok, Tok, TreeBuilder, TreeErrorKind, TreeSink};
use crate::names::LocalName as L;
use crate::token::Name;

impl<S: TreeSink> TreeBuilder<S> {
    pub(crate) fn in_body_end<'t>(&mut self, tag: TagTok<'t>, token: Tok<'t>) -> Flow<'t> {
        let Some(name) = tag.local() else {
            self.any_other_end_tag(tag.name);
            return Flow::Done;
        };
        match name {
            L::Template => return self.in_head(token),
            L::Body | L::Html => {
                if !self.in_scope(L::Body, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.check_open_at_eof();
                self.state.mode = InsertionMode::AfterBody;
                if name == L::Html {
                    return Flow::Again(token);
                }
            }
            L::Address
            | L::Article
            | L::Aside
            | L::Blockquote
            | L::Button
            | L::Center
            | L::Details
            | L::Dialog
            | L::Dir
            | L::Div
            | L::Dl
            | L::Fieldset
            | L::Figcaption
            | L::Figure
            | L::Footer
            | L::Header
            | L::Hgroup
            | L::Listing
            | L::Main
            | L::Menu
            | L::Nav
            | L::Ol
            | L::Pre
            | L::Search
            | L::Section
            | L::Select
            | L::Summary
            | L::Ul => {
                if !self.in_scope(name, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(name) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.pop_until(name);
            }
            L::Form => {
                if !self.stack_has(L::Template) {
                    let Some(form) = self.state.form.take() else {
                        self.error(TreeErrorKind::UnexpectedEndTag);
                        return Flow::Done;
                    };
                    let at = self.stack_position(form, L::Form);
                    if !at.is_some_and(|at| self.state.open.in_default_scope(at)) {
                        self.error(TreeErrorKind::UnexpectedEndTag);
                        return Flow::Done;
                    }
                    self.generate_implied_end_tags(None);
                    if self.current().is_none_or(|o| o.node != form) {
                        self.error(TreeErrorKind::UnexpectedEndTag);
                    }
                    self.remove_from_stack(form, L::Form);
                } else {
                    if !self.in_scope(L::Form, Scope::Default) {
                        self.error(TreeErrorKind::UnexpectedEndTag);
                        return Flow::Done;
                    }
                    self.generate_implied_end_tags(None);
                    if !self.current_is(L::Form) {
                        self.error(TreeErrorKind::UnexpectedEndTag);
                    }
                    self.pop_until(L::Form);
                }
            }
            L::P => {
                if !self.in_scope(L::P, Scope::Button) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    self.insert_implied(L::P);
                }
                self.close_p();
            }
            L::Li => {
                if !self.in_scope(L::Li, Scope::ListItem) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(Some(L::Li));
                if !self.current_is(L::Li) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.pop_until(L::Li);
            }
            L::Dd | L::Dt => {
                if !self.in_scope(name, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(Some(name));
                if !self.current_is(name) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.pop_until(name);
            }
            L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6 => {
                if !self.in_scope_any(&[L::H1, L::H2, L::H3, L::H4, L::H5, L::H6], Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(name) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.pop_until_by(|e| is_heading(e.html_name()));
            }
            L::A
            | L::B
            | L::Big
            | L::Code
            | L::Em
            | L::Font
            | L::I
            | L::Nobr
            | L::S
            | L::Small
            | L::Strike
            | L::Strong
            | L::Tt
            | L::U => {
                if self.adoption_agency(name) {
                    self.any_other_end_tag(tag.name);
                }
            }
            L::Applet | L::Marquee | L::Object => {
                if !self.in_scope(name, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(name) {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.pop_until(name);
                self.clear_formatting_to_marker();
            }
            L::Br => {
                self.error(TreeErrorKind::UnexpectedEndTag);
                let br = TagTok {
                    name: Name::Known(L::Br),
                    attrs: super::TagAttrs::empty(),
                    self_closing: false,
                };
                return self.in_body(Tok::Start(br));
            }
            _ => self.any_other_end_tag(tag.name),
        }
        Flow::Done
    }

    /// The in body rule for "any other end tag".
    pub(crate) fn any_other_end_tag(&mut self, name: Name<'_>) {
        let Some(key) = self
            .existing_key(name)
            .filter(|&key| self.state.open.count_of(key) > 0)
        else {
            // No open element has this name; the loop would reach a
            // special element (the html root at the latest) and ignore
            // the tag.
            self.error(TreeErrorKind::UnexpectedEndTag);
            return;
        };
        // The walk down from the current node meets the topmost HTML
        // element with the name first, unless a special element is above
        // it (an element that is both is the one it matches).
        let open = &self.state.open;
        match open.top_html_key(key) {
            Some(i) if open.top_special().is_none_or(|s| s <= i) => {
                self.generate_implied_end_tags(key.local());
                if self.state.open.len() - 1 != i {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                }
                self.state.open.truncate(i);
            }
            _ => self.error(TreeErrorKind::UnexpectedEndTag),
        }
    }
}
