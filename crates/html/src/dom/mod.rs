//! The DOM: an arena of nodes addressed by [`NodeId`], built by the tree
//! builder (it is the default [`TreeSink`](crate::TreeSink)).
//!
//! Layout, chosen to be small and to need no allocation per node:
//!
//! - every node is one fixed-size slot in a `Vec`: five `u32` links
//!   (parent, previous and next sibling, first and last child) and its data;
//! - an element's name is a [`NameId`]: a [`LocalName`] for the names a
//!   crawler meets most, or an index into the document's table of other
//!   names (each stored once); its attributes are a range of one shared
//!   `Vec`;
//! - text (text nodes, comments, attribute values) is kept as a span of
//!   the input, which the document owns, wherever the tokenizer left it
//!   unchanged; text it changed (a character reference, a newline
//!   normalized) is appended to one shared buffer and spanned there; only
//!   a text node that grows out of place (foster-parented text joined to
//!   an earlier node) gets a `String` of its own.
//!
//! A template element's contents are a document-fragment node of their
//! own, reached through [`ElementRef::template_contents`], never through
//! the template's children (as the standard has it).
//!
//! Invariants: the links form a tree (a node is in its parent's child list
//! exactly once, in order); node 0 is the root (the document, or the
//! fragment root of [`parse_fragment`](crate::parse_fragment)); detached
//! nodes (removed by the adoption agency, or by [`Document::detach`])
//! keep their slot with no parent. A document can also be built or
//! changed by hand ([`Document::new`], [`Document::create_element`],
//! [`Document::append_child`], …), which keeps the same invariants, and
//! documents built apart join with [`Document::adopt_children`], which
//! moves a whole arena at once.

mod adopt;
mod build;
mod dump;
mod edit;
mod render_pieces;
mod select;
mod serialize;
mod text;
mod text_pieces;
mod visible_text;

pub use adopt::Adopted;
pub(crate) use build::DomSink;
pub(crate) use edit::estimated_tags;
pub use render_pieces::{PIECE_COST, ParallelRender};
pub use serialize::SerializeOptions;
pub use visible_text::{SOFT_HYPHEN, VisibleTextOptions, push_shown};

use crate::error::ParseError;
use crate::names::LocalName;
use crate::namespace::{AttrNamespace, Namespace};
use crate::tree_builder::{QuirksMode, TreeError};
use std::collections::HashMap;
use text::{TextRef, TextStore};

/// A node of a [`Document`]: an index into its arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The node's index in its document's arena (0 is the root).
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The root of every document.
    pub(crate) const ROOT: NodeId = NodeId(0);
}

/// No node (a missing link).
const NONE: u32 = u32::MAX;

/// A name of an element or attribute: a [`LocalName`] when well known,
/// else an index into the document's table of other names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct NameId(u32);

/// Where interned names (not [`LocalName`]s) start.
const OTHER_NAMES: u32 = 1 << 16;

/// Slots of [`Document`]'s cache of recently interned names.
const NAME_CACHE_SLOTS: usize = 64;

impl NameId {
    #[inline]
    fn known(name: LocalName) -> NameId {
        NameId(name as u16 as u32)
    }

    fn local(self) -> Option<LocalName> {
        (self.0 < OTHER_NAMES).then(|| LocalName::ALL[self.0 as usize])
    }
}

/// One node's slot.
#[derive(Clone, Debug)]
struct Node {
    parent: u32,
    prev: u32,
    next: u32,
    first: u32,
    last: u32,
    data: Data,
}

#[derive(Clone, Debug)]
enum Data {
    Document,
    Fragment,
    /// An index into `Document::doctypes`.
    Doctype(u32),
    Element(Element),
    Text(TextRef),
    Comment(TextRef),
}

#[derive(Clone, Copy, Debug)]
struct Element {
    ns: Namespace,
    name: NameId,
    /// The element's attributes are `attrs[attrs_start..][..attrs_len]`.
    attrs_start: u32,
    attrs_len: u32,
}

#[derive(Clone, Copy, Debug)]
struct Attr {
    ns: AttrNamespace,
    name: NameId,
    value: TextRef,
}

#[derive(Clone, Debug)]
struct DoctypeData {
    name: TextRef,
    public_id: Option<TextRef>,
    system_id: Option<TextRef>,
}

