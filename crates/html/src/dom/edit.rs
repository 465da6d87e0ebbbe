//! Building and changing a [`Document`] by hand: empty documents and
//! fragments, node creation, and the DOM's insertion and removal
//! (`appendChild`, `insertBefore`, `remove`), plus the linking helpers the
//! parser's sink ([`DomSink`](super::DomSink)) shares.
//!
//! Every operation keeps the invariants of `dom/mod.rs`: the links form a
//! tree, a node is in at most one parent's child list, exactly once and in
//! order. The checks that guard them (the DOM's *ensure pre-insertion
//! validity*) are programming errors when they fail, so they panic, as
//! indexing a `Vec` out of bounds does: every caller can know beforehand
//! whether its ids are valid and its nodes detached, and a `Result` on
//! every `append_child` would only be unwrapped. The panics are listed on
//! each method.
//!
//! Text is never merged by these methods: [`Document::append_child`] of a
//! text node after a text node keeps two nodes, as the DOM's `appendChild`
//! does, so every id a caller holds stays the node it created. (Only the
//! parser merges adjacent text, as the standard's *insert a character*
//! does.) Serializing gives the same HTML either way.

use super::text::TextStore;
use super::{
    Attr, Data, DoctypeData, Document, Element, NAME_CACHE_SLOTS, NONE, NameId, Node, NodeId,
    OTHER_NAMES,
};
use crate::names::LocalName;
use crate::namespace::{AttrNamespace, Namespace};
use crate::token::{Name, TokenText};
use crate::tree_builder::QuirksMode;
use std::collections::HashMap;

impl Default for Document {
    fn default() -> Document {
        Document::new()
    }
}

impl Document {
    /// An empty document: a document node and nothing else (no-quirks).
    pub fn new() -> Document {
        Document::with_root(Default::default(), false)
    }

    /// An empty document fragment: its root is a fragment node, as
    /// [`parse_fragment`](crate::parse_fragment)'s is.
    pub fn new_fragment() -> Document {
        Document::with_root(Default::default(), true)
    }

    /// A document whose text store keeps `source` and whose node 0 is a
    /// document (or fragment) node.
    pub(super) fn with_root(source: std::sync::Arc<String>, fragment: bool) -> Document {
        let root = Node {
            parent: NONE,
            prev: NONE,
            next: NONE,
            first: NONE,
            last: NONE,
            data: if fragment {
                Data::Fragment
            } else {
                Data::Document
            },
        };
        // Room for the nodes of most pages of this size, and of large
        // documents of dense markup ([`node_capacity`]), so the arena
        // seldom grows (each growth copies it).
        let mut nodes = Vec::new();
        if nodes.try_reserve_exact(node_capacity(&source)).is_err() {
            nodes.reserve_exact(1 + source.len() / 40);
        }
        nodes.push(root);
        Document {
            nodes,
            attrs: Vec::with_capacity(source.len() / 160),
            names: Vec::new(),
            name_ids: HashMap::default(),
            name_cache: [0; NAME_CACHE_SLOTS],
            text: TextStore::new(source),
            doctypes: Vec::new(),
            templates: HashMap::new(),
            quirks_mode: QuirksMode::NoQuirks,
            errors: Vec::new(),
            tokenizer_errors: Vec::new(),
        }
    }

    /// A new, detached element `name` in `ns` with `attrs` (namespace,
    /// local name, value), in order. `name` is the DOM's local name, kept
    /// as given (lower case for HTML, `foreignObject` for SVG). An HTML
    /// `template` gets its own contents fragment, as the parser's do.
    pub fn create_element(
        &mut self,
        ns: Namespace,
        name: &str,
        attrs: &[(AttrNamespace, &str, &str)],
    ) -> NodeId {
        let name = self.intern(name_of(name));
        let attrs_start = self.attrs.len() as u32;
        for &(ns, name, value) in attrs {
            let name = self.intern(name_of(name));
            let value = self.text.add(TokenText::Scratch(value));
            self.attrs.push(Attr { ns, name, value });
        }
        let attrs_len = self.attrs.len() as u32 - attrs_start;
        let id = self.new_node(Data::Element(Element {
            ns,
            name,
            attrs_start,
            attrs_len,
        }));
        if ns == Namespace::Html && name == NameId::known(LocalName::Template) {
            let contents = self.new_node(Data::Fragment);
            self.templates.insert(id, contents);
        }
        NodeId(id)
    }

