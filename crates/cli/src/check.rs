//! `spinneret check`: verify what WARC files claim — digests, mandatory
//! fields, HTTP heads, revisits, framing, one record per gzip member (the
//! checks and their severities: [`spinneret_warc::verify`]).
//!
//! On the [`driver`]: the reader keeps every record's whole
//! block ([`Content::Block`], up to `--max-record-size`, 1 GiB by default:
//! a verifier hashes whole records); the workers run
//! [`verify_record`](spinneret_warc::verify::verify_record) and drop the
//! block; the sink, in input order, runs each file's
//! [`FileCheck`] (shared members, duplicate ids, revisits against their
//! originals) and writes one line per problem, as
//! `FILE\tOFFSET\tRECORD-ID\tSEVERITY\tWHAT` (`-` for an empty column;
//! tabs and line ends in a value become spaces) or as JSON Lines
//! (`file`, `offset`, `record_id`, `severity`, `kind`, `message`). A summary
//! goes to the diagnostic stream: files, records, digests verified /
//! failed / unverifiable, problems by kind.
//!
//! Exit code ([`CheckResult::exit_code`]): 1 when any error was found or an
//! input could not be read (with `--strict`, any warning too); else 0.
//! A closed output pipe stops the run quietly; the exit code then reflects
//! what was checked.
//!
//! The reader's errors reach the sink as [`Item::Bad`] with the error's
//! message, whose kind [`reader_kind`] tells again (each `RecordError`'s
//! message starts its own way; a test pins them to
//! [`verify::Problem::kind`]).

use std::collections::BTreeMap;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use clap::{Args, ValueEnum};
use serde::Serialize;
use spinneret_warc::verify::{self, DigestOutcome, FileCheck, RecordSummary, Severity, Verdict};
use spinneret_warc::{Content, Options};

use crate::Error;
use crate::driver::{self, Drive, Flow, Job, Report, Sink, Status};
use crate::input::{self, Item, Source};

/// How problem lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// `FILE\tOFFSET\tRECORD-ID\tSEVERITY\tWHAT`.
    Text,
    /// One JSON object per problem.
    Jsonl,
}

/// `spinneret check [OPTIONS] INPUT...`
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// WARC/ARC files (plain, .gz, .zst), directories (walked), globs, or
    /// `-` for standard input. An input that cannot be read is reported
    /// and the rest checked; the exit code is then 1.
    #[arg(value_name = "INPUT", required_unless_present = "manifest")]
    pub inputs: Vec<String>,

    /// In directories, also take files of other names whose content starts
    /// like a WARC or ARC file.
    #[arg(long)]
    pub sniff: bool,

    /// A list of WARC paths, one per line (plain or .gz, as Common Crawl's
    /// `warc.paths.gz`).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The folder `--manifest` paths are relative to (default: the
    /// manifest's own).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    pub dir: Option<PathBuf>,

    /// How problem lines are written.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,

    /// Print the summary only, no problem lines.
    #[arg(short, long)]
    pub quiet: bool,

    /// Warnings fail the check too (exit code 1).
    #[arg(long)]
    pub strict: bool,

    /// Write the summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Records whose block is larger are skipped with a warning, not
    /// verified (suffixes K, M, G). A record is held whole while hashed.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = crate::args::parse_size)]
    pub max_record_size: u64,
}

/// Digest outcomes, counted.
#[derive(Debug, Default, Clone, Serialize)]
pub struct DigestCounts {
    /// Matched.
    pub verified: u64,
    /// Did not match.
    pub failed: u64,
    /// Matched the de-chunked or decoded body only.
    pub over_decoded_body: u64,
    /// Could not be verified (unknown algorithm, bad value, block not held).
    pub unverifiable: u64,
    /// Not verifiable by nature (a revisit's or a segment's payload).
    pub not_applicable: u64,
}

impl DigestCounts {
    fn add(&mut self, outcome: Option<DigestOutcome>) {
        match outcome {
            Some(DigestOutcome::Verified) => self.verified += 1,
            Some(DigestOutcome::Mismatch) => self.failed += 1,
            Some(DigestOutcome::OverDecoded) => self.over_decoded_body += 1,
            Some(DigestOutcome::Unverifiable) => self.unverifiable += 1,
            Some(DigestOutcome::NotApplicable) => self.not_applicable += 1,
            None => {}
        }
    }
}

