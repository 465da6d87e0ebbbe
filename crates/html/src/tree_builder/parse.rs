//! The entry points: a whole input, chunks of one, or a fragment
//! (`innerHTML`), each tokenized and built into a [`Document`] (or any
//! [`TreeSink`]).
//!
//! The driver runs the tokenizer one token at a time, hands each token to
//! the tree builder with its text as input offsets where it is a span of
//! the input, and after each token applies what the tree builder asked of
//! the tokenizer (a text mode; whether CDATA sections are allowed). The
//! output is the same whatever the chunking: the tokenizer's tokens are
//! (its streaming guarantee), and the tree builder sees only tokens.

use super::sink::{AttrAdjust, AttrSource, TagAttrs};
use super::state::ElemInfo;
use super::{TagTok, Tok, TreeBuilder, TreeSink};
use crate::dom::{Document, DomSink};
use crate::names::LocalName;
use crate::namespace::Namespace;
use crate::token::{Token, TokenText};
use crate::tokenizer::{Core, Step, TokenizerOptions};
use crate::{TextMode, TreeError};
use std::str::FromStr;

/// How to parse.
#[derive(Clone, Debug, Default)]
pub struct ParseOptions {
    /// The scripting flag: `noscript` content is raw text when on. Off by
    /// default, as for a crawler (scripts are never run either way).
    pub scripting: bool,
    /// Collect parse errors (tokenizer and tree builder); off by default
    /// and free when off.
    pub report_errors: bool,
}

/// The context element of a fragment parse: its namespace and local name
/// (e.g. `td`, `svg path`, `math mi` as html5lib-tests write them), and
/// whether it is or is inside a `form` (which sets the form element
/// pointer: a `<form>` in the fragment is then ignored, as in a browser).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentContext {
    /// The namespace.
    pub ns: Namespace,
    /// The local name, lower case.
    pub name: String,
    /// The context element is a `form` or has one among its ancestors.
    pub in_form: bool,
}

impl FragmentContext {
    /// An HTML context element.
    pub fn html(name: &str) -> FragmentContext {
        let name = name.to_ascii_lowercase();
        FragmentContext {
            ns: Namespace::Html,
            in_form: name == "form",
            name,
        }
    }
}

impl FromStr for FragmentContext {
    type Err = std::convert::Infallible;

    /// `"td"` (HTML), `"svg path"`, `"math mi"`.
    fn from_str(s: &str) -> Result<FragmentContext, Self::Err> {
        let (ns, name) = match s.split_once(' ') {
            Some(("svg", name)) => (Namespace::Svg, name),
            Some(("math", name)) => (Namespace::MathMl, name),
            _ => (Namespace::Html, s),
        };
        let name = name.to_ascii_lowercase();
        Ok(FragmentContext {
            ns,
            in_form: ns == Namespace::Html && name == "form",
            name,
        })
    }
}

/// Parses a whole document.
///
/// ```
/// use spinneret_html::{parse_document, ParseOptions};
/// let doc = parse_document("<p>One<p>Two", &ParseOptions::default());
/// assert_eq!(doc.dump(), "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"One\"\n|     <p>\n|       \"Two\"\n");
/// ```
pub fn parse_document(input: &str, options: &ParseOptions) -> Document {
    // The document keeps its own copy of the input, which its text spans.
    let sink = DomSink::new(input.to_owned(), false);
    let mut builder = TreeBuilder::new(sink, options.scripting, options.report_errors);
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    core.scan_stream_errors(input, 0);
    drive(&mut builder, &mut core, input, true);
    finish(builder, core)
}

/// Parses a whole document into any [`TreeSink`]: the tree builder tells
/// `sink` what to create and where; `TokenText::Input` spans it is given
/// are byte offsets in `input`. Returns the sink and the tree builder's
/// parse errors (line and column filled in) when reporting is on.
pub fn parse_with_sink<S: TreeSink>(
    input: &str,
    sink: S,
    options: &ParseOptions,
) -> (S, Vec<TreeError>) {
    let mut builder = TreeBuilder::new(sink, options.scripting, options.report_errors);
    builder.sink.input_appended(input);
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    drive(&mut builder, &mut core, input, true);
    let (sink, mut errors) = builder.into_parts();
    super::locate_errors(&mut errors, input);
    (sink, errors)
}

