//! The tree builder's whole state as one value: insertion modes, the
//! stack of open elements, the list of active formatting elements, the
//! head and form element pointers and the flags.
//!
//! A [`BuilderState`] can be cloned, compared and inspected; with the
//! tokenizer's [`Snapshot`](crate::Snapshot) it is everything a parse needs
//! to resume at a token boundary (besides the tree itself and the name
//! table, which only grows).

use super::QuirksMode;
use super::formatting_list::FormattingList;
use super::tag_sets::bounds_default_scope;
use crate::names::LocalName;
use crate::namespace::Namespace;

/// The insertion modes of the standard (§13.2.4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum InsertionMode {
    /// "initial"
    #[default]
    Initial,
    /// "before html"
    BeforeHtml,
    /// "before head"
    BeforeHead,
    /// "in head"
    InHead,
    /// "in head noscript"
    InHeadNoscript,
    /// "after head"
    AfterHead,
    /// "in body"
    InBody,
    /// "text"
    Text,
    /// "in table"
    InTable,
    /// "in table text"
    InTableText,
    /// "in caption"
    InCaption,
    /// "in column group"
    InColumnGroup,
    /// "in table body"
    InTableBody,
    /// "in row"
    InRow,
    /// "in cell"
    InCell,
    /// "in template"
    InTemplate,
    /// "after body"
    AfterBody,
    /// "in frameset"
    InFrameset,
    /// "after frameset"
    AfterFrameset,
    /// "after after body"
    AfterAfterBody,
    /// "after after frameset"
    AfterAfterFrameset,
}

/// An element name as the stack of open elements compares it: a
/// [`LocalName`], or the tree builder's number for another name (the
/// tokenizer's lower-case name; SVG's camel case is not part of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(u32);

const OTHER: u32 = 1 << 16;

impl Key {
    /// The key of a hole in the stack of open elements (see
    /// [`OpenElements`]): no element has it.
    const HOLE: Key = Key(u32::MAX);

    pub(crate) const fn known(name: LocalName) -> Key {
        Key(name as u16 as u32)
    }

    pub(crate) fn other(id: u32) -> Key {
        Key(OTHER + id)
    }

    /// The interned name's index in [`LocalName::ALL`], if the key is one.
    #[inline]
    pub(crate) fn local_index(self) -> Option<usize> {
        (self.0 < OTHER).then_some(self.0 as usize)
    }

    /// The interned name, if the key is one.
    pub fn local(self) -> Option<LocalName> {
        (self.0 < OTHER).then(|| LocalName::ALL[self.0 as usize])
    }
}

/// What the tree builder knows of an element without asking the sink.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ElemInfo {
    /// The namespace.
    pub ns: Namespace,
    /// The name.
    pub key: Key,
    /// Whether the element is an HTML integration point (SVG
    /// `foreignObject`, `desc`, `title`; MathML `annotation-xml` with an
    /// HTML `encoding`).
    pub html_integration_point: bool,
}

impl ElemInfo {
    /// An HTML element.
    pub(crate) fn html(name: LocalName) -> ElemInfo {
        ElemInfo {
            ns: Namespace::Html,
            key: Key::known(name),
            html_integration_point: false,
        }
    }

    #[inline]
    pub(crate) fn is_html(&self, name: LocalName) -> bool {
        self.ns == Namespace::Html && self.key == Key::known(name)
    }

    /// The HTML element's name, if it is an HTML element with an interned
    /// name.
    #[inline]
    pub(crate) fn html_name(&self) -> Option<LocalName> {
        if self.ns == Namespace::Html {
            self.key.local()
        } else {
            None
        }
    }

    /// MathML `mi`, `mo`, `mn`, `ms`, `mtext`.
    pub(crate) fn is_mathml_text_integration_point(&self) -> bool {
        use LocalName as L;
        self.ns == Namespace::MathMl
            && matches!(
                self.key.local(),
                Some(L::Mi | L::Mo | L::Mn | L::Ms | L::Mtext)
            )
    }
}

/// An entry of the stack of open elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Open<H> {
    /// The element.
    pub node: H,
    /// Its name and namespace.
    pub info: ElemInfo,
}

impl<H> Open<H> {
    /// A hole where the element `node` was: an entry that is no element.
    /// Its info matches no name, is in no namespace's HTML rules and
    /// bounds no scope, so walks of the stack pass over it.
    pub(crate) fn hole(node: H) -> Open<H> {
        Open {
            node,
            info: ElemInfo {
                ns: Namespace::Svg,
                key: Key::HOLE,
                html_integration_point: false,
            },
        }
    }

    /// Whether the entry is a hole.
    #[inline]
    pub(crate) fn is_hole(&self) -> bool {
        self.info.key == Key::HOLE
    }
}

