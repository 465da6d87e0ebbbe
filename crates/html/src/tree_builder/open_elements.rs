//! The stack of open elements (§13.2.4.3) as a value with indexes, so that
//! no question the tree builder asks of it walks a long run of entries.
//!
//! The standard answers "has an element in scope", "any other end tag",
//! the `li`/`dd`/`dt` start tags and "reset the insertion mode" by walking
//! down from the current node until it meets the target or an element
//! that stops the walk. A hostile page keeps a long run of elements above
//! the stopping point and repeats a tag that changes nothing
//! (`<li><td>` + `<div>`×n + `</li>`×n): walking, that is quadratic. Here
//! each answer is a comparison of positions:
//!
//! - every name (an interned [`LocalName`] or the tree builder's number for
//!   another name) has a chain of the entries with that name, linked both
//!   ways from the topmost, and a count: "the topmost HTML `li`" is the
//!   head of its chain (skipping the rare foreign elements with an HTML
//!   name);
//! - the positions of the elements that bound the default scope, of the
//!   special elements, and of the special elements other than `address`,
//!   `div` and `p` (which stop the `li` walk) are kept in increasing order:
//!   the topmost of each is the last.
//!
//! "The target is in scope" is then "the topmost target is at or above the
//! topmost boundary of the scope", and so on (see the tree builder's
//! `stack.rs`).
//!
//! The stack may hold *holes* ([`Open::hole`]): entries that are no
//! element, left where an element was removed from deep in the stack, so
//! that the entries above do not move (moving them costs the depth, on
//! every round of a flood of misnested tags). Holes have no name and are
//! in no category, so every walk passes over them; "the element before"
//! and "the second element" are [`OpenElements::live_before`] and
//! [`OpenElements::second`]. The top entry is never a hole (popping
//! removes the holes it uncovers).
//!
//! Invariants: for every name, its chain links exactly the entries with
//! that name, in stack order, from `names[i].top` down; `names[i].count`
//! is their number; each category vector holds exactly the positions of
//! its members, increasing; the last entry is no hole. Every mutation goes
//! through the methods here.

use super::state::{ElemInfo, Key, Open};
use super::tag_sets::{Scope, bounds_default_scope_html, is_special, is_special_html};
use crate::names::LocalName;
use crate::namespace::Namespace;

/// The deepest stack whose invariants a debug build re-checks after each
/// change in the middle (see `OpenElements::check`).
#[cfg(debug_assertions)]
const CHECKED_DEPTH: usize = 256;

/// No position.
const NONE: u32 = u32::MAX;

/// An entry's neighbours in the chain of its name, and the nearest HTML
/// element below it (or a hole or foreign element whose own
/// `html_below` leads on to it: holes keep theirs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Link {
    below: u32,
    above: u32,
    html_below: u32,
}

const UNLINKED: Link = Link {
    below: NONE,
    above: NONE,
    html_below: NONE,
};

/// The entries with one name: how many, and the topmost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct NameEntries {
    count: u32,
    top: u32,
}

const NO_ENTRIES: NameEntries = NameEntries {
    count: 0,
    top: NONE,
};

/// The stack of open elements; read it as a slice (bottom first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenElements<H> {
    items: Vec<Open<H>>,
    /// Parallel to `items`: each entry's links in its name's chain.
    links: Vec<Link>,
    /// Per name index ([`name_index`]).
    names: Vec<NameEntries>,
    /// Positions of the elements that bound the default scope.
    boundaries: Vec<u32>,
    /// Positions of the special elements.
    specials: Vec<u32>,
    /// Positions of the special elements but `address`, `div` and `p`.
    list_item_stops: Vec<u32>,
    /// The HTML `option` elements popped since the tree builder last
    /// handed them to its sink ([`TreeSink::option_popped`]): it does so
    /// before the tree changes again, and always before the token ends,
    /// so between tokens this is empty.
    ///
    /// [`TreeSink::option_popped`]: crate::TreeSink::option_popped
    pub(crate) popped_options: Vec<H>,
}

