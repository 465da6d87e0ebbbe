//! The adoption agency algorithm (§13.2.6.4.7, "in body"): how end tags
//! of formatting elements repair misnested markup, with the standard's
//! loop limits (8 outer iterations; entries dropped from the list of
//! active formatting elements after 3 inner ones).

use super::state::{ElemInfo, Formatting, Open};
use super::tag_sets::{Scope, is_special};
use super::{TreeBuilder, TreeErrorKind, TreeSink};
use crate::names::LocalName;

impl<S: TreeSink> TreeBuilder<S> {
    /// Runs the adoption agency algorithm for an end tag `subject`.
    /// Returns true when the caller must act as for "any other end tag".
    pub(crate) fn adoption_agency(&mut self, subject: LocalName) -> bool {
        // Step 2: the current node is the subject and not a formatting
        // element in the list: pop it.
        if let Some(current) = self.current()
            && current.is_html(subject)
            && self.formatting_position(current.node).is_none()
        {
            self.pop();
            return false;
        }
        // Steps 3-4: the outer loop.
        for _ in 0..8 {
            // The last formatting element named `subject` after the last
            // marker.
            let Some((fe_list, fe)) = self
                .state
                .formatting
                .iter()
                .enumerate()
                .rev()
                .take_while(|(_, e)| **e != Formatting::Marker)
                .find_map(|(i, e)| match *e {
                    Formatting::Element { node, name } if name == subject => Some((i, node)),
                    _ => None,
                })
            else {
                return true;
            };
            let Some(fe_stack) = self.stack_position(fe) else {
                self.error(TreeErrorKind::UnexpectedEndTag);
                self.state.formatting.remove(fe_list);
                return false;
            };
            if !self.in_scope_by(Scope::Default, |o| o.node == fe) {
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
            let furthest_block = self.state.open[fb_stack].node;
            let common_ancestor = fe_stack - 1;
            let mut bookmark = fe_list;
            // The inner loop.
            let mut node_index = fb_stack;
            let mut last_node = furthest_block;
            let mut inner = 0;
            loop {
                inner += 1;
                node_index -= 1;
                let node = self.state.open[node_index];
                if node.node == fe {
                    break;
                }
                let mut in_list = self.formatting_position(node.node);
                if inner > 3
                    && let Some(i) = in_list
                {
                    self.state.formatting.remove(i);
                    if i < bookmark {
                        bookmark -= 1;
                    }
                    in_list = None;
                }
                let Some(list_index) = in_list else {
                    self.state.open.remove(node_index);
                    continue;
                };
                let Formatting::Element { name, .. } = self.state.formatting[list_index] else {
                    unreachable!("formatting_position finds elements")
                };
                let clone = self.sink.clone_element(node.node);
                self.state.formatting[list_index] = Formatting::Element { node: clone, name };
                self.state.open.replace(
                    node_index,
                    Open {
                        node: clone,
                        info: ElemInfo::html(name),
                    },
                );
                if last_node == furthest_block {
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
            self.sink.reparent_children(furthest_block, new);
            self.sink.append(furthest_block, new);
            // Replace the formatting element in the list (at the bookmark)
            // and on the stack (just below the furthest block).
            let fe_list = self
                .formatting_position(fe)
                .expect("the formatting element is still in the list");
            self.state.formatting.remove(fe_list);
            if fe_list < bookmark {
                bookmark -= 1;
            }
            self.state.formatting.insert(
                bookmark.min(self.state.formatting.len()),
                Formatting::Element {
                    node: new,
                    name: subject,
                },
            );
            self.remove_from_stack(fe);
            let fb = self
                .stack_position(furthest_block)
                .expect("the furthest block is still open");
            self.state.open.insert(
                fb + 1,
                Open {
                    node: new,
                    info: ElemInfo::html(subject),
                },
            );
        }
        false
    }
}