/// What a run checked and found (`--stats`).
#[derive(Debug, Default, Clone, Serialize)]
pub struct CheckStats {
    /// Inputs: files and `-` (and unreadable ones).
    pub inputs: u64,
    /// Records read, by type.
    pub records: BTreeMap<&'static str, u64>,
    /// Damaged records and framing errors the reader reported.
    pub reader_errors: u64,
    /// Inputs that could not be read at all.
    pub unreadable_inputs: u64,
    /// `WARC-Block-Digest` outcomes.
    pub block_digests: DigestCounts,
    /// `WARC-Payload-Digest` outcomes.
    pub payload_digests: DigestCounts,
    /// Problems of severity error (unreadable inputs included).
    pub errors: u64,
    /// Problems of severity warning.
    pub warnings: u64,
    /// Problems of severity note.
    pub notes: u64,
    /// Problems by kind.
    pub problems: BTreeMap<&'static str, u64>,
    /// Inputs with at least one error.
    pub files_with_errors: u64,
    /// Input bytes (as stored).
    pub bytes: u64,
    /// Wall-clock seconds.
    pub elapsed_seconds: f64,
    /// Input megabytes (10^6 bytes) per second.
    pub mb_per_s: f64,
    /// Why the run stopped early (`output closed`).
    pub stopped: Option<&'static str>,
}

impl CheckStats {
    /// The summary printed on the diagnostic stream.
    pub fn summary(&self) -> String {
        let records: u64 = self.records.values().sum();
        let d = |c: &DigestCounts| {
            format!(
                "{} verified, {} failed, {} over a decoded body, {} unverifiable, {} not applicable",
                c.verified, c.failed, c.over_decoded_body, c.unverifiable, c.not_applicable
            )
        };
        let mut s = format!(
            "spinneret check: {} inputs, {records} records, {} reader errors, {} unreadable inputs: {} errors, {} warnings, {} notes ({} inputs with errors); {:.1} MB in {:.2} s ({:.1} MB/s)\n  block digests: {}\n  payload digests: {}",
            self.inputs,
            self.reader_errors,
            self.unreadable_inputs,
            self.errors,
            self.warnings,
            self.notes,
            self.files_with_errors,
            self.bytes as f64 / 1e6,
            self.elapsed_seconds,
            self.mb_per_s,
            d(&self.block_digests),
            d(&self.payload_digests),
        );
        if !self.problems.is_empty() {
            let kinds: Vec<String> = self
                .problems
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            s.push_str("\n  problems: ");
            s.push_str(&kinds.join(", "));
        }
        if let Some(why) = self.stopped {
            s.push_str("\n  stopped: ");
            s.push_str(why);
        }
        s
    }
}

/// The result of a run.
#[derive(Debug)]
pub struct CheckResult {
    /// How the run ended.
    pub status: Status,
    /// What it checked and found.
    pub stats: CheckStats,
    /// `--strict`: warnings fail too.
    pub strict: bool,
}

impl CheckResult {
    /// 1 when an error was found or an input could not be read (with
    /// `--strict`, also a warning); else 0.
    pub fn exit_code(&self) -> u8 {
        let s = &self.stats;
        let failed = s.errors > 0 || s.unreadable_inputs > 0 || (self.strict && s.warnings > 0);
        u8::from(failed)
    }
}

/// The kind and severity of a reader error from its message (a
/// `RecordError`'s `Display`, `offset N: …`), and the message without
/// its offset.
pub fn reader_kind(what: &str) -> (&'static str, Severity, &str) {
    let rest = what
        .strip_prefix("offset ")
        .and_then(|r| r.split_once(": "))
        .map_or(what, |(_, r)| r);
    let kind = if rest.starts_with("corrupt ") {
        "corrupt-member"
    } else if rest.ends_with("bytes of unrecognized data skipped") {
        "garbage"
    } else if rest.starts_with("bad record header") {
        "bad-header"
    } else if rest.starts_with("record truncated") {
        "truncated-record"
    } else if rest.starts_with("record does not end at a record boundary") {
        "bad-boundary"
    } else if rest.starts_with("record of ") && rest.contains("exceeds max_record_size") {
        "too-large"
    } else if rest.starts_with("read error") {
        "read-error"
    } else if rest.starts_with("bad HTTP message") {
        "bad-http"
    } else {
        "bad-record"
    };
    let severity = if kind == "too-large" {
        Severity::Warning
    } else {
        Severity::Error
    };
    (kind, severity, rest)
}

/// One item's result.
enum Done {
    /// A record, checked on its own.
    Record {
        file: Arc<str>,
        summary: RecordSummary,
        verdict: Verdict,
    },
    /// A reader error.
    Reader {
        file: Arc<str>,
        offset: Option<u64>,
        what: String,
    },
    /// An input that cannot be read (or is not a crawl file).
    Unreadable { file: Arc<str>, what: String },
}

