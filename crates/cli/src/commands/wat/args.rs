//! The flags of `spinneret wat`.

use std::path::PathBuf;

use clap::Args;

use crate::flags::{Threads, parse_size};
use crate::inputs::InputArgs;
use crate::outputs::warc_records::WarcDate;

/// `spinneret wat`: Common Crawl's WAT file of WARC/ARC files — a
/// `warcinfo` record, then for every source record a `metadata` record
/// whose JSON holds the record's WARC header, HTTP head and, for an HTML
/// page, its title, metas, links and anchor texts.
#[derive(Debug, Clone, Args)]
pub struct WatArgs {
    /// The crawl files (WARC/ARC, plain, gzip or zstd; folders, `-`, a
    /// manifest).
    #[command(flatten)]
    pub input: InputArgs,

    /// Write the WAT to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Plain records instead of one gzip member per record. Without it,
    /// standard output and an -o FILE ending in `.gz` get gzip members
    /// and any other -o FILE plain records.
    #[arg(long)]
    pub no_gzip: bool,

    /// The WARC-Date of the records written (the extraction's date, as
    /// Common Crawl's WATs have it) and the warcinfo's Extracted-Date, as
    /// YYYY-MM-DDThh:mm:ssZ (default: now). With it, the same inputs give
    /// the same file byte for byte.
    #[arg(long, value_name = "DATE", value_parser = WarcDate::parse)]
    pub date: Option<WarcDate>,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// Skip WARC records larger than this (suffixes K, M, G); each is
    /// reported as a bad record.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Stop at the first damaged record or unreadable input (exit code 2).
    #[arg(long)]
    pub strict: bool,
}

impl WatArgs {
    /// Whether records are gzip members: unless `--no-gzip`, or an `-o`
    /// file whose name does not end in `.gz`.
    pub fn gzip(&self) -> bool {
        !self.no_gzip
            && self
                .output
                .as_ref()
                .is_none_or(|p| p.to_string_lossy().ends_with(".gz"))
    }
}
