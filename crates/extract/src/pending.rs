//! Links found in a page and not yet resolved, in a compact form.
//!
//! They wait because the document base URL — the first `<base href>` —
//! applies to every link of the page, also to those before it. The
//! buffers are kept from page to page (an [`Extractor`](crate::Extractor)
//! per thread), so their element type holds no borrow of the page: every
//! text a pending link needs is copied into [`PendingLinks`]'s one string
//! and named by a 32-bit range there ([`Kept`]), or is an interned element
//! name.
//!
//! Why compact: a page can be nothing but links (`<a href=/1>x</a>`, a
//! dozen bytes each), and every one waits until the page ends, so the bytes
//! per pending link decide the extractor's peak memory on such a page. A
//! [`Pending`] is 32 bytes; `rel`, `hreflang` and `as`, which few links
//! have, live in a side list ([`Qualifiers`]).
//!
//! Invariants: a [`Text`] or [`Kept`] is read only from the
//! [`PendingLinks`] that made it, before that is cleared. The kept text
//! stays under 4 GiB: [`PendingLinks::keep_text`] refuses a text that would
//! end past that (a page's kept texts are a subset of its attribute
//! values, so only a page over 4 GiB can reach it), and the link that
//! needed it is not reported.

use spinneret_html::LocalName;

use crate::LinkKind;
use crate::rules::Attr;

/// A range of [`PendingLinks`]'s text (byte offsets).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kept {
    start: u32,
    end: u32,
}

/// A pending link's element name: an interned name, or a kept copy.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text {
    Name(LocalName),
    Kept(Kept),
}

/// Marks "none" in a `u32` index field of [`Pending`].
const NONE: u32 = u32::MAX;

/// A link found in the document, before resolution.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub(crate) raw: Kept,
    pub(crate) element: Text,
    /// Which of the page's [`AnchorTexts`](crate::anchor_text::AnchorTexts),
    /// or [`NONE`].
    text: u32,
    /// Which of [`PendingLinks`]'s [`Qualifiers`], or [`NONE`].
    qualifiers: u32,
    /// The attribute; `None` for a `<style>` element's text (`#text`).
    pub(crate) attribute: Option<Attr>,
    pub(crate) svg: bool,
    pub(crate) kind: LinkKind,
}

/// The `rel`, `hreflang` and `as` of a link that has any.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Qualifiers {
    pub(crate) rel: Option<Kept>,
    pub(crate) hreflang: Option<Kept>,
    pub(crate) as_: Option<Kept>,
}

/// What [`PendingLinks::push`] needs to know of a link besides its texts.
pub(crate) struct Found {
    pub(crate) element: Text,
    pub(crate) attribute: Option<Attr>,
    pub(crate) svg: bool,
    pub(crate) kind: LinkKind,
    pub(crate) raw: Kept,
    pub(crate) qualifiers: Qualifiers,
    /// Which anchor text, if any.
    pub(crate) text: Option<usize>,
}

/// A page's pending links and the texts they name.
#[derive(Default)]
pub(crate) struct PendingLinks {
    pub(crate) links: Vec<Pending>,
    qualifiers: Vec<Qualifiers>,
    text: String,
}

impl PendingLinks {
    /// Forgets every link and text (keeping the allocations).
    pub(crate) fn clear(&mut self) {
        self.links.clear();
        self.qualifiers.clear();
        self.text.clear();
    }

    /// A copy of `s`, kept until [`PendingLinks::clear`]; `None` when the
    /// kept text would pass 4 GiB.
    #[inline]
    pub(crate) fn keep_text(&mut self, s: &str) -> Option<Kept> {
        let start = u32::try_from(self.text.len()).ok()?;
        let end = u32::try_from(self.text.len() + s.len()).ok()?;
        self.text.push_str(s);
        Some(Kept { start, end })
    }

    /// Adds a link.
    #[inline]
    pub(crate) fn push(&mut self, found: Found) {
        let q = found.qualifiers;
        let qualifiers = if q.rel.is_none() && q.hreflang.is_none() && q.as_.is_none() {
            NONE
        } else {
            match u32::try_from(self.qualifiers.len()) {
                Ok(i) if i != NONE => {
                    self.qualifiers.push(q);
                    i
                }
                // Past four billion links with qualifiers (a page over
                // 4 GiB): the link keeps its place, without them.
                _ => NONE,
            }
        };
        self.links.push(Pending {
            raw: found.raw,
            element: found.element,
            text: found
                .text
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(NONE),
            qualifiers,
            attribute: found.attribute,
            svg: found.svg,
            kind: found.kind,
        });
    }

    /// The text `k` names.
    #[inline]
    pub(crate) fn kept(&self, k: Kept) -> &str {
        &self.text[k.start as usize..k.end as usize]
    }

    /// The element name `t` names.
    #[inline]
    pub(crate) fn get(&self, t: Text) -> &str {
        match t {
            Text::Name(n) => n.as_str(),
            Text::Kept(k) => self.kept(k),
        }
    }

    /// The `rel`, `hreflang` and `as` of `p`.
    #[inline]
    pub(crate) fn qualifiers(&self, p: &Pending) -> Qualifiers {
        self.qualifiers
            .get(p.qualifiers as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The capacity of the text buffer, in bytes.
    pub(crate) fn text_capacity(&self) -> usize {
        self.text.capacity()
    }

    /// Frees the allocations.
    pub(crate) fn release(&mut self) {
        *self = PendingLinks::default();
    }
}

impl Pending {
    /// Which anchor text is the link's, if any.
    #[inline]
    pub(crate) fn anchor_text(&self) -> Option<usize> {
        (self.text != NONE).then_some(self.text as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size the module documentation promises.
    #[test]
    fn a_pending_link_is_32_bytes() {
        assert_eq!(size_of::<Pending>(), 32);
    }
}
