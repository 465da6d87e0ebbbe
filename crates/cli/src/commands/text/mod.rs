//! `spinneret text`: the readable text of a crawl's HTML pages — the
//! whole page or its main content, plain or Markdown (through
//! `spinneret-text`) — as JSON Lines, Common Crawl's WET ([`wet`]),
//! Parquet, or the bare text.
//!
//! On the [`driver`]: the workers take each item, decide whether it is a
//! page ([`selected`]: an HTML `response` or `resource` with a 2xx status
//! or no HTTP head, and a payload; every HTML file), extract its text
//! with [`spinneret_text::extract_owned_page`] and render it in the output's
//! form — a JSON line, a WET conversion record (gzipped there, in
//! parallel), the text and its line feed, or for Parquet the row itself;
//! the sink writes them in input order (a `warcinfo` record first for
//! WET; a form feed line between pages of `--format text`; the rows into
//! Arrow batches and a Parquet file of
//! [`spinneret_columns::text::schema`]).
//!
//! A damaged record is reported (`file: offset N: what`) and skipped, the
//! rest written, and the exit code is 1, as for an input that cannot be
//! read; with `--strict` the run stops at either (exit code 2). A closed
//! output pipe stops the run quietly.
//!
//! Invariant: the output depends only on the inputs and the options
//! (and, for WET, the date), never on `--threads`.
//!
//! Files: [`args`] (the flags), `job` (a page's text on a worker), `sink`
//! (pages written in input order), [`wet`] (WET records), `result` (the
//! run's counts and exit code).

pub mod args;
pub mod job;
pub mod result;
pub mod resume;
pub mod sink;
pub mod wet;

use std::io::{BufWriter, Write};
use std::time::Instant;

use spinneret_columns::text::TextColumns;
use spinneret_text::Options;

pub use args::{TextArgs, TextFormat};
use job::TextJob;
pub use job::selected;
pub use result::TextResult;
use resume::TextResume;
use sink::TextSink;
use wet::{WarcDate, Wet};

use crate::Error;
use crate::columnar;
use crate::driver::{self, Drive, Status};
use crate::outputs::parts::PartsOut;
use crate::outputs::resume::Resume;
use crate::outputs::{self, Binary};

/// What the warcinfo says of the records taken.
fn records_taken(any_status: bool) -> &'static str {
    if any_status {
        "HTML responses and resources of any HTTP status"
    } else {
        "HTML responses and resources with a 2xx HTTP status or none"
    }
}