/// The stack of open elements: a vector of [`Open`] entries (read it as
/// a slice) with two indexes that keep the scope checks of the standard
/// from walking the whole stack:
///
/// - how many open elements have each name, so that a check for a name
///   that is not open (a `p` in button scope on every block-level start
///   tag, an `li` among a deep stack of `div`s) costs nothing, however
///   deep the stack;
/// - the positions of the elements that bound the default scope
///   (`table`, `td`, `template`, …), so that "the node is in scope" is one
///   comparison for a node whose position is known.
///
/// The stack may hold *holes* ([`Open::hole`]): entries that are no
/// element, left where the adoption agency removed elements from deep in
/// the stack, so that the entries above do not move (which would cost the
/// depth on every round of a flood of misnested tags). Holes match
/// nothing and bound nothing, so the standard's walks pass over them; the
/// code that needs "the element before" or "the second element" asks
/// [`OpenElements::live_before`] / [`OpenElements::second`]. The top entry
/// is never a hole (popping removes the holes it uncovers).
///
/// Invariants: `counts[i]` is the number of elements (holes excluded)
/// whose key has index `i` (see [`key_index`]); `boundaries` holds, in
/// increasing order, the positions of the entries that bound the default
/// scope; the last entry is no hole. Every mutation goes through the
/// methods here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenElements<H> {
    items: Vec<Open<H>>,
    counts: Vec<u32>,
    boundaries: Vec<u32>,
}

impl<H> Default for OpenElements<H> {
    fn default() -> Self {
        OpenElements {
            items: Vec::new(),
            counts: vec![0; LocalName::ALL.len()],
            boundaries: Vec::new(),
        }
    }
}

impl<H> std::ops::Deref for OpenElements<H> {
    type Target = [Open<H>];

    fn deref(&self) -> &[Open<H>] {
        &self.items
    }
}

/// The index of `key` in [`OpenElements`]' counts: interned names first,
/// then the tree builder's numbers for other names.
fn key_index(key: Key) -> usize {
    if key.0 < OTHER {
        key.0 as usize
    } else {
        LocalName::ALL.len() + (key.0 - OTHER) as usize
    }
}

impl<H: Copy> OpenElements<H> {
    /// Counts `info` in (`add`) or out.
    #[inline(always)]
    fn count(&mut self, info: &ElemInfo, add: bool) {
        if info.key == Key::HOLE {
            return;
        }
        let i = key_index(info.key);
        if i >= self.counts.len() {
            self.count_slow(i, add);
        } else if add {
            self.counts[i] += 1;
        } else {
            self.counts[i] -= 1;
        }
    }

    /// [`Self::count`] for a name never counted before.
    #[cold]
    fn count_slow(&mut self, i: usize, add: bool) {
        self.counts.resize(i + 1, 0);
        debug_assert!(add, "an element is counted in before it is counted out");
        self.counts[i] = u32::from(add);
    }

    /// How many open elements have the name `key` (in any namespace).
    #[inline]
    pub(crate) fn count_of(&self, key: Key) -> u32 {
        self.counts.get(key_index(key)).copied().unwrap_or(0)
    }

    /// Whether the stack may hold the HTML element `name`: false only
    /// when it certainly does not.
    #[inline]
    pub(crate) fn may_hold(&self, name: LocalName) -> bool {
        self.counts[name as usize] > 0
    }

    /// Whether the entry at `index` is in the default scope: no element
    /// above it bounds that scope.
    #[inline]
    pub(crate) fn in_default_scope(&self, index: usize) -> bool {
        self.boundaries.last().is_none_or(|&b| b as usize <= index)
    }

    /// Pushes an element.
    #[inline(always)]
    pub(crate) fn push(&mut self, open: Open<H>) {
        self.count(&open.info, true);
        if bounds_default_scope(&open.info) {
            self.boundaries.push(self.items.len() as u32);
        }
        self.items.push(open);
    }

