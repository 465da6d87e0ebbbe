//! The customizable select's `<selectedcontent>`, as the parser fills it:
//! when the tree builder pops an `option` off the stack of open elements
//! ([`TreeSink::option_popped`](crate::TreeSink::option_popped)), the HTML
//! Standard runs *maybe clone an option into selectedcontent*, which
//! copies the children of the option its `select` shows as selected into
//! that select's `<selectedcontent>`:
//!
//! ```text
//! <select><button><selectedcontent></button><option>X<option>Y
//!   → <selectedcontent> holds "X" (the first option is the selected one)
//! ```
//!
//! The steps, as the standard's `select`, `option` and `selectedcontent`
//! sections give them (the parser runs no script, so only the markup
//! decides what is selected):
//!
//! 1. The option's **nearest ancestor select**: walking up from its
//!    parent, a `datalist`, `hr` or `option` ancestor, or a second
//!    `optgroup`, means none (the option is in no select's list of
//!    options); else the first `select` met.
//! 2. The select must be shown as a **drop-down box**: no `multiple`
//!    attribute and a display size of 1 (`size` absent, not a number, 0
//!    or 1; browsers treat 0 as 1).
//! 3. The option must be **selected**, by the *selectedness setting
//!    algorithm* as it runs each time the parser inserts an option: the
//!    last option so far with a `selected` attribute, or, when none has
//!    one, the first that is not disabled (no `disabled` attribute, and
//!    not the child of an `optgroup` that has one).
//! 4. The select's **`selectedcontent`** is the first `selectedcontent`
//!    element among its descendants, in tree order.
//! 5. **Clone**: the option's children are cloned (deeply, template
//!    contents too) and replace all of the `selectedcontent`'s children.
//!
//! When a later option takes the selection, the standard also re-clones
//! at once (the new option is still empty then) and again when that
//! option is popped; only the second leaves a trace in the finished
//! tree, so only it is done here.
//!
//! Cost: nothing at all on a page without a `selectedcontent` element
//! (the sink counts them as it creates them). With one, each select's
//! options are counted once (the first time one of its options is popped,
//! then one at a time), the nearest-select walks share a memo of the
//! ancestors they passed (forgotten when the parser moves a node), and
//! the `selectedcontent` is found once per select; so a page's time stays
//! linear in its size plus what the clones copy, which is at most each
//! option's subtree once.

use super::{Data, Document, NONE, NameId, TextRef};
use crate::names::LocalName;
use crate::namespace::{AttrNamespace, Namespace};
use std::collections::HashMap;

/// What the DOM's sink keeps to run the `selectedcontent` steps.
#[derive(Default)]
pub(crate) struct SelectTracker {
    /// Every HTML `selectedcontent` element created, in creation order
    /// (node ids grow with it).
    selectedcontents: Vec<u32>,
    /// Per `select` (its node), what its options so far decide.
    selects: HashMap<u32, SelectState>,
    /// `(node, optgroups seen below it)` → the nearest-select walk's
    /// answer from there up (`NONE`: no select).
    nearest: HashMap<(u32, bool), u32>,
    /// Bumped whenever the parser moves a node (the memos above may be
    /// stale then).
    moves: u64,
}

/// One select's state.
struct SelectState {
    /// Shown as a drop-down box (else no `selectedcontent` is filled).
    drop_down: bool,
    /// The last option so far with a `selected` attribute.
    last_selected: u32,
    /// The first option so far that is not disabled.
    first_enabled: u32,
    /// Its `selectedcontent` (`NONE`: not found yet), found when
    /// `SelectTracker::moves` was `found_at_moves`.
    selectedcontent: u32,
    found_at_moves: u64,
    /// The candidates of `SelectTracker::selectedcontents` already
    /// looked at.
    candidates_seen: usize,
}

impl SelectTracker {
    /// The sink created the element `id`, an HTML `name`.
    #[inline]
    pub fn created(&mut self, id: u32, name: NameId) {
        if name == NameId::known(LocalName::Selectedcontent) {
            self.selectedcontents.push(id);
        }
    }

    /// Takes in the tracker of a document this one adopted, whose node
    /// ids `id` maps to this one's: its `selectedcontent` elements join the
    /// list (after this one's, as the adopted nodes come after), and what
    /// was derived from the tree is forgotten, to be derived again from the
    /// joined tree when next asked.
    pub fn absorb(&mut self, other: SelectTracker, id: impl Fn(u32) -> u32) {
        self.selectedcontents
            .extend(other.selectedcontents.into_iter().map(id));
        self.selects.clear();
        self.nearest.clear();
        self.moves += 1;
    }

