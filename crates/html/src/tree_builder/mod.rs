//! The HTML Standard's tree construction stage (§13.2.6).
//!
//! [`TreeBuilder`] takes the tokenizer's tokens and drives a
//! [`TreeSink`]: it keeps the stack of open elements, the list of active
//! formatting elements, the insertion mode and the other parts of the
//! parser state, and tells the sink what to create and where to put it.
//! It also sets the tokenizer's text mode (RCDATA, RAWTEXT, script data,
//! PLAINTEXT) after the start tags that need it, and tells the tokenizer
//! when CDATA sections are allowed (in foreign content): the real thing
//! the tokenizer's simulator approximates.
//!
//! The whole state is one value, [`BuilderState`], which can be cloned,
//! compared and inspected: what parallel parsing needs to speculate a
//! chunk's starting state and to check it afterwards.
//!
//! Where things are:
//! - `sink.rs`: the [`TreeSink`] trait, element names and attributes;
//! - `state.rs`: [`BuilderState`], insertion modes, open-element entries;
//! - `tag_sets.rs`: the standard's lists of elements (special, formatting,
//!   the scopes, implied end tags) as predicates;
//! - `stack.rs`: the stack of open elements and the list of active
//!   formatting elements (scopes, implied end tags, reconstruction);
//! - `insert.rs`: the appropriate place for inserting a node (foster
//!   parenting), creating and inserting elements, text and comments;
//! - `adoption.rs`: the adoption agency algorithm;
//! - one file per group of insertion modes: `initial.rs` (initial, with
//!   the DOCTYPE and quirks-mode rules), `head.rs` (before html to after
//!   head), `body.rs` (in body, and `body_end.rs` for its end tags),
//!   `text.rs` (text), `table.rs` (in table to in cell), `template.rs`,
//!   `after.rs` (after body, framesets and the after-after modes) and
//!   `foreign.rs` (in foreign content, with the SVG and MathML
//!   adjustments);
//! - `parse.rs`: the entry points that connect tokenizer and tree builder
//!   (whole input, chunks, fragments); `bytes.rs`: from bytes, through the
//!   encoding stage.
//!
//! The standard's select parsing: html5lib-tests and browsers follow the
//! 2025 revision in which `select` content is parsed by the in body rules
//! (the `in select` and `in select in table` modes no longer exist), and
//! `select` is part of the default scope. The customizable select's
//! `<selectedcontent>` is the sink's to fill: the builder reports each
//! `option` it pops ([`TreeSink::option_popped`]), before the tree
//! changes again.

mod adoption;
mod after;
mod body;
mod body_end;
mod bytes;
pub(crate) mod foreign;
mod formatting_list;
mod head;
mod initial;
mod insert;
mod open_elements;
mod parse;
mod sink;
mod stack;
mod state;
mod table;
mod tag_sets;
mod template;
mod text;
mod transplant;

pub use bytes::parse_bytes;
pub(crate) use bytes::{parse_bytes_determined, parse_watching};
pub(crate) use formatting_list::Formatting;
pub use parse::{
    FragmentContext, ParseOptions, StreamParser, parse_document, parse_fragment, parse_with_sink,
};
pub(crate) use parse::{
    Stopped, after_token, drive, finish, process_eof, process_tag, process_text, process_token,
    tokenizer_options,
};
pub use sink::{ElementName, TagAttrs, TreeAttr, TreeSink};
pub use state::{BuilderState, InsertionMode};
use state::{ElemInfo, Key, Open};

use crate::TextMode;
use crate::names::LocalName;
use crate::namespace::Namespace;
use crate::token::{Doctype, Name, TokenText};
use std::collections::HashMap;
use std::fmt;

/// The document's quirks mode, from its DOCTYPE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum QuirksMode {
    /// Standards mode.
    #[default]
    NoQuirks,
    /// Limited-quirks (almost standards) mode.
    LimitedQuirks,
    /// Quirks mode.
    Quirks,
}

/// What a tree-construction parse error is about. The standard does not
/// name these errors (only the tokenizer's); the kinds follow its wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TreeErrorKind {
    /// A DOCTYPE where none is allowed.
    UnexpectedDoctype,
    /// A document without a DOCTYPE, or with one that is not `<!DOCTYPE html>`.
    MissingOrBadDoctype,
    /// A start tag the insertion mode does not allow.
    UnexpectedStartTag,
    /// An end tag the insertion mode does not allow, or that closes
    /// elements other than its own.
    UnexpectedEndTag,
    /// Non-whitespace text where none is allowed.
    UnexpectedText,
    /// A U+0000 NULL character in text.
    UnexpectedNull,
    /// The end of the input with elements still open that may not be.
    EofWithOpenElements,
    /// A self-closing flag on a start tag of an element that is not void.
    NonVoidSelfClosing,
}

