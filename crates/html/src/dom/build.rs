//! Building a [`Document`]: the DOM's [`TreeSink`].
//!
//! Every mutation keeps the link invariants of `dom/mod.rs`: a node is
//! linked into at most one parent's child list, and `first`/`last`/`prev`/
//! `next` agree. Names not interned as [`LocalName`]s are stored once per
//! document (the table is kept in a map while building).

use super::select::SelectTracker;
use super::{Attr, Data, DoctypeData, Document, Element, NONE, NodeId};
use crate::error::ParseError;
use crate::namespace::{AttrNamespace, Namespace};
use crate::token::{Attrs, TokenText};
use crate::tree_builder::{ElementName, QuirksMode, TagAttrs, TreeError, TreeSink};
use std::collections::HashMap;
use std::hash::BuildHasher;

/// The sink that builds a [`Document`].
pub(crate) struct DomSink {
    pub doc: Document,
    /// The seeded hasher of attribute fingerprints (seeded, so that a
    /// page cannot be made of colliding attribute sets).
    fingerprints: foldhash::fast::RandomState,
    /// The customizable select's `selectedcontent` steps (`select.rs`).
    select: SelectTracker,
}

impl DomSink {
    /// A sink whose document keeps `source` (the input, or its first part
    /// when streaming) and whose root is a document (or fragment) node.
    pub fn new(source: String, fragment: bool) -> DomSink {
        DomSink::sharing(std::sync::Arc::new(source), fragment)
    }

    /// A sink whose document keeps `source` shared with other documents
    /// of the same input (no copy of it).
    pub fn sharing(source: std::sync::Arc<String>, fragment: bool) -> DomSink {
        DomSink {
            doc: Document::with_root(source, fragment),
            fingerprints: foldhash::fast::RandomState::default(),
            select: SelectTracker::default(),
        }
    }

    /// Adopts the document of a chunk built from a guessed context (its
    /// sink `part`, whose nodes `1..=last_stand_in` are stand-ins, each
    /// for the node of this document `stand_ins` pairs it with:
    /// `Document::adopt_speculated`), with what its sink tracked of the
    /// customizable select.
    pub(crate) fn adopt_part(
        &mut self,
        part: DomSink,
        stand_ins: &[(NodeId, NodeId)],
        last_stand_in: u32,
    ) -> super::Adopted {
        let DomSink { doc, select, .. } = part;
        let adopted = self.doc.adopt_speculated(doc, stand_ins, last_stand_in);
        let id = |id: u32| adopted.id(NodeId(id)).expect("a node of the part").0;
        self.select.absorb(select, id);
        adopted
    }

    /// The finished document with its parse errors (its name lookup table
    /// dropped: the names themselves stay, and an edit rebuilds the table
    /// if it needs it).
    pub fn finish(mut self, errors: Vec<TreeError>, tokenizer_errors: Vec<ParseError>) -> Document {
        self.doc.errors = errors;
        self.doc.tokenizer_errors = tokenizer_errors;
        self.doc.name_ids = HashMap::default();
        self.doc
    }

    /// Whether `node` is a comment.
    pub fn is_comment(&self, node: NodeId) -> bool {
        matches!(self.doc.nodes[node.index()].data, Data::Comment(_))
    }

    /// The input so far.
    pub fn source(&self) -> &str {
        &self.doc.text.source
    }

    /// Appends `text` to the text node `id` if it is one; true if so.
    #[inline(always)]
    fn grow_text(&mut self, id: u32, text: TokenText<'_>) -> bool {
        if id == NONE {
            return false;
        }
        if let Data::Text(t) = self.doc.nodes[id as usize].data {
            let grown = self.doc.text.append(t, text);
            self.doc.nodes[id as usize].data = Data::Text(grown);
            return true;
        }
        false
    }

