//! `spinneret-index`: replay indexes of web archives.
//!
//! A WARC/ARC record becomes an index entry (its SURT key, timestamp,
//! URL, media type, status, digest, and the offset and length a replay
//! system seeks to); entries become CDXJ or CDX lines, sorted in byte order
//! with bounded memory, optionally cut into a ZipNum cluster.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod calendar;
pub mod cc_columns;
pub mod entry;
pub mod fetch;
pub mod join;
pub mod line;
pub mod mime_sniff;
pub mod ordered;
pub mod post_query;
pub mod request;
pub mod sort;
pub mod warc_date;
pub mod zipnum;
