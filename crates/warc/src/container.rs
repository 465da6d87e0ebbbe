//! The container layer: turns a file's bytes into the decoded record stream,
//! member by member, reporting damage instead of stopping.
//!
//! Invariants:
//! - `pos` is always the file offset of the next input byte not yet consumed
//!   by a finished member; an open member decodes from `member_start`.
//! - A member whose output fits in `cap` bytes is decoded completely (so its
//!   CRC/checksum is verified) before any of its output is handed out; larger
//!   members are streamed in `cap`-sized steps.
//! - After a member fails, decoding resumes at the next member magic after its
//!   first byte; the skipped bytes are not reported a second time.

use std::io::Read;

use crate::error::Container;

const GZIP_MAGIC: &[u8] = b"\x1f\x8b\x08";
const ZSTD_MAGIC: &[u8] = b"\x28\xb5\x2f\xfd";
/// The little-endian magic of the zstd skippable frame that carries a WARC
/// dictionary (`0x184D2A5D`).
const ZSTD_DICT_MAGIC: &[u8] = b"\x5d\x2a\x4d\x18";
const READ_STEP: usize = 64 * 1024;
/// Plain files are handed out in steps of this size.
const PLAIN_STEP: usize = 1 << 20;

/// One step of the container layer.
#[derive(Debug)]
pub(crate) enum Fill {
    /// Bytes were appended. `member` is the file offset of the member whose
    /// output starts with the appended bytes (None: continuation of an open
    /// member, or plain data).
    Data { member: Option<u64> },
    /// The member at `offset` failed; its output decoded so far was appended
    /// after `output_from` (an index into the output buffer).
    Corrupt {
        offset: u64,
        detail: String,
        output_from: usize,
    },
    /// `len` unrecognized bytes at `offset` were skipped.
    Garbage { offset: u64, len: u64 },
    /// End of input.
    Eof,
}

enum Member<'a> {
    Gzip(flate2::bufread::GzDecoder<&'a [u8]>),
    Zstd(Box<zstd::stream::read::Decoder<'static, &'a [u8]>>),
}

pub(crate) struct Source<'a> {
    data: &'a [u8],
    kind: Container,
    pos: usize,
    member: Option<(usize, Member<'a>, usize)>,
    dict: Option<Vec<u8>>,
    cap: usize,
    silent_resync: bool,
}

