//! The check sink: in input order, each file's [`FileCheck`] (shared
//! members, duplicate ids, revisits against their originals), one line
//! per problem, and the counts.

use std::io::{BufWriter, Write};
use std::sync::Arc;

use spinneret_warc::verify::{FileCheck, Severity};

use super::args::CheckFormat;
use super::job::{Done, reader_kind};
use super::stats::CheckStats;
use crate::Error;
use crate::driver::{Flow, Report, Sink, Status};
use crate::outputs;

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
pub struct CheckSink<'o> {
    pub(super) format: CheckFormat,
    pub(super) quiet: bool,
    pub(super) w: BufWriter<&'o mut dyn Write>,
    /// The current file, its checks, and whether it had an error.
    pub(super) current: Option<(Arc<str>, FileCheck, bool)>,
    pub(super) stats: CheckStats,
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
        outputs::write(&mut self.w, text.as_bytes())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_stay_on_one_line() {
        assert_eq!(one_line("a\tb\r\nc"), "a b  c");
        assert_eq!(one_line("abc"), "abc");
    }
}