    /// The parser moved a node that was in the tree.
    #[inline]
    pub fn moved(&mut self) {
        if !self.selectedcontents.is_empty() {
            self.moves += 1;
            self.nearest.clear();
        }
    }

    /// *Maybe clone an option into selectedcontent*, for the option the
    /// parser just popped.
    pub fn option_popped(&mut self, doc: &mut Document, option: u32) {
        if self.selectedcontents.is_empty() {
            return;
        }
        let Some(select) = self.nearest_select(doc, option) else {
            return;
        };
        if !self.selects.contains_key(&select) {
            let state = self.count_options_up_to(doc, select, option);
            self.selects.insert(select, state);
        } else {
            let state = self.selects.get_mut(&select).expect("just checked");
            count(doc, state, option);
        }
        let state = &self.selects[&select];
        let selected = if state.last_selected != NONE {
            state.last_selected == option
        } else {
            state.first_enabled == option
        };
        if !state.drop_down || !selected {
            return;
        }
        if let Some(target) = self.selectedcontent_of(doc, select) {
            replace_children_with_clones(doc, option, target);
        }
    }

    /// Step 1: the option's nearest ancestor select, or `None`.
    fn nearest_select(&mut self, doc: &Document, option: u32) -> Option<u32> {
        let mut path = Vec::new();
        let mut optgroup_seen = false;
        let mut node = doc.nodes[option as usize].parent;
        let found = loop {
            if node == NONE {
                break NONE;
            }
            if let Some(&memo) = self.nearest.get(&(node, optgroup_seen)) {
                break memo;
            }
            path.push((node, optgroup_seen));
            match html_name(doc, node) {
                Some(LocalName::Datalist | LocalName::Hr | LocalName::Option) => break NONE,
                Some(LocalName::Optgroup) if optgroup_seen => break NONE,
                Some(LocalName::Optgroup) => optgroup_seen = true,
                Some(LocalName::Select) => break node,
                _ => {}
            }
            node = doc.nodes[node as usize].parent;
        };
        for key in path {
            self.nearest.insert(key, found);
        }
        (found != NONE).then_some(found)
    }

    /// A new select's state: its options in tree order up to `last` (the
    /// one just popped; those after it were not inserted yet).
    fn count_options_up_to(&mut self, doc: &Document, select: u32, last: u32) -> SelectState {
        let mut state = SelectState {
            drop_down: is_drop_down(doc, select),
            last_selected: NONE,
            first_enabled: NONE,
            selectedcontent: NONE,
            found_at_moves: 0,
            candidates_seen: 0,
        };
        let mut node = doc.nodes[select as usize].first;
        while node != NONE {
            if html_name(doc, node) == Some(LocalName::Option)
                && self.nearest_select(doc, node) == Some(select)
            {
                count(doc, &mut state, node);
                if node == last {
                    break;
                }
            }
            node = next_in_subtree(doc, node, select);
        }
        state
    }

    /// Step 4: the select's first `selectedcontent` descendant.
    fn selectedcontent_of(&mut self, doc: &Document, select: u32) -> Option<u32> {
        let moves = self.moves;
        let state = self.selects.get_mut(&select).expect("counted");
        if state.selectedcontent != NONE {
            if state.found_at_moves == moves
                || is_inclusive_ancestor(doc, select, state.selectedcontent)
            {
                state.found_at_moves = moves;
                return Some(state.selectedcontent);
            }
            // Moved out of the select: look again among every candidate.
            state.selectedcontent = NONE;
            state.candidates_seen = 0;
        }
        // Candidates are created in tree order but for the nodes the
        // parser moves, so the first one inside the select is the first
        // in tree order; none created before the select can be inside it
        // unless moved there.
        let candidates = &self.selectedcontents;
        if state.candidates_seen == 0 && self.moves == 0 {
            state.candidates_seen = candidates.partition_point(|&c| c < select);
        }
        while state.candidates_seen < candidates.len() {
            let candidate = candidates[state.candidates_seen];
            state.candidates_seen += 1;
            if is_inclusive_ancestor(doc, select, candidate) {
                state.selectedcontent = candidate;
                state.found_at_moves = moves;
                return Some(candidate);
            }
        }
        None
    }
}

/// Step 3's bookkeeping for one more option of a select's list.
fn count(doc: &Document, state: &mut SelectState, option: u32) {
    if has_attr(doc, option, LocalName::Selected) {
        state.last_selected = option;
    }
    if state.first_enabled == NONE && !is_disabled_option(doc, option) {
        state.first_enabled = option;
    }
}

