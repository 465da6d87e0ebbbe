//! Links found in a page and not yet resolved.
//!
//! They wait because the document base URL — the first `<base href>` —
//! applies to every link of the page, also to those before it. The
//! buffers are kept from page to page (an [`Extractor`](crate::Extractor)
//! per thread), so their element type holds no borrow of the page: every
//! text a pending link needs is copied into [`PendingLinks`]'s one string
//! and named by its range there (or is a `'static` name).
//!
//! Invariant: a [`Text`] is read only from the [`PendingLinks`] that made
//! it, before that is cleared.

use crate::LinkKind;

/// A pending link's text: a `'static` name, or a range of
/// [`PendingLinks`]'s text.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Text {
    Static(&'static str),
    Kept { start: usize, end: usize },
}

/// A link found in the document, before resolution.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pending {
    pub(crate) element: Text,
    pub(crate) attribute: &'static str,
    pub(crate) svg: bool,
    pub(crate) kind: LinkKind,
    pub(crate) raw: Text,
    pub(crate) rel: Option<Text>,
    pub(crate) hreflang: Option<Text>,
    pub(crate) as_: Option<Text>,
    /// Which of the page's [`AnchorTexts`](crate::anchor_text::AnchorTexts).
    pub(crate) text: Option<usize>,
}

/// A page's pending links and the texts they name.
#[derive(Default)]
pub(crate) struct PendingLinks {
    pub(crate) links: Vec<Pending>,
    text: String,
}

impl PendingLinks {
    /// Forgets every link and text (keeping the allocations).
    pub(crate) fn clear(&mut self) {
        self.links.clear();
        self.text.clear();
    }

    /// A copy of `s`, kept until [`PendingLinks::clear`].
    #[inline]
    pub(crate) fn keep_text(&mut self, s: &str) -> Text {
        let start = self.text.len();
        self.text.push_str(s);
        Text::Kept {
            start,
            end: self.text.len(),
        }
    }

    /// The text `t` names.
    #[inline]
    pub(crate) fn get(&self, t: Text) -> &str {
        match t {
            Text::Static(s) => s,
            Text::Kept { start, end } => &self.text[start..end],
        }
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
