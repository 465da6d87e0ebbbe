//! Links found in a page and not yet resolved, in a compact form.
//!
//! They wait because the document base URL — the first `<base href>` —
//! applies to every link of the page, also to those before it. The
//! buffers are kept from page to page (an [`Extractor`](crate::Extractor)
//! per thread), so their element type holds no borrow of the page: every
//! text a pending link needs is named by a 32-bit range ([`Kept`]) of the
//! page's decoded text when it is a part of it (an attribute value the
//! tokenizer lent unchanged: almost every link), or else of
//! [`PendingLinks`]'s one string of copies (values with character
//! references, `<style>` text, names the tokenizer lowercased); or it is an
//! interned element name.
//!
//! Why compact: a page can be nothing but links (`<a href=/1>x</a>`, a
//! dozen bytes each), and every one waits until the page ends, so the bytes
//! per pending link decide the extractor's peak memory on such a page. A
//! [`Pending`] is 24 bytes, in a list that grows by chunks ([`Chunked`]);
//! `rel`, `hreflang`, `as` and an element name that is not interned, which
//! few links have, live in a side list ([`Extras`]). The link's text is
//! not copied: a page of one 50 MB link holds the page, not the page twice.
//!
//! Invariants: a [`Text`] or [`Kept`] is read only from the
//! [`PendingLinks`] that made it, before that is cleared, with the page
//! text [`PendingLinks::clear_for`] was given. Ranges live in one 32-bit
//! space: the page text's bytes first, then the copies, so a range that
//! ends within the page text is of the page text. That space stays under
//! 4 GiB: [`PendingLinks::keep_text`] refuses a text that would end past
//! it (only a page over 4 GiB can reach it), and the link that needed it is
//! not reported.

use spinneret_html::LocalName;

use crate::LinkKind;
use crate::chunked::Chunked;
use crate::rules::Attr;

/// A range of the page text, or of [`PendingLinks`]'s copies (byte
/// offsets in the space of both; see the module documentation).
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
    /// Which of the page's [`AnchorTexts`](crate::anchor_text::AnchorTexts),
    /// or [`NONE`].
    text: u32,
    /// Which of [`PendingLinks`]'s [`Extras`], or [`NONE`].
    extras: u32,
    /// The element's name when interned; otherwise its [`Extras`] have it.
    element: Option<LocalName>,
    /// The attribute; `None` for a `<style>` element's text (`#text`).
    pub(crate) attribute: Option<Attr>,
    pub(crate) svg: bool,
    pub(crate) kind: LinkKind,
}

/// The `rel`, `hreflang` and `as` of a link.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Qualifiers {
    pub(crate) rel: Option<Kept>,
    pub(crate) hreflang: Option<Kept>,
    pub(crate) as_: Option<Kept>,
}

impl Qualifiers {
    fn is_empty(&self) -> bool {
        self.rel.is_none() && self.hreflang.is_none() && self.as_.is_none()
    }
}

/// What few links have: qualifiers, an element name that is not interned.
#[derive(Clone, Copy, Debug, Default)]
struct Extras {
    qualifiers: Qualifiers,
    element: Option<Kept>,
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
    pub(crate) links: Chunked<Pending>,
    extras: Vec<Extras>,
    /// Copies of the texts that are not parts of the page text.
    text: String,
    /// The address of the page text (compared with other addresses only).
    page_address: usize,
    /// The page text's length: where the copies' ranges start.
    page_len: usize,
}

impl PendingLinks {
    /// Forgets every link and text (keeping the allocations), for a pass
    /// over `page_text`: ranges of it are kept as ranges, not copies.
    pub(crate) fn clear_for(&mut self, page_text: &str) {
        self.links.clear();
        self.extras.clear();
        self.text.clear();
        self.page_address = page_text.as_ptr().addr();
        self.page_len = page_text.len();
    }