    /// A new, detached text node holding `text`.
    pub fn create_text(&mut self, text: &str) -> NodeId {
        let t = self.text.add(TokenText::Scratch(text));
        NodeId(self.new_node(Data::Text(t)))
    }

    /// A new, detached comment holding `text`.
    pub fn create_comment(&mut self, text: &str) -> NodeId {
        let t = self.text.add(TokenText::Scratch(text));
        NodeId(self.new_node(Data::Comment(t)))
    }

    /// Appends a DOCTYPE to the root (`""` identifiers are missing ones).
    pub fn append_doctype(&mut self, name: &str, public_id: &str, system_id: &str) -> NodeId {
        let mut keep = |s: &str| self.text.add(TokenText::Scratch(s));
        let data = DoctypeData {
            name: keep(name),
            public_id: Some(keep(public_id)),
            system_id: Some(keep(system_id)),
        };
        self.doctypes.push(data);
        let id = self.new_node(Data::Doctype(self.doctypes.len() as u32 - 1));
        self.link_last(0, id);
        NodeId(id)
    }

    /// Appends the detached node `child` as the last child of `parent`
    /// (the DOM's `appendChild`; text is not merged, see the module doc).
    /// Costs the depth of `parent` (the check that `child` is not one of
    /// its ancestors).
    ///
    /// # Panics
    /// If either id is not a node of this document; if `parent` cannot
    /// have children (a text node, comment or doctype); if `child` is a
    /// document or fragment node, already has a parent, or is `parent` or
    /// one of its ancestors.
    pub fn append_child(&mut self, parent: NodeId, child: NodeId) {
        self.check_insertion(parent, child);
        self.link_last(parent.0, child.0);
    }

