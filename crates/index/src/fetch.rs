//! A record by its place in a file, as an index line gives it: the line
//! read into a [`Location`] (CDXJ's `filename`, `offset`, `length`; a CDX
//! line's `g`, `V` and `S` columns, as its ` CDX …` legend names them), and
//! the record read from a folder by its byte range ([`fetch`]) and checked
//! to be exactly one WARC record.
//!
//! What `spinneret get` and the Python package's `get_records` share. The
//! checks are of framing, read by `spinneret-warc`'s reader (a gzip
//! member whole, a record's length and its end): a range that holds less,
//! more, or something else than one record is a [`FetchError`], never
//! bytes passed on as a record; a record whose HTTP head is damaged is
//! still the record. A range in decompressed data (a whole-file gzip's
//! `"offset-kind": "decompressed"` line) is a [`LineError`]: no range of
//! the file reaches it. A `filename` may not leave the folder.
//!
//! Records are returned as gzip members ([`as_gzip_member`]): verbatim
//! when stored as one, so their bytes (and digests) are the archive's.

use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Component, Path, PathBuf};

use spinneret_warc::{Options, Reader, RecordError};

/// Why an index line names no record.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// A ` CDX` legend without the `g`, `V` and `S` columns.
    #[error("a CDX legend without g, V and S")]
    Legend,
    /// A CDXJ line whose JSON does not parse.
    #[error("not CDXJ: {0}")]
    Json(String),
    /// A CDXJ line without a field (or with one that is not a number).
    #[error("no `{0}` in the CDXJ line")]
    Field(&'static str),
    /// A CDX line without a filename.
    #[error("no filename in the CDX line")]
    NoFilename,
    /// A CDX line whose offset or length is not a number.
    #[error("no {what} number in CDX column {column}")]
    Column {
        /// `offset` or `length`.
        what: &'static str,
        /// The column, counted from 1.
        column: usize,
    },
    /// A range in decompressed data.
    #[error("a range in decompressed data (a whole-file gzip): no file range reaches it")]
    Decompressed,
}

/// Why a range is not a record.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// A filename that is absolute or climbs out of the folder.
    #[error("{0:?} is not a path under the base folder")]
    OutsideBase(String),
    /// A length of 0, or over the limit.
    #[error("length {length} (at most {max})")]
    Length {
        /// The range's length.
        length: u64,
        /// The limit.
        max: u64,
    },
    /// The file cannot be read.
    #[error("{path}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The file ends inside the range.
    #[error("the file ends {0} bytes into the range")]
    Short(u64),
    /// The reader found no record at the range's start.
    #[error("not a record: {0}")]
    NotARecord(String),
    /// More than one record (or a record and more) in the range.
    #[error("more than one record in the range")]
    MoreThanOne,
    /// An ARC record (the output is WARC).
    #[error("an ARC record, not a WARC record")]
    Arc,
    /// Neither a gzip member nor a plain WARC record (a zstd frame).
    #[error("neither a gzip member nor a plain WARC record (a zstd frame?)")]
    NotGzipOrWarc,
    /// Compressing a plain record failed.
    #[error("compressing the record")]
    Compress(#[source] io::Error),
}

/// Where a record is: its file (relative to `--base`) and byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file, as the index names it.
    pub filename: String,
    /// The record's offset in the file.
    pub offset: u64,
    /// Its length (the gzip member's, for a compressed file).
    pub length: u64,
}

/// The columns of a CDX line (its legend's letters); the 11-field
/// default until a ` CDX …` line says otherwise.
#[derive(Debug, Clone)]
pub struct Legend {
    filename: usize,
    offset: usize,
    length: usize,
}

impl Default for Legend {
    /// ` CDX N b a m s k r M S V g`.
    fn default() -> Legend {
        Legend {
            filename: 10,
            offset: 9,
            length: 8,
        }
    }
}

impl Legend {
    /// The legend of a ` CDX …` line, if it names the three columns.
    fn of(line: &str) -> Option<Legend> {
        let letters: Vec<&str> = line.split_whitespace().skip(1).collect();
        let at = |l: &str| letters.iter().position(|x| *x == l);
        Some(Legend {
            filename: at("g")?,
            offset: at("V")?,
            length: at("S")?,
        })
    }
}

