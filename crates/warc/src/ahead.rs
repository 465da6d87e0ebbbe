//! Gzip members inflated ahead of the reader, on other threads: what lets a
//! caller take inflation, most of a reader's work, off the one thread that
//! reads a file.
//!
//! A reader's container layer inflates a gzip member in one call when the
//! member is followed by the next member magic (or the end of input)
//! within its cap (`Source::whole_member`): the member is *taken to be*
//! the bytes from its magic to the first magic at least 18 (`MIN_MEMBER`)
//! bytes further, and is accepted only if libdeflate checks it whole. That
//! rule depends only on the file's bytes, so it can be applied ahead of
//! the reader by anyone who sees the same bytes:
//!
//! - [`Splitter`] cuts a file, as its bytes are read, into [`Candidate`]
//!   members by exactly that rule, starting at each member
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
//! Invariant: the splitter holds no bytes of the file (a caller keeps those
//! from [`Splitter::open_from`] on); a candidate that would pass the cap
//! is dropped, as the reader would stream it.

use std::collections::VecDeque;

use crate::container::{GZIP_MAGIC, MIN_MEMBER, whole_member_size};
use crate::inflate::GzipInflater;
use crate::reader::{Options, Reader};

/// A gzip member cut from a file by the reader's rule, to be inflated
/// ahead of the reader: the bytes `start..start + len` of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Candidate {
    /// The file offset of its magic.
    pub start: u64,
    /// Its length: from its magic to the next member magic of the chain
    /// (or the end of the file).
    pub len: usize,
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

/// Cuts a file, its bytes pushed in order from the first, into the
/// [`Candidate`] members of the reader's one-call path. It keeps no bytes
/// but a possible magic's first two: the caller keeps the bytes from
/// [`Splitter::open_from`] on, to hand each candidate's bytes to an
/// inflater.
#[derive(Debug)]
pub struct Splitter {
    cap: u64,
    /// The file offset of the next byte pushed.
    pos: u64,
    /// The open candidate's start (a magic), if one is open.
    open: Option<u64>,
    /// The last bytes pushed (at most two): a magic may begin there.
    carry: Vec<u8>,
}

impl Splitter {
    /// A splitter for a reader with `opts`.
    pub fn new(opts: &Options) -> Splitter {
        Splitter {
            cap: member_cap(opts) as u64,
            pos: 0,
            open: None,
            carry: Vec::with_capacity(GZIP_MAGIC.len() * 2),
        }
    }

    /// Where the open candidate begins: bytes before it are no longer
    /// needed for a candidate.
    pub fn open_from(&self) -> Option<u64> {
        self.open
    }

    /// Takes the next `bytes` of the file; every candidate they complete
    /// is pushed to `out`.
    pub fn push(&mut self, bytes: &[u8], out: &mut Vec<Candidate>) {
        // A magic that begins in the carried bytes and ends in these.
        let carried = self.carry.len();
        let mut joined = self.carry.clone();
        joined.extend_from_slice(&bytes[..bytes.len().min(GZIP_MAGIC.len() - 1)]);
        if let Some(i) = memchr::memmem::find(&joined, GZIP_MAGIC).filter(|&i| i < carried) {
            self.magic(self.pos - (carried - i) as u64, out);
        }
        for i in memchr::memmem::find_iter(bytes, GZIP_MAGIC) {
            self.magic(self.pos + i as u64, out);
        }
        self.pos += bytes.len() as u64;
        // A member longer than the cap is not taken whole: the reader
        // streams it. Drop it, and start at the next magic.
        if self.open.is_some_and(|at| self.pos - at > self.cap) {
            self.open = None;
        }
        // Carry the last bytes a magic may begin in.
        let keep = GZIP_MAGIC.len() - 1;
        if bytes.len() < keep {
            joined.truncate(carried);
            joined.extend_from_slice(bytes);
        } else {
            joined.clear();
            joined.extend_from_slice(&bytes[bytes.len() - keep..]);
        }
        let tail = &joined[joined.len().saturating_sub(keep)..];
        self.carry.clear();
        self.carry.extend_from_slice(tail);
    }

    /// A member magic at `at`: it ends the open candidate (if at least
    /// [`MIN_MEMBER`] bytes after its start, as the reader searches) and
    /// starts the next.
    fn magic(&mut self, at: u64, out: &mut Vec<Candidate>) {
        match self.open {
            Some(start) if at < start + MIN_MEMBER as u64 => {}
            Some(start) => {
                out.push(Candidate {
                    start,
                    len: (at - start) as usize,
                });
                self.open = Some(at);
            }
            None => self.open = Some(at),
        }
    }

    /// The end of the file: the open candidate, if any, ends there.
    pub fn finish(&mut self, out: &mut Vec<Candidate>) {
        if let Some(start) = self.open.take()
            && self.pos - start <= self.cap
        {
            out.push(Candidate {
                start,
                len: (self.pos - start) as usize,
            });
        }
        self.carry.clear();
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

    /// Inflates `candidates` of `file` (the whole file) ahead.
    pub fn add(&mut self, file: &[u8], candidates: &[Candidate]) {
        for c in candidates {
            let bytes = usize::try_from(c.start)
                .ok()
                .and_then(|at| file.get(at..at.checked_add(c.len)?));
            let result = bytes.and_then(|b| self.inflater.inflate(b));
            self.ready.push_back((c.start, c.len, result));
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
        let got = split_only(file, piece, opts);
        // Candidates are contiguous in the chain.
        for w in got.windows(2) {
            assert_eq!(w[0].start + w[0].len as u64, w[1].start);
        }
        got
    }

    fn split_only(file: &[u8], piece: usize, opts: &Options) -> Vec<Candidate> {
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
                let bytes = &file[c.start as usize..][..c.len];
                assert_eq!(inflater.inflate(bytes).as_deref(), Some(&t[..]));
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
        let (a, b, c) = (candidates[0], candidates[1], candidates[2]);
        let mut p = InlinePrefetch::new(&opts);
        p.add(&file, &candidates);
        assert_eq!(p.take(a.start, a.len + 1), Ahead::NotDone);
        assert_eq!(p.take(b.start, b.len), Ahead::Output(b"two".to_vec()));
        assert_eq!(p.take(b.start, b.len), Ahead::NotDone);
        assert_eq!(p.take(c.start, c.len), Ahead::Output(b"three".to_vec()));
        let mut p = InlinePrefetch::new(&opts);
        let fake = b"\x1f\x8b\x08 not really a member";
        let whole = Candidate {
            start: 0,
            len: fake.len(),
        };
        p.add(fake, &[whole, Candidate { start: 5, len: 100 }]);
        assert_eq!(p.take(0, fake.len()), Ahead::Rejected);
        assert_eq!(p.take(5, 100), Ahead::Rejected);
    }
}
