//! `spinneret-encoding`: determine and decode a page's character encoding
//! exactly as a browser does (the HTML Standard's *determining the
//! character encoding*), with a crawler policy on top, and the URL query
//! encoder for the document's encoding.
//!
//! ```
//! use spinneret_encoding::{Policy, Sniffer, Step};
//!
//! let page = b"<meta charset=windows-1251><p>\xcf\xf0\xe8\xe2\xe5\xf2";
//! let decoded = Sniffer::new(Policy::Browser)
//!     .content_type(b"text/html")
//!     .url("https://example.ru/")
//!     .decode(page);
//! assert_eq!(decoded.text, "<meta charset=windows-1251><p>Привет");
//! assert_eq!(decoded.determination.step, Step::Meta);
//! ```
//!
//! Modules: [`content_type`] (HTTP charset), [`prescan`] (`<meta>` and XML
//! declaration in the first 1024 bytes), [`determine`] (the order of steps,
//! the detector, the policies), [`decode`] (whole and streaming),
//! [`parallel`] (one document decoded on several threads), [`change`]
//! (a `<meta>` after the prescan window), [`query`] (URL query encoding).
//!
//! Invariant: every entry point is total — any bytes, headers and URL give a
//! decision and a decoding; only reading a stream can fail
//! ([`EncodingError`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod change;
pub mod content_type;
pub mod decode;
pub mod determine;
mod error;
pub mod parallel;
pub mod prescan;
pub mod query;

pub use change::{Change, meta_element_encoding};
pub use decode::{Decoded, decode_with};
pub use determine::{Confidence, DetectorInput, Determination, Policy, Sniffer, Step};
pub use encoding_rs::Encoding;
pub use error::EncodingError;
pub use parallel::decode_parallel;
pub use query::DocumentQueryEncoder;
