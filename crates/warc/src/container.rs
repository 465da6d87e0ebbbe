//! The container layer: turns a file's bytes into the decoded record stream,
//! member by member, reporting damage instead of stopping.
//!
//! The compressed bytes come from an [`Input`]: either a slice holding the
//! whole file (nothing is copied or dropped) or a [`Read`] seen through a
//! window that is refilled in `READ_STEP` reads and from which consumed bytes
//! are dropped. Both go through the same code below, so a stream yields the
//! same [`Fill`] sequence as the slice of the same bytes, whatever the sizes
//! its `read` calls return: every step is defined by file offsets, and a
//! step only ends early at end of input.
//!
//! Invariants:
//! - `pos` is always the file offset of the next input byte not yet consumed
//!   by a finished member; an open member decodes from `member_start`.
//! - A member whose output fits in `cap` bytes is decoded completely (so its
//!   CRC/checksum is verified) before any of its output is handed out; larger
//!   members are streamed in `cap`-sized steps.
//! - After a member fails, decoding resumes at the next member magic after its
//!   first byte; the skipped bytes are not reported a second time.
//! - A stream window holds at most the compressed bytes of the open member
//!   (from its start, but no more than `retain` bytes behind the decoder's
//!   cursor) plus one read step; when idle, only the bytes from the scan
//!   position on. `retain` is the record cap, so memory stays bounded by
//!   the record size. Two consequences, for streams only: when a member
//!   whose compressed size exceeds `retain` fails, the rescan for the next
//!   magic starts at the oldest retained byte instead of the member's second
//!   byte; and a zstd dictionary frame larger than `retain` is treated as
//!   truncated (skipped).
//! - A read error ends the input: it is reported once ([`Fill::Io`]), then
//!   the source is at end of input.

use std::io::{self, BufRead, Read};

use crate::ahead::{Ahead, Prefetch};
use crate::error::Container;
use crate::inflate::GzipInflater;

mod skim;
use skim::Skimmer;
pub(crate) use skim::Want;

pub(crate) const GZIP_MAGIC: &[u8] = b"\x1f\x8b\x08";
/// The shortest gzip member: a 10-byte header, an empty block, an 8-byte
/// trailer.
pub(crate) const MIN_MEMBER: usize = 18;
const ZSTD_MAGIC: &[u8] = b"\x28\xb5\x2f\xfd";
/// The little-endian magic of the zstd skippable frame that carries a WARC
/// dictionary (`0x184D2A5D`).
const ZSTD_DICT_MAGIC: &[u8] = b"\x5d\x2a\x4d\x18";
const READ_STEP: usize = 64 * 1024;
/// Plain files are handed out in steps of this size.
const PLAIN_STEP: usize = 1 << 20;
/// How far container detection looks for a member magic.
const DETECT_HEAD: usize = 1 << 20;

/// One step of the container layer.
#[derive(Debug)]
pub(crate) enum Fill {
    /// Bytes were appended. `member` is the file offset of the member whose
    /// output starts with the appended bytes (None: continuation of an open
    /// member, or plain data). `whole`: the bytes are one whole member's
    /// output, so the next member's output starts right after them.
    Data { member: Option<u64>, whole: bool },
    /// The member at `offset` failed; its output decoded so far was appended
    /// after `output_from` (an index into the output buffer).
    Corrupt {
        offset: u64,
        detail: String,
        output_from: usize,
    },
    /// `len` unrecognized bytes at `offset` were skipped.
    Garbage { offset: u64, len: u64 },
    /// Reading the input failed at file offset `offset`; nothing more is
    /// read. `member`: when a member was open, the index into the output
    /// buffer from which its output of this step was appended (not trusted,
    /// as for `Corrupt`) and the member's file offset.
    Io {
        offset: u64,
        detail: String,
        member: Option<(usize, u64)>,
    },
    /// End of input.
    Eof,
}

