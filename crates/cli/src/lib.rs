//! `spinneret-cli`: the logic of the `spinneret` command, kept out of
//! `main.rs` so that it can be tested.
//!
//! The map (ARCHITECTURE.md draws it with the rest of the workspace):
//!
//! - [`commands`]: one module per subcommand (`links`, `index`, `check`, `get`,
//!   `text`, `tree`, `canon`, `canon_eval`), each owning its flags, its
//!   per-record work, its output formats and its run summary, with the
//!   command line that names them ([`commands::Cli`]). `main.rs` parses
//!   the command line and calls the command's `exec`.
//! - The machinery the commands share, which imports no command:
//!   - [`driver`]: the run of a command that reads crawl files — a
//!     producer, workers, results written in input order, progress,
//!     `--strict`.
//!   - [`read_ahead`]: the driver's workers inflating gzip members ahead
//!     of the reader.
//!   - [`inputs`]: what an input means (a file, a folder, a glob, a
//!     manifest, `-`, `--html`) and the items the driver reads from it.
//!   - [`outputs`]: where the output goes (`-o FILE` or standard output,
//!     binary formats refused on a terminal) and how a closed pipe ends a
//!     run.
//!   - [`columnar`]: Parquet files written from Arrow batches.
//!   - [`escape`]: JSON and TSV escaping of the rows of text outputs.
//!   - [`flags`]: flags several commands take (the canonicalization
//!     profile, byte sizes).
//!   - [`error`]: the errors that end a run.
//!   - [`allocator`]: the binaries' allocator settings (mimalloc, freed
//!     memory kept for reuse).
//!
//! Invariants: bad input (damaged records, unreadable manifest rows, URLs
//! that do not parse) never panics and never stops the run unless
//! `--strict`; output lines appear in input order whatever `--threads`;
//! memory holds at most a few batches of records (plus the current input
//! file, which the WARC reader reads from memory).

#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

pub mod allocator;
pub mod columnar;
pub mod commands;
pub mod driver;
pub mod error;
pub mod escape;
pub mod flags;
pub mod inputs;
pub mod outputs;
pub mod read_ahead;

pub use error::Error;

/// The README's examples (URL, HTML, links, encoding, canonicalization),
/// compiled and run as doctests so they stay true. They live here because
/// this crate already depends on every stage they use.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;
