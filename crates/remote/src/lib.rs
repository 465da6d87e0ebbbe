//! Crawl files where they live: objects in S3 (and S3-compatible stores),
//! Google Cloud Storage, Azure Blob Storage, or behind any HTTP(S) server,
//! read with blocking calls by code that reads local files.
//!
//! - [`Client::list`] lists a prefix (`s3://bucket/prefix/`) as a
//!   directory is walked: every object under it, sorted by name.
//! - [`Client::open`] gives an object as a [`std::io::Read`]
//!   ([`ObjectReader`]): records flow while it downloads, fetched ahead by
//!   parallel range requests, in bounded memory (see [`reader`]'s doc).
//! - [`Client::fetch_ranges`] fetches byte ranges, one request each, many
//!   in flight, in the order asked: what `spinneret get` does with an
//!   index's `(filename, offset, length)`.
//!
//! Built on the Apache Arrow project's `object_store` (signing,
//! credentials, listing, retries with exponential backoff and jitter that
//! resume a cut body at the byte reached, ETag and `Content-Range`
//! checks), plus what it lacks: `Retry-After` honoured
//! ([`retry_after`]), the AWS profile files ([`profile`]), and secrets
//! kept out of every message ([`mod@redact`]).
//!
//! Invariants: no byte is handed over twice or after a gap; an object that
//! changes while it is read (another ETag) or a server that answers a
//! range with other bytes is an error, never mixed data; every error text
//! is scrubbed of the URL's userinfo and query and of the environment's
//! secret keys, and does not name the object (the caller shows
//! [`redact()`]ed names).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod client;
mod error;
pub mod profile;
pub mod reader;
pub mod redact;
pub mod retry_after;

pub use client::{CHUNK_SIZE, CHUNKS_IN_FLIGHT, Client, Listed, Options, is_remote};
pub use error::RemoteError;
pub use reader::ObjectReader;
pub use redact::redact;