    /// Inserts the detached node `child` just before `sibling`, in
    /// `sibling`'s parent (the DOM's `insertBefore`). Costs the depth of
    /// `sibling`.
    ///
    /// # Panics
    /// If either id is not a node of this document; if `sibling` has no
    /// parent; and in the cases of [`Document::append_child`], the parent
    /// being `sibling`'s.
    pub fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        self.check_id(sibling);
        let parent = self.nodes[sibling.index()].parent;
        assert!(parent != NONE, "{sibling:?} has no parent to insert into");
        self.check_insertion(NodeId(parent), child);
        self.link_before(sibling.0, child.0);
    }

    /// Removes `node` (with its subtree) from its parent; it keeps its
    /// slot and can be inserted again. Nothing happens to a node with no
    /// parent.
    ///
    /// # Panics
    /// If `node` is not a node of this document.
    pub fn detach(&mut self, node: NodeId) {
        self.check_id(node);
        self.unlink(node.0);
    }

    fn check_id(&self, id: NodeId) {
        assert!(
            id.index() < self.nodes.len(),
            "{id:?} is not in this document"
        );
    }

    /// That `parent` is a node of this document that can have children.
    pub(super) fn check_parent(&self, parent: NodeId) {
        self.check_id(parent);
        assert!(
            matches!(
                self.nodes[parent.index()].data,
                Data::Document | Data::Fragment | Data::Element(_)
            ),
            "{parent:?} cannot have children"
        );
    }

    /// The DOM's *ensure pre-insertion validity*, for a tree of one
    /// document.
    fn check_insertion(&self, parent: NodeId, child: NodeId) {
        self.check_parent(parent);
        self.check_id(child);
        let c = &self.nodes[child.index()];
        assert!(
            !matches!(c.data, Data::Document | Data::Fragment),
            "{child:?} is a document or fragment node, which cannot be a child"
        );
        assert!(c.parent == NONE, "{child:?} already has a parent");
        let mut up = parent.0;
        while up != NONE {
            assert!(up != child.0, "{child:?} is {parent:?} or its ancestor");
            up = self.nodes[up as usize].parent;
        }
    }

    /// The name's id: a [`LocalName`]'s own, or its index in the table of
    /// other names (added once).
    #[inline]
    pub(super) fn intern(&mut self, name: Name<'_>) -> NameId {
        match name {
            Name::Known(n) => NameId::known(n),
            Name::Other(s) => self.intern_other(s),
        }
    }

    fn intern_other(&mut self, s: &str) -> NameId {
        // Most names a page repeats (`data-id`, `aria-label`, a custom
        // element's) are found here, for a fraction of a hash map lookup.
        let slot = name_cache_slot(s.as_bytes());
        let cached = self.name_cache[slot];
        if cached != 0 && *self.names[(cached - OTHER_NAMES) as usize] == *s {
            return NameId(cached);
        }
        let id = self.intern_other_in_map(s);
        self.name_cache[slot] = id.0;
        id
    }

    fn intern_other_in_map(&mut self, s: &str) -> NameId {
        if self.name_ids.len() < self.names.len() {
            // A parsed document drops its lookup table; rebuild it.
            self.name_ids = (self.names.iter().zip(OTHER_NAMES..))
                .map(|(n, id)| (n.clone(), id))
                .collect();
        }
        if let Some(&id) = self.name_ids.get(s) {
            return NameId(id);
        }
        let id = OTHER_NAMES + self.names.len() as u32;
        self.names.push(s.into());
        self.name_ids.insert(s.into(), id);
        NameId(id)
    }

    /// A new, detached node holding `data`.
    ///
    /// # Panics
    /// If the arena already holds `2^32 - 1` nodes.
    pub(super) fn new_node(&mut self, data: Data) -> u32 {
        let id = u32::try_from(self.nodes.len())
            .ok()
            .filter(|&id| id != NONE)
            .expect("a document holds fewer than 2^32 - 1 nodes");
        self.nodes.push(Node {
            parent: NONE,
            prev: NONE,
            next: NONE,
            first: NONE,
            last: NONE,
            data,
        });
        id
    }

    fn slot(&mut self, id: u32) -> &mut Node {
        &mut self.nodes[id as usize]
    }

    /// Links the detached `child` as `parent`'s last child.
    pub(super) fn link_last(&mut self, parent: u32, child: u32) {
        debug_assert_eq!(self.nodes[child as usize].parent, NONE);
        let last = self.slot(parent).last;
        {
            let c = self.slot(child);
            c.parent = parent;
            c.prev = last;
            c.next = NONE;
        }
        if last == NONE {
            self.slot(parent).first = child;
        } else {
            self.slot(last).next = child;
        }
        self.slot(parent).last = child;
    }

    /// Links the detached `child` just before `sibling` (which has a
    /// parent).
    pub(super) fn link_before(&mut self, sibling: u32, child: u32) {
        debug_assert_eq!(self.nodes[child as usize].parent, NONE);
        let parent = self.slot(sibling).parent;
        debug_assert_ne!(parent, NONE);
        let prev = self.slot(sibling).prev;
        {
            let c = self.slot(child);
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        self.slot(sibling).prev = child;
        if prev == NONE {
            self.slot(parent).first = child;
        } else {
            self.slot(prev).next = child;
        }
    }

    /// Unlinks `node` from its parent's child list (nothing if it has no
    /// parent).
    pub(super) fn unlink(&mut self, node: u32) {
        let Node {
            parent, prev, next, ..
        } = *self.slot(node);
        if parent == NONE {
            return;
        }
        if prev == NONE {
            self.slot(parent).first = next;
        } else {
            self.slot(prev).next = next;
        }
        if next == NONE {
            self.slot(parent).last = prev;
        } else {
            self.slot(next).prev = prev;
        }
        let n = self.slot(node);
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }
}

/// `name` as a token name: its [`LocalName`] when it is exactly one.
fn name_of(name: &str) -> Name<'_> {
    match LocalName::from_lowercase(name.as_bytes()) {
        Some(n) if n.as_str() == name => Name::Known(n),
        _ => Name::Other(name),
    }
}