/// The compressed bytes: a whole slice, or a window over a reader.
///
/// Invariants: `win()[0]` is the byte at file offset `start`; `cursor ≥
/// start` is the `BufRead` position (what a member decoder has consumed);
/// bytes before `keep.min(cursor)` may be dropped, and bytes more than
/// `retain` behind the cursor are dropped at the next refill.
pub(crate) struct Input<'a> {
    slice: &'a [u8],
    reader: Option<Box<dyn Read + 'a>>,
    /// The window is `buf[..filled]`; the rest of `buf` is initialized
    /// room for the next reads (zeroed once, when the window grows).
    buf: Vec<u8>,
    filled: usize,
    start: u64,
    cursor: u64,
    keep: u64,
    retain: u64,
    eof: bool,
    error: Option<(u64, String)>,
    peak: usize,
}

impl<'a> Input<'a> {
    fn from_slice(data: &'a [u8]) -> Self {
        Input {
            slice: data,
            reader: None,
            buf: Vec::new(),
            filled: 0,
            start: 0,
            cursor: 0,
            keep: 0,
            retain: u64::MAX,
            eof: true,
            error: None,
            peak: 0,
        }
    }

    fn from_read(reader: Box<dyn Read + 'a>, retain: usize) -> Self {
        Input {
            slice: &[],
            reader: Some(reader),
            buf: Vec::new(),
            filled: 0,
            start: 0,
            cursor: 0,
            keep: 0,
            retain: retain as u64,
            eof: false,
            error: None,
            peak: 0,
        }
    }

    fn win(&self) -> &[u8] {
        if self.reader.is_some() {
            &self.buf[..self.filled]
        } else {
            self.slice
        }
    }

    /// File offset just past the last byte read.
    fn end(&self) -> u64 {
        self.start + self.win().len() as u64
    }

    /// The bytes available from file offset `at` (clamped to the window).
    fn avail(&self, at: u64) -> &[u8] {
        let w = self.win();
        let i = at.saturating_sub(self.start).min(w.len() as u64) as usize;
        &w[i..]
    }

    /// Reads at least one more byte into the window; false at end of input
    /// (or after a read error, which is kept for [`Input::take_error`]).
    fn more(&mut self) -> bool {
        if self.eof {
            return false;
        }
        let Some(reader) = self.reader.as_mut() else {
            self.eof = true;
            return false;
        };
        // Drop what is no longer needed, once it is at least half the window.
        let drop_to = self
            .keep
            .min(self.cursor)
            .max(self.cursor.saturating_sub(self.retain))
            .clamp(self.start, self.start + self.filled as u64);
        let n = (drop_to - self.start) as usize;
        if n > 0 && n * 2 >= self.filled {
            self.buf.copy_within(n..self.filled, 0);
            self.filled -= n;
            self.start = drop_to;
        }
        let old = self.filled;
        if self.buf.len() < old + READ_STEP {
            self.buf.resize(old + READ_STEP, 0);
        }
        self.peak = self.peak.max(self.buf.capacity());
        loop {
            match reader.read(&mut self.buf[old..old + READ_STEP]) {
                Ok(0) => {
                    self.eof = true;
                    return false;
                }
                Ok(n) => {
                    self.filled = old + n.min(READ_STEP);
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.eof = true;
                    self.error = Some((self.start + old as u64, e.to_string()));
                    return false;
                }
            }
        }
    }

    /// The bytes from `at`, after reading until there are `n` of them (or
    /// the input ended).
    fn ensure(&mut self, at: u64, n: usize) -> &[u8] {
        while (self.avail(at).len()) < n && self.more() {}
        self.avail(at)
    }

    fn take_error(&mut self) -> Option<(u64, String)> {
        self.error.take()
    }

    /// Moves the cursor (and the keep mark) to `at`.
    fn seek(&mut self, at: u64) {
        self.cursor = at.max(self.start);
        self.keep = self.cursor;
    }
}

impl Read for Input<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let src = self.fill_buf()?;
        let n = src.len().min(out.len());
        out[..n].copy_from_slice(&src[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Input<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.cursor >= self.end()
            && !self.more()
            && let Some((_, detail)) = &self.error
        {
            return Err(io::Error::other(detail.clone()));
        }
        Ok(self.avail(self.cursor))
    }

    fn consume(&mut self, n: usize) {
        self.cursor = (self.cursor + n as u64).min(self.end());
    }
}

enum Member<'a> {
    Gzip(Box<flate2::bufread::GzDecoder<Input<'a>>>),
    Zstd(Box<zstd::stream::zio::Reader<Input<'a>, zstd::stream::raw::Decoder<'static>>>),
}