/// A parsed document (or fragment): the arena of nodes, their names,
/// attributes and text.
#[derive(Clone, Debug)]
pub struct Document {
    nodes: Vec<Node>,
    attrs: Vec<Attr>,
    names: Vec<Box<str>>,
    /// `names` → their ids, while building (empty in a finished parse;
    /// an edit rebuilds it).
    name_ids: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
    /// The ids of recently interned names, by a cheap hash of their bytes
    /// ([`edit::name_cache_slot`]); 0 is empty. Checked against `names`
    /// before use, so any slot may hold any name.
    name_cache: [u32; NAME_CACHE_SLOTS],
    text: TextStore,
    doctypes: Vec<DoctypeData>,
    /// Template element → its contents fragment.
    templates: HashMap<u32, u32>,
    quirks_mode: QuirksMode,
    errors: Vec<TreeError>,
    tokenizer_errors: Vec<ParseError>,
}

impl Document {
    /// The root: the document node, or the fragment root of a fragment.
    pub fn root(&self) -> NodeRef<'_> {
        self.node(NodeId(0))
    }

    /// The node `id`.
    ///
    /// # Panics
    /// If `id` is not a node of this document.
    pub fn node(&self, id: NodeId) -> NodeRef<'_> {
        assert!(
            id.index() < self.nodes.len(),
            "{id:?} is not in this document"
        );
        NodeRef { doc: self, id }
    }

    /// How many nodes the arena holds (every node ever created, including
    /// template contents and nodes the parser detached).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// The document's quirks mode (from its DOCTYPE).
    pub fn quirks_mode(&self) -> QuirksMode {
        self.quirks_mode
    }

    /// The tree builder's parse errors, in input order (when reporting
    /// was asked for).
    pub fn errors(&self) -> &[TreeError] {
        &self.errors
    }

    /// The tokenizer's parse errors, in input order (when reporting was
    /// asked for).
    pub fn tokenizer_errors(&self) -> &[ParseError] {
        &self.tokenizer_errors
    }

    /// The bytes this document holds on the heap (its arena, attributes,
    /// names and text, including the input it keeps).
    pub fn heap_size(&self) -> usize {
        use std::mem::size_of;
        self.nodes.capacity() * size_of::<Node>()
            + self.attrs.capacity() * size_of::<Attr>()
            + self.names.capacity() * size_of::<Box<str>>()
            + self.names.iter().map(|n| n.len()).sum::<usize>()
            + self.name_ids.capacity() * (size_of::<Box<str>>() + size_of::<u32>())
            + self.name_ids.keys().map(|n| n.len()).sum::<usize>()
            + self.doctypes.capacity() * size_of::<DoctypeData>()
            + self.templates.capacity() * 2 * size_of::<u32>()
            + self.text.heap_size()
    }

    /// The `<html>` element, if the root has one.
    pub fn document_element(&self) -> Option<ElementRef<'_>> {
        self.root().children().find_map(|n| n.as_element())
    }

    fn name_str(&self, name: NameId) -> &str {
        match name.local() {
            Some(n) => n.as_str(),
            None => &self.names[(name.0 - OTHER_NAMES) as usize],
        }
    }

    fn link(&self, raw: u32) -> Option<NodeRef<'_>> {
        (raw != NONE).then_some(NodeRef {
            doc: self,
            id: NodeId(raw),
        })
    }
}

/// What a node is, with its data.
#[derive(Clone, Copy, Debug)]
pub enum NodeKind<'d> {
    /// The document node.
    Document,
    /// A document fragment (a fragment root, or a template's contents).
    Fragment,
    /// A DOCTYPE.
    Doctype {
        /// The name.
        name: &'d str,
        /// The public identifier (`""` when missing).
        public_id: &'d str,
        /// The system identifier (`""` when missing).
        system_id: &'d str,
    },
    /// An element.
    Element(ElementRef<'d>),
    /// A text node's data.
    Text(&'d str),
    /// A comment's data.
    Comment(&'d str),
}

/// A node of a document, to read it and walk from it.
#[derive(Clone, Copy)]
pub struct NodeRef<'d> {
    doc: &'d Document,
    id: NodeId,
}

impl std::fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("NodeRef")
            .field(&self.id)
            .field(&self.kind())
            .finish()
    }
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.doc, other.doc) && self.id == other.id
    }
}

impl Eq for NodeRef<'_> {}

