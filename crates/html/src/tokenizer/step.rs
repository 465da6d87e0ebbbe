//! The step loop: [`Core`], the tokenizer's state between tokens, and
//! [`Core::step`], which produces one token.
//!
//! A step tries the fast paths first (`fast_path.rs`, which may call the
//! tag fast path of `fast_tag.rs`), then the general step,
//! [`Core::scan_states`], which runs the spec states (through
//! [`Run::scan`](super::run::Run::scan)) from the current text mode. A
//! state builds a [`Built`] token of spans of the input or of scratch space
//! ([`Acc`]); the step then lets the tree-builder simulator act on a tag
//! (switching the text mode where a tree builder would) and lends the
//! token out ([`Core::view`]).
//!
//! A step that finds the buffer ending inside a token returns
//! [`Step::NeedMore`] having changed nothing (position, text mode, errors
//! all restored), so the caller can append input and call again.

use super::position::LineCol;
use super::run::Run;
use super::{LastTag, Snapshot, TextMode, TokenizerOptions};
use crate::acc::Acc;
use crate::error::{ErrorCode, ParseError};
use crate::names::LocalName;
use crate::simulator::Simulator;
use crate::token::{AttrRepr, Attrs, Doctype, Name, Tag, Token};
use std::collections::HashMap;
use std::hash::RandomState;

/// What one call of the core produced.
pub(crate) enum Step<'t> {
    /// A token; [`Core::token_start`] says where it starts.
    Token(Token<'t>),
    NeedMore,
    End,
}

/// A token as built, before it is lent out.
#[derive(Clone, Copy)]
pub(crate) enum Built {
    Text(Acc),
    Comment(Acc),
    /// A doctype, whose texts are in [`Core::doctype`] (kept out of the
    /// enum: every token's `Built` is moved a few times per step, and
    /// doctypes are rare).
    Doctype,
    Tag {
        end: bool,
        known: Option<LocalName>,
        name: Acc,
        self_closing: bool,
    },
}

/// A doctype token's parts, as the doctype states built them.
#[derive(Clone, Copy, Default)]
pub(super) struct DoctypeParts {
    pub(super) name: Option<Acc>,
    pub(super) public_id: Option<Acc>,
    pub(super) system_id: Option<Acc>,
    pub(super) force_quirks: bool,
}

/// Outcome of scanning from a token boundary.
pub(super) enum Scan {
    Built(Built),
    /// Input was consumed but produced no token (e.g. `</>`); go on.
    Nothing,
    NeedMore,
    End,
}

/// The tokenizer core: state between tokens plus reusable buffers.
pub(crate) struct Core {
    /// The text mode the next token starts in.
    pub(super) mode: TextMode,
    /// The last start tag, for *appropriate end tag* checks.
    pub(super) last_start_tag: LastTag,
    /// The tree-builder simulator, when on.
    pub(super) simulator: Option<Simulator>,
    /// Whether CDATA sections are recognised when no simulator runs: a
    /// tree builder driving the tokenizer sets it while the adjusted
    /// current node is in a foreign namespace.
    pub(crate) cdata_allowed: bool,
    /// A tree builder drives the text modes (and the last start tag):
    /// the step leaves them alone.
    pub(crate) driven: bool,
    /// Whether parse errors are reported (the fast paths are off if so).
    pub(super) report: bool,
    /// Whether the data state's text before markup is left out
    /// ([`Tokenizer::skip_data_text`](super::Tokenizer::skip_data_text)):
    /// a consumer's choice, not tokenizer state (snapshots leave it out).
    pub(crate) skip_text: bool,
    /// Whether the last [`Core::step`] built no token because the token
    /// may go on past the buffer (rather than because the input ended).
    pub(crate) needs_more: bool,
    /// Offset of the buffer's first byte in the whole input.
    pub(crate) base: usize,
    /// Position in the buffer.
    pub(crate) pos: usize,
    /// Where the last token starts in the buffer (after any bytes that
    /// formed no token, such as `</>`), while errors are reported.
    token_start: usize,
    /// Text of the current token that is not a span of the input
    /// (decoded, lower-cased or normalized), which its [`Acc`]s point into.
    pub(super) scratch: String,
    /// The current tag's attributes.
    pub(super) attrs: Vec<AttrRepr>,
    /// The current doctype's parts (after [`Built::Doctype`]).
    pub(super) doctype: DoctypeParts,
    /// The parse errors so far (when reporting).
    pub(super) errors: Vec<ParseError>,
    /// Input-stream errors (control characters, noncharacters) found by
    /// the pre-scan, merged into `errors` by offset as tokens complete.
    pub(super) stream_errors: std::collections::VecDeque<(usize, ErrorCode)>,
    /// Position of `lc` is at or before the start of the current token.
    pub(super) lc: LineCol,
    /// The position of the last error (a cache for `line_col_at`).
    pub(super) err_lc: LineCol,
    /// Names of the current tag's attributes, filled only for tags with
    /// many attributes (the duplicate check stays linear); `attr_set_used`
    /// says whether it describes the current tag.
    pub(super) attr_set: HashMap<u64, u32>,
    pub(super) attr_set_used: bool,
    pub(super) attr_hasher: RandomState,
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
            cdata_allowed: false,
            driven: false,
            report: options.report_errors,
            skip_text: false,
            needs_more: false,
            base: 0,
            pos: 0,
            token_start: 0,
            scratch: String::new(),
            attrs: Vec::new(),
            doctype: DoctypeParts::default(),
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

