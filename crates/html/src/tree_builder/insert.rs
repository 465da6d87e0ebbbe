//! Creating and inserting nodes (§13.2.6.1): *the appropriate place for
//! inserting a node* (with foster parenting and template contents),
//! *create an element for a token*, *insert a foreign element*, *insert
//! an HTML element*, *insert a character* and *insert a comment*.

use super::sink::{AttrAdjust, ElementName, TagAttrs};
use super::state::{ElemInfo, Open};
use super::{TagTok, TreeBuilder, TreeSink};
use crate::byte_scan::{Nul, end_of_run};
use crate::names::LocalName;
use crate::namespace::Namespace;
use crate::token::TokenText;

/// Where a node goes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum InsertAt<H> {
    /// As the last child of this node.
    Append(H),
    /// Just before this node, in its parent.
    Before(H),
}

impl<S: TreeSink> TreeBuilder<S> {
    /// *The appropriate place for inserting a node*, with the override
    /// target given as a stack index. Inline for the common case, no foster
    /// parenting and a target that is not a `template`: the end of the
    /// target (`callgrind-tree.sh`: the call's register saving cost as
    /// much as the steps).
    #[inline]
    pub(crate) fn appropriate_place(
        &mut self,
        override_target: Option<usize>,
    ) -> InsertAt<S::Handle> {
        // The tree is about to change: the sink sees the options popped
        // so far first, as if at the moment each was popped.
        self.report_popped_options();
        if !self.state.foster_parenting
            && let Some(target_index) = override_target.or(self.state.open.len().checked_sub(1))
        {
            let target = self.state.open[target_index];
            if !target.is_html(LocalName::Template) {
                return InsertAt::Append(target.node);
            }
        }
        self.appropriate_place_by_steps(override_target)
    }

    /// [`TreeBuilder::appropriate_place`], every step.
    #[inline(never)]
    fn appropriate_place_by_steps(
        &mut self,
        override_target: Option<usize>,
    ) -> InsertAt<S::Handle> {
        let open = &self.state.open;
        let Some(target_index) = override_target.or(open.len().checked_sub(1)) else {
            return InsertAt::Append(self.sink.document());
        };
        let target = open[target_index];
        use LocalName as L;
        if self.state.foster_parenting
            && matches!(
                target.info.html_name(),
                Some(L::Table | L::Tbody | L::Tfoot | L::Thead | L::Tr)
            )
        {
            // Foster parenting.
            let last_template = open.iter().rposition(|o| o.is_html(L::Template));
            let last_table = open.iter().rposition(|o| o.is_html(L::Table));
            if let Some(t) = last_template
                && last_table.is_none_or(|table| t > table)
            {
                let contents = self.sink.template_contents(open[t].node);
                return InsertAt::Append(contents);
            }
            let Some(table) = last_table else {
                // The fragment case: the html element.
                return InsertAt::Append(open[0].node);
            };
            let table_node = open[table].node;
            if self.sink.has_parent(table_node) {
                return InsertAt::Before(table_node);
            }
            let previous = open.live_before(table).map(|i| open[i]);
            return self.inside(previous.expect("the root is below the table"));
        }
        self.inside(target)
    }

    /// Inside `target` (its template contents for a template).
    fn inside(&mut self, target: Open<S::Handle>) -> InsertAt<S::Handle> {
        if target.is_html(LocalName::Template) {
            InsertAt::Append(self.sink.template_contents(target.node))
        } else {
            InsertAt::Append(target.node)
        }
    }

    pub(crate) fn insert_at(&mut self, place: InsertAt<S::Handle>, node: S::Handle) {
        match place {
            InsertAt::Append(parent) => self.sink.append(parent, node),
            InsertAt::Before(sibling) => self.sink.insert_before(sibling, node),
        }
    }

    /// *Create an element for a token* in namespace `ns`.
    pub(crate) fn create_element_for(
        &mut self,
        tag: &TagTok<'_>,
        ns: Namespace,
    ) -> Open<S::Handle> {
        let adjust = match ns {
            Namespace::Html => AttrAdjust::Html,
            Namespace::Svg => AttrAdjust::Svg,
            Namespace::MathMl => AttrAdjust::MathMl,
        };
        let attrs = TagAttrs {
            adjust,
            ..tag.attrs
        };
        let local = match ns {
            Namespace::Svg => super::foreign::adjust_svg_tag_name(tag.name),
            _ => tag.name,
        };
        let html_integration_point = match (ns, tag.local()) {
            (
                Namespace::Svg,
                Some(LocalName::Foreignobject | LocalName::Desc | LocalName::Title),
            ) => true,
            (Namespace::MathMl, Some(LocalName::AnnotationXml)) => {
                attrs.value(LocalName::Encoding).is_some_and(|e| {
                    e.eq_ignore_ascii_case("text/html")
                        || e.eq_ignore_ascii_case("application/xhtml+xml")
                })
            }
            _ => false,
        };
        let node = self.sink.create_element(ElementName { ns, local }, attrs);
        let key = self.key(tag.name);
        Open {
            node,
            info: ElemInfo {
                ns,
                key,
                html_integration_point,
            },
        }
    }

    /// *Insert an HTML element* for `tag`.
    pub(crate) fn insert_html_element(&mut self, tag: &TagTok<'_>) -> S::Handle {
        self.insert_element(tag, Namespace::Html)
    }

    /// *Insert a foreign element* (or an HTML one) for `tag` at the
    /// appropriate place and push it onto the stack.
    pub(crate) fn insert_element(&mut self, tag: &TagTok<'_>, ns: Namespace) -> S::Handle {
        let place = self.appropriate_place(None);
        let open = self.create_element_for(tag, ns);
        self.insert_at(place, open.node);
        self.state.open.push(open);
        open.node
    }

