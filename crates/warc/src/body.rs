//! A record's decoded payload, owned without a copy where possible.
//!
//! Why: most payloads need no decoding (no chunking, no content coding), and
//! when a gzip member holds exactly one record the reader can hand its
//! decoded buffer (WARC head, HTTP head, payload) to the record instead of
//! copying the payload out of it. On the pipeline benchmark that copy and the
//! buffer compaction after it were 5 % of all instructions. A `Body` is either
//! its own bytes or such a buffer with the payload's range.
//!
//! Invariant: `start <= end <= buf.len()`; the payload is `buf[start..end]`.

use std::fmt;
use std::ops::{Deref, Range};

/// The decoded payload of a [`crate::Record`]; dereferences to its bytes.
#[derive(Clone, Default)]
pub struct Body {
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl Body {
    /// The payload `range` of `buf` (the rest of `buf` is kept, unread).
    /// A range outside `buf` is clamped to it.
    pub(crate) fn in_buffer(buf: Vec<u8>, range: Range<usize>) -> Body {
        let end = range.end.min(buf.len());
        let start = range.start.min(end);
        Body { buf, start, end }
    }
}

impl Body {
    /// The payload as a vector of its own, for a consumer that keeps it
    /// (a parser that makes it its document's text): the buffer itself,
    /// the payload moved to its start where a head preceded it (no new
    /// allocation, and no memory the body did not hold).
    pub fn into_vec(self) -> Vec<u8> {
        let Body {
            mut buf,
            start,
            end,
        } = self;
        buf.copy_within(start..end, 0);
        buf.truncate(end - start);
        buf
    }
}

#[cfg(test)]
impl Body {
    /// Whether the body is a range of a larger buffer (handed over by the
    /// reader) rather than bytes of its own.
    pub(crate) fn is_range_of_buffer(&self) -> bool {
        self.end - self.start < self.buf.len()
    }
}

impl From<Vec<u8>> for Body {
    fn from(buf: Vec<u8>) -> Body {
        let end = buf.len();
        Body { buf, start: 0, end }
    }
}

impl Deref for Body {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }
}

impl AsRef<[u8]> for Body {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl fmt::Debug for Body {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&**self, f)
    }
}

impl PartialEq for Body {
    fn eq(&self, other: &Body) -> bool {
        **self == **other
    }
}

impl Eq for Body {}

impl PartialEq<[u8]> for Body {
    fn eq(&self, other: &[u8]) -> bool {
        **self == *other
    }
}

impl PartialEq<&[u8]> for Body {
    fn eq(&self, other: &&[u8]) -> bool {
        **self == **other
    }
}

impl<const N: usize> PartialEq<[u8; N]> for Body {
    fn eq(&self, other: &[u8; N]) -> bool {
        **self == other[..]
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Body {
    fn eq(&self, other: &&[u8; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<Vec<u8>> for Body {
    fn eq(&self, other: &Vec<u8>) -> bool {
        **self == other[..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_of_a_buffer_reads_as_its_bytes() {
        let b = Body::in_buffer(b"WARC head\r\n\r\n<p>x</p>\r\n\r\n".to_vec(), 13..21);
        assert_eq!(b, b"<p>x</p>");
        assert_eq!(b.len(), 8);
        assert_eq!(format!("{b:?}"), format!("{:?}", b"<p>x</p>"));
        assert_eq!(b, Body::from(b"<p>x</p>".to_vec()));
        // Clamped, never out of bounds.
        assert!(Body::in_buffer(b"abc".to_vec(), 2..9).as_ref() == b"c");
        assert!(Body::in_buffer(b"abc".to_vec(), 7..9).is_empty());
        assert!(Body::default().is_empty());
    }

    #[test]
    fn into_vec_keeps_the_payload_in_its_buffer() {
        let b = Body::in_buffer(b"WARC head\r\n\r\n<p>x</p>\r\n\r\n".to_vec(), 13..21);
        let capacity = b.buf.capacity();
        let v = b.into_vec();
        assert_eq!(v, b"<p>x</p>");
        assert_eq!(v.capacity(), capacity, "the same buffer");
        assert_eq!(Body::from(b"abc".to_vec()).into_vec(), b"abc");
        assert_eq!(Body::in_buffer(b"abc".to_vec(), 0..2).into_vec(), b"ab");
        assert!(Body::default().into_vec().is_empty());
    }
}
