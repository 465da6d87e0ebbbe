//! The errors that end a run of any subcommand.

use std::io;

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
    /// The `-o` file cannot be created.
    #[error("-o {path}")]
    Create {
        /// The file.
        path: String,
        /// Why it cannot be created.
        #[source]
        source: std::io::Error,
    },
    /// The `-o` file cannot be written (a full disk: `ENOSPC`); what was
    /// written of it is removed.
    #[error("-o {path}: cannot be written")]
    Write {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// An output, complete, cannot be put in place (renamed from its
    /// temporary name): the `-o` file, the `--zipnum` folder.
    #[error("{path}: cannot put the finished output in place")]
    Commit {
        /// The file.
        path: String,
        /// Why the rename failed.
        #[source]
        source: std::io::Error,
    },
    /// A binary format would go to a terminal: the message says what to
    /// give instead.
    #[error("{0}")]
    BinaryToTerminal(String),
    /// A `get --payload` file could not be written.
    #[error("--payload {path}: cannot be written")]
    Payload {
        /// The file or folder.
        path: String,
        /// Why.
        #[source]
        source: io::Error,
    },
    /// The page of `spinneret tree` cannot be read.
    #[error("{what}: cannot be read")]
    Page {
        /// The file, or `standard input`.
        what: String,
        /// Why it cannot be read.
        #[source]
        source: std::io::Error,
    },
    /// The page of `spinneret tree` is larger than `--max-size`.
    #[error(
        "{what}: the page is larger than --max-size ({max_size} bytes, decompressed); raise --max-size to parse it"
    )]
    PageTooLarge {
        /// The file, or `standard input`.
        what: String,
        /// The limit.
        max_size: u64,
    },
    /// Writing the output (other than a closed pipe) or the stats failed.
    #[error("output")]
    Output(#[source] std::io::Error),
    /// The Parquet output cannot be made (`--format parquet`).
    #[error("parquet output")]
    Parquet(#[source] ParquetOutError),
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
    /// Flags that mean nothing together: a usage error (the binary says
    /// it as clap says its own, exit code 2).
    #[error("{0}")]
    Usage(&'static str),
    /// `--resume` cannot go on in its folder (another command's run, a
    /// folder in use).
    #[error("--resume {dir}: {what}")]
    Resume {
        /// The resume folder.
        dir: String,
        /// Why.
        what: String,
    },
    /// A file of a `--resume` folder cannot be read or written (the
    /// folder stays: the same command goes on once the cause is gone).
    #[error("--resume {path}")]
    ResumeFile {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Building a web graph failed.
    #[error("{0}")]
    Graph(#[from] spinneret_graph::GraphError),
    /// No input given.
    #[error("no input: give WARC/ARC files, `-`, --html FILE --url URL, or --manifest TSV")]
    NoInput,
}

/// Why a Parquet file could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ParquetOutError {
    /// Writing the bytes to the output failed (a closed pipe included).
    #[error("output")]
    Io(#[from] io::Error),
    /// The Arrow writer failed.
    #[cfg(feature = "parquet")]
    #[error("parquet")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// This binary was built without the `parquet` feature.
    #[cfg(not(feature = "parquet"))]
    #[error(
        "this spinneret was built without Parquet (cargo feature `parquet`, on by default): rebuild without --no-default-features"
    )]
    NotBuilt,
    /// A batch could not be built or filtered.
    #[error("arrow")]
    Arrow(#[from] arrow_schema::ArrowError),
}
