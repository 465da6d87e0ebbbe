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

mod char_ref;
mod comment;
mod doctype;
mod fast_path;
mod fast_tag;
mod position;
mod report;
mod tag;
mod text;

use crate::acc::Acc;
use crate::error::{ErrorCode, ParseError};
use crate::names::LocalName;
use crate::simulator::Simulator;
use crate::token::{AttrRepr, Attrs, Doctype, Name, Tag, Token};
use position::LineCol;
use std::collections::HashMap;
use std::hash::RandomState;

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
enum LastTag {
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

/// What one call of the core produced.
pub(crate) enum Step<'t> {
    Token(Token<'t>),
    NeedMore,
    End,
}

/// A token as built, before it is lent out.
enum Built {
    Text(Acc),
    Comment(Acc),
    Doctype {
        name: Option<Acc>,
        public_id: Option<Acc>,
        system_id: Option<Acc>,
        force_quirks: bool,
    },
    Tag {
        end: bool,
        known: Option<LocalName>,
        name: Acc,
        self_closing: bool,
    },
}

/// Outcome of scanning from a token boundary.
enum Scan {
    Built(Built),
    /// Input was consumed but produced no token (e.g. `</>`); go on.
    Nothing,
    NeedMore,
    End,
}

/// The tokenizer core: state between tokens plus reusable buffers.
pub(crate) struct Core {
    mode: TextMode,
    last_start_tag: LastTag,
    simulator: Option<Simulator>,
    report: bool,
    /// Offset of the buffer's first byte in the whole input.
    pub(crate) base: usize,
    /// Position in the buffer.
    pub(crate) pos: usize,
    scratch: String,
    attrs: Vec<AttrRepr>,
    errors: Vec<ParseError>,
    /// Input-stream errors (control characters, noncharacters) found by
    /// the pre-scan, merged into `errors` by offset as tokens complete.
    stream_errors: std::collections::VecDeque<(usize, ErrorCode)>,
    /// Position of `lc` is at or before the start of the current token.
    lc: LineCol,
    /// The position of the last error (a cache for `line_col_at`).
    err_lc: LineCol,
    /// Names of the current tag's attributes, filled only for tags with
    /// many attributes (the duplicate check stays linear); `attr_set_used`
    /// says whether it describes the current tag.
    attr_set: HashMap<u64, u32>,
    attr_set_used: bool,
    attr_hasher: RandomState,
}

/// Whitespace as the tokenizer states see it: tab, LF, FF and space. CR is
/// not among them because input preprocessing normalizes newlines (CR and
/// CRLF become LF) before tokenization; here [`Run::peek`] does it, so a
/// state never sees a CR.
#[inline]
fn is_ws_after_newline_normalization(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b' ')
}

/// The byte at `p` as the tokenizer sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Peek {
    /// End of input (the real end).
    Eof,
    /// End of the buffer; more input may come.
    More,
    /// An ASCII byte (CR already normalized to LF) and how many input bytes
    /// it takes (2 for CRLF).
    Ascii(u8, usize),
    /// A non-ASCII character and its UTF-8 length.
    Other(usize),
}

impl Core {
    pub(crate) fn new(options: &TokenizerOptions) -> Core {
        Core {
            mode: options.initial_state,
            last_start_tag: options
                .last_start_tag
                .as_deref()
                .map(LastTag::from_name)
                .unwrap_or_default(),
            simulator: options
                .simulate_tree_builder
                .then(|| Simulator::new(options.scripting)),
            report: options.report_errors,
            base: 0,
            pos: 0,
            scratch: String::new(),
            attrs: Vec::new(),
            errors: Vec::new(),
            stream_errors: Default::default(),
            lc: LineCol::start(),
            err_lc: LineCol::start(),
            attr_set: HashMap::new(),
            attr_set_used: false,
            attr_hasher: RandomState::new(),
        }
    }

