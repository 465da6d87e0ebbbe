//! Building the last chunk's tree on another thread, from a guessed
//! context, and adopting it when the guess was the truth. (With more
//! workers than one, `tree_chain.rs` chains the same guess, sink and
//! comparison over a chunk per worker.)
//!
//! # What runs where
//!
//! The input is cut once, a little past halfway (`tree_cut` in
//! `parallel/mod.rs`: 55 %, the worker having more to do per byte; just
//! after a `</script>` end tag, which text of a script cannot hold, else
//! before a tag), if it has enough tags for speculation to pay
//! ([`ParallelOptions::tree_speculation_from`](super::ParallelOptions)).
//! While the calling thread parses the input up to the
//! cut, one worker — a job of its own on rayon's pool, which the calling
//! thread never waits for — builds the tree of the rest, tokenizer *and*
//! tree builder, to the end of the input and its end of file, into a
//! document of its own, from a context it guesses at the cut (`Guess`):
//!
//! - the tokenizer in the data state;
//! - the stack of open elements `html`, `body` and the elements the
//!   chunk's unmatched end tags close (found by a quick scan of its tags,
//!   `end_tag_scan.rs`), each a *stand-in*: an element of the worker's
//!   document with no attributes and no children but the next stand-in;
//! - the insertion mode that stack implies (*reset the insertion mode
//!   appropriately*, so in a table cell, in a row or in a table where the
//!   stack says so); a marker in the list of active formatting elements
//!   for each cell, caption, `applet`, `marquee` or `object` on it, and no
//!   element; the form element pointer at the topmost guessed `form`;
//!   a head element; the frameset-ok flag off; the document's quirks mode
//!   (from its start, `document_quirks`).
//!
//! When the calling thread reaches the cut, it compares the true state
//! there with the guess, field by field (`adoptable`): the tokenizer's
//! boundary state and position; the insertion mode; every entry of the
//! stack of open elements (namespace, name, integration-point flag); the
//! list of active formatting elements (the same markers, no element); the
//! head and form pointers (the form the same stack entry); the flags and
//! the quirks mode. If all agree, the worker's document is adopted
//! (`Document::adopt_speculated`): what each stand-in gained goes to the
//! node it stood for, and the parse is over. If not — or if the worker's
//! tree builder reached into the context where its work could not be
//! moved (below), or a `<meta>` there would change the encoding — the
//! calling thread parses the rest itself, as a sequential parse would
//! (with pipelined workers, unless the worker is still at work).
//!
//! # Why an adopted tree is the sequential one
//!
//! The invariant, for the one speculated chunk: *if the guess agrees with
//! the true state at the cut, then the worker's tree builder makes the
//! sequential tree builder's operations from the cut on, with each
//! stand-in in place of the node it stands for.* The tree builder is a
//! deterministic function of its state, its tokens and the answers of its
//! sink. Its state agrees (up to the stand-ins; non-interned names are
//! compared as strings, since each builder numbers them its own way).
//! Its tokens agree: the tokenizer starts at the same position in the
//! same boundary state, and after each token it is switched by the tree
//! builder, whose state agrees. And the sink's answers agree: a sink's
//! answers depend on its nodes' attributes, parents and children, which
//! for a stand-in are not the true ones, so the worker's sink
//! (`SpecSink`) refuses every call that reads them or moves a stand-in —
//! `has_parent`, inserting before a stand-in, detaching or reparenting it,
//! its template contents, cloning it, comparing or adding its attributes,
//! an `option` stand-in popped — and the chunk is rebuilt. What remains
//! on stand-ins is appending to them (an element, or text that merges
//! into a last text child), which moves exactly: every pre-cut child of
//! the true node precedes what the chunk appends, and a text the chunk
//! appends first merges with the true node's last child when that is a
//! text, as the sequential sink merges it (`adopt_speculated`).
//!
//! The worker's tree builder runs on to the end of the input, so the
//! true state after the chunk is never needed: the adopted document is
//! the whole parse. Debug builds check every adopted document against a
//! sequential parse of the input.
//!
//! # Why whole-state agreement rather than logged reads
//!
//! `tree_speculation.md` inventories a finer validation: log each read
//! of the context as a predicate and accept the chunk when every
//! predicate holds, however much of the state differs. It was measured
//! before this was built (`probe_tree_speculation`, against
//! `probe_cut`): at the parser's cuts in the corpus pages of 1 MB or more
//! the chunk's operations are the sequential ones at 50 % of the cuts,
//! where the whole guessed state is the true one at 51 %; in the documents
//! made of pages, 2 of 30 against 2 of 30. Logged reads would accept no
//! more chunks, and need about thirty functions and thirty call sites of
//! the tree builder instrumented; whole-state agreement needs none of
//! them, and its proof is the paragraph above.

