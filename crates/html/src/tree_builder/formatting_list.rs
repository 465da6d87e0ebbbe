//! The list of active formatting elements (§13.2.4.4) as a value with
//! indexes, so that no operation on it walks the whole list when the
//! input holds many formatting elements.
//!
//! The standard's list is a sequence of entries, each a formatting element
//! or a scope marker. The questions the tree builder asks of it — "is
//! there an `a` after the last marker?", "are there already three elements
//! equal to this one after the last marker?" (the Noah's Ark clause), "is
//! this entry's element still on the stack of open elements?" — would each
//! walk the list back to the last marker, and a page of a million
//! `<b id=…>` start tags with all-different attributes makes that list a
//! million entries long. Here:
//!
//! - every entry carries its *section* (how many markers precede it), and
//!   the list counts its entries per (section, name): "none after the last
//!   marker" and "fewer than three of that name" are answered without a
//!   walk;
//! - from the third entry of a name in a section on, those entries carry a
//!   fingerprint of their attributes (the sink's
//!   [`attributes_fingerprint`](super::TreeSink::attributes_fingerprint))
//!   and the list keeps the positions of the entries of each (section,
//!   name, fingerprint): the Noah's Ark clause compares attributes only
//!   with those (three, unless fingerprints collide);
//! - an entry removed from the middle leaves a [`Formatting::Hole`], so no
//!   entry after it moves (holes are dropped in one pass when they
//!   outnumber the entries);
//! - every entry carries the position its element had on the stack of open
//!   elements ([`FormattingElement::slot`]), kept exact by the tree builder
//!   whenever entries of the stack move, so "is it open?" is one
//!   comparison: the element is open exactly when the stack holds it at
//!   that position (an element that leaves the stack never returns to it).
//!
//! Invariants: `sections` has one entry per marker plus one; the counts
//! equal the number of element entries with each key; `by_attrs` holds
//! the position of every element entry whose (section, name) is counted
//! by fingerprint, under its key, and no other; entries of one section
//! are contiguous and sections increase along the list; the last entry is
//! no hole; `holes` counts the holes.

use super::state::Key;
use crate::names::LocalName;
use std::collections::HashMap;

/// A formatting element's entry in the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FormattingElement<H> {
    /// The element.
    pub node: H,
    /// Its name.
    pub name: LocalName,
    /// Its position on the stack of open elements, while it is there.
    pub slot: u32,
    /// A fingerprint of its attributes (equal attribute sets have equal
    /// fingerprints), once its name is counted by fingerprint in its
    /// section; 0 before.
    pub attrs: u64,
    /// How many markers precede it in the list.
    pub section: u32,
}

/// An entry of the list of active formatting elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Formatting<H> {
    /// A scope marker.
    Marker,
    /// A formatting element (always HTML, always an interned name).
    Element(FormattingElement<H>),
    /// Where an entry was removed: no entry (the standard's algorithms
    /// pass over it).
    Hole,
}

/// The list of active formatting elements; read it as a slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormattingList<H> {
    entries: Vec<Formatting<H>>,
    /// One per section (markers + 1).
    sections: Vec<Section>,
    /// The positions of the element entries per (section, name, attribute
    /// fingerprint), for the (section, name) pairs that
    /// [`Section::counted`] marks.
    by_attrs: HashMap<AttrsKey, Vec<u32>, foldhash::fast::FixedState>,
    /// How many entries are holes.
    holes: usize,
}

/// A (section, name, attribute fingerprint) key of [`FormattingList`].
type AttrsKey = (u32, LocalName, u64);

/// The counts of one section of the list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Section {
    /// Element entries per name (indexed by [`formatting_index`]).
    by_name: [u32; FORMATTING_NAMES],
    /// The names (bits by [`formatting_index`]) whose entries are counted
    /// in `by_attrs`: those that had three entries in the section at some
    /// time. Below three entries of a name, no three can be equal, and
    /// most pages never get there, so they pay for no hashing.
    counted: u16,
}

