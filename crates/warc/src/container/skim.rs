//! The skim: a gzip member read only as far as its record's head, and the
//! next member found without inflating the rest — what an indexer needs of
//! a record that is often 20–200 KB compressed is its WARC header and HTTP
//! head, a few hundred bytes.
//!
//! # What the skim does
//!
//! At a member start (`Source::pos`), [`Source::skim`] parses the gzip
//! header, inflates the deflate stream a few KiB at a time, and after each
//! step asks the reader ([`Want`]) whether the decoded start is enough; the
//! reader answers with the length the member's whole output must have:
//! the record's WARC header, its declared `Content-Length` and the four
//! bytes of the two CRLFs that close a record (`T`). The skim then looks
//! for where the member ends, in the compressed bytes, without inflating
//! them: the first gzip magic (`1f 8b 08`) after the member's header that
//! starts a member whose first decoded bytes are `WARC/` (a *candidate*), or the end of the input when there is none. It accepts the
//! member as ending there only if the four bytes before that point — the
//! member's trailer ISIZE — equal `T` modulo 2³². The decoded start is
//! appended to the reader's buffer, `pos` moves to the end found, and the
//! reader makes the record from its head ([`crate::Content::Skim`]).
//!
//! # When a false end is taken
//!
//! The member really ends at the first real member start after it (or at
//! the end of the input, or where garbage starts, which the full path
//! reports). The skim takes a false end only if the compressed data of the
//! member holds a gzip magic that starts what decodes as a gzip member
//! beginning `WARC/` *and* the four bytes before it equal `T`:
//!
//! - **By chance, no.** In deflate output (Huffman-coded bits, close to
//!   uniformly random bytes) a magic appears once in 2²⁴ positions (about
//!   one member in 550 of 30 KB holds one); a position whose gzip header is
//!   invalid or whose deflate data fails at once is stepped over, and a
//!   position that decodes to anything but `WARC/` ends the skim (the full
//!   path reads the member), so a chance magic costs at worst a fallback.
//!   To be taken it would also need its 4 preceding bytes to equal `T`
//!   (2⁻³²) and a stream decoding `WARC/` (about 2⁻⁴⁰): below one in 10²⁰
//!   members. Damage that leaves the head, the next member and the
//!   trailer's length intact is not seen at all (below).
//! - **By construction, yes.** A deflate writer stores incompressible
//!   input raw (stored blocks), and a payload is chosen by whoever served
//!   it. A payload holding `T` (predictable to the server: the record's
//!   header fields have fixed or known lengths) followed by a whole gzip
//!   member of a made-up WARC record, padded with random bytes so the
//!   writer stores it, is taken for two members: the real record with a
//!   wrong length, and the made-up one, at an offset where a replay system
//!   would indeed find a gzip member holding it. Only the CRC-32 of the
//!   whole output would tell, and checking it means inflating everything.
//!   The test `a_crafted_payload_forges_a_record` shows it. This is why
//!   the skim is not the default of `spinneret index`, whose lines must be
//!   right on any input: it is for WARCs whose payloads are trusted.
//!
//! # What the skim does not see
//!
//! Bytes it does not inflate: damage inside the rest of the deflate data (a
//! flipped byte, a bad CRC-32) and the record's four closing bytes. A
//! record with such damage but an intact head and trailer gets its record
//! from its head, where the full path reports the member as corrupt.
//! Damage the skim can see — a wrong ISIZE, a truncated member, bytes
//! between members, a member that does not start a record — makes it fall
//! back, and the full path reports it exactly as without the skim.
//!
//! # When it falls back
//!
//! [`Source::skim`] returns `None`, with the source unchanged, and the full
//! path (whole-member inflate, or streaming) reads the member: not a gzip
//! file; a gzip header that does not parse; a deflate error in the decoded
//! start; a member that ends before the reader has its head (small records:
//! the whole member was inflated anyway); the reader's `No` (an ARC record,
//! a record the index needs whole); no candidate or a wrong ISIZE (trailing
//! garbage, several records in a member, a split record, a truncated file);
//! a member whose compressed size exceeds the source's window (streaming).

use miniz_oxide::inflate::TINFLStatus;
use miniz_oxide::inflate::core::inflate_flags::{
    TINFL_FLAG_HAS_MORE_INPUT, TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF,
};
use miniz_oxide::inflate::core::{DecompressorOxide, decompress};

use super::{GZIP_MAGIC, Source};
use crate::error::Container;

/// How much is inflated per step.
const STEP: usize = 1 << 10;
/// The most a skim inflates before giving up on a member (a head longer
/// than this is read by the full path).
const MAX_DECODED: usize = 256 << 10;
/// A member with another magic within this many bytes of its start is
/// left to the full path (see `skim_inner`).
const SMALL_MEMBER: usize = 4 << 10;
/// How far into a candidate member the skim looks for its `WARC/`.
const CANDIDATE_PEEK: usize = 1 << 10;

