//! Moving a separately built [`Document`] into another: the children of
//! its root become the last children of a node of this one.
//!
//! This is how partial trees built apart (by other threads, from other
//! chunks of one input) join one document. The other document's arenas
//! are appended whole — nodes, attributes, DOCTYPEs, text buffers — and
//! their indexes are shifted by constants in one pass over each array: no
//! tree walk, no sink call and no allocation per node. Only the names that
//! are not [`LocalName`](crate::LocalName)s are looked up, once per
//! distinct name. Text spans of the input stay spans when both documents
//! keep the same input; otherwise that input moves into this document's
//! shared text buffer once.
//!
//! Node ids of the other document map to this one's by a constant offset
//! ([`Adopted::id`]); its root is not moved.

use super::{Data, Document, NONE, NameId, NodeId, OTHER_NAMES};

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
        let (adopted, root_first, root_last) = self.absorb(parent, other);
        // Link the moved children after `parent`'s last child.
        if root_first != NONE {
            let (new_first, new_last) = (adopted.relocate(root_first), adopted.relocate(root_last));
            let last = self.nodes[parent.index()].last;
            if last == NONE {
                self.nodes[parent.index()].first = new_first;
            } else {
                self.nodes[last as usize].next = new_first;
                self.nodes[new_first as usize].prev = last;
            }
            self.nodes[parent.index()].last = new_last;
        }
        adopted
    }

    /// Appends `other`'s arrays to this document's, its root standing for
    /// `parent` in the moved nodes' links (nothing is linked to `parent`
    /// yet); returns the mapping and the (old) ids of `other`'s root's
    /// first and last children.
    fn absorb(&mut self, parent: NodeId, other: Document) -> (Adopted, u32, u32) {
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
            // The other root's children hang from `parent`.
            0 => parent.0,
            id => first + id - 1,
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
        for mut a in attrs {
            a.name = name_id(a.name);
            a.value = self.text.relocate(&moved, a.value);
            self.attrs.push(a);
        }
        self.doctypes.reserve(doctypes.len());
        for mut d in doctypes {
            d.name = self.text.relocate(&moved, d.name);
            d.public_id = d.public_id.map(|t| self.text.relocate(&moved, t));
            d.system_id = d.system_id.map(|t| self.text.relocate(&moved, t));
            self.doctypes.push(d);
        }
        let (root_first, root_last) = (nodes[0].first, nodes[0].last);
        self.nodes.reserve(len as usize);
        for mut node in nodes.into_iter().skip(1) {
            node.parent = node_id(node.parent);
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
                Data::Text(t) => Data::Text(self.text.relocate(&moved, t)),
                Data::Comment(t) => Data::Comment(self.text.relocate(&moved, t)),
                Data::Doctype(i) => Data::Doctype(i + doctypes_at),
                // Template contents (a fragment node each).
                data @ (Data::Document | Data::Fragment) => data,
            };
            self.nodes.push(node);
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
        let (adopted, root_first, _) = self.absorb(NodeId(0), other);
        let is_stand_in = |id: u32| id >= adopted.first && id < adopted.first + last_stand_in;
        for &(stand_in, target) in stand_ins {
            self.check_parent(target);
            let mut child = match stand_in.0 {
                0 if root_first == NONE => NONE,
                0 => adopted.relocate(root_first),
                id => {
                    let at = adopted.relocate(id) as usize;
                    std::mem::replace(&mut self.nodes[at].first, NONE)
                }
            };
            if stand_in.0 != 0 {
                self.nodes[adopted.relocate(stand_in.0) as usize].last = NONE;
            }
            let mut first_moved = true;
            while child != NONE {
                let node = &mut self.nodes[child as usize];
                let next = std::mem::replace(&mut node.next, NONE);
                node.prev = NONE;
                node.parent = NONE;
                if !is_stand_in(child) {
                    if !(first_moved && self.merge_text(target, child)) {
                        self.link_last(target.0, child);
                    }
                    first_moved = false;
                }
                child = next;
            }
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