impl<'a> Member<'a> {
    fn input(&self) -> &Input<'a> {
        match self {
            Member::Gzip(d) => d.get_ref(),
            Member::Zstd(d) => d.reader(),
        }
    }

    fn into_input(self) -> Input<'a> {
        match self {
            Member::Gzip(d) => d.into_inner(),
            Member::Zstd(d) => d.into_inner(),
        }
    }
}

pub(crate) struct Source<'a> {
    /// The input while no member is open (an open member owns it).
    input: Option<Input<'a>>,
    kind: Container,
    arc_start: bool,
    pos: u64,
    member: Option<(u64, Member<'a>, usize)>,
    dict: Option<Vec<u8>>,
    cap: usize,
    silent_resync: bool,
    done: bool,
    /// One-call inflate of whole gzip members ([`Source::whole_member`]).
    inflater: GzipInflater,
    /// Whole gzip members inflated ahead, on other threads.
    prefetch: Option<Box<dyn Prefetch + 'a>>,
    /// The decoder of [`Source::skim`], made on first use.
    skimmer: Option<Skimmer>,
}

/// The cap of a source made with `cap`: its window and its largest
/// one-call member.
pub(crate) fn source_cap(cap: usize) -> usize {
    cap.max(READ_STEP)
}

/// The inflated size the one-call path expects of `member` (its trailer's
/// ISIZE), or `None` when it does not take the member: shorter than a
/// member can be, or inflating to more than `cap`.
pub(crate) fn whole_member_size(member: &[u8], cap: usize) -> Option<usize> {
    if member.len() < MIN_MEMBER {
        return None;
    }
    let trailer: [u8; 8] = member[member.len() - 8..].try_into().ok()?;
    let size = u32::from_le_bytes([trailer[4], trailer[5], trailer[6], trailer[7]]) as usize;
    (size <= cap).then_some(size)
}

/// Detects the container from the first bytes (and, for damaged starts, from
/// the first member magic within the first MiB).
pub(crate) fn detect(data: &[u8]) -> Container {
    // A WARC or ARC record at the start: plain, whatever bytes its header
    // holds, a compression magic even (as a replay system reads a record
    // at its offset; no gzip member or zstd frame has a first line that is
    // an ARC header).
    if data.starts_with(b"WARC/") || starts_with_arc_header(data) {
        return Container::Plain;
    }
    if data.starts_with(GZIP_MAGIC) {
        return Container::Gzip;
    }
    if data.starts_with(ZSTD_MAGIC) || data.starts_with(ZSTD_DICT_MAGIC) {
        return Container::Zstd;
    }
    let head = &data[..data.len().min(DETECT_HEAD)];
    let texty = head
        .iter()
        .take(64)
        .all(|&b| b >= 0x20 || matches!(b, b'\r' | b'\n' | b'\t'));
    if !texty {
        if memchr::memmem::find(head, GZIP_MAGIC).is_some() {
            return Container::Gzip;
        }
        if memchr::memmem::find(head, ZSTD_MAGIC).is_some() {
            return Container::Zstd;
        }
    }
    Container::Plain
}

/// Whether `data`'s first line is an ARC record header line.
fn starts_with_arc_header(data: &[u8]) -> bool {
    let window = &data[..data.len().min(crate::arc_header::MAX_ARC_LINE)];
    memchr::memchr(b'\n', window).is_some_and(|n| {
        let line = &window[..n];
        crate::arc_header::parse_arc_line(line.strip_suffix(b"\r").unwrap_or(line)).is_some()
    })
}

fn starts_with_magic(kind: Container, bytes: &[u8]) -> bool {
    match kind {
        Container::Gzip => bytes.starts_with(GZIP_MAGIC),
        _ => bytes.starts_with(ZSTD_MAGIC) || bytes.starts_with(ZSTD_DICT_MAGIC),
    }
}

fn find_magic(kind: Container, bytes: &[u8]) -> Option<usize> {
    match kind {
        Container::Gzip => memchr::memmem::find(bytes, GZIP_MAGIC),
        _ => {
            let a = memchr::memmem::find(bytes, ZSTD_MAGIC);
            let b = memchr::memmem::find(bytes, ZSTD_DICT_MAGIC);
            match (a, b) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            }
        }
    }
}