/// Parses `input` as the children of a `context` element (the HTML
/// fragment parsing algorithm, as for `innerHTML`). The document's root is
/// a fragment node holding the result.
pub fn parse_fragment(input: &str, context: &FragmentContext, options: &ParseOptions) -> Document {
    let sink = DomSink::new(input.to_owned(), true);
    let mut builder = TreeBuilder::new(sink, options.scripting, options.report_errors);
    let context_name = match LocalName::from_lowercase(context.name.as_bytes()) {
        Some(n) => crate::token::Name::Known(n),
        None => crate::token::Name::Other(&context.name),
    };
    let key = builder.key(context_name);
    let info = ElemInfo {
        ns: context.ns,
        key,
        html_integration_point: context.ns == Namespace::Svg
            && matches!(
                key.local(),
                Some(LocalName::Foreignobject | LocalName::Desc | LocalName::Title)
            ),
    };
    // The tokenizer's state from the context element.
    let html_name = info.html_name();
    let mode = match html_name {
        Some(LocalName::Title | LocalName::Textarea) => TextMode::Rcdata,
        Some(
            LocalName::Style
            | LocalName::Xmp
            | LocalName::Iframe
            | LocalName::Noembed
            | LocalName::Noframes,
        ) => TextMode::Rawtext,
        Some(LocalName::Script) => TextMode::ScriptData,
        Some(LocalName::Noscript) if options.scripting => TextMode::Rawtext,
        Some(LocalName::Plaintext) => TextMode::Plaintext,
        _ => TextMode::Data,
    };
    // No start tag has been emitted, so no end tag is *appropriate*: the
    // context's contents run to the end (`</script>` inside a script
    // fragment is text).
    let mut core = Core::new(&tokenizer_options(options, mode, None));
    core.driven = true;
    // The root html element, the context, and the insertion mode.
    let root_tag = TagTok {
        name: crate::token::Name::Known(LocalName::Html),
        attrs: TagAttrs::empty(),
        self_closing: false,
    };
    let root = builder.create_element_for(&root_tag, Namespace::Html);
    let doc = builder.sink.document();
    builder.sink.append(doc, root.node);
    builder.state.open.push(root);
    builder.state.context = Some(info);
    if info.is_html(LocalName::Template) {
        builder
            .state
            .template_modes
            .push(super::InsertionMode::InTemplate);
    }
    builder.reset_insertion_mode();
    if context.in_form {
        // The form element pointer points to the context's form, which
        // is outside the fragment: a detached element stands for it.
        let form_tag = TagTok {
            name: crate::token::Name::Known(LocalName::Form),
            attrs: TagAttrs::empty(),
            self_closing: false,
        };
        builder.state.form = Some(builder.create_element_for(&form_tag, Namespace::Html).node);
    }
    builder.after_token();
    core.cdata_allowed = builder.control.foreign;
    core.scan_stream_errors(input, 0);
    drive(&mut builder, &mut core, input, true);
    // The result is the root element's children.
    builder.sink.reparent_children(root.node, doc);
    builder.sink.detach(root.node);
    finish(builder, core)
}

/// A document parser fed in chunks; the document is the same whatever
/// the chunking.
///
/// ```
/// use spinneret_html::{parse_document, ParseOptions, StreamParser};
/// let mut p = StreamParser::new(&ParseOptions::default());
/// for chunk in ["<p>a", "&amp;", "b</p><tab", "le><td>x"] {
///     p.feed(chunk);
/// }
/// let whole = parse_document("<p>a&amp;b</p><table><td>x", &ParseOptions::default());
/// assert_eq!(p.finish().dump(), whole.dump());
/// ```
pub struct StreamParser {
    builder: TreeBuilder<DomSink>,
    core: Core,
    /// The input from the start of the first incomplete token on.
    buf: String,
    /// Don't re-run before the buffer reaches this length.
    retry_at: usize,
}

impl StreamParser {
    /// A parser for a document.
    pub fn new(options: &ParseOptions) -> StreamParser {
        let sink = DomSink::new(String::new(), false);
        let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
        core.driven = true;
        StreamParser {
            builder: TreeBuilder::new(sink, options.scripting, options.report_errors),
            core,
            buf: String::new(),
            retry_at: 0,
        }
    }

    /// Appends a chunk of the input and builds what it completes.
    pub fn feed(&mut self, chunk: &str) {
        let global = self.core.base + self.buf.len();
        self.core.scan_stream_errors(chunk, global);
        self.builder.sink.input_appended(chunk);
        self.buf.push_str(chunk);
        if self.buf.len() >= self.retry_at {
            self.run(false);
        }
    }

    /// Ends the input and returns the document.
    pub fn finish(mut self) -> Document {
        self.run(true);
        finish(self.builder, self.core)
    }

    fn run(&mut self, at_eof: bool) {
        let pending = match drive(&mut self.builder, &mut self.core, &self.buf, at_eof) {
            Stopped::NeedMore(n) => Some(n),
            Stopped::End | Stopped::MetaEncoding => None,
        };
        let consumed = self.core.pos;
        if consumed > 0 {
            self.core.before_drain(&self.buf, consumed);
            self.buf.drain(..consumed);
            self.core.base += consumed;
            self.core.pos = 0;
        }
        self.retry_at = pending.map_or(0, |n| (2 * n).max(n + 1));
    }
}

