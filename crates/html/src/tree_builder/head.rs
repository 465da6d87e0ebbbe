//! The insertion modes from "before html" to "after head" (§13.2.6.4.2
//! to §13.2.6.4.6), and the generic RCDATA and raw text element parsing
//! algorithms they share with in body.

use super::{
    Flow, InsertionMode, TagTok, Tok, TreeBuilder, TreeErrorKind, TreeSink, leading_space,
    split_text,
};
use crate::TextMode;
use crate::names::LocalName as L;
use crate::namespace::Namespace;
use crate::token::TokenText;

/// What the whitespace rule of a mode saw in a text token.
pub(crate) enum Spaces<'t> {
    /// All whitespace.
    All(TokenText<'t>),
    /// Leading whitespace (maybe empty), then the rest.
    Then(TokenText<'t>, TokenText<'t>),
}

pub(crate) fn split_spaces(t: TokenText<'_>) -> Spaces<'_> {
    let n = leading_space(t.as_str());
    if n == t.as_str().len() {
        Spaces::All(t)
    } else {
        let (a, b) = split_text(t, n);
        Spaces::Then(a, b)
    }
}

impl<S: TreeSink> TreeBuilder<S> {
    /// The "before html" insertion mode.
    pub(crate) fn before_html<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                return Flow::Done;
            }
            Tok::Comment(c) => {
                let doc = self.sink.document();
                self.append_comment_to(doc, c);
                return Flow::Done;
            }
            Tok::Text(t) => match split_spaces(t) {
                Spaces::All(_) => return Flow::Done,
                Spaces::Then(_, rest) => return self.before_html_else(Tok::Text(rest)),
            },
            Tok::Start(tag) if tag.is(L::Html) => {
                let open = self.create_element_for(&tag, Namespace::Html);
                let doc = self.sink.document();
                self.sink.append(doc, open.node);
                self.state.open.push(open);
                self.state.mode = InsertionMode::BeforeHead;
                return Flow::Done;
            }
            Tok::End(tag) if !matches!(tag.local(), Some(L::Head | L::Body | L::Html | L::Br)) => {
                self.error(TreeErrorKind::UnexpectedEndTag);
                return Flow::Done;
            }
            _ => {}
        }
        self.before_html_else(token)
    }

    fn before_html_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        let tag = TagTok {
            name: crate::token::Name::Known(L::Html),
            attrs: super::TagAttrs::empty(),
            self_closing: false,
        };
        let open = self.create_element_for(&tag, Namespace::Html);
        let doc = self.sink.document();
        self.sink.append(doc, open.node);
        self.state.open.push(open);
        self.state.mode = InsertionMode::BeforeHead;
        Flow::Again(token)
    }

    /// The "before head" insertion mode.
    pub(crate) fn before_head<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => match split_spaces(t) {
                Spaces::All(_) => return Flow::Done,
                Spaces::Then(_, rest) => return self.before_head_else(Tok::Text(rest)),
            },
            Tok::Comment(c) => {
                self.insert_comment(c);
                return Flow::Done;
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                return Flow::Done;
            }
            Tok::Start(tag) if tag.is(L::Html) => return self.in_body(token),
            Tok::Start(tag) if tag.is(L::Head) => {
                let head = self.insert_html_element(&tag);
                self.state.head = Some(head);
                self.state.mode = InsertionMode::InHead;
                return Flow::Done;
            }
            Tok::End(tag) if !matches!(tag.local(), Some(L::Head | L::Body | L::Html | L::Br)) => {
                self.error(TreeErrorKind::UnexpectedEndTag);
                return Flow::Done;
            }
            _ => {}
        }
        self.before_head_else(token)
    }

    fn before_head_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        let head = self.insert_implied(L::Head);
        self.state.head = Some(head);
        self.state.mode = InsertionMode::InHead;
        Flow::Again(token)
    }

    /// The "in head" insertion mode.
    pub(crate) fn in_head<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => match self.insert_leading_spaces(t) {
                None => Flow::Done,
                Some(rest) => self.in_head_else(Tok::Text(rest)),
            },
            Tok::Comment(c) => {
                self.insert_comment(c);
                Flow::Done
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) => match tag.local() {
                Some(L::Html) => self.in_body(token),
                Some(L::Base | L::Basefont | L::Bgsound | L::Link | L::Meta) => {
                    self.insert_html_element(&tag);
                    self.pop();
                    if tag.is(L::Meta) && self.watch_meta_encoding {
                        // The encoding a `<meta>` declares changes the
                        // encoding while the confidence is tentative.
                        let get = |n| tag.attrs.value(n).map(str::as_bytes);
                        self.control.meta_encoding = spinneret_encoding::meta_element_encoding(
                            get(L::Charset),
                            get(L::HttpEquiv),
                            get(L::Content),
                        );
                    }
                    Flow::Done
                }
                Some(L::Title) => {
                    self.parse_text_element(&tag, TextMode::Rcdata);
                    Flow::Done
                }
                Some(L::Noscript) if self.state.scripting => {
                    self.parse_text_element(&tag, TextMode::Rawtext);
                    Flow::Done
                }
                Some(L::Noframes | L::Style) => {
                    self.parse_text_element(&tag, TextMode::Rawtext);
                    Flow::Done
                }
                Some(L::Noscript) => {
                    self.insert_html_element(&tag);
                    self.state.mode = InsertionMode::InHeadNoscript;
                    Flow::Done
                }
                Some(L::Script) => {
                    self.parse_text_element(&tag, TextMode::ScriptData);
                    Flow::Done
                }
                Some(L::Template) => {
                    self.insert_html_element(&tag);
                    self.push_marker();
                    self.state.frameset_ok = false;
                    self.state.mode = InsertionMode::InTemplate;
                    self.state.template_modes.push(InsertionMode::InTemplate);
                    Flow::Done
                }
                Some(L::Head) => {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    Flow::Done
                }
                _ => self.in_head_else(token),
            },
            Tok::End(tag) => match tag.local() {
                Some(L::Head) => {
                    self.pop();
                    self.state.mode = InsertionMode::AfterHead;
                    Flow::Done
                }
                Some(L::Body | L::Html | L::Br) => self.in_head_else(token),
                Some(L::Template) => {
                    self.end_template();
                    Flow::Done
                }
                _ => {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    Flow::Done
                }
            },
            Tok::Eof => self.in_head_else(token),
        }
    }

    fn in_head_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.pop();
        self.state.mode = InsertionMode::AfterHead;
        Flow::Again(token)
    }

    /// A `</template>` end tag by the in head rules.
    pub(crate) fn end_template(&mut self) {
        if !self.stack_has(L::Template) {
            self.error(TreeErrorKind::UnexpectedEndTag);
            return;
        }
        self.generate_implied_end_tags_thoroughly();
        if !self.current_is(L::Template) {
            self.error(TreeErrorKind::UnexpectedEndTag);
        }
        self.pop_until(L::Template);
        self.clear_formatting_to_marker();
        self.state.template_modes.pop();
        self.reset_insertion_mode();
    }

    /// The "in head noscript" insertion mode.
    pub(crate) fn in_head_noscript<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) if tag.is(L::Html) => self.in_body(token),
            Tok::End(tag) if tag.is(L::Noscript) => {
                self.pop();
                self.state.mode = InsertionMode::InHead;
                Flow::Done
            }
            Tok::Text(t) => match split_spaces(t) {
                Spaces::All(_) => self.in_head(token),
                Spaces::Then(ws, rest) => {
                    self.in_head(Tok::Text(ws));
                    self.in_head_noscript_else(Tok::Text(rest))
                }
            },
            Tok::Comment(_) => self.in_head(token),
            Tok::Start(tag)
                if matches!(
                    tag.local(),
                    Some(L::Basefont | L::Bgsound | L::Link | L::Meta | L::Noframes | L::Style)
                ) =>
            {
                self.in_head(token)
            }
            Tok::End(tag) if tag.is(L::Br) => self.in_head_noscript_else(token),
            Tok::Start(tag) if matches!(tag.local(), Some(L::Head | L::Noscript)) => {
                self.error(TreeErrorKind::UnexpectedStartTag);
                Flow::Done
            }
            Tok::End(_) => {
                self.error(TreeErrorKind::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_head_noscript_else(token),
        }
    }

    fn in_head_noscript_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.error(TreeErrorKind::UnexpectedText);
        self.pop();
        self.state.mode = InsertionMode::InHead;
        Flow::Again(token)
    }

    /// The "after head" insertion mode.
    pub(crate) fn after_head<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        match token {
            Tok::Text(t) => match self.insert_leading_spaces(t) {
                None => Flow::Done,
                Some(rest) => self.after_head_else(Tok::Text(rest)),
            },
            Tok::Comment(c) => {
                self.insert_comment(c);
                Flow::Done
            }
            Tok::Doctype(_) => {
                self.error(TreeErrorKind::UnexpectedDoctype);
                Flow::Done
            }
            Tok::Start(tag) => match tag.local() {
                Some(L::Html) => self.in_body(token),
                Some(L::Body) => {
                    self.insert_html_element(&tag);
                    self.state.frameset_ok = false;
                    self.state.mode = InsertionMode::InBody;
                    Flow::Done
                }
                Some(L::Frameset) => {
                    self.insert_html_element(&tag);
                    self.state.mode = InsertionMode::InFrameset;
                    Flow::Done
                }
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
                ) => {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    let Some(head) = self.state.head else {
                        return self.in_head(token);
                    };
                    self.state.open.push(super::state::Open {
                        node: head,
                        info: super::state::ElemInfo::html(L::Head),
                    });
                    let flow = self.in_head(token);
                    self.remove_from_stack(head, L::Head);
                    flow
                }
                Some(L::Head) => {
                    self.error(TreeErrorKind::UnexpectedStartTag);
                    Flow::Done
                }
                _ => self.after_head_else(token),
            },
            Tok::End(tag) => match tag.local() {
                Some(L::Template) => self.in_head(token),
                Some(L::Body | L::Html | L::Br) => self.after_head_else(token),
                _ => {
                    self.error(TreeErrorKind::UnexpectedEndTag);
                    Flow::Done
                }
            },
            Tok::Eof => self.after_head_else(token),
        }
    }

    fn after_head_else<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        self.insert_implied(L::Body);
        self.state.mode = InsertionMode::InBody;
        Flow::Again(token)
    }

    /// The whitespace rule the head modes and in column group share:
    /// inserts `t`'s leading whitespace, and returns the rest of it, if any,
    /// for the mode's "anything else".
    pub(crate) fn insert_leading_spaces<'t>(&mut self, t: TokenText<'t>) -> Option<TokenText<'t>> {
        match split_spaces(t) {
            Spaces::All(ws) => {
                self.insert_text(ws);
                None
            }
            Spaces::Then(ws, rest) => {
                self.insert_text(ws);
                Some(rest)
            }
        }
    }

    /// The generic raw text and RCDATA element parsing algorithms (and
    /// `script`, which switches to script data the same way).
    pub(crate) fn parse_text_element(&mut self, tag: &TagTok<'_>, mode: TextMode) {
        self.insert_html_element(tag);
        if let Some(name) = tag.local() {
            self.control.switch_to = Some((mode, name));
        }
        self.state.original_mode = self.state.mode;
        self.state.mode = InsertionMode::Text;
    }
}
