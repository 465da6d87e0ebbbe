//! The "in body" insertion mode (§13.2.6.4.7): text, comments and start
//! tags (its end tags are in `body_end.rs`).
//!
//! `select`, `option`, `optgroup`, `hr` and `input` follow the 2025
//! revision of the standard, which parses select contents here.

use super::tag_sets::{Scope, is_heading};
use super::{Flow, InsertionMode, TagTok, Tok, TreeBuilder, TreeErrorKind, TreeSink, is_space};
use crate::TextMode;
use crate::names::LocalName as L;
use crate::namespace::Namespace;
use crate::token::Name;

impl<S: TreeSink> TreeBuilder<S> {
    /// The "in body" insertion mode.
    pub(crate) fn in_body<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => {
                let s = t.as_str();
                if s.bytes().all(|b| b == 0) {
                    self.error(TreeErrorKind::UnexpectedNull);
                    return Flow::Done;
                }
                self.reconstruct_formatting();
                self.insert_text_without_nulls(t);
                if self.state.frameset_ok && s.bytes().any(|b| !is_space(b) && b != 0) {
                    self.state.frameset_ok = false;
                }
                Flow::Done
            }
            Tok::Comment(c) => {
                self.insert_comment(c);
                Flow::Done
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) => self.in_body_start(tag, token),
            Tok::End(tag) => self.in_body_end(tag, token),
            Tok::Eof => {
                if !self.state.template_modes.is_empty() {
                    return self.in_template(token);
                }
                self.check_open_at_eof();
                Flow::Done
            }
        }
    }

    /// The parse error for elements left open at the end (or at
    /// `</body>`).
    pub(crate) fn check_open_at_eof(&mut self) {
        let bad = self.state.open.iter().any(|o| {
            !matches!(
                o.info.html_name(),
                Some(
                    L::Dd
                        | L::Dt
                        | L::Li
                        | L::Optgroup
                        | L::Option
                        | L::P
                        | L::Rb
                        | L::Rp
                        | L::Rt
                        | L::Rtc
                        | L::Tbody
                        | L::Td
                        | L::Tfoot
                        | L::Th
                        | L::Thead
                        | L::Tr
                        | L::Body
                        | L::Html
                )
            )
        });
        if bad {
            self.error(TreeErrorKind::EofWithOpenElements);
        }
    }

    fn in_body_start<'t>(&mut self, tag: TagTok<'t>, token: Tok<'t>) -> Flow<'t> {
        let Some(name) = tag.local() else {
            self.reconstruct_formatting();
            self.insert_html_element(&tag);
            return Flow::Done;
        };
        match name {
            L::Html => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                if !self.stack_has(L::Template)
                    && let Some(root) = self.state.open.first()
                {
                    let root = root.node;
                    self.sink.add_attrs_if_missing(root, tag.attrs);
                }
            }
            L::Base
            | L::Basefont
            | L::Bgsound
            | L::Link
            | L::Meta
            | L::Noframes
            | L::Script
            | L::Style
            | L::Template
            | L::Title => return self.in_head(token),
            L::Body => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                let second = self.state.open.second().copied();
                if let Some(body) = second.filter(|o| o.is_html(L::Body))
                    && !self.stack_has(L::Template)
                {
                    self.state.frameset_ok = false;
                    let body = body.node;
                    self.sink.add_attrs_if_missing(body, tag.attrs);
                }
            }
            L::Frameset => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                let second = self.state.open.second().copied();
                if let Some(body) = second.filter(|o| o.is_html(L::Body))
                    && self.state.frameset_ok
                {
                    let body = body.node;
                    self.sink.detach(body);
                    self.state.open.truncate(1);
                    self.insert_html_element(&tag);
                    self.state.mode = InsertionMode::InFrameset;
                }
            }
            L::Address
            | L::Article
            | L::Aside
            | L::Blockquote
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
            | L::Main
            | L::Menu
            | L::Nav
            | L::Ol
            | L::P
            | L::Search
            | L::Section
            | L::Summary
            | L::Ul => {
                self.close_p_in_button_scope();
                self.insert_html_element(&tag);
            }
            L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6 => {
                self.close_p_in_button_scope();
                if self
                    .current()
                    .is_some_and(|o| is_heading(o.info.html_name()))
                {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    self.pop();
                }
                self.insert_html_element(&tag);
            }
            L::Pre | L::Listing => {
                self.close_p_in_button_scope();
                self.insert_html_element(&tag);
                self.state.ignore_lf = true;
                self.state.frameset_ok = false;
            }
            L::Form => {
                let in_template = self.stack_has(L::Template);
                if self.state.form.is_some() && !in_template {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    return Flow::Done;
                }
                self.close_p_in_button_scope();
                let form = self.insert_html_element(&tag);
                if !in_template {
                    self.state.form = Some(form);
                }
            }
            L::Li | L::Dd | L::Dt => {
                self.state.frameset_ok = false;
                // The walk down from the current node closes the topmost
                // element it may close, unless a special element other
                // than address, div and p is above it (the element itself
                // is one, and is closed).
                let open = &self.state.open;
                let target = match name {
                    L::Li => open.top_html(L::Li),
                    _ => open.top_html(L::Dd).max(open.top_html(L::Dt)),
                };
                if let Some(i) = target
                    && open.top_list_item_stop().is_none_or(|s| s <= i)
                {
                    let n = open[i].info.html_name().expect("an HTML name");
                    self.generate_implied_end_tags(Some(n));
                    if !self.current_is(n) {
                        self.error(TreeErrorKind::UnexpectedStartTag);
                    }
                    self.pop_until(n);
                }
                self.close_p_in_button_scope();
                self.insert_html_element(&tag);
            }
            L::Plaintext => {
                self.close_p_in_button_scope();
                self.insert_html_element(&tag);
                self.control.switch_to = Some((TextMode::Plaintext, L::Plaintext));
            }
            L::Button => {
                if self.in_scope(L::Button, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    self.generate_implied_end_tags(None);
                    self.pop_until(L::Button);
                }
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
                self.state.frameset_ok = false;
            }
            L::A => {
                if let Some((_, a)) = self.state.formatting.last_named(L::A) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    if self.adoption_agency(L::A) {
                        self.any_other_end_tag(Name::Known(L::A));
                    }
                    // Remove that element from the list and the stack if
                    // it is still there. If it is, it is still the last
                    // `a` after the marker (the adoption agency left it
                    // alone); if it left the list, it left the stack too.
                    if let Some((i, still)) = self.state.formatting.last_named(L::A)
                        && still.node == a.node
                    {
                        self.state.formatting.remove(i);
                        if self.is_open(&still) {
                            self.remove_from_stack_at(still.slot as usize);
                        }
                    }
                    debug_assert!(self.stack_position(a.node, L::A).is_none());
                }
                self.reconstruct_formatting();
                let node = self.insert_html_element(&tag);
                self.push_formatting(node, L::A);
            }
            L::B
            | L::Big
            | L::Code
            | L::Em
            | L::Font
            | L::I
            | L::S
            | L::Small
            | L::Strike
            | L::Strong
            | L::Tt
            | L::U => {
                self.reconstruct_formatting();
                let node = self.insert_html_element(&tag);
                self.push_formatting(node, name);
            }
            L::Nobr => {
                self.reconstruct_formatting();
                if self.in_scope(L::Nobr, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    if self.adoption_agency(L::Nobr) {
                        self.any_other_end_tag(Name::Known(L::Nobr));
                    }
                    self.reconstruct_formatting();
                }
                let node = self.insert_html_element(&tag);
                self.push_formatting(node, L::Nobr);
            }
            L::Applet | L::Marquee | L::Object => {
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
                self.push_marker();
                self.state.frameset_ok = false;
            }
            L::Table => {
                if self.state.quirks_mode != super::QuirksMode::Quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_html_element(&tag);
                self.state.frameset_ok = false;
                self.state.mode = InsertionMode::InTable;
            }
            L::Area | L::Br | L::Embed | L::Img | L::Keygen | L::Wbr => {
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
                self.pop();
                self.state.frameset_ok = false;
            }
            L::Input => {
                if self.fragment_context_is(L::Select) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    return Flow::Done;
                }
                if self.in_scope(L::Select, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    self.pop_until(L::Select);
                }
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
                self.pop();
                let hidden = tag
                    .attrs
                    .value(L::Type)
                    .is_some_and(|t| t.eq_ignore_ascii_case("hidden"));
                if !hidden {
                    self.state.frameset_ok = false;
                }
            }
            L::Param | L::Source | L::Track => {
                self.insert_html_element(&tag);
                self.pop();
            }
            L::Hr => {
                self.close_p_in_button_scope();
                if self.in_scope(L::Select, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    if self.in_scope(L::Option, Scope::Default)
                        || self.in_scope(L::Optgroup, Scope::Default)
                    {
                        self.error(TreeErrorKind::UnexpectedStartTag);
                    }
                }
                self.insert_html_element(&tag);
                self.pop();
                self.state.frameset_ok = false;
            }
            L::Image => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                let img = TagTok {
                    name: Name::Known(L::Img),
                    ..tag
                };
                return Flow::Again(Tok::Start(img));
            }
            L::Textarea => {
                self.insert_html_element(&tag);
                self.state.ignore_lf = true;
                self.control.switch_to = Some((TextMode::Rcdata, L::Textarea));
                self.state.original_mode = self.state.mode;
                self.state.frameset_ok = false;
                self.state.mode = InsertionMode::Text;
            }
            L::Xmp => {
                self.close_p_in_button_scope();
                self.reconstruct_formatting();
                self.state.frameset_ok = false;
                self.parse_text_element(&tag, TextMode::Rawtext);
            }
            L::Iframe => {
                self.state.frameset_ok = false;
                self.parse_text_element(&tag, TextMode::Rawtext);
            }
            L::Noembed => self.parse_text_element(&tag, TextMode::Rawtext),
            L::Noscript if self.state.scripting => self.parse_text_element(&tag, TextMode::Rawtext),
            L::Select => {
                if self.fragment_context_is(L::Select) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                } else if self.in_scope(L::Select, Scope::Default) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    self.pop_until(L::Select);
                } else {
                    self.reconstruct_formatting();
                    self.insert_html_element(&tag);
                    self.state.frameset_ok = false;
                }
            }
            L::Option => {
                if self.in_scope(L::Select, Scope::Default) {
                    self.generate_implied_end_tags(Some(L::Optgroup));
                    if self.in_scope(L::Option, Scope::Default) {
                        self.error(TreeErrorKind::UnexpectedStartTag);
                    }
                } else if self.current_is(L::Option) {
                    self.pop();
                }
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
            }
            L::Optgroup => {
                if self.in_scope(L::Select, Scope::Default) {
                    self.generate_implied_end_tags(None);
                    if self.in_scope(L::Option, Scope::Default)
                        || self.in_scope(L::Optgroup, Scope::Default)
                    {
                        self.error(TreeErrorKind::UnexpectedStartTag);
                    }
                } else if self.current_is(L::Option) {
                    self.pop();
                }
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
            }
            L::Rb | L::Rtc => {
                if self.in_scope(L::Ruby, Scope::Default) {
                    self.generate_implied_end_tags(None);
                }
                if !self.current_is(L::Ruby) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                }
                self.insert_html_element(&tag);
            }
            L::Rp | L::Rt => {
                if self.in_scope(L::Ruby, Scope::Default) {
                    self.generate_implied_end_tags(Some(L::Rtc));
                }
                if !self.current_is(L::Rtc) && !self.current_is(L::Ruby) {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                }
                self.insert_html_element(&tag);
            }
            L::Math | L::Svg => {
                self.reconstruct_formatting();
                let ns = if name == L::Math {
                    Namespace::MathMl
                } else {
                    Namespace::Svg
                };
                self.insert_element(&tag, ns);
                if tag.self_closing {
                    self.pop();
                }
            }
            L::Caption
            | L::Col
            | L::Colgroup
            | L::Frame
            | L::Head
            | L::Tbody
            | L::Td
            | L::Tfoot
            | L::Th
            | L::Thead
            | L::Tr => {
                self.error(TreeErrorKind::UnexpectedStartTag);
            }
            _ => {
                self.reconstruct_formatting();
                self.insert_html_element(&tag);
            }
        }
        Flow::Done
    }

    /// Whether this is the fragment case with the HTML element `name` as
    /// the context.
    pub(crate) fn fragment_context_is(&self, name: L) -> bool {
        self.state.context.is_some_and(|c| c.is_html(name))
    }

    /// If a `p` is in button scope, *close a p element*.
    pub(crate) fn close_p_in_button_scope(&mut self) {
        if self.in_scope(L::P, Scope::Button) {
            self.close_p();
        }
    }

    /// *Close a p element*.
    pub(crate) fn close_p(&mut self) {
        self.generate_implied_end_tags(Some(L::P));
        if !self.current_is(L::P) {
            self.error(TreeErrorKind::UnexpectedEndTag);
        }
        self.pop_until(L::P);
    }
}
