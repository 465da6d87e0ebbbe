//! The adoption agency algorithm (§13.2.6.4.7, "in body"): how end tags
//! of formatting elements repair misnested markup, with the standard's
//! loop limits (8 outer iterations; entries dropped from the list of
//! active formatting elements after 3 inner ones).

use super::formatting_list::{FormattingElement, is_formatting_key};
use super::stack::MOVE_AT_MOST;
use super::state::{ElemInfo, Open};
use super::tag_sets::is_special;
use super::{TreeBuilder, TreeErrorKind, TreeSink};
use crate::names::LocalName;

impl<S: TreeSink> TreeBuilder<S> {
    /// Runs the adoption agency algorithm for an end tag `subject`.
    /// Returns true when the caller must act as for "any other end tag".
    pub(crate) fn adoption_agency(&mut self, subject: LocalName) -> bool {
        // It moves nodes: the sink sees the options popped so far first.
        self.report_popped_options();
        // Step 2: the current node is the subject and not a formatting
        // element in the list: pop it.
        if let Some(current) = self.current()
            && current.is_html(subject)
            && self.state.formatting.position(current.node).is_none()
        {
            self.pop();
            return false;
        }
        // Steps 3-4: the outer loop.
        for _ in 0..8 {
            // The last formatting element named `subject` after the last
            // marker.
            let Some((fe_list, fe_entry)) = self.state.formatting.last_named(subject) else {
                return true;
            };
            let fe = fe_entry.node;
            if !self.is_open(&fe_entry) {
                self.error(TreeErrorKind::UnexpectedEndTag);
                self.state.formatting.remove(fe_list);
                return false;
            }
            let fe_stack = fe_entry.slot as usize;
            if !self.state.open.in_default_scope(fe_stack) {
                self.error(TreeErrorKind::UnexpectedEndTag);
                return false;
            }
            if fe_stack != self.state.open.len() - 1 {
                self.error(TreeErrorKind::UnexpectedEndTag);
            }
            // The furthest block: the first special element below the
            // formatting element on the stack.
            let Some(fb_stack) = (fe_stack + 1..self.state.open.len())
                .find(|&i| is_special(&self.state.open[i].info))
            else {
                self.state.open.truncate(fe_stack);
                self.state.formatting.remove(fe_list);
                return false;
            };
            let furthest_block = self.state.open[fb_stack];
            let common_ancestor = self
                .state
                .open
                .live_before(fe_stack)
                .expect("the root is below a formatting element");
            let mut bookmark = fe_list;
            // The inner loop walks the stack from the furthest block down
            // to the formatting element. It leaves the stack as it is and
            // keeps the clones that stay on it (at most three: only the
            // first three iterations clone); the stack is rewritten once
            // afterwards. Removing a node from the stack does not change
            // which node comes next, so the walk is the standard's.
            let mut kept: [Option<(Open<S::Handle>, usize)>; 3] = [None; 3];
            let mut kept_len = 0;
            let mut node_index = fb_stack;
            let mut last_node = furthest_block.node;
            let mut inner = 0;
            loop {
                node_index -= 1;
                let node = self.state.open[node_index];
                if node.is_hole() {
                    continue;
                }
                inner += 1;
                if node.node == fe {
                    break;
                }
                let mut in_list = if is_formatting_key(node.info.key) {
                    self.state.formatting.position(node.node)
                } else {
                    None
                };
                if inner > 3
                    && let Some(i) = in_list
                {
                    // A hole takes its place (or the list ends before it):
                    // no other position changes.
                    self.state.formatting.remove(i);
                    in_list = None;
                }
                // A node not in the list leaves the stack: it is not kept.
                let Some(list_index) = in_list else {
                    continue;
                };
                let name = self.state.formatting[list_index]
                    .element_name()
                    .expect("position finds elements");
                let clone = self.sink.clone_element(node.node);
                kept[kept_len] = Some((
                    Open {
                        node: clone,
                        info: ElemInfo::html(name),
                    },
                    list_index,
                ));
                kept_len += 1;
                if last_node == furthest_block.node {
                    bookmark = list_index + 1;
                }
                self.sink.detach(last_node);
                self.sink.append(clone, last_node);
                last_node = clone;
            }
            // Insert the last node at the appropriate place, with the
            // common ancestor as the override target.
            self.sink.detach(last_node);
            let place = self.appropriate_place(Some(common_ancestor));
            self.insert_at(place, last_node);
            // A new element for the formatting element takes the furthest
            // block's children and becomes its only child.
            let new = self.sink.clone_element(fe);
            self.sink.reparent_children(furthest_block.node, new);
            self.sink.append(furthest_block.node, new);
            // The stack from the formatting element to the furthest block
            // becomes: the kept clones (bottom first), the furthest block,
            // the new element. When the entries removed from it would make
            // many entries above move, holes take their places instead.
            let new_open = Open {
                node: new,
                info: ElemInfo::html(subject),
            };
            let mut region = [new_open; 5];
            for (j, (open, _)) in kept[..kept_len].iter().rev().flatten().enumerate() {
                region[j] = *open;
            }
            region[kept_len] = furthest_block;
            let region = &region[..kept_len + 2];
            let removed = fb_stack + 1 - fe_stack - region.len();
            let above = self.state.open.len() - (fb_stack + 1);
            let moves = above <= MOVE_AT_MOST && self.state.formatting.len() <= MOVE_AT_MOST;
            let base = if moves {
                self.state.open.splice(fe_stack, fb_stack + 1, region);
                if removed > 0 {
                    self.state.formatting.shift_slots(fb_stack + 1, removed);
                }
                fe_stack
            } else {
                self.state
                    .open
                    .rewrite_with_holes(fe_stack, fb_stack + 1, region);
                fe_stack + removed
            };
            for (j, (open, list_index)) in kept[..kept_len].iter().rev().flatten().enumerate() {
                self.state
                    .formatting
                    .replace_node(*list_index, open.node, base + j);
            }
            // Replace the formatting element in the list, at the bookmark.
            self.state.formatting.replace_at_bookmark(
                fe_list,
                bookmark,
                FormattingElement {
                    node: new,
                    slot: (base + kept_len + 1) as u32,
                    ..fe_entry
                },
            );
        }
        false
    }
}
