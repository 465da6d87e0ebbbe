//! A tree sink that records the operations a tree builder makes from a
//! point on (a cut), each named by what it touches relative to the tree
//! builder's context there: the measure of tree-level speculation
//! ([`probe_tree_speculation`](super::probe_tree_speculation)), and the
//! oracle its implementation is to be checked against.
//!
//! Two builds of the same chunk — the sequential one, which reached the
//! cut by parsing what came before, and one that starts from a guessed
//! context — make *the same operations* when their records are equal:
//! the same elements, comments and texts created (names, attributes,
//! texts), put in the same places. A place is named as a graft would map
//! it: a node the chunk created (by creation order), the document, the
//! `html` element, the `body` element, or the element at a depth of the
//! context's stack of open elements (counted from the top, holes
//! skipped); a node from before the cut that is on no stack is *outside*,
//! which no guessed context has. An operation whose effect depends on
//! what a node from before the cut *holds* — its attributes, its parent,
//! its children, a template's contents — is marked as reading the
//! context: a chunk cannot know those, so a record with such an operation
//! never counts as the same.
//!
//! Records keep a hash of each operation, not the operation (a record of a
//! 16 MB document would otherwise hold its text twice).

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::dom::{DomSink, NodeId};
use crate::token::TokenText;
use crate::tree_builder::{ElementName, QuirksMode, TagAttrs, TreeSink};

/// What a node is, relative to the context at the cut.
#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
enum Place {
    Document,
    /// The root `html` element, where the tree builder names it as such.
    Html,
    /// The `body` element, where the tree builder names it as such.
    Body,
    /// The element this many elements below the top of the stack of open
    /// elements at the cut.
    Context(u32),
    /// The `n`th node created since the cut.
    Created(u32),
    /// The contents of the template created `n`th since the cut.
    Contents(u32),
    /// A node from before the cut on no stack.
    Outside,
}

/// The role a node of the stack at the cut may play besides its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Html,
    Body,
    Other,
}

impl Place {
    /// Whether the chunk made the node itself.
    fn created(self) -> bool {
        matches!(self, Place::Created(_) | Place::Contents(_))
    }
}

/// One recorded operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Op {
    /// Where the token that made it begins.
    pub(crate) at: usize,
    /// A hash of what it did and where.
    pub(crate) hash: u64,
    /// Whether its effect depends on what a node from before the cut holds.
    pub(crate) reads_context: bool,
}

/// A [`DomSink`] that records what it is asked once [`TraceSink::start`]
/// is called (module doc).
pub(crate) struct TraceSink {
    inner: DomSink,
    places: HashMap<NodeId, Place>,
    /// The roles of the stack's elements at the cut.
    roles: HashMap<NodeId, Role>,
    created: u32,
    recording: bool,
    /// Where the token being processed begins (set by the driver).
    pub(crate) at: usize,
    ops: RefCell<Vec<Op>>,
}

impl TraceSink {
    /// A sink building over `inner`, not recording yet.
    pub(crate) fn new(inner: DomSink) -> TraceSink {
        TraceSink {
            inner,
            places: HashMap::new(),
            roles: HashMap::new(),
            created: 0,
            recording: false,
            at: 0,
            ops: RefCell::new(Vec::new()),
        }
    }

    /// Starts recording at a cut where the stack of open elements holds
    /// `open` (its elements, bottom first, holes left out; `body_second`:
    /// whether the second is the HTML `body` element).
    ///
    /// An element of the stack is named by its depth, as the tree builder
    /// reaches it (the current node, a scope walk); the bottom one is
    /// named `html`, and the second `body`, where the tree builder takes
    /// them as such (adding a later `<html>` or `<body>` tag's attributes,
    /// a comment after `</body>`): a graft maps each to the true one.
    pub(crate) fn start(&mut self, open: &[NodeId], body_second: bool) {
        let document = self.inner.document();
        self.places.insert(document, Place::Document);
        for (i, &node) in open.iter().enumerate() {
            let depth = (open.len() - 1 - i) as u32;
            self.places.insert(node, Place::Context(depth));
            let role = match i {
                0 => Role::Html,
                1 if body_second => Role::Body,
                _ => Role::Other,
            };
            self.roles.insert(node, role);
        }
        self.recording = true;
    }

    /// The operations recorded.
    pub(crate) fn into_ops(self) -> Vec<Op> {
        self.ops.into_inner()
    }

    fn place(&self, node: NodeId) -> Place {
        self.places.get(&node).copied().unwrap_or(Place::Outside)
    }

    /// `node`'s place, named by its role where it has one.
    fn place_by_role(&self, node: NodeId) -> Place {
        match self.roles.get(&node) {
            Some(Role::Html) => Place::Html,
            Some(Role::Body) => Place::Body,
            _ => self.place(node),
        }
    }

    /// Whether `node` is a comment created since the cut.
    fn created_comment(&self, node: NodeId) -> bool {
        self.place(node).created() && self.inner.is_comment(node)
    }

    /// Names `node` as the next node the chunk created.
    fn created(&mut self, node: NodeId) -> Place {
        let place = Place::Created(self.created);
        self.created += 1;
        self.places.insert(node, place);
        place
    }

    fn record(&self, reads_context: bool, what: impl FnOnce(&mut DefaultHasher)) {
        let mut h = DefaultHasher::new();
        what(&mut h);
        self.ops.borrow_mut().push(Op {
            at: self.at,
            hash: h.finish(),
            reads_context,
        });
    }
}

fn hash_text(h: &mut DefaultHasher, text: TokenText<'_>) {
    text.as_str().hash(h);
}