    /// Switches to `mode` after the start tag `tag` (a tree builder's
    /// order), which becomes the last start tag.
    pub(crate) fn switch_text_mode(&mut self, mode: TextMode, tag: LocalName) {
        self.mode = mode;
        self.last_start_tag = LastTag::Known(tag);
    }

    pub(crate) fn snapshot(&self) -> Snapshot {
        Snapshot {
            mode: self.mode,
            last_start_tag: self.last_start_tag.clone(),
            simulator: self.simulator.clone(),
        }
    }

    /// Where the last token [`Core::step`] produced starts in the buffer
    /// (after any bytes that formed no token, such as `</>`). Kept only
    /// while errors are reported (the only use: placing them), where every
    /// step takes the general path that records it; the fast paths skip the
    /// store.
    pub(crate) fn token_start(&self) -> usize {
        self.token_start
    }

    /// [`Core::step`] for a tokenizer a tree builder drives (`driven`):
    /// the text modes are the driver's to switch, so there is nothing to do
    /// after the scan. Always inlined into the drivers' loops (the tree
    /// builder's, the parallel parser's), which run once per token.
    #[inline(always)]
    pub(crate) fn step_driven<'t>(&'t mut self, input: &'t str, at_eof: bool) -> Step<'t> {
        debug_assert!(self.driven);
        let built = match self.fast_scan::<false>(input, at_eof) {
            Some(built) => built,
            None => match self.scan_states(input, at_eof) {
                Ok(built) => built,
                Err(step) => return step,
            },
        };
        Step::Token(self.view(built, input))
    }

    /// [`Core::step_driven`] for a speculating worker that records its
    /// tokens (`parallel/record.rs`): the token as the scan built it, its
    /// texts spans of the input or of the scratch space ([`Core::recorded`]),
    /// not yet the [`Token`] a tree builder takes ([`Core::view`]); `None`
    /// at the end of the input (the whole of it).
    #[inline(always)]
    pub(crate) fn step_built(&mut self, input: &str) -> Option<Built> {
        debug_assert!(self.driven);
        match self.fast_scan::<false>(input, true) {
            Some(built) => Some(built),
            None => self.scan_states(input, true).ok(),
        }
    }

    /// What a token built by [`Core::step_built`] refers to besides the
    /// input: the scratch space and the tag's attributes.
    #[inline]
    pub(crate) fn recorded(&self) -> (&str, &[AttrRepr]) {
        (&self.scratch, &self.attrs)
    }

    /// Produces the next token from `input` (the buffer; `self.pos` is the
    /// current position in it); `None` at the end of the input, or when
    /// the token may go on past the buffer ([`Core::needs_more`]).
    ///
    /// It returns the `Option` a [`Tokenizer`](super::Tokenizer) hands out
    /// (not a [`Step`]) so that the token is built where the caller
    /// receives it: re-wrapping a `Step` copied the 80-byte token once more
    /// per token (about 15 instructions). Always inlined into the
    /// drivers' loops ([`tokenize`](super::tokenize), the iterator, the
    /// stream), with the fast tag path inlined into it: out of line, the
    /// call and the token returned through memory cost about 29
    /// instructions per token (`crates/bench/callgrind-tokenize.sh`: 8.60
    /// Ir/byte before, 7.97 with `Built` made small as well).
    #[inline(always)]
    pub(crate) fn step<'t>(&'t mut self, input: &'t str, at_eof: bool) -> Option<Token<'t>> {
        let built = match self.fast_scan::<true>(input, at_eof) {
            Some(built) => built,
            None => match self.scan_states(input, at_eof) {
                Ok(built) => built,
                Err(step) => {
                    self.needs_more = matches!(step, Step::NeedMore);
                    return None;
                }
            },
        };
        if let Built::Tag {
            end,
            known,
            name,
            self_closing,
        } = &built
            && !self.driven
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
        Some(self.view(built, input))
    }

    /// The general step: any token in any state, with errors; `Err` is the
    /// step's result when no token was built (the end, or more input
    /// needed).
    #[inline(never)]
    pub(super) fn scan_states<'t>(
        &mut self,
        input: &'t str,
        at_eof: bool,
    ) -> Result<Built, Step<'t>> {
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
            self.token_start = start;
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

    #[inline(always)]
    pub(crate) fn view<'t>(&'t self, built: Built, input: &'t str) -> Token<'t> {
        let scratch = self.scratch.as_str();
        let get = |a: Acc| a.get(input, scratch);
        match built {
            Built::Text(a) => Token::Text(get(a)),
            Built::Comment(a) => Token::Comment(get(a)),
            Built::Doctype => {
                let d = &self.doctype;
                Token::Doctype(Doctype {
                    name: d.name.map(get),
                    public_id: d.public_id.map(get),
                    system_id: d.system_id.map(get),
                    force_quirks: d.force_quirks,
                })
            }
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