/// The slot of [`Document`]'s name cache for a name: a multiplicative
/// hash of its length and up to 16 of its bytes (the first and last 8, or
/// the first and last 4, or each of up to 3).
pub(super) fn name_cache_slot(s: &[u8]) -> usize {
    let n = s.len();
    let word = |i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    let half = |i: usize| u64::from(u32::from_le_bytes(s[i..i + 4].try_into().expect("4 bytes")));
    let bits = match n {
        8.. => word(0) ^ word(n - 8).rotate_left(29),
        4..=7 => half(0) | half(n - 4) << 32,
        _ => s.iter().fold(0, |h, &b| h << 8 | u64::from(b)),
    };
    let h = (bits ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - NAME_CACHE_SLOTS.trailing_zeros())) as usize
}

/// The node slots a parse of `source` starts with. Per corpus page, a
/// node takes 29 bytes of input at the 10th percentile, 35 at the 25th,
/// 49 at the median, 122 at the 90th: one per 40 bytes, and about seven
/// pages in ten never grow the arena, for 1 byte of node slots (40 bytes
/// each) per input byte (measured 2026-11-26 against one per 80, all
/// corpus pages, best of 7, nine runs each: 0.9 % faster,
/// `callgrind-tree.sh` 19.46 -> 19.20 Ir/byte). From
/// [`ESTIMATE_NODES_FROM`] bytes on, at least one per `<` too, estimated
/// from samples ([`estimated_tags`]): a large document of dense markup
/// (one node per 10 bytes: posts of short elements) otherwise grows its
/// arena twice, each growth copying it and faulting in fresh pages on the
/// thread that builds the tree. Slots never written cost address space,
/// not memory (where the estimate cannot be reserved, `with_root` takes
/// one per 40 bytes).
fn node_capacity(source: &str) -> usize {
    let base = 1 + source.len() / 40;
    if source.len() < ESTIMATE_NODES_FROM {
        return base;
    }
    base.max(estimated_tags(source))
}

/// Inputs from this size on get node slots for their estimated tags
/// ([`node_capacity`]); below it the sampling's few microseconds are a
/// share of the parse, and a growth copies little.
const ESTIMATE_NODES_FROM: usize = 1 << 20;

