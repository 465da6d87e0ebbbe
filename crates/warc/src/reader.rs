//! The record iterator: WARC and ARC headers over the decoded stream of the
//! container layer, with resynchronization after every kind of damage.
//!
//! Invariants:
//! - `buf[pos..]` is decoded data not yet consumed; `base` is the decoded
//!   stream position of `buf[0]`; `members` maps decoded positions to the file
//!   offsets of the members they came from.
//! - A record is produced only when its whole block is in `buf` *and* the
//!   bytes after it (CR/LF skipped) are the end of the data or a record
//!   header. A record that fails this is reported and the reader rescans from
//!   the end of its header, so a damaged length cannot swallow good records.
//! - A record that ends, but for its CR/LFs, where a whole gzip member's
//!   output ends (`member_end`) is at a record boundary without reading the
//!   next member; when the buffer holds nothing after it, the record takes
//!   the buffer and its payload is a range of it ([`crate::Body`]), not a
//!   copy. `base` then moves past the buffer and a new one starts.
//! - A barrier (corrupt member, skipped garbage) ends the data a record can
//!   use; it is crossed, and its error reported, once everything before it is
//!   consumed. Inside the output of a corrupt member a record is produced only
//!   if another record header follows it within that output.

use std::collections::VecDeque;
use std::io::Read;

use crate::arc_header::{ArcHeader, MAX_ARC_LINE, parse_arc_line};
use crate::container::{Fill, Source};
use crate::error::{Container, HeaderProblem, RecordError};
use crate::record::Record;
use crate::record_build::{Block, build};
use crate::warc_header::{self, MAX_HEADER};

/// Limits of the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Records whose block (WARC Content-Length / ARC length) is larger are
    /// skipped with [`RecordError::TooLarge`]. Default 64 MiB.
    pub max_record_size: u64,
    /// The decoded HTTP body is cut at this size (with
    /// [`crate::BodyError::TooLarge`]). Default 64 MiB.
    pub max_body_size: usize,
    /// What a record carries of its block. Default [`Content::Payload`].
    pub content: Content,
}

/// What a [`Record`] carries of its block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Content {
    /// The payload of `response` and `resource` records, decoded (transfer
    /// and content codings removed), in [`Record::body`], and the JSON
    /// block of a WAT's `metadata` records (`Content-Type:
    /// application/json`); other types carry their headers only. What a
    /// link extractor reads.
    #[default]
    Payload,
    /// Every record's block as stored, in [`Record::block`]; nothing
    /// decoded (the HTTP head of `response` and `revisit` records is still
    /// parsed). What a verifier hashes.
    Block,
    /// The first N bytes of every record's block in [`Record::block`]
    /// (the HTTP head and the start of the payload); the rest of a longer
    /// block is read and dropped as it streams by. A record of any size is
    /// produced ([`Options::max_record_size`] does not apply) in memory
    /// bounded by N. What an indexer reads. A longer record whose block is
    /// not followed by a record boundary is reported
    /// ([`RecordError::BadBoundary`]) and reading resumes after its
    /// declared block, not inside it: the block was not kept.
    Head(usize),
    /// As [`Content::Head`], but a gzip member that holds one `response` or
    /// `resource` record of 16 KiB or more with a `WARC-Payload-Digest` is
    /// *skimmed*: inflated only through the block's HTTP head (a
    /// `resource`: not into its block), its end found by the next member's
    /// magic and its trailer's ISIZE, the rest not inflated. The record's
    /// [`Record::block`] is then the block's decoded start, and every other
    /// field is what [`Content::Head`] gives. Any member the skim does not
    /// take is read as [`Content::Head`] reads it. What it does not see
    /// (`container/skim.rs` has the details): damage inside the bytes not
    /// inflated, which [`Content::Head`] reports as a corrupt member; and a
    /// payload crafted to hold, stored raw by the writer's deflate, the
    /// record's length and a gzip member of a made-up record, which the
    /// skim takes for two records. For files whose payloads are trusted.
    Skim(usize),
}

impl Default for Options {
    fn default() -> Self {
        Options {
            max_record_size: 64 << 20,
            max_body_size: 64 << 20,
            content: Content::Payload,
        }
    }
}

struct Barrier {
    error: RecordError,
    suspect_from: Option<usize>,
}

