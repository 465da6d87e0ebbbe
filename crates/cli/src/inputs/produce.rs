//! The producer: sources to items, in input order — each WARC/ARC file's
//! records streamed (their gzip members inflated ahead by the driver's
//! workers when it has them), each HTML page read whole.

use std::io::{BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use spinneret_warc::{Container, Content, Options, Reader, Record};

use super::read::{PARALLEL_READ_FROM, read_html_limited, read_html_limited_on};
use super::source::{Item, Source};
use crate::read_ahead::Workers;

/// Where the producer's items go, in order.
pub trait Emit {
    /// The next item, and the input position in bytes after it (over all
    /// sources; compressed bytes for WARC files); `false` stops the
    /// producer.
    fn item(&mut self, item: Item, pos: u64) -> bool;
    /// Every item of the input just read was given, `pos` the position
    /// after it; `false` stops the producer.
    fn input_end(&mut self, _pos: u64) -> bool {
        true
    }
}

impl<F: FnMut(Item, u64) -> bool> Emit for F {
    fn item(&mut self, item: Item, pos: u64) -> bool {
        self(item, pos)
    }
}

/// Produces every item of `sources` in order, giving `emit` each and its
/// input position, and the end of each input. Stops early when `emit`
/// returns `false`. Streams WARC files
/// and standard input; with `workers`, their gzip members are inflated by
/// the workers ([`crate::read_ahead`]), else on this thread. Returns the
/// input bytes read.
pub fn produce(
    sources: &[Source],
    opts: Options,
    workers: Option<Workers<'_>>,
    emit: &mut dyn Emit,
) -> u64 {
    let mut base = 0u64;
    for s in sources {
        match s {
            Source::Unreadable { name, what } => {
                let item = Item::Unreadable {
                    file: Arc::from(name.as_str()),
                    what: what.clone(),
                };
                if !emit.item(item, base) {
                    return base;
                }
            }
            Source::Html { path, url } => {
                let item = page_item(path, url, opts.max_record_size, workers);
                base += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                if !emit.item(item, base) {
                    return base;
                }
            }
            Source::Pages(v) => {
                for (path, url) in v {
                    let item = page_item(path, url, opts.max_record_size, workers);
                    base += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                    if !emit.item(item, base) {
                        return base;
                    }
                }
            }
            _ => {
                let (name, reader) = open_stream(s);
                let file: Arc<str> = Arc::from(name);
                let reader = match reader {
                    Ok(r) => r,
                    Err(e) => {
                        let item = Item::Unreadable {
                            file,
                            what: e.to_string(),
                        };
                        if !emit.item(item, base) || !emit.input_end(base) {
                            return base;
                        }
                        continue;
                    }
                };
                let (read, stop) = std::thread::scope(|scope| {
                    // A skim inflates members' starts only: nothing to
                    // inflate ahead.
                    let skim = matches!(opts.content, Content::Skim(_));
                    let records = match workers.filter(|_| !skim) {
                        Some(w) => {
                            let (read, slots) = w.read_ahead(scope, reader, opts);
                            Reader::from_read_ahead(read, opts, Box::new(slots))
                        }
                        None => Reader::from_read(BufReader::new(reader), opts),
                    };
                    records_of(records, &file, base, emit)
                });
                if let Some(at) = stop {
                    return at;
                }
                base += read;
            }
        }
        if !emit.input_end(base) {
            return base;
        }
    }
    base
}

/// A streamed source's name (as shown: a remote one redacted) and its
/// bytes, opened.
pub fn open_stream(s: &Source) -> (String, std::io::Result<Box<dyn Read + Send>>) {
    match s {
        Source::Warc(p) => {
            let file = std::fs::File::open(p).map(|f| Box::new(f) as Box<dyn Read + Send>);
            (p.display().to_string(), file)
        }
        #[cfg(feature = "remote")]
        Source::Remote { url, remote, .. } => (
            spinneret_remote::redact(url),
            super::remote::open(remote, url).map(|r| Box::new(r) as Box<dyn Read + Send>),
        ),
        _ => (
            "-".to_owned(),
            Ok(Box::new(std::io::stdin()) as Box<dyn Read + Send>),
        ),
    }
}

/// Emits the items of one file's `records` (positions from `base`): the
/// bytes read, and where the run stopped if `emit` stopped it.
///
/// Each record is emitted once the item after it is read, so that its
/// [`Item::Record::end`] is known: the next item's offset, or the file's
/// size after the last.
fn records_of(
    mut records: Reader<'_>,
    file: &Arc<str>,
    base: u64,
    emit: &mut dyn Emit,
) -> (u64, Option<u64>) {
    let mut held: Option<Record> = None;
    // The held record, emitted with its end: where the run stopped if
    // `emit` stopped it.
    let release = |held: &mut Option<Record>,
                   end: u64,
                   container: Container,
                   emit: &mut dyn Emit|
     -> Option<u64> {
        let record = held.take()?;
        let off = record.offset;
        let item = Item::Record {
            file: file.clone(),
            record: Box::new(record),
            end,
            container,
        };
        (!emit.item(item, base + off)).then_some(base + off)
    };
    // Not a `for` loop: the container is asked of the reader between items.
    #[allow(clippy::while_let_on_iterator)]
    while let Some(r) = records.next() {
        let off = match &r {
            Ok(record) => record.offset,
            Err(e) => e.offset(),
        };
        if let Some(stop) = release(&mut held, off, records.container(), emit) {
            return (records.bytes_read(), Some(stop));
        }
        match r {
            Ok(record) => held = Some(record),
            Err(e) => {
                let item = Item::Bad {
                    file: file.clone(),
                    offset: Some(off),
                    what: e.to_string(),
                };
                if !emit.item(item, base + off) {
                    return (records.bytes_read(), Some(base + off));
                }
            }
        }
    }
    let size = records.bytes_read();
    if let Some(stop) = release(&mut held, size, records.container(), emit) {
        return (size, Some(stop));
    }
    (size, None)
}

/// The page at `path`; with `workers`, a large file is read by them
/// ([`read_html_limited_on`]: the faults of its fresh buffer and the copy
/// out of the page cache shared).
fn page_item(path: &Path, url: &str, max_size: u64, workers: Option<Workers<'_>>) -> Item {
    let file: Arc<str> = Arc::from(path.display().to_string());
    // (Only a file large enough to be read in pieces goes to the pool: a
    // small one read here costs no hand-over.)
    let large = || std::fs::metadata(path).is_ok_and(|m| m.len() >= PARALLEL_READ_FROM);
    let read = match workers {
        Some(w) if large() => {
            let threads = w.pool.current_num_threads();
            w.pool
                .install(|| read_html_limited_on(path, max_size, threads))
        }
        _ => read_html_limited(path, max_size),
    };
    match read {
        Ok(body) => Item::Page {
            file,
            url: url.to_owned(),
            body,
        },
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => Item::Bad {
            file,
            offset: None,
            what: format!("page exceeds max_record_size {max_size}; skipped"),
        },
        Err(e) => Item::Unreadable {
            file,
            what: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::source::tmpdir;
    use super::*;

    #[test]
    fn pages_over_the_size_limit_are_bad_items_read_no_further() {
        use std::io::Write;
        let d = tmpdir("limit");
        let page = b"<a href=x>y</a>".repeat(70_000); // 1,050,000 bytes
        std::fs::write(d.join("p.html"), &page).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&page).unwrap();
        std::fs::write(d.join("p.html.gz"), gz.finish().unwrap()).unwrap();
        for name in ["p.html", "p.html.gz"] {
            let path = d.join(name);
            let len = page.len() as u64;
            assert_eq!(read_html_limited(&path, len).unwrap(), page, "{name}");
            assert_eq!(read_html_limited(&path, u64::MAX).unwrap(), page, "{name}");
            let err = read_html_limited(&path, len - 1).unwrap_err();
            assert_eq!(
                err.kind(),
                std::io::ErrorKind::FileTooLarge,
                "{name}: {err}"
            );
            // In a run: a bad item saying why, and the run goes on.
            let sources = [Source::Html {
                path: path.clone(),
                url: "https://a.example/".to_owned(),
            }];
            let opts = Options {
                max_record_size: 1 << 20,
                ..Options::default()
            };
            let mut items = Vec::new();
            produce(&sources, opts, None, &mut |item: Item, _: u64| {
                items.push(item);
                true
            });
            assert!(
                matches!(&items[..], [Item::Bad { what, .. }] if what.contains("max_record_size")),
                "{name}"
            );
        }
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn produce_reports_damage_and_continues() {
        let d = tmpdir("produce");
        let good = b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: https://a.example/\r\nContent-Type: text/html\r\nContent-Length: 12\r\n\r\n<a href=x>y\n\r\n\r\n";
        let mut data = b"garbage that is not a record\r\n\r\n".to_vec();
        data.extend_from_slice(good);
        std::fs::write(d.join("w.warc"), &data).unwrap();
        let mut kinds = Vec::new();
        produce(
            &[Source::Warc(d.join("w.warc"))],
            Options::default(),
            None,
            &mut |item: Item, _: u64| {
                kinds.push(match item {
                    Item::Record { .. } => "record",
                    Item::Bad { .. } => "bad",
                    Item::Unreadable { .. } => "unreadable",
                    Item::Page { .. } => "page",
                });
                true
            },
        );
        assert_eq!(kinds.last(), Some(&"record"));
        assert!(kinds.contains(&"bad"));
        std::fs::remove_dir_all(d).unwrap();
    }
}