/// About how many tags `input` has: the `<`s of 32 samples of 2 KiB
/// spread evenly over it (all of it, if it is shorter), scaled to its
/// length — a few microseconds, where counting every `<` of a page of
/// megabytes would cost a tenth of its parse.
pub(crate) fn estimated_tags(input: &str) -> usize {
    const SAMPLES: usize = 32;
    const SAMPLE: usize = 2 << 10;
    let bytes = input.as_bytes();
    if bytes.len() <= SAMPLES * SAMPLE {
        return memchr::memchr_iter(b'<', bytes).count();
    }
    let step = bytes.len() / SAMPLES;
    let sampled: usize = (0..SAMPLES)
        .map(|i| memchr::memchr_iter(b'<', &bytes[i * step..][..SAMPLE]).count())
        .sum();
    sampled * (bytes.len() / SAMPLE) / SAMPLES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SerializeOptions;

    fn html(doc: &Document) -> String {
        doc.root().outer_html(SerializeOptions::default())
    }

    #[test]
    fn builds_a_tree_that_serializes() {
        let mut doc = Document::new_fragment();
        let div = doc.create_element(
            Namespace::Html,
            "div",
            &[
                (AttrNamespace::None, "class", "x"),
                (AttrNamespace::None, "data-k", "1"),
            ],
        );
        let t1 = doc.create_text("a<");
        let t2 = doc.create_text("b");
        let c = doc.create_comment("c");
        doc.append_child(NodeId(0), div);
        doc.append_child(div, t1);
        doc.append_child(div, t2);
        doc.insert_before(t1, c);
        assert_eq!(
            html(&doc),
            "<div class=\"x\" data-k=\"1\"><!--c-->a&lt;b</div>"
        );
        // Text is not merged: both nodes stay.
        assert_eq!(doc.node(div).children().count(), 3);
        let e = doc.node(div).as_element().unwrap();
        assert_eq!(e.local_name(), Some(LocalName::Div));
        assert_eq!(e.attr("data-k"), Some("1"));
        doc.detach(c);
        doc.detach(c);
        assert_eq!(html(&doc), "<div class=\"x\" data-k=\"1\">a&lt;b</div>");
        assert_eq!(doc.node(c).parent(), None);
        doc.append_child(div, c);
        assert_eq!(doc.node(div).last_child().map(|n| n.id()), Some(c));
    }

    #[test]
    fn templates_get_contents_and_names_are_interned() {
        let mut doc = Document::new();
        doc.append_doctype("html", "", "");
        let t = doc.create_element(Namespace::Html, "template", &[]);
        let svg = doc.create_element(Namespace::Svg, "foreignObject", &[]);
        let svg2 = doc.create_element(Namespace::Svg, "foreignObject", &[]);
        assert_eq!(doc.names.len(), 1);
        let contents = doc.node(t).as_element().unwrap().template_contents();
        let contents = contents.expect("a template has contents").id();
        doc.append_child(NodeId(0), t);
        doc.append_child(contents, svg);
        doc.append_child(svg, svg2);
        assert_eq!(
            html(&doc),
            "<!DOCTYPE html><template><foreignObject><foreignObject></foreignObject>\
             </foreignObject></template>"
        );
    }

    #[test]
    fn a_parsed_document_can_be_edited() {
        let mut doc = crate::parse_fragment(
            "<x-a></x-a>",
            &crate::FragmentContext::html("div"),
            &Default::default(),
        );
        let again = doc.create_element(Namespace::Html, "x-a", &[]);
        assert_eq!(doc.names.len(), 1);
        doc.append_child(NodeId(0), again);
        assert_eq!(html(&doc), "<x-a></x-a><x-a></x-a>");
    }

    /// Names of every length, many sharing cache slots: each is interned
    /// once, and every later lookup (cached or not) finds its own id.
    #[test]
    fn the_name_cache_never_mixes_names_up() {
        let mut doc = Document::new();
        // Lengths 1 to 40, six names of each length differing only in the
        // last byte, and each name listed twice.
        let names: Vec<String> = (0..40)
            .flat_map(|len| (0..6).map(move |k| format!("{}{k}", "a".repeat(len))))
            .flat_map(|name| [name.clone(), name])
            .collect();
        let mut ids = Vec::new();
        for name in &names {
            ids.push(doc.intern_other(name));
        }
        for _ in 0..3 {
            for (name, &id) in names.iter().zip(&ids) {
                assert_eq!(doc.intern_other(name), id, "{name}");
                assert_eq!(doc.name_str(id), name);
            }
        }
        let distinct: std::collections::HashSet<_> = names.iter().collect();
        assert_eq!(doc.names.len(), distinct.len());
        // Every length takes its own branch of the slot hash, in range.
        for len in 0..40 {
            let s = vec![b'a'; len];
            assert!(name_cache_slot(&s) < NAME_CACHE_SLOTS);
        }
    }

    #[test]
    #[should_panic(expected = "already has a parent")]
    fn a_node_is_inserted_once() {
        let mut doc = Document::new();
        let a = doc.create_element(Namespace::Html, "a", &[]);
        doc.append_child(NodeId(0), a);
        doc.append_child(NodeId(0), a);
    }

    #[test]
    #[should_panic(expected = "or its ancestor")]
    fn no_cycles() {
        let mut doc = Document::new();
        let a = doc.create_element(Namespace::Html, "a", &[]);
        let b = doc.create_element(Namespace::Html, "b", &[]);
        doc.append_child(a, b);
        doc.append_child(b, a);
    }

    #[test]
    #[should_panic(expected = "cannot have children")]
    fn text_has_no_children() {
        let mut doc = Document::new();
        let t = doc.create_text("x");
        let u = doc.create_text("y");
        doc.append_child(t, u);
    }

    #[test]
    #[should_panic(expected = "is not in this document")]
    fn ids_are_checked() {
        let mut doc = Document::new();
        doc.append_child(NodeId(0), NodeId(7));
    }
}