fn blank(bytes: &[u8]) -> bool {
    bytes.iter().all(|&b| b == 0 || b.is_ascii_whitespace())
}

impl<'a> Source<'a> {
    /// A source over a whole file in memory.
    pub(crate) fn new(data: &'a [u8], cap: usize) -> Self {
        Self::with_input(Input::from_slice(data), cap)
    }

    /// A source over a reader; at most about `cap` compressed bytes are kept.
    pub(crate) fn from_read(reader: Box<dyn Read + 'a>, cap: usize) -> Self {
        let cap = source_cap(cap);
        Self::with_input(Input::from_read(reader, cap), cap)
    }

    /// Whole gzip members are first asked of `prefetch` (see `ahead.rs`).
    pub(crate) fn set_prefetch(&mut self, prefetch: Box<dyn Prefetch + 'a>) {
        self.prefetch = Some(prefetch);
    }

    fn with_input(mut input: Input<'a>, cap: usize) -> Self {
        let head = input.ensure(0, DETECT_HEAD);
        let kind = detect(head);
        let arc_start = head.starts_with(b"filedesc:");
        Source {
            input: Some(input),
            kind,
            arc_start,
            pos: 0,
            member: None,
            dict: None,
            cap: source_cap(cap),
            silent_resync: false,
            done: false,
            inflater: GzipInflater::new(),
            prefetch: None,
            skimmer: None,
        }
    }

    pub(crate) fn kind(&self) -> Container {
        self.kind
    }

    /// Whether the file starts with an ARC `filedesc:` line.
    pub(crate) fn arc_start(&self) -> bool {
        self.arc_start
    }

    /// The largest capacity the input window reached (0 for a slice).
    pub(crate) fn peak_window(&self) -> usize {
        match (&self.input, &self.member) {
            (Some(i), _) => i.peak,
            (None, Some((_, m, _))) => m.input().peak,
            (None, None) => 0,
        }
    }

    /// Input bytes read so far (for a slice: its length).
    pub(crate) fn bytes_read(&self) -> u64 {
        match (&self.input, &self.member) {
            (Some(i), _) => i.end(),
            (None, Some((_, m, _))) => m.input().end(),
            (None, None) => 0,
        }
    }

    /// Appends the next piece of the decoded stream to `out`.
    pub(crate) fn fill(&mut self, out: &mut Vec<u8>) -> Fill {
        if self.done {
            return Fill::Eof;
        }
        match self.kind {
            Container::Plain => {
                let Some(input) = self.input.as_mut() else {
                    return Fill::Eof;
                };
                input.seek(self.pos);
                let mut copied = 0;
                while copied < PLAIN_STEP {
                    let bytes = input.avail(self.pos);
                    if bytes.is_empty() {
                        if !input.more() {
                            break;
                        }
                        continue;
                    }
                    let take = bytes.len().min(PLAIN_STEP - copied);
                    out.extend_from_slice(&bytes[..take]);
                    copied += take;
                    self.pos += take as u64;
                    input.seek(self.pos);
                }
                if copied == 0 {
                    return self.io_error(None).unwrap_or(Fill::Eof);
                }
                Fill::Data {
                    member: None,
                    whole: false,
                }
            }
            Container::Gzip | Container::Zstd => self.fill_member(out),
        }
    }

    /// A pending read error as a [`Fill::Io`] (the source is then done).
    fn io_error(&mut self, member: Option<(usize, u64)>) -> Option<Fill> {
        let (offset, detail) = self.input.as_mut()?.take_error()?;
        self.done = true;
        Some(Fill::Io {
            offset,
            detail,
            member,
        })
    }

