//! Inputs of `spinneret links`, `text` and `canon-eval`: resolution of the command
//! line into [`Source`]s (files, directories walked and globs expanded by
//! [`spinneret_warc::discover`], `-`, `--html`, `--manifest`), and the
//! producer that turns sources into work [`Item`]s in input order.
//!
//! Invariants: only a command line that cannot mean anything (no input at
//! all, a manifest that cannot be read, a bad `--url`) is an [`Error`]
//! before any output. A path that yields nothing (missing, unreadable, a
//! glob that matches nothing, a symbolic-link loop) is a
//! [`Source::Unreadable`] in its place and becomes an [`Item::Unreadable`];
//! a damaged record or a manifest row without a URL becomes an
//! [`Item::Bad`]; the run reports each and goes on with the rest. Only one
//! WARC file is held in memory at a time (the reader works on a byte
//! slice).

use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use spinneret_warc::discover::Discover;
use spinneret_warc::{Container, Options, Reader, Record};

use crate::Error;
use crate::args::LinksArgs;
use crate::read_ahead::Workers;

/// One input, as resolved from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A WARC/ARC file.
    Warc(PathBuf),
    /// Standard input, streamed.
    Stdin,
    /// One HTML page and its URL.
    Html {
        /// The HTML file.
        path: PathBuf,
        /// The URL it was fetched from (empty when none was given, which
        /// only `text` allows).
        url: String,
    },
    /// HTML pages listed in a manifest: `(path, url)`, paths resolved.
    Pages(Vec<(PathBuf, String)>),
    /// An input that yields nothing: reported in its place.
    Unreadable {
        /// The input, as given.
        name: String,
        /// Why (for stderr).
        what: String,
    },
}

/// A unit of work, in input order.
#[derive(Debug)]
pub enum Item {
    /// A WARC/ARC record of `file`.
    Record {
        /// The input file's name, as given.
        file: Arc<str>,
        /// The record.
        record: Box<Record>,
        /// The file offset where the next item (record or damage) starts,
        /// or the file's size after the last: with [`Record::offset`], the
        /// byte range a replay system reads (for a compressed file, the
        /// record's gzip members — when two records share a member, the
        /// first one's `end` equals its offset).
        end: u64,
        /// The file's container (plain, gzip, zstd).
        container: Container,
    },
    /// An HTML file with its URL.
    Page {
        /// The file's path, as listed.
        file: Arc<str>,
        /// The page's URL.
        url: String,
        /// The file's bytes (decompressed when `.gz`).
        body: Vec<u8>,
    },
    /// An input that could not be read at all: reported, counted, and
    /// the run's exit code is 1.
    Unreadable {
        /// The input's name.
        file: Arc<str>,
        /// What is wrong (for stderr).
        what: String,
    },
    /// A bad record or page: reported, counted, skipped.
    Bad {
        /// The input file's name, as given.
        file: Arc<str>,
        /// The damaged record's offset in the file, when there is one.
        offset: Option<u64>,
        /// What is wrong (for stderr).
        what: String,
    },
}

impl Item {
    /// An estimate of the memory the item holds (for batch sizing).
    pub fn weight(&self) -> usize {
        match self {
            Item::Record { record, .. } => record.body.len() + record.block.len() + 512,
            Item::Page { body, .. } => body.len() + 256,
            Item::Bad { .. } | Item::Unreadable { .. } => 64,
        }
    }
}

/// Expands one positional input into sources: `-` is standard input; a
/// file, a directory (walked for WARC/ARC files) or a glob is expanded by
/// [`Discover::expand`], each part that yields no file becoming a
/// [`Source::Unreadable`] in its place.
pub fn expand_input(input: &str, discover: Discover) -> Vec<Source> {
    if input == "-" {
        return vec![Source::Stdin];
    }
    discover
        .expand(input)
        .into_iter()
        .map(|found| match found {
            Ok(path) => Source::Warc(path),
            Err(e) => Source::Unreadable {
                name: e.path().to_owned(),
                what: e.reason(),
            },
        })
        .collect()
}