    /// Pops the current node.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<Open<H>> {
        let open = self.items.pop()?;
        self.count(&open.info, false);
        if self.boundaries.last() == Some(&(self.items.len() as u32)) {
            self.boundaries.pop();
        }
        if self.items.last().is_some_and(Open::is_hole) {
            self.pop_holes();
        }
        Some(open)
    }

    /// Pops the holes at the top.
    #[cold]
    fn pop_holes(&mut self) {
        while self.items.last().is_some_and(Open::is_hole) {
            self.items.pop();
        }
    }

    /// The position of the last element before position `index`.
    pub(crate) fn live_before(&self, index: usize) -> Option<usize> {
        self.items[..index].iter().rposition(|o| !o.is_hole())
    }

    /// The second element of the stack (after the root), if any.
    pub(crate) fn second(&self) -> Option<&Open<H>> {
        self.items.iter().filter(|o| !o.is_hole()).nth(1)
    }

    /// Replaces the entries `start..end` with `entries` (no more of them
    /// than they replace) and holes below them: `entries` end at `end`,
    /// and no entry above moves. Costs `end - start`. When the region is
    /// the top of the stack, `entries` is not empty.
    pub(crate) fn rewrite_with_holes(&mut self, start: usize, end: usize, entries: &[Open<H>]) {
        // The top entry stays an element.
        debug_assert!(entries.len() <= end - start);
        debug_assert!(end < self.items.len() || !entries.is_empty());
        for i in start..end {
            let info = self.items[i].info;
            self.count(&info, false);
        }
        for open in entries {
            self.count(&open.info, true);
        }
        let first = end - entries.len();
        for i in start..first {
            self.items[i] = Open::hole(self.items[i].node);
        }
        self.items[first..end].copy_from_slice(entries);
        // The boundaries in the region (the adoption agency's regions and
        // the elements removed by name have none; kept exact regardless).
        let below = self.boundaries.partition_point(|&b| (b as usize) < start);
        let above = self.boundaries.partition_point(|&b| (b as usize) < end);
        if below != above || entries.iter().any(|o| bounds_default_scope(&o.info)) {
            let region: Vec<u32> = (first..end)
                .filter(|&i| bounds_default_scope(&self.items[i].info))
                .map(|i| i as u32)
                .collect();
            self.boundaries.splice(below..above, region);
        }
    }

    /// Pops entries until `len` remain.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.items.len() > len {
            self.pop();
        }
    }

    /// Removes the entry at `index`; the entries above it move down one.
    pub(crate) fn remove(&mut self, index: usize) -> Open<H> {
        let open = self.items[index];
        self.splice(index, index + 1, &[]);
        open
    }

    /// Replaces the entries `start..end` with `entries` (no more of them
    /// than they replace); the entries above move down by the difference.
    /// Costs `end - start`, plus the entries above when they move.
    pub(crate) fn splice(&mut self, start: usize, end: usize, entries: &[Open<H>]) {
        debug_assert!(entries.len() <= end - start);
        for i in start..end {
            let info = self.items[i].info;
            self.count(&info, false);
        }
        for open in entries {
            self.count(&open.info, true);
        }
        self.items[start..start + entries.len()].copy_from_slice(entries);
        let gap = end - start - entries.len();
        if gap > 0 {
            self.items.drain(start + entries.len()..end);
            self.pop_holes();
        }
        // The boundaries: those below the region stay; those in it are
        // re-derived from `entries`; those above move down by `gap`.
        let below = self.boundaries.partition_point(|&b| (b as usize) < start);
        let above = self.boundaries.partition_point(|&b| (b as usize) < end);
        if gap == 0 && below == above && !entries.iter().any(|o| bounds_default_scope(&o.info)) {
            return;
        }
        let moved: Vec<u32> = self.boundaries[above..]
            .iter()
            .map(|&b| b - gap as u32)
            .collect();
        self.boundaries.truncate(below);
        for (i, open) in entries.iter().enumerate() {
            if bounds_default_scope(&open.info) {
                self.boundaries.push((start + i) as u32);
            }
        }
        self.boundaries.extend(moved);
    }
}

/// The tree builder's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuilderState<H> {
    /// The insertion mode.
    pub mode: InsertionMode,
    /// The original insertion mode (for the text and in table text modes).
    pub original_mode: InsertionMode,
    /// The stack of template insertion modes.
    pub template_modes: Vec<InsertionMode>,
    /// The stack of open elements, bottom (`html`) first.
    pub open: OpenElements<H>,
    /// The list of active formatting elements.
    pub formatting: FormattingList<H>,
    /// The head element pointer.
    pub head: Option<H>,
    /// The form element pointer.
    pub form: Option<H>,
    /// The frameset-ok flag.
    pub frameset_ok: bool,
    /// Whether foster parenting is on (while the in table rules process a
    /// token by the in body rules).
    pub foster_parenting: bool,
    /// The scripting flag.
    pub scripting: bool,
    /// The document's quirks mode (set by the initial mode).
    pub quirks_mode: QuirksMode,
    /// The context element, when parsing a fragment.
    pub context: Option<ElemInfo>,
    /// A newline at the start of the next token is dropped (after `pre`,
    /// `listing`, `textarea` start tags).
    pub ignore_lf: bool,
    /// The pending table character tokens (in table text): their text, and
    /// each piece's offset in the input when it was a span of it.
    pub pending_text: String,
    /// The pieces of `pending_text`: (length, input offset).
    pub pending_pieces: Vec<(usize, Option<usize>)>,
}

impl<H> BuilderState<H> {
    pub(crate) fn new(scripting: bool) -> BuilderState<H> {
        BuilderState {
            mode: InsertionMode::Initial,
            original_mode: InsertionMode::Initial,
            template_modes: Vec::new(),
            open: OpenElements::default(),
            formatting: FormattingList::default(),
            head: None,
            form: None,
            frameset_ok: true,
            foster_parenting: false,
            scripting,
            quirks_mode: QuirksMode::NoQuirks,
            context: None,
            ignore_lf: false,
            pending_text: String::new(),
            pending_pieces: Vec::new(),
        }
    }
}
