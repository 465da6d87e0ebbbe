//! `spinneret get`: the records an index names, fetched by their byte
//! range and written as one WARC file — each record's gzip member
//! verbatim, so its digests still hold.
//!
//! Index lines come from files or standard input: CDXJ (`urlkey timestamp
//! {json}` with `filename`, `offset`, `length`) or CDX (11 fields, or the
//! columns a ` CDX …` legend line names: `g` the file, `V` the offset, `S`
//! the length). Each record is read from `--base` (a folder; `filename`
//! relative to it) with one read of its range, and checked: the range
//! must hold exactly one WARC record (read by `spinneret-warc`'s reader,
//! which checks its framing and, for gzip, its member; a damaged HTTP head
//! inside is copied as it is), else it is reported as a bad range (`FILE
//! offset N length L: why`) and skipped; so is an ARC record (the output
//! is a WARC file). The output is gzip members: a record stored as one is
//! written verbatim, a plain record compressed into a member of its own. A line that names
//! no range (a CDX legend, a blank line) is passed over; one that cannot be
//! read, or a range in decompressed data (`"offset-kind": "decompressed"`:
//! a whole-file gzip, which no range of the file reaches), is reported as a
//! bad line and skipped. The exit code is then 1.
//!
//! Ranges are read in parallel in batches and written in input order, so
//! the output does not depend on `--threads`. Remote bases (`https://`,
//! `s3://`) will join the local folder here (issue 61).

use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use spinneret_warc::{Options, Reader, RecordError};

use crate::Error;
use crate::flags::{Threads, parse_size};
use crate::outputs;

/// Index lines per batch: the records of a batch are read in parallel.
const BATCH_LINES: usize = 256;

/// `spinneret get [OPTIONS] [INDEX]...`
#[derive(Debug, Clone, Args)]
pub struct GetArgs {
    /// Index files (CDXJ or CDX lines, as `spinneret index`, pywb or
    /// OutbackCDX write them); none, or `-`, for standard input.
    #[arg(value_name = "INDEX")]
    pub indexes: Vec<String>,

    /// The folder the index lines' `filename`s are relative to.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub base: PathBuf,

    /// Write the WARC to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Skip a record longer than this (suffixes K, M, G), reported as a
    /// bad range.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    pub max_record_size: u64,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,
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
pub fn locate(line: &str, legend: &mut Legend) -> Result<Option<Location>, String> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() {
        return Ok(None);
    }
    if line.starts_with(" CDX ") {
        *legend = Legend::of(line).ok_or("a CDX legend without g, V and S")?;
        return Ok(None);
    }
    let mut parts = line.splitn(3, ' ');
    let (_, _, rest) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
    if rest.starts_with('{') {
        let v: serde_json::Value =
            serde_json::from_str(rest).map_err(|e| format!("not CDXJ: {e}"))?;
        if v.get("offset-kind").and_then(|k| k.as_str()) == Some("decompressed") {
            return Err(
                "a range in decompressed data (a whole-file gzip): no file range reaches it".into(),
            );
        }
        let number = |key: &str| -> Result<u64, String> {
            match v.get(key) {
                Some(serde_json::Value::String(s)) => s.parse().ok(),
                Some(serde_json::Value::Number(n)) => n.as_u64(),
                _ => None,
            }
            .ok_or_else(|| format!("no `{key}` number"))
        };
        let filename = v
            .get("filename")
            .and_then(|f| f.as_str())
            .ok_or("no `filename`")?;
        return Ok(Some(Location {
            filename: filename.to_owned(),
            offset: number("offset")?,
            length: number("length")?,
        }));
    }
    let fields: Vec<&str> = line.split(' ').collect();
    let field = |i: usize| fields.get(i).copied().filter(|f| *f != "-");
    let number = |i: usize, what: &str| {
        field(i)
            .and_then(|f| f.parse::<u64>().ok())
            .ok_or_else(|| format!("no {what} number in CDX column {}", i + 1))
    };
    Ok(Some(Location {
        filename: field(legend.filename)
            .ok_or("no filename in the CDX line")?
            .to_owned(),
        offset: number(legend.offset, "offset")?,
        length: number(legend.length, "length")?,
    }))
}

