//! Run statistics: the `--stats` JSON and the one-line summary on stderr.
//!
//! Invariant: counts are added in input order by the writer, from
//! [`Outcome`]s, so they do not depend on `--threads` (only the timing
//! fields do).

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use spinneret_extract::{KindCounts, LinkKind};

use super::job::{Class, Outcome, PageStats};

/// Counts by name (a record type, a link kind, an encoding): the names
/// are the program's own, borrowed, until a `--resume` run reads them back
/// from its journal.
pub type Counts = BTreeMap<Cow<'static, str>, u64>;

/// Everything `--stats` reports (and a `--resume` checkpoint keeps).
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Stats {
    /// Input sources: WARC/ARC files, `-`, the `--html` file, manifest rows.
    pub inputs: u64,
    /// Records (and HTML files, as `html-file`) by type.
    pub records: Counts,
    /// HTML pages whose links were extracted.
    pub html_pages: u64,
    /// Non-HTML records whose `Location`/`Link` headers gave links.
    pub header_only_records: u64,
    /// `response`/`resource` records that are not HTML (no links).
    pub non_html_records: u64,
    /// Records skipped because the target URI is missing or not a URL.
    pub records_without_url: u64,
    /// Records whose payload could only be partly decoded.
    pub body_errors: u64,
    /// Links extracted (before `--unique`).
    pub links: u64,
    /// Links extracted, by kind (`LinkKind::as_str`).
    pub links_by_kind: Counts,
    /// Lines written (after `--unique`).
    pub links_written: u64,
    /// Links whose URL did not parse.
    pub parse_failures: u64,
    /// Links whose URL did not parse, by kind.
    pub parse_failures_by_kind: Counts,
    /// Encoding decisions by the step that made them (BOM, HTTP, meta, …).
    pub encoding_steps: Counts,
    /// Encodings used.
    pub encodings: Counts,
    /// Pages where a late `<meta>` changed the encoding.
    pub encoding_changes: u64,
    /// Pages decoded and tokenized twice.
    pub restarts: u64,
    /// Bad records and unreadable inputs.
    pub bad_records: u64,
    /// Inputs that could not be read at all (missing, unreadable, a glob
    /// matching nothing): each makes the exit code 1.
    pub unreadable_inputs: u64,
    /// Input bytes (as stored: compressed for compressed files).
    pub bytes: u64,
    /// Wall-clock seconds of the run.
    pub elapsed_seconds: f64,
    /// Input megabytes (10^6 bytes) per second.
    pub mb_per_s: f64,
    /// Why the run stopped early: `output closed`, `strict`.
    #[serde(skip_deserializing)]
    pub stopped: Option<&'static str>,
}

fn add_kinds(map: &mut Counts, counts: &KindCounts) {
    for k in LinkKind::ALL {
        let n = counts.get(k) as u64;
        if n > 0 {
            *map.entry(Cow::Borrowed(k.as_str())).or_default() += n;
        }
    }
}

impl Stats {
    fn add_page(&mut self, p: &PageStats) {
        self.links += p.links as u64;
        add_kinds(&mut self.links_by_kind, &p.by_kind);
        self.parse_failures += p.failures as u64;
        add_kinds(&mut self.parse_failures_by_kind, &p.failures_by_kind);
    }

    /// Counts one outcome.
    pub fn add(&mut self, o: &Outcome) {
        if !matches!(o.class, Class::Bad(_) | Class::Unreadable(_)) {
            *self
                .records
                .entry(Cow::Borrowed(o.record_type))
                .or_default() += 1;
        }
        self.body_errors += o.body_error as u64;
        match &o.class {
            Class::Html(p) => {
                self.html_pages += 1;
                self.add_page(p);
                *self
                    .encoding_steps
                    .entry(Cow::Borrowed(p.step))
                    .or_default() += 1;
                *self.encodings.entry(Cow::Borrowed(p.encoding)).or_default() += 1;
                self.encoding_changes += p.encoding_changed as u64;
                self.restarts += p.restarted as u64;
            }
            Class::HeaderOnly(p) => {
                self.header_only_records += 1;
                self.add_page(p);
            }
            Class::NonHtml => self.non_html_records += 1,
            Class::Skipped => {}
            Class::NoUrl => self.records_without_url += 1,
            Class::Bad(_) => self.bad_records += 1,
            Class::Unreadable(_) => self.unreadable_inputs += 1,
        }
    }

    /// Sets the timing fields.
    pub fn finish(&mut self, elapsed: std::time::Duration) {
        self.elapsed_seconds = elapsed.as_secs_f64();
        self.mb_per_s = if self.elapsed_seconds > 0.0 {
            self.bytes as f64 / 1e6 / self.elapsed_seconds
        } else {
            0.0
        };
    }

    /// The one-line summary printed on stderr at the end.
    pub fn summary(&self) -> String {
        let records: u64 = self.records.values().sum();
        let mut s = format!(
            "spinneret links: {records} records, {} HTML pages, {} links ({} written, {} parse failures), {} bad records, {:.1} MB in {:.2} s ({:.1} MB/s)",
            self.html_pages,
            self.links,
            self.links_written,
            self.parse_failures,
            self.bad_records,
            self.bytes as f64 / 1e6,
            self.elapsed_seconds,
            self.mb_per_s
        );
        if self.unreadable_inputs > 0 {
            s.push_str(&format!("; {} unreadable inputs", self.unreadable_inputs));
        }
        if let Some(why) = self.stopped {
            s.push_str("; stopped: ");
            s.push_str(why);
        }
        s
    }
}