    /// The file offset of the next member magic at or after `from` (the end
    /// of input if none), and whether the bytes before it are all blank.
    fn next_magic(&mut self, from: u64) -> (u64, bool) {
        let Some(mut input) = self.input.take() else {
            return (from, true);
        };
        let mut at = from;
        let mut all_blank = true;
        let found = loop {
            input.seek(at);
            let bytes = input.avail(at);
            if let Some(i) = find_magic(self.kind, bytes) {
                all_blank &= blank(&bytes[..i]);
                break at + i as u64;
            }
            // A magic may straddle the end of the window: keep 3 bytes.
            let safe = bytes.len().saturating_sub(ZSTD_MAGIC.len() - 1);
            all_blank &= blank(&bytes[..safe]);
            at += safe as u64;
            if !input.more() {
                let rest = input.avail(at);
                all_blank &= blank(rest);
                break at + rest.len() as u64;
            }
        };
        self.input = Some(input);
        (found, all_blank)
    }

    fn fill_member(&mut self, out: &mut Vec<u8>) -> Fill {
        loop {
            if self.member.is_none() {
                let Some(input) = self.input.as_mut() else {
                    return Fill::Eof;
                };
                input.seek(self.pos);
                let head = input.ensure(self.pos, ZSTD_MAGIC.len());
                let (empty, magic, dict) = (
                    head.is_empty(),
                    starts_with_magic(self.kind, head),
                    head.starts_with(ZSTD_DICT_MAGIC),
                );
                if empty {
                    return self.io_error(None).unwrap_or(Fill::Eof);
                }
                if !magic {
                    let start = self.pos;
                    let (next, all_blank) = self.next_magic(start);
                    self.pos = next;
                    let silent = std::mem::take(&mut self.silent_resync);
                    if !silent && !all_blank {
                        return Fill::Garbage {
                            offset: start,
                            len: next - start,
                        };
                    }
                    continue;
                }
                self.silent_resync = false;
                if self.kind == Container::Zstd && dict {
                    self.read_dictionary();
                    continue;
                }
                if self.kind == Container::Gzip
                    && let Some(fill) = self.whole_member(out)
                {
                    return fill;
                }
                let Some(input) = self.input.take() else {
                    return Fill::Eof;
                };
                let member = match self.kind {
                    Container::Gzip => {
                        Member::Gzip(Box::new(flate2::bufread::GzDecoder::new(input)))
                    }
                    _ => {
                        let dict: &[u8] = self.dict.as_deref().unwrap_or(&[]);
                        // What `zstd::stream::read::Decoder::with_dictionary`
                        // does, in an order that keeps the input on failure.
                        match zstd::stream::raw::Decoder::with_dictionary(dict) {
                            Ok(raw) => {
                                let mut reader = zstd::stream::zio::Reader::new(input, raw);
                                reader.set_single_frame();
                                Member::Zstd(Box::new(reader))
                            }
                            Err(e) => {
                                self.input = Some(input);
                                return self.fail(out.len(), e.to_string());
                            }
                        }
                    }
                };
                self.member = Some((self.pos, member, 0));
            }
            return self.decode_step(out);
        }
    }

    /// The fast path for a gzip member at `pos`: when the next member magic
    /// (or the end of input) is within `cap` bytes, the member is taken to
    /// end there and is inflated in one call by libdeflate (about twice as
    /// fast as streaming inflate on WARC records). It is accepted only if
    /// libdeflate succeeds (header, deflate stream, CRC-32 and size all
    /// check) *and* its trailer is the 8 bytes before the candidate end, so
    /// the member ends exactly there ([`GzipInflater::append_member`]). Anything else (a magic-like
    /// byte run inside the member, bytes between members, damage, a member
    /// over `cap`) returns `None` and the streaming decoder handles the
    /// member with all its error reporting and resynchronisation.
    fn whole_member(&mut self, out: &mut Vec<u8>) -> Option<Fill> {
        let pos = self.pos;
        let cap = self.cap;
        let input = self.input.as_mut()?;
        let mut searched = MIN_MEMBER;
        let end = loop {
            let avail = input.avail(pos);
            if let Some(i) = avail
                .get(searched..)
                .and_then(|rest| find_magic(Container::Gzip, rest))
            {
                break searched + i;
            }
            if avail.len() > cap {
                return None;
            }
            searched = avail
                .len()
                .saturating_sub(GZIP_MAGIC.len() - 1)
                .max(MIN_MEMBER);
            if !input.more() {
                break input.avail(pos).len();
            }
        };
        let member = input.avail(pos).get(..end)?;
        let size = whole_member_size(member, cap)?;
        // The same member inflated ahead by the same function, if it was
        // (see `ahead.rs`); else inflated here.
        let ahead = self.prefetch.as_mut().map(|p| p.take(pos, end));
        let inflated = match ahead {
            Some(Ahead::Output(data)) => {
                if out.is_empty() {
                    *out = data;
                } else {
                    out.extend_from_slice(&data);
                }
                true
            }
            Some(Ahead::Rejected) => false,
            Some(Ahead::NotDone) | None => self.inflater.append_member(member, size, out),
        };
        if !inflated {
            return None;
        }
        self.pos = pos + end as u64;
        input.seek(self.pos);
        Some(Fill::Data {
            member: Some(pos),
            whole: true,
        })
    }

