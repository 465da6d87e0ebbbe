//! Tokens recorded by a speculating worker, and handed to the tree builder
//! when the speculation holds.
//!
//! A [`Block`] holds the tokens of a run of the input in a form that owns
//! nothing of the worker's tokenizer: text that is a span of the input is
//! kept as its byte range (the input outlives the parse), text the
//! tokenizer built in its scratch space (decoded references, lower-cased
//! names) is copied into the block's arena. Each [`Entry`] also records the
//! step around its token: where the step ended (it began where the one
//! before it ended), the tokenizer state it began in ([`Boundary`]) and the
//! text mode its scan left — what the replaying driver needs to check the
//! entry against the true state and to move the true tokenizer past it.

use crate::names::LocalName;
use crate::token::{AttrRepr, Attrs, Doctype, Name, Span, Tag, Token, TokenText};
use crate::tokenizer::{Boundary, Built, Core, TextMode};
use crate::tree_builder::{TreeBuilder, TreeSink, process_tag, process_text, process_token};

/// A worker hands its tokens over in blocks of about this many input bytes
/// (or [`BLOCK_TOKENS`] tokens): large enough that the channel is touched
/// rarely (no per-token synchronization), small enough that the tree
/// builder starts on a chunk soon after its worker does. The first block
/// after a worker (re)starts is [`FIRST_BLOCK_BYTES`], to be ready sooner.
pub(crate) const BLOCK_BYTES: usize = 16 << 10;

/// The size of a worker's first block after it (re)starts.
pub(crate) const FIRST_BLOCK_BYTES: usize = 4 << 10;

/// The most tokens in a block.
pub(crate) const BLOCK_TOKENS: usize = 1024;

/// One step of a worker's tokenizer: its token and the step around it.
/// (Where it began is where the step before it ended: [`Block::before`].)
pub(crate) struct Entry {
    /// Where it ended (the next boundary).
    pub(crate) after: usize,
    /// The state the step began in.
    pub(crate) state: Boundary,
    /// The text mode the step's scan left.
    pub(crate) scanned_mode: TextMode,
    token: Recorded,
}

/// A token, its texts as [`Span`]s of the input or of the block's arena
/// (`in_scratch`).
enum Recorded {
    Text(Span),
    Comment(Span),
    /// An index in [`Block::doctypes`].
    Doctype(usize),
    Tag {
        end: bool,
        name: RecordedName,
        /// The tag's attributes: a range of [`Block::attrs`].
        attrs: (u32, u32),
        self_closing: bool,
    },
}

enum RecordedName {
    Known(LocalName),
    Other(Span),
}

/// A doctype's texts, copied (doctypes are rare).
struct OwnedDoctype {
    name: Option<String>,
    public_id: Option<String>,
    system_id: Option<String>,
    force_quirks: bool,
}

/// A run of recorded steps, in input order, each beginning where the one
/// before it ended.
#[derive(Default)]
pub(crate) struct Block {
    /// Where the first step began.
    start: usize,
    pub(crate) entries: Vec<Entry>,
    attrs: Vec<AttrRepr>,
    arena: String,
    doctypes: Vec<OwnedDoctype>,
}

impl Block {
    /// An empty block with room for a full one's entries and attributes,
    /// so that filling it never copies what it holds.
    pub(crate) fn with_capacity() -> Block {
        Block {
            start: 0,
            entries: Vec::with_capacity(BLOCK_TOKENS),
            attrs: Vec::with_capacity(BLOCK_TOKENS),
            arena: String::new(),
            doctypes: Vec::new(),
        }
    }