pub(crate) fn tokenizer_options(
    options: &ParseOptions,
    mode: TextMode,
    last: Option<&str>,
) -> TokenizerOptions {
    TokenizerOptions {
        initial_state: mode,
        last_start_tag: last.map(str::to_owned),
        report_errors: options.report_errors,
        simulate_tree_builder: false,
        scripting: options.scripting,
    }
}

/// Ends a parse: the document with the tree builder's errors (the
/// tokenizer's are merged in by offset).
pub(crate) fn finish(builder: TreeBuilder<DomSink>, core: Core) -> Document {
    let (sink, mut errors) = builder.into_parts();
    errors.sort_by_key(|e: &TreeError| e.offset);
    super::locate_errors(&mut errors, sink.source());
    sink.finish(errors, core.errors().to_vec())
}

/// Why [`drive`] stopped.
pub(crate) enum Stopped {
    /// The input ended (at the end of the input).
    End,
    /// The buffer ends inside a token this long; feed more.
    NeedMore(usize),
    /// A `<meta>` declared an encoding (only when the tree builder watches
    /// for one): the caller decides whether to go on.
    MetaEncoding,
}

/// Runs tokenizer and tree builder over `input` (the buffer, whose first
/// byte is at `core.base` in the whole input) until the input ends, more is
/// needed, or a watched `<meta>` declares an encoding.
pub(crate) fn drive<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    core: &mut Core,
    input: &str,
    at_eof: bool,
) -> Stopped {
    loop {
        let base = core.base;
        let errors = builder.error_count();
        match core.step_driven(input, at_eof) {
            Step::Token(token) => process_token(builder, token, input, base),
            Step::End => {
                process_eof(builder, base + input.len());
                return Stopped::End;
            }
            Step::NeedMore => return Stopped::NeedMore(input.len() - core.pos),
        }
        // The token's own start: bytes before it that formed no token
        // (`</>`) are not part of it, whatever the chunking.
        builder.place_errors(errors, base + core.token_start());
        if after_token(builder, core) {
            return Stopped::MetaEncoding;
        }
    }
}

/// Hands one token to the tree builder; `input` is the buffer the token's
/// input spans are in, whose first byte is at `base` in the whole input.
/// (The caller places the token's errors: [`TreeBuilder::place_errors`].)
#[inline]
pub(crate) fn process_token<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    token: Token<'_>,
    input: &str,
    base: usize,
) {
    builder.control.switch_to = None;
    // What tokens refer to while the tree builder has them.
    let source;
    let doctype;
    let tok = match token {
        Token::Doctype(d) => {
            doctype = d;
            Tok::Doctype(&doctype)
        }
        Token::StartTag(t) => {
            source = AttrSource {
                attrs: t.attrs,
                base,
            };
            Tok::Start(tag_tok(&t, &source))
        }
        Token::EndTag(t) => {
            source = AttrSource {
                attrs: t.attrs,
                base,
            };
            Tok::End(tag_tok(&t, &source))
        }
        Token::Comment(c) => Tok::Comment(input_text(c, input, base)),
        Token::Text(t) => Tok::Text(input_text(t, input, base)),
    };
    builder.process(tok);
}

/// Hands the tree builder a text (`comment`: a comment's data) whose place
/// is known: [`process_token`] without the search for where it lies (a
/// worker's recorded token keeps its text as a span, `parallel/record.rs`).
#[inline]
pub(crate) fn process_text<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    text: TokenText<'_>,
    comment: bool,
) {
    builder.control.switch_to = None;
    builder.process(if comment {
        Tok::Comment(text)
    } else {
        Tok::Text(text)
    });
}

/// Hands the tree builder a tag (`end`: an end tag) whose attributes' texts
/// are offsets in the whole input: [`process_token`] without a [`Token`]
/// to take apart (a worker's recorded token, `parallel/record.rs`).
#[inline]
pub(crate) fn process_tag<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    tag: &crate::token::Tag<'_>,
    end: bool,
) {
    builder.control.switch_to = None;
    let source = AttrSource {
        attrs: tag.attrs,
        base: 0,
    };
    let tok = tag_tok(tag, &source);
    builder.process(if end { Tok::End(tok) } else { Tok::Start(tok) });
}