/// A manifest's text: gzip decompressed (by its magic), lossy UTF-8.
fn read_manifest_text(manifest: &Path) -> Result<String, Error> {
    spinneret_warc::discover::read_list_file(manifest).map_err(|source| Error::Input {
        path: manifest.display().to_string(),
        source,
    })
}

/// The column positions of `path` and `url` when the header line of a
/// manifest names both (a TSV of HTML pages).
fn page_columns(header: &str) -> Option<(usize, usize)> {
    let header: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |want: &str| header.iter().position(|h| *h == want);
    Some((col("path")?, col("url")?))
}

/// The HTML pages of a manifest whose header line names `path` and `url`
/// columns (others ignored). Rows with too few columns are kept with an
/// empty URL and reported as bad when processed.
fn pages_of_manifest(
    text: &str,
    manifest: &Path,
    dir: &Path,
) -> Result<Vec<(PathBuf, String)>, Error> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let Some((pc, uc)) = page_columns(header) else {
        return Err(Error::Manifest {
            path: manifest.display().to_string(),
            what: "no `path` and `url` columns in the header line".to_owned(),
        });
    };
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let p = f.get(pc).copied().unwrap_or("");
            let u = f.get(uc).copied().unwrap_or("");
            (dir.join(p), u.trim().to_owned())
        })
        .collect())
}

/// The sources a `--manifest` lists: HTML pages when its header line
/// names `path` and `url` columns (a TSV), else WARC/ARC files, one path a
/// line (Common Crawl's `warc.paths.gz`; plain or gzip). Relative paths are
/// joined to `dir` (`--dir`), by default the manifest's folder. A listed
/// WARC path is taken whatever its name; one that is a directory is walked.
pub fn manifest_sources(
    manifest: &Path,
    dir: Option<&Path>,
    discover: Discover,
) -> Result<Vec<Source>, Error> {
    let dir = dir.or(manifest.parent()).unwrap_or(Path::new(""));
    let text = read_manifest_text(manifest)?;
    if page_columns(text.lines().next().unwrap_or("")).is_some() {
        return Ok(vec![Source::Pages(pages_of_manifest(
            &text, manifest, dir,
        )?)]);
    }
    let list = spinneret_warc::discover::paths_of_list(&text, dir);
    Ok(list
        .iter()
        .flat_map(|p| {
            let name = p.display().to_string();
            if name.contains("://") {
                return vec![Source::Unreadable {
                    name,
                    what: "a remote path: download it first".to_owned(),
                }];
            }
            expand_input(&name, discover)
        })
        .collect())
}

/// Resolves the whole command line of `links`, in order: positional
/// inputs, `--html`, `--manifest`.
pub fn resolve(args: &LinksArgs) -> Result<Vec<Source>, Error> {
    resolve_inputs(&Inputs {
        inputs: &args.inputs,
        sniff: args.sniff,
        html: args.html.as_deref(),
        url: args.url.as_deref(),
        manifest: args.manifest.as_deref(),
        dir: args.dir.as_deref(),
    })
}

/// The inputs of a subcommand that reads crawl files and HTML pages
/// (`links`, `text`), as given on its command line.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// Positional inputs: files, directories, globs, `-`.
    pub inputs: &'a [String],
    /// `--sniff`: in directories, take files whose content is WARC/ARC.
    pub sniff: bool,
    /// `--html FILE`: one HTML page.
    pub html: Option<&'a Path>,
    /// `--url URL`: the `--html` page's URL. Without it the page's
    /// [`Source::Html::url`] is empty (`text` takes such a page; `links`
    /// requires the URL on its command line).
    pub url: Option<&'a str>,
    /// `--manifest FILE`.
    pub manifest: Option<&'a Path>,
    /// `--dir DIR`: the folder the manifest's paths are relative to.
    pub dir: Option<&'a Path>,
}