impl<H> Default for FormattingList<H> {
    fn default() -> Self {
        FormattingList {
            entries: Vec::new(),
            sections: vec![Section::default()],
            by_attrs: HashMap::default(),
            holes: 0,
        }
    }
}

impl<H> std::ops::Deref for FormattingList<H> {
    type Target = [Formatting<H>];

    fn deref(&self) -> &[Formatting<H>] {
        &self.entries
    }
}

impl<H: Copy + Eq> FormattingList<H> {
    /// The section a new entry at the end belongs to.
    fn current_section(&self) -> u32 {
        self.sections.len() as u32 - 1
    }

    /// Whether the entries of `e`'s (section, name) are kept by
    /// fingerprint.
    fn keeps_attrs(&self, e: &FormattingElement<H>) -> bool {
        self.sections[e.section as usize].counted & (1 << formatting_index(e.name)) != 0
    }

    /// Counts the element entry `e` at `index` in (`add`) or out.
    fn count(&mut self, e: &FormattingElement<H>, index: usize, add: bool) {
        let i = formatting_index(e.name);
        let section = &mut self.sections[e.section as usize];
        if add {
            section.by_name[i] += 1;
        } else {
            section.by_name[i] -= 1;
        }
        if add && section.by_name[i] == 3 && section.counted & (1 << i) == 0 {
            // Start keeping this name's entries by fingerprint, with the
            // two already in the section (always the last one: entries
            // are added to the last section only).
            section.counted |= 1 << i;
            for (at, f) in self.entries.iter().enumerate().rev() {
                match f {
                    Formatting::Marker => break,
                    Formatting::Element(f) if f.name == e.name => {
                        let key = (f.section, f.name, f.attrs);
                        self.by_attrs.entry(key).or_default().push(at as u32);
                    }
                    Formatting::Element(_) | Formatting::Hole => {}
                }
            }
        }
        if self.keeps_attrs(e) {
            let key = (e.section, e.name, e.attrs);
            if add {
                self.by_attrs.entry(key).or_default().push(index as u32);
            } else if let Some(at) = self.by_attrs.get_mut(&key) {
                at.retain(|&p| p as usize != index);
                if at.is_empty() {
                    self.by_attrs.remove(&key);
                }
            }
        }
    }

    /// Records that the element entry `e` moved from `from` to `to`.
    fn moved(&mut self, e: &FormattingElement<H>, from: usize, to: usize) {
        if self.keeps_attrs(e)
            && let Some(at) = self.by_attrs.get_mut(&(e.section, e.name, e.attrs))
            && let Some(p) = at.iter_mut().find(|p| **p as usize == from)
        {
            *p = to as u32;
        }
    }

    /// Drops the holes in one pass, when they outnumber the entries.
    fn compact(&mut self) {
        if self.holes <= 32 || self.holes * 2 <= self.entries.len() {
            return;
        }
        self.entries.retain(|e| *e != Formatting::Hole);
        self.holes = 0;
        self.reindex();
    }

    /// Builds `by_attrs` again from the entries.
    fn reindex(&mut self) {
        self.by_attrs.clear();
        for (at, e) in self.entries.iter().enumerate() {
            if let Formatting::Element(e) = e
                && self.sections[e.section as usize].counted & (1 << formatting_index(e.name)) != 0
            {
                let key = (e.section, e.name, e.attrs);
                self.by_attrs.entry(key).or_default().push(at as u32);
            }
        }
    }

    /// How many elements named `name` follow the last marker.
    pub(crate) fn named_after_marker(&self, name: LocalName) -> u32 {
        self.sections
            .last()
            .map_or(0, |s| s.by_name[formatting_index(name)])
    }

    /// Whether the entries named `name` after the last marker are counted
    /// by attribute fingerprint (there were three of them at some time).
    pub(crate) fn counts_attributes(&self, name: LocalName) -> bool {
        let section = &self.sections[self.current_section() as usize];
        section.counted & (1 << formatting_index(name)) != 0
    }