/// The reader's answer to a member's decoded start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// Not enough yet: inflate more.
    More,
    /// Enough: the member's whole output is this long (one record and its
    /// closing CRLFs).
    Done(u64),
    /// Not a record the skim may take: read the member in full.
    No,
}

/// The raw-deflate decoder a source reuses for its skims: miniz_oxide's
/// core with a non-wrapping output buffer, so that it decodes no further
/// than the room it is given (flate2's streaming decoder fills its 32 KiB
/// window first: on the benchmark WARC that was 70 % of the skim's time).
pub(crate) struct Skimmer {
    inflate: Box<DecompressorOxide>,
}

impl Skimmer {
    pub(crate) fn new() -> Skimmer {
        Skimmer {
            inflate: Box::default(),
        }
    }
}

/// Flags of every call: more input may follow; the output so far is all in
/// the buffer given.
const FLAGS: u32 = TINFL_FLAG_HAS_MORE_INPUT | TINFL_FLAG_USING_NON_WRAPPING_OUTPUT_BUF;

/// A gzip header's length, when `bytes` holds a valid one.
enum GzipHeader {
    Len(usize),
    /// More bytes are needed to tell.
    Short,
    Invalid,
}

/// RFC 1952 §2.3: ID1 ID2 CM FLG MTIME(4) XFL OS, then the optional
/// fields FLG names (FEXTRA, FNAME, FCOMMENT, FHCRC).
fn gzip_header(bytes: &[u8]) -> GzipHeader {
    const FHCRC: u8 = 2;
    const FEXTRA: u8 = 4;
    const FNAME: u8 = 8;
    const FCOMMENT: u8 = 16;
    if bytes.len() < 10 {
        return GzipHeader::Short;
    }
    let flags = bytes[3];
    if !bytes.starts_with(GZIP_MAGIC) || flags & 0xe0 != 0 {
        return GzipHeader::Invalid;
    }
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let Some(x) = bytes.get(at..at + 2) else {
            return GzipHeader::Short;
        };
        at += 2 + u16::from_le_bytes([x[0], x[1]]) as usize;
    }
    for flag in [FNAME, FCOMMENT] {
        if flags & flag != 0 {
            match bytes.get(at..).and_then(|rest| memchr::memchr(0, rest)) {
                Some(zero) => at += zero + 1,
                None => return GzipHeader::Short,
            }
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    if bytes.len() < at {
        GzipHeader::Short
    } else {
        GzipHeader::Len(at)
    }
}

/// What a gzip magic in the compressed data is.
enum Candidate {
    /// A member whose output starts `WARC/`.
    Record,
    /// Not a member start: a bad header, or deflate data that fails at once.
    Coincidence,
    /// A member of other content, or one that cannot be judged.
    Unsure,
}

impl Source<'_> {
    /// Skims the gzip member at `pos` (see the module doc): appends its
    /// decoded start to `out` and moves past the member, returning the
    /// member's file offset and the length of its whole output; or returns
    /// `None` with `out` and the source as they were.
    pub(crate) fn skim(
        &mut self,
        out: &mut Vec<u8>,
        want: &mut dyn FnMut(&[u8]) -> Want,
    ) -> Option<(u64, u64)> {
        if self.kind != Container::Gzip || self.member.is_some() || self.done {
            return None;
        }
        let start_len = out.len();
        let result = self.skim_inner(out, want);
        if result.is_none() {
            out.truncate(start_len);
        }
        result
    }

    fn skim_inner(
        &mut self,
        out: &mut Vec<u8>,
        want: &mut dyn FnMut(&[u8]) -> Want,
    ) -> Option<(u64, u64)> {
        let pos = self.pos;
        let start_len = out.len();
        let skimmer = self.skimmer.get_or_insert_with(Skimmer::new);
        let input = self.input.as_mut()?;
        input.seek(pos);
        // The window may grow to the member's compressed size, never past
        // what the full path could re-read (the bytes from `pos` are kept).
        let limit = input.retain.min(self.cap as u64);

        // 1. The gzip header.
        let header_len = loop {
            match gzip_header(input.avail(pos)) {
                GzipHeader::Len(n) => break n as u64,
                GzipHeader::Invalid => return None,
                GzipHeader::Short => {
                    if input.avail(pos).len() >= CANDIDATE_PEEK || !input.more() {
                        return None;
                    }
                }
            }
        };

        // A member whose next magic is near is most likely small (a request,
        // a metadata record): read whole, it costs one inflate, where a skim
        // would inflate it, give up at its end and leave it to the full path.
        let near = input.ensure(pos, SMALL_MEMBER);
        let near = &near[..near.len().min(SMALL_MEMBER)];
        if near.len() > header_len as usize
            && memchr::memmem::find(&near[header_len as usize..], GZIP_MAGIC).is_some()
        {
            return None;
        }

        // 2. The decoded start, until the reader has what it wants: the
        // output so far stays in `out[start_len..]` (the decoder's window),
        // and each call may add up to STEP bytes.
        let deflate_at = pos + header_len;
        skimmer.inflate.init();
        let (mut consumed, mut produced) = (0u64, 0usize);
        let total = loop {
            let room = produced + STEP;
            out.resize(start_len + room, 0);
            let bytes = input.avail(deflate_at + consumed);
            let (status, used, written) = decompress(
                &mut skimmer.inflate,
                bytes,
                &mut out[start_len..start_len + room],
                produced,
                FLAGS,
            );
            consumed += used as u64;
            produced += written;
            out.truncate(start_len + produced);
            match status {
                TINFLStatus::HasMoreOutput => {}
                TINFLStatus::NeedsMoreInput => {
                    if !input.more() {
                        return None;
                    }
                    if written == 0 {
                        continue;
                    }
                }
                // The end of a member this small (it is read whole by the
                // full path), or a deflate error (reported by it).
                _ => return None,
            }
            match want(&out[start_len..]) {
                Want::More if produced < MAX_DECODED => {}
                Want::More | Want::No => return None,
                Want::Done(total) => break total,
            }
        };

        // 3. Where the member ends: the first real member start after its
        // header, or the end of the input. (Not after the bytes inflated:
        // the decoder takes input ahead of its output, up to its 32 KiB
        // window, possibly past the member's end.)
        let mut from = deflate_at;
        let end = loop {
            if from - pos > limit {
                return None;
            }
            let (found, len) = {
                let bytes = input.avail(from);
                (memchr::memmem::find(bytes, GZIP_MAGIC), bytes.len())
            };
            if let Some(i) = found {
                let at = from + i as u64;
                let peek = input.ensure(at, CANDIDATE_PEEK);
                match candidate(peek, &mut skimmer.inflate) {
                    Candidate::Record => break at,
                    Candidate::Coincidence => {
                        from = at + 1;
                        continue;
                    }
                    Candidate::Unsure => return None,
                }
            }
            // A magic may straddle the end of the window: keep 2 bytes.
            from += len.saturating_sub(GZIP_MAGIC.len() - 1) as u64;
            if !input.more() {
                break input.end();
            }
        };
        // The trailer (CRC-32, ISIZE) is the member's last 8 bytes.
        if end < deflate_at + 8 {
            return None;
        }
        let trailer_from = end - 4;
        let isize_bytes = input.avail(trailer_from).get(..4)?;
        let isize = u32::from_le_bytes([
            isize_bytes[0],
            isize_bytes[1],
            isize_bytes[2],
            isize_bytes[3],
        ]);
        if isize != total as u32 {
            return None;
        }
        self.pos = end;
        input.seek(end);
        Some((pos, total))
    }
}

