//! Where a document's text lives: spans of the input it owns, spans of one
//! shared buffer for text the tokenizer changed, and a `String` of its own
//! for a text node that grew out of place.
//!
//! Appending to a text node is amortized linear whatever the order: a span
//! grows in place when the new text continues it (in the input, or at the
//! end of the shared buffer); otherwise the node moves once to a `String`
//! of its own and grows there.

use std::sync::Arc;

use crate::token::TokenText;

/// A piece of text in a [`TextStore`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TextRef {
    /// `source[start..start + len]`.
    Source { start: u32, len: u32 },
    /// `extra[start..start + len]`.
    Extra { start: u32, len: u32 },
    /// `owned[index]`.
    Owned(u32),
}

/// A document's text.
#[derive(Clone, Debug, Default)]
pub(super) struct TextStore {
    /// The input, as the tokenizer saw it (spans index it); shared with
    /// the documents other threads build from other chunks of the same
    /// input (`parallel/tree_speculation.rs`), copied only if a streaming
    /// parse appends to a shared one.
    pub source: Arc<String>,
    extra: String,
    owned: Vec<String>,
}

impl TextStore {
    pub fn new(source: Arc<String>) -> TextStore {
        TextStore {
            source,
            extra: String::new(),
            owned: Vec::new(),
        }
    }

    pub fn get(&self, t: TextRef) -> &str {
        match t {
            TextRef::Source { start, len } => &self.source[start as usize..][..len as usize],
            TextRef::Extra { start, len } => &self.extra[start as usize..][..len as usize],
            TextRef::Owned(i) => &self.owned[i as usize],
        }
    }

    /// Keeps `text`: a span of the source when it is one (and fits the
    /// span's `u32`s), else a copy in the shared buffer.
    #[inline]
    pub fn add(&mut self, text: TokenText<'_>) -> TextRef {
        if let TokenText::Input { start, text } = text
            && let Some(span) = self.source_span(start, text.len())
        {
            debug_assert_eq!(self.get(span), text);
            return span;
        }
        self.add_copy(text.as_str())
    }

    /// The source's bytes `start..start + len` (a span of text the caller
    /// knows is there), when the span's `u32`s can hold it.
    #[inline]
    pub fn source_span(&self, start: usize, len: usize) -> Option<TextRef> {
        let end = start.checked_add(len)?;
        (end <= u32::MAX as usize).then_some(TextRef::Source {
            start: start as u32,
            len: len as u32,
        })
    }

    /// Keeps a copy of `text` in the shared buffer (or, past its `u32`
    /// offsets, in a `String` of its own).
    #[inline(never)]
    pub fn add_copy(&mut self, text: &str) -> TextRef {
        let start = self.extra.len();
        self.extra.push_str(text);
        match (u32::try_from(start), u32::try_from(text.len())) {
            (Ok(start), Ok(len)) if start.checked_add(len).is_some() => {
                TextRef::Extra { start, len }
            }
            _ => {
                self.extra.truncate(start);
                self.owned.push(text.to_owned());
                TextRef::Owned((self.owned.len() - 1) as u32)
            }
        }
    }

    /// A copy of the text `owned[index]` that does not change when it
    /// grows (for a cloned text node).
    pub fn owned_copy(&mut self, index: u32) -> TextRef {
        let text = std::mem::take(&mut self.owned[index as usize]);
        let copy = self.add_copy(&text);
        self.owned[index as usize] = text;
        copy
    }

    /// Appends `text` to the text `t` refers to, returning the new
    /// reference.
    pub fn append(&mut self, t: TextRef, text: TokenText<'_>) -> TextRef {
        match (t, text) {
            (TextRef::Source { start, len }, TokenText::Input { start: at, text: s })
                if start as usize + len as usize == at =>
            {
                if let Ok(l) = u32::try_from(len as usize + s.len())
                    && start.checked_add(l).is_some()
                {
                    return TextRef::Source { start, len: l };
                }
            }
            (TextRef::Extra { start, len }, _)
                if start as usize + len as usize == self.extra.len() =>
            {
                self.extra.push_str(text.as_str());
                if let Ok(l) = u32::try_from(len as usize + text.as_str().len())
                    && start.checked_add(l).is_some()
                {
                    return TextRef::Extra { start, len: l };
                }
                self.extra.truncate(start as usize + len as usize);
            }
            (TextRef::Owned(i), _) => {
                self.owned[i as usize].push_str(text.as_str());
                return t;
            }
            _ => {}
        }
        let mut own = String::with_capacity(self.get(t).len() + text.as_str().len());
        own.push_str(self.get(t));
        own.push_str(text.as_str());
        self.owned.push(own);
        TextRef::Owned((self.owned.len() - 1) as u32)
    }