    fn add_attrs(&mut self, attrs: &TagAttrs<'_>) -> (u32, u32) {
        let start = self.doc.attrs.len() as u32;
        if let Some(src) = attrs.html_source() {
            // An HTML element's attributes, read as the tokenizer keeps
            // them: a value that is a span of the input stays that span,
            // without becoming text and back (about a third of the cost
            // of building an element, in the tree kernel).
            let Attrs {
                reprs,
                input,
                scratch,
            } = src.attrs;
            for r in reprs {
                let name = self.doc.intern(r.name(input, scratch));
                let (from, to) = (r.value.start, r.value.end);
                let span = (!r.value.in_scratch)
                    .then(|| self.doc.text.source_span(src.base + from, to - from))
                    .flatten();
                let value = match span {
                    Some(span) => {
                        debug_assert_eq!(self.doc.text.get(span), r.value.get(input, scratch));
                        span
                    }
                    None => self.doc.text.add_copy(r.value.get(input, scratch)),
                };
                self.doc.attrs.push(Attr {
                    ns: AttrNamespace::None,
                    name,
                    value,
                });
            }
            return (start, self.doc.attrs.len() as u32 - start);
        }
        for a in attrs.iter() {
            let name = self.doc.intern(a.name);
            let value = self.doc.text.add(a.value);
            self.doc.attrs.push(Attr {
                ns: a.ns,
                name,
                value,
            });
        }
        (start, self.doc.attrs.len() as u32 - start)
    }

    fn element(&self, id: u32) -> &Element {
        match &self.doc.nodes[id as usize].data {
            Data::Element(e) => e,
            _ => unreachable!("the tree builder passes elements here"),
        }
    }

    fn attr_list(&self, id: u32) -> &[Attr] {
        let e = self.element(id);
        &self.doc.attrs[e.attrs_start as usize..][..e.attrs_len as usize]
    }
}

impl TreeSink for DomSink {
    type Handle = NodeId;

    fn document(&self) -> NodeId {
        NodeId(0)
    }

    fn input_appended(&mut self, chunk: &str) {
        std::sync::Arc::make_mut(&mut self.doc.text.source).push_str(chunk);
    }

    fn create_element(&mut self, name: ElementName<'_>, attrs: TagAttrs<'_>) -> NodeId {
        let name_id = self.doc.intern(name.local);
        let (attrs_start, attrs_len) = self.add_attrs(&attrs);
        let id = self.doc.new_node(Data::Element(Element {
            ns: name.ns,
            name: name_id,
            attrs_start,
            attrs_len,
        }));
        if name.ns == Namespace::Html {
            if name.local == crate::LocalName::Template {
                let contents = self.doc.new_node(Data::Fragment);
                self.doc.templates.insert(id, contents);
            }
            self.select.created(id, name_id);
        }
        NodeId(id)
    }

    fn create_comment(&mut self, text: TokenText<'_>) -> NodeId {
        let t = self.doc.text.add(text);
        NodeId(self.doc.new_node(Data::Comment(t)))
    }

    fn append_doctype(&mut self, name: &str, public_id: &str, system_id: &str) {
        let mut keep = |s: &str| self.doc.text.add(TokenText::Scratch(s));
        let data = DoctypeData {
            name: keep(name),
            public_id: Some(keep(public_id)),
            system_id: Some(keep(system_id)),
        };
        self.doc.doctypes.push(data);
        let id = self
            .doc
            .new_node(Data::Doctype(self.doc.doctypes.len() as u32 - 1));
        self.doc.link_last(0, id);
    }

    fn append(&mut self, parent: NodeId, child: NodeId) {
        self.doc.link_last(parent.0, child.0);
    }

    fn append_text(&mut self, parent: NodeId, text: TokenText<'_>) {
        if matches!(self.doc.nodes[parent.index()].data, Data::Document) {
            return;
        }
        let last = self.doc.nodes[parent.index()].last;
        if !self.grow_text(last, text) {
            let t = self.doc.text.add(text);
            let id = self.doc.new_node(Data::Text(t));
            self.doc.link_last(parent.0, id);
        }
    }

    fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        self.doc.link_before(sibling.0, child.0);
    }

    fn insert_text_before(&mut self, sibling: NodeId, text: TokenText<'_>) {
        let prev = self.doc.nodes[sibling.index()].prev;
        if !self.grow_text(prev, text) {
            let t = self.doc.text.add(text);
            let id = self.doc.new_node(Data::Text(t));
            self.doc.link_before(sibling.0, id);
        }
    }

    fn has_parent(&self, node: NodeId) -> bool {
        self.doc.nodes[node.index()].parent != NONE
    }

    fn detach(&mut self, node: NodeId) {
        self.select.moved();
        self.doc.unlink(node.0);
    }

    fn reparent_children(&mut self, from: NodeId, to: NodeId) {
        self.select.moved();
        let mut child = self.doc.nodes[from.index()].first;
        while child != NONE {
            let next = self.doc.nodes[child as usize].next;
            self.doc.unlink(child);
            self.doc.link_last(to.0, child);
            child = next;
        }
    }

    fn template_contents(&mut self, template: NodeId) -> NodeId {
        NodeId(self.doc.templates[&template.0])
    }

    fn add_attrs_if_missing(&mut self, element: NodeId, attrs: TagAttrs<'_>) {
        // The names the element has, in a set: a scan per new attribute
        // would be quadratic on a tag with many attributes.
        let have: std::collections::HashSet<(AttrNamespace, &str)> = self
            .attr_list(element.0)
            .iter()
            .map(|a| (a.ns, self.doc.name_str(a.name)))
            .collect();
        let missing: Vec<_> = attrs
            .iter()
            .filter(|a| !have.contains(&(a.ns, a.name.as_str())))
            .collect();
        drop(have);
        if missing.is_empty() {
            return;
        }
        // Move the element's attributes to the end of the shared list
        // (unless they are there), then add the missing ones after them.
        let Element {
            attrs_start,
            attrs_len,
            ..
        } = *self.element(element.0);
        let start = if (attrs_start + attrs_len) as usize == self.doc.attrs.len() {
            attrs_start
        } else {
            let start = self.doc.attrs.len() as u32;
            self.doc
                .attrs
                .extend_from_within(attrs_start as usize..(attrs_start + attrs_len) as usize);
            start
        };
        for a in missing {
            let name = self.doc.intern(a.name);
            let value = self.doc.text.add(a.value);
            self.doc.attrs.push(Attr {
                ns: a.ns,
                name,
                value,
            });
        }
        let len = self.doc.attrs.len() as u32 - start;
        if let Data::Element(e) = &mut self.doc.nodes[element.index()].data {
            e.attrs_start = start;
            e.attrs_len = len;
        }
    }

    fn clone_element(&mut self, element: NodeId) -> NodeId {
        // The clone shares the original's attributes: the parser never
        // changes a formatting element's attributes afterwards.
        let e = *self.element(element.0);
        NodeId(self.doc.new_node(Data::Element(e)))
    }

    fn same_attributes(&self, a: NodeId, b: NodeId) -> bool {
        let (xs, ys) = (self.attr_list(a.0), self.attr_list(b.0));
        if xs.len() != ys.len() {
            return false;
        }
        if xs.len() > 8 {
            // Many attributes: a map, not a scan per attribute (quadratic).
            let value = |a: &Attr| self.doc.text.get(a.value);
            let ys: HashMap<_, _> = ys.iter().map(|y| ((y.ns, y.name), value(y))).collect();
            return xs
                .iter()
                .all(|x| ys.get(&(x.ns, x.name)) == Some(&value(x)));
        }
        xs.iter().all(|x| {
            ys.iter().any(|y| {
                x.ns == y.ns
                    && x.name == y.name
                    && self.doc.text.get(x.value) == self.doc.text.get(y.value)
            })
        })
    }

    fn attributes_fingerprint(&self, element: NodeId) -> u64 {
        // A sum, so that the order of the attributes does not matter.
        self.attr_list(element.0).iter().fold(0u64, |sum, a| {
            let value = self.doc.text.get(a.value);
            sum.wrapping_add(self.fingerprints.hash_one((a.ns, a.name, value)))
        })
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.doc.quirks_mode = mode;
    }

    fn option_popped(&mut self, option: NodeId) {
        self.select.option_popped(&mut self.doc, option.0);
    }
}
