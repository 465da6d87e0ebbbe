//! The flags of `spinneret index`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use spinneret_index::entry::{Fields, RecordTypes};

use crate::flags::{ResumeArgs, Threads, parse_size};
use crate::inputs::InputArgs;

/// Index line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IndexFormat {
    /// `urlkey timestamp {json}`: pywb's and cdxj-indexer's CDXJ.
    Cdxj,
    /// The classic CDX ` CDX N b a m s k r M S V g`, header line included.
    Cdx11,
    /// Common Crawl's cc-index-table columns as one Parquet file, rows in
    /// input order (`spinneret_index::cc_columns`).
    Parquet,
}

/// `spinneret index [OPTIONS] INPUT...`
#[derive(Debug, Clone, Args)]
pub struct IndexArgs {
    /// The inputs: `INPUT`s, `--sniff`, `--manifest`, `--dir`.
    #[command(flatten)]
    pub input: InputArgs,

    /// Output format.
    #[arg(long, value_enum, default_value_t = IndexFormat::Cdxj)]
    pub format: IndexFormat,

    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Optional fields, comma-separated: redirect, charset, mime-detected,
    /// truncated, recordid, or cc (Common Crawl's four).
    #[arg(long, value_name = "LIST", value_parser = parse_fields)]
    pub fields: Option<Fields>,

    /// Record types that get a line: a comma-separated list of WARC types,
    /// or `all`. Default: response, revisit, resource, metadata (not those
    /// of application/warc-fields), as cdxj-indexer.
    #[arg(long, value_name = "TYPES", value_parser = parse_records)]
    pub records: Option<RecordTypes>,

    /// Do not fold POST/PUT request bodies into the key (pywb indexes
    /// collections with them folded: `?__wb_method=post&…`).
    #[arg(long)]
    pub no_post_append: bool,

    /// Write lines in input order, unsorted, as they are made.
    #[arg(long, conflicts_with = "zipnum")]
    pub no_sort: bool,

    /// Memory for sorting: lines are held up to half of it, then sorted
    /// runs go to temporary files, merged with the other half as read
    /// buffers (the binary's allocator keeps freed memory for reuse, so
    /// the two halves add up).
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    pub memory: u64,

    /// Folder for the sort's temporary files (default: the system's).
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,

    /// Write a ZipNum cluster (gzip blocks, `.idx`, `.loc`) into DIR
    /// instead of plain lines.
    #[arg(long, value_name = "DIR")]
    pub zipnum: Option<PathBuf>,

    /// ZipNum lines per gzip block.
    #[arg(long, value_name = "N", default_value_t = 3000, requires = "zipnum")]
    pub lines: usize,

    /// ZipNum: start a new shard once one has this many bytes.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size, requires = "zipnum")]
    pub shard_size: u64,

    /// ZipNum cluster's name (files NAME-NN.cdx.gz, NAME.idx, NAME.loc).
    #[arg(
        long,
        value_name = "NAME",
        default_value = "index",
        requires = "zipnum"
    )]
    pub cluster_name: String,

    /// The `filename` field is the path relative to DIR (default: the
    /// file's name).
    #[arg(long, value_name = "DIR")]
    pub dir_root: Option<PathBuf>,

    /// The `filename` field, for every input (standard input's default is
    /// `-`).
    #[arg(long, value_name = "NAME")]
    pub filename: Option<String>,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// A record block up to this size is read whole (its payload digest
    /// computed when the record has none); of a larger one, only the
    /// start (it is indexed all the same).
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Stop at the first damaged record, unreadable input, or record that
    /// replay cannot seek to (exit code 2).
    #[arg(long)]
    pub strict: bool,

    /// Skim: a gzip member holding one response or resource record (16
    /// KiB or more, with its payload digest) is inflated only through its
    /// HTTP head, and the next member is found by its gzip magic, its first
    /// bytes (`WARC/`) and the trailer's length, not by inflating the rest.
    /// Several times faster, with the same lines on undamaged files; but
    /// damage inside a payload goes unseen (the record gets its line where
    /// the full read reports a corrupt member), and a payload crafted to
    /// hold a gzip member of a WARC record, stored raw by the writer's
    /// deflate, can forge a line. For WARCs whose payloads you trust.
    /// `--fields charset|mime-detected|cc` read payloads: no skim.
    #[arg(long)]
    pub skim: bool,

    /// `--resume` and `--checkpoint-every` (with -o; the sorted runs of the
    /// finished inputs are kept in the resume folder).
    #[command(flatten)]
    pub resumable: ResumeArgs,
}

impl IndexArgs {
    /// The command as a `--resume` journal names it: its flags that shape
    /// the output (not the sort's memory and folder, or `--threads`).
    pub fn resume_key(&self) -> String {
        let a = IndexArgs {
            input: self.input.for_resume(),
            memory: 0,
            temp_dir: None,
            workers: Threads { threads: 0 },
            ..self.clone()
        };
        format!("index {a:?}")
    }
}

fn parse_fields(s: &str) -> Result<Fields, String> {
    Fields::parse(s)
}

fn parse_records(s: &str) -> Result<RecordTypes, String> {
    RecordTypes::parse(s)
}