/// An iterator over the records of one WARC or ARC file, held in memory
/// ([`Reader::new`]) or streamed from a reader ([`Reader::from_read`]).
///
/// ```
/// let data = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 4\r\n\r\n<p>x\r\n\r\n";
/// let recs: Vec<_> = spinneret_warc::Reader::new(data).collect();
/// let rec = recs[0].as_ref().unwrap();
/// assert!(rec.is_html());
/// assert_eq!(rec.body, b"<p>x");
/// ```
pub struct Reader<'a> {
    src: Source<'a>,
    opts: Options,
    buf: Vec<u8>,
    pos: usize,
    base: u64,
    members: VecDeque<(u64, u64)>,
    barrier: Option<Barrier>,
    eof: bool,
    arc: bool,
    pending: VecDeque<RecordError>,
    /// Largest capacity `buf` reached.
    peak: usize,
    /// The decoded stream position where the last fill ended, when that fill
    /// was one whole member (so the next member's output starts there).
    member_end: Option<u64>,
    /// The decoded stream position up to which records (or damage) were
    /// consumed before the current record: a record starts its member when
    /// its member started at or after it (only separators between).
    consumed_to: u64,
    /// Whether the last record judged by `boundary_after` ended where a
    /// member ends (a member starts between its block and what follows,
    /// or the data ends there).
    ends_member: bool,
}

/// A record header, WARC or ARC, as the steps after it need it.
pub(crate) struct Header {
    /// The WARC version line, or `ARC`.
    pub version: String,
    /// The WARC named fields (none for ARC).
    pub fields: Vec<(String, String)>,
    /// The ARC header line, for an ARC record.
    pub arc: Option<ArcHeader>,
    /// The record's target URI (an ARC record's URL).
    pub target_uri: Option<String>,
    /// The block length the header declares.
    pub length: u64,
    /// The index in the reader's buffer just past the header.
    pub end: usize,
}

/// A header that could not be read: what is wrong, and where in the
/// reader's buffer to resume looking for a record.
struct BadHeader {
    problem: HeaderProblem,
    resume_at: usize,
}

/// What follows a record's block.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Boundary {
    /// Only CR/LFs up to the end of a whole member, whose buffer the record
    /// may take.
    EndOfMember,
    /// Nothing more: the end of the data or a barrier.
    EndOfData,
    /// A record header, or the start of a member.
    Record,
    /// Anything else: the declared length is wrong.
    Damaged,
}

enum Search {
    Found(usize),
    /// Not found; rescan from this index once more data is available.
    NotFound(usize),
}

impl<'a> Reader<'a> {
    /// A reader with default [`Options`].
    pub fn new(data: &'a [u8]) -> Self {
        Self::with_options(data, Options::default())
    }

    /// A reader with the given limits.
    pub fn with_options(data: &'a [u8], opts: Options) -> Self {
        Self::with_source(Source::new(data, Self::cap(&opts)), opts)
    }

