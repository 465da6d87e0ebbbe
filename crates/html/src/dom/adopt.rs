//! Moving a separately built [`Document`] into another: the children of
//! its root become the last children of a node of this one.
//!
//! This is how partial trees built apart (by other threads, from other
//! chunks of one input) join one document. The other document's arenas
//! are appended whole — nodes, attributes, DOCTYPEs, text buffers — and
//! their indexes are shifted by constants in one pass over each array: no
//! tree walk, no sink call and no allocation per node. The pass over the
//! nodes is a pure function of each node, written in place on rayon's
//! pool for an arena of 65,536 nodes or more (half of a 16 MB document's
//! 1.5 M nodes took 25 ms on one thread and 12–14 ms on two, 2026-12-02:
//! the pages written are new to the process, and the kernel zeroes each
//! as it is first touched); so is the pass over the attributes. Only the
//! names that are not [`LocalName`](crate::LocalName)s are looked up,
//! once per distinct name. Text spans of the input stay spans when both documents
//! keep the same input; otherwise that input moves into this document's
//! shared text buffer once.
//!
//! Node ids of the other document map to this one's by a constant offset
//! ([`Adopted::id`]); its root is not moved. Where a tree speculated on
//! another thread joins the document (`adopt_speculated`), the children of
//! each of its stand-ins get their true parent in that same pass, and each
//! stand-in's new children are spliced after the true node's as one list:
//! the work per stand-in is constant, not one step per child.

use super::{Data, Document, NONE, NameId, Node, NodeId, OTHER_NAMES};

/// Arenas of at least this many nodes (or attributes) are relocated on
/// the pool's threads.
const PARALLEL_FROM: usize = 1 << 16;

/// What [`Document::adopt_children`] moved, to map the other document's
/// node ids to this one's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Adopted {
    /// This document's id of the other document's node 1.
    first: u32,
    /// How many nodes moved (the other document's nodes but its root).
    len: u32,
}

impl Adopted {
    /// This document's id of the other document's node `id`; `None` for
    /// its root, which does not move, and for ids it did not have.
    pub fn id(&self, id: NodeId) -> Option<NodeId> {
        (id.0 >= 1 && id.0 <= self.len).then(|| NodeId(self.first + id.0 - 1))
    }

    /// This document's id of the other document's node `id` (not its
    /// root).
    fn relocate(&self, id: u32) -> u32 {
        debug_assert!(id >= 1 && id <= self.len);
        self.first + id - 1
    }

    /// How many nodes moved.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no node moved.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Document {
    /// Moves the children of `other`'s root (and every node of its arena:
    /// template contents, detached nodes) into this document; the
    /// children become `parent`'s last children, in order. `other`'s
    /// parse errors are appended to this document's.
    ///
    /// Costs one pass over each of `other`'s arrays; nothing of this
    /// document is walked but `parent`'s last child.
    ///
    /// # Panics
    /// If `parent` is not a document, fragment or element node of this
    /// document, or the two arenas together would hold `2^32 - 1` nodes
    /// or more.
    pub fn adopt_children(&mut self, parent: NodeId, other: Document) -> Adopted {
        self.check_parent(parent);
        let (adopted, root_first, root_last) = self.absorb(&[parent.0], other);
        // Link the moved children after `parent`'s last child.
        if root_first != NONE {
            let (new_first, new_last) = (adopted.relocate(root_first), adopted.relocate(root_last));
            self.link_children_last(parent, new_first, new_last);
        }
        adopted
    }

    /// Links the sibling list `first..=last` (whose nodes already have
    /// `parent` as their parent, and `first` no previous sibling) after
    /// `parent`'s last child.
    fn link_children_last(&mut self, parent: NodeId, first: u32, last: u32) {
        let parent_last = self.nodes[parent.index()].last;
        if parent_last == NONE {
            self.nodes[parent.index()].first = first;
        } else {
            self.nodes[parent_last as usize].next = first;
            self.nodes[first as usize].prev = parent_last;
        }
        self.nodes[parent.index()].last = last;
    }