impl<'d> NodeRef<'d> {
    fn slot(&self) -> &'d Node {
        &self.doc.nodes[self.id.index()]
    }

    /// The node's id.
    pub fn id(&self) -> NodeId {
        self.id
    }

    /// The document the node is in.
    pub fn document(&self) -> &'d Document {
        self.doc
    }

    /// What the node is.
    pub fn kind(&self) -> NodeKind<'d> {
        let doc = self.doc;
        match &self.slot().data {
            Data::Document => NodeKind::Document,
            Data::Fragment => NodeKind::Fragment,
            Data::Doctype(i) => {
                let d = &doc.doctypes[*i as usize];
                let get = |t: &Option<TextRef>| t.map_or("", |t| doc.text.get(t));
                NodeKind::Doctype {
                    name: doc.text.get(d.name),
                    public_id: get(&d.public_id),
                    system_id: get(&d.system_id),
                }
            }
            Data::Element(_) => NodeKind::Element(ElementRef { node: *self }),
            Data::Text(t) => NodeKind::Text(doc.text.get(*t)),
            Data::Comment(t) => NodeKind::Comment(doc.text.get(*t)),
        }
    }

    /// The node as an element, if it is one.
    pub fn as_element(&self) -> Option<ElementRef<'d>> {
        matches!(self.slot().data, Data::Element(_)).then_some(ElementRef { node: *self })
    }

    /// The text of a text node, if it is one.
    pub fn as_text(&self) -> Option<&'d str> {
        match self.slot().data {
            Data::Text(t) => Some(self.doc.text.get(t)),
            _ => None,
        }
    }

    /// The parent node.
    pub fn parent(&self) -> Option<NodeRef<'d>> {
        self.doc.link(self.slot().parent)
    }

    /// The first child.
    pub fn first_child(&self) -> Option<NodeRef<'d>> {
        self.doc.link(self.slot().first)
    }

    /// The last child.
    pub fn last_child(&self) -> Option<NodeRef<'d>> {
        self.doc.link(self.slot().last)
    }

    /// The next sibling.
    pub fn next_sibling(&self) -> Option<NodeRef<'d>> {
        self.doc.link(self.slot().next)
    }

    /// The previous sibling.
    pub fn prev_sibling(&self) -> Option<NodeRef<'d>> {
        self.doc.link(self.slot().prev)
    }

    /// The children, in order.
    pub fn children(&self) -> impl Iterator<Item = NodeRef<'d>> + use<'d> {
        std::iter::successors(self.first_child(), |n| n.next_sibling())
    }

    /// The ancestors, nearest first (not the node itself).
    pub fn ancestors(&self) -> impl Iterator<Item = NodeRef<'d>> + use<'d> {
        std::iter::successors(self.parent(), |n| n.parent())
    }

    /// The node's descendants in tree order (not the node itself; not
    /// template contents, which are not children).
    pub fn descendants(&self) -> Descendants<'d> {
        Descendants {
            root: *self,
            next: self.first_child(),
        }
    }

    /// The DOM's `textContent`: the concatenated text of the descendant
    /// text nodes for an element or fragment, the data of a text node or
    /// comment, and `None` for the document and doctypes.
    pub fn text_content(&self) -> Option<String> {
        match self.kind() {
            NodeKind::Document | NodeKind::Doctype { .. } => None,
            NodeKind::Text(t) | NodeKind::Comment(t) => Some(t.to_owned()),
            NodeKind::Element(_) | NodeKind::Fragment => Some(
                self.descendants()
                    .filter_map(|n| n.as_text())
                    .collect::<String>(),
            ),
        }
    }
}

/// The descendants of a node in tree order (see [`NodeRef::descendants`]).
#[derive(Clone)]
pub struct Descendants<'d> {
    root: NodeRef<'d>,
    next: Option<NodeRef<'d>>,
}

impl<'d> Iterator for Descendants<'d> {
    type Item = NodeRef<'d>;

    fn next(&mut self) -> Option<NodeRef<'d>> {
        let node = self.next?;
        self.next = node.first_child().or_else(|| {
            let mut up = node;
            loop {
                if up == self.root {
                    return None;
                }
                if let Some(sibling) = up.next_sibling() {
                    return Some(sibling);
                }
                up = up.parent()?;
            }
        });
        Some(node)
    }
}

/// An element node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementRef<'d> {
    node: NodeRef<'d>,
}

