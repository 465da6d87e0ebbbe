//! Entries settled in input order: what an entry cannot know from its own
//! record — whether it is joined to its neighbour ([`crate::join`]) and
//! whether replay can seek to it ([`Placement::seekable`]) — is decided
//! here, for `spinneret index` and `spinneret.warc_index` alike.
//!
//! [`Settler`] takes each record's entry in input order (made on any
//! worker by [`Entry::of`]) and hands back the finished ones with the range
//! their line or row carries ([`Range`]): an entry is held until the next
//! record shows whether the two are a request and its response, and
//! whether they share a gzip member. [`PlacedRecords`] gives a single
//! reader's records with the [`Placement`] facts [`Entry::of`] needs (where
//! the next item starts, the container), as the CLI's input stage does.
//!
//! Invariants: the entries come out in input order, each once, only those
//! that get a line ([`Entry::listed`]); a record that gets no entry, a
//! damaged record and damage between records all separate their
//! neighbours (no join across them); a record that shares its gzip member
//! with another record or with damage is not seekable.

use spinneret_warc::{Container, Reader, Record, RecordError};

use crate::entry::{Entry, Placement};
use crate::join::join;
use crate::line::Range;

/// The range written for `e`: its file range when replay can seek to it,
/// else its range in the decompressed data.
pub fn range_of(e: &Entry) -> Range {
    if e.seekable {
        let (o, l) = e.placement.range();
        Range::File(o, l)
    } else {
        let (o, l) = e.placement.decompressed_range();
        Range::Decompressed(o, l)
    }
}

/// What one step settles: up to two finished entries, in order, each with
/// its file (`F`: whatever names a file for the caller) and range.
#[derive(Debug)]
pub struct Settled<F> {
    items: [Option<(F, Entry, Range)>; 2],
    next: usize,
}

impl<F> Settled<F> {
    fn none() -> Self {
        Settled {
            items: [None, None],
            next: 0,
        }
    }

    /// Adds `e` if it gets a line.
    fn add(&mut self, file: F, e: Entry) {
        if e.listed {
            let range = range_of(&e);
            let slot = if self.items[0].is_none() { 0 } else { 1 };
            self.items[slot] = Some((file, e, range));
        }
    }
}

impl<F> Iterator for Settled<F> {
    type Item = (F, Entry, Range);

    fn next(&mut self) -> Option<Self::Item> {
        while self.next < 2 {
            self.next += 1;
            if let Some(item) = self.items[self.next - 1].take() {
                return Some(item);
            }
        }
        None
    }
}

/// Joins and seekability, settled in input order.
#[derive(Debug)]
pub struct Settler<F> {
    post_append: bool,
    /// The entry held back for a join with the next one, and its file.
    held: Option<(F, Entry)>,
    /// The previous record's file and offset (a shared member).
    previous: Option<(F, u64)>,
}

impl<F: Clone + PartialEq> Settler<F> {
    /// Nothing seen yet; `post_append` as [`IndexOptions::post_append`](crate::entry::IndexOptions).
    pub fn new(post_append: bool) -> Self {
        Settler {
            post_append,
            held: None,
            previous: None,
        }
    }

    /// The next record of the input, read at `offset` of `file`, with its
    /// entry: `None` for a record that gets no entry (neither a line nor a
    /// join) or whose entry failed (a damaged record, reported by the
    /// caller).
    pub fn record(&mut self, file: F, offset: u64, entry: Option<Entry>) -> Settled<F> {
        let previous_offset = match &self.previous {
            Some((f, o)) if *f == file => Some(*o),
            _ => None,
        };
        self.previous = Some((file.clone(), offset));
        let Some(mut entry) = entry else {
            return self.finish();
        };
        entry.seekable = entry.placement.seekable(previous_offset);
        // A previous entry that shares this one's member (its tail is in
        // the member this one does not start) was not seekable either.
        if let Some((f, held)) = &mut self.held
            && *f == file
            && entry.placement.container != Container::Plain
            && (held.placement.offset == entry.placement.offset || !entry.placement.starts_member)
        {
            held.seekable = false;
        }
        let mut out = Settled::none();
        if let Some((f, mut prev)) = self.held.take() {
            let joined = f == file && join(&mut prev, &mut entry, self.post_append);
            out.add(f, prev);
            if joined {
                out.add(file, entry);
                return out;
            }
        }
        self.held = Some((file, entry));
        out
    }

    /// Damage reported by the reader at `offset` of `file` (a damaged
    /// record, a corrupt member, garbage): the records around it are not
    /// neighbours, and one that shares the damage's gzip member (the same
    /// offset) is not seekable either: replay, seeking there, would read
    /// the damage's bytes too.
    pub fn damage(&mut self, file: F, offset: u64) -> Settled<F> {
        if let Some((f, held)) = &mut self.held
            && *f == file
            && held.placement.offset == offset
            && held.placement.container != Container::Plain
        {
            held.seekable = false;
        }
        let out = self.finish();
        self.previous = Some((file, offset));
        out
    }

    /// An unreadable input between records: the records around it are not
    /// neighbours.
    pub fn separate(&mut self) -> Settled<F> {
        self.previous = None;
        self.finish()
    }

    /// The end of the input: the held entry, if any.
    pub fn finish(&mut self) -> Settled<F> {
        let mut out = Settled::none();
        if let Some((f, e)) = self.held.take() {
            out.add(f, e);
        }
        out
    }
}

/// A record with what [`Placement`] needs besides the record: where the
/// next item of the file starts (or the file's size) and the container.
#[derive(Debug)]
pub struct Placed {
    /// The record.
    pub record: Record,
    /// Where the next item starts.
    pub end: u64,
    /// The file's container.
    pub container: Container,
}