    /// A streaming reader: the file is read from `reader` as records are
    /// needed (in 64 KiB reads; no `BufReader` is needed). It yields exactly
    /// the records and errors of [`Reader::with_options`] over the same
    /// bytes, whatever sizes `reader`'s reads return, except in two damaged
    /// cases no record-sized window can cover (a failing gzip member or zstd
    /// frame whose compressed size exceeds `max_record_size` + 256 KiB is
    /// rescanned only from its last retained bytes; a zstd dictionary frame
    /// that large is skipped). A read error is reported as
    /// [`RecordError::Io`] and ends the iteration.
    ///
    /// Memory: the current record (at most `max_record_size` plus its
    /// header), one decoding step of the same size, and the compressed bytes
    /// of the open member up to that size; see [`Reader::peak_buffer`].
    ///
    /// ```
    /// let data: &[u8] = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 4\r\n\r\n<p>x\r\n\r\n";
    /// let opts = spinneret_warc::Options::default();
    /// let recs: Vec<_> = spinneret_warc::Reader::from_read(data, opts).collect();
    /// assert_eq!(recs[0].as_ref().unwrap().body, b"<p>x");
    /// ```
    pub fn from_read<R: Read + 'a>(reader: R, opts: Options) -> Self {
        Self::with_source(Source::from_read(Box::new(reader), Self::cap(&opts)), opts)
    }

    /// A streaming reader as [`Reader::from_read`], whose whole gzip
    /// members are first asked of `prefetch` (inflated ahead, typically on
    /// other threads: see [`crate::ahead`]). It yields exactly the records
    /// and errors of [`Reader::from_read`] over the same bytes, provided
    /// `prefetch` keeps its contract (answers computed by
    /// [`MemberInflater`](crate::ahead::MemberInflater) on those very bytes).
    ///
    /// ```
    /// use spinneret_warc::ahead::{InlinePrefetch, Splitter};
    /// use spinneret_warc::{Options, Reader};
    /// # fn gz(b: &[u8]) -> Vec<u8> { use std::io::Write;
    /// #   let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    /// #   e.write_all(b).unwrap(); e.finish().unwrap() }
    /// let record = b"WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 4\r\n\r\n<p>x\r\n\r\n";
    /// let file = [gz(record), gz(record)].concat();
    /// let opts = Options::default();
    /// // Cut and inflate ahead (here on this thread; a caller would use others).
    /// let (mut splitter, mut candidates) = (Splitter::new(&opts), Vec::new());
    /// splitter.push(&file, &mut candidates);
    /// splitter.finish(&mut candidates);
    /// let mut prefetch = InlinePrefetch::new(&opts);
    /// prefetch.add(&file, &candidates);
    /// let reader = Reader::from_read_ahead(&file[..], opts, Box::new(prefetch));
    /// let offsets: Vec<u64> = reader.map(|r| r.unwrap().offset).collect();
    /// assert_eq!(offsets, [0, file.len() as u64 / 2]);
    /// ```
    pub fn from_read_ahead<R: Read + 'a>(
        reader: R,
        opts: Options,
        prefetch: Box<dyn crate::ahead::Prefetch + 'a>,
    ) -> Self {
        let mut src = Source::from_read(Box::new(reader), Self::cap(&opts));
        src.set_prefetch(prefetch);
        Self::with_source(src, opts)
    }

    pub(crate) fn cap(opts: &Options) -> usize {
        usize::try_from(opts.max_record_size)
            .unwrap_or(usize::MAX)
            .saturating_add(MAX_HEADER)
    }

    fn with_source(src: Source<'a>, opts: Options) -> Self {
        let arc = src.arc_start();
        Reader {
            src,
            opts,
            buf: Vec::new(),
            pos: 0,
            base: 0,
            members: VecDeque::new(),
            barrier: None,
            eof: false,
            arc,
            pending: VecDeque::new(),
            peak: 0,
            member_end: None,
            consumed_to: 0,
            ends_member: true,
        }
    }

    /// The largest capacity, in bytes, that the reader's buffers reached
    /// so far: the decoded-record buffer plus, for a streaming reader, the
    /// window of compressed input (a slice reader has no window). The bound
    /// for memory, apart from the decoders' fixed state and the records
    /// handed out.
    pub fn peak_buffer(&self) -> usize {
        self.peak + self.src.peak_window()
    }

    /// Input bytes read so far (for a slice reader, the slice's length).
    /// After the last item, the size of the input.
    pub fn bytes_read(&self) -> u64 {
        self.src.bytes_read()
    }

    /// The detected container.
    pub fn container(&self) -> Container {
        self.src.kind()
    }

    /// File offset of the decoded byte at `buf[i]`.
    fn offset_of(&self, i: usize) -> u64 {
        let abs = self.base + i as u64;
        if self.src.kind() == Container::Plain {
            return abs;
        }
        self.members
            .iter()
            .rev()
            .find(|(d, _)| *d <= abs)
            .map_or(0, |&(_, f)| f)
    }

    /// Ensures `n` bytes after `pos`; false at end of data or a barrier.
    fn need(&mut self, n: usize) -> bool {
        while self.buf.len() - self.pos < n {
            if self.barrier.is_some() || self.eof {
                return false;
            }
            let before = self.buf.len();
            self.member_end = None;
            match self.src.fill(&mut self.buf) {
                Fill::Data { member, whole } => {
                    if let Some(off) = member {
                        self.members.push_back((self.base + before as u64, off));
                    }
                    if whole {
                        self.member_end = Some(self.base + self.buf.len() as u64);
                    }
                }
                Fill::Corrupt {
                    offset,
                    detail,
                    output_from,
                } => {
                    if self.buf.len() > output_from {
                        self.members
                            .push_back((self.base + output_from as u64, offset));
                    }
                    self.barrier = Some(Barrier {
                        error: RecordError::CorruptMember {
                            offset,
                            container: self.src.kind(),
                            detail,
                        },
                        suspect_from: Some(output_from),
                    });
                }
                Fill::Garbage { offset, len } => {
                    self.barrier = Some(Barrier {
                        error: RecordError::Garbage { offset, len },
                        suspect_from: None,
                    });
                }
                Fill::Io {
                    offset,
                    detail,
                    member,
                } => {
                    if let Some((from, member)) = member
                        && self.buf.len() > from
                    {
                        self.members.push_back((self.base + from as u64, member));
                    }
                    self.barrier = Some(Barrier {
                        error: RecordError::Io { offset, detail },
                        suspect_from: member.map(|(from, _)| from),
                    });
                }
                Fill::Eof => self.eof = true,
            }
            self.peak = self.peak.max(self.buf.capacity());
        }
        true
    }

    /// Drops consumed bytes.
    fn compact(&mut self) {
        if self.pos == 0 || (self.pos < (1 << 20) && self.pos * 2 < self.buf.len()) {
            return;
        }
        let pos = self.pos;
        self.buf.drain(..pos);
        self.base += pos as u64;
        self.pos = 0;
        if let Some(b) = &mut self.barrier {
            b.suspect_from = b.suspect_from.map(|s| s.saturating_sub(pos));
        }
        self.forget_members_before_base();
    }

    /// Drops the member starts no longer needed for [`Reader::offset_of`]
    /// of positions from `base` on.
    fn forget_members_before_base(&mut self) {
        while self.members.len() > 1 && self.members[1].0 <= self.base {
            self.members.pop_front();
        }
    }

    /// Whether bytes at `buf[i..]` (all data available) start a record.
    fn starts_record(&self, i: usize) -> bool {
        let rest = &self.buf[i..];
        if rest.starts_with(b"WARC/") {
            return true;
        }
        if rest.len() < 5 && b"WARC/".starts_with(rest) {
            return true;
        }
        let line = match memchr::memchr(b'\n', &rest[..rest.len().min(MAX_ARC_LINE)]) {
            Some(n) => &rest[..n],
            None => &rest[..rest.len().min(MAX_ARC_LINE)],
        };
        parse_arc_line(line).is_some()
    }

    /// Looks for the next record start at a line start in `buf[from..]`.
    fn search(&self, from: usize) -> Search {
        let mut i = from;
        loop {
            if i >= self.buf.len() {
                return Search::NotFound(self.buf.len());
            }
            let rest = &self.buf[i..];
            let is_start = if rest.len() < 8 {
                return Search::NotFound(i);
            } else if rest.starts_with(b"WARC/1.") || rest.starts_with(b"WARC/0.") {
                true
            } else if self.arc {
                match memchr::memchr(b'\n', &rest[..rest.len().min(MAX_ARC_LINE)]) {
                    Some(n) => parse_arc_line(&rest[..n]).is_some(),
                    None if rest.len() >= MAX_ARC_LINE => false,
                    None => return Search::NotFound(i),
                }
            } else {
                false
            };
            if is_start {
                return Search::Found(i);
            }
            match memchr::memchr(b'\n', rest) {
                Some(n) => i += n + 1,
                None => return Search::NotFound(i),
            }
        }
    }

    /// Moves `pos` to the next record start at or after `from`, reading more
    /// data as needed (never past a barrier).
    fn resync(&mut self, from: usize) {
        let mut from = from.min(self.buf.len());
        loop {
            match self.search(from) {
                Search::Found(i) => {
                    self.pos = i;
                    return;
                }
                Search::NotFound(resume) => {
                    self.pos = resume;
                    let want = self.buf.len() - resume + 1;
                    if !self.need(want) {
                        // End of data or barrier: nothing more to find here.
                        if self.buf.len() - self.pos < 8 {
                            self.pos = self.buf.len();
                            return;
                        }
                        // A short tail: scan it to its end.
                        match self.search_tail(resume) {
                            Some(i) => self.pos = i,
                            None => self.pos = self.buf.len(),
                        }
                        return;
                    }
                    from = resume;
                }
            }
        }
    }

    /// `search` for the final bytes before a barrier / end of data, where an
    /// incomplete last line is all there is.
    fn search_tail(&self, from: usize) -> Option<usize> {
        let mut i = from;
        while i < self.buf.len() {
            if self.starts_record(i) && self.buf.len() - i >= 8 {
                return Some(i);
            }
            i += memchr::memchr(b'\n', &self.buf[i..])? + 1;
        }
        None
    }

    fn suspect(&self, i: usize) -> bool {
        self.barrier
            .as_ref()
            .and_then(|b| b.suspect_from)
            .is_some_and(|s| i >= s)
    }

    /// Parses the record at `pos`; None when nothing is to be reported.
    ///
    /// The steps: the header (a WARC header block or an ARC header line,
    /// giving the block length); a block over the size limit is skipped; the
    /// whole block must be available; the bytes after it must be a record
    /// boundary; then the record is built. Every failure is reported (unless
    /// it lies in a corrupt member's output) and the reader resynchronizes.
    fn record_at(&mut self) -> Option<Result<Record, RecordError>> {
        let start = self.pos;
        self.need(8);
        let offset = self.offset_of(start);
        let stream_offset = self.base + start as u64;
        let starts_member = self.starts_member(stream_offset);
        self.ends_member = true;
        let item = self.record_at_inner(start, offset, stream_offset);
        self.consumed_to = self.base + self.pos as u64;
        let plain = self.src.kind() == Container::Plain;
        let ends_member = plain || self.ends_member;
        item.map(|r| {
            r.map(|mut rec| {
                rec.starts_member = starts_member;
                rec.ends_member = ends_member;
                rec
            })
        })
    }

    /// Whether a record at decoded position `at` starts its member: the
    /// member holds nothing of what came before it (a plain file: always).
    fn starts_member(&self, at: u64) -> bool {
        if self.src.kind() == Container::Plain {
            return true;
        }
        self.members
            .iter()
            .rev()
            .find(|(d, _)| *d <= at)
            .is_some_and(|&(d, _)| d >= self.consumed_to)
    }

    fn record_at_inner(
        &mut self,
        start: usize,
        offset: u64,
        stream_offset: u64,
    ) -> Option<Result<Record, RecordError>> {
        // 1. The header.
        let header = match self.read_header(start) {
            Ok(header) => header,
            Err(bad) => {
                return self.report_and_resync(
                    start,
                    bad.resume_at,
                    RecordError::BadHeader {
                        offset,
                        problem: bad.problem,
                    },
                );
            }
        };
        // 2. Too large: skip without keeping it; or, reading heads only,
        // keep the head and skip the rest.
        match self.opts.content {
            Content::Head(n) | Content::Skim(n) if header.length > n as u64 => {
                let stored_len = (header.end - start) as u64 + header.length;
                return self.record_by_head(start, offset, header, n).map(|r| {
                    r.map(|mut rec| {
                        rec.stream_offset = stream_offset;
                        rec.stored_len = stored_len;
                        rec
                    })
                });
            }
            Content::Head(_) | Content::Skim(_) => {}
            Content::Payload | Content::Block => {
                if header.length > self.opts.max_record_size {
                    return self.skip_too_large(start, offset, header);
                }
            }
        }
        // 3. The whole block.
        let header_end = header.end;
        let end = header_end + header.length as usize;
        if !self.need(end - start) {
            let error = RecordError::Truncated {
                offset,
                declared: header.length,
                available: (self.buf.len() - header_end) as u64,
                target_uri: header.target_uri,
            };
            return self.report_and_resync(start, header_end, error);
        }
        // 4. The boundary after it.
        let boundary = self.boundary_after(start, end);
        if boundary == Boundary::Damaged {
            let error = RecordError::BadBoundary {
                offset,
                target_uri: header.target_uri,
            };
            return self.report_and_resync(start, header_end, error);
        }
        let suspect = self.suspect(start);
        self.pos = end;
        if suspect && boundary == Boundary::EndOfData {
            // The last record of a corrupt member's output: not trusted.
            return None;
        }
        // 5. The record. A buffer that holds just this record (and not much
        // spare room) goes with it: its payload is not copied.
        let block =
            if boundary == Boundary::EndOfMember && self.buf.capacity() <= 2 * self.buf.len() {
                let buf = std::mem::take(&mut self.buf);
                self.base += buf.len() as u64;
                self.pos = 0;
                self.forget_members_before_base();
                Block::Owned(buf, header_end..end)
            } else {
                Block::Borrowed(&self.buf[header_end..end])
            };
        Some(build(header, offset, block, &self.opts).map(|mut rec| {
            rec.stream_offset = stream_offset;
            rec.stored_len = (end - start) as u64;
            rec
        }))
    }

    /// The record at `start` from the first `n` bytes of its block
    /// ([`Content::Head`]); the rest of the block is read and dropped.
    fn record_by_head(
        &mut self,
        start: usize,
        offset: u64,
        header: Header,
        n: usize,
    ) -> Option<Result<Record, RecordError>> {
        let suspect = self.suspect(start);
        let header_end = header.end;
        self.need(header_end - start + n);
        let kept = (self.buf.len() - header_end).min(n);
        let head = self.buf[header_end..header_end + kept].to_vec();
        self.pos = header_end;
        let skipped = self.skip_block(header.length);
        let report = |this: &mut Self, error: RecordError| {
            let at = this.pos;
            this.resync(at);
            (!suspect).then_some(Err(error))
        };
        if skipped < header.length {
            let error = RecordError::Truncated {
                offset,
                declared: header.length,
                available: skipped,
                target_uri: header.target_uri,
            };
            return report(self, error);
        }
        let end = self.pos;
        let boundary = self.boundary_after(end, end);
        if boundary == Boundary::Damaged {
            let error = RecordError::BadBoundary {
                offset,
                target_uri: header.target_uri,
            };
            return report(self, error);
        }
        if suspect && boundary == Boundary::EndOfData {
            return None;
        }
        let length = header.length;
        let range = 0..head.len();
        Some(
            build(header, offset, Block::Owned(head, range), &self.opts).map(|mut rec| {
                rec.block_len = length;
                rec
            }),
        )
    }

    /// Moves `pos` past up to `len` bytes, reading and dropping data as it
    /// goes; the bytes skipped (fewer at the end of the data or a barrier).
    fn skip_block(&mut self, len: u64) -> u64 {
        let mut remaining = len;
        while remaining > 0 {
            if self.pos == self.buf.len() {
                self.compact();
                if !self.need(1) {
                    break;
                }
            }
            let take = remaining.min((self.buf.len() - self.pos) as u64);
            self.pos += take as usize;
            remaining -= take;
        }
        len - remaining
    }

    /// Reads the header at `buf[start..]`: a WARC header block when the
    /// record starts `WARC/`, an ARC header line otherwise.
    fn read_header(&mut self, start: usize) -> Result<Header, BadHeader> {
        if self.buf[start..].starts_with(b"WARC/") {
            self.read_warc_header(start)
        } else {
            self.read_arc_header(start)
        }
    }

    /// Reads more data until the WARC header block at `buf[start..]` is
    /// complete, then parses it. An unterminated header resumes the scan
    /// just after `start`; a bad `Content-Length`, after the header.
    fn read_warc_header(&mut self, start: usize) -> Result<Header, BadHeader> {
        let end = loop {
            if let Some(len) = warc_header::header_len(&self.buf[start..]) {
                break start + len;
            }
            let have = self.buf.len() - start;
            if have >= MAX_HEADER || !self.need(have + 1) {
                return Err(BadHeader {
                    problem: HeaderProblem::Unterminated(MAX_HEADER),
                    resume_at: start + 1,
                });
            }
        };
        let header =
            warc_header::parse_warc_header(&self.buf[start..end]).map_err(|problem| BadHeader {
                problem,
                resume_at: end,
            })?;
        Ok(Header {
            version: header.version,
            fields: header.fields,
            target_uri: header.target_uri,
            length: header.length,
            arc: None,
            end,
        })
    }

    /// Reads the ARC header line at `buf[start..]` (up to [`MAX_ARC_LINE`]
    /// bytes or the end of the data) and parses it; a line that is not an
    /// ARC header resumes the scan just after `start`. A good one marks the
    /// file as ARC, so that resynchronization looks for ARC lines too.
    fn read_arc_header(&mut self, start: usize) -> Result<Header, BadHeader> {
        let end = loop {
            let have = self.buf.len() - start;
            if let Some(n) = memchr::memchr(b'\n', &self.buf[start..]) {
                break start + n + 1;
            }
            if have >= MAX_ARC_LINE || !self.need(have + 1) {
                break self.buf.len();
            }
        };
        let line = &self.buf[start..end];
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(arc) = parse_arc_line(line) else {
            return Err(BadHeader {
                problem: HeaderProblem::NotARecord,
                resume_at: start + 1,
            });
        };
        self.arc = true;
        Ok(Header {
            version: "ARC".to_string(),
            fields: Vec::new(),
            target_uri: Some(arc.url.clone()),
            length: arc.length,
            arc: Some(arc),
            end,
        })
    }

    /// Skips a record whose block is over [`Options::max_record_size`]
    /// without keeping it, reading and dropping data as it goes.
    fn skip_too_large(
        &mut self,
        start: usize,
        offset: u64,
        header: Header,
    ) -> Option<Result<Record, RecordError>> {
        let suspect = self.suspect(start);
        self.pos = header.end;
        self.skip_block(header.length);
        if suspect {
            return None;
        }
        Some(Err(RecordError::TooLarge {
            offset,
            length: header.length,
            limit: self.opts.max_record_size,
            target_uri: header.target_uri,
        }))
    }

    /// Whether the block of the record at `start`, which ends at `end` (and
    /// is in `buf`), is followed by a record boundary.
    ///
    /// When only the block's CR/LFs follow it, up to where a whole member
    /// ended, the next member starts a record boundary whatever it holds (a
    /// record that ends where a member starts, possibly a corrupt one, ends
    /// at a record boundary): it is not read yet, and the record can take
    /// the buffer ([`Boundary::EndOfMember`]).
    fn boundary_after(&mut self, start: usize, end: usize) -> Boundary {
        let ends_member = self.barrier.is_none()
            && self.member_end == Some(self.base + self.buf.len() as u64)
            && self.buf.len() - end <= 8
            && self.buf[end..].iter().all(|&b| matches!(b, b'\r' | b'\n'));
        if !ends_member {
            self.need(end - start + 16);
        }
        let mut after = end;
        while after < self.buf.len() && after < end + 8 && matches!(self.buf[after], b'\r' | b'\n')
        {
            after += 1;
        }
        if after == end + 8 {
            while after < self.buf.len() && matches!(self.buf[after], b'\r' | b'\n') {
                after += 1;
                if after - end > 64 {
                    break;
                }
            }
        }
        if after < self.buf.len() {
            // Make sure an ARC line is complete before judging it.
            if !self.buf[after..].starts_with(b"WARC/")
                && memchr::memchr(b'\n', &self.buf[after..]).is_none()
            {
                let have = self.buf.len() - start;
                self.need(have + MAX_ARC_LINE.min(4096));
            }
        }
        let at_end = after >= self.buf.len();
        let (lo, hi) = (self.base + end as u64, self.base + after as u64);
        let member_boundary = self.members.iter().any(|&(d, _)| (lo..=hi).contains(&d))
            || self
                .barrier
                .as_ref()
                .and_then(|b| b.suspect_from)
                .is_some_and(|s| (end..=after).contains(&s));
        self.ends_member = ends_member || at_end || member_boundary;
        if ends_member {
            Boundary::EndOfMember
        } else if at_end {
            Boundary::EndOfData
        } else if member_boundary || self.starts_record(after) {
            Boundary::Record
        } else {
            Boundary::Damaged
        }
    }

    /// Reports `error` about the record at `start` — unless the record lies
    /// in a corrupt member's output, where it is dropped silently — after
    /// moving to the next record start at or after `resume_at`.
    fn report_and_resync(
        &mut self,
        start: usize,
        resume_at: usize,
        error: RecordError,
    ) -> Option<Result<Record, RecordError>> {
        let suspect = self.suspect(start);
        self.resync(resume_at);
        if suspect {
            return None;
        }
        Some(Err(error))
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Record, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(e) = self.pending.pop_front() {
                return Some(Err(e));
            }
            self.compact();
            // Skip separators between records.
            loop {
                while self.pos < self.buf.len()
                    && matches!(self.buf[self.pos], b'\r' | b'\n' | b' ' | b'\t' | 0)
                {
                    self.pos += 1;
                }
                if self.pos < self.buf.len() {
                    break;
                }
                self.compact();
                if let Some(item) = self.skim_record() {
                    return Some(item);
                }
                if !self.need(1) {
                    break;
                }
            }
            if self.pos >= self.buf.len() {
                match self.barrier.take() {
                    Some(b) => {
                        self.base += self.buf.len() as u64;
                        self.buf.clear();
                        self.pos = 0;
                        return Some(Err(b.error));
                    }
                    None => return None,
                }
            }
            if let Some(item) = self.record_at() {
                return Some(item);
            }
        }
    }
}

#[cfg(test)]
mod tests;

mod skim;
