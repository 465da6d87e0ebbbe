//! `spinneret get`: the records an index names, fetched by their byte
//! range and written as one WARC file — each record's gzip member
//! verbatim, so its digests still hold.
//!
//! Index lines come from files or standard input: CDXJ (`urlkey timestamp
//! {json}` with `filename`, `offset`, `length`) or CDX (11 fields, or the
//! columns a ` CDX …` legend line names: `g` the file, `V` the offset, `S`
//! the length); or rows of a `.parquet` file (`rows.rs`: cc-index's
//! `warc_filename`, `warc_record_offset`, `warc_record_length`). Each record is read from `--base` (a folder; `filename`
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
//! Ranges are read in parallel in batches (remote ones `--in-flight` at a
//! time, with the retries of every remote read) and written in input
//! order, so the output depends neither on `--threads` nor on
//! `--in-flight`.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::Args;
use rayon::prelude::*;
use spinneret_index::fetch::{FetchError, Legend, Location, fetch, locate};

mod payload;
#[cfg(feature = "parquet")]
mod rows;

use crate::Error;
use crate::flags::{Threads, parse_size};
use crate::outputs;

/// Index lines per batch: the records of a batch are read in parallel.
const BATCH_LINES: usize = 256;

/// `spinneret get [OPTIONS] [INDEX]...`
#[derive(Debug, Clone, Args)]
pub struct GetArgs {
    /// Index files (CDXJ or CDX lines, as `spinneret index`, pywb or
    /// OutbackCDX write them, or a `.parquet` file of cc-index rows, as a
    /// DuckDB query over Common Crawl's index writes them); none, or `-`,
    /// for standard input.
    #[arg(value_name = "INDEX")]
    pub indexes: Vec<String>,

    /// The folder the index lines' `filename`s are relative to, or a
    /// remote prefix (`https://data.commoncrawl.org/`,
    /// `s3://commoncrawl/`).
    #[arg(long, value_name = "DIR|URL", default_value = ".")]
    pub base: PathBuf,

    /// Range requests in flight at once, for a remote base.
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub in_flight: usize,

    /// Write the WARC to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Write each record's payload (the HTTP body, decoded) to a file of
    /// its own in DIR, `NNNNNN.EXT` in index order, with `index.tsv`
    /// listing them, instead of a WARC.
    #[arg(long, value_name = "DIR", conflicts_with = "output")]
    pub payload: Option<PathBuf>,