    /// Opens an element named `name` (lower case) in `ns`, with no
    /// attributes, as the last child of the current node — by no rule of
    /// the standard: a chunk built from a guessed context sets it up so
    /// (`parallel/probe.rs`).
    pub(crate) fn open_guessed(&mut self, ns: Namespace, name: &str) {
        let name = match LocalName::from_lowercase(name.as_bytes()) {
            Some(known) => crate::token::Name::Known(known),
            None => crate::token::Name::Other(name),
        };
        let tag = TagTok {
            name,
            attrs: TagAttrs::empty(),
            self_closing: false,
        };
        let open = self.create_element_for(&tag, ns);
        if let Some(parent) = self.current().map(|o| o.node) {
            self.sink.append(parent, open.node);
        }
        self.state.open.push(open);
        self.after_token();
    }

    /// Inserts an HTML element with no attributes (for implied tags).
    pub(crate) fn insert_implied(&mut self, name: LocalName) -> S::Handle {
        let tag = TagTok {
            name: crate::token::Name::Known(name),
            attrs: TagAttrs::empty(),
            self_closing: false,
        };
        self.insert_html_element(&tag)
    }

    /// *Insert a character* (a run of them).
    pub(crate) fn insert_text(&mut self, text: TokenText<'_>) {
        if text.as_str().is_empty() {
            return;
        }
        match self.appropriate_place(None) {
            InsertAt::Append(parent) => self.sink.append_text(parent, text),
            InsertAt::Before(sibling) => self.sink.insert_text_before(sibling, text),
        }
    }

    /// *Insert a comment* at the appropriate place.
    pub(crate) fn insert_comment(&mut self, text: TokenText<'_>) {
        let place = self.appropriate_place(None);
        let comment = self.sink.create_comment(text);
        self.insert_at(place, comment);
    }

    /// Appends a comment to `parent` (the document, or the html element).
    pub(crate) fn append_comment_to(&mut self, parent: S::Handle, text: TokenText<'_>) {
        let comment = self.sink.create_comment(text);
        self.sink.append(parent, comment);
    }

    /// Inserts text with the NULs removed (in body and similar modes,
    /// where a NUL is a parse error and ignored).
    pub(crate) fn insert_text_without_nulls(&mut self, text: TokenText<'_>) {
        if find_nul(text.as_str()).is_none() {
            return self.insert_text(text);
        }
        self.error(super::TreeErrorKind::UnexpectedNull);
        let mut rest = text;
        while let Some(i) = find_nul(rest.as_str()) {
            let (before, after) = super::split_text(rest, i);
            self.insert_text(before);
            rest = super::split_text(after, 1).1;
        }
        self.insert_text(rest);
    }
}

/// Where the first NUL in `s` is. Text tokens are mostly short (the
/// whitespace between tags): up to 16 bytes are decided by two overlapping
/// word loads (a word has a zero byte when subtracting one from each byte
/// borrows into a byte whose top bit was clear), longer texts by the
/// byte-run scan; `memchr` spends about 60 instructions a call deciding
/// how to search (the tree kernel on 4 MB of pages: 50.24 M instructions
/// with it, 49.81 M with a byte loop for texts under 16 bytes, fewer with
/// this).
#[inline]
pub(crate) fn find_nul(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let n = b.len();
    let maybe = match n {
        0..=3 => b.contains(&0),
        4..=7 => has_zero_byte(u64::from(word32(&b[..4])) | u64::from(word32(&b[n - 4..])) << 32),
        8..=16 => has_zero_byte(word64(&b[..8])) || has_zero_byte(word64(&b[n - 8..])),
        _ => {
            let i = end_of_run::<Nul>(b, 0);
            return (i < n).then_some(i);
        }
    };
    if maybe {
        b.iter().position(|&c| c == 0)
    } else {
        None
    }
}

/// Whether a byte of `x` is zero.
#[inline]
fn has_zero_byte(x: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    x.wrapping_sub(ONES) & !x & (ONES << 7) != 0
}

fn word32(b: &[u8]) -> u32 {
    u32::from_le_bytes(b.try_into().expect("4 bytes"))
}

fn word64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::find_nul;

    #[test]
    fn find_nul_finds_the_first_nul_at_every_length_and_position() {
        for n in 0..=48 {
            // A text of about `n` bytes, with a two-byte character.
            let text: Vec<u8> = "ab\u{e9}cdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKL"
                .bytes()
                .take(n)
                .collect();
            let clean = String::from_utf8_lossy(&text).into_owned();
            assert_eq!(find_nul(&clean), clean.find('\0'), "{clean:?}");
            for i in 0..clean.len() {
                if !clean.is_char_boundary(i) || !clean.is_char_boundary(i + 1) {
                    continue;
                }
                let mut one = clean.clone();
                one.replace_range(i..i + 1, "\0");
                assert_eq!(find_nul(&one), Some(i), "{one:?}");
                // A second NUL after the first does not move it.
                let mut two = one.clone();
                two.push('\0');
                assert_eq!(find_nul(&two), Some(i), "{two:?}");
            }
        }
        // Bytes with the top bit set around a NUL (the word test's borrow).
        for n in 1..=20 {
            let mut s = "\u{80}".repeat(n);
            assert_eq!(find_nul(&s), None);
            s.push('\0');
            assert_eq!(find_nul(&s), Some(2 * n));
            s.push_str("\u{ff}\u{1}");
            assert_eq!(find_nul(&s), Some(2 * n));
        }
    }
}
