//! The subcommands of `spinneret`, one module each, and the command line
//! that names them ([`Cli`], [`Command`]).
//!
//! Each command's module owns its flags (its clap `Args` struct), its
//! per-record work and its output, and has two entry points: `run`, the
//! command on given writers (what tests and benchmarks call), and `exec`,
//! the command as the binary runs it (standard streams, `-o FILE`, a
//! progress bar on a terminal) returning its exit code. The commands share
//! only the machinery outside this folder (`driver`, `inputs`, `outputs`,
//! `columnar`, `flags`); none imports another, and nothing but the
//! dispatcher (`main.rs`, through [`Command`]) imports a command.
//!
//! Adding a command: a module here (a file, or a folder once it has
//! several parts) with its `Args` struct, `run` and `exec`; its variant in
//! [`Command`] and [`Command::name`]; its line in `main.rs`.

pub mod canon;
pub mod canon_eval;
pub mod check;
pub mod get;
pub mod graph;
pub mod index;
pub mod links;
pub mod text;
pub mod tree;
pub mod wat;

use clap::{Parser, Subcommand};

/// spinneret: every outlink of web-crawl bytes, as a browser reads them.
#[derive(Debug, Parser)]
#[command(name = "spinneret", version, about)]
pub struct Cli {
    /// The subcommand and its options.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract every link of the HTML pages in WARC/ARC files or HTML files.
    Links(links::LinksArgs),
    /// Canonicalize URLs read from standard input, one per line:
    /// `url<TAB>canonical<TAB>surt` per line.
    Canon(canon::CanonArgs),
    /// Measure canonicalization policies on a crawl (Lee et al. 2005:
    /// redundancy and coverage loss), from WARC/ARC files, CDX/CDXJ
    /// indexes or TSV files of URLs and payload digests.
    CanonEval(canon_eval::CanonEvalArgs),
    /// Parse one HTML page into the document a browser builds and print it
    /// as the html5lib test-format dump, as serialized HTML or as the text
    /// a reader sees.
    Tree(tree::TreeArgs),
    /// Index WARC/ARC files for replay: sorted CDXJ or CDX lines (pywb,
    /// OutbackCDX, OpenWayback), or a ZipNum cluster.
    Index(index::IndexArgs),
    /// Verify WARC/ARC files: block and payload digests, framing, one
    /// record per gzip member, mandatory fields, HTTP heads, revisits.
    Check(check::CheckArgs),
    /// The readable text of the HTML pages in WARC/ARC files or HTML
    /// files: the whole page or its main content, plain or Markdown, as
    /// JSON Lines, Common Crawl's WET, Parquet, or the bare text.
    ///
    /// Which records: `response` and `resource` records whose payload is
    /// HTML (its Content-Type, or sniffed when the type is missing or
    /// unknown), not empty, with a 2xx HTTP status or no HTTP head (ARC
    /// records, `resource` records); `--any-status` takes every status.
    /// Every other record is skipped. HTML files (`--html`, a manifest of
    /// pages) are always taken. A damaged record is reported (file,
    /// offset, why) and skipped, the rest written; the exit code is then 1
    /// (`--strict`: the run stops, exit code 2).
    ///
    /// The output follows the input order, whatever `--threads`.
    Text(text::TextArgs),
    /// Fetch the records an index names (CDXJ or CDX lines), each by its
    /// byte range, into one WARC file: each record's gzip member verbatim.
    Get(get::GetArgs),
    /// The host-level web graph of WARC/ARC files (or of host pairs) as
    /// Common Crawl publishes it: host names normalized and reversed,
    /// vertices numbered in byte order, edges sorted numerically, within a
    /// memory budget; with `--domain`, the domain graph too.
    Graph(graph::GraphArgs),
    /// Common Crawl's WAT file of WARC/ARC files: a warcinfo record, then
    /// for every source record a `metadata` record whose JSON holds its
    /// WARC header, HTTP head and, for an HTML page, its title, metas,
    /// links and anchor texts. A damaged record is reported and skipped
    /// (exit code 1; `--strict`: the run stops, exit code 2).
    Wat(wat::WatArgs),
}

impl Command {
    /// The subcommand's name, as typed (`canon-eval`): the prefix of its
    /// error messages.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Links(_) => "links",
            Command::Canon(_) => "canon",
            Command::CanonEval(_) => "canon-eval",
            Command::Tree(_) => "tree",
            Command::Index(_) => "index",
            Command::Check(_) => "check",
            Command::Text(_) => "text",
            Command::Get(_) => "get",
            Command::Graph(_) => "graph",
            Command::Wat(_) => "wat",
        }
    }
}
