//! `spinneret wat`: Common Crawl's WAT files — one `metadata` record of
//! JSON per source record — from WARC/ARC files, through
//! `spinneret-wat`.
//!
//! Why a subcommand and not `--format wat` on `links` or `index`: a WAT
//! is a whole WARC file with its own warcinfo and one record per source
//! record of *every* type (warcinfo, request, response, metadata…), not a
//! row per link or per capture; its options (gzip members, the date) are
//! those of a WARC writer, as `text --format wet`'s are.
//!
//! On the [`driver`]: the records are read with their whole block
//! ([`Content::Block`]: the digests and lengths are of the block as
//! stored); the workers make each record's JSON and frame it ([`job`]);
//! the sink writes the warcinfo first, then the records in input order.
//! A damaged record is reported (`file: offset N: what`) and skipped, the
//! rest written; the exit code is then 1 (`--strict`: the run stops,
//! exit code 2). A closed output pipe stops the run quietly.
//!
//! Invariant: the output depends only on the inputs and the options and
//! `--date`, never on `--threads`.
//!
//! Files: [`args`] (the flags), [`job`] (a record's WAT record).

pub mod args;
pub mod job;

use std::io::{BufWriter, Write};
use std::time::Instant;

use spinneret_warc::Content;

pub use args::WatArgs;
use job::{Done, WatJob};

use crate::Error;
use crate::driver::{self, Drive, Flow, Report, Sink, Status};
use crate::outputs::warc_records::{
    CONFORMS_TO, NAMESPACE_URL, WarcDate, clean, uuid_v5_urn, warc_record,
};
use crate::outputs::{self, Binary};

/// What a run read and wrote.
#[derive(Debug, Default)]
pub struct WatResult {
    /// How the run ended.
    pub status: Option<Status>,
    /// Source records read.
    pub records: u64,
    /// Metadata records written.
    pub written: u64,
    /// Items skipped (HTML files).
    pub skipped: u64,
    /// Bad records.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
}

impl WatResult {
    /// The process exit code: 2 for a strict stop; 1 when a record was
    /// bad or an input could not be read (the rest was written); else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Some(Status::Strict) => 2,
            _ if self.damaged + self.unreadable > 0 => 1,
            _ => 0,
        }
    }
}

struct WatSink<'a, W: Write> {
    w: BufWriter<W>,
    warcinfo: Option<Vec<u8>>,
    result: &'a mut WatResult,
}

impl<W: Write> Sink<Done> for WatSink<'_, W> {
    fn begin(&mut self) -> Result<Flow, Error> {
        match self.warcinfo.take() {
            Some(info) if !outputs::write(&mut self.w, &info)? => {
                Ok(Flow::Stop(Status::OutputClosed))
            }
            _ => Ok(Flow::Go),
        }
    }

    fn write(&mut self, done: Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        match done {
            Done::Record(bytes) => {
                self.result.records += 1;
                if !outputs::write(&mut self.w, &bytes)? {
                    return Ok(Flow::Stop(Status::OutputClosed));
                }
                self.result.written += 1;
                Ok(Flow::Go)
            }
            Done::Skipped => {
                self.result.skipped += 1;
                Ok(Flow::Go)
            }
            Done::Bad(msg) | Done::Failed(msg) => {
                self.result.damaged += 1;
                Ok(report.problem("bad record", &msg))
            }
            Done::Unreadable(msg) => {
                self.result.unreadable += 1;
                Ok(report.problem("cannot read", &msg))
            }
        }
    }
}