use std::cell::Cell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::dom::{Document, DomSink, NodeId};
use crate::namespace::Namespace;
use crate::token::TokenText;
use crate::tokenizer::{Boundary, Core, Step, TextMode};
use crate::tree_builder::{
    ElementName, Formatting, InsertionMode, ParseOptions, QuirksMode, TagAttrs, TreeBuilder,
    TreeSink, after_token, process_eof, process_token, tokenizer_options,
};

/// Why a chunk's tree built from a guess was not adopted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TreeRejection {
    /// The guessed stack holds an element whose state the chunk cannot
    /// guess (a `template`, whose contents and modes it does not know; a
    /// `select` or `option`, whose selectedness it does not know): the
    /// worker did not build.
    Unguessable,
    /// The worker had not started when the calling thread reached the cut.
    NotStarted,
    /// The true tokenizer was not at a token boundary at the cut in the
    /// data state (the cut fell inside a comment, a script, a tag).
    Tokenizer,
    /// The insertion mode at the cut was not the guessed one.
    Mode,
    /// The stack of open elements at the cut was not the guessed one.
    OpenElements,
    /// The list of active formatting elements held an element (or other
    /// markers than the guessed ones).
    Formatting,
    /// The form or head element pointer, a flag or the quirks mode
    /// differed.
    Pointers,
    /// The chunk's tree builder read or moved what a node from before the
    /// cut holds (attributes, parent, children) — a stand-in the worker
    /// could not answer for.
    ReachedContext,
    /// A `<meta>` in the chunk declared an encoding while it was
    /// tentative.
    MetaEncoding,
}

/// What became of the chunk whose tree was built speculatively.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeSpeculationStats {
    /// Where the chunk began (0: no chunk was speculated).
    pub cut: usize,
    /// Whether its tree was adopted.
    pub adopted: bool,
    /// Why not, if it was not.
    pub rejection: Option<TreeRejection>,
    /// The depth of the guessed stack of open elements.
    pub guessed_depth: usize,
    /// Input bytes whose tree was adopted (from the cut to the end).
    pub bytes_adopted: u64,
    /// When each step happened.
    pub timeline: TreeTimeline,
}

/// When each step of tree speculation happened, as wall-clock time from
/// the parse's start: for benchmarks and scheduling models (what waited
/// for what), never for a decision of the parse. A step that did not
/// happen (or whose news did not reach the calling thread) is `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeTimeline {
    /// The worker's job began.
    pub worker_began: Option<Duration>,
    /// The worker had its guess (the scan of the chunk's tags done) and
    /// began building.
    pub guessed: Option<Duration>,
    /// The worker's tree was built, to the end of the input.
    pub built: Option<Duration>,
    /// The calling thread reached the cut.
    pub reached_cut: Option<Duration>,
    /// The calling thread, still before the cut, saw that the worker had
    /// given up (no guess it could make, or a build it refused) and parsed
    /// on from there with pipelined workers (one chunk; a chained parse
    /// settles each chunk at its cut).
    pub given_up: Option<Duration>,
    /// The calling thread had received the worker's tree (after waiting
    /// for it, if it was not built yet).
    pub received: Option<Duration>,
    /// The calling thread had adopted the worker's tree.
    pub adopted: Option<Duration>,
}

/// The context a worker guessed at the cut, as the calling thread checks
/// it against the true one.
pub(super) struct Guess {
    /// The guessed stack, bottom first: namespace, name (as the builder
    /// names it), integration-point flag, stand-in.
    open: Vec<(Namespace, Box<str>, bool, NodeId)>,
    mode: InsertionMode,
    markers: usize,
    head: NodeId,
    /// The stack entry the form pointer points at.
    form: Option<usize>,
    frameset_ok: bool,
    quirks: QuirksMode,
    start: Boundary,
    pub(super) last_stand_in: u32,
}

impl Guess {
    /// The depth of the guessed stack of open elements.
    pub(super) fn depth(&self) -> usize {
        self.open.len()
    }
}

