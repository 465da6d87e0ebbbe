//! What a chunk's tree builder would have to guess at a cut, and whether
//! the guess holds: the insertion-mode and tree-state half of the HPar
//! paper's Table IV, measured (by `spinneret-bench hpar`) before any tree
//! is built speculatively.
//!
//! A chunk that begins at a cut knows nothing of the document before it.
//! To build its part of the tree it needs the tree builder's state there;
//! the guess probed here is the one the chunk can make from its own bytes:
//!
//! - the insertion mode is *in body*;
//! - the stack of open elements is `html`, `body`, then the elements that
//!   the chunk's *unmatched* end tags close — the end tags that close no
//!   element the chunk itself opened — innermost last: in a document whose
//!   end tags are all written, those are exactly the elements open at the
//!   cut (an element whose end tag is implied — an `li` closed by the next
//!   `<li>` — is missed, and a stray end tag adds one). Inside an `svg` or `math` element the guessed elements are
//!   foreign (SVG or MathML), back to HTML inside an SVG `foreignObject`,
//!   `desc` or `title`;
//! - the list of active formatting elements holds no element (a chunk
//!   cannot know their attributes, which the tree builder reads when it
//!   reconstructs or counts them).
//!
//! [`probe_cut`] parses the input up to the cut sequentially and compares
//! the true state with the guess, field by field. It costs a parse of the
//! input up to the cut plus a tokenization of the rest: a measurement, not
//! part of a parse.
//!
//! A guess can be wrong where the chunk never looks, so
//! [`probe_tree_speculation`] asks the question that matters: built from
//! the guess, does the chunk's tree builder make the sequential one's
//! operations (`trace.rs`)? That is the most any validation of what the
//! chunk read could accept. It costs two parses of the input.

use super::trace::{Op, TraceSink};
use crate::dom::{DomSink, NodeId};
use crate::names::LocalName;
use crate::namespace::Namespace;
use crate::simulator::{Simulator, is_void};
use crate::token::Token;
use crate::tokenizer::{Core, Step, TextMode, TokenizerOptions};
use crate::tree_builder::{
    InsertionMode, ParseOptions, TreeBuilder, TreeSink, after_token, process_eof, process_token,
    tokenizer_options,
};

/// What became of the guesses a chunk starting at a cut would make (see
/// the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutProbe {
    /// The sequential tokenizer has a token boundary at the cut, in the
    /// data state (the tokenizer state a chunk guesses).
    pub boundary: bool,
    /// The insertion mode there is *in body*.
    pub in_body: bool,
    /// The stack of open elements there is the guessed one: `html`,
    /// `body` and the elements the chunk's unmatched end tags close.
    pub open_elements: bool,
    /// The list of active formatting elements holds no element there.
    pub no_formatting_elements: bool,
}

impl CutProbe {
    /// Whether every guess holds: a chunk built from the guessed state
    /// would start from the true one.
    pub fn holds(&self) -> bool {
        self.boundary && self.in_body && self.open_elements && self.no_formatting_elements
    }
}

/// Probes the guesses a chunk beginning at `cut` (a byte offset on a
/// character boundary) would make about the tokenizer and the tree
/// builder; all fields are false when `cut` is no token boundary of the
/// sequential tokenizer in the data state.
///
/// ```
/// use spinneret_html::{probe_cut, ParseOptions};
/// let page = "<html><body><div><ul><li>a</li><li>b</li></ul></div></body></html>";
/// let cut = page.find("<li>b").unwrap();
/// let probe = probe_cut(page, cut, &ParseOptions::default());
/// assert!(probe.holds());
/// // Inside an <a>, the list of active formatting elements is not empty.
/// let page = "<body><p><a href=x>one <span>two</span></a></p>";
/// let probe = probe_cut(page, page.find("<span>").unwrap(), &ParseOptions::default());
/// assert!(probe.boundary && probe.open_elements && !probe.no_formatting_elements);
/// ```
pub fn probe_cut(input: &str, cut: usize, options: &ParseOptions) -> CutProbe {
    let mut builder = TreeBuilder::new(
        DomSink::new(input.to_owned(), false),
        options.scripting,
        false,
    );
    if build_to_cut(&mut builder, input, cut, options).is_none() {
        return CutProbe::default();
    }
    let state = builder.state();
    let open: Vec<(Namespace, String)> = state
        .open
        .iter()
        .filter(|o| !o.is_hole())
        .map(|o| {
            let name = builder.key_name(o.info.key).unwrap_or_default();
            (o.info.ns, name.to_ascii_lowercase())
        })
        .collect();
    CutProbe {
        boundary: true,
        in_body: state.mode == InsertionMode::InBody,
        open_elements: open == guess_open_elements(input, cut, options.scripting),
        no_formatting_elements: state.formatting_element_count() == 0,
    }
}

