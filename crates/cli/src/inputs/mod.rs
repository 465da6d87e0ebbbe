//! Inputs of the commands that read crawl files: resolution of the command
//! line into [`Source`]s (files, directories walked and globs expanded by
//! [`spinneret_warc::discover`], `-`, `--html`, `--manifest`), and the
//! producer that turns sources into work [`Item`]s in input order.
//!
//! Invariants: only a command line that cannot mean anything (no input at
//! all, a manifest that cannot be read, a bad `--url`) is an [`Error`](crate::Error)
//! before any output. A path that yields nothing (missing, unreadable, a
//! glob that matches nothing, a symbolic-link loop) is a
//! [`Source::Unreadable`] in its place and becomes an [`Item::Unreadable`];
//! a damaged record or a manifest row without a URL becomes an
//! [`Item::Bad`]; the run reports each and goes on with the rest. Only one
//! WARC file is held in memory at a time (the reader works on a byte
//! slice).
//!
//! Files: [`source`] (what an input is), [`args`] (the flags, resolved to
//! sources), [`resolve`] (one input to its sources), [`manifest`] (`--manifest`), [`produce`](mod@produce) (sources to items),
//! [`read`] (a page read whole, with a limit), [`remote`] (`s3://`,
//! `gs://`, `az://`, `http(s)://` objects and prefixes, with the `remote`
//! feature).

pub mod args;
pub mod manifest;
pub mod produce;
pub mod read;
#[cfg(feature = "remote")]
pub mod remote;
pub mod resolve;
pub mod source;

pub use args::InputArgs;
pub use manifest::manifest_sources;
pub use produce::produce;
pub use read::{read_html_limited, read_html_limited_on, read_limited};
pub use source::{Item, Source, count, expand_input, source_len, source_name};