/// Resolves `inputs`, in order: positional inputs, `--html`,
/// `--manifest`. A `--url` that is not a URL is an [`Error::Url`].
pub fn resolve_inputs(inputs: &Inputs<'_>) -> Result<Vec<Source>, Error> {
    let discover = Discover {
        sniff: inputs.sniff,
        ..Discover::default()
    };
    let mut out = Vec::new();
    for i in inputs.inputs {
        out.extend(expand_input(i, discover));
    }
    if let Some(url) = inputs.url {
        spinneret_url::Url::parse(url).map_err(|source| Error::Url {
            url: url.to_owned(),
            source,
        })?;
    }
    if let Some(path) = inputs.html {
        out.push(Source::Html {
            path: path.to_owned(),
            url: inputs.url.unwrap_or_default().to_owned(),
        });
    }
    if let Some(m) = inputs.manifest {
        out.extend(manifest_sources(m, inputs.dir, discover)?);
    }
    if out.is_empty() {
        return Err(Error::NoInput);
    }
    Ok(out)
}

/// Resolves crawl-file inputs (`index`, `check`): positional inputs, then
/// `--manifest` (relative to `dir`).
pub fn resolve_crawl(
    inputs: &[String],
    sniff: bool,
    manifest: Option<&Path>,
    dir: Option<&Path>,
) -> Result<Vec<Source>, Error> {
    let discover = Discover {
        sniff,
        ..Discover::default()
    };
    let mut out: Vec<Source> = inputs
        .iter()
        .flat_map(|i| expand_input(i, discover))
        .collect();
    if let Some(m) = manifest {
        out.extend(manifest_sources(m, dir, discover)?);
    }
    if out.is_empty() {
        return Err(Error::NoInput);
    }
    Ok(out)
}

/// The size in bytes of a source, for progress (0 when unknown).
pub fn source_len(s: &Source) -> u64 {
    let len = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    match s {
        Source::Warc(p) | Source::Html { path: p, .. } => len(p),
        Source::Stdin | Source::Unreadable { .. } => 0,
        Source::Pages(v) => v.iter().map(|(p, _)| len(p)).sum(),
    }
}

/// Reads an HTML file, decompressing `.gz`, of at most `limit` bytes
/// (decompressed): a larger one is an error of kind
/// [`FileTooLarge`](std::io::ErrorKind::FileTooLarge), found without
/// holding more than `limit + 1` bytes of it (a gzip bomb costs no more
/// memory than a page at the limit).
pub fn read_html_limited(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let compressed = std::io::BufReader::new(file);
        return read_limited(flate2::bufread::MultiGzDecoder::new(compressed), limit);
    }
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_large(limit));
    }
    // Room for the whole file at once (and the byte that shows it did
    // not grow since), so the buffer is never copied to grow.
    read_limited_into(Vec::with_capacity(room(len + 1)), file, limit)
}

/// [`read_html_limited`], with a large uncompressed file read by
/// `threads` threads of rayon's current pool, each reading its pieces of
/// [`READ_PIECE`] bytes at their offsets into one buffer (what a read of
/// 64 MB costs is mostly the copy out of the page cache and the faults of
/// the fresh buffer, which the threads share). The bytes are the file's:
/// a file that shrinks or grows while it is read is read again, whole,
/// as [`read_html_limited`] reads it.
pub fn read_html_limited_on(path: &Path, limit: u64, threads: usize) -> std::io::Result<Vec<u8>> {
    #[cfg(unix)]
    if threads >= 2 && path.extension().is_none_or(|e| e != "gz") {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        if len > limit {
            return Err(too_large(limit));
        }
        if len >= PARALLEL_READ_FROM
            && let Some(bytes) = read_in_pieces(&file, len)?
        {
            return Ok(bytes);
        }
    }
    let _ = threads;
    read_html_limited(path, limit)
}

/// Files of at least this size are read in pieces by
/// [`read_html_limited_on`].
pub const PARALLEL_READ_FROM: u64 = 4 << 20;