/// A worker's tree builder and tokenizer, set up at the cut in the
/// guessed context.
pub(super) struct Prepared {
    pub(super) builder: TreeBuilder<SpecSink>,
    pub(super) core: Core,
}

/// What a worker built: its chunk's tree up to the next cut, with the tree
/// builder and tokenizer stopped there, or the tree of the rest of the
/// input, to its end of file.
pub(super) enum Built {
    AtCut(Box<Prepared>),
    ToEnd(Box<Document>),
}

/// Why the worker stopped short of a tree.
pub(super) enum Unbuilt {
    Rejected(TreeRejection),
    /// The calling thread no longer wants it.
    Stopped,
}

/// The sink of a chunk built from a guess: a [`DomSink`] that refuses
/// (records that it was asked, and answers as its own document would)
/// every call that reads what a stand-in holds or moves a stand-in.
pub(super) struct SpecSink {
    pub(super) dom: DomSink,
    /// Nodes `1..=last_stand_in` are stand-ins (0 while they are made).
    last_stand_in: u32,
    reached: Cell<bool>,
}

impl SpecSink {
    fn stands_in(&self, node: NodeId) -> bool {
        node.index() >= 1 && node.index() <= self.last_stand_in as usize
    }

    /// Records a refused call if `node` is a stand-in.
    fn check(&self, node: NodeId) {
        if self.stands_in(node) {
            self.reached.set(true);
        }
    }
}

impl TreeSink for SpecSink {
    type Handle = NodeId;

    fn document(&self) -> NodeId {
        self.dom.document()
    }

    fn input_appended(&mut self, chunk: &str) {
        self.dom.input_appended(chunk);
    }

    fn create_element(&mut self, name: ElementName<'_>, attrs: TagAttrs<'_>) -> NodeId {
        self.dom.create_element(name, attrs)
    }

    fn create_comment(&mut self, text: TokenText<'_>) -> NodeId {
        self.dom.create_comment(text)
    }

    fn append_doctype(&mut self, name: &str, public_id: &str, system_id: &str) {
        self.dom.append_doctype(name, public_id, system_id);
    }

    fn append(&mut self, parent: NodeId, child: NodeId) {
        self.dom.append(parent, child);
    }

    fn append_text(&mut self, parent: NodeId, text: TokenText<'_>) {
        self.dom.append_text(parent, text);
    }

    fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        self.check(sibling);
        self.dom.insert_before(sibling, child);
    }

    fn insert_text_before(&mut self, sibling: NodeId, text: TokenText<'_>) {
        self.check(sibling);
        self.dom.insert_text_before(sibling, text);
    }

    fn has_parent(&self, node: NodeId) -> bool {
        self.check(node);
        self.dom.has_parent(node)
    }

    fn detach(&mut self, node: NodeId) {
        self.check(node);
        self.dom.detach(node);
    }

    fn reparent_children(&mut self, from: NodeId, to: NodeId) {
        self.check(from);
        self.dom.reparent_children(from, to);
    }

    fn template_contents(&mut self, template: NodeId) -> NodeId {
        if self.stands_in(template) {
            // No stand-in is a template (`Unguessable`): refuse, and let
            // the caller append to the stand-in itself.
            self.reached.set(true);
            return template;
        }
        self.dom.template_contents(template)
    }

    fn add_attrs_if_missing(&mut self, element: NodeId, attrs: TagAttrs<'_>) {
        self.check(element);
        self.dom.add_attrs_if_missing(element, attrs);
    }

    fn clone_element(&mut self, element: NodeId) -> NodeId {
        self.check(element);
        self.dom.clone_element(element)
    }

    fn same_attributes(&self, a: NodeId, b: NodeId) -> bool {
        self.check(a);
        self.check(b);
        self.dom.same_attributes(a, b)
    }

    fn attributes_fingerprint(&self, element: NodeId) -> u64 {
        self.check(element);
        self.dom.attributes_fingerprint(element)
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.dom.set_quirks_mode(mode);
    }

    fn option_popped(&mut self, option: NodeId) {
        self.check(option);
        self.dom.option_popped(option);
    }
}

/// The document's quirks mode, as its tree builder sets it in the initial
/// insertion mode: the start of `input` is tokenized up to the first
/// token that leaves that mode.
pub(super) fn document_quirks(
    input: &str,
    source: &Arc<String>,
    options: &ParseOptions,
) -> QuirksMode {
    let sink = DomSink::sharing(Arc::clone(source), false);
    let mut builder = TreeBuilder::new(sink, options.scripting, false);
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    while builder.state.mode == InsertionMode::Initial {
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(&mut builder, token, input, 0),
            Step::End | Step::NeedMore => break,
        }
        after_token(&mut builder, &mut core);
    }
    builder.state.quirks_mode
}