struct CheckJob;

impl Job for CheckJob {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        match item {
            Item::Record { file, record, .. } => Done::Record {
                summary: RecordSummary::of(&record),
                verdict: verify::verify_record(&record),
                file,
            },
            Item::Bad { file, offset, what } => Done::Reader { file, offset, what },
            Item::Unreadable { file, what } => Done::Unreadable { file, what },
            Item::Page { file, .. } => Done::Unreadable {
                file,
                what: "an HTML page (a manifest of pages), not a WARC/ARC file".to_owned(),
            },
        }
    }
}

/// One problem line's columns.
struct Line<'a> {
    file: &'a str,
    offset: Option<u64>,
    record_id: Option<&'a str>,
    severity: Severity,
    kind: &'static str,
    message: &'a str,
}

/// The check sink: each file's [`FileCheck`], problem lines, counts.
struct CheckSink<'o> {
    format: CheckFormat,
    quiet: bool,
    w: BufWriter<&'o mut dyn Write>,
    /// The current file, its checks, and whether it had an error.
    current: Option<(Arc<str>, FileCheck, bool)>,
    stats: CheckStats,
}

/// A value on one line of text: tabs and line ends become spaces.
fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if s.contains(['\t', '\r', '\n']) {
        s.replace(['\t', '\r', '\n'], " ").into()
    } else {
        s.into()
    }
}

impl CheckSink<'_> {
    /// The state of `file` (a new one when the file changes).
    fn enter(&mut self, file: &Arc<str>) -> &mut FileCheck {
        let same = matches!(&self.current, Some((f, ..)) if Arc::ptr_eq(f, file));
        if !same {
            self.current = None;
        }
        let (_, check, _) = self
            .current
            .get_or_insert_with(|| (file.clone(), FileCheck::new(), false));
        check
    }

    /// Counts and writes one problem; `Ok(false)` once the output is closed.
    fn emit(&mut self, line: &Line<'_>) -> Result<bool, Error> {
        match line.severity {
            Severity::Error => {
                self.stats.errors += 1;
                if let Some((_, _, had)) = &mut self.current
                    && !*had
                {
                    *had = true;
                    self.stats.files_with_errors += 1;
                }
            }
            Severity::Warning => self.stats.warnings += 1,
            Severity::Note => self.stats.notes += 1,
        }
        *self.stats.problems.entry(line.kind).or_default() += 1;
        if self.quiet {
            return Ok(true);
        }
        let text = match self.format {
            CheckFormat::Text => format!(
                "{}\t{}\t{}\t{}\t{}\n",
                one_line(line.file),
                line.offset.map_or("-".to_owned(), |o| o.to_string()),
                one_line(line.record_id.unwrap_or("-")),
                line.severity,
                one_line(line.message),
            ),
            CheckFormat::Jsonl => {
                let v = serde_json::json!({
                    "file": line.file,
                    "offset": line.offset,
                    "record_id": line.record_id,
                    "severity": line.severity.name(),
                    "kind": line.kind,
                    "message": line.message,
                });
                format!("{v}\n")
            }
        };
        match self.w.write_all(text.as_bytes()) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
            Err(e) => Err(Error::Output(e)),
        }
    }
}

impl Sink<Done> for CheckSink<'_> {
    fn write(&mut self, done: Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        let mut open = true;
        match done {
            Done::Record {
                file,
                summary,
                verdict,
            } => {
                let kind = summary.kind.map_or("other", |k| k.name());
                *self.stats.records.entry(kind).or_default() += 1;
                self.stats.block_digests.add(verdict.block);
                self.stats.payload_digests.add(verdict.payload);
                let mut problems = verdict.problems;
                problems.extend(self.enter(&file).record(&summary));
                for p in &problems {
                    let message = p.to_string();
                    open &= self.emit(&Line {
                        file: &file,
                        offset: p.offset().or(Some(summary.offset)),
                        record_id: summary.record_id.as_deref(),
                        severity: p.severity(),
                        kind: p.kind(),
                        message: &message,
                    })?;
                }
            }
            Done::Reader { file, offset, what } => {
                self.enter(&file);
                self.stats.reader_errors += 1;
                let (kind, severity, message) = reader_kind(&what);
                open = self.emit(&Line {
                    file: &file,
                    offset,
                    record_id: None,
                    severity,
                    kind,
                    message,
                })?;
            }
            Done::Unreadable { file, what } => {
                self.enter(&file);
                self.stats.unreadable_inputs += 1;
                if self.quiet {
                    report.note(&format!("spinneret: cannot read: {file}: {what}"));
                }
                let message = format!("cannot read: {what}");
                open = self.emit(&Line {
                    file: &file,
                    offset: None,
                    record_id: None,
                    severity: Severity::Error,
                    kind: "unreadable-input",
                    message: &message,
                })?;
            }
        }
        Ok(if open {
            Flow::Go
        } else {
            Flow::Stop(Status::OutputClosed)
        })
    }

    fn progress(&self, secs: f64) -> Option<String> {
        let records: u64 = self.stats.records.values().sum();
        Some(format!("{:.0} records/s", records as f64 / secs))
    }
}

