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
//! - every entry carries its *section* (how many markers precede it) and a
//!   fingerprint of its attributes, and the list counts its entries per
//!   (section, name) and per (section, name, fingerprint): "none after the
//!   last marker" and "fewer than three equal" are answered without a
//!   walk; only when three entries share a fingerprint is the section
//!   walked, comparing attributes for real;
//! - every entry carries the position its element had on the stack of open
//!   elements ([`FormattingElement::slot`]), kept exact by the tree builder
//!   whenever entries of the stack move, so "is it open?" is one
//!   comparison: the element is open exactly when the stack holds it at
//!   that position (an element that leaves the stack never returns to it).
//!
//! Invariants: `sections` has one entry per marker plus one; the counts
//! equal the number of element entries with each key; entries of one
//! section are contiguous and sections increase along the list.

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
}

/// The list of active formatting elements; read it as a slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormattingList<H> {
    entries: Vec<Formatting<H>>,
    /// One per section (markers + 1).
    sections: Vec<Section>,
    /// Element entries per (section, name, attribute fingerprint), for
    /// the (section, name) pairs that [`Section::counted`] marks.
    by_attrs: HashMap<(u32, LocalName, u64), u32, foldhash::fast::FixedState>,
}

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

    fn count(&mut self, e: &FormattingElement<H>, add: bool) {
        let i = formatting_index(e.name);
        let section = &mut self.sections[e.section as usize];
        if add {
            section.by_name[i] += 1;
        } else {
            section.by_name[i] -= 1;
        }
        if add && section.by_name[i] == 3 && section.counted & (1 << i) == 0 {
            // Start counting this name's entries by attributes, with the
            // two already in the section (always the last one: entries
            // are added to the last section only).
            section.counted |= 1 << i;
            for f in self.entries.iter().rev() {
                match f {
                    Formatting::Marker => break,
                    Formatting::Element(f) if f.name == e.name => {
                        count_key(&mut self.by_attrs, (f.section, f.name, f.attrs), true);
                    }
                    Formatting::Element(_) => {}
                }
            }
        }
        if self.sections[e.section as usize].counted & (1 << i) != 0 {
            count_key(&mut self.by_attrs, (e.section, e.name, e.attrs), add);
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
                Formatting::Element(_) => {}
            }
        }
    }

    /// How many elements named `name` with attribute fingerprint `attrs`
    /// follow the last marker: exact from three elements named `name` on,
    /// and then at least three.
    pub(crate) fn equal_after_marker(&self, name: LocalName, attrs: u64) -> u32 {
        let section = self.current_section();
        let counted = self.sections[section as usize].counted & (1 << formatting_index(name));
        if counted == 0 {
            return self.named_after_marker(name);
        }
        self.by_attrs
            .get(&(section, name, attrs))
            .copied()
            .unwrap_or(0)
    }

    /// Appends an element after the last marker.
    pub(crate) fn push(&mut self, node: H, name: LocalName, slot: usize, attrs: u64) {
        let e = FormattingElement {
            node,
            name,
            slot: slot as u32,
            attrs,
            section: self.current_section(),
        };
        self.count(&e, true);
        self.entries.push(Formatting::Element(e));
    }

    /// Appends a marker.
    pub(crate) fn push_marker(&mut self) {
        self.sections.push(Section::default());
        self.entries.push(Formatting::Marker);
    }

    /// Removes the last entry.
    pub(crate) fn pop(&mut self) -> Option<Formatting<H>> {
        let entry = self.entries.pop()?;
        match entry {
            Formatting::Marker => {
                self.sections.pop();
            }
            Formatting::Element(e) => self.count(&e, false),
        }
        Some(entry)
    }

    /// Removes the element entry at `index`.
    pub(crate) fn remove(&mut self, index: usize) -> FormattingElement<H> {
        let Formatting::Element(e) = self.entries.remove(index) else {
            unreachable!("only element entries are removed from the middle")
        };
        self.count(&e, false);
        e
    }

    /// Inserts an element at `index`, after the last marker.
    pub(crate) fn insert(&mut self, index: usize, mut e: FormattingElement<H>) {
        debug_assert!(!self.entries[index..].contains(&Formatting::Marker));
        e.section = self.current_section();
        self.count(&e, true);
        self.entries.insert(index, Formatting::Element(e));
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
            Formatting::Marker => None,
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

/// Adds one to (`add`) or takes one from the count of `key`.
fn count_key(
    map: &mut HashMap<(u32, LocalName, u64), u32, foldhash::fast::FixedState>,
    key: (u32, LocalName, u64),
    add: bool,
) {
    let n = map.entry(key).or_insert(0);
    if add {
        *n += 1;
    } else {
        *n -= 1;
        if *n == 0 {
            map.remove(&key);
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
            Formatting::Marker => None,
        }
    }
}
