//! What decides the next token at a token boundary, for speculative
//! tokenization (the parallel parser): a chunk of the input tokenized from a
//! guessed state gives exactly the tokens of the true tokenizer wherever the
//! guessed and the true state agree on everything the tokenizer *reads*.
//!
//! From a boundary, a step reads:
//! - the text mode, always;
//! - the last start tag name, only in RCDATA, RAWTEXT and script data (the
//!   *appropriate end tag* checks);
//! - whether CDATA sections are allowed, only in the data state and only
//!   where the markup declaration open state meets `[CDATA[` after `<!`.
//!
//! Nothing else of the tokenizer's state survives a boundary (buffers are
//! per token), so a step's token — and the text mode the scan leaves, before
//! any tree builder switches it — is a function of those reads and the
//! input from the boundary on.

use super::{Core, LastTag, TextMode};
use crate::names::LocalName;
use memchr::memmem;

/// The tokenizer's state at a token boundary, as far as the next step
/// reads it. Small and `Copy`: a speculating worker records one per token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Boundary {
    /// The text mode the step starts in.
    pub(crate) mode: TextMode,
    /// The last start tag, in the modes that read it; `None` outside them,
    /// and also for a name that is no [`LocalName`] — which the text modes
    /// are never switched to by a tree builder, and which therefore agrees
    /// with no true state (a disagreement only costs the calling thread a
    /// step of its own tokenizer).
    pub(crate) last_start_tag: Option<LocalName>,
    /// Whether a `<![CDATA[` is a CDATA section (in foreign content).
    pub(crate) cdata_allowed: bool,
}

/// What the markup declaration open state looks for when it reads whether
/// CDATA sections are allowed.
const CDATA_OPEN: &[u8] = b"<![CDATA[";

impl Boundary {
    /// Whether a step from `self` and one from the state of `core` (a
    /// tokenizer driven by a tree builder), both at `input[from..]`,
    /// produce the same token and leave the same text mode, given that the
    /// step from `self` ended at `to`.
    ///
    /// Why `to` bounds the CDATA check: both steps read the same bytes the
    /// same way until one of them consults the flag, which only happens on
    /// a `<![CDATA[` that starts inside the bytes the step consumed (a text
    /// run ends *before* a `<!`, whatever the flag says, so its lookahead
    /// never consults it).
    #[inline]
    pub(crate) fn agrees_with(&self, core: &Core, input: &[u8], from: usize, to: usize) -> bool {
        debug_assert!(core.simulator.is_none(), "the true tokenizer is driven");
        if self.mode != core.mode {
            return false;
        }
        if reads_last_start_tag(self.mode)
            && !self
                .last_start_tag
                .is_some_and(|tag| matches!(core.last_start_tag, LastTag::Known(t) if t == tag))
        {
            return false;
        }
        self.cdata_allowed == core.cdata_allowed
            || self.mode != TextMode::Data
            || memmem::find(&input[from..to.min(input.len())], CDATA_OPEN).is_none()
    }
}

/// Whether a step in `mode` reads the last start tag name.
fn reads_last_start_tag(mode: TextMode) -> bool {
    matches!(
        mode,
        TextMode::Rcdata | TextMode::Rawtext | TextMode::ScriptData
    )
}

impl Core {
    /// The state at the current boundary, as the next step reads it: with
    /// the tree-builder simulator on, CDATA follows the simulator's foreign
    /// content; a tree builder driving the tokenizer sets the flag itself.
    pub(crate) fn boundary(&self) -> Boundary {
        Boundary {
            mode: self.mode,
            last_start_tag: if reads_last_start_tag(self.mode) {
                match self.last_start_tag {
                    LastTag::Known(tag) => Some(tag),
                    LastTag::None | LastTag::Other(_) => None,
                }
            } else {
                None
            },
            cdata_allowed: match &self.simulator {
                Some(sim) => sim.in_foreign_content(),
                None => self.cdata_allowed,
            },
        }
    }

    /// The text mode the next step starts in (for a driven tokenizer, the
    /// one the last scan left until a tree builder switches it).
    pub(crate) fn boundary_mode(&self) -> TextMode {
        self.mode
    }

    /// Moves to `pos` in the buffer (a token boundary another tokenizer
    /// found in the same state) with the text mode its scan left there.
    pub(crate) fn skip_to(&mut self, pos: usize, mode: TextMode) {
        self.pos = pos;
        self.mode = mode;
    }
}