/// Elements a guessed stack may not hold (see [`TreeRejection::Unguessable`]).
fn unguessable(ns: Namespace, name: &str) -> bool {
    ns == Namespace::Html && matches!(name, "template" | "select" | "option" | "optgroup")
}

/// Elements that put a marker in the list of active formatting elements
/// as they are inserted.
fn pushes_marker(ns: Namespace, name: &str) -> bool {
    ns == Namespace::Html
        && matches!(
            name,
            "td" | "th" | "caption" | "applet" | "marquee" | "object"
        )
}

/// Sets up a tree builder and tokenizer at `cut` in the context guessed
/// there (module doc).
pub(super) fn prepare(
    input: &str,
    source: &Arc<String>,
    cut: usize,
    options: &ParseOptions,
    watch_meta_encoding: bool,
    stop: &AtomicBool,
) -> Result<(Prepared, Guess), Unbuilt> {
    let stopped = || stop.load(Ordering::Relaxed);
    let unmatched = super::end_tag_scan::unmatched_end_tags(input, cut, options.scripting, stopped)
        .ok_or(Unbuilt::Stopped)?;
    let end = input.len();
    prepare_guessed(
        input,
        source,
        cut..end,
        options,
        watch_meta_encoding,
        unmatched,
    )
}

/// [`prepare`] for the chunk `chunk` (its document's arena sized for
/// it), with the end tags after its start that close no element opened
/// after it already found (`end_tag_scan.rs`).
pub(super) fn prepare_guessed(
    input: &str,
    source: &Arc<String>,
    chunk: std::ops::Range<usize>,
    options: &ParseOptions,
    watch_meta_encoding: bool,
    unmatched: Vec<String>,
) -> Result<(Prepared, Guess), Unbuilt> {
    let cut = chunk.start;
    let quirks = document_quirks(input, source, options);
    let guess = super::probe::guess_from_unmatched(unmatched);
    if guess.iter().any(|(ns, name)| unguessable(*ns, name)) {
        return Err(Unbuilt::Rejected(TreeRejection::Unguessable));
    }
    let mut sink = SpecSink {
        dom: DomSink::sharing(Arc::clone(source), false),
        last_stand_in: 0,
        reached: Cell::new(false),
    };
    sink.dom.doc.reserve_for_input(chunk.len());
    let mut builder = TreeBuilder::new(sink, options.scripting, false);
    builder.watch_meta_encoding = watch_meta_encoding;
    // The stand-ins: `html`, its `head` and `body` (nodes 1, 2, 3), then
    // the guessed elements, each in the one before.
    let prefix = "<html><head></head><body>";
    let mut prefix_core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    prefix_core.driven = true;
    while let Step::Token(token) = prefix_core.step_driven(prefix, true) {
        process_token(&mut builder, token, prefix, 0);
    }
    builder.state.quirks_mode = quirks;
    let mut form = None;
    for (ns, name) in guess.iter().skip(2) {
        builder.open_guessed(*ns, name);
        if *ns == Namespace::Html && name == "form" {
            form = Some(builder.state.open.len() - 1);
        }
        if pushes_marker(*ns, name) {
            builder.push_marker();
        }
    }
    builder.state.form = form.map(|i| builder.state.open[i].node);
    builder.reset_insertion_mode();
    let last_stand_in = (builder.sink.dom.doc.node_count() - 1) as u32;
    builder.sink.last_stand_in = last_stand_in;
    let open = builder
        .state
        .open
        .iter()
        .map(|o| {
            let name = builder.key_name(o.info.key).unwrap_or_default().into();
            (o.info.ns, name, o.info.html_integration_point, o.node)
        })
        .collect();
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    core.pos = cut;
    builder.after_token();
    after_token(&mut builder, &mut core);
    let state = &builder.state;
    let guess = Guess {
        open,
        mode: state.mode,
        markers: state.formatting.len(),
        head: state.head.expect("the prefix inserts a head"),
        form,
        frameset_ok: state.frameset_ok,
        quirks,
        start: core.boundary(),
        last_stand_in,
    };
    Ok((Prepared { builder, core }, guess))
}