/// The piece each thread reads at a time.
pub const READ_PIECE: usize = 1 << 20;

/// The `len` bytes of `file`, read in pieces on the pool; `None` if the
/// file turned out not to hold exactly `len` bytes.
#[cfg(unix)]
fn read_in_pieces(file: &std::fs::File, len: u64) -> std::io::Result<Option<Vec<u8>>> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;
    let Ok(size) = usize::try_from(len) else {
        return Ok(None);
    };
    // Zeroed by the allocator as fresh pages: nothing is written here,
    // and each page is faulted in by the thread that reads into it.
    let mut bytes = vec![0u8; size];
    let read = bytes
        .par_chunks_mut(READ_PIECE)
        .enumerate()
        .try_for_each(|(i, piece)| file.read_exact_at(piece, (i * READ_PIECE) as u64));
    match read {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    // A byte past the end: the file grew while it was read.
    if file.read_at(&mut [0u8], len)? != 0 {
        return Ok(None);
    }
    Ok(Some(bytes))
}

/// All of `reader` if it holds at most `limit` bytes, reading no more
/// than `limit + 1` of them; else an error of kind
/// [`FileTooLarge`](std::io::ErrorKind::FileTooLarge).
///
/// The buffer doubles as it fills but never past `limit + 1` bytes (a
/// plain `read_to_end` doubles to twice the limit, and holds three times
/// the limit while it copies). Measured with `spinneret tree` on a 2 MB
/// gzip bomb at the 64 MiB default: 218 MB peak RSS before, 159 MB now
/// (the allocator keeps the smaller buffers it freed).
pub fn read_limited(reader: impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    read_limited_into(Vec::new(), reader, limit)
}

/// The first growth of [`read_limited`]'s buffer.
const FIRST_READ: u64 = 8 << 10;

/// [`read_limited`], into `out` (empty, with whatever capacity).
fn read_limited_into(
    mut out: Vec<u8>,
    mut reader: impl Read,
    limit: u64,
) -> std::io::Result<Vec<u8>> {
    let most = limit.saturating_add(1);
    loop {
        let len = out.len() as u64;
        let spare = (out.capacity() as u64).saturating_sub(len);
        let want = if spare > 0 {
            spare
        } else {
            len.max(FIRST_READ)
        };
        let step = want.min(most - len);
        if step == 0 {
            break;
        }
        out.try_reserve_exact(room(step))?;
        // `take` stops the read at the reserved room: `read_to_end` never
        // grows the buffer itself.
        let read = (&mut reader).take(step).read_to_end(&mut out)?;
        if (read as u64) < step {
            break;
        }
    }
    if out.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(out)
}

/// `bytes` as a capacity (saturating on 32-bit targets).
fn room(bytes: u64) -> usize {
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

fn too_large(limit: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!("larger than {limit} bytes"),
    )
}