    /// `s` kept until the next [`PendingLinks::clear_for`]: its range of
    /// the page text when it is a part of it, else a copy; `None` when the
    /// space of ranges would pass 4 GiB.
    #[inline]
    pub(crate) fn keep_text(&mut self, s: &str) -> Option<Kept> {
        // Where `s` starts relative to the page text (wrapping below it).
        let offset = s.as_ptr().addr().wrapping_sub(self.page_address);
        let (start, end) = if offset <= self.page_len && s.len() <= self.page_len - offset {
            (offset, offset + s.len())
        } else {
            let start = self.page_len + self.text.len();
            (start, start + s.len())
        };
        let end = u32::try_from(end).ok()?;
        let start = start as u32; // start <= end
        if start as usize >= self.page_len {
            self.text.push_str(s);
        }
        Some(Kept { start, end })
    }

    /// Adds a link.
    #[inline(always)]
    pub(crate) fn push(&mut self, found: Found) {
        let (element, name) = match found.element {
            Text::Name(n) => (Some(n), None),
            Text::Kept(k) => (None, Some(k)),
        };
        let extras = if found.qualifiers.is_empty() && name.is_none() {
            NONE
        } else {
            match u32::try_from(self.extras.len()) {
                Ok(i) if i != NONE => {
                    self.extras.push(Extras {
                        qualifiers: found.qualifiers,
                        element: name,
                    });
                    i
                }
                // Past four billion links with extras (a page over 4 GiB):
                // the link keeps its place, without them.
                _ => NONE,
            }
        };
        self.links.push(Pending {
            raw: found.raw,
            element,
            text: found
                .text
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(NONE),
            extras,
            attribute: found.attribute,
            svg: found.svg,
            kind: found.kind,
        });
    }

    /// The text `k` names; `page_text` is the text given to
    /// [`PendingLinks::clear_for`].
    #[inline]
    pub(crate) fn kept<'a>(&'a self, page_text: &'a str, k: Kept) -> &'a str {
        debug_assert_eq!(page_text.as_ptr().addr(), self.page_address);
        let (start, end) = (k.start as usize, k.end as usize);
        let text = if end <= self.page_len {
            page_text.get(start..end)
        } else {
            self.text.get(start - self.page_len..end - self.page_len)
        };
        text.unwrap_or_default()
    }

    /// The element name of `p`.
    #[inline]
    pub(crate) fn element<'a>(&'a self, page_text: &'a str, p: &Pending) -> &'a str {
        match (p.element, self.extras(p).element) {
            (Some(n), _) => n.as_str(),
            (None, Some(k)) => self.kept(page_text, k),
            (None, None) => "",
        }
    }

    fn extras(&self, p: &Pending) -> Extras {
        self.extras
            .get(p.extras as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The `rel`, `hreflang` and `as` of `p`.
    #[inline]
    pub(crate) fn qualifiers(&self, p: &Pending) -> Qualifiers {
        self.extras(p).qualifiers
    }

    /// The capacity of the copies' buffer, in bytes.
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
    fn a_pending_link_is_24_bytes() {
        assert_eq!(size_of::<Pending>(), 24);
    }

    /// Parts of the page text are kept as ranges of it, other texts as
    /// copies after it; each reads back as itself.
    #[test]
    fn page_parts_are_ranges_and_other_texts_copies() {
        let page = "<a href=/one>x</a><a href=two>";
        let mut links = PendingLinks::default();
        links.clear_for(page);
        let one = links.keep_text(&page[8..12]).unwrap();
        let copy = links.keep_text("/one").unwrap();
        let whole = links.keep_text(page).unwrap();
        let empty_end = links.keep_text(&page[page.len()..]).unwrap();
        let two = links.keep_text(&page[26..29]).unwrap();
        let other = links.keep_text("elsewhere").unwrap();
        assert_eq!((one.start, one.end), (8, 12));
        assert_eq!(copy.start as usize, page.len());
        assert_eq!(links.text, "/oneelsewhere");
        for (k, want) in [
            (one, "/one"),
            (copy, "/one"),
            (whole, page),
            (empty_end, ""),
            (two, "two"),
            (other, "elsewhere"),
        ] {
            assert_eq!(links.kept(page, k), want);
        }
        // A text just past the page (another string that happens to
        // follow it in memory) is never taken for a part of it.
        let both = format!("{page}tail");
        links.clear_for(&both[..page.len()]);
        let tail = links.keep_text(&both[page.len()..]).unwrap();
        assert_eq!(links.kept(&both[..page.len()], tail), "tail");
        assert_eq!(links.text, "tail");
    }
}
