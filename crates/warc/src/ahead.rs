//! Gzip members inflated ahead of the reader, on other threads: what lets a
//! caller take inflation, most of a reader's work, off the one thread that
//! reads a file.
//!
//! A reader's container layer inflates a gzip member in one call when the
//! member is followed by the next member magic (or the end of input)
//! within its cap (`Source::whole_member`): the member is *taken to be*
//! the bytes from its magic to the first magic at least [`MIN_MEMBER`]
//! bytes further, and is accepted only if libdeflate checks it whole. That
//! rule depends only on the file's bytes, so it can be applied ahead of
//! the reader by anyone who sees the same bytes:
//!
//! - [`Splitter`] cuts the bytes of a file, as they are read, into
//!   [`Candidate`] members by exactly that rule, starting at each member
//!   magic of the chain (the first magic of the file, then each
//!   candidate's end);
//! - [`MemberInflater::inflate`] computes, on any thread, exactly what the
//!   reader's one-call path computes for those bytes: the same checks
//!   (size, cap, libdeflate's verdict, trailer at the end) by the same
//!   function, giving the member's output or a rejection;
//! - a [`Prefetch`] handed to [`Reader::from_read_ahead`](crate::Reader::from_read_ahead)
//!   answers the reader, when it is about to inflate the member at offset
//!   `start` of `len` bytes, with that result if it was computed for the
//!   member at `start` of `len` bytes ([`Ahead`]).
//!
//! # Why the records are the same
//!
//! The reader asks only at the point where it would call the one-call
//! inflate itself, on a member it has already cut from its own window.
//! An answer for the same `start` and `len` was computed by the same
//! deterministic function on the same bytes (the reader's input must be
//! the bytes the splitter saw, which a caller guarantees by reading the
//! file once and handing the same bytes to both), so the reader's decoded
//! stream, and so every record and error, are exactly those of a reader
//! without a prefetch. Where no answer matches — the reader resynchronized
//! after damage at an offset the chain does not hold, or the splitter gave
//! up on a member longer than the cap — the reader inflates (or streams)
//! the member itself, as it always did: a prefetch only ever saves work.
//!
//! Invariant: nothing here allocates more than the cap per candidate; a
//! candidate that would pass the cap is dropped, not held.

use std::collections::VecDeque;

use crate::container::{GZIP_MAGIC, MIN_MEMBER, whole_member_size};
use crate::inflate::GzipInflater;
use crate::reader::{Options, Reader};

/// A gzip member cut from a file by the reader's rule, to be inflated
/// ahead of the reader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The file offset of its magic.
    pub start: u64,
    /// Its bytes: from its magic to the next member magic of the chain (or
    /// the end of the file).
    pub bytes: Vec<u8>,
}

/// What a [`Prefetch`] knows of a member the reader is about to inflate.
#[derive(Debug, PartialEq, Eq)]
pub enum Ahead {
    /// Not inflated ahead: the reader inflates it itself.
    NotDone,
    /// Inflated ahead and rejected ([`MemberInflater::inflate`] gave
    /// `None`): the reader streams it, with its error reporting.
    Rejected,
    /// Inflated ahead: the member's whole output.
    Output(Vec<u8>),
}

/// Inflation done ahead of a reader ([`Reader::from_read_ahead`]).
///
/// Contract: [`Prefetch::take`] answers [`Ahead::Output`] or
/// [`Ahead::Rejected`] only with what [`MemberInflater::inflate`] returned
/// for the `len` bytes at file offset `start` of the very input the reader
/// reads; anything else is [`Ahead::NotDone`].
pub trait Prefetch {
    /// The reader is about to inflate the `len` bytes at `start`.
    fn take(&mut self, start: u64, len: usize) -> Ahead;
}

/// The largest member the one-call path takes, in compressed or inflated
/// bytes, for a reader with `opts` (the reader's streaming window).
pub fn member_cap(opts: &Options) -> usize {
    crate::container::source_cap(Reader::cap(opts))
}

/// Cuts a file's bytes, pushed in order from its first byte, into the
/// [`Candidate`] members of the reader's one-call path.
#[derive(Debug)]
pub struct Splitter {
    cap: usize,
    /// Bytes from file offset `at`: the open candidate (from its magic)
    /// when `open`, else the unsearched tail.
    buf: Vec<u8>,
    at: u64,
    open: bool,
    /// Where in `buf` the search for the next magic goes on.
    searched: usize,
}