/// Runs `spinneret check`: problem lines to `out`, the summary to `diag`,
/// a progress bar on stderr when `progress`.
pub fn run(
    args: &CheckArgs,
    out: &mut dyn Write,
    diag: &mut dyn Write,
    progress: bool,
) -> Result<CheckResult, Error> {
    let start = Instant::now();
    let sources = input::resolve_crawl(
        &args.inputs,
        args.sniff,
        args.manifest.as_deref(),
        args.dir.as_deref(),
    )?;
    let how = Drive {
        threads: args.threads,
        batch: 256,
        opts: Options {
            max_record_size: args.max_record_size,
            content: Content::Block,
            ..Options::default()
        },
        strict: false,
        progress,
    };
    let mut sink = CheckSink {
        format: args.format,
        quiet: args.quiet,
        w: BufWriter::with_capacity(1 << 16, out),
        current: None,
        stats: CheckStats {
            inputs: sources
                .iter()
                .map(|s| match s {
                    Source::Pages(v) => v.len() as u64,
                    _ => 1,
                })
                .sum(),
            ..CheckStats::default()
        },
    };
    let driven = driver::drive(&sources, &CheckJob, &mut sink, &how, diag)?;
    let CheckSink {
        mut w, mut stats, ..
    } = sink;
    let mut status = driven.status;
    if status != Status::OutputClosed {
        match w.flush() {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => status = Status::OutputClosed,
            Err(e) => return Err(Error::Output(e)),
        }
    }
    stats.bytes = driven.bytes;
    stats.stopped = match status {
        Status::Complete => None,
        Status::OutputClosed => Some("output closed"),
        Status::Strict => Some("strict"),
    };
    stats.elapsed_seconds = start.elapsed().as_secs_f64();
    stats.mb_per_s = if stats.elapsed_seconds > 0.0 {
        stats.bytes as f64 / 1e6 / stats.elapsed_seconds
    } else {
        0.0
    };
    if let Some(path) = &args.stats {
        let json = serde_json::to_string_pretty(&stats).unwrap_or_default();
        std::fs::write(path, json + "\n").map_err(|source| Error::Stats {
            path: path.display().to_string(),
            source,
        })?;
    }
    let _ = writeln!(diag, "{}", stats.summary());
    Ok(CheckResult {
        status,
        stats,
        strict: args.strict,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use spinneret_warc::verify::Problem;
    use spinneret_warc::{Container, HeaderProblem, RecordError};

    /// Each reader error's message is told back as the kind and severity
    /// `verify::Problem` gives it.
    #[test]
    fn reader_kinds_from_messages() {
        let errors = [
            RecordError::CorruptMember {
                offset: 10,
                container: Container::Gzip,
                detail: "invalid gzip header".into(),
            },
            RecordError::Garbage { offset: 1, len: 5 },
            RecordError::BadHeader {
                offset: 2,
                problem: HeaderProblem::MissingContentLength,
            },
            RecordError::Truncated {
                offset: 3,
                declared: 9,
                available: 1,
                target_uri: None,
            },
            RecordError::BadBoundary {
                offset: 4,
                target_uri: Some("http://e.com/".into()),
            },
            RecordError::TooLarge {
                offset: 5,
                length: 9,
                limit: 1,
                target_uri: None,
            },
            RecordError::Io {
                offset: 6,
                detail: "record truncated".into(),
            },
            RecordError::BadHttp {
                offset: 7,
                target_uri: None,
                problem: spinneret_warc::HttpProblem::BadStatusLine,
            },
        ];
        for e in errors {
            let msg = e.to_string();
            let p = Problem::from(e);
            let (kind, severity, rest) = reader_kind(&msg);
            assert_eq!((kind, severity), (p.kind(), p.severity()), "{msg}");
            assert!(!rest.starts_with("offset"), "{rest}");
        }
        assert_eq!(reader_kind("something else").0, "bad-record");
    }

    #[test]
    fn values_stay_on_one_line() {
        assert_eq!(one_line("a\tb\r\nc"), "a b  c");
        assert_eq!(one_line("abc"), "abc");
    }
}