/// Detects the container from the first bytes (and, for damaged starts, from
/// the first member magic within the first MiB).
pub(crate) fn detect(data: &[u8]) -> Container {
    if data.starts_with(GZIP_MAGIC) {
        return Container::Gzip;
    }
    if data.starts_with(ZSTD_MAGIC) || data.starts_with(ZSTD_DICT_MAGIC) {
        return Container::Zstd;
    }
    let head = &data[..data.len().min(1 << 20)];
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

impl<'a> Source<'a> {
    pub(crate) fn new(data: &'a [u8], cap: usize) -> Self {
        Source {
            data,
            kind: detect(data),
            pos: 0,
            member: None,
            dict: None,
            cap: cap.max(READ_STEP),
            silent_resync: false,
        }
    }

    pub(crate) fn kind(&self) -> Container {
        self.kind
    }

    /// Appends the next piece of the decoded stream to `out`.
    pub(crate) fn fill(&mut self, out: &mut Vec<u8>) -> Fill {
        match self.kind {
            Container::Plain => {
                if self.pos >= self.data.len() {
                    return Fill::Eof;
                }
                let end = (self.pos + PLAIN_STEP).min(self.data.len());
                out.extend_from_slice(&self.data[self.pos..end]);
                self.pos = end;
                Fill::Data { member: None }
            }
            Container::Gzip | Container::Zstd => self.fill_member(out),
        }
    }

    fn is_magic_at(&self, at: usize) -> bool {
        let rest = &self.data[at..];
        match self.kind {
            Container::Gzip => rest.starts_with(GZIP_MAGIC),
            _ => rest.starts_with(ZSTD_MAGIC) || rest.starts_with(ZSTD_DICT_MAGIC),
        }
    }

    fn next_magic(&self, from: usize) -> Option<usize> {
        let rest = &self.data[from.min(self.data.len())..];
        let found = match self.kind {
            Container::Gzip => memchr::memmem::find(rest, GZIP_MAGIC),
            _ => {
                let a = memchr::memmem::find(rest, ZSTD_MAGIC);
                let b = memchr::memmem::find(rest, ZSTD_DICT_MAGIC);
                match (a, b) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                }
            }
        };
        found.map(|i| from + i)
    }

    fn fill_member(&mut self, out: &mut Vec<u8>) -> Fill {
        loop {
            if self.member.is_none() {
                if self.pos >= self.data.len() {
                    return Fill::Eof;
                }
                if !self.is_magic_at(self.pos) {
                    let start = self.pos;
                    let next = self.next_magic(start).unwrap_or(self.data.len());
                    self.pos = next;
                    let skipped = &self.data[start..next];
                    let silent = std::mem::take(&mut self.silent_resync);
                    if !silent && !skipped.iter().all(|&b| b == 0 || b.is_ascii_whitespace()) {
                        return Fill::Garbage {
                            offset: start as u64,
                            len: (next - start) as u64,
                        };
                    }
                    continue;
                }
                self.silent_resync = false;
                if self.kind == Container::Zstd
                    && self.data[self.pos..].starts_with(ZSTD_DICT_MAGIC)
                {
                    self.read_dictionary();
                    continue;
                }
                let input = &self.data[self.pos..];
                let member = match self.kind {
                    Container::Gzip => Member::Gzip(flate2::bufread::GzDecoder::new(input)),
                    _ => {
                        let dict: &[u8] = self.dict.as_deref().unwrap_or(&[]);
                        match zstd::stream::read::Decoder::with_dictionary(input, dict) {
                            Ok(d) => Member::Zstd(Box::new(d.single_frame())),
                            Err(e) => return self.fail(out.len(), e.to_string()),
                        }
                    }
                };
                self.member = Some((self.pos, member, 0));
            }
            return self.decode_step(out);
        }
    }

    /// Reads a WARC zstd dictionary frame at `pos` (its payload may itself be
    /// a zstd frame) and moves past it.
    fn read_dictionary(&mut self) {
        let rest = &self.data[self.pos..];
        let len = rest
            .get(4..8)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .unwrap_or(usize::MAX);
        let Some(payload) = rest.get(8..8usize.saturating_add(len)) else {
            // A truncated dictionary frame: skip its magic and resync.
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
        self.pos += 8 + len;
    }

    fn fail(&mut self, output_from: usize, detail: String) -> Fill {
        let offset = self.pos;
        self.member = None;
        self.pos += 1;
        self.silent_resync = true;
        Fill::Corrupt {
            offset: offset as u64,
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
                    let remaining = match &member {
                        Member::Gzip(d) => d.get_ref().len(),
                        Member::Zstd(d) => d.get_ref().len(),
                    };
                    let consumed = self.data.len() - start - remaining;
                    if consumed == 0 && produced_before + produced == 0 {
                        // No progress at all: treat as corrupt to guarantee progress.
                        self.pos = start;
                        return self.fail(begin, "empty member".into());
                    }
                    self.pos = start + consumed.max(1);
                    return Fill::Data {
                        member: first.then_some(start as u64),
                    };
                }
                Ok(n) => {
                    out.truncate(old + n);
                    produced += n;
                    if produced >= self.cap {
                        self.member = Some((start, member, produced_before + produced));
                        return Fill::Data {
                            member: first.then_some(start as u64),
                        };
                    }
                }
                Err(e) => {
                    out.truncate(old);
                    self.pos = start;
                    return self.fail(begin, e.to_string());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn members_and_garbage() {
        let mut file = gz(b"one");
        let second = file.len() as u64;
        file.extend(gz(b"two"));
        file.extend_from_slice(b"junk");
        let mut s = Source::new(&file, 1 << 20);
        let mut out = Vec::new();
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(0) }));
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o) } if o == second));
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
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o) } if o == second));
        assert_eq!(out, b"second");
    }

    #[test]
    fn zstd_frames() {
        let mut file = zstd::encode_all(&b"alpha"[..], 3).unwrap();
        let second = file.len() as u64;
        file.extend(zstd::encode_all(&b"beta"[..], 3).unwrap());
        let mut s = Source::new(&file, 1 << 20);
        assert_eq!(s.kind(), Container::Zstd);
        let mut out = Vec::new();
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(0) }));
        assert!(matches!(s.fill(&mut out), Fill::Data { member: Some(o) } if o == second));
        assert_eq!(out, b"alphabeta");
    }
}
