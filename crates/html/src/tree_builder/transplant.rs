//! Moving a tree builder's whole state into another tree builder, whose
//! document has adopted the first one's nodes: how a parse goes on from
//! the end of a chunk whose tree was built on another thread
//! (`parallel/tree_chain.rs`).
//!
//! Invariant: after [`TreeBuilder::take_over`], this builder answers every
//! later token as the other one would have, with each node of the other
//! document replaced by the node it became here. What the state holds of
//! nodes is mapped; what it holds of names is renumbered (each builder
//! numbers the names that are not [`LocalName`](crate::LocalName)s in its
//! own order); the attribute fingerprints of the list of active formatting
//! elements are taken again by this builder's sink (each sink seeds its
//! own hasher). Everything else is a value and moves as it is.

use super::state::{BuilderState, ElemInfo, Key, Open};
use super::{TreeBuilder, TreeSink};
use crate::dom::NodeId;

impl<S: TreeSink<Handle = NodeId>> TreeBuilder<S> {
    /// Replaces this builder's state with `part`'s, each node of `part`'s
    /// document mapped by `node` to this builder's document (which must
    /// already hold them all), and `part`'s parse errors appended.
    pub(crate) fn take_over<P: TreeSink<Handle = NodeId>>(
        &mut self,
        part: TreeBuilder<P>,
        node: impl Fn(NodeId) -> NodeId,
    ) {
        // `part`'s names by number, each looked up here once.
        let mut names: Vec<&str> = vec![""; part.names.len()];
        for (name, &id) in &part.names {
            names[id as usize] = name;
        }
        let mut keys: Vec<Option<Key>> = vec![None; names.len()];
        let mut rekey = |builder: &mut TreeBuilder<S>, key: Key| -> Key {
            if key == Key::HOLE || key.local().is_some() {
                return key;
            }
            let i = key.other_index();
            *keys[i].get_or_insert_with(|| builder.other_key(names[i]))
        };
        let state = &part.state;
        let mut open_infos = Vec::with_capacity(state.open.len());
        for open in state.open.iter() {
            let key = rekey(self, open.info.key);
            open_infos.push(ElemInfo { key, ..open.info });
        }
        let context = state.context.map(|info| ElemInfo {
            key: rekey(self, info.key),
            ..info
        });
        let mut infos = open_infos.into_iter();
        let open = state.open.relocated(|o: Open<NodeId>| Open {
            node: node(o.node),
            info: infos.next().expect("one info per entry"),
        });
        let mut formatting = state.formatting.clone();
        formatting.relocate(&node, |n| self.sink.attributes_fingerprint(n));
        let TreeBuilder {
            state,
            errors,
            control,
            ..
        } = part;
        let BuilderState {
            mode,
            original_mode,
            template_modes,
            open: _,
            formatting: _,
            head,
            form,
            frameset_ok,
            foster_parenting,
            scripting,
            quirks_mode,
            context: _,
            ignore_lf,
            pending_text,
            pending_pieces,
        } = state;
        self.state = BuilderState {
            mode,
            original_mode,
            template_modes,
            open,
            formatting,
            head: head.map(&node),
            form: form.map(&node),
            frameset_ok,
            foster_parenting,
            scripting,
            quirks_mode,
            context,
            ignore_lf,
            pending_text,
            pending_pieces,
        };
        self.errors.extend(errors);
        self.control = control;
    }
}