impl Splitter {
    /// A splitter for a reader with `opts`.
    pub fn new(opts: &Options) -> Splitter {
        Splitter {
            cap: member_cap(opts),
            buf: Vec::new(),
            at: 0,
            open: false,
            searched: 0,
        }
    }

    /// Appends the next `bytes` of the file; every candidate they complete
    /// is pushed to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Candidate>) {
        self.buf.extend_from_slice(bytes);
        loop {
            let found = self
                .buf
                .get(self.searched..)
                .and_then(|rest| memchr::memmem::find(rest, GZIP_MAGIC))
                .map(|i| self.searched + i);
            match (found, self.open) {
                (Some(end), true) => {
                    // The open candidate ends at the next magic of the
                    // chain, which starts the next one.
                    let rest = self.buf.split_off(end);
                    let bytes = std::mem::replace(&mut self.buf, rest);
                    out.push(Candidate {
                        start: self.at,
                        bytes,
                    });
                    self.at += end as u64;
                    self.searched = MIN_MEMBER;
                }
                (Some(start), false) => {
                    self.buf.drain(..start);
                    self.at += start as u64;
                    self.open = true;
                    self.searched = MIN_MEMBER;
                }
                (None, open) => {
                    // A magic may straddle the end: search its first bytes
                    // again.
                    let keep = self.buf.len().saturating_sub(GZIP_MAGIC.len() - 1);
                    if open && self.buf.len() <= self.cap {
                        self.searched = keep.max(MIN_MEMBER);
                    } else {
                        // Nothing open, or a member longer than the cap
                        // (the reader streams it): drop all but a possible
                        // magic's start, and look for the next magic.
                        self.buf.drain(..keep);
                        self.at += keep as u64;
                        self.open = false;
                        self.searched = 0;
                    }
                    return;
                }
            }
        }
    }

    /// The end of the file: the open candidate, if any, ends there.
    pub fn finish(&mut self, out: &mut Vec<Candidate>) {
        if self.open && self.buf.len() <= self.cap {
            out.push(Candidate {
                start: self.at,
                bytes: std::mem::take(&mut self.buf),
            });
        }
        self.at += self.buf.len() as u64;
        self.buf.clear();
        self.open = false;
        self.searched = 0;
    }
}

/// The reader's one-call inflate of a whole gzip member, for any thread
/// (one inflater per thread at a time).
pub struct MemberInflater {
    inflater: GzipInflater,
    cap: usize,
}

impl MemberInflater {
    /// An inflater for a reader with `opts`.
    pub fn new(opts: &Options) -> MemberInflater {
        MemberInflater {
            inflater: GzipInflater::new(),
            cap: member_cap(opts),
        }
    }

    /// Exactly what the reader's one-call path makes of `member`: its
    /// output, or `None` where the reader would stream it instead.
    pub fn inflate(&mut self, member: &[u8]) -> Option<Vec<u8>> {
        let size = whole_member_size(member, self.cap)?;
        let mut out = Vec::new();
        self.inflater
            .append_member(member, size, &mut out)
            .then_some(out)
    }
}

/// A [`Prefetch`] computed on the reader's own thread, candidate by
/// candidate as the bytes are pushed: no faster than no prefetch, it is
/// the reference the threaded ones are tested against.
pub struct InlinePrefetch {
    inflater: MemberInflater,
    ready: VecDeque<(u64, usize, Option<Vec<u8>>)>,
}

impl InlinePrefetch {
    /// An empty prefetch for a reader with `opts`.
    pub fn new(opts: &Options) -> InlinePrefetch {
        InlinePrefetch {
            inflater: MemberInflater::new(opts),
            ready: VecDeque::new(),
        }
    }

    /// Inflates `candidates` ahead.
    pub fn add(&mut self, candidates: Vec<Candidate>) {
        for c in candidates {
            let result = self.inflater.inflate(&c.bytes);
            self.ready.push_back((c.start, c.bytes.len(), result));
        }
    }
}