    /// Reads a WARC zstd dictionary frame at `pos` (its payload may itself be
    /// a zstd frame) and moves past it.
    fn read_dictionary(&mut self) {
        let Some(input) = self.input.as_mut() else {
            return;
        };
        let len = input
            .ensure(self.pos, 8)
            .get(4..8)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .unwrap_or(usize::MAX);
        let total = 8usize.saturating_add(len);
        let fits = (total as u64) <= input.retain;
        let rest = if fits {
            input.ensure(self.pos, total)
        } else {
            &[]
        };
        let Some(payload) = rest.get(8..total) else {
            // A truncated (or, streaming, oversized) dictionary frame: skip
            // its magic and resync.
            self.pos += 1;
            return;
        };
        let dict = if payload.starts_with(ZSTD_MAGIC) {
            let mut d = Vec::new();
            match zstd::stream::read::Decoder::with_buffer(payload) {
                Ok(dec) => {
                    let _ = dec.single_frame().take(64 << 20).read_to_end(&mut d);
                }
                Err(_) => d.clear(),
            }
            d
        } else {
            payload.to_vec()
        };
        self.dict = Some(dict);
        self.pos += total as u64;
    }

    fn fail(&mut self, output_from: usize, detail: String) -> Fill {
        let offset = self.pos;
        self.member = None;
        // A stream may have dropped the member's first bytes (see `retain`).
        let oldest = self.input.as_ref().map_or(0, |i| i.start);
        self.pos = (self.pos + 1).max(oldest);
        self.silent_resync = true;
        Fill::Corrupt {
            offset,
            detail,
            output_from,
        }
    }

    fn decode_step(&mut self, out: &mut Vec<u8>) -> Fill {
        let Some((start, mut member, produced_before)) = self.member.take() else {
            return Fill::Eof;
        };
        let first = produced_before == 0;
        let begin = out.len();
        let mut produced = 0usize;
        loop {
            let old = out.len();
            out.resize(old + READ_STEP, 0);
            let r = match &mut member {
                Member::Gzip(d) => d.read(&mut out[old..]),
                Member::Zstd(d) => d.read(&mut out[old..]),
            };
            match r {
                Ok(0) => {
                    out.truncate(old);
                    let input = member.into_input();
                    let consumed = input.cursor - start;
                    self.input = Some(input);
                    if consumed == 0 && produced_before + produced == 0 {
                        // No progress at all: treat as corrupt to guarantee progress.
                        self.pos = start;
                        return self.fail(begin, "empty member".into());
                    }
                    self.pos = start + consumed.max(1);
                    return Fill::Data {
                        member: first.then_some(start),
                        whole: false,
                    };
                }
                Ok(n) => {
                    out.truncate(old + n);
                    produced += n;
                    if produced >= self.cap {
                        self.member = Some((start, member, produced_before + produced));
                        return Fill::Data {
                            member: first.then_some(start),
                            whole: false,
                        };
                    }
                }
                Err(e) => {
                    out.truncate(old);
                    self.input = Some(member.into_input());
                    if let Some(f) = self.io_error(Some((begin, start))) {
                        return f;
                    }
                    self.pos = start;
                    return self.fail(begin, e.to_string());
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use std::io::Write;

    /// `data` as one gzip member.
    pub(crate) fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A file that starts with a WARC record is plain, even when its
    /// header holds control bytes and a gzip magic follows (the fuzz
    /// target `index` re-reads a plain file's record at its offset so).
    #[test]
    fn a_warc_record_at_the_start_is_plain() {
        let mut data = b"WARC/1.0\r\nWARC-Record-\x01\0\0ID: <x>\r\n".to_vec();
        data.extend_from_slice(&[0x1f, 0x8b, 8, 0]);
        assert_eq!(detect(&data), Container::Plain);
        assert_eq!(detect(&data[8..]), Container::Gzip);
        // An ARC record likewise (a zstd magic in its header line).
        let arc = b"http://e.com/\0(\xb5/\xfd 1.2.3.4 20140102000000 text/plain 4\nabcd\n";
        assert_eq!(detect(arc), Container::Plain);
        assert_eq!(detect(&arc[13..]), Container::Zstd);
        let arc = b"(\xb5/\xfdhttp://e.com/ 1.2.3.4 20140102000000 text/plain 4\nabcd\n";
        assert_eq!(detect(arc), Container::Plain);
    }

    #[test]
    fn members_and_garbage() {
        let mut file = gz(b"one");
        let second = file.len() as u64;
        file.extend(gz(b"two"));
        file.extend_from_slice(b"junk");
        let mut s = Source::new(&file, 1 << 20);
        let mut out = Vec::new();
        assert!(matches!(
            s.fill(&mut out),
            Fill::Data {
                member: Some(0),
                ..
            }
        ));
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o), .. } if o == second));
        assert_eq!(out, b"onetwo");
        assert!(matches!(s.fill(&mut out), Fill::Garbage { len: 4, .. }));
        assert!(matches!(s.fill(&mut out), Fill::Eof));
    }