/// Runs `spinneret text`: the output to `out`, problems and the summary
/// to `diag`, a progress bar on stderr when `progress`.
pub fn run(
    args: &TextArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<TextResult, Error> {
    run_on(args, out, None, diag, progress)
}

/// [`run`], resumable when given the run's [`Resume`] (`--resume`: `out`
/// is then the resume folder's output file).
fn run_on(
    args: &TextArgs,
    out: &mut dyn Write,
    resume: Option<&mut Resume>,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<TextResult, Error> {
    let start = Instant::now();
    if let Some(why) = args.conflicts() {
        return Err(Error::Usage(why));
    }
    let sources = (args.input).sources_with_page(args.html.as_deref(), args.url.as_deref())?;
    let date = args.date.unwrap_or_else(WarcDate::now);
    let (resume, state) = match resume {
        Some(r) => {
            let (r, state) = TextResume::start(r, args, &sources, date)?;
            (Some(r), state)
        }
        None => (None, None),
    };
    let date = resume.as_ref().map_or(date, |r| r.date());
    let skip = resume.as_ref().map_or(0, |r| r.skipped());
    let bytes_before = resume.as_ref().map_or(0, |r| r.bytes_before());
    let parts = resume.as_ref().and_then(|r| r.parts.clone());
    // Parquet rows of a resumable run go into its parts.
    let mut parts_out = parts.clone().map(PartsOut);
    let target: &mut dyn Write = match &mut parts_out {
        Some(p) => p,
        None => &mut *out,
    };
    let options = Options {
        main_content: args.main_content,
        format: args.text_format(),
        links: args.links,
        // Plain text and Markdown output has no field for it.
        language: !matches!(args.format, TextFormat::Text | TextFormat::Markdown),
    };
    let wet = (args.format == TextFormat::Wet)
        .then(|| Wet::new(options, args.gzip(), date, records_taken(args.any_status)));
    let warcinfo = match &wet {
        // A resumed run's output has it.
        Some(_) if state.is_some() => None,
        Some(w) => {
            let name = args
                .output
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned());
            Some(w.warcinfo(name.as_deref()).map_err(Error::Output)?)
        }
        None => None,
    };
    let parquet = match args.format {
        TextFormat::Parquet => Some((TextColumns::new(), sink::parquet_writer()?)),
        _ => None,
    };
    let how = Drive {
        threads: args.workers.threads,
        batch: 256,
        opts: spinneret_warc::Options {
            max_record_size: args.max_record_size,
            ..spinneret_warc::Options::default()
        },
        strict: args.strict,
        progress,
    };
    let job = TextJob {
        options,
        format: args.format,
        any_status: args.any_status,
        wet: wet.as_ref(),
    };
    let mut result = TextResult {
        status: Status::Complete,
        records: 0,
        pages: 0,
        skipped: 0,
        damaged: 0,
        unreadable: 0,
    };
    if let Some(state) = &state {
        resume::restored_result(state, &mut result);
    }
    let mut sink = TextSink {
        format: args.format,
        w: BufWriter::with_capacity(1 << 16, target),
        warcinfo,
        parquet,
        result: &mut result,
        resume,
    };
    let driven = driver::drive(&sources[skip..], &job, &mut sink, &how, diag)?;
    let mut status = driven.status;
    if let Some(parts) = &parts {
        // The last part, then the parts joined into the output.
        sink.seal_part()?;
        let parquet = {
            // The rest of the sink ends here, its borrow of the output
            // with it.
            let sink = sink;
            sink.parquet
        };
        let parts = parts.borrow();
        let joined = if parts.count() == 0 {
            // No rows at all: the file of none.
            parquet.map_or(Ok(()), |(_, w)| w.finish(&mut *out))
        } else {
            parts.join(&mut *out)
        };
        joined.map_err(Error::Parquet)?;
    } else {
        if status != Status::OutputClosed && !sink.write_batch()? {
            status = Status::OutputClosed;
        }
        let TextSink { mut w, parquet, .. } = sink;
        if status != Status::OutputClosed
            && let Some((_, writer)) = parquet
            && !columnar::parquet_written(writer.finish(&mut w))?
        {
            status = Status::OutputClosed;
        }
        if status != Status::OutputClosed && !outputs::flush(&mut w)? {
            status = Status::OutputClosed;
        }
    }
    result.status = status;
    let counts = [
        (result.records, "records"),
        (result.pages, "pages"),
        (result.skipped, "skipped"),
        (result.damaged, "damaged"),
        (result.unreadable, "unreadable inputs"),
    ];
    let bytes = bytes_before + driven.bytes;
    let summary = outputs::summary("text", &counts, bytes, start.elapsed());
    let _ = writeln!(diag, "{summary}");
    Ok(result)
}

/// `spinneret text` as the binary runs it: flags that mean nothing
/// together refused first (a usage error), then the output to `-o FILE`
/// or standard output (WET's gzip members and Parquet refused on a
/// terminal), problems and the summary to standard error; the exit code.
pub fn exec(args: &TextArgs) -> Result<u8, Error> {
    if let Some(why) = args.conflicts() {
        return Err(Error::Usage(why));
    }
    let binary = match args.format {
        TextFormat::Parquet => Some(Binary::PARQUET),
        TextFormat::Wet if args.gzip() => Some(Binary {
            format: "wet",
            or: " or --no-gzip",
        }),
        _ => None,
    };
    if let (true, Some(path)) = (args.resumable.resume, &args.output) {
        let every = args.resumable.checkpoint_every;
        let run = |out: &mut dyn Write, resume: &mut Resume, diag: &mut dyn Write, progress| {
            run_on(args, out, Some(resume), diag, progress)
        };
        return Ok(outputs::run_resumable(path, every, run)?.exit_code());
    }
    let run = |out: &mut dyn Write, diag: &mut dyn Write, progress| run(args, out, diag, progress);
    Ok(outputs::run_to(args.output.as_deref(), binary, run)?.exit_code())
}