/// The record `line` names: `Ok(None)` for a line that names none (a CDX
/// legend, which updates `legend`, or a blank line).
pub fn locate(line: &str, legend: &mut Legend) -> Result<Option<Location>, LineError> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() {
        return Ok(None);
    }
    if line.starts_with(" CDX ") {
        *legend = Legend::of(line).ok_or(LineError::Legend)?;
        return Ok(None);
    }
    let mut parts = line.splitn(3, ' ');
    let (_, _, rest) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
    if rest.starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(rest).map_err(|e| LineError::Json(e.to_string()))?;
        if v.get("offset-kind").and_then(|k| k.as_str()) == Some("decompressed") {
            return Err(LineError::Decompressed);
        }
        let number = |key: &'static str| -> Result<u64, LineError> {
            match v.get(key) {
                Some(serde_json::Value::String(s)) => s.parse().ok(),
                Some(serde_json::Value::Number(n)) => n.as_u64(),
                _ => None,
            }
            .ok_or(LineError::Field(key))
        };
        let filename = v
            .get("filename")
            .and_then(|f| f.as_str())
            .ok_or(LineError::Field("filename"))?;
        return Ok(Some(Location {
            filename: filename.to_owned(),
            offset: number("offset")?,
            length: number("length")?,
        }));
    }
    let fields: Vec<&str> = line.split(' ').collect();
    let field = |i: usize| fields.get(i).copied().filter(|f| *f != "-");
    let number = |i: usize, what: &'static str| {
        field(i)
            .and_then(|f| f.parse::<u64>().ok())
            .ok_or(LineError::Column {
                what,
                column: i + 1,
            })
    };
    Ok(Some(Location {
        filename: field(legend.filename)
            .ok_or(LineError::NoFilename)?
            .to_owned(),
        offset: number(legend.offset, "offset")?,
        length: number(legend.length, "length")?,
    }))
}

/// The path of `filename` under `base`: relative, and not leaving it.
pub fn path_under(base: &Path, filename: &str) -> Result<PathBuf, FetchError> {
    let rel = Path::new(filename);
    if rel
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(FetchError::OutsideBase(filename.to_owned()));
    }
    Ok(base.join(rel))
}

/// The URL of `filename` under a remote `base` (`https://host/prefix/`,
/// `s3://bucket/`): `filename` itself when it is a URL (`SCHEME://…`),
/// else joined to the base, held to it as [`path_under`] holds a path to
/// its folder.
pub fn url_under(base: &str, filename: &str) -> Result<String, FetchError> {
    if filename.contains("://") {
        return Ok(filename.to_owned());
    }
    path_under(Path::new(""), filename)?;
    Ok(format!(
        "{}/{}",
        base.trim_end_matches('/'),
        filename.trim_start_matches("./")
    ))
}

/// The record at `loc`, read and checked (exactly one record).
pub fn fetch(base: &Path, loc: &Location, max: u64) -> Result<Vec<u8>, FetchError> {
    check_length(loc, max)?;
    let path = path_under(base, &loc.filename)?;
    let io = |source| FetchError::Io {
        path: path.display().to_string(),
        source,
    };
    let mut file = std::fs::File::open(&path).map_err(io)?;
    file.seek(SeekFrom::Start(loc.offset)).map_err(io)?;
    let mut bytes = Vec::new();
    (&mut file)
        .take(loc.length)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    check_record(bytes, loc, max)
}

/// Whether `loc`'s length can be fetched: not zero, at most `max`.
pub fn check_length(loc: &Location, max: u64) -> Result<(), FetchError> {
    if loc.length == 0 || loc.length > max {
        return Err(FetchError::Length {
            length: loc.length,
            max,
        });
    }
    Ok(())
}