    /// Empties the block for reuse, keeping its room.
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
        self.attrs.clear();
        self.arena.clear();
        self.doctypes.clear();
    }

    /// Where entry `i`'s step began (`i` at most the number of entries:
    /// where the next step begins).
    #[inline]
    pub(crate) fn before(&self, i: usize) -> usize {
        match i.checked_sub(1) {
            Some(previous) => self.entries[previous].after,
            None => self.start,
        }
    }

    /// Whether the block holds `bytes` of input or [`BLOCK_TOKENS`]
    /// tokens (send it on).
    pub(crate) fn is_full(&self, bytes: usize) -> bool {
        self.entries.len() >= BLOCK_TOKENS
            || self
                .entries
                .last()
                .is_some_and(|e| e.after - self.start >= bytes)
    }

    /// Records a step of a worker's tokenizer `core` over `input`: the
    /// token it built ([`Core::step_built`]; its texts are spans of the
    /// input, kept as such, or of the scratch space, copied), from a step
    /// that began at `before` — where the block's last step ended, if it
    /// has one — in `state`. The caller then sets where the step ended and
    /// the text mode its scan left ([`Block::end_step`]). (A parallel
    /// parse reports no errors: a step's are not recorded.)
    pub(crate) fn push_built(
        &mut self,
        input: &str,
        core: &Core,
        built: Built,
        before: usize,
        state: Boundary,
    ) {
        let (scratch, reprs) = core.recorded();
        let token = match built {
            Built::Text(text) => Recorded::Text(self.rebase(text.span(), scratch)),
            Built::Comment(text) => Recorded::Comment(self.rebase(text.span(), scratch)),
            Built::Doctype => self.doctype(&core.view(built, input)),
            Built::Tag {
                end,
                known,
                name,
                self_closing,
            } => {
                let name = match known {
                    Some(n) => RecordedName::Known(n),
                    None => RecordedName::Other(self.rebase(name.span(), scratch)),
                };
                Recorded::Tag {
                    end,
                    name,
                    attrs: self.attrs(reprs, scratch),
                    self_closing,
                }
            }
        };
        self.push_entry(before, state, token);
    }

    /// Keeps a doctype `token` (rare: out of the worker's loop).
    #[cold]
    #[inline(never)]
    fn doctype(&mut self, token: &Token<'_>) -> Recorded {
        let d = match token {
            Token::Doctype(d) => *d,
            // `Core::view` lends a doctype for `Built::Doctype`.
            _ => Doctype::default(),
        };
        self.doctypes.push(OwnedDoctype {
            name: d.name.map(str::to_owned),
            public_id: d.public_id.map(str::to_owned),
            system_id: d.system_id.map(str::to_owned),
            force_quirks: d.force_quirks,
        });
        Recorded::Doctype(self.doctypes.len() - 1)
    }

    fn push_entry(&mut self, before: usize, state: Boundary, token: Recorded) {
        debug_assert!(self.entries.last().is_none_or(|e| e.after == before));
        if self.entries.is_empty() {
            self.start = before;
        }
        self.entries.push(Entry {
            after: before,
            state,
            scanned_mode: TextMode::Data,
            token,
        });
    }

    /// Ends the step [`Block::push_built`] recorded last: it ended at `after`,
    /// its scan leaving `scanned_mode`.
    #[inline]
    pub(crate) fn end_step(&mut self, after: usize, scanned_mode: TextMode) {
        let last = self.entries.last_mut().expect("a step was recorded");
        last.after = after;
        last.scanned_mode = scanned_mode;
    }

    /// Keeps a tag's attributes, whose texts lie in the input or in
    /// `scratch`; their range in [`Block::attrs`].
    fn attrs(&mut self, reprs: &[AttrRepr], scratch: &str) -> (u32, u32) {
        let from = self.attrs.len() as u32;
        for a in reprs {
            let name = self.rebase(a.name, scratch);
            let value = self.rebase(a.value, scratch);
            self.attrs.push(AttrRepr {
                known: a.known,
                name,
                value,
            });
        }
        (from, self.attrs.len() as u32)
    }

    /// A span of the tokenizer's scratch space, copied into the arena; a
    /// span of the input as it is.
    fn rebase(&mut self, span: Span, scratch: &str) -> Span {
        if span.in_scratch {
            self.copy(span.get("", scratch))
        } else {
            span
        }
    }

    fn copy(&mut self, s: &str) -> Span {
        let start = self.arena.len();
        self.arena.push_str(s);
        Span {
            start,
            end: self.arena.len(),
            in_scratch: true,
        }
    }

    /// Hands entry `i`'s token to `builder`, as [`process_token`] does a
    /// token its tokenizer lends; a text's place is the span recorded.
    #[inline]
    pub(crate) fn process<S: TreeSink>(&self, i: usize, builder: &mut TreeBuilder<S>, input: &str) {
        let text = |s: Span| {
            if s.in_scratch {
                TokenText::Scratch(&self.arena[s.start..s.end])
            } else {
                TokenText::Input {
                    start: s.start,
                    text: &input[s.start..s.end],
                }
            }
        };
        match &self.entries[i].token {
            Recorded::Text(s) => process_text(builder, text(*s), false),
            Recorded::Comment(s) => process_text(builder, text(*s), true),
            Recorded::Tag {
                end,
                name,
                attrs: (from, to),
                self_closing,
            } => {
                let tag = Tag {
                    name: match name {
                        RecordedName::Known(n) => Name::Known(*n),
                        RecordedName::Other(s) => Name::Other(s.get(input, &self.arena)),
                    },
                    attrs: Attrs {
                        reprs: &self.attrs[*from as usize..*to as usize],
                        input,
                        scratch: &self.arena,
                    },
                    self_closing: *self_closing,
                };
                process_tag(builder, &tag, *end);
            }
            Recorded::Doctype(d) => self.process_doctype(*d, builder, input),
        }
    }

    /// [`Block::process`] for a doctype (rare: out of the replay's loop).
    #[cold]
    #[inline(never)]
    fn process_doctype<S: TreeSink>(&self, d: usize, builder: &mut TreeBuilder<S>, input: &str) {
        let d = &self.doctypes[d];
        let doctype = Doctype {
            name: d.name.as_deref(),
            public_id: d.public_id.as_deref(),
            system_id: d.system_id.as_deref(),
            force_quirks: d.force_quirks,
        };
        process_token(builder, Token::Doctype(doctype), input, 0);
    }
}