    /// Appends `other`'s arrays to this document's; a moved node whose
    /// parent was `other`'s node `i < parents.len()` gets `parents[i]` as
    /// its parent (its root's children, `parents[0]`'s; nothing is linked
    /// to those yet). Returns the mapping and the (old) ids of `other`'s
    /// root's first and last children.
    fn absorb(&mut self, parents: &[u32], other: Document) -> (Adopted, u32, u32) {
        let Document {
            nodes,
            attrs,
            names,
            name_ids: _,
            name_cache: _,
            text,
            doctypes,
            templates,
            quirks_mode: _,
            errors,
            tokenizer_errors,
        } = other;
        let first = self.nodes.len();
        let len = nodes.len() - 1;
        let fits = u32::try_from(first + len).is_ok_and(|end| end != NONE);
        assert!(fits, "a document holds fewer than 2^32 - 1 nodes");
        let (first, len) = (first as u32, len as u32);
        let node_id = |id: u32| match id {
            NONE => NONE,
            // The root is no node's sibling or child.
            id => first + id - 1,
        };
        let parent_id = |id: u32| match parents.get(id as usize) {
            Some(&parent) => parent,
            None => node_id(id),
        };
        // Names: other names are renumbered, once per distinct name.
        let name_map: Vec<NameId> = names
            .iter()
            .map(|n| self.intern(crate::token::Name::Other(n)))
            .collect();
        let name_id = |n: NameId| {
            if n.0 < OTHER_NAMES {
                n
            } else {
                name_map[(n.0 - OTHER_NAMES) as usize]
            }
        };
        let moved = self.text.absorb(text);
        let attrs_at = u32::try_from(self.attrs.len()).expect("fewer than 2^32 attributes");
        let doctypes_at = self.doctypes.len() as u32;
        self.attrs.reserve(attrs.len());
        if attrs.len() >= PARALLEL_FROM && self.text.spans_in_reach() {
            // As the nodes below: a pure function per attribute.
            use rayon::prelude::*;
            let relocated = |mut a: super::Attr| {
                a.name = name_id(a.name);
                a.value = moved
                    .relocated(a.value)
                    .unwrap_or_else(|_| unreachable!("in reach"));
                a
            };
            self.attrs.par_extend(attrs.into_par_iter().map(relocated));
        } else {
            for mut a in attrs {
                a.name = name_id(a.name);
                a.value = self.text.relocate(&moved, a.value);
                self.attrs.push(a);
            }
        }
        self.doctypes.reserve(doctypes.len());
        for mut d in doctypes {
            d.name = self.text.relocate(&moved, d.name);
            d.public_id = d.public_id.map(|t| self.text.relocate(&moved, t));
            d.system_id = d.system_id.map(|t| self.text.relocate(&moved, t));
            self.doctypes.push(d);
        }
        let (root_first, root_last) = (nodes[0].first, nodes[0].last);
        // Each node's new value, where its text is in reach of a span.
        let relocated = |mut node: Node| -> Result<Node, Node> {
            node.parent = parent_id(node.parent);
            node.prev = node_id(node.prev);
            node.next = node_id(node.next);
            node.first = node_id(node.first);
            node.last = node_id(node.last);
            node.data = match node.data {
                Data::Element(mut e) => {
                    e.name = name_id(e.name);
                    e.attrs_start += attrs_at;
                    Data::Element(e)
                }
                Data::Text(t) => match moved.relocated(t) {
                    Ok(t) => Data::Text(t),
                    Err(_) => return Err(node),
                },
                Data::Comment(t) => match moved.relocated(t) {
                    Ok(t) => Data::Comment(t),
                    Err(_) => return Err(node),
                },
                Data::Doctype(i) => Data::Doctype(i + doctypes_at),
                // Template contents (a fragment node each).
                data @ (Data::Document | Data::Fragment) => data,
            };
            Ok(node)
        };
        self.nodes.reserve(len as usize);
        if !self.text.spans_in_reach() {
            for node in nodes.into_iter().skip(1) {
                let node = relocated(node).unwrap_or_else(|mut node| {
                    // Its data is the old one: relocate its text, now
                    // owning what is out of reach.
                    node.data = match node.data {
                        Data::Text(t) => Data::Text(self.text.relocate(&moved, t)),
                        Data::Comment(t) => Data::Comment(self.text.relocate(&moved, t)),
                        _ => unreachable!("only text is out of reach"),
                    };
                    node
                });
                self.nodes.push(node);
            }
        } else {
            let relocated = |node| relocated(node).unwrap_or_else(|_| unreachable!("in reach"));
            if len as usize >= PARALLEL_FROM {
                // A pure function per node, written in place on the pool's
                // threads (the arena of a tree speculated on another
                // thread is half a document: one pass over it on one
                // thread was a fifth of a parse).
                use rayon::prelude::*;
                self.nodes
                    .par_extend(nodes.into_par_iter().skip(1).map(relocated));
            } else {
                self.nodes.extend(nodes.into_iter().skip(1).map(relocated));
            }
        }
        self.templates.extend(
            templates
                .into_iter()
                .map(|(t, contents)| (node_id(t), node_id(contents))),
        );
        self.errors.extend(errors);
        self.tokenizer_errors.extend(tokenizer_errors);
        (Adopted { first, len }, root_first, root_last)
    }

