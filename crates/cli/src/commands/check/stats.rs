//! What a check run checked and found: the counts (`--stats`), the
//! summary line, the exit code.

use std::collections::BTreeMap;

use serde::Serialize;
use spinneret_warc::verify::DigestOutcome;

use crate::driver::Status;

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
    /// Counts one record's outcome (`None`: no digest to check).
    pub fn add(&mut self, outcome: Option<DigestOutcome>) {
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