    #[test]
    fn corrupt_member_resumes() {
        let mut file = gz(b"first member");
        let n = file.len();
        file[n - 6] ^= 0xff; // CRC
        let second = file.len() as u64;
        file.extend(gz(b"second"));
        let mut s = Source::new(&file, 1 << 20);
        let mut out = Vec::new();
        assert!(matches!(s.fill(&mut out), Fill::Corrupt { offset: 0, .. }));
        out.clear();
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o), .. } if o == second));
        assert_eq!(out, b"second");
    }

    /// The whole-member fast path must not swallow bytes between members
    /// nor trust a magic inside a member: both fall back to streaming.
    #[test]
    fn whole_member_fast_path_falls_back() {
        let mut file = gz(b"one");
        file.extend_from_slice(b"junk");
        let second = file.len() as u64;
        file.extend(gz(b"two"));
        let mut s = Source::new(&file, 1 << 20);
        let mut out = Vec::new();
        assert!(matches!(
            s.fill(&mut out),
            Fill::Data {
                member: Some(0),
                ..
            }
        ));
        assert!(matches!(s.fill(&mut out), Fill::Garbage { len: 4, .. }));
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o), .. } if o == second));
        assert_eq!(out, b"onetwo");

        // A stored (uncompressed) member whose data contains the gzip magic.
        let stored = |d: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::none());
            e.write_all(d).unwrap();
            e.finish().unwrap()
        };
        let payload = b"before \x1f\x8b\x08 after, long enough to matter";
        let mut file = stored(payload);
        let second = file.len() as u64;
        file.extend(gz(b"next"));
        for streaming in [false, true] {
            let mut s = if streaming {
                Source::from_read(Box::new(&file[..]), 1 << 20)
            } else {
                Source::new(&file, 1 << 20)
            };
            let mut out = Vec::new();
            assert!(matches!(
                s.fill(&mut out),
                Fill::Data {
                    member: Some(0),
                    ..
                }
            ));
            assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o), .. } if o == second));
            assert_eq!(out, [&payload[..], b"next"].concat());
            assert!(matches!(s.fill(&mut out), Fill::Eof));
        }
    }

    #[test]
    fn zstd_frames() {
        let mut file = zstd::encode_all(&b"alpha"[..], 3).unwrap();
        let second = file.len() as u64;
        file.extend(zstd::encode_all(&b"beta"[..], 3).unwrap());
        let mut s = Source::new(&file, 1 << 20);
        assert_eq!(s.kind(), Container::Zstd);
        let mut out = Vec::new();
        assert!(matches!(
            s.fill(&mut out),
            Fill::Data {
                member: Some(0),
                ..
            }
        ));
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o), .. } if o == second));
        assert_eq!(out, b"alphabeta");
    }
}