/// The path of `filename` under `base`: relative, and not leaving it.
fn path_under(base: &Path, filename: &str) -> Result<PathBuf, String> {
    let rel = Path::new(filename);
    if rel
        .components()
        .any(|c| !matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err(format!("{filename:?} is not a path under --base"));
    }
    Ok(base.join(rel))
}

/// The record at `loc`, read and checked (exactly one record).
pub fn fetch(base: &Path, loc: &Location, max: u64) -> Result<Vec<u8>, String> {
    if loc.length == 0 || loc.length > max {
        return Err(format!(
            "length {} (at most --max-record-size {max})",
            loc.length
        ));
    }
    let path = path_under(base, &loc.filename)?;
    let mut file = std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    file.seek(SeekFrom::Start(loc.offset))
        .map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(loc.length)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 != loc.length {
        return Err(format!(
            "the file ends {} bytes into the range",
            bytes.len()
        ));
    }
    let opts = Options {
        max_record_size: max,
        ..Options::default()
    };
    let mut records = Reader::from_read(io::Cursor::new(&bytes), opts);
    // Framing is checked, not content: a record whose HTTP head is
    // damaged is still the record, copied as it is.
    let first = match records.next() {
        Some(Err(RecordError::BadHttp { .. })) => Ok("WARC"),
        Some(Ok(record)) if record.version == "ARC" => Ok("ARC"),
        Some(Ok(_)) => Ok("WARC"),
        Some(Err(e)) => Err(format!("not a record: {e}")),
        None => Err("not a record: nothing there".to_owned()),
    };
    let checked = match (first, records.next()) {
        (Ok("ARC"), _) => Err("an ARC record: get writes a WARC file".to_owned()),
        (Ok(_), None) => Ok(()),
        (Ok(_), Some(_)) => Err("more than one record in the range".to_owned()),
        (Err(e), _) => Err(e),
    };
    drop(records);
    checked?;
    as_gzip_member(bytes)
}

/// The record as a gzip member: a member as it is (verbatim: its bytes are
/// the archive's); a plain record compressed into one of its own, so that
/// the output is one container (a WARC file mixing plain records and gzip
/// members is not one; the record's digests cover its block, which is the
/// same).
fn as_gzip_member(bytes: Vec<u8>) -> Result<Vec<u8>, String> {
    if bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    if !bytes.starts_with(b"WARC/") {
        return Err(
            "a compressed record that is not a gzip member (zstd?): get writes gzip members".into(),
        );
    }
    let mut gz = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 4 + 64),
        flate2::Compression::default(),
    );
    gz.write_all(&bytes)
        .and_then(|()| gz.finish())
        .map_err(|e| e.to_string())
}

/// What a get run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GetResult {
    /// Records written.
    pub records: u64,
    /// Lines that name no record that can be read (reported).
    pub bad_lines: u64,
    /// Ranges that are not one record (reported).
    pub bad_ranges: u64,
    /// Bytes written.
    pub bytes: u64,
}

impl GetResult {
    /// 1 when a line or a range was bad; else 0.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.bad_lines + self.bad_ranges > 0)
    }
}

/// One index line, numbered, for its messages.
struct Line {
    index: String,
    number: usize,
    located: Result<Location, String>,
}