/// Whether `bytes` (from a gzip magic) start a member whose output starts
/// `WARC/`.
fn candidate(bytes: &[u8], inflate: &mut DecompressorOxide) -> Candidate {
    let header_len = match gzip_header(bytes) {
        GzipHeader::Len(n) => n,
        GzipHeader::Invalid => return Candidate::Coincidence,
        GzipHeader::Short => return Candidate::Unsure,
    };
    inflate.init();
    let mut first = [0u8; 5];
    let (status, _, written) = decompress(inflate, &bytes[header_len..], &mut first, 0, FLAGS);
    match status {
        TINFLStatus::Failed | TINFLStatus::FailedCannotMakeProgress | TINFLStatus::BadParam => {
            Candidate::Coincidence
        }
        _ if written == 5 && &first == b"WARC/" => Candidate::Record,
        _ => Candidate::Unsure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_headers() {
        let plain = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
        assert!(matches!(gzip_header(&plain), GzipHeader::Len(10)));
        assert!(matches!(gzip_header(&plain[..9]), GzipHeader::Short));
        let mut reserved = plain;
        reserved[3] = 0x20;
        assert!(matches!(gzip_header(&reserved), GzipHeader::Invalid));
        let mut cm = plain;
        cm[2] = 7;
        assert!(matches!(gzip_header(&cm), GzipHeader::Invalid));
        // FEXTRA (2 bytes), FNAME, FCOMMENT, FHCRC.
        let mut all = plain.to_vec();
        all[3] = 4 | 8 | 16 | 2;
        all.extend_from_slice(&[2, 0, b'x', b'y', b'a', 0, b'c', 0, 0xaa, 0xbb]);
        assert!(matches!(gzip_header(&all), GzipHeader::Len(20)));
        assert!(matches!(gzip_header(&all[..19]), GzipHeader::Short));
        assert!(matches!(gzip_header(&all[..15]), GzipHeader::Short));
    }
}