/// What became of building a chunk's tree from the context it guesses
/// (module doc), against the sequential tree builder from the cut on: the
/// upper bound of what tree-level speculation can accept there, since
/// validation by logged reads accepts a chunk only when its operations
/// are the sequential ones.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SpeculationProbe {
    /// The sequential tokenizer has a token boundary at the cut, in the
    /// data state (else nothing was built).
    pub boundary: bool,
    /// From the guessed context, the chunk's tree builder makes exactly
    /// the sequential one's operations from the cut to the end of the
    /// input, none of them reading what a node from before the cut holds
    /// (see `parallel/trace.rs`).
    pub same_operations: bool,
    /// Input bytes from the cut to the first token whose operations differ
    /// (to the end when none do).
    pub agreeing_bytes: usize,
    /// Operations the sequential tree builder made from the cut on.
    pub operations: usize,
}

/// Builds the tree of a chunk beginning at `cut` and running to the end of
/// `input` twice — sequentially, and from the context the chunk guesses
/// (in body; `html`, `body` and the elements its unmatched end tags close;
/// no formatting element; the document's quirks mode, which the tree
/// builder fixes at the first token) — and compares their operations.
/// Costs two parses of the input.
///
/// ```
/// use spinneret_html::{probe_tree_speculation, ParseOptions};
/// let page = "<body><div><p>one</p><div>two</div></div><p>three";
/// let cut = page.find("<div>two").unwrap();
/// let probe = probe_tree_speculation(page, cut, &ParseOptions::default());
/// assert!(probe.same_operations);
/// // A cut inside a table: the guessed *in body* is wrong.
/// let page = "<table><tr><td>a</td></tr><tr><td>b</td></tr></table>";
/// let cut = page.find("<tr><td>b").unwrap();
/// let probe = probe_tree_speculation(page, cut, &ParseOptions::default());
/// assert!(probe.boundary && !probe.same_operations && probe.agreeing_bytes == 0);
/// ```
pub fn probe_tree_speculation(input: &str, cut: usize, options: &ParseOptions) -> SpeculationProbe {
    let traced = || {
        let sink = TraceSink::new(DomSink::new(input.to_owned(), false));
        TreeBuilder::new(sink, options.scripting, false)
    };
    let driven_core = |at: usize| {
        let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
        core.driven = true;
        core.pos = at;
        core
    };
    // Sequentially, to the cut and on.
    let mut sequential = traced();
    let Some(mut core) = build_to_cut(&mut sequential, input, cut, options) else {
        return SpeculationProbe::default();
    };
    let quirks_mode = sequential.state.quirks_mode;
    start_recording(&mut sequential);
    let truth = build_to_end(sequential, &mut core, input);

    // From the guessed context.
    let mut guessed = traced();
    let prefix = "<!DOCTYPE html><html><head></head><body>";
    let mut prefix_core = driven_core(0);
    while let Step::Token(token) = prefix_core.step_driven(prefix, true) {
        process_token(&mut guessed, token, prefix, 0);
    }
    guessed.state.quirks_mode = quirks_mode;
    for (ns, name) in guess_open_elements(input, cut, options.scripting)
        .iter()
        .skip(2)
    {
        guessed.open_guessed(*ns, name);
    }
    start_recording(&mut guessed);
    let guess = build_to_end(guessed, &mut driven_core(cut), input);

    let differs = |(a, b): (&Op, &Op)| a.hash != b.hash || a.reads_context || b.reads_context;
    let first_difference = truth
        .iter()
        .zip(&guess)
        .position(differs)
        .or_else(|| (truth.len() != guess.len()).then(|| truth.len().min(guess.len())));
    let agreeing_bytes = match first_difference {
        None => input.len() - cut,
        Some(i) => {
            let at = [truth.get(i), guess.get(i)]
                .into_iter()
                .flatten()
                .map(|op| op.at)
                .min()
                .unwrap_or(input.len());
            at.saturating_sub(cut)
        }
    };
    SpeculationProbe {
        boundary: true,
        same_operations: first_difference.is_none(),
        agreeing_bytes,
        operations: truth.len(),
    }
}

/// Runs `builder` sequentially from the start of `input` to `cut`; the
/// tokenizer there when `cut` is one of its token boundaries in the data
/// state (the state a chunk guesses), else `None`.
fn build_to_cut<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    input: &str,
    cut: usize,
    options: &ParseOptions,
) -> Option<Core> {
    let core = parse_to_cut(builder, input, cut, options);
    (core.pos == cut && core.boundary_mode() == TextMode::Data).then_some(core)
}

