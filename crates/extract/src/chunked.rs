//! A list that grows in fixed-size chunks instead of by doubling.
//!
//! Why: a page can hold a million links, each waiting until the page ends.
//! A doubling `Vec` of them copies itself at every doubling and, for a
//! moment, holds the old block and the new one (1.5 times the final size,
//! up to 3 times the live elements); an allocator that keeps freed memory
//! for reuse (as the `spinneret` binary's does) keeps every old block
//! committed, so a doubled list's memory is the sum of all its sizes. In
//! chunks of [`CHUNK`] elements, the list's memory is its elements plus
//! under one chunk, and nothing is ever copied.
//!
//! Invariants: every chunk but the last holds exactly [`CHUNK`] elements
//! and was allocated with exactly that capacity; the first chunk grows as
//! a `Vec` does (small pages stay small) up to [`CHUNK`].

/// Elements per chunk (a power of two, so indexing is a shift and a mask).
pub(crate) const CHUNK: usize = 4096;

/// A list of `T` in chunks of [`CHUNK`].
#[derive(Debug)]
pub(crate) struct Chunked<T> {
    chunks: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Copy> Chunked<T> {
    /// The number of elements.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Appends `x`.
    #[inline]
    pub(crate) fn push(&mut self, x: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => last.push(x),
            _ => self.push_to_new_chunk(x),
        }
        self.len += 1;
    }

    #[cold]
    fn push_to_new_chunk(&mut self, x: T) {
        // The first chunk grows from small; later ones are whole chunks.
        let mut chunk = if self.chunks.is_empty() {
            Vec::new()
        } else {
            Vec::with_capacity(CHUNK)
        };
        chunk.push(x);
        self.chunks.push(chunk);
    }

    /// Element `i`, if there is one.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<T> {
        self.chunks.get(i / CHUNK)?.get(i % CHUNK).copied()
    }

    /// The last element, if any.
    #[inline]
    pub(crate) fn last(&self) -> Option<T> {
        self.chunks.last()?.last().copied()
    }

    /// The elements in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks.iter().flatten()
    }

    /// Forgets every element, keeping the first chunk's allocation (and
    /// freeing the others: a page that needed them is rare).
    pub(crate) fn clear(&mut self) {
        self.chunks.truncate(1);
        if let Some(first) = self.chunks.first_mut() {
            first.clear();
        }
        self.len = 0;
    }

    /// The elements there is room for without allocating.
    pub(crate) fn capacity(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum()
    }

    /// Frees every allocation.
    pub(crate) fn release(&mut self) {
        *self = Chunked::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_get_iter_across_chunks() {
        let mut c = Chunked::default();
        assert_eq!((c.len(), c.get(0), c.last()), (0, None, None));
        let n = 3 * CHUNK + 17;
        for i in 0..n {
            c.push(i as u32);
        }
        assert_eq!(c.len(), n);
        assert!((0..n).all(|i| c.get(i) == Some(i as u32)));
        assert_eq!(c.get(n), None);
        assert_eq!(c.last(), Some(n as u32 - 1));
        assert!(c.iter().copied().eq(0..n as u32));
        // Every full chunk was allocated once, at its final size.
        assert!(c.chunks[1..].iter().all(|k| k.capacity() == CHUNK));
        assert!(c.capacity() < n + CHUNK);
        c.clear();
        assert_eq!((c.len(), c.iter().count(), c.chunks.len()), (0, 0, 1));
        assert_eq!(c.capacity(), CHUNK);
        c.push(7);
        assert_eq!((c.get(0), c.len()), (Some(7), 1));
        c.release();
        assert_eq!(c.capacity(), 0);
    }

    #[test]
    fn a_small_list_stays_small() {
        let mut c = Chunked::default();
        for i in 0..10u64 {
            c.push(i);
        }
        assert!(c.capacity() < 64, "{}", c.capacity());
    }
}