/// Runs a prepared tree builder to the end of `input` and its end of
/// file; its document, unless it reached into the context, met a
/// `<meta>` that declares an encoding, or `stop` was set (polled now and
/// then: the calling thread sets it when it no longer wants the tree).
pub(super) fn run(prepared: Prepared, input: &str, stop: &AtomicBool) -> Result<Document, Unbuilt> {
    match run_to(prepared, input, input.len(), stop)? {
        Built::ToEnd(doc) => Ok(*doc),
        Built::AtCut(_) => unreachable!("run to the end of the input"),
    }
}

/// Runs a prepared tree builder until its tokenizer has reached `until`
/// (at or past it: a token may straddle it), or to the end of `input` and
/// its end of file when `until` is the input's length or the input ends
/// first; refuses as [`run`] does.
pub(super) fn run_to(
    prepared: Prepared,
    input: &str,
    until: usize,
    stop: &AtomicBool,
) -> Result<Built, Unbuilt> {
    let Prepared {
        mut builder,
        mut core,
    } = prepared;
    let mut tokens = 0usize;
    loop {
        if until < input.len() && core.pos >= until {
            return Ok(Built::AtCut(Box::new(Prepared { builder, core })));
        }
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(&mut builder, token, input, 0),
            Step::End => break,
            Step::NeedMore => unreachable!("a whole input never needs more"),
        }
        if after_token(&mut builder, &mut core) {
            return Err(Unbuilt::Rejected(TreeRejection::MetaEncoding));
        }
        if builder.sink.reached.get() {
            return Err(Unbuilt::Rejected(TreeRejection::ReachedContext));
        }
        tokens += 1;
        if tokens.is_multiple_of(1024) && stop.load(Ordering::Relaxed) {
            return Err(Unbuilt::Stopped);
        }
    }
    process_eof(&mut builder, input.len());
    if builder.sink.reached.get() {
        return Err(Unbuilt::Rejected(TreeRejection::ReachedContext));
    }
    let (sink, errors) = builder.into_parts();
    Ok(Built::ToEnd(Box::new(sink.dom.finish(errors, Vec::new()))))
}

/// The guess checked against the true state at the cut (module doc):
/// the nodes each stand-in stands for, the worker's root first, or why
/// the guess was wrong.
pub(super) fn adoptable<S: TreeSink<Handle = NodeId>>(
    builder: &TreeBuilder<S>,
    core: &Core,
    cut: usize,
    spec: &Guess,
) -> Result<Vec<(NodeId, NodeId)>, TreeRejection> {
    if core.pos != cut || core.boundary() != spec.start {
        return Err(TreeRejection::Tokenizer);
    }
    let state = &builder.state;
    if state.mode != spec.mode {
        return Err(TreeRejection::Mode);
    }
    let open: Vec<_> = state.open.iter().filter(|o| !o.is_hole()).collect();
    let same_stack = open.len() == spec.open.len()
        && open.iter().zip(&spec.open).all(|(o, (ns, name, hip, _))| {
            o.info.ns == *ns
                && o.info.html_integration_point == *hip
                && builder.key_name(o.info.key) == Some(&**name)
        });
    if !same_stack {
        return Err(TreeRejection::OpenElements);
    }
    let markers = state
        .formatting
        .iter()
        .filter(|e| **e == Formatting::Marker);
    let elements = state
        .formatting
        .iter()
        .filter(|e| matches!(e, Formatting::Element(_)));
    if elements.count() != 0 || markers.count() != spec.markers {
        return Err(TreeRejection::Formatting);
    }
    let form_agrees = match (state.form, spec.form) {
        (None, None) => true,
        (Some(node), Some(i)) => open[i].node == node,
        _ => false,
    };
    let flags_agree = state.frameset_ok == spec.frameset_ok
        && state.quirks_mode == spec.quirks
        && state.head.is_some()
        && state.template_modes.is_empty()
        && !state.foster_parenting
        && !state.ignore_lf
        && state.pending_text.is_empty()
        && state.context.is_none();
    if !form_agrees || !flags_agree {
        return Err(TreeRejection::Pointers);
    }
    let head = state.head.expect("checked");
    let stand_ins = std::iter::once((NodeId::ROOT, NodeId::ROOT))
        .chain(std::iter::once((spec.head, head)))
        .chain(spec.open.iter().zip(&open).map(|(g, o)| (g.3, o.node)))
        .collect();
    Ok(stand_ins)
}