    pub(crate) fn from_snapshot(snapshot: &Snapshot, options: &TokenizerOptions) -> Core {
        let mut core = Core::new(options);
        core.mode = snapshot.mode;
        core.last_start_tag = snapshot.last_start_tag.clone();
        core.simulator = snapshot.simulator.clone();
        core
    }

    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            mode: self.mode,
            last_start_tag: self.last_start_tag.clone(),
            simulator: self.simulator.clone(),
        }
    }

    /// Produces the next token from `input` (the buffer; `self.pos` is the
    /// current position in it).
    #[inline]
    pub(crate) fn step<'t>(&'t mut self, input: &'t str, at_eof: bool) -> Step<'t> {
        let built = match self.fast_scan(input, at_eof) {
            Some(built) => built,
            None => match self.scan_states(input, at_eof) {
                Ok(built) => built,
                Err(step) => return step,
            },
        };
        if let Built::Tag {
            end,
            known,
            name,
            self_closing,
        } = &built
            && self
                .simulator
                .as_ref()
                .is_none_or(|sim| sim.acts_on(*end, *known))
        {
            let attrs = Attrs {
                reprs: &self.attrs,
                input,
                scratch: &self.scratch,
            };
            let tag_name = match known {
                Some(n) => Name::Known(*n),
                None => Name::Other(name.get(input, &self.scratch)),
            };
            if *end {
                if let Some(sim) = &mut self.simulator {
                    sim.end_tag(tag_name);
                }
            } else if let Some(sim) = &mut self.simulator {
                // The last start tag matters only in the text
                // modes the simulator switches to, right after
                // the tag that switched: record it then.
                if let Some(mode) = sim.start_tag(tag_name, &attrs, *self_closing) {
                    self.mode = mode;
                    self.last_start_tag = LastTag::from_known(*known, tag_name.as_str());
                }
            } else {
                self.last_start_tag = LastTag::from_known(*known, tag_name.as_str());
            }
        }
        Step::Token(self.view(built, input))
    }

    /// The general step: any token in any state, with errors; `Err` is the
    /// step's result when no token was built (the end, or more input
    /// needed).
    #[inline(never)]
    fn scan_states<'t>(&mut self, input: &'t str, at_eof: bool) -> Result<Built, Step<'t>> {
        if self.mode == TextMode::Data && !self.report {
            let fast = if input.as_bytes().get(self.pos) == Some(&b'<') {
                self.fast_comment(input)
            } else {
                self.fast_text_decoded(input, at_eof)
            };
            if let Some(built) = fast {
                return Ok(built);
            }
        }
        loop {
            let start = self.pos;
            let mode = self.mode;
            let nerr = self.errors.len();
            self.scratch.clear();
            self.attrs.clear();
            let mut run = Run {
                input,
                b: input.as_bytes(),
                at_eof,
                core: self,
            };
            match run.scan(start) {
                Scan::NeedMore => {
                    self.pos = start;
                    self.mode = mode;
                    self.errors.truncate(nerr);
                    return Err(Step::NeedMore);
                }
                Scan::End => {
                    if self.report {
                        let end = self.base + input.len() + 1;
                        self.merge_stream_errors(input, nerr, end);
                    }
                    return Err(Step::End);
                }
                Scan::Nothing => {
                    if self.report {
                        let upto = self.base + self.pos;
                        self.merge_stream_errors(input, nerr, upto);
                    }
                    continue;
                }
                Scan::Built(built) => {
                    if self.report {
                        let upto = self.base + self.pos;
                        self.merge_stream_errors(input, nerr, upto);
                        self.track_to(input, self.base + start);
                    }
                    return Ok(built);
                }
            }
        }
    }

    #[inline]
    fn view<'t>(&'t self, built: Built, input: &'t str) -> Token<'t> {
        let scratch = self.scratch.as_str();
        let get = |a: Acc| a.get(input, scratch);
        match built {
            Built::Text(a) => Token::Text(get(a)),
            Built::Comment(a) => Token::Comment(get(a)),
            Built::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
            } => Token::Doctype(Doctype {
                name: name.map(get),
                public_id: public_id.map(get),
                system_id: system_id.map(get),
                force_quirks,
            }),
            Built::Tag {
                end,
                known,
                name,
                self_closing,
            } => {
                let tag = Tag {
                    name: match known {
                        Some(n) => Name::Known(n),
                        None => Name::Other(get(name)),
                    },
                    attrs: Attrs {
                        reprs: &self.attrs,
                        input,
                        scratch,
                    },
                    self_closing,
                };
                if end {
                    Token::EndTag(tag)
                } else {
                    Token::StartTag(tag)
                }
            }
        }
    }
}