impl<H> Default for OpenElements<H> {
    fn default() -> Self {
        OpenElements {
            items: Vec::new(),
            links: Vec::new(),
            names: vec![NO_ENTRIES; LocalName::ALL.len()],
            boundaries: Vec::new(),
            specials: Vec::new(),
            list_item_stops: Vec::new(),
            popped_options: Vec::new(),
        }
    }
}

impl<H> std::ops::Deref for OpenElements<H> {
    type Target = [Open<H>];

    fn deref(&self) -> &[Open<H>] {
        &self.items
    }
}

/// The index of `key` in [`OpenElements`]' names: interned names first,
/// then the tree builder's numbers for other names; none for a hole.
#[inline]
fn name_index(key: Key) -> Option<usize> {
    match key.local_index() {
        Some(i) => Some(i),
        None if key == Key::HOLE => None,
        None => Some(LocalName::ALL.len() + key.other_index()),
    }
}

/// Category bits: bounds the default scope.
const BOUNDARY: u8 = 1;
/// Category bits: special.
const SPECIAL: u8 = 2;
/// Category bits: special, and not `address`, `div` or `p` (stops the
/// `li` walk).
const STOP: u8 = 4;
/// Category bits: an HTML `option` (its popping is reported to the sink).
const OPTION: u8 = 8;

/// The categories of the HTML elements, by [`LocalName`] index.
static HTML_CATEGORIES: [u8; LocalName::ALL.len()] = {
    let mut table = [0; LocalName::ALL.len()];
    let mut i = 0;
    while i < table.len() {
        let name = LocalName::ALL[i];
        let mut bits = 0;
        if bounds_default_scope_html(name) {
            bits |= BOUNDARY;
        }
        if matches!(name, LocalName::Option) {
            bits |= OPTION;
        }
        if is_special_html(name) {
            bits |= SPECIAL;
            if !matches!(name, LocalName::Address | LocalName::Div | LocalName::P) {
                bits |= STOP;
            }
        }
        table[i] = bits;
        i += 1;
    }
    table
};

/// The categories an element belongs to (bits).
#[inline]
fn categories(info: &ElemInfo) -> u8 {
    match (info.ns, info.key.local_index()) {
        (Namespace::Html, Some(i)) => HTML_CATEGORIES[i],
        (Namespace::Html, None) => 0,
        // SVG `foreignObject`, `desc`, `title`; MathML `mi`, `mo`, `mn`,
        // `ms`, `mtext`, `annotation-xml`: special, and bounding the scope.
        _ if is_special(info) => BOUNDARY | SPECIAL | STOP,
        _ => 0,
    }
}

impl<H: Copy> OpenElements<H> {
    // ---- Names ----

    #[cold]
    fn name_entries(&mut self, i: usize) -> &mut NameEntries {
        if i >= self.names.len() {
            self.names.resize(i + 1, NO_ENTRIES);
        }
        &mut self.names[i]
    }

    /// Links the element at `slot` as the topmost of its name (every entry
    /// of that name above it is unlinked).
    fn link_on_top(&mut self, slot: usize) {
        self.links[slot].html_below = match slot.checked_sub(1) {
            None => NONE,
            Some(b) if self.items[b].info.ns == Namespace::Html => b as u32,
            Some(b) => self.links[b].html_below,
        };
        let Some(i) = name_index(self.items[slot].info.key) else {
            self.links[slot].below = NONE;
            self.links[slot].above = NONE;
            return;
        };
        let entries = match self.names.get_mut(i) {
            Some(entries) => entries,
            None => self.name_entries(i),
        };
        let below = entries.top;
        entries.top = slot as u32;
        entries.count += 1;
        self.links[slot].below = below;
        self.links[slot].above = NONE;
        if below != NONE {
            self.links[below as usize].above = slot as u32;
        }
    }