/// Produces every item of `sources` in order, calling `emit` with each and
/// its input position in bytes (over all sources; compressed bytes for
/// WARC files). Stops early when `emit` returns `false`. Streams WARC files
/// and standard input; with `workers`, their gzip members are inflated by
/// the workers ([`crate::read_ahead`]), else on this thread. Returns the
/// input bytes read.
pub fn produce(
    sources: &[Source],
    opts: Options,
    workers: Option<Workers<'_>>,
    emit: &mut dyn FnMut(Item, u64) -> bool,
) -> u64 {
    let mut base = 0u64;
    for s in sources {
        match s {
            Source::Warc(_) | Source::Stdin => {
                let (name, reader) = match s {
                    Source::Warc(p) => {
                        let file =
                            std::fs::File::open(p).map(|f| Box::new(f) as Box<dyn Read + Send>);
                        (p.display().to_string(), file)
                    }
                    _ => (
                        "-".to_owned(),
                        Ok(Box::new(std::io::stdin()) as Box<dyn Read + Send>),
                    ),
                };
                let file: Arc<str> = Arc::from(name);
                let reader = match reader {
                    Ok(r) => r,
                    Err(e) => {
                        let item = Item::Unreadable {
                            file,
                            what: e.to_string(),
                        };
                        if !emit(item, base) {
                            return base;
                        }
                        continue;
                    }
                };
                let (read, stop) = std::thread::scope(|scope| {
                    let records = match workers {
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
            Source::Unreadable { name, what } => {
                let item = Item::Unreadable {
                    file: Arc::from(name.as_str()),
                    what: what.clone(),
                };
                if !emit(item, base) {
                    return base;
                }
            }
            Source::Html { path, url } => {
                let item = page_item(path, url, opts.max_record_size, workers);
                base += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                if !emit(item, base) {
                    return base;
                }
            }
            Source::Pages(v) => {
                for (path, url) in v {
                    let item = page_item(path, url, opts.max_record_size, workers);
                    base += std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                    if !emit(item, base) {
                        return base;
                    }
                }
            }
        }
    }
    base
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
    emit: &mut dyn FnMut(Item, u64) -> bool,
) -> (u64, Option<u64>) {
    let mut held: Option<Record> = None;
    // The held record, emitted with its end: where the run stopped if
    // `emit` stopped it.
    let release = |held: &mut Option<Record>,
                   end: u64,
                   container: Container,
                   emit: &mut dyn FnMut(Item, u64) -> bool|
     -> Option<u64> {
        let record = held.take()?;
        let off = record.offset;
        let item = Item::Record {
            file: file.clone(),
            record: Box::new(record),
            end,
            container,
        };
        (!emit(item, base + off)).then_some(base + off)
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
                if !emit(item, base + off) {
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
    use super::*;

    #[test]
    fn a_large_file_read_in_pieces_is_the_file() {
        let dir = tmpdir("read-pieces");
        // Not a multiple of the piece: the last piece is short.
        let len = PARALLEL_READ_FROM as usize + READ_PIECE + 12_345;
        let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let path = dir.join("big.html");
        std::fs::write(&path, &data).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for threads in [1, 2, 3] {
            let got = pool.install(|| read_html_limited_on(&path, len as u64, threads));
            assert!(got.unwrap() == data, "{threads} threads");
        }
        // One byte over the limit: refused before reading.
        let err = pool
            .install(|| read_html_limited_on(&path, len as u64 - 1, 2))
            .unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        // A small file, and a missing one.
        std::fs::write(&path, b"<p>a").unwrap();
        assert_eq!(read_html_limited_on(&path, 100, 2).unwrap(), b"<p>a");
        assert!(read_html_limited_on(&dir.join("missing.html"), 100, 2).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn read_limited_holds_no_more_than_the_limit_and_a_byte() {
        // A stream (no size known) of 0, 1, at, one over and far over the
        // limit; the limit itself small, large and odd.
        for limit in [0u64, 1, 5, 8 << 10, (8 << 10) + 1, 100_000, 1 << 20] {
            for len in [0, 1, limit, limit + 1, limit * 3 + 7] {
                let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let got = read_limited(std::io::Cursor::new(&data), limit);
                if len <= limit {
                    let got = got.unwrap();
                    assert_eq!(got, data, "limit {limit}, {len} bytes");
                    assert!(
                        got.capacity() as u64 <= limit + 1,
                        "limit {limit}, {len} bytes"
                    );
                } else {
                    let err = got.unwrap_err();
                    assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
                }
            }
        }
        // A reader that hands out one byte at a time still stops at the
        // limit and a byte.
        struct Trickle(u64);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 || buf.is_empty() {
                    return Ok(0);
                }
                self.0 -= 1;
                buf[0] = b'x';
                Ok(1)
            }
        }
        let mut left = Trickle(u64::MAX);
        let err = read_limited(&mut left, 1000).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(
            left.0,
            u64::MAX - 1001,
            "reads the limit and a byte, no more"
        );
        assert_eq!(read_limited(Trickle(1000), 1000).unwrap().len(), 1000);
    }

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("spinneret-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn inputs_expand_in_order_with_unreadable_ones_in_place() {
        let d = tmpdir("glob");
        for n in ["b.warc", "a.warc", "c.txt", "tree/x.warc.gz", "tree/y.txt"] {
            let p = d.join(n);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"x").unwrap();
        }
        let discover = Discover::default();
        let pat = format!("{}/*.warc", d.display());
        assert_eq!(
            expand_input(&pat, discover),
            [
                Source::Warc(d.join("a.warc")),
                Source::Warc(d.join("b.warc"))
            ]
        );
        // A directory is walked; a named file is taken whatever its name.
        let tree = d.join("tree");
        assert_eq!(
            expand_input(tree.to_str().unwrap(), discover),
            [Source::Warc(tree.join("x.warc.gz"))]
        );
        let txt = d.join("c.txt");
        assert_eq!(
            expand_input(txt.to_str().unwrap(), discover),
            [Source::Warc(txt.clone())]
        );
        for missing in [
            format!("{}/*.none", d.display()),
            format!("{}/missing.warc", d.display()),
        ] {
            let got = expand_input(&missing, discover);
            assert!(
                matches!(&got[..], [Source::Unreadable { .. }]),
                "{missing}: {got:?}"
            );
        }
        assert_eq!(expand_input("-", discover), [Source::Stdin]);
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn a_manifest_lists_pages_or_crawl_files() {
        use std::io::Write;
        let d = tmpdir("manifest-kinds");
        std::fs::create_dir_all(d.join("crawl-data")).unwrap();
        std::fs::write(d.join("crawl-data/a.warc.gz"), b"x").unwrap();
        let paths = "crawl-data/a.warc.gz\ncrawl-data/gone.warc.gz\ns3://bucket/x.warc.gz\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(paths.as_bytes()).unwrap();
        std::fs::write(d.join("warc.paths.gz"), gz.finish().unwrap()).unwrap();
        let got =
            manifest_sources(&d.join("warc.paths.gz"), Some(&d), Discover::default()).unwrap();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], Source::Warc(d.join("crawl-data/a.warc.gz")));
        assert!(
            matches!(&got[1], Source::Unreadable { name, .. } if name.ends_with("gone.warc.gz"))
        );
        assert!(matches!(&got[2], Source::Unreadable { what, .. } if what.contains("remote")));
        std::fs::write(d.join("pages.tsv"), "url\tpath\nhttps://a/\tp.html\n").unwrap();
        let got = manifest_sources(
            &d.join("pages.tsv"),
            Some(Path::new("/b")),
            Discover::default(),
        );
        assert_eq!(
            got.unwrap(),
            [Source::Pages(vec![(
                PathBuf::from("/b/p.html"),
                "https://a/".to_owned()
            )])]
        );
        std::fs::remove_dir_all(d).unwrap();
    }

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
            produce(&sources, opts, None, &mut |item, _| {
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

    /// The pages of a manifest of HTML pages.
    fn read_manifest(m: &Path, dir: &Path) -> Result<Vec<(PathBuf, String)>, Error> {
        pages_of_manifest(&read_manifest_text(m)?, m, dir)
    }

    #[test]
    fn manifest_columns() {
        let d = tmpdir("manifest");
        let m = d.join("m.tsv");
        std::fs::write(&m, "id\turl\tpath\n1\thttps://a/\tp/a.html\n2\n").unwrap();
        let rows = read_manifest(&m, Path::new("/base")).unwrap();
        assert_eq!(
            rows,
            [
                (PathBuf::from("/base/p/a.html"), "https://a/".to_owned()),
                (PathBuf::from("/base"), String::new()),
            ]
        );
        std::fs::write(&m, "id\tpath\n").unwrap();
        assert!(matches!(read_manifest(&m, &d), Err(Error::Manifest { .. })));
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
            &mut |item, _| {
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