/// Runs `builder` sequentially from the start of `input` to its first
/// token boundary at or past `cut` (or the end); the tokenizer there.
pub(super) fn parse_to_cut<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    input: &str,
    cut: usize,
    options: &ParseOptions,
) -> Core {
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    while core.pos < cut {
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(builder, token, input, 0),
            Step::End | Step::NeedMore => break,
        }
        after_token(builder, &mut core);
    }
    core
}

/// Starts recording operations, naming the nodes of the stack of open
/// elements as they are now.
fn start_recording(builder: &mut TreeBuilder<TraceSink>) {
    let open: Vec<_> = builder.state.open.iter().filter(|o| !o.is_hole()).collect();
    let body_second = open.get(1).is_some_and(|o| o.is_html(LocalName::Body));
    let nodes: Vec<NodeId> = open.iter().map(|o| o.node).collect();
    builder.sink.start(&nodes, body_second);
}

/// Runs `builder`, driving `core`, to the end of `input` and its end of
/// file; returns the operations recorded.
fn build_to_end(mut builder: TreeBuilder<TraceSink>, core: &mut Core, input: &str) -> Vec<Op> {
    loop {
        builder.sink.at = core.pos;
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(&mut builder, token, input, 0),
            Step::End | Step::NeedMore => break,
        }
        after_token(&mut builder, core);
    }
    builder.sink.at = input.len();
    process_eof(&mut builder, input.len());
    builder.into_parts().0.into_ops()
}

/// The stack of open elements a chunk beginning at `cut` guesses from its
/// unmatched end tags (module doc), bottom first, names lower-cased.
pub(super) fn guess_open_elements(
    input: &str,
    cut: usize,
    scripting: bool,
) -> Vec<(Namespace, String)> {
    let mut core = Core::new(&TokenizerOptions {
        initial_state: TextMode::Data,
        last_start_tag: None,
        report_errors: false,
        simulate_tree_builder: false,
        scripting,
    });
    core.driven = true;
    core.pos = cut;
    // The tokenizer's text modes follow a tree-builder simulator, as a
    // speculating worker's do.
    let mut sim = Simulator::new(scripting);
    // The elements the chunk opened and has not closed, and the end tags
    // that closed none of them, in order.
    let mut opened: Vec<String> = Vec::new();
    let mut unmatched: Vec<String> = Vec::new();
    loop {
        let foreign = sim.in_foreign_content();
        let switch = match core.step_driven(input, true) {
            Step::Token(Token::StartTag(t)) => {
                let local = t.name.local();
                let stays_open = if foreign {
                    !t.self_closing
                } else {
                    !is_void(local)
                };
                if stays_open {
                    opened.push(t.name.as_str().to_ascii_lowercase());
                }
                let switch = sim.acts_on(false, local).then(|| {
                    let mode = sim.start_tag(t.name, &t.attrs, t.self_closing);
                    mode.zip(local)
                });
                switch.flatten()
            }
            Step::Token(Token::EndTag(t)) => {
                let name = t.name.as_str().to_ascii_lowercase();
                if sim.acts_on(true, t.name.local()) {
                    sim.end_tag(t.name);
                }
                if let Some(i) = opened.iter().rposition(|n| *n == name) {
                    opened.truncate(i);
                } else if !matches!(
                    t.name.local(),
                    // These end tags close no element on the stack in
                    // body (`</br>` is a `<br>`).
                    Some(LocalName::Html | LocalName::Body | LocalName::Head | LocalName::Br)
                ) {
                    unmatched.push(name);
                }
                None
            }
            Step::Token(_) => None,
            Step::End | Step::NeedMore => break,
        };
        if let Some((mode, tag)) = switch {
            core.switch_text_mode(mode, tag);
        }
        core.cdata_allowed = sim.in_foreign_content();
    }
    guess_from_unmatched(unmatched)
}

/// The guessed stack of open elements (bottom first) for the end tags
/// that closed no element of the chunk's own, in order: `html`, `body`,
/// then those elements innermost last, foreign inside `svg` and `math`.
pub(super) fn guess_from_unmatched(unmatched: Vec<String>) -> Vec<(Namespace, String)> {
    let mut guess = vec![
        (Namespace::Html, "html".to_owned()),
        (Namespace::Html, "body".to_owned()),
    ];
    let mut ns = Namespace::Html;
    for name in unmatched.into_iter().rev() {
        let this = match (ns, name.as_str()) {
            (Namespace::Html, "svg") => Namespace::Svg,
            (Namespace::Html, "math") => Namespace::MathMl,
            (ns, _) => ns,
        };
        ns = match (this, name.as_str()) {
            (Namespace::Svg, "foreignobject" | "desc" | "title") => Namespace::Html,
            _ => this,
        };
        guess.push((this, name));
    }
    guess
}