    /// The entry above `slot` in its name's chain. Popping the top of a
    /// chain leaves the `above` of the next one as it was (one store less
    /// on every pop), so a stored `above` counts only when the entry there
    /// still links down to `slot`.
    #[inline]
    fn above(&self, slot: usize) -> u32 {
        let above = self.links[slot].above;
        let live = (above as usize) < self.items.len()
            && self.links[above as usize].below == slot as u32
            && self.items[above as usize].info.key == self.items[slot].info.key;
        if live { above } else { NONE }
    }

    /// Takes the element at `slot` out of its name's chain.
    #[inline]
    fn unlink(&mut self, slot: usize) {
        let Some(i) = name_index(self.items[slot].info.key) else {
            return;
        };
        let above = self.above(slot);
        let below = self.links[slot].below;
        self.links[slot].below = NONE;
        self.links[slot].above = NONE;
        if above == NONE {
            debug_assert_eq!(self.names[i].top, slot as u32);
            self.names[i].top = below;
        } else {
            self.links[above as usize].below = below;
        }
        if below != NONE {
            self.links[below as usize].above = above;
        }
        self.names[i].count -= 1;
    }

    /// Takes the current node out of its name's chain.
    #[inline(always)]
    fn unlink_top(&mut self, slot: usize) {
        let Some(i) = name_index(self.items[slot].info.key) else {
            return;
        };
        let entries = &mut self.names[i];
        entries.top = self.links[slot].below;
        entries.count -= 1;
    }

    /// How many open elements have the name `key` (in any namespace).
    #[inline]
    pub(crate) fn count_of(&self, key: Key) -> u32 {
        name_index(key)
            .and_then(|i| self.names.get(i))
            .map_or(0, |n| n.count)
    }

    /// Whether the stack may hold the HTML element `name`: false only
    /// when it certainly does not.
    #[inline]
    pub(crate) fn may_hold(&self, name: LocalName) -> bool {
        self.names[name as usize].count > 0
    }

    /// The position of the topmost HTML element with the name `key`.
    #[inline]
    pub(crate) fn top_html_key(&self, key: Key) -> Option<usize> {
        let mut at = self.names.get(name_index(key)?)?.top;
        while at != NONE {
            if self.items[at as usize].info.ns == Namespace::Html {
                return Some(at as usize);
            }
            at = self.links[at as usize].below;
        }
        None
    }

    /// The position of the topmost HTML element `name`.
    #[inline]
    pub(crate) fn top_html(&self, name: LocalName) -> Option<usize> {
        if !self.may_hold(name) {
            return None;
        }
        self.top_html_key(Key::known(name))
    }

    /// The position of the element `node`, found along the chain of its
    /// name `key`.
    pub(crate) fn position_by_name(&self, key: Key, node: H) -> Option<usize>
    where
        H: PartialEq,
    {
        let mut at = self.names.get(name_index(key)?)?.top;
        while at != NONE {
            if self.items[at as usize].node == node {
                return Some(at as usize);
            }
            at = self.links[at as usize].below;
        }
        None
    }

    /// The position of the topmost HTML element below the current node.
    pub(crate) fn html_below_top(&self) -> Option<usize> {
        let top = self.items.len().checked_sub(1)?;
        let mut at = self.links[top].html_below;
        while at != NONE && self.items[at as usize].info.ns != Namespace::Html {
            at = self.links[at as usize].html_below;
        }
        (at != NONE).then_some(at as usize)
    }

    /// The position of the topmost entry named `key` that is the current
    /// node or not an HTML element (as the end tag rule of foreign content
    /// looks for it).
    pub(crate) fn top_foreign_key(&self, key: Key) -> Option<usize> {
        let top = self.items.len().checked_sub(1)?;
        let mut at = self.names.get(name_index(key)?)?.top;
        while at != NONE {
            let i = at as usize;
            if i == top || self.items[i].info.ns != Namespace::Html {
                return Some(i);
            }
            at = self.links[i].below;
        }
        None
    }

    // ---- Categories ----