/// Runs `spinneret get`: index lines from `indexes` (or `stdin`), records
/// to `out`, problems and the summary to `diag`.
pub fn run(
    args: &GetArgs,
    stdin: &mut dyn BufRead,
    out: &mut dyn Write,
    diag: &mut dyn Write,
) -> Result<GetResult, Error> {
    let start = Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.workers.threads)
        .build()
        .map_err(|e| Error::Threads(e.to_string()))?;
    let mut w = io::BufWriter::with_capacity(1 << 16, out);
    let mut result = GetResult::default();
    let mut batch = Vec::with_capacity(BATCH_LINES);
    let names: Vec<&str> = match args.indexes.as_slice() {
        [] => vec!["-"],
        v => v.iter().map(String::as_str).collect(),
    };
    for name in names {
        let mut legend = Legend::default();
        let mut read = |lines: &mut dyn BufRead| -> Result<bool, Error> {
            for (i, line) in lines.lines().enumerate() {
                let line = line.map_err(|source| Error::Input {
                    path: name.to_owned(),
                    source,
                })?;
                if let Some(located) = locate(&line, &mut legend).transpose() {
                    batch.push(Line {
                        index: name.to_owned(),
                        number: i + 1,
                        located,
                    });
                }
                if batch.len() == BATCH_LINES
                    && !write_batch(&pool, args, &mut batch, &mut w, diag, &mut result)?
                {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        let open = if name == "-" {
            read(stdin)?
        } else {
            let file = std::fs::File::open(name).map_err(|source| Error::Input {
                path: name.to_owned(),
                source,
            })?;
            read(&mut io::BufReader::new(file))?
        };
        if !open {
            return Ok(result);
        }
    }
    if write_batch(&pool, args, &mut batch, &mut w, diag, &mut result)? {
        outputs::flush(&mut w)?;
    }
    let counts = [
        (result.records, "records"),
        (result.bad_lines, "bad lines"),
        (result.bad_ranges, "bad ranges"),
    ];
    let summary = outputs::summary("get", &counts, result.bytes, start.elapsed());
    let _ = writeln!(diag, "{summary}");
    Ok(result)
}

/// Fetches the batch's records on the pool and writes them in order;
/// `Ok(false)` once the output is closed.
fn write_batch(
    pool: &rayon::ThreadPool,
    args: &GetArgs,
    batch: &mut Vec<Line>,
    w: &mut impl Write,
    diag: &mut dyn Write,
    result: &mut GetResult,
) -> Result<bool, Error> {
    let fetched: Vec<Result<Vec<u8>, String>> = pool.install(|| {
        batch
            .par_iter()
            .map(|line| match &line.located {
                Ok(loc) => fetch(&args.base, loc, args.max_record_size),
                Err(_) => Err(String::new()),
            })
            .collect()
    });
    for (line, record) in batch.drain(..).zip(fetched) {
        match (&line.located, record) {
            (Err(why), _) => {
                result.bad_lines += 1;
                let _ = writeln!(
                    diag,
                    "spinneret: bad line: {}:{}: {why}",
                    line.index, line.number
                );
            }
            (Ok(loc), Err(why)) => {
                result.bad_ranges += 1;
                let _ = writeln!(
                    diag,
                    "spinneret: bad range: {} offset {} length {} ({}:{}): {why}",
                    loc.filename, loc.offset, loc.length, line.index, line.number
                );
            }
            (Ok(_), Ok(bytes)) => {
                if !outputs::write(w, &bytes)? {
                    return Ok(false);
                }
                result.records += 1;
                result.bytes += bytes.len() as u64;
            }
        }
    }
    Ok(true)
}

/// `spinneret get` as the binary runs it: index lines from the files or
/// standard input, the WARC to `-o FILE` or standard output; the exit
/// code.
pub fn exec(args: &GetArgs) -> Result<u8, Error> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let run =
        |out: &mut dyn Write, diag: &mut dyn Write, _progress| run(args, &mut input, out, diag);
    Ok(outputs::run_to(args.output.as_deref(), None, run)?.exit_code())
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
        assert!(locate(" CDX N b a", &mut legend).is_err());
    }

    #[test]
    fn filenames_stay_under_the_base() {
        let base = Path::new("/data");
        assert_eq!(
            path_under(base, "a/b.warc.gz"),
            Ok(PathBuf::from("/data/a/b.warc.gz"))
        );
        for bad in ["../etc/passwd", "/etc/passwd", "a/../../b"] {
            assert!(path_under(base, bad).is_err(), "{bad}");
        }
    }
}
