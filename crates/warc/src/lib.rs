//! The record layer of `spinneret links`: WARC/1.0, WARC/1.1 and ARC records
//! from plain, gzip (per record or whole file) and zstd files, with HTTP
//! heads parsed, payloads decoded and every kind of damage reported as a typed
//! error item after which iteration continues.
//!
//! # Why not `fastwarc`
//!
//! The `fastwarc` crate (2.0.0, the Rust port of Resiliparse's FastWARC) was
//! the obvious candidate. It was inspected in the Cargo registry (source of
//! 2.0.0) and fails these requirements:
//!
//! - **ARC**: not supported. The record parser accepts only `WARC/1.0`,
//!   `WARC/1.1` and `WARC/0.x` version lines (`warc/record.rs`,
//!   `parse_warc_headers_with_opts`); an ARC file is "Invalid WARC header".
//! - **Resumption after corrupt gzip members**: not supported. A decompression
//!   error surfaces as an `io::Error` from the stream decoder, after which the
//!   record "should be treated as tainted" (its own doc on `next_inplace`);
//!   there is no resynchronization on the next member magic, so every good
//!   record after a damaged one is lost.
//! - **Typed errors with offsets**: errors are `std::io::Error` with a
//!   message, without the offset of the damage.
//! - **Robustness (never panic)**: `attach_reader` calls `.unwrap()` on the
//!   inner stream position (an I/O error panics).
//!
//! It does meet: zstd (and lz4), record offsets (`stream_pos`, the gzip member
//! start), HTTP parsing and payload decoding. Its dependency tree is also
//! heavy for a library (sha1/sha2/md5, uuid, time, lz4_flex, brotli, zlib-rs,
//! zstd with multithreading). This crate is therefore its own reader, on
//! `libdeflate-sys` (whole gzip members in one call), `flate2` (gzip members
//! streamed when the fast path does not apply), `zstd` and
//! `brotli-decompressor`.
//!
//! # Design
//!
//! - The container layer (`container.rs`): the file — a slice in memory
//!   ([`Reader::new`]) or a stream ([`Reader::from_read`], memory bounded by
//!   the record size) — decoded member by member through the same code; a
//!   failing member is reported and decoding resumes at the next member
//!   magic. A gzip member is inflated in one call when it can be
//!   (`inflate.rs`, libdeflate over FFI: the crate's only `unsafe`), else
//!   streamed. A caller may inflate whole members ahead of the reader, on
//!   other threads ([`ahead`], [`Reader::from_read_ahead`]): the reader
//!   then takes each member's output instead of inflating it, with the same
//!   records as a proof obligation kept by construction (see `ahead.rs`).
//! - [`Reader`] (`reader.rs`): records over the decoded stream. Each record
//!   is its header — a WARC header block (`warc_header.rs`) or an ARC header
//!   line (`arc_header.rs`) — then a block of the declared length, which must
//!   end at a record boundary; otherwise the record is reported and the
//!   reader rescans from the end of its header (see the invariants in
//!   `reader.rs`). `record_build.rs` makes the [`Record`] from the header
//!   and block.
//! - [`http`] (`http.rs`): tolerant HTTP head parsing, chunked/gzip/deflate/br
//!   decoding with a size limit, HTML selection by Content-Type or MIME
//!   sniffing.
//!
//! Record types: `response` and `resource` get a decoded [`Record::body`]
//! (a [`Body`]: when a gzip member inflated in one call holds just the record
//! and the payload needs no decoding, a range of the decoded member handed
//! over, not a copy); `revisit` gets its HTTP head and keeps
//! `WARC-Refers-To*` and `WARC-Payload-Digest`; `request`, `metadata`,
//! `warcinfo` carry headers only. ARC records are `response` records, except
//! the `filedesc:` header record, which is `warcinfo`. Records over
//! [`Options::max_record_size`] are skipped with [`RecordError::TooLarge`].
//!
//! Invariants: no input makes the reader panic or loop; every item is either a
//! record or a [`RecordError`] with a file offset; the reader always makes
//! progress after an error.

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

pub mod ahead;
mod arc_header;
mod body;
mod container;
pub mod discover;
mod error;
pub mod http;
mod inflate;
mod reader;
mod record;
mod record_build;
pub mod verify;
mod warc_header;

pub use body::Body;
pub use error::{BodyError, Container, HeaderProblem, HttpProblem, RecordError};
pub use http::Http;
pub use reader::{Content, Options, Reader};
pub use record::{LinkHeaders, Record, RecordType};