    /// The position of the topmost element that bounds `scope`.
    pub(crate) fn top_boundary(&self, scope: Scope) -> Option<usize> {
        use LocalName as L;
        let default = self.boundaries.last().map(|&b| b as usize);
        match scope {
            Scope::Default => default,
            Scope::ListItem => default.max(self.top_html(L::Ol)).max(self.top_html(L::Ul)),
            Scope::Button => default.max(self.top_html(L::Button)),
            Scope::Table => self
                .top_html(L::Html)
                .max(self.top_html(L::Table))
                .max(self.top_html(L::Template)),
        }
    }

    /// Whether the entry at `index` is in `scope`: no element above it
    /// bounds the scope (it may bound it itself).
    #[inline]
    pub(crate) fn in_scope_at(&self, index: usize, scope: Scope) -> bool {
        self.top_boundary(scope).is_none_or(|b| b <= index)
    }

    /// Whether the entry at `index` is in the default scope.
    #[inline]
    pub(crate) fn in_default_scope(&self, index: usize) -> bool {
        self.in_scope_at(index, Scope::Default)
    }

    /// The position of the topmost special element.
    #[inline]
    pub(crate) fn top_special(&self) -> Option<usize> {
        self.specials.last().map(|&s| s as usize)
    }

    /// The position of the topmost special element other than `address`,
    /// `div` and `p`.
    #[inline]
    pub(crate) fn top_list_item_stop(&self) -> Option<usize> {
        self.list_item_stops.last().map(|&s| s as usize)
    }

    fn add_categories(&mut self, slot: usize, bits: u8) {
        let at = slot as u32;
        if bits & BOUNDARY != 0 {
            self.boundaries.push(at);
        }
        if bits & SPECIAL != 0 {
            self.specials.push(at);
        }
        if bits & STOP != 0 {
            self.list_item_stops.push(at);
        }
    }

    /// Drops the category positions at or above `from`.
    fn truncate_categories(&mut self, from: usize) {
        for positions in [
            &mut self.boundaries,
            &mut self.specials,
            &mut self.list_item_stops,
        ] {
            let keep = positions.partition_point(|&p| (p as usize) < from);
            positions.truncate(keep);
        }
    }

    // ---- Changes at the top ----

    /// Pushes an element.
    #[inline(always)]
    pub(crate) fn push(&mut self, open: Open<H>) {
        let slot = self.items.len();
        let html_below = match self.items.last() {
            None => NONE,
            Some(b) if b.info.ns == Namespace::Html => slot as u32 - 1,
            Some(_) => self.links[slot - 1].html_below,
        };
        let mut link = Link {
            below: NONE,
            above: NONE,
            html_below,
        };
        if let Some(i) = name_index(open.info.key) {
            let entries = match self.names.get_mut(i) {
                Some(entries) => entries,
                None => self.name_entries(i),
            };
            link.below = entries.top;
            entries.top = slot as u32;
            entries.count += 1;
            if link.below != NONE {
                self.links[link.below as usize].above = slot as u32;
            }
        }
        let bits = categories(&open.info);
        self.items.push(open);
        self.links.push(link);
        if bits != 0 {
            self.add_categories(slot, bits);
        }
    }

    /// The same stack with every entry mapped by `f` (its node moved to
    /// another document, its name renumbered for another tree builder):
    /// the entries pushed again in order, holes included, so that every
    /// position stays what it was.
    pub(crate) fn relocated<G: Copy>(
        &self,
        mut f: impl FnMut(Open<H>) -> Open<G>,
    ) -> OpenElements<G> {
        let mut moved = OpenElements::default();
        for open in &self.items {
            moved.push(f(*open));
        }
        moved
    }