/// One scan from a token boundary over the current buffer.
struct Run<'a, 'c> {
    input: &'a str,
    b: &'a [u8],
    at_eof: bool,
    core: &'c mut Core,
}

/// Early exit from a scan when the buffer ends mid-token.
struct NeedMore;

type R<T> = Result<T, NeedMore>;

#[inline]
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

impl<'a> Run<'a, '_> {
    #[inline]
    fn peek(&self, p: usize) -> Peek {
        match self.b.get(p) {
            None => {
                if self.at_eof {
                    Peek::Eof
                } else {
                    Peek::More
                }
            }
            Some(b'\r') => match self.b.get(p + 1) {
                Some(b'\n') => Peek::Ascii(b'\n', 2),
                Some(_) => Peek::Ascii(b'\n', 1),
                None if self.at_eof => Peek::Ascii(b'\n', 1),
                None => Peek::More,
            },
            Some(&c) if c < 0x80 => Peek::Ascii(c, 1),
            Some(&c) => Peek::Other(utf8_len(c)),
        }
    }

    #[inline]
    fn err(&mut self, code: ErrorCode, p: usize) {
        if self.core.report {
            self.core.push_error(self.input, code, p);
        }
    }

    #[inline]
    fn push(&mut self, acc: &mut Acc, from: usize, to: usize) {
        acc.push_input(from, to, self.input, &mut self.core.scratch);
    }

    #[inline]
    fn push_char(&mut self, acc: &mut Acc, c: char) {
        acc.push_char(c, self.input, &mut self.core.scratch);
    }

    /// Appends the character at `p` (of source length `len`, normalized
    /// byte `c`) to `acc`: CR/CRLF become LF.
    #[inline]
    fn push_normalized(&mut self, acc: &mut Acc, p: usize, c: u8, len: usize) {
        if c == b'\n' && self.b[p] == b'\r' {
            self.push_char(acc, '\n');
        } else {
            self.push(acc, p, p + len);
        }
    }

    fn finish_text(&mut self, acc: Acc, p: usize) -> Scan {
        self.core.pos = p;
        if acc.is_empty() {
            Scan::Nothing
        } else {
            Scan::Built(Built::Text(acc))
        }
    }

    #[inline(never)]
    fn scan(&mut self, start: usize) -> Scan {
        let r = match self.core.mode {
            TextMode::Data => self.data(start),
            TextMode::Rcdata => self.rcdata_rawtext(start, true),
            TextMode::Rawtext => self.rcdata_rawtext(start, false),
            TextMode::ScriptData => self.script_data(start),
            TextMode::Plaintext => self.plaintext(start),
            TextMode::CdataSection => self.cdata(start),
        };
        match r {
            Ok(Scan::Nothing) if start == self.b.len() && self.at_eof && self.core.pos == start => {
                Scan::End
            }
            Ok(s) => s,
            Err(NeedMore) => Scan::NeedMore,
        }
    }
}

impl<'a> Run<'a, '_> {
    /// Whether the input at `p` starts with `word` (ASCII case-insensitive
    /// when `fold`), waiting for more input when it cannot tell yet.
    fn starts_with_at(&self, p: usize, word: &[u8], fold: bool) -> R<bool> {
        for (i, &w) in word.iter().enumerate() {
            match self.b.get(p + i) {
                None if !self.at_eof => return Err(NeedMore),
                None => return Ok(false),
                Some(&c) => {
                    let same = if fold {
                        c.eq_ignore_ascii_case(&w)
                    } else {
                        c == w
                    };
                    if !same {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
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
        match self.core.step(self.input, true) {
            Step::Token(t) => Some(t),
            Step::End => {
                self.done = true;
                None
            }
            Step::NeedMore => unreachable!("a whole input never needs more"),
        }
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
    loop {
        match t.core.step(input, true) {
            Step::Token(token) => sink(token),
            Step::End => break,
            Step::NeedMore => unreachable!("a whole input never needs more"),
        }
    }
    t.core.errors
}