    /// Sets the attribute fingerprints of the elements named `name` after
    /// the last marker (before their name is counted by fingerprint).
    pub(crate) fn fill_fingerprints(&mut self, name: LocalName, fingerprint: impl Fn(H) -> u64) {
        debug_assert!(!self.counts_attributes(name));
        for entry in self.entries.iter_mut().rev() {
            match entry {
                Formatting::Marker => break,
                Formatting::Element(e) if e.name == name => e.attrs = fingerprint(e.node),
                Formatting::Element(_) | Formatting::Hole => {}
            }
        }
    }

    /// The positions of the elements named `name` with attribute
    /// fingerprint `attrs` after the last marker, once the entries of that
    /// name are kept by fingerprint ([`Self::counts_attributes`]).
    pub(crate) fn equal_after_marker(&self, name: LocalName, attrs: u64) -> &[u32] {
        let key = (self.current_section(), name, attrs);
        self.by_attrs.get(&key).map_or(&[], Vec::as_slice)
    }

    /// Moves every element's node by `node` (into another document, whose
    /// sink fingerprints attributes with its own seed): the fingerprints
    /// of the names counted by fingerprint are taken again with
    /// `fingerprint` of the moved node, and the index rebuilt. Positions,
    /// markers and holes stay.
    pub(crate) fn relocate(&mut self, node: impl Fn(H) -> H, fingerprint: impl Fn(H) -> u64) {
        for entry in &mut self.entries {
            if let Formatting::Element(e) = entry {
                e.node = node(e.node);
                let counted = self.sections[e.section as usize].counted;
                if counted & (1 << formatting_index(e.name)) != 0 {
                    e.attrs = fingerprint(e.node);
                }
            }
        }
        self.reindex();
    }

    /// Appends an element after the last marker.
    pub(crate) fn push(&mut self, node: H, name: LocalName, slot: usize, attrs: u64) {
        self.compact();
        let e = FormattingElement {
            node,
            name,
            slot: slot as u32,
            attrs,
            section: self.current_section(),
        };
        self.count(&e, self.entries.len(), true);
        self.entries.push(Formatting::Element(e));
    }

    /// Appends a marker.
    pub(crate) fn push_marker(&mut self) {
        self.compact();
        self.sections.push(Section::default());
        self.entries.push(Formatting::Marker);
    }

    /// Removes the last entry (and the holes it uncovers).
    pub(crate) fn pop(&mut self) -> Option<Formatting<H>> {
        let entry = self.entries.pop()?;
        match entry {
            Formatting::Marker => {
                self.sections.pop();
            }
            Formatting::Element(e) => self.count(&e, self.entries.len(), false),
            Formatting::Hole => unreachable!("the last entry is no hole"),
        }
        while self.entries.last() == Some(&Formatting::Hole) {
            self.entries.pop();
            self.holes -= 1;
        }
        Some(entry)
    }

    /// Removes the element entry at `index`: a hole takes its place
    /// unless it is the last entry.
    pub(crate) fn remove(&mut self, index: usize) -> FormattingElement<H> {
        if index + 1 == self.entries.len() {
            let Some(Formatting::Element(e)) = self.pop() else {
                unreachable!("only element entries are removed")
            };
            return e;
        }
        let Formatting::Element(e) = std::mem::replace(&mut self.entries[index], Formatting::Hole)
        else {
            unreachable!("only element entries are removed")
        };
        self.holes += 1;
        self.count(&e, index, false);
        e
    }