impl Prefetch for InlinePrefetch {
    fn take(&mut self, start: u64, len: usize) -> Ahead {
        while let Some(&(at, n, _)) = self.ready.front() {
            if at > start {
                break;
            }
            let (_, _, result) = self.ready.pop_front().expect("front exists");
            if at == start && n == len {
                return result.map_or(Ahead::Rejected, Ahead::Output);
            }
        }
        Ahead::NotDone
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::tests::gz;

    fn split(file: &[u8], piece: usize, opts: &Options) -> Vec<Candidate> {
        let (mut splitter, mut out) = (Splitter::new(opts), Vec::new());
        for chunk in file.chunks(piece.max(1)) {
            splitter.push(chunk, &mut out);
        }
        splitter.finish(&mut out);
        out
    }

    /// Members are cut where they begin, whatever the pieces the bytes come
    /// in (a magic split between two pieces included), and inflate to
    /// their texts; leading garbage is skipped.
    #[test]
    fn cuts_members_at_their_magics() {
        let texts: Vec<Vec<u8>> = (0..5)
            .map(|i| format!("record {i} ").repeat(50 * i + 1).into_bytes())
            .collect();
        let members: Vec<Vec<u8>> = texts.iter().map(|t| gz(t)).collect();
        let mut file = b"junk".to_vec();
        let mut starts = Vec::new();
        for m in &members {
            starts.push(file.len() as u64);
            file.extend_from_slice(m);
        }
        let opts = Options::default();
        let mut inflater = MemberInflater::new(&opts);
        for piece in [1, 2, 3, 7, 64, 1000, file.len()] {
            let got = split(&file, piece, &opts);
            let at: Vec<u64> = got.iter().map(|c| c.start).collect();
            assert_eq!(at, starts, "pieces of {piece}");
            for (c, t) in got.iter().zip(&texts) {
                assert_eq!(inflater.inflate(&c.bytes).as_deref(), Some(&t[..]));
            }
        }
    }

    /// A member longer than the cap is not held: it is dropped, and the
    /// members after it are cut as usual.
    #[test]
    fn drops_members_over_the_cap() {
        let opts = Options {
            max_record_size: 0,
            ..Options::default()
        };
        let cap = member_cap(&opts);
        // Incompressible bytes, so the member is longer than the cap.
        let mut x = 0x2545_F491u32;
        let big: Vec<u8> = (0..cap + 1000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 7) as u8
            })
            .collect();
        let small = gz(b"WARC/1.1\r\n");
        let file = [gz(&big), small.clone(), small.clone()].concat();
        // Pieces small enough that the member passes the cap before its
        // end is seen.
        let got = split(&file, 100, &opts);
        let at: Vec<u64> = got.iter().map(|c| c.start).collect();
        let first_small = (file.len() - 2 * small.len()) as u64;
        assert_eq!(at, [first_small, first_small + small.len() as u64]);
        // Over the cap in inflated size: the reader would stream it.
        let mut inflater = MemberInflater::new(&opts);
        let zeros = gz(&vec![0; cap + 1]);
        assert_eq!(inflater.inflate(&zeros), None);
        assert_eq!(inflater.inflate(&zeros[..10]), None);
    }

    #[test]
    fn a_file_without_members_gives_none() {
        let opts = Options::default();
        assert!(split(b"WARC/1.1\r\nplain text\x1f\x8b", 3, &opts).is_empty());
        assert!(split(b"", 3, &opts).is_empty());
    }

    /// The inline prefetch answers only for the member it computed, and
    /// forgets what the reader has passed.
    #[test]
    fn inline_prefetch_matches_start_and_length() {
        let opts = Options::default();
        let file = [gz(b"one"), gz(b"two"), gz(b"three")].concat();
        let candidates = split(&file, 5, &opts);
        let (a, b, c) = (&candidates[0], &candidates[1], &candidates[2]);
        let mut p = InlinePrefetch::new(&opts);
        p.add(candidates.clone());
        assert_eq!(p.take(a.start, a.bytes.len() + 1), Ahead::NotDone);
        assert_eq!(
            p.take(b.start, b.bytes.len()),
            Ahead::Output(b"two".to_vec())
        );
        assert_eq!(p.take(b.start, b.bytes.len()), Ahead::NotDone);
        assert_eq!(
            p.take(c.start, c.bytes.len()),
            Ahead::Output(b"three".to_vec())
        );
        let mut p = InlinePrefetch::new(&opts);
        let fake = b"\x1f\x8b\x08 not really a member".to_vec();
        let len = fake.len();
        p.add(vec![Candidate {
            start: 0,
            bytes: fake,
        }]);
        assert_eq!(p.take(0, len), Ahead::Rejected);
    }
}
