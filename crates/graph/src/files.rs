//! Common Crawl's text formats for web graphs, gzip-compressed:
//!
//! - vertices: `id<TAB>reversed name` per line, ids 0..n−1 in order (a
//!   domain graph's lines add `<TAB>number of hosts`);
//! - edges: `from<TAB>to` per line, sorted numerically.
//!
//! Readers take plain or gzip files (by their first bytes) and report a
//! malformed line with its file and number.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use flate2::Compression;
use flate2::read::MultiGzDecoder;
use flate2::write::GzEncoder;

use crate::GraphError;

/// A gzip text file being written (`vertices.txt.gz`, `edges.txt.gz`).
pub struct GzLines {
    out: GzEncoder<BufWriter<File>>,
    line: Vec<u8>,
}

impl GzLines {
    /// Creates `path`.
    pub fn create(path: &Path) -> io::Result<GzLines> {
        let file = BufWriter::with_capacity(1 << 16, File::create(path)?);
        Ok(GzLines {
            out: GzEncoder::new(file, Compression::new(6)),
            line: Vec::with_capacity(256),
        })
    }

    /// A vertex line: `id<TAB>name`, and `<TAB>hosts` when given.
    pub fn vertex(&mut self, id: u64, name: &str, hosts: Option<u64>) -> io::Result<()> {
        self.line.clear();
        push_u64(&mut self.line, id);
        self.line.push(b'\t');
        self.line.extend_from_slice(name.as_bytes());
        if let Some(n) = hosts {
            self.line.push(b'\t');
            push_u64(&mut self.line, n);
        }
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    /// The gzip stream, for free-form lines (a ranks file).
    pub fn writer(&mut self) -> &mut dyn Write {
        &mut self.out
    }

    /// An edge line: `from<TAB>to`.
    pub fn edge(&mut self, from: u64, to: u64) -> io::Result<()> {
        self.line.clear();
        push_u64(&mut self.line, from);
        self.line.push(b'\t');
        push_u64(&mut self.line, to);
        self.line.push(b'\n');
        self.out.write_all(&self.line)
    }

    /// Completes the gzip stream and syncs the file.
    pub fn finish(self) -> io::Result<()> {
        let file = self.out.finish()?;
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()
    }
}

fn push_u64(out: &mut Vec<u8>, n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// The lines of a text file, plain or gzip (several members too).
fn lines(path: &Path) -> io::Result<io::Split<Box<dyn BufRead>>> {
    let mut file = BufReader::with_capacity(1 << 16, File::open(path)?);
    let gzip = file.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::with_capacity(1 << 16, MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    Ok(reader.split(b'\n'))
}

/// The vertices of a vertex file: `(id, name)`, a third column ignored.
pub fn read_vertices(
    path: &Path,
) -> io::Result<impl Iterator<Item = Result<(u64, String), GraphError>>> {
    Ok(read_vertices_with_hosts(path)?.map(|v| v.map(|(id, name, _)| (id, name))))
}

/// A vertex line: its id, its reversed name, and its number of hosts
/// when the file has a third column.
pub type Vertex = (u64, String, Option<u64>);

/// The vertices of a vertex file with their third column when it has one
/// (a domain's number of hosts): `(id, name, hosts)`.
pub fn read_vertices_with_hosts(
    path: &Path,
) -> io::Result<impl Iterator<Item = Result<Vertex, GraphError>>> {
    parsed_lines(path, "not id<TAB>name[<TAB>hosts]", |line| {
        let mut cols = line.split(|&b| b == b'\t');
        let id = cols.next().and_then(parse_u64)?;
        let name = cols.next().and_then(|n| std::str::from_utf8(n).ok())?;
        let hosts = match cols.next() {
            None => None,
            Some(n) => Some(parse_u64(n)?),
        };
        (!name.is_empty()).then(|| (id, name.to_owned(), hosts))
    })
}

/// The edges of an edge file: `(from, to)`.
pub fn read_edges(path: &Path) -> io::Result<impl Iterator<Item = Result<(u64, u64), GraphError>>> {
    parsed_lines(path, "not from<TAB>to", |line| {
        let mut cols = line.split(|&b| b == b'\t');
        let from = cols.next().and_then(parse_u64)?;
        let to = cols.next().and_then(parse_u64)?;
        cols.next().is_none().then_some((from, to))
    })
}

/// Each non-empty line of `path` (a trailing CR dropped) through `parse`;
/// a line it refuses is a [`GraphError::Format`] saying `what`, with the
/// file and the line's number.
fn parsed_lines<T>(
    path: &Path,
    what: &'static str,
    parse: impl Fn(&[u8]) -> Option<T>,
) -> io::Result<impl Iterator<Item = Result<T, GraphError>>> {
    let file = path.display().to_string();
    let mut number = 0u64;
    Ok(lines(path)?.filter_map(move |line| {
        number += 1;
        let line = match line {
            Ok(l) => l,
            Err(e) => return Some(Err(GraphError::Io(e))),
        };
        let line = line.strip_suffix(b"\r").unwrap_or(&line);
        if line.is_empty() {
            return None;
        }
        Some(parse(line).ok_or_else(|| GraphError::Format {
            file: file.clone(),
            line: number,
            what: what.to_owned(),
        }))
    }))
}

fn parse_u64(s: &[u8]) -> Option<u64> {
    if s.is_empty() || s.len() > 20 || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// Reads all of `r` (a small helper for tests and tools: the whole text of
/// a gzip file).
pub fn read_gz_text(path: &Path) -> io::Result<String> {
    let mut text = String::new();
    MultiGzDecoder::new(File::open(path)?).read_to_string(&mut text)?;
    Ok(text)
}