/// The bytes read for `loc` (from a file or a remote object), checked: all
/// of its length, exactly one WARC record (framing, not content), not an
/// ARC record; as a gzip member ([`as_gzip_member`]).
pub fn check_record(bytes: Vec<u8>, loc: &Location, max: u64) -> Result<Vec<u8>, FetchError> {
    if bytes.len() as u64 != loc.length {
        return Err(FetchError::Short(bytes.len() as u64));
    }
    let opts = Options {
        max_record_size: max,
        ..Options::default()
    };
    let mut records = Reader::from_read(io::Cursor::new(&bytes), opts);
    // Framing is checked, not content: a record whose HTTP head is
    // damaged is still the record, copied as it is.
    let first = match records.next() {
        Some(Err(RecordError::BadHttp { .. })) => Ok(false),
        Some(Ok(record)) => Ok(record.version == "ARC"),
        Some(Err(e)) => Err(FetchError::NotARecord(e.to_string())),
        None => Err(FetchError::NotARecord("nothing there".to_owned())),
    };
    let checked = match (first, records.next()) {
        (Ok(true), _) => Err(FetchError::Arc),
        (Ok(false), None) => Ok(()),
        (Ok(false), Some(_)) => Err(FetchError::MoreThanOne),
        (Err(e), _) => Err(e),
    };
    drop(records);
    checked?;
    as_gzip_member(bytes)
}

/// The record as a gzip member: a member as it is (verbatim: its bytes are
/// the archive's); a plain WARC record compressed into one of its own, so
/// that records from plain and compressed files make one container (the
/// record's digests cover its block, which is the same).
pub fn as_gzip_member(bytes: Vec<u8>) -> Result<Vec<u8>, FetchError> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    if !bytes.starts_with(b"WARC/") {
        return Err(FetchError::NotGzipOrWarc);
    }
    let mut gz = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        flate2::Compression::default(),
    );
    gz.write_all(&bytes)
        .and_then(|()| gz.finish())
        .map_err(FetchError::Compress)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_their_records() {
        let mut legend = Legend::default();
        let cdxj = r#"com,a)/ 20200101000000 {"url": "http://a.com/", "length": "660", "offset": "823", "filename": "x/a.warc.gz"}"#;
        let want = Location {
            filename: "x/a.warc.gz".into(),
            offset: 823,
            length: 660,
        };
        assert_eq!(locate(cdxj, &mut legend), Ok(Some(want.clone())));
        let numbers = r#"k 1 {"length": 660, "offset": 823, "filename": "x/a.warc.gz"}"#;
        assert_eq!(locate(numbers, &mut legend), Ok(Some(want.clone())));
        let cdx = "com,a)/ 20200101000000 http://a.com/ text/html 200 D - - 660 823 x/a.warc.gz";
        assert_eq!(locate(cdx, &mut legend), Ok(Some(want.clone())));
        // A legend changes the columns; blank lines name nothing.
        assert_eq!(locate(" CDX N b g V S", &mut legend), Ok(None));
        assert_eq!(
            locate("k 1 x/a.warc.gz 823 660", &mut legend),
            Ok(Some(want))
        );
        assert_eq!(locate("  ", &mut legend), Ok(None));
        // Lines that name no range.
        let mut legend = Legend::default();
        for bad in [
            r#"k 1 {"offset": "1", "length": "2"}"#,
            r#"k 1 {"offset": "x", "length": "2", "filename": "f"}"#,
            r#"k 1 {"offset": "1", "length": "2", "filename": "f", "offset-kind": "decompressed"}"#,
            r#"k 1 {"offset"#,
            "k 1 u m s d - - - 823 f",
            "k 1 u",
        ] {
            assert!(locate(bad, &mut legend).is_err(), "{bad}");
        }
        assert_eq!(locate(" CDX N b a", &mut legend), Err(LineError::Legend));
    }

    #[test]
    fn filenames_stay_under_the_base() {
        let base = Path::new("/data");
        assert_eq!(
            path_under(base, "a/b.warc.gz").unwrap(),
            PathBuf::from("/data/a/b.warc.gz")
        );
        for bad in ["../etc/passwd", "/etc/passwd", "a/../../b"] {
            assert!(path_under(base, bad).is_err(), "{bad}");
        }
    }
}
