//! The stack of open elements (§13.2.4.3) and the list of active
//! formatting elements (§13.2.4.4): scope checks, popping, implied end
//! tags, the Noah's Ark clause and the reconstruction of active formatting
//! elements.

use super::formatting_list::{Formatting, FormattingElement};
use super::state::{ElemInfo, Key, Open};
use super::tag_sets::{Scope, has_implied_end_tag, has_implied_end_tag_thoroughly};
use super::{TreeBuilder, TreeSink};
use crate::names::LocalName;

/// How many entries of the stack of open elements, and of the list of
/// active formatting elements, may have to move when an element is removed
/// from the middle of the stack; with more, a hole takes its place (see
/// `OpenElements`), so that removals cost O(1) however deep the stack and
/// long the list.
pub(crate) const MOVE_AT_MOST: usize = 32;

impl<S: TreeSink> TreeBuilder<S> {
    /// The current node's entry.
    #[inline]
    pub(crate) fn current(&self) -> Option<&Open<S::Handle>> {
        self.state.open.last()
    }

    /// Whether the current node is the HTML element `name`.
    #[inline]
    pub(crate) fn current_is(&self, name: LocalName) -> bool {
        self.current().is_some_and(|o| o.is_html(name))
    }

    /// *Has an element in scope* for the HTML elements `names`: the
    /// topmost of them is at or above the topmost element that bounds
    /// the scope (the walk down from the current node meets it first).
    pub(crate) fn in_scope_any(&self, names: &[LocalName], scope: Scope) -> bool {
        let open = &self.state.open;
        let target = names.iter().filter_map(|&n| open.top_html(n)).max();
        target.is_some_and(|t| open.in_scope_at(t, scope))
    }

    /// *Has an element in scope* for the HTML element `name`.
    #[inline]
    pub(crate) fn in_scope(&self, name: LocalName, scope: Scope) -> bool {
        let open = &self.state.open;
        open.top_html(name)
            .is_some_and(|t| open.in_scope_at(t, scope))
    }

    /// Hands the HTML `option` elements popped since the last call to the
    /// sink ([`TreeSink::option_popped`]), in the order they were popped.
    /// The tree builder calls it before it changes the tree again and at
    /// the end of each token: to the sink, each option was reported at
    /// the moment it was popped.
    #[inline(always)]
    pub(crate) fn report_popped_options(&mut self) {
        if !self.state.open.popped_options.is_empty() {
            self.report_popped_options_now();
        }
    }

    #[cold]
    #[inline(never)]
    fn report_popped_options_now(&mut self) {
        let mut popped = std::mem::take(&mut self.state.open.popped_options);
        for &option in &popped {
            self.sink.option_popped(option);
        }
        popped.clear();
        self.state.open.popped_options = popped;
    }

    /// *Stop parsing*'s "pop all the nodes off the stack of open
    /// elements", as the sink sees it: every open `option` is reported
    /// popped, from the top down. The stack itself stays as it is, for
    /// the caller to read.
    pub(crate) fn report_options_open_at_end(&mut self) {
        self.report_popped_options();
        for i in (0..self.state.open.len()).rev() {
            let open = self.state.open[i];
            if open.is_html(LocalName::Option) {
                self.sink.option_popped(open.node);
            }
        }
    }

    /// Pops the current node.
    pub(crate) fn pop(&mut self) -> Option<Open<S::Handle>> {
        self.state.open.pop()
    }

    /// Pops elements until an element matching `target` has been popped.
    pub(crate) fn pop_until_by(&mut self, target: impl Fn(&ElemInfo) -> bool) {
        while let Some(open) = self.state.open.pop() {
            if target(&open.info) {
                break;
            }
        }
    }

    /// Pops elements until the HTML element `name` has been popped.
    pub(crate) fn pop_until(&mut self, name: LocalName) {
        self.pop_until_by(|e| e.is_html(name));
    }

    /// Pops elements until the current node is one matching `stop` (or
    /// the stack holds only the root).
    pub(crate) fn pop_while_not(&mut self, stop: impl Fn(&ElemInfo) -> bool) {
        while let Some(open) = self.state.open.last() {
            if stop(&open.info) || self.state.open.len() == 1 {
                break;
            }
            self.state.open.pop();
        }
    }

    /// *Generate implied end tags*, except for the HTML element `except`.
    pub(crate) fn generate_implied_end_tags(&mut self, except: Option<LocalName>) {
        while let Some(open) = self.state.open.last() {
            if !has_implied_end_tag(&open.info) || except.is_some_and(|n| open.is_html(n)) {
                break;
            }
            self.state.open.pop();
        }
    }

    /// *Generate all implied end tags thoroughly*.
    pub(crate) fn generate_implied_end_tags_thoroughly(&mut self) {
        while let Some(open) = self.state.open.last() {
            if !has_implied_end_tag_thoroughly(&open.info) {
                break;
            }
            self.state.open.pop();
        }
    }

    /// The stack position of the HTML element `node`, named `name`.
    pub(crate) fn stack_position(&self, node: S::Handle, name: LocalName) -> Option<usize> {
        self.state.open.position_by_name(Key::known(name), node)
    }