    /// Pops the current node.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<Open<H>> {
        let slot = self.items.len().checked_sub(1)?;
        self.unlink_top(slot);
        let bits = categories(&self.items[slot].info);
        if bits != 0 {
            // The current node is the topmost member of its categories.
            if bits & BOUNDARY != 0 {
                self.boundaries.pop();
            }
            if bits & SPECIAL != 0 {
                self.specials.pop();
            }
            if bits & STOP != 0 {
                self.list_item_stops.pop();
            }
            if bits & OPTION != 0 {
                self.popped_options.push(self.items[slot].node);
            }
        }
        let open = self.items.pop();
        self.links.pop();
        if self.items.last().is_some_and(Open::is_hole) {
            self.pop_holes();
        }
        open
    }

    /// Pops the holes at the top.
    #[cold]
    fn pop_holes(&mut self) {
        while self.items.last().is_some_and(Open::is_hole) {
            self.items.pop();
            self.links.pop();
        }
    }

    /// Pops entries until `len` remain.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.items.len() > len {
            self.pop();
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

    // ---- Changes in the middle ----

    /// Replaces the entries `start..end` with `entries` (no more of them
    /// than they replace); the entries above move down by the difference.
    /// Costs the entries from `start` to the top.
    pub(crate) fn splice(&mut self, start: usize, end: usize, entries: &[Open<H>]) {
        debug_assert!(entries.len() <= end - start);
        for slot in (start..self.items.len()).rev() {
            self.unlink(slot);
        }
        self.truncate_categories(start);
        self.items.splice(start..end, entries.iter().copied());
        self.links.truncate(start);
        self.links.resize(self.items.len(), UNLINKED);
        for slot in start..self.items.len() {
            self.link_on_top(slot);
            let bits = categories(&self.items[slot].info);
            self.add_categories(slot, bits);
        }
        self.pop_holes();
        #[cfg(debug_assertions)]
        self.check();
    }

    /// Removes the entry at `index`; the entries above it move down one.
    pub(crate) fn remove(&mut self, index: usize) -> Open<H> {
        let open = self.items[index];
        self.splice(index, index + 1, &[]);
        open
    }

    /// Replaces the entries `start..end` with `entries` (no more of them
    /// than they replace) and holes below them: `entries` end at `end`,
    /// and no entry above moves. Costs `end - start` (and the special
    /// elements above when the region loses or gains one: never in the
    /// adoption agency's rewrites, which move one within the region).
    /// When the region is the top of the stack, `entries` is not empty.
    pub(crate) fn rewrite_with_holes(&mut self, start: usize, end: usize, entries: &[Open<H>]) {
        debug_assert!(entries.len() <= end - start);
        debug_assert!(end < self.items.len() || !entries.is_empty());
        // Unlink the region's elements, top down; for each name, the last
        // one unlinked (the bottommost) leaves the chain's neighbours just
        // above and below the region.
        let mut around: Vec<(usize, Link)> = Vec::new();
        for slot in (start..end).rev() {
            let Some(i) = name_index(self.items[slot].info.key) else {
                continue;
            };
            let link = Link {
                above: self.above(slot),
                ..self.links[slot]
            };
            self.unlink(slot);
            match around.iter_mut().find(|(name, _)| *name == i) {
                Some((_, l)) => *l = link,
                None => around.push((i, link)),
            }
        }
        let first = end - entries.len();
        for slot in start..first {
            self.items[slot] = Open::hole(self.items[slot].node);
        }
        self.items[first..end].copy_from_slice(entries);
        for slot in start..end {
            self.links[slot].html_below = match slot.checked_sub(1) {
                None => NONE,
                Some(b) if self.items[b].info.ns == Namespace::Html => b as u32,
                Some(b) => self.links[b].html_below,
            };
        }
        // Link the new elements, bottom up, between the neighbours.
        for slot in first..end {
            let Some(i) = name_index(self.items[slot].info.key) else {
                continue;
            };
            let (below, above) = match around.iter_mut().find(|(name, _)| *name == i) {
                Some((_, link)) => {
                    let neighbours = (link.below, link.above);
                    // The next element with this name goes above this one.
                    link.below = slot as u32;
                    neighbours
                }
                None => {
                    let neighbours = self.neighbours(i, slot);
                    around.push((
                        i,
                        Link {
                            below: slot as u32,
                            above: neighbours.1,
                            html_below: NONE,
                        },
                    ));
                    neighbours
                }
            };
            self.links[slot].below = below;
            self.links[slot].above = above;
            if below != NONE {
                self.links[below as usize].above = slot as u32;
            }
            if above == NONE {
                self.names[i].top = slot as u32;
            } else {
                self.links[above as usize].below = slot as u32;
            }
            self.names[i].count += 1;
        }
        // The categories: the region's positions, rewritten in place when
        // it keeps as many members (no position above moves).
        for category in 0..3 {
            let member =
                |o: &Open<H>| categories(&o.info) & [BOUNDARY, SPECIAL, STOP][category] != 0;
            let now: Vec<u32> = (first..end)
                .filter(|&slot| member(&self.items[slot]))
                .map(|slot| slot as u32)
                .collect();
            let positions = match category {
                0 => &mut self.boundaries,
                1 => &mut self.specials,
                _ => &mut self.list_item_stops,
            };
            let lo = positions.partition_point(|&p| (p as usize) < start);
            let hi = positions.partition_point(|&p| (p as usize) < end);
            if hi - lo == now.len() {
                positions[lo..hi].copy_from_slice(&now);
            } else {
                positions.splice(lo..hi, now);
            }
        }
        #[cfg(debug_assertions)]
        self.check();
    }

    /// Checks every invariant of the module doc against a recomputation
    /// (debug builds, after each change in the middle), while the stack is
    /// at most [`CHECKED_DEPTH`] deep. The recomputation walks the whole
    /// stack: on every change of a deep one it would make a debug build
    /// quadratic where the parser is linear (the adoption agency floods of
    /// `tests/tree_adversarial.rs` ran out of their time budget), so deep
    /// stacks, which no conformance case builds, go unchecked.
    #[cfg(debug_assertions)]
    fn check(&self) {
        if self.items.len() > CHECKED_DEPTH {
            return;
        }
        assert!(self.items.last().is_none_or(|o| !o.is_hole()));
        assert_eq!(self.links.len(), self.items.len());
        let mut linked = 0;
        for (i, entries) in self.names.iter().enumerate() {
            let (mut at, mut above, mut n) = (entries.top, NONE, 0);
            while at != NONE {
                let slot = at as usize;
                assert_eq!(name_index(self.items[slot].info.key), Some(i));
                assert_eq!(self.above(slot), above);
                assert!(above == NONE || slot < above as usize);
                (above, at, n) = (at, self.links[slot].below, n + 1);
            }
            assert_eq!(n, entries.count);
            linked += n;
        }
        let elements = self.items.iter().filter(|o| !o.is_hole()).count();
        assert_eq!(linked as usize, elements);
        for (category, positions) in [&self.boundaries, &self.specials, &self.list_item_stops]
            .into_iter()
            .enumerate()
        {
            let expected: Vec<u32> = (0..self.items.len())
                .filter(|&slot| {
                    categories(&self.items[slot].info) & [BOUNDARY, SPECIAL, STOP][category] != 0
                })
                .map(|slot| slot as u32)
                .collect();
            assert_eq!(positions, &expected);
        }
        for slot in 0..self.items.len() {
            let mut at = self.links[slot].html_below;
            while at != NONE && self.items[at as usize].info.ns != Namespace::Html {
                at = self.links[at as usize].html_below;
            }
            let expected = self.items[..slot]
                .iter()
                .rposition(|o| o.info.ns == Namespace::Html);
            assert_eq!((at != NONE).then_some(at as usize), expected);
        }
    }

    /// The neighbours, in the chain of name `i`, of a position `slot`
    /// that is not in it: (below, above).
    fn neighbours(&self, i: usize, slot: usize) -> (u32, u32) {
        let (mut below, mut above) = (self.names.get(i).map_or(NONE, |n| n.top), NONE);
        while below != NONE && below as usize > slot {
            above = below;
            below = self.links[below as usize].below;
        }
        (below, above)
    }
}