    /// Replaces the element entry at `index` by `new` (the adoption
    /// agency's new element) placed at `bookmark` instead: the entries
    /// between move by one place. `bookmark` is a place between entries,
    /// counted as a position before the removal.
    pub(crate) fn replace_at_bookmark(
        &mut self,
        index: usize,
        bookmark: usize,
        mut new: FormattingElement<H>,
    ) {
        let Formatting::Element(old) = self.entries[index] else {
            unreachable!("the entry replaced is an element")
        };
        debug_assert!(!self.entries[index.min(bookmark)..].contains(&Formatting::Marker));
        self.count(&old, index, false);
        let bookmark = bookmark.min(self.entries.len());
        let to = if bookmark > index + 1 {
            // The entries after the old one, up to the bookmark, move up.
            self.entries[index..bookmark].rotate_left(1);
            for at in index..bookmark - 1 {
                if let Formatting::Element(e) = self.entries[at] {
                    self.moved(&e, at + 1, at);
                }
            }
            bookmark - 1
        } else if bookmark < index {
            // The entries from the bookmark to the old one move down.
            self.entries[bookmark..=index].rotate_right(1);
            for at in (bookmark + 1..=index).rev() {
                if let Formatting::Element(e) = self.entries[at] {
                    self.moved(&e, at - 1, at);
                }
            }
            bookmark
        } else {
            index
        };
        new.section = old.section;
        self.count(&new, to, true);
        self.entries[to] = Formatting::Element(new);
    }

    /// Replaces the element of the entry at `index` (a clone of it: same
    /// name and attributes) and records its stack position.
    pub(crate) fn replace_node(&mut self, index: usize, node: H, slot: usize) {
        if let Formatting::Element(e) = &mut self.entries[index] {
            e.node = node;
            e.slot = slot as u32;
        }
    }

    /// The element entry at `index`.
    pub(crate) fn element(&self, index: usize) -> Option<FormattingElement<H>> {
        match self.entries.get(index)? {
            Formatting::Element(e) => Some(*e),
            Formatting::Marker | Formatting::Hole => None,
        }
    }

    /// The position of the last entry for `node`.
    pub(crate) fn position(&self, node: H) -> Option<usize> {
        self.entries
            .iter()
            .rposition(|e| matches!(e, Formatting::Element(f) if f.node == node))
    }

    /// The last element named `name` after the last marker, and its index.
    pub(crate) fn last_named(&self, name: LocalName) -> Option<(usize, FormattingElement<H>)> {
        if self.named_after_marker(name) == 0 {
            return None;
        }
        self.entries
            .iter()
            .enumerate()
            .rev()
            .take_while(|(_, e)| **e != Formatting::Marker)
            .find_map(|(i, e)| match e {
                Formatting::Element(f) if f.name == name => Some((i, *f)),
                _ => None,
            })
    }

    /// Moves the stack positions recorded at or above `from` down by
    /// `by` (entries of the stack of open elements below them were
    /// removed).
    pub(crate) fn shift_slots(&mut self, from: usize, by: usize) {
        for e in &mut self.entries {
            if let Formatting::Element(f) = e
                && f.slot as usize >= from
            {
                f.slot -= by as u32;
            }
        }
    }
}

/// How many names formatting elements have.
const FORMATTING_NAMES: usize = 14;

/// The index of a formatting element's name (`a`, `b`, `big`, `code`,
/// `em`, `font`, `i`, `nobr`, `s`, `small`, `strike`, `strong`, `tt`,
/// `u`); other names share the last index (they never reach the list).
fn formatting_index(name: LocalName) -> usize {
    use LocalName as L;
    match name {
        L::A => 0,
        L::B => 1,
        L::Big => 2,
        L::Code => 3,
        L::Em => 4,
        L::Font => 5,
        L::I => 6,
        L::Nobr => 7,
        L::S => 8,
        L::Small => 9,
        L::Strike => 10,
        L::Strong => 11,
        L::Tt => 12,
        _ => 13,
    }
}

/// Whether a stack entry's key can name a formatting element.
pub(crate) fn is_formatting_key(key: Key) -> bool {
    key.local()
        .is_some_and(|name| formatting_index(name) < FORMATTING_NAMES - 1 || name == LocalName::U)
}

impl<H> Formatting<H> {
    /// The element's name, for an element entry.
    pub(crate) fn element_name(&self) -> Option<LocalName> {
        match self {
            Formatting::Element(e) => Some(e.name),
            Formatting::Marker | Formatting::Hole => None,
        }
    }
}