impl Placed {
    /// The record's placement.
    pub fn placement(&self) -> Placement {
        Placement {
            offset: self.record.offset,
            end: self.end,
            stream_offset: self.record.stream_offset,
            stored_len: self.record.stored_len,
            container: self.container,
            starts_member: self.record.starts_member,
            ends_member: self.record.ends_member,
        }
    }
}

/// The items of one file's [`Reader`], each record once the item after it
/// is read (so that its end is known), errors in their place: the order
/// and the ends of the CLI's input stage.
pub struct PlacedRecords<'a> {
    reader: Reader<'a>,
    held: Option<Record>,
    /// An error read after the held record, due after it.
    error: Option<RecordError>,
    done: bool,
}

impl std::fmt::Debug for PlacedRecords<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlacedRecords")
            .field("held", &self.held.as_ref().map(|r| r.offset))
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<'a> PlacedRecords<'a> {
    /// Over `reader`'s items.
    pub fn new(reader: Reader<'a>) -> Self {
        PlacedRecords {
            reader,
            held: None,
            error: None,
            done: false,
        }
    }

    /// Input bytes read so far.
    pub fn bytes_read(&self) -> u64 {
        self.reader.bytes_read()
    }
}

impl Iterator for PlacedRecords<'_> {
    type Item = Result<Placed, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(e) = self.error.take() {
            return Some(Err(e));
        }
        loop {
            if self.done {
                return None;
            }
            let item = self.reader.next();
            let container = self.reader.container();
            let end = match &item {
                Some(Ok(r)) => r.offset,
                Some(Err(e)) => e.offset(),
                None => {
                    self.done = true;
                    self.reader.bytes_read()
                }
            };
            let placed = self.held.take().map(|record| Placed {
                record,
                end,
                container,
            });
            match item {
                Some(Ok(r)) => self.held = Some(r),
                Some(Err(e)) => match placed {
                    Some(p) => {
                        self.error = Some(e);
                        return Some(Ok(p));
                    }
                    None => return Some(Err(e)),
                },
                None => {}
            }
            if let Some(p) = placed {
                return Some(Ok(p));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::IndexOptions;
    use std::io::Write;

    fn gz(b: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(b).unwrap();
        e.finish().unwrap()
    }

    fn record(kind: &str, url: &str, id: &str, to: Option<&str>, block: &str) -> Vec<u8> {
        let mut h = format!(
            "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Target-URI: {url}\r\nWARC-Date: 2020-01-02T03:04:05Z\r\nWARC-Record-ID: {id}\r\n"
        );
        if let Some(t) = to {
            h.push_str(&format!("WARC-Concurrent-To: {t}\r\n"));
        }
        let ct = if kind == "request" {
            "application/http; msgtype=request"
        } else {
            "application/http; msgtype=response"
        };
        h.push_str(&format!(
            "Content-Type: {ct}\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
            block.len()
        ));
        h.into_bytes()
    }

    fn post_pair() -> (Vec<u8>, Vec<u8>) {
        let resp = record(
            "response",
            "http://a.example/form",
            "<urn:r>",
            None,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok",
        );
        let req = record(
            "request",
            "http://a.example/form",
            "<urn:q>",
            Some("<urn:r>"),
            "POST /form HTTP/1.1\r\nHost: a.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=b",
        );
        (resp, req)
    }

    /// The settled entries of `file`, read as the CLI reads it.
    fn settle(file: &[u8]) -> Vec<(Entry, Range)> {
        let opts = IndexOptions {
            post_append: true,
            ..IndexOptions::default()
        };
        let mut s = Settler::new(true);
        let mut out = Vec::new();
        // The CLI's reading: every record's block (a request's body too).
        let read = spinneret_warc::Options {
            content: spinneret_warc::Content::Head(1 << 20),
            ..spinneret_warc::Options::default()
        };
        for item in PlacedRecords::new(Reader::with_options(file, read)) {
            let settled = match item {
                Ok(p) => {
                    let e = Entry::of(&p.record, p.placement(), &opts).and_then(Result::ok);
                    s.record(0u8, p.record.offset, e)
                }
                Err(e) => s.damage(0u8, e.offset()),
            };
            out.extend(settled.map(|(_, e, r)| (e, r)));
        }
        out.extend(s.finish().map(|(_, e, r)| (e, r)));
        out
    }

    #[test]
    fn a_post_is_joined_and_each_member_is_seekable() {
        let (resp, req) = post_pair();
        let file = [gz(&resp), gz(&req)].concat();
        let got = settle(&file);
        assert_eq!(got.len(), 1, "the request gets no line");
        let (e, r) = &got[0];
        assert_eq!(e.method.as_deref(), Some("POST"));
        assert!(e.urlkey.contains("__wb_method=post"), "{}", e.urlkey);
        assert_eq!(*r, Range::File(0, gz(&resp).len() as u64));
    }

    #[test]
    fn records_sharing_a_member_are_not_seekable() {
        let (resp, _) = post_pair();
        let other = resp.clone();
        let file = gz(&[resp.clone(), other].concat());
        let got = settle(&file);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].1, Range::Decompressed(0, (resp.len() - 4) as u64));
        assert!(matches!(got[1].1, Range::Decompressed(o, _) if o == resp.len() as u64));
    }

    #[test]
    fn placed_records_end_where_the_next_item_starts() {
        let (resp, req) = post_pair();
        let file = [resp.clone(), req.clone()].concat();
        let placed: Vec<Placed> = PlacedRecords::new(Reader::new(&file))
            .map(Result::unwrap)
            .collect();
        assert_eq!(placed.len(), 2);
        assert_eq!(placed[0].end, resp.len() as u64);
        assert_eq!(placed[1].end, file.len() as u64);
        assert_eq!(placed[1].container, Container::Plain);
    }
}
