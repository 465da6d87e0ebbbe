//! The WHATWG URL Standard, complete, with the representation and fast paths
//! a crawler needs.
//!
//! A [`Url`] is one buffer holding the serialized URL plus a few `u32`
//! offsets; every getter is a slice of that buffer. Parsing tries cheap
//! fast paths first (an already-normalized absolute URL is one scan and one
//! copy; common relative links against a pre-parsed base likewise) and falls
//! back to the standard's state machine, which is followed step by step in the
//! `parser` module.
//!
//! ```
//! use spinneret_url::Url;
//!
//! let page = Url::parse("https://example.com/news/today.html").unwrap();
//! let link = Url::parse_with_base("../img/a b.png#top", &page).unwrap();
//! assert_eq!(link.href(), "https://example.com/img/a%20b.png#top");
//! assert_eq!(link.origin().to_string(), "https://example.com");
//!
//! assert!(Url::parse("https://exa mple.com").is_err());
//! assert!(Url::can_parse("/x", Some("https://example.com")));
//! ```
//!
//! What lives where: `parser` (state machine, Windows drive letters),
//! `fast_path` (the shortcuts and the conditions under which they are exact),
//! `byte_runs` (the fast paths' SSE2 scans, with a scalar twin), `host` (host
//! parsing), `percent_encoding` (encode sets, query encoding), `record` (the
//! record the state machine works on, and the URL serializer), `components`
//! (the offsets a `Url` is made of, their invariants and
//! [`Url::check_invariants`]), `url` (the compact type and its getters),
//! `setters`, `origin`, `search_params` (URLSearchParams and
//! application/x-www-form-urlencoded), `error` and `report` (parse failures
//! and validation errors).

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod byte_runs;
mod components;
mod error;
mod fast_path;
mod host;
mod origin;
mod parser;
pub mod percent_encoding;
mod record;
mod report;
mod scheme;
mod search_params;
mod setters;
mod url;
mod url_buf;

pub use error::{ParseError, ValidationError, ValidationErrorKind};
pub use host::HostKind;
pub use origin::Origin;
pub use parser::ParseOptions;
pub use percent_encoding::{EncodedPiece, QueryEncoder};
pub use scheme::SchemeType;
pub use search_params::{SearchParams, SearchParamsIter, parse_urlencoded, serialize_urlencoded};
pub use url::Url;
pub use url_buf::UrlBuf;