/// Hands the end of the input (at `offset`) to the tree builder.
pub(crate) fn process_eof<S: TreeSink>(builder: &mut TreeBuilder<S>, offset: usize) {
    let errors = builder.error_count();
    builder.control.switch_to = None;
    builder.process(Tok::Eof);
    builder.report_options_open_at_end();
    builder.place_errors(errors, offset);
}

/// Applies what the tree builder asked of the tokenizer after a token (a
/// text mode; whether CDATA sections are allowed). Returns whether a
/// watched `<meta>` declared an encoding.
#[inline]
pub(crate) fn after_token<S: TreeSink>(builder: &mut TreeBuilder<S>, core: &mut Core) -> bool {
    if let Some((mode, tag)) = builder.control.switch_to {
        core.switch_text_mode(mode, tag);
    }
    core.cdata_allowed = builder.control.foreign;
    builder.control.meta_encoding.is_some()
}

/// Token text as an input span (offset in the whole input) where it is
/// one, else scratch text.
#[inline]
fn input_text<'t>(s: &'t str, input: &str, base: usize) -> TokenText<'t> {
    let offset = (s.as_ptr() as usize).wrapping_sub(input.as_ptr() as usize);
    if offset <= input.len() && s.len() <= input.len() - offset {
        TokenText::Input {
            start: base + offset,
            text: s,
        }
    } else {
        TokenText::Scratch(s)
    }
}

/// The tree builder's view of a tag.
#[inline]
fn tag_tok<'a>(t: &crate::token::Tag<'a>, source: &'a AttrSource<'a>) -> TagTok<'a> {
    TagTok {
        name: t.name,
        attrs: TagAttrs {
            src: source,
            adjust: AttrAdjust::Html,
        },
        self_closing: t.self_closing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TreeErrorKind;

    #[test]
    fn a_fragment_inside_a_form_ignores_forms() {
        let options = ParseOptions::default();
        let input = "<form><input></form><p>x";
        let outside = parse_fragment(input, &FragmentContext::html("div"), &options);
        assert!(outside.dump().starts_with("| <form>\n"));
        let mut context = FragmentContext::html("div");
        context.in_form = true;
        let inside = parse_fragment(input, &context, &options);
        assert_eq!(inside.dump(), "| <input>\n| <p>\n|   \"x\"\n");
        let form: FragmentContext = "form".parse().unwrap();
        assert!(form.in_form);
        assert_eq!(parse_fragment(input, &form, &options).dump(), inside.dump());
    }

    #[test]
    fn errors_are_reported_with_positions_only_when_asked() {
        let input = "<!DOCTYPE html>\r\n<p a=1 a=2>x</div>\n\u{1F600}</span>";
        let quiet = parse_document(input, &ParseOptions::default());
        assert!(quiet.errors().is_empty() && quiet.tokenizer_errors().is_empty());
        let options = ParseOptions {
            report_errors: true,
            ..ParseOptions::default()
        };
        let doc = parse_document(input, &options);
        assert_eq!(doc.dump(), quiet.dump());
        let tree: Vec<_> = doc
            .errors()
            .iter()
            .map(|e| (e.kind, e.line, e.col))
            .collect();
        assert_eq!(
            tree,
            [
                (TreeErrorKind::UnexpectedEndTag, 2, 13),
                (TreeErrorKind::UnexpectedEndTag, 3, 3),
            ]
        );
        let tokenizer: Vec<_> = doc
            .tokenizer_errors()
            .iter()
            .map(|e| e.code.spec_name())
            .collect();
        assert_eq!(tokenizer, ["duplicate-attribute"]);
        // The same from a stream.
        let mut stream = StreamParser::new(&options);
        for piece in input.split_inclusive('>') {
            stream.feed(piece);
        }
        assert_eq!(stream.finish().errors(), doc.errors());
    }

    /// Found by fuzz/tree_builder: bytes that form no token (`</>`) put
    /// the next error at the start of the step when whole and after them
    /// when streamed.
    #[test]
    fn errors_after_bytes_that_form_no_token_do_not_depend_on_chunking() {
        let options = ParseOptions {
            report_errors: true,
            ..ParseOptions::default()
        };
        for input in ["</>", "<p></></>x", "</><p>", "<div>a</>"] {
            let whole = parse_document(input, &options);
            for cut in 0..=input.len() {
                let mut stream = StreamParser::new(&options);
                stream.feed(&input[..cut]);
                stream.feed(&input[cut..]);
                assert_eq!(
                    stream.finish().errors(),
                    whole.errors(),
                    "{input:?} cut at {cut}"
                );
            }
        }
        let doc = parse_document("</>", &options);
        let at: Vec<_> = doc.errors().iter().map(|e| (e.kind, e.offset)).collect();
        assert_eq!(at, [(TreeErrorKind::MissingOrBadDoctype, 3)]);
    }
}