    /// Removes the entry at `index` from the stack of open elements,
    /// keeping the stack positions the list of active formatting elements
    /// records exact: the entries above move down (and the list's
    /// positions with them) when there are few of both, else a hole takes
    /// its place.
    pub(crate) fn remove_from_stack_at(&mut self, index: usize) {
        let above = self.state.open.len() - 1 - index;
        if above == 0 {
            self.state.open.pop();
        } else if above <= MOVE_AT_MOST && self.state.formatting.len() <= MOVE_AT_MOST {
            self.state.open.remove(index);
            self.state.formatting.shift_slots(index + 1, 1);
        } else {
            self.state.open.rewrite_with_holes(index, index + 1, &[]);
        }
    }

    /// Removes the HTML element `node`, named `name`, from the stack of
    /// open elements.
    pub(crate) fn remove_from_stack(&mut self, node: S::Handle, name: LocalName) {
        if let Some(i) = self.stack_position(node, name) {
            self.remove_from_stack_at(i);
        }
    }

    /// Whether the stack holds the HTML element `name`.
    pub(crate) fn stack_has(&self, name: LocalName) -> bool {
        self.state.open.top_html(name).is_some()
    }

    // ---- The list of active formatting elements ----

    /// Whether the element of a list entry is on the stack of open
    /// elements: the list records where it was pushed, and an element
    /// that leaves the stack never returns to it.
    #[inline]
    pub(crate) fn is_open(&self, entry: &FormattingElement<S::Handle>) -> bool {
        self.state
            .open
            .get(entry.slot as usize)
            .is_some_and(|o| o.node == entry.node && !o.is_hole())
    }

    /// Pushes the formatting element `node` (the current node, just
    /// inserted), first removing the earliest of three equal
    /// entries after the last marker (the Noah's Ark clause).
    pub(crate) fn push_formatting(&mut self, node: S::Handle, name: LocalName) {
        let slot = self.state.open.len() - 1;
        debug_assert!(self.state.open[slot].node == node);
        // Fingerprints are taken from the third element of a name after
        // the last marker on (and then for the two before it): below
        // three, the clause cannot apply.
        let list = &self.state.formatting;
        let attrs = if list.counts_attributes(name) {
            self.sink.attributes_fingerprint(node)
        } else if list.named_after_marker(name) == 2 {
            let sink = &self.sink;
            self.state
                .formatting
                .fill_fingerprints(name, |n| sink.attributes_fingerprint(n));
            sink.attributes_fingerprint(node)
        } else {
            0
        };
        // Only the entries with the same fingerprint can be equal: the
        // clause compares attributes with those alone.
        let candidates = self.state.formatting.equal_after_marker(name, attrs);
        if candidates.len() >= 3 {
            let mut equal = 0;
            let mut earliest = usize::MAX;
            for &at in candidates {
                let at = at as usize;
                let other = self.state.formatting.element(at);
                if other.is_some_and(|e| self.sink.same_attributes(node, e.node)) {
                    equal += 1;
                    earliest = earliest.min(at);
                }
            }
            if equal >= 3 {
                self.state.formatting.remove(earliest);
            }
        }
        self.state.formatting.push(node, name, slot, attrs);
    }

    /// Inserts a marker.
    pub(crate) fn push_marker(&mut self) {
        self.state.formatting.push_marker();
    }

    /// *Clear the list of active formatting elements up to the last
    /// marker*.
    pub(crate) fn clear_formatting_to_marker(&mut self) {
        while let Some(entry) = self.state.formatting.pop() {
            if entry == Formatting::Marker {
                break;
            }
        }
    }

    /// *Reconstruct the active formatting elements*. Steps 1-2 are inline:
    /// they end the algorithm for nearly every token it runs for (an empty
    /// list, or a marker or open element last), and the whole algorithm out
    /// of line cost more in saving and restoring registers than in work
    /// (`callgrind-tree.sh`: 17.90 → 17.73 Ir/byte with the rest out of
    /// line).
    #[inline]
    pub(crate) fn reconstruct_formatting(&mut self) {
        // Step 1-2: nothing to do if the list is empty, or its last entry
        // is a marker or an open element.
        let Some(&last) = self.state.formatting.last() else {
            return;
        };
        if self.formatting_entry_is_open(last) {
            return;
        }
        self.reconstruct_formatting_after_step_2();
    }

    /// Whether a formatting list entry ends the rewinding: a marker or an
    /// element still open.
    #[inline]
    fn formatting_entry_is_open(&self, entry: Formatting<S::Handle>) -> bool {
        match entry {
            Formatting::Marker => true,
            Formatting::Element(e) => self.is_open(&e),
            // Rewinding passes over holes.
            Formatting::Hole => false,
        }
    }

    /// [`TreeBuilder::reconstruct_formatting`] from step 3, when the last
    /// entry is an element that is not open.
    #[inline(never)]
    fn reconstruct_formatting_after_step_2(&mut self) {
        // Rewind: back to the entry after the last marker or open element.
        let mut i = self.state.formatting.len() - 1;
        while i > 0 && !self.formatting_entry_is_open(self.state.formatting[i - 1]) {
            i -= 1;
        }
        // Advance and create: each remaining entry gets a new element.
        for j in i..self.state.formatting.len() {
            let Some(e) = self.state.formatting.element(j) else {
                continue;
            };
            let clone = self.sink.clone_element(e.node);
            let place = self.appropriate_place(None);
            self.insert_at(place, clone);
            self.state.open.push(Open {
                node: clone,
                info: ElemInfo::html(e.name),
            });
            let slot = self.state.open.len() - 1;
            self.state.formatting.replace_node(j, clone, slot);
        }
    }
}