    /// Skip a record longer than this (suffixes K, M, G), reported as a
    /// bad range.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    pub max_record_size: u64,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// Remote inputs' flags (credentials, endpoint, retries).
    #[cfg(feature = "remote")]
    #[command(flatten)]
    pub remote: crate::inputs::remote::RemoteArgs,
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
    index: Arc<str>,
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
    let reader = Ranges::new(args)?;
    let mut w = io::BufWriter::with_capacity(1 << 16, out);
    let mut result = GetResult::default();
    let mut batch = Vec::with_capacity(BATCH_LINES);
    let names: Vec<&str> = match args.indexes.as_slice() {
        [] => vec!["-"],
        v => v.iter().map(String::as_str).collect(),
    };
    let ctx = Ctx {
        pool: &pool,
        reader: &reader,
        args,
    };
    let mut payloads = args
        .payload
        .as_deref()
        .map(payload::Payloads::create)
        .transpose()?;
    let mut closed = false;
    for name in names {
        let index: Arc<str> = Arc::from(name);
        let mut legend = Legend::default();
        let mut read = |lines: &mut dyn BufRead| -> Result<bool, Error> {
            for (i, line) in lines.lines().enumerate() {
                let line = line.map_err(|source| Error::Input {
                    path: name.to_owned(),
                    source,
                })?;
                if let Some(located) = locate(&line, &mut legend).transpose() {
                    let located = located.map_err(|e| e.to_string());
                    batch.push(Line {
                        index: index.clone(),
                        number: i + 1,
                        located,
                    });
                }
                if batch.len() == BATCH_LINES
                    && !write_batch(&ctx, &mut batch, &mut w, &mut payloads, diag, &mut result)?
                {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        #[cfg(feature = "parquet")]
        if rows::is_parquet(name) {
            let mut open = true;
            let mut number = 0;
            let mut failed = None;
            let mut each = |located: Result<Location, String>| {
                number += 1;
                batch.push(Line {
                    index: index.clone(),
                    number,
                    located,
                });
                if batch.len() == BATCH_LINES {
                    match write_batch(&ctx, &mut batch, &mut w, &mut payloads, diag, &mut result) {
                        Ok(true) => {}
                        Ok(false) => open = false,
                        Err(e) => failed = Some(e),
                    }
                }
                open && failed.is_none()
            };
            rows::read_rows(std::path::Path::new(name), &mut each).map_err(|why| Error::Input {
                path: name.to_owned(),
                source: io::Error::new(io::ErrorKind::InvalidData, why),
            })?;
            if let Some(e) = failed {
                return Err(e);
            }
            if !open {
                closed = true;
                break;
            }
            continue;
        }
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
            closed = true;
            break;
        }
    }
    if !closed && write_batch(&ctx, &mut batch, &mut w, &mut payloads, diag, &mut result)? {
        outputs::flush(&mut w)?;
        if let Some(p) = payloads {
            p.commit()?;
        }
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

/// What became of one index line.
enum Fetched {
    /// It names no record: why.
    BadLine(String),
    /// Its range is not one record: which range, from which line, and why.
    BadRange(String),
    /// The record, as a gzip member.
    Record(Vec<u8>),
}

/// What every batch is read with.
struct Ctx<'a> {
    pool: &'a rayon::ThreadPool,
    reader: &'a Ranges,
    args: &'a GetArgs,
}

/// Fetches the batch's records on the pool and writes them in order;
/// `Ok(false)` once the output is closed.
fn write_batch(
    ctx: &Ctx<'_>,
    batch: &mut Vec<Line>,
    w: &mut impl Write,
    payloads: &mut Option<payload::Payloads>,
    diag: &mut dyn Write,
    result: &mut GetResult,
) -> Result<bool, Error> {
    let (reader, pool, args) = (ctx.reader, ctx.pool, ctx.args);
    let read = reader.read(pool, args, batch);
    let fetched: Vec<Fetched> = batch
        .iter()
        .zip(read)
        .map(|(line, got)| match (&line.located, got) {
            (Err(why), _) => Fetched::BadLine(why.clone()),
            (Ok(_), Some(Ok(bytes))) => Fetched::Record(bytes),
            (Ok(loc), Some(Err(e))) => Fetched::BadRange(format!(
                "{} offset {} length {} ({}:{}): {}",
                loc.filename,
                loc.offset,
                loc.length,
                line.index,
                line.number,
                with_causes(&e)
            )),
            (Ok(_), None) => unreachable!("every located line is read"),
        })
        .collect();
    for (line, fetched) in batch.drain(..).zip(fetched) {
        match fetched {
            Fetched::BadLine(why) => {
                result.bad_lines += 1;
                let _ = writeln!(
                    diag,
                    "spinneret: bad line: {}:{}: {why}",
                    line.index, line.number
                );
            }
            Fetched::BadRange(what) => {
                result.bad_ranges += 1;
                let _ = writeln!(diag, "spinneret: bad range: {what}");
            }
            Fetched::Record(bytes) => {
                if let (Some(p), Ok(loc)) = (payloads.as_mut(), &line.located) {
                    result.bytes += p.write(&bytes, loc, args.max_record_size)?;
                    result.records += 1;
                    continue;
                }
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

/// Where records are read from: the local `--base` folder, or a remote
/// prefix through one client.
enum Ranges {
    Local,
    #[cfg(feature = "remote")]
    Remote(crate::inputs::remote::Remote, String),
}

impl Ranges {
    /// Remote ranges when `--base` is a URL (with the `remote` feature).
    #[cfg_attr(not(feature = "remote"), allow(unused_variables))]
    fn new(args: &GetArgs) -> Result<Ranges, Error> {
        #[cfg(feature = "remote")]
        if let Some(base) = args
            .base
            .to_str()
            .filter(|b| spinneret_remote::is_remote(b))
        {
            let remote = args.remote.client().map_err(|e| Error::Input {
                path: spinneret_remote::redact(base),
                source: e.into(),
            })?;
            return Ok(Ranges::Remote(remote, base.to_owned()));
        }
        Ok(Ranges::Local)
    }

    /// The checked record of each located line of `batch` (`None` for a
    /// line that names no range), in order.
    fn read(
        &self,
        pool: &rayon::ThreadPool,
        args: &GetArgs,
        batch: &[Line],
    ) -> Vec<Option<Result<Vec<u8>, FetchError>>> {
        let max = args.max_record_size;
        match self {
            Ranges::Local => pool.install(|| {
                batch
                    .par_iter()
                    .map(|line| {
                        let loc = line.located.as_ref().ok()?;
                        Some(fetch(&args.base, loc, max))
                    })
                    .collect()
            }),
            #[cfg(feature = "remote")]
            Ranges::Remote(remote, base) => read_remote(remote, base, pool, args, batch),
        }
    }
}

/// [`Ranges::read`] from a remote prefix: the lines' URLs fetched
/// `--in-flight` at a time, then checked on the pool.
#[cfg(feature = "remote")]
fn read_remote(
    remote: &crate::inputs::remote::Remote,
    base: &str,
    pool: &rayon::ThreadPool,
    args: &GetArgs,
    batch: &[Line],
) -> Vec<Option<Result<Vec<u8>, FetchError>>> {
    use spinneret_index::fetch::{check_length, check_record, url_under};
    let max = args.max_record_size;
    // Each located line's URL, or why it has none.
    let urls: Vec<Option<Result<String, FetchError>>> = batch
        .iter()
        .map(|line| {
            let loc = line.located.as_ref().ok()?;
            Some(check_length(loc, max).and_then(|()| url_under(base, &loc.filename)))
        })
        .collect();
    let wanted: Vec<(String, std::ops::Range<u64>)> = batch
        .iter()
        .zip(&urls)
        .filter_map(|(line, url)| {
            let loc = line.located.as_ref().ok()?;
            let url = url.as_ref()?.as_ref().ok()?;
            Some((
                url.clone(),
                loc.offset..loc.offset.saturating_add(loc.length),
            ))
        })
        .collect();
    let mut got = remote.0.fetch_ranges(&wanted, args.in_flight).into_iter();
    let read: Vec<_> = batch
        .iter()
        .zip(urls)
        .map(|(line, url)| {
            let loc = line.located.as_ref().ok()?;
            Some(match url? {
                Err(e) => Err(e),
                Ok(url) => match got.next().expect("one answer per request") {
                    Ok(bytes) => Ok((bytes, loc)),
                    Err(e) => Err(FetchError::Io {
                        path: spinneret_remote::redact(&url),
                        source: e.into(),
                    }),
                },
            })
        })
        .collect();
    pool.install(|| {
        read.into_par_iter()
            .map(|r| r.map(|r| r.and_then(|(bytes, loc)| check_record(Vec::from(bytes), loc, max))))
            .collect()
    })
}

/// An error's message and its causes, `: `-separated (one line of a
/// report).
fn with_causes(e: &dyn std::error::Error) -> String {
    let mut line = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        line.push_str(": ");
        line.push_str(&c.to_string());
        cause = c.source();
    }
    line
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
