//! The HTML Standard's tokenizer (§13.2.5), resumable at token boundaries.
//!
//! The core ([`Core`]) produces one token per call from a buffer that holds
//! the input from the current position on. A call either returns a complete
//! token, or — when the buffer ends in the middle of one and more input may
//! come — returns `NeedMore` having changed nothing, so the caller can append
//! input and call again. This one mechanism gives the streaming tokenizer,
//! the whole-input tokenizer and snapshots:
//!
//! - between tokens the whole state is a [`Snapshot`]: the text mode
//!   (data, RCDATA, RAWTEXT, script data, PLAINTEXT, CDATA section), the
//!   last start tag name (for *appropriate end tags*) and the tree-builder
//!   simulator's state;
//! - a token starts in one of those text modes, so tokenizing can start on
//!   any slice that begins at a token boundary.
//!
//! Character tokens are coalesced into text runs that end where markup
//! starts (or at the end of input); a run is not emitted until its end is
//! seen, so chunking never changes where runs split.
//!
//! Every state of the standard is here; the spec's state names appear in the
//! comments. The machine walks bytes: every decision is on an ASCII byte,
//! and non-ASCII text is copied through unchanged.
//!
//! Where things are (each file's doc names the spec states it implements
//! and every other producer of the same tokens):
//!
//! - this file: the public API — [`Tokenizer`], [`tokenize`],
//!   [`TokenizerOptions`], [`TextMode`], [`Snapshot`];
//! - `step.rs`: the step loop ([`Core`], `Core::step`, `Core::scan_states`)
//!   and the built token before it is lent out;
//! - `fast_path.rs` and `fast_tag.rs`: the fast paths, which produce the
//!   commonest data-state tokens (text runs, tags, comments) without the
//!   states when errors are not reported (`short_name.rs`: the commonest
//!   names read as one word);
//! - `run.rs`: the cursor the states share (`Run`: `peek`, which
//!   normalizes newlines, and appending to a token);
//! - `text.rs`: data, RCDATA, RAWTEXT, script data, PLAINTEXT and CDATA
//!   section states;
//! - `tag.rs`: tag open, end tag open, tag name and attribute states;
//! - `comment.rs`: markup declaration open, bogus comment and comment
//!   states;
//! - `doctype.rs`: the DOCTYPE states;
//! - `char_ref.rs`: the character reference states (the table lookup is
//!   `crate::char_ref`);
//! - `position.rs` and `report.rs`: line/column tracking and the recording
//!   of parse errors.
//!
//! Byte-class tables and run scans are `crate::byte_scan`'s.

mod boundary;
mod char_ref;
mod comment;
mod doctype;
mod fast_path;
mod fast_tag;
mod position;
mod report;
mod run;
mod short_name;
mod step;
mod tag;
mod text;

pub(crate) use boundary::Boundary;
pub(crate) use step::{Built, Core, Step};

use crate::error::ParseError;
use crate::names::LocalName;
use crate::simulator::Simulator;
use crate::token::Token;

/// The text states a tokenizer can start in (html5lib's *initial states*),
/// which are also the states it can be in between two tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TextMode {
    /// The data state.
    #[default]
    Data,
    /// The RCDATA state (`title`, `textarea`).
    Rcdata,
    /// The RAWTEXT state (`style`, `xmp`, `iframe`, `noembed`, `noframes`).
    Rawtext,
    /// The script data state.
    ScriptData,
    /// The PLAINTEXT state.
    Plaintext,
    /// The CDATA section state.
    CdataSection,
}

/// How to tokenize.
#[derive(Clone, Debug)]
pub struct TokenizerOptions {
    /// The state to start in.
    pub initial_state: TextMode,
    /// The last start tag's name, which makes end tags *appropriate* in the
    /// RCDATA, RAWTEXT and script data states.
    pub last_start_tag: Option<String>,
    /// Collect parse errors (off by default; free when off).
    pub report_errors: bool,
    /// Run the tree-builder simulator, which switches text modes where a
    /// tree builder would (on by default).
    pub simulate_tree_builder: bool,
    /// The scripting flag: `noscript` is RAWTEXT when on (off by default,
    /// as a crawler wants).
    pub scripting: bool,
}

impl Default for TokenizerOptions {
    fn default() -> Self {
        TokenizerOptions {
            initial_state: TextMode::Data,
            last_start_tag: None,
            report_errors: false,
            simulate_tree_builder: true,
            scripting: false,
        }
    }
}

/// The last start tag, for *appropriate end tag* checks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum LastTag {
    #[default]
    None,
    Known(LocalName),
    Other(Box<str>),
}

impl LastTag {
    fn from_name(name: &str) -> LastTag {
        match LocalName::from_lowercase(name.as_bytes()) {
            Some(n) => LastTag::Known(n),
            None => LastTag::Other(name.into()),
        }
    }

    fn from_known(known: Option<LocalName>, name: &str) -> LastTag {
        match known {
            Some(n) => LastTag::Known(n),
            None => LastTag::Other(name.into()),
        }
    }

