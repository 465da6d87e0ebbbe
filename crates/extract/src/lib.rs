//! `spinneret-extract`: every outlink of one HTML document, as a browser
//! would resolve it.
//!
//! ```
//! use spinneret_extract::{Headers, LinkKind, extract};
//! use spinneret_url::Url;
//!
//! let page = Url::parse("https://example.com/dir/page.html").unwrap();
//! let html = b"<a href=next.html rel=nofollow>Next\n  page</a><base href=/b/>";
//! let mut links = Vec::new();
//! let summary = extract(html, &page, &Headers::default(), |l| {
//!     links.push((l.kind, l.target.unwrap().href().to_owned(), l.nofollow, l.text.map(str::to_owned)));
//! });
//! // The base applies to links before it too.
//! assert_eq!(
//!     links,
//!     [(LinkKind::Hyperlink, "https://example.com/b/next.html".to_owned(), true, Some("Next page".to_owned()))]
//! );
//! assert_eq!(summary.links, 1);
//! ```
//!
//! Pipeline, per page: the encoding is determined with
//! `spinneret-encoding` ([`Policy::Crawler`], the HTTP charset, the URL's TLD
//! as the detector's hint) and the bytes decoded; the text is tokenized by
//! `spinneret-html` (tree-builder simulator on, scripting off). Each start
//! tag's link attributes go through the table of [`rules`]; links are
//! buffered (their texts copied into the [`Extractor`]'s reused buffers)
//! because the document base URL — the first `<base href>`, HTML's *frozen
//! base URL* — applies to every link, also those before it. At the end every
//! link is parsed with `spinneret-url` against that base, with the query
//! encoded in the document's encoding ([`DocumentQueryEncoder`]), and handed
//! to the sink.
//!
//! *Changing the encoding while parsing*: a `<meta charset>` or
//! `<meta http-equiv=content-type>` start tag met while the confidence is
//! tentative calls [`Determination::change_the_encoding`] (in practice only a
//! `<meta>` after the 1024-byte prescan window can disagree with the
//! decision); on `SwitchInPlace` or `Reparse` the bytes are decoded again
//! with the new encoding and extraction restarts, at most once (the
//! confidence is then certain).
//!
//! Invariants: [`extract`] is total — any bytes, headers and URL give a
//! [`Summary`]; it never panics. A link whose text does not parse as a URL
//! is still reported, with its [`ParseError`]. The sink is called only
//! after the whole document was read, headers' links first, then the
//! document's in source order.
//!
//! Known limits: anchor text excludes `<script>`/`<style>`-like raw text;
//! foreign content is treated as SVG (a MathML `a` would count as SVG); a
//! void HTML element (e.g. `<link>`) directly inside an SVG integration
//! point (`foreignObject`, `desc`, `title`) cannot be told from a
//! self-closing SVG element with the tokenizer's snapshot and is taken as
//! SVG (so it is not reported). The texts kept for pending links (attribute
//! values) are limited to 4 GiB per page; links past that are not reported
//! (only a page over 4 GiB can reach it).
//!
//! Code map (private modules in `src/`):
//! - `link.rs` — what is reported: [`Link`], [`LinkKind`], [`KindCounts`],
//!   [`Summary`].
//! - `extractor.rs` — [`extract`] and the [`Extractor`]: encoding, passes,
//!   resolution against the base, delivery to the sink.
//! - `scan.rs` — one pass over the decoded text: a token sink with
//!   `start_tag`/`end_tag`/`text`, and the reused buffers.
//! - `pending.rs` — links waiting for the base URL, free of any borrow of
//!   the page.
//! - `anchor_text.rs` — the text of each `<a href>`.
//! - [`rules`] — which attributes of which elements are links; the
//!   micro-syntaxes [`srcset`], [`refresh`], [`css`] and HTTP [`header`]s;
//!   [`meta`], which `<meta>` elements name a URL.
//!
//! [`Policy::Crawler`]: spinneret_encoding::Policy::Crawler
//! [`DocumentQueryEncoder`]: spinneret_encoding::DocumentQueryEncoder
//! [`Determination::change_the_encoding`]: spinneret_encoding::Determination::change_the_encoding

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod anchor_text;
mod chunked;
pub mod css;
mod extractor;
pub mod header;
mod link;
pub mod meta;
mod pending;
pub mod refresh;
pub mod rules;
mod scan;
pub mod srcset;
#[cfg(test)]
mod tests;

pub use anchor_text::ANCHOR_TEXT_MAX;
pub use extractor::{Extractor, Headers, extract};
pub use link::{KindCounts, Link, LinkKind, Summary};
pub use spinneret_url::ParseError;