    /// The text of `a` followed by that of `b`.
    pub fn concat(&mut self, a: TextRef, b: TextRef) -> TextRef {
        let tail = self.get(b).to_owned();
        self.append(a, TokenText::Scratch(&tail))
    }

    pub fn heap_size(&self) -> usize {
        self.source.capacity()
            + self.extra.capacity()
            + self.owned.capacity() * std::mem::size_of::<String>()
            + self.owned.iter().map(String::capacity).sum::<usize>()
    }
}

/// Where the text of a [`TextStore`] moved into another went: see
/// [`TextStore::absorb`].
pub(super) struct TextMove {
    /// Whether the two stores kept the same input (its spans stay).
    same_source: bool,
    /// Where the absorbed store's input starts in the shared buffer, when
    /// it was another input.
    source_at: usize,
    /// Where the absorbed store's shared buffer starts in this one's.
    extra_at: usize,
    /// Where the absorbed store's own strings start in this one's.
    owned_at: usize,
}

impl TextStore {
    /// Moves the text of `other` into this store, in one append per
    /// buffer: its input (unless it is the same input as this store's),
    /// its shared buffer and its own strings. [`TextStore::relocate`] then
    /// gives each of its references' new value.
    pub fn absorb(&mut self, other: TextStore) -> TextMove {
        let same_source = Arc::ptr_eq(&other.source, &self.source) || other.source == self.source;
        let source_at = self.extra.len();
        if !same_source {
            self.extra.push_str(&other.source);
        }
        let extra_at = self.extra.len();
        self.extra.push_str(&other.extra);
        let owned_at = self.owned.len();
        self.owned.extend(other.owned);
        TextMove {
            same_source,
            source_at,
            extra_at,
            owned_at,
        }
    }

    /// The reference, in this store, of a reference `t` of a store it
    /// absorbed with `moved`.
    pub fn relocate(&mut self, moved: &TextMove, t: TextRef) -> TextRef {
        moved.relocated(t).unwrap_or_else(|(at, len)| {
            // Past the reach of a `u32` span: a string of its own.
            let text = self.extra[at..][..len as usize].to_owned();
            self.owned.push(text);
            TextRef::Owned((self.owned.len() - 1) as u32)
        })
    }

    /// Whether every reference of a store this one absorbed is relocated
    /// by [`TextMove::relocated`] alone (its shared buffer, which holds
    /// the absorbed one's, ends within a `u32`'s reach).
    pub fn spans_in_reach(&self) -> bool {
        u32::try_from(self.extra.len()).is_ok()
    }
}

impl TextMove {
    /// The new value of a reference `t` of the absorbed store, or, for a
    /// span of this store's shared buffer past a `u32`'s reach, where it
    /// starts there and its length.
    #[inline]
    pub fn relocated(&self, t: TextRef) -> Result<TextRef, (usize, u32)> {
        let (at, start, len) = match t {
            TextRef::Source { .. } if self.same_source => return Ok(t),
            TextRef::Source { start, len } => (self.source_at, start, len),
            TextRef::Extra { start, len } => (self.extra_at, start, len),
            TextRef::Owned(i) => return Ok(TextRef::Owned(i + self.owned_at as u32)),
        };
        let at = at + start as usize;
        match u32::try_from(at)
            .ok()
            .filter(|s| s.checked_add(len).is_some())
        {
            Some(start) => Ok(TextRef::Extra { start, len }),
            None => Err((at, len)),
        }
    }
}
