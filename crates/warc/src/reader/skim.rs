//! [`Content::Skim`]: the reader's half of the skim (the container's half,
//! and why it is sound, are in `container/skim.rs`). At a member start with
//! nothing buffered, the reader asks the source to skim the member, says
//! from the decoded start whether this is a record the skim may take and
//! how long the member's output must then be, and makes the record from
//! its head, exactly as [`Content::Head`] would from the whole member:
//! the same header, offsets, lengths and HTTP head; only
//! [`Record::block`](crate::Record::block) is shorter.

use crate::container::Want;
use crate::http;
use crate::reader::{Content, Header, Reader};
use crate::record::Record;
use crate::record_build::{Block, build};
use crate::warc_header::{self, MAX_HEADER, WarcHeader};
use crate::{RecordError, RecordType};

/// Records shorter than this are read whole: inflating them costs less than
/// starting a second decoder on the next member.
const MIN_SKIMMED_BLOCK: u64 = 16 << 10;
/// The longest HTTP head the skim reads; a longer one goes the full path.
const MAX_HTTP_HEAD: usize = 64 << 10;

impl Reader<'_> {
    /// The next record by a skim, when the reader is at a member start with
    /// nothing buffered and the source skims the member; else `None`, with
    /// nothing changed.
    pub(super) fn skim_record(&mut self) -> Option<Result<Record, RecordError>> {
        if !matches!(self.opts.content, Content::Skim(_))
            || self.barrier.is_some()
            || self.eof
            || self.pos != self.buf.len()
        {
            return None;
        }
        // Everything was consumed: compacting empties the buffer.
        self.compact();
        debug_assert!(self.buf.is_empty());
        let stream_offset = self.base;
        let mut parsed: Option<(usize, WarcHeader)> = None;
        let (offset, total) = self.src.skim(&mut self.buf, &mut |decoded| {
            let (want, header) = want(decoded);
            parsed = header;
            want
        })?;
        let (header_len, header) = parsed?;
        // The decoded start goes with the record; the stream moves past the
        // whole member.
        let buf = std::mem::take(&mut self.buf);
        let length = header.length;
        let block_end = buf.len().min(header_len.saturating_add(length as usize));
        self.members.push_back((stream_offset, offset));
        self.base = stream_offset + total;
        self.pos = 0;
        self.forget_members_before_base();
        self.consumed_to = self.base;
        self.member_end = None;
        self.peak = self.peak.max(buf.capacity());
        let header = Header {
            version: header.version,
            fields: header.fields,
            target_uri: header.target_uri,
            length,
            arc: None,
            end: header_len,
        };
        Some(
            build(
                header,
                offset,
                Block::Owned(buf, header_len..block_end),
                &self.opts,
            )
            .map(|mut rec| {
                rec.block_len = length;
                rec.stream_offset = stream_offset;
                rec.stored_len = header_len as u64 + length;
                rec.starts_member = true;
                rec.ends_member = true;
                rec
            }),
        )
    }
}

/// The reader's answer to a member's decoded start, and the parsed header
/// when the answer is [`Want::Done`].
fn want(decoded: &[u8]) -> (Want, Option<(usize, WarcHeader)>) {
    if !decoded.starts_with(b"WARC/") {
        return (
            if b"WARC/".starts_with(decoded) {
                Want::More
            } else {
                Want::No
            },
            None,
        );
    }
    let Some(header_len) = warc_header::header_len(decoded) else {
        let more = decoded.len() < MAX_HEADER;
        return (if more { Want::More } else { Want::No }, None);
    };
    let Ok(header) = warc_header::parse_warc_header(&decoded[..header_len]) else {
        return (Want::No, None);
    };
    let field = |name: &str| {
        header
            .fields
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    };
    let kind = field("WARC-Type").map(RecordType::from_name);
    let has_http = match kind {
        Some(RecordType::Response) => true,
        Some(RecordType::Resource) => false,
        _ => return (Want::No, None),
    };
    // A record without its payload digest is read whole: an indexer computes
    // the digest from the payload.
    if field("WARC-Payload-Digest").is_none() || header.length < MIN_SKIMMED_BLOCK {
        return (Want::No, None);
    }
    if has_http {
        let block = &decoded[header_len..];
        // The HTTP head is whole once its empty line is decoded and a byte
        // after it: then it parses from the start as from the whole block.
        match http::parse_response(block) {
            Ok((_, body_at)) if body_at < block.len() => {}
            Err(_) if block.len() >= 16 => return (Want::No, None),
            _ if block.len() >= MAX_HTTP_HEAD => return (Want::No, None),
            _ => return (Want::More, None),
        }
    }
    let total = header_len as u64 + header.length + 4;
    (Want::Done(total), Some((header_len, header)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(kind: &str, digest: bool, block: &[u8]) -> Vec<u8> {
        let mut r = format!("WARC/1.1\r\nWARC-Type: {kind}\r\n").into_bytes();
        if digest {
            r.extend_from_slice(b"WARC-Payload-Digest: sha1:AAAA\r\n");
        }
        r.extend_from_slice(format!("Content-Length: {}\r\n\r\n", block.len()).as_bytes());
        r.extend_from_slice(block);
        r
    }

    #[test]
    fn what_the_skim_takes() {
        let mut block = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n".to_vec();
        block.resize(40 << 10, b'x');
        let rec = record("response", true, &block);
        let header_len = warc_header::header_len(&rec).unwrap();
        // The head and a byte after it: done.
        let (want_all, parsed) = want(&rec[..header_len + 46]);
        assert_eq!(want_all, Want::Done((header_len + block.len() + 4) as u64));
        assert_eq!(parsed.unwrap().0, header_len);
        // The head not yet ended: more.
        assert_eq!(want(&rec[..header_len + 30]).0, Want::More);
        assert_eq!(want(&rec[..header_len - 3]).0, Want::More);
        assert_eq!(want(b"WAR").0, Want::More);
        // Not for the skim: no digest, small, a request, not HTTP, not WARC.
        assert_eq!(want(&record("response", false, &block)).0, Want::No);
        assert_eq!(want(&record("response", true, &block[..1000])).0, Want::No);
        assert_eq!(want(&record("request", true, &block)).0, Want::No);
        let mut not_http = block.clone();
        not_http[..4].copy_from_slice(b"HTTX");
        assert_eq!(want(&record("response", true, &not_http)).0, Want::No);
        assert_eq!(
            want(b"http://e.com/ 1.2.3.4 20140101000000 text/html 5\n").0,
            Want::No
        );
        // A resource needs only its header.
        let res = record("resource", true, &block);
        let (w, _) = want(&res[..warc_header::header_len(&res).unwrap()]);
        assert_eq!(w, Want::Done(res.len() as u64 + 4));
    }
}