    fn as_str(&self) -> Option<&str> {
        match self {
            LastTag::None => None,
            LastTag::Known(n) => Some(n.as_str()),
            LastTag::Other(s) => Some(s),
        }
    }
}

/// The complete tokenizer and simulator state at a token boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    mode: TextMode,
    last_start_tag: LastTag,
    simulator: Option<Simulator>,
}

impl Snapshot {
    /// The text mode the tokenizer is in at this boundary.
    pub fn text_mode(&self) -> TextMode {
        self.mode
    }

    /// Whether the simulator is inside SVG or MathML content (where CDATA
    /// sections are recognised).
    pub fn in_foreign_content(&self) -> bool {
        self.simulator
            .as_ref()
            .is_some_and(Simulator::in_foreign_content)
    }
}

/// Tokenizes one complete input. Tokens are spans of it (or of the
/// tokenizer's scratch space) and live until the next call.
pub struct Tokenizer<'a> {
    input: &'a str,
    core: Core,
    done: bool,
}

impl<'a> Tokenizer<'a> {
    /// A tokenizer over `input`.
    pub fn new(input: &'a str, options: TokenizerOptions) -> Tokenizer<'a> {
        let mut core = Core::new(&options);
        core.scan_stream_errors(input, 0);
        Tokenizer {
            input,
            core,
            done: false,
        }
    }

    /// A tokenizer over `input` — which starts at a token boundary of some
    /// document — in the state `snapshot` recorded there.
    pub fn from_snapshot(
        input: &'a str,
        snapshot: &Snapshot,
        options: TokenizerOptions,
    ) -> Tokenizer<'a> {
        let mut core = Core::from_snapshot(snapshot, &options);
        core.scan_stream_errors(input, 0);
        Tokenizer {
            input,
            core,
            done: false,
        }
    }

    /// The next token, or `None` at the end.
    #[inline]
    pub fn next_token(&mut self) -> Option<Token<'_>> {
        if self.done {
            return None;
        }
        let token = self.core.step(self.input, true);
        // A whole input never needs more: `None` is the end.
        self.done = token.is_none();
        token
    }

    /// While `skip` is on, text that the data state would emit before a
    /// `<` that starts markup (a tag, an end tag, a comment, a doctype or
    /// a bogus comment) is passed over, not returned — found by one scan
    /// for `<`, with no character reference decoded — and every other
    /// token is exactly what it would be: the same tags, comments and
    /// doctypes at the same offsets, and the same simulator state. Other
    /// text is still returned: at the end of the input, and in the RCDATA,
    /// RAWTEXT, script data, PLAINTEXT and CDATA states. With errors
    /// reported it has no effect (the errors need every character).
    ///
    /// For consumers that read only the markup for stretches of a page —
    /// the link extractor, outside `<a>` elements. May be switched between
    /// any two tokens; it is the caller's, not the tokenizer's, state
    /// ([`Tokenizer::snapshot`] leaves it out).
    ///
    /// ```
    /// use spinneret_html::{Token, Tokenizer, TokenizerOptions};
    /// let mut tok = Tokenizer::new("a &amp; b<p>c<script>d</script>e", TokenizerOptions::default());
    /// tok.skip_data_text(true);
    /// let mut seen = Vec::new();
    /// while let Some(token) = tok.next_token() {
    ///     seen.push(match token {
    ///         Token::Text(t) => format!("text {t}"),
    ///         Token::StartTag(t) => format!("<{}>", t.name.as_str()),
    ///         Token::EndTag(t) => format!("</{}>", t.name.as_str()),
    ///         other => format!("{other:?}"),
    ///     });
    /// }
    /// // The script's text and the text at the end remain.
    /// assert_eq!(seen, ["<p>", "<script>", "text d", "</script>", "text e"]);
    /// ```
    pub fn skip_data_text(&mut self, skip: bool) {
        self.core.skip_text = skip;
    }

    /// The byte offset where the next token starts.
    pub fn offset(&self) -> usize {
        self.core.pos
    }

    /// The state at the current token boundary.
    pub fn snapshot(&self) -> Snapshot {
        self.core.snapshot()
    }

    /// Whether the simulator is inside SVG or MathML content at the current
    /// token boundary (`snapshot().in_foreign_content()` without copying the
    /// state).
    pub fn in_foreign_content(&self) -> bool {
        self.core
            .simulator
            .as_ref()
            .is_some_and(Simulator::in_foreign_content)
    }

    /// The parse errors so far (when `report_errors` is on).
    pub fn errors(&self) -> &[ParseError] {
        self.core.errors()
    }
}

/// Tokenizes `input`, calling `sink` for each token, and returns the parse
/// errors (empty unless `options.report_errors`).
pub fn tokenize(
    input: &str,
    options: TokenizerOptions,
    mut sink: impl FnMut(Token<'_>),
) -> Vec<ParseError> {
    let mut t = Tokenizer::new(input, options);
    // A whole input never needs more: `None` is the end.
    while let Some(token) = t.core.step(input, true) {
        sink(token);
    }
    t.core.errors
}