fn hash_attrs(h: &mut DefaultHasher, attrs: TagAttrs<'_>) {
    attrs.len().hash(h);
    for a in attrs.iter() {
        (a.ns, a.name.as_str(), a.value.as_str()).hash(h);
    }
}

impl TreeSink for TraceSink {
    type Handle = NodeId;

    fn document(&self) -> NodeId {
        self.inner.document()
    }

    fn input_appended(&mut self, chunk: &str) {
        self.inner.input_appended(chunk);
    }

    fn create_element(&mut self, name: ElementName<'_>, attrs: TagAttrs<'_>) -> NodeId {
        let node = self.inner.create_element(name, attrs);
        if self.recording {
            let place = self.created(node);
            self.record(false, |h| {
                (0u8, place, name.ns, name.local.as_str()).hash(h);
                hash_attrs(h, attrs);
            });
        }
        node
    }

    fn create_comment(&mut self, text: TokenText<'_>) -> NodeId {
        let node = self.inner.create_comment(text);
        if self.recording {
            let place = self.created(node);
            self.record(false, |h| {
                (1u8, place).hash(h);
                hash_text(h, text);
            });
        }
        node
    }

    fn append_doctype(&mut self, name: &str, public_id: &str, system_id: &str) {
        self.inner.append_doctype(name, public_id, system_id);
        if self.recording {
            self.record(false, |h| (2u8, name, public_id, system_id).hash(h));
        }
    }

    fn append(&mut self, parent: NodeId, child: NodeId) {
        self.inner.append(parent, child);
        if self.recording {
            // A comment after `</body>` goes to the `html` element as such.
            let p = if self.created_comment(child) {
                self.place_by_role(parent)
            } else {
                self.place(parent)
            };
            let c = self.place(child);
            // Moving a node from before the cut needs its old place.
            self.record(!c.created(), |h| (3u8, p, c).hash(h));
        }
    }

    fn append_text(&mut self, parent: NodeId, text: TokenText<'_>) {
        self.inner.append_text(parent, text);
        if self.recording {
            let p = self.place(parent);
            self.record(false, |h| {
                (4u8, p).hash(h);
                hash_text(h, text);
            });
        }
    }

    fn insert_before(&mut self, sibling: NodeId, child: NodeId) {
        self.inner.insert_before(sibling, child);
        if self.recording {
            let (s, c) = (self.place(sibling), self.place(child));
            self.record(!c.created(), |h| (5u8, s, c).hash(h));
        }
    }

    fn insert_text_before(&mut self, sibling: NodeId, text: TokenText<'_>) {
        self.inner.insert_text_before(sibling, text);
        if self.recording {
            let s = self.place(sibling);
            self.record(false, |h| {
                (6u8, s).hash(h);
                hash_text(h, text);
            });
        }
    }

    fn has_parent(&self, node: NodeId) -> bool {
        let answer = self.inner.has_parent(node);
        if self.recording {
            let n = self.place(node);
            self.record(!n.created(), |h| (7u8, n, answer).hash(h));
        }
        answer
    }

    fn detach(&mut self, node: NodeId) {
        self.inner.detach(node);
        if self.recording {
            let n = self.place(node);
            self.record(!n.created(), |h| (8u8, n).hash(h));
        }
    }

    fn reparent_children(&mut self, from: NodeId, to: NodeId) {
        self.inner.reparent_children(from, to);
        if self.recording {
            let (f, t) = (self.place(from), self.place(to));
            self.record(!f.created(), |h| (9u8, f, t).hash(h));
        }
    }

    fn template_contents(&mut self, template: NodeId) -> NodeId {
        let contents = self.inner.template_contents(template);
        if self.recording {
            let t = self.place(template);
            if let Place::Created(n) = t {
                self.places.insert(contents, Place::Contents(n));
            }
            self.record(!t.created(), |h| (10u8, t).hash(h));
        }
        contents
    }

    fn add_attrs_if_missing(&mut self, element: NodeId, attrs: TagAttrs<'_>) {
        self.inner.add_attrs_if_missing(element, attrs);
        if self.recording {
            let e = self.place_by_role(element);
            // Adding to `html` or `body` can wait for the true element.
            let reads = !(e.created() || matches!(e, Place::Html | Place::Body));
            self.record(reads, |h| {
                (11u8, e).hash(h);
                hash_attrs(h, attrs);
            });
        }
    }

    fn clone_element(&mut self, element: NodeId) -> NodeId {
        let node = self.inner.clone_element(element);
        if self.recording {
            let e = self.place(element);
            let place = self.created(node);
            self.record(!e.created(), |h| (12u8, e, place).hash(h));
        }
        node
    }

    fn same_attributes(&self, a: NodeId, b: NodeId) -> bool {
        let answer = self.inner.same_attributes(a, b);
        if self.recording {
            let (pa, pb) = (self.place(a), self.place(b));
            let reads = !(pa.created() && pb.created());
            self.record(reads, |h| (13u8, pa, pb, answer).hash(h));
        }
        answer
    }

    fn attributes_fingerprint(&self, element: NodeId) -> u64 {
        // The value is the sink's own (seeded per sink): only which node
        // was asked is recorded.
        let value = self.inner.attributes_fingerprint(element);
        if self.recording {
            let e = self.place(element);
            self.record(!e.created(), |h| (14u8, e).hash(h));
        }
        value
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode);
        if self.recording {
            self.record(false, |h| (15u8, format!("{mode:?}")).hash(h));
        }
    }
}