    /// Reserves room for the nodes and attributes of a document of about
    /// `bytes` bytes of input (room that is not touched costs no memory):
    /// a document that will adopt another half of its size then copies
    /// that half once, without moving its own.
    pub(crate) fn reserve_for_input(&mut self, bytes: usize) {
        self.nodes.reserve(bytes / 16);
        self.attrs.reserve(bytes / 32);
    }

    /// Moves `other`, a tree built from a guessed context, into this
    /// document: `stand_ins` pairs each of `other`'s nodes that stood for
    /// a node of this one (its root first, then the elements it guessed)
    /// with that node. The children each stand-in gained become the last
    /// children of the node it stood for, in order, and the stand-ins are
    /// left detached. A stand-in's children are its own children only
    /// after the stand-ins among them (the speculating sink refuses to
    /// insert before a stand-in); a first moved text that follows a text
    /// of the node it joins merges with it, as the sink would have merged
    /// them had it built the whole tree.
    ///
    /// `other`'s nodes `1..=last_stand_in` must be the stand-ins besides
    /// its root.
    pub(crate) fn adopt_speculated(
        &mut self,
        other: Document,
        stand_ins: &[(NodeId, NodeId)],
        last_stand_in: u32,
    ) -> Adopted {
        let stand_in_ids = 0..=last_stand_in;
        // The children of each stand-in get the node it stands for as
        // their parent in the relocation pass itself.
        let mut parents: Vec<u32> = stand_in_ids
            .clone()
            .map(|id| self.nodes.len() as u32 + id - 1)
            .collect();
        for &(stand_in, target) in stand_ins {
            self.check_parent(target);
            parents[stand_in.index()] = target.0;
        }
        let (adopted, root_first, root_last) = self.absorb(&parents, other);
        let is_stand_in = |id: u32| id >= adopted.first && id < adopted.first + last_stand_in;
        for &(stand_in, target) in stand_ins {
            // What the stand-in gained: its children after the stand-in
            // among them, linked after the target's children.
            let (mut first, last) = match stand_in.0 {
                0 if root_first == NONE => continue,
                0 => (adopted.relocate(root_first), adopted.relocate(root_last)),
                id => {
                    let node = &mut self.nodes[adopted.relocate(id) as usize];
                    let children = (node.first, node.last);
                    (node.first, node.last) = (NONE, NONE);
                    if children.0 == NONE {
                        continue;
                    }
                    children
                }
            };
            // The stand-ins among them come first (`html`'s `head` and
            // `body`, each other stand-in's next one).
            while is_stand_in(first) && first != last {
                first = std::mem::replace(&mut self.nodes[first as usize].next, NONE);
            }
            if is_stand_in(first) {
                continue;
            }
            self.nodes[first as usize].prev = NONE;
            if self.merge_text(target, first) {
                let merged = &mut self.nodes[first as usize];
                merged.parent = NONE;
                if first == last {
                    continue;
                }
                first = std::mem::replace(&mut merged.next, NONE);
                self.nodes[first as usize].prev = NONE;
            }
            self.link_children_last(target, first, last);
        }
        // The stand-ins are left detached.
        for id in stand_in_ids.skip(1) {
            let node = &mut self.nodes[adopted.relocate(id) as usize];
            (node.parent, node.prev, node.next) = (NONE, NONE, NONE);
            (node.first, node.last) = (NONE, NONE);
        }
        adopted
    }

    /// Appends the text of the (detached) text node `text` to `parent`'s
    /// last child if that is a text node; true if so.
    fn merge_text(&mut self, parent: NodeId, text: u32) -> bool {
        let last = self.nodes[parent.index()].last;
        if last == NONE {
            return false;
        }
        match (
            &self.nodes[last as usize].data,
            &self.nodes[text as usize].data,
        ) {
            (Data::Text(a), Data::Text(b)) => {
                let merged = self.text.concat(*a, *b);
                self.nodes[last as usize].data = Data::Text(merged);
                true
            }
            _ => false,
        }
    }
}