/// An option is disabled when it has a `disabled` attribute or is the
/// child of an `optgroup` that has one.
fn is_disabled_option(doc: &Document, option: u32) -> bool {
    if has_attr(doc, option, LocalName::Disabled) {
        return true;
    }
    let parent = doc.nodes[option as usize].parent;
    parent != NONE
        && html_name(doc, parent) == Some(LocalName::Optgroup)
        && has_attr(doc, parent, LocalName::Disabled)
}

/// Step 2: no `multiple` attribute, and a display size of 1.
fn is_drop_down(doc: &Document, select: u32) -> bool {
    if has_attr(doc, select, LocalName::Multiple) {
        return false;
    }
    match attr_value(doc, select, LocalName::Size).and_then(parse_non_negative_integer) {
        None | Some(0 | 1) => true,
        Some(_) => false,
    }
}

/// The HTML Standard's rules for parsing non-negative integers: leading
/// ASCII whitespace, an optional `+`, then digits (what follows them is
/// ignored); `None` when there are no digits. Saturates at `u64::MAX`.
fn parse_non_negative_integer(s: &str) -> Option<u64> {
    let s = s.trim_start_matches(['\t', '\n', '\x0c', '\r', ' ']);
    let s = s.strip_prefix('+').unwrap_or(s);
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    Some(s.as_bytes()[..digits].iter().fold(0u64, |n, &d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    }))
}

/// Step 5: `target`'s children become clones of `option`'s. The clones
/// are made first (into a detached fragment), so a `selectedcontent`
/// inside the option is cloned as it was.
fn replace_children_with_clones(doc: &mut Document, option: u32, target: u32) {
    let fragment = doc.new_node(Data::Fragment);
    let mut work = vec![(option, fragment)];
    while let Some((from, to)) = work.pop() {
        let mut child = doc.nodes[from as usize].first;
        while child != NONE {
            let data = match doc.nodes[child as usize].data {
                // A text that grows in place is copied, so that the clone
                // does not grow with it.
                Data::Text(TextRef::Owned(i)) => {
                    let copy = doc.text.owned_copy(i);
                    Data::Text(copy)
                }
                ref data => data.clone(),
            };
            let copy = doc.new_node(data);
            doc.link_last(to, copy);
            if let Some(&contents) = doc.templates.get(&child) {
                let copied = doc.new_node(Data::Fragment);
                doc.templates.insert(copy, copied);
                work.push((contents, copied));
            }
            if doc.nodes[child as usize].first != NONE {
                work.push((child, copy));
            }
            child = doc.nodes[child as usize].next;
        }
    }
    while doc.nodes[target as usize].first != NONE {
        let old = doc.nodes[target as usize].first;
        doc.unlink(old);
    }
    while doc.nodes[fragment as usize].first != NONE {
        let moved = doc.nodes[fragment as usize].first;
        doc.unlink(moved);
        doc.link_last(target, moved);
    }
}

/// The node after `node` in tree order, staying inside `root`'s subtree.
fn next_in_subtree(doc: &Document, node: u32, root: u32) -> u32 {
    let n = &doc.nodes[node as usize];
    if n.first != NONE {
        return n.first;
    }
    let mut node = node;
    while node != root {
        let n = &doc.nodes[node as usize];
        if n.next != NONE {
            return n.next;
        }
        node = n.parent;
        if node == NONE {
            break;
        }
    }
    NONE
}

/// Whether `ancestor` is `node` or one of its ancestors.
fn is_inclusive_ancestor(doc: &Document, ancestor: u32, mut node: u32) -> bool {
    while node != NONE {
        if node == ancestor {
            return true;
        }
        node = doc.nodes[node as usize].parent;
    }
    false
}

/// The node's name if it is an HTML element with a well-known name.
#[inline]
fn html_name(doc: &Document, node: u32) -> Option<LocalName> {
    match &doc.nodes[node as usize].data {
        Data::Element(e) if e.ns == Namespace::Html => e.name.local(),
        _ => None,
    }
}

fn attr_value(doc: &Document, element: u32, name: LocalName) -> Option<&str> {
    let Data::Element(e) = &doc.nodes[element as usize].data else {
        return None;
    };
    doc.attrs[e.attrs_start as usize..][..e.attrs_len as usize]
        .iter()
        .find(|a| a.ns == AttrNamespace::None && a.name == NameId::known(name))
        .map(|a| doc.text.get(a.value))
}

fn has_attr(doc: &Document, element: u32, name: LocalName) -> bool {
    attr_value(doc, element, name).is_some()
}
