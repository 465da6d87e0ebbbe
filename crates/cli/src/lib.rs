//! `spinneret-cli`: the logic of the `spinneret` command, kept out of
//! `main.rs` so that it can be tested.
//!
//! `spinneret links` reads WARC/ARC files (through `spinneret-warc`), single
//! HTML files or a manifest of HTML files, extracts every outlink of each
//! HTML page (through `spinneret-extract`) and writes one line per link,
//! JSON Lines or TSV (or one row per link of a Parquet file), its targets
//! canonicalized by `spinneret-canon` with `--profile`.
//!
//! Modules:
//! - [`allocator`]: the binaries' allocator settings (mimalloc, freed
//!   memory kept for reuse).
//! - [`args`]: the command line (clap derive).
//! - [`input`]: input resolution (globs, `-`, manifests) and the producer of
//!   work [`input::Item`]s, in input order.
//! - [`process`]: one item to an [`process::Outcome`] (rendered lines and
//!   counts); pure, run in parallel.
//! - [`output`]: line rendering (JSON Lines, TSV) and `--unique`.
//! - [`columnar`]: `--format parquet` (rows as Arrow batches, written
//!   as a Parquet file).
//! - [`stats`]: the `--stats` JSON and the summary line.
//! - [`pipeline`]: batches, the rayon pool, ordered writing, progress,
//!   `--strict`, a closed output pipe.
//! - [`canon`]: `spinneret canon` (URLs on stdin to canonical forms).
//! - [`canon_eval`]: `spinneret canon-eval` (a crawl's URLs and digests to
//!   the redundancy / coverage-loss table of every policy).
//! - [`tree`]: `spinneret tree` (one page to its document: the html5lib
//!   dump, serialized HTML or visible text).
//! - [`driver`]: the run of every subcommand that reads crawl files
//!   (producer, workers, results in input order).
//! - [`index`], [`check`]: `spinneret index` (replay indexes) and
//!   `spinneret check` (verification).
//! - [`text`]: `spinneret text` (pages' readable text, through
//!   `spinneret-text`, as JSON Lines, WET, Parquet or bare text).
//!
//! Invariants: bad input (damaged records, unreadable manifest rows, URLs
//! that do not parse) never panics and never stops the run unless
//! `--strict`; output lines appear in input order whatever `--threads`;
//! memory holds at most a few batches of records (plus the current input
//! file, which the WARC reader reads from memory).

#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod allocator;
pub mod args;
pub mod canon;
pub mod canon_eval;
pub mod check;
pub mod columnar;
pub mod driver;
pub mod index;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod process;
pub mod read_ahead;
pub mod stats;
pub mod text;
pub mod tree;

/// The README's examples (URL, HTML, links, encoding, canonicalization),
/// compiled and run as doctests so they stay true. They live here because
/// this crate already depends on every stage they use.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

/// Errors that end a run (bad records are not errors: they are counted).
///
/// A variant's message names what failed; its cause is its
/// [`source`](std::error::Error::source), never also part of the message,
/// so the binary's error chain (`spinneret: links: FILE: CAUSE`) states
/// each cause once.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An input file or directory cannot be read.
    #[error("{path}")]
    Input {
        /// The file or directory.
        path: String,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The manifest lacks the `path` or `url` column.
    #[error("{path}: {what}")]
    Manifest {
        /// The manifest file.
        path: String,
        /// What is wrong with it.
        what: String,
    },
    /// `--url` is not a URL.
    #[error("--url {url:?}")]
    Url {
        /// The text given.
        url: String,
        /// Why it does not parse.
        #[source]
        source: spinneret_url::ParseError,
    },
    /// Writing the output (other than a closed pipe) or the stats failed.
    #[error("output")]
    Output(#[source] std::io::Error),
    /// The Parquet output cannot be made (`--format parquet`).
    #[error("parquet output")]
    Parquet(#[source] columnar::ParquetOutError),
    /// The thread pool cannot be built.
    #[error("threads: {0}")]
    Threads(String),
    /// The `--stats` file cannot be written.
    #[error("--stats {path}")]
    Stats {
        /// The `--stats` file.
        path: String,
        /// Why it cannot be written.
        #[source]
        source: std::io::Error,
    },
    /// The canonicalization profile cannot be built (`--rule`, `--profile-file`).
    #[error("profile: {0}")]
    Profile(String),
    /// A `--surt-option` is not one of the `surt` package's.
    #[error("--surt-option")]
    SurtOption(#[source] spinneret_canon::surt::SurtOptionError),
    /// The index could not be sorted or written (`spinneret index`).
    #[error("index: {0}")]
    Index(String),
    /// Flags that mean nothing together (a usage error).
    #[error("{0}")]
    Usage(&'static str),
    /// No input given.
    #[error("no input: give WARC/ARC files, `-`, --html FILE --url URL, or --manifest TSV")]
    NoInput,
}