/// The WAT file's name for `WARC-Filename`: the `-o` file's, else the
/// first input's with `.warc(.gz)` / `.arc(.gz)` made `.warc.wat.gz` /
/// `.arc.wat.gz`, as Common Crawl's generator names it.
fn wat_name(args: &WatArgs) -> Option<String> {
    if let Some(o) = &args.output {
        return o.file_name().map(|n| n.to_string_lossy().into_owned());
    }
    let first = args.input.inputs.first()?;
    let base = first.rsplit(['/', '\\']).next().unwrap_or(first).to_owned();
    let stem = base.strip_suffix(".gz").unwrap_or(&base);
    for ext in [".warc", ".arc"] {
        if let Some(s) = stem.strip_suffix(ext) {
            return Some(format!("{s}{ext}.wat.gz"));
        }
    }
    Some(base)
}

/// The warcinfo record that starts the file.
fn warcinfo(name: Option<&str>, date: WarcDate, gzip: bool) -> Result<Vec<u8>, Error> {
    let fields = [
        (
            "Software-Info",
            format!("spinneret {}", env!("CARGO_PKG_VERSION")),
        ),
        ("Extracted-Date", date.http()),
        ("format", "WARC File Format 1.0".to_owned()),
        ("conformsTo", CONFORMS_TO.to_owned()),
    ];
    let mut block = String::new();
    for (field, value) in &fields {
        block.push_str(field);
        block.push_str(": ");
        block.push_str(&clean(value));
        block.push_str("\r\n");
    }
    // An empty line ends the fields, as in Common Crawl's WATs.
    block.push_str("\r\n");
    let iso = date.iso();
    let id = uuid_v5_urn(
        &NAMESPACE_URL,
        format!(
            "urn:spinneret:wat:warcinfo:{}\n{iso}\n{block}",
            name.unwrap_or("")
        )
        .as_bytes(),
    );
    let mut headers = vec![("WARC-Type", "warcinfo"), ("WARC-Date", iso.as_str())];
    if let Some(n) = name {
        headers.push(("WARC-Filename", n));
    }
    headers.push(("WARC-Record-ID", &id));
    headers.push(("Content-Type", "application/warc-fields"));
    warc_record(&headers, block.as_bytes(), gzip).map_err(Error::Output)
}

/// Runs `spinneret wat`: the WAT to `out`, problems and the summary to
/// `diag`, a progress bar on stderr when `progress`.
pub fn run(
    args: &WatArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<WatResult, Error> {
    let start = Instant::now();
    let sources = args.input.sources_with_page(None, None)?;
    let date = args.date.unwrap_or_else(WarcDate::now);
    let gzip = args.gzip();
    let how = Drive {
        threads: args.workers.threads,
        batch: 256,
        opts: spinneret_warc::Options {
            max_record_size: args.max_record_size,
            content: Content::Block,
            ..spinneret_warc::Options::default()
        },
        strict: args.strict,
        progress,
    };
    let mut result = WatResult::default();
    let mut sink = WatSink {
        w: BufWriter::with_capacity(1 << 16, out),
        warcinfo: Some(warcinfo(wat_name(args).as_deref(), date, gzip)?),
        result: &mut result,
    };
    let driven = driver::drive(&sources, &WatJob { gzip, date }, &mut sink, &how, diag)?;
    let mut status = driven.status;
    if status != Status::OutputClosed && !outputs::flush(&mut sink.w)? {
        status = Status::OutputClosed;
    }
    drop(sink);
    result.status = Some(status);
    let counts = [
        (result.records, "records"),
        (result.skipped, "skipped"),
        (result.damaged, "damaged"),
        (result.unreadable, "unreadable inputs"),
    ];
    let summary = outputs::summary("wat", &counts, driven.bytes, start.elapsed());
    let _ = writeln!(diag, "{summary}");
    Ok(result)
}

/// `spinneret wat` as the binary runs it.
pub fn exec(args: &WatArgs) -> Result<u8, Error> {
    let binary = args.gzip().then_some(Binary {
        format: "wat",
        or: " or --no-gzip",
    });
    let run = |out: &mut dyn Write, diag: &mut dyn Write, progress| run(args, out, diag, progress);
    Ok(outputs::run_to(args.output.as_deref(), binary, run)?.exit_code())
}