impl<'d> ElementRef<'d> {
    fn data(&self) -> &'d Element {
        match &self.node.slot().data {
            Data::Element(e) => e,
            _ => unreachable!("an ElementRef is made only for elements"),
        }
    }

    /// The element as a node, to walk from it.
    pub fn node(&self) -> NodeRef<'d> {
        self.node
    }

    /// The element's local name, as the DOM has it (lower case for HTML;
    /// SVG's camel-case names adjusted, e.g. `foreignObject`).
    pub fn name(&self) -> &'d str {
        self.node.doc.name_str(self.data().name)
    }

    /// The local name as a [`LocalName`], when it is one of the interned
    /// names.
    pub fn local_name(&self) -> Option<LocalName> {
        self.data().name.local()
    }

    /// The element's namespace.
    pub fn namespace(&self) -> Namespace {
        self.data().ns
    }

    /// Whether this is the HTML element `name`.
    pub fn is_html(&self, name: LocalName) -> bool {
        let e = self.data();
        e.ns == Namespace::Html && e.name == NameId::known(name)
    }

    /// The attributes, in source order.
    pub fn attrs(&self) -> impl ExactSizeIterator<Item = AttrRef<'d>> + use<'d> {
        let doc = self.node.doc;
        let e = self.data();
        doc.attrs[e.attrs_start as usize..][..e.attrs_len as usize]
            .iter()
            .map(move |a| AttrRef { doc, attr: a })
    }

    /// The value of the attribute in no namespace called `name`.
    pub fn attr(&self, name: &str) -> Option<&'d str> {
        self.attrs()
            .find(|a| a.namespace() == AttrNamespace::None && a.name() == name)
            .map(|a| a.value())
    }

    /// The value of the attribute in no namespace called `name`, for a
    /// well-known name: [`attr`](Self::attr) without comparing strings
    /// (names are interned), for the lookups a walk makes of every
    /// element.
    ///
    /// ```
    /// use spinneret_html::{parse_document, LocalName, ParseOptions};
    /// let doc = parse_document("<p class=a id=b>", &ParseOptions::default());
    /// let p = doc.root().descendants().find_map(|n| n.as_element().filter(|e| e.name() == "p"));
    /// assert_eq!(p.unwrap().attr_known(LocalName::Class), Some("a"));
    /// assert_eq!(p.unwrap().attr_known(LocalName::Href), None);
    /// ```
    pub fn attr_known(&self, name: LocalName) -> Option<&'d str> {
        let doc = self.node.doc;
        let e = self.data();
        let id = NameId::known(name);
        doc.attrs[e.attrs_start as usize..][..e.attrs_len as usize]
            .iter()
            .find(|a| a.name == id && a.ns == AttrNamespace::None)
            .map(|a| doc.text.get(a.value))
    }

    /// A template element's contents (a fragment node).
    pub fn template_contents(&self) -> Option<NodeRef<'d>> {
        let doc = self.node.doc;
        doc.templates
            .get(&self.node.id.0)
            .map(|&f| NodeRef { doc, id: NodeId(f) })
    }
}

/// An attribute of an element.
#[derive(Clone, Copy)]
pub struct AttrRef<'d> {
    doc: &'d Document,
    attr: &'d Attr,
}

impl std::fmt::Debug for AttrRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}={:?}", self.name(), self.value())
    }
}

impl<'d> AttrRef<'d> {
    /// The local name (`href`; `href` of `xlink:href` too, whose
    /// namespace says xlink).
    pub fn name(&self) -> &'d str {
        self.doc.name_str(self.attr.name)
    }

    /// The local name as a [`LocalName`], when interned.
    pub fn local_name(&self) -> Option<LocalName> {
        self.attr.name.local()
    }

    /// The attribute's namespace.
    pub fn namespace(&self) -> AttrNamespace {
        self.attr.ns
    }

    /// The value, character references decoded.
    pub fn value(&self) -> &'d str {
        self.doc.text.get(self.attr.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_is_small() {
        // The arena's slot: five u32 links and the data. Growing it is a
        // decision (it is most of the DOM's memory), not an accident.
        assert!(
            std::mem::size_of::<Node>() <= 40,
            "{}",
            std::mem::size_of::<Node>()
        );
        assert!(
            std::mem::size_of::<Attr>() <= 20,
            "{}",
            std::mem::size_of::<Attr>()
        );
    }

    #[test]
    fn walks_and_text_content() {
        let doc = crate::parse_document(
            "<!DOCTYPE html><p id=a>One <b>two</b><!--c--><template><i>t</i></template>",
            &Default::default(),
        );
        let p = doc
            .root()
            .descendants()
            .find_map(|n| n.as_element().filter(|e| e.is_html(LocalName::P)))
            .unwrap();
        assert_eq!(p.attr("id"), Some("a"));
        assert_eq!(p.node().text_content().as_deref(), Some("One two"));
        let names: Vec<_> = p
            .node()
            .ancestors()
            .filter_map(|n| n.as_element())
            .map(|e| e.name())
            .collect();
        assert_eq!(names, ["body", "html"]);
        let template = doc
            .root()
            .descendants()
            .find_map(|n| n.as_element().filter(|e| e.is_html(LocalName::Template)))
            .unwrap();
        assert!(template.node().first_child().is_none());
        let contents = template.template_contents().unwrap();
        assert_eq!(contents.text_content().as_deref(), Some("t"));
        assert!(matches!(
            doc.root().first_child().unwrap().kind(),
            NodeKind::Doctype { name: "html", .. }
        ));
    }
}