impl fmt::Display for TreeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TreeErrorKind::UnexpectedDoctype => "unexpected DOCTYPE",
            TreeErrorKind::MissingOrBadDoctype => "missing or non-standard DOCTYPE",
            TreeErrorKind::UnexpectedStartTag => "unexpected start tag",
            TreeErrorKind::UnexpectedEndTag => "unexpected end tag",
            TreeErrorKind::UnexpectedText => "unexpected text",
            TreeErrorKind::UnexpectedNull => "unexpected NULL character",
            TreeErrorKind::EofWithOpenElements => "end of input with open elements",
            TreeErrorKind::NonVoidSelfClosing => "self-closing tag on a non-void element",
        })
    }
}

/// A tree-construction parse error and where the token it was found at
/// starts: `line` and `col` are 1-based (CRLF and CR count as one newline;
/// `col` in UTF-16 code units, as the tokenizer's [`ParseError`](crate::ParseError)
/// and the html5lib tests count), `offset` is the byte offset in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TreeError {
    /// What went wrong.
    pub kind: TreeErrorKind,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in UTF-16 code units.
    pub col: u32,
    /// The byte offset of the token's start in the input.
    pub offset: usize,
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at {}:{}", self.kind, self.line, self.col)
    }
}

/// Fills in the line and column of `errors` (sorted by offset) from the
/// input they were found in, in one pass.
pub(crate) fn locate_errors(errors: &mut [TreeError], input: &str) {
    let (mut line, mut col, mut at) = (1u32, 1u32, 0usize);
    let bytes = input.as_bytes();
    for e in errors.iter_mut() {
        let to = e.offset.min(input.len());
        while at < to {
            let b = bytes[at];
            match b {
                b'\n' => {
                    line += 1;
                    col = 1;
                }
                // CR LF is one newline, counted at the LF.
                b'\r' if bytes.get(at + 1) == Some(&b'\n') => {}
                b'\r' => {
                    line += 1;
                    col = 1;
                }
                // UTF-8 continuation bytes add nothing; a 4-byte sequence
                // is two UTF-16 code units.
                0x80..=0xbf => {}
                0xf0..=0xff => col += 2,
                _ => col += 1,
            }
            at += 1;
        }
        e.line = line;
        e.col = col;
    }
}

/// A start or end tag as the tree builder sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TagTok<'t> {
    pub name: Name<'t>,
    pub attrs: TagAttrs<'t>,
    pub self_closing: bool,
}

impl TagTok<'_> {
    #[inline]
    pub fn local(&self) -> Option<LocalName> {
        self.name.local()
    }

    #[inline]
    pub fn is(&self, name: LocalName) -> bool {
        self.name.local() == Some(name)
    }
}

