//! `spinneret-wat`: Common Crawl's WAT files — the metadata of each WARC
//! record as JSON — written from a crawl's records, and read back as
//! links.
//!
//! A WAT file is a WARC file: a `warcinfo` record, then for every source
//! record one `metadata` record (`WARC-Refers-To` its record id,
//! `Content-Type: application/json`) whose block is the JSON of
//! [`record_metadata`]: where the record is (`Container`), its WARC header
//! and, by type, its HTTP head and — for an HTML page — the page's title,
//! metas, links and anchor texts (`HTML-Metadata`). The framing (record
//! headers, gzip members) is the caller's; `spinneret wat` writes it.
//!
//! Reading WATs back ([`read`]): the page URL and the link targets a
//! `metadata` record's JSON names, for building link tables and graphs
//! from WAT files alone.
//!
//! Code map:
//! - `json.rs` — [`Object`]/[`Value`]: insertion-ordered JSON with the
//!   fork's repeated-key rule, and its serialization;
//! - `envelope.rs` — [`record_metadata`]: `Container` and `Envelope`;
//! - `html.rs` — [`html_metadata`]: `HTML-Metadata` from a page's tokens;
//! - `scripted.rs` — URLs in CSS and `onclick`, `data:` URL trimming;
//! - [`read`] — links from a WAT record's JSON.
//!
//! Each module's documentation names where it departs from Common Crawl's
//! generator (its fork of ia-web-commons) and why.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod envelope;
mod html;
mod json;
pub mod read;
mod scripted;

pub use envelope::{Container, GzipMember, record_metadata, sha1_digest};
pub use html::html_metadata;
pub use json::{Object, Value};
pub use scripted::trim_data_url;