/// A token as the tree builder sees it (text with its input offset).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Tok<'t> {
    Doctype(&'t Doctype<'t>),
    Start(TagTok<'t>),
    End(TagTok<'t>),
    Comment(TokenText<'t>),
    Text(TokenText<'t>),
    Eof,
}

/// What a mode's rules did with a token.
pub(crate) enum Flow<'t> {
    /// Done with the token.
    Done,
    /// Process this token again (the mode may have changed; the token may
    /// be what is left of a text token).
    Again(Tok<'t>),
}

/// What the tokenizer must do after the token just processed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TokenizerControl {
    /// Switch to this text mode after this start tag (`title`,
    /// `style`, `script`, …).
    pub switch_to: Option<(TextMode, LocalName)>,
    /// Whether the adjusted current node is in a foreign namespace (CDATA
    /// sections are recognised).
    pub foreign: bool,
    /// The encoding a `<meta>` start tag just declared (only while
    /// [`TreeBuilder::watch_meta_encoding`] is on).
    pub meta_encoding: Option<&'static spinneret_encoding::Encoding>,
}

/// The tree builder: tokens in, calls on a [`TreeSink`] out.
pub struct TreeBuilder<S: TreeSink> {
    pub(crate) sink: S,
    pub(crate) state: BuilderState<S::Handle>,
    /// Names of elements that are not [`LocalName`]s, interned for the
    /// open-elements stack.
    names: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
    report: bool,
    errors: Vec<TreeError>,
    pub(crate) control: TokenizerControl,
    /// Report `<meta>` encodings in [`TokenizerControl::meta_encoding`]
    /// (while the encoding is tentative).
    pub(crate) watch_meta_encoding: bool,
}

impl<S: TreeSink> TreeBuilder<S> {
    /// A tree builder for a document.
    pub fn new(sink: S, scripting: bool, report_errors: bool) -> TreeBuilder<S> {
        TreeBuilder {
            sink,
            state: BuilderState::new(scripting),
            names: HashMap::default(),
            report: report_errors,
            errors: Vec::new(),
            control: TokenizerControl::default(),
            watch_meta_encoding: false,
        }
    }

    /// The builder's state (insertion modes, open elements, active
    /// formatting elements, pointers and flags).
    pub fn state(&self) -> &BuilderState<S::Handle> {
        &self.state
    }

    /// The sink.
    pub fn sink(&self) -> &S {
        &self.sink
    }

    /// The parse errors so far (when reporting).
    pub fn errors(&self) -> &[TreeError] {
        &self.errors
    }

    /// Ends the build, returning the sink and the errors.
    pub fn into_parts(self) -> (S, Vec<TreeError>) {
        (self.sink, self.errors)
    }

    #[inline]
    pub(crate) fn error(&mut self, kind: TreeErrorKind) {
        if self.report {
            // The offset is the token's, filled in by the driver once the
            // token is processed (`place_errors`).
            self.errors.push(TreeError {
                kind,
                line: 0,
                col: 0,
                offset: 0,
            });
        }
    }

    /// How many errors were reported so far (for [`TreeBuilder::place_errors`]).
    #[inline]
    pub(crate) fn error_count(&self) -> usize {
        self.errors.len()
    }

    /// Sets the offset of the errors reported since there were `from` (those
    /// of the token just processed) to `offset`, the token's start.
    #[inline]
    pub(crate) fn place_errors(&mut self, from: usize, offset: usize) {
        if !self.report {
            return;
        }
        if let Some(errors) = self.errors.get_mut(from..) {
            for e in errors {
                e.offset = offset;
            }
        }
    }

    /// The key of a tag name on the stack of open elements (an interned
    /// name's inline; any other name's out of line).
    #[inline]
    pub(crate) fn key(&mut self, name: Name<'_>) -> Key {
        match name {
            Name::Known(n) => Key::known(n),
            Name::Other(s) => self.other_key(s),
        }
    }

    /// [`TreeBuilder::key`] of a name that is not interned: its id in
    /// `names`, added the first time (the name is copied only then).
    #[inline(never)]
    fn other_key(&mut self, s: &str) -> Key {
        if let Some(&id) = self.names.get(s) {
            return Key::other(id);
        }
        let id = self.names.len() as u32;
        self.names.insert(s.into(), id);
        Key::other(id)
    }

    /// The name a key stands for (`None` for a hole's).
    pub(crate) fn key_name(&self, key: Key) -> Option<&str> {
        if key == Key::HOLE {
            return None;
        }
        match key.local() {
            Some(name) => Some(name.as_str()),
            None => {
                let id = key.other_index() as u32;
                self.names
                    .iter()
                    .find(|&(_, &n)| n == id)
                    .map(|(s, _)| &**s)
            }
        }
    }

    /// The key of an end tag's name, if any open element can have it.
    pub(crate) fn existing_key(&self, name: Name<'_>) -> Option<Key> {
        match name {
            Name::Known(n) => Some(Key::known(n)),
            Name::Other(s) => self.names.get(s).map(|&id| Key::other(id)),
        }
    }

    /// The tree construction dispatcher: processes one token, and sets
    /// [`TreeBuilder::control`] for the tokenizer.
    pub(crate) fn process(&mut self, token: Tok<'_>) {
        if self.state.ignore_lf {
            return self.process_after_ignored_lf(token);
        }
        self.dispatch_until_done(token);
    }

    /// [`TreeBuilder::process`] for the token after a start tag whose
    /// first newline is dropped (`pre`, `listing`, `textarea`): out of
    /// line, so the common path does not carry the token through a copy.
    #[inline(never)]
    fn process_after_ignored_lf(&mut self, token: Tok<'_>) {
        self.state.ignore_lf = false;
        if let Tok::Text(t) = token
            && t.as_str().starts_with('\n')
        {
            let (_, rest) = split_text(t, 1);
            if rest.as_str().is_empty() {
                return self.after_token();
            }
            return self.dispatch_until_done(Tok::Text(rest));
        }
        self.dispatch_until_done(token);
    }

    /// Processes `token` by the current mode's rules (or foreign
    /// content's), again for as long as they hand it back.
    #[inline(always)]
    fn dispatch_until_done(&mut self, token: Tok<'_>) {
        // The first round: whether the adjusted current node is foreign is
        // what the last token left in `control.foreign` (`after_token`;
        // nothing else touches the stack between tokens), and when it is
        // not, foreign content's rules never apply — one test instead of
        // finding that node again. A round after the rules hand the token
        // back finds it, as the stack may have changed.
        debug_assert_eq!(
            self.control.foreign,
            self.adjusted_current_node()
                .is_some_and(|e| e.ns != Namespace::Html)
        );
        let mut flow = if self.control.foreign {
            self.dispatch(token)
        } else {
            let mode = self.state.mode;
            self.step(mode, token)
        };
        let mut rounds = 1u32;
        while let Flow::Again(token) = flow {
            // A token is reprocessed a few times at most (a mode switch or
            // two); more means a bug, which must not become a hang. The end
            // of the input is the exception: "in template" reprocesses it
            // once per open template, each time popping one.
            rounds += 1;
            if rounds >= 64 && !matches!(token, Tok::Eof) {
                debug_assert!(false, "token reprocessed forever: {token:?}");
                break;
            }
            flow = self.dispatch(token);
        }
        self.after_token();
    }

    /// One round of the dispatcher: foreign content's rules or the current
    /// insertion mode's.
    #[inline(always)]
    fn dispatch<'t>(&mut self, token: Tok<'t>) -> Flow<'t> {
        if self.use_foreign_rules(&token) {
            self.in_foreign_content(token)
        } else {
            let mode = self.state.mode;
            self.step(mode, token)
        }
    }

    /// Sets [`TreeBuilder::control`]'s foreign flag from the state (after
    /// each token, and after anything else that changes the stack of open
    /// elements between tokens: the dispatcher reads it first).
    pub(crate) fn after_token(&mut self) {
        self.report_popped_options();
        self.control.foreign = self
            .adjusted_current_node()
            .is_some_and(|e| e.ns != Namespace::Html);
    }

    /// Processes `token` by the rules of insertion mode `mode`.
    #[inline(always)]
    pub(crate) fn step<'t>(&mut self, mode: InsertionMode, token: Tok<'t>) -> Flow<'t> {
        use InsertionMode as M;
        match mode {
            M::Initial => self.initial(token),
            M::BeforeHtml => self.before_html(token),
            M::BeforeHead => self.before_head(token),
            M::InHead => self.in_head(token),
            M::InHeadNoscript => self.in_head_noscript(token),
            M::AfterHead => self.after_head(token),
            M::InBody => self.in_body(token),
            M::Text => self.text(token),
            M::InTable => self.in_table(token),
            M::InTableText => self.in_table_text(token),
            M::InCaption => self.in_caption(token),
            M::InColumnGroup => self.in_column_group(token),
            M::InTableBody => self.in_table_body(token),
            M::InRow => self.in_row(token),
            M::InCell => self.in_cell(token),
            M::InTemplate => self.in_template(token),
            M::AfterBody => self.after_body(token),
            M::InFrameset => self.in_frameset(token),
            M::AfterFrameset => self.after_frameset(token),
            M::AfterAfterBody => self.after_after_body(token),
            M::AfterAfterFrameset => self.after_after_frameset(token),
        }
    }

    /// The adjusted current node: the context element when parsing a
    /// fragment and only the root is open, else the current node.
    pub(crate) fn adjusted_current_node(&self) -> Option<&ElemInfo> {
        match (&self.state.context, self.state.open.len()) {
            (Some(context), 1) => Some(context),
            _ => self.state.open.last().map(|o| &o.info),
        }
    }

    /// The dispatcher's test: whether `token` goes to the rules for
    /// foreign content.
    fn use_foreign_rules(&self, token: &Tok<'_>) -> bool {
        let Some(node) = self.adjusted_current_node() else {
            return false;
        };
        if node.ns == Namespace::Html {
            return false;
        }
        match token {
            Tok::Eof => false,
            Tok::Start(tag) => {
                if node.is_mathml_text_integration_point()
                    && !matches!(tag.local(), Some(LocalName::Mglyph | LocalName::Malignmark))
                {
                    return false;
                }
                if node.ns == Namespace::MathMl
                    && node.key == Key::known(LocalName::AnnotationXml)
                    && tag.is(LocalName::Svg)
                {
                    return false;
                }
                !node.html_integration_point
            }
            Tok::Text(_) => {
                !(node.is_mathml_text_integration_point() || node.html_integration_point)
            }
            _ => true,
        }
    }
}

/// ASCII whitespace as the tree builder means it (the tokenizer has
/// already turned CR into LF).
#[inline]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Splits token text at byte `at` (a char boundary), keeping input
/// offsets.
pub(crate) fn split_text(t: TokenText<'_>, at: usize) -> (TokenText<'_>, TokenText<'_>) {
    match t {
        TokenText::Input { start, text } => (
            TokenText::Input {
                start,
                text: &text[..at],
            },
            TokenText::Input {
                start: start + at,
                text: &text[at..],
            },
        ),
        TokenText::Scratch(s) => (TokenText::Scratch(&s[..at]), TokenText::Scratch(&s[at..])),
    }
}

/// The length of `t`'s leading whitespace.
pub(crate) fn leading_space(t: &str) -> usize {
    t.bytes().position(|b| !is_space(b)).unwrap_or(t.len())
}

impl<H> Open<H> {
    #[inline]
    pub(crate) fn is_html(&self, name: LocalName) -> bool {
        self.info.is_html(name)
    }
}
