//! The extractor: one page in, its links out, resolved.
//!
//! [`Extractor::extract`] determines the encoding, decodes, runs a
//! [`scan`] pass (two when a late `<meta>` changes the encoding), then
//! resolves every pending link against the document base URL and hands it
//! to the sink: the HTTP headers' links first, then the document's in
//! source order.
//!
//! Invariants: the buffers ([`Buffers`]) are kept from page to page and
//! hold no borrow of a page, so one `Extractor` serves a thread without
//! allocating in the steady state; a page that grew them beyond what
//! ordinary pages need gives the memory back afterwards.

use std::borrow::Cow;

use spinneret_encoding::{DocumentQueryEncoder, Policy, Sniffer, decode_with};
use spinneret_url::{ParseError, QueryEncoder, Url};

use crate::header;
use crate::link::{KindCounts, Link, LinkKind, Summary};
use crate::rules::{self, Attr};
use crate::scan::{Buffers, Page, scan};

/// The HTTP response headers that matter (values as received).
#[derive(Clone, Debug, Default)]
pub struct Headers<'h> {
    /// Each `Content-Type` field value, in order.
    pub content_type: Vec<&'h [u8]>,
    /// The `Location` field value.
    pub location: Option<&'h str>,
    /// Each `Link` field value, in order.
    pub link: Vec<&'h str>,
}

/// Extracts every link of `page` (the response body) fetched from `url`,
/// calling `sink` for each; see the crate documentation. Extracting many
/// pages, [`Extractor::extract`] spares the allocations.
pub fn extract(
    page: &[u8],
    url: &Url,
    headers: &Headers<'_>,
    sink: impl FnMut(Link<'_>),
) -> Summary {
    Extractor::new().extract(page, url, headers, sink)
}

/// [`extract`] with buffers kept from page to page: the pending links and
/// their texts, the anchor texts and the current tag's attributes, which
/// otherwise grow from empty on every page (their doublings cost 2.2 % of
/// a worker's instructions). One per thread.
#[derive(Default)]
pub struct Extractor {
    /// Empty between pages; only the allocations are kept.
    pub(crate) buffers: Buffers,
}

impl std::fmt::Debug for Extractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extractor")
            .field("links_capacity", &self.buffers.links.links.capacity())
            .field("texts_capacity", &self.buffers.texts.all.capacity())
            .finish()
    }
}

impl Extractor {
    /// An extractor with empty buffers.
    pub fn new() -> Extractor {
        Extractor::default()
    }

    /// Extracts every link of `page` (the response body) fetched from
    /// `url`, calling `sink` for each; see the crate documentation.
    pub fn extract(
        &mut self,
        page: &[u8],
        url: &Url,
        headers: &Headers<'_>,
        mut sink: impl FnMut(Link<'_>),
    ) -> Summary {
        let mut sniffer = Sniffer::new(Policy::Crawler).url(url.href());
        for ct in &headers.content_type {
            sniffer = sniffer.content_type(ct);
        }
        let mut det = sniffer.determine(page);
        let initial_encoding = det;
        // The decoded text of the last pass: the pending links name ranges
        // of it, so it lives until they are delivered.
        let mut text = decode_with(page, det.encoding).0;
        let first = scan(page_of(page, &text), &mut det, true, &mut self.buffers);
        let encoding_change = first.change;
        let restarted = first.restart;
        let doc = if restarted {
            // The first decoding goes before the second is made.
            drop(std::mem::take(&mut text));
            text = decode_with(page, det.encoding).0;
            scan(page_of(page, &text), &mut det, false, &mut self.buffers)
        } else {
            first
        };
        let text: &str = &text;

        let encoder = DocumentQueryEncoder::new(det.encoding);
        let mut summary = Summary {
            encoding: det,
            initial_encoding,
            encoding_change,
            restarted,
            base: url.clone(),
            base_error: None,
            links: 0,
            by_kind: KindCounts::default(),
            failures: 0,
            failures_by_kind: KindCounts::default(),
        };
        let Buffers { links, texts, .. } = &self.buffers;
        // The frozen base URL: the first base element with an href, parsed
        // against the fallback base URL (the page URL); failure → fallback.
        if let Some(href) = doc.base_href.map(|k| links.kept(text, k)) {
            match parse_url(href, url, Some(&encoder)) {
                Ok(b) => summary.base = b,
                Err(e) => summary.base_error = Some((href.to_string(), e)),
            }
        }
        let mut deliver = |link: Link<'_>, summary: &mut Summary| {
            summary.links += 1;
            summary.by_kind.add(link.kind);
            if link.target.is_err() {
                summary.failures += 1;
                summary.failures_by_kind.add(link.kind);
            }
            sink(link);
        };
        // HTTP headers: resolved against the page URL, UTF-8 queries.
        if let Some(loc) = headers.location {
            let link = header_link("Location", LinkKind::Redirect, loc.trim_ascii(), None, url);
            deliver(link, &mut summary);
        }
        for field in &headers.link {
            for lv in header::parse_link_header(field) {
                let raw = lv.target.trim_ascii();
                let link = header_link("Link", LinkKind::Header, raw, lv.rel, url);
                deliver(link, &mut summary);
            }
        }
        let base = summary.base.clone();
        let kept = |k| links.kept(text, k);
        for p in links.links.iter() {
            let raw = links.kept(text, p.raw);
            let target = parse_url(raw, &base, Some(&encoder));
            let q = links.qualifiers(p);
            let rel = q.rel.map(kept);
            let nofollow = rel.is_some_and(has_nofollow);
            let link = Link {
                element: links.element(text, p),
                attribute: p.attribute.map_or(rules::STYLE_TEXT, Attr::name),
                svg: p.svg,
                kind: p.kind,
                raw,
                target,
                rel,
                nofollow,
                hreflang: q.hreflang.map(kept),
                as_: q.as_.map(kept),
                text: p.anchor_text().map(|i| texts.get(i)),
            };
            deliver(link, &mut summary);
        }
        self.buffers.release_outsized();
        self.buffers.links.clear_for("");
        summary
    }
}

/// The page `bytes` with `text`, their decoding (lent by the decoder when
/// it is `Cow::Borrowed`).
#[expect(clippy::ptr_arg, reason = "the Cow's variant is what is read")]
fn page_of<'a>(bytes: &'a [u8], text: &'a Cow<'_, str>) -> Page<'a> {
    Page {
        bytes,
        text,
        lent: matches!(text, Cow::Borrowed(_)),
    }
}

/// A link from an HTTP header, resolved against the page URL.
fn header_link<'a>(
    attribute: &'static str,
    kind: LinkKind,
    raw: &'a str,
    rel: Option<&'a str>,
    page: &Url,
) -> Link<'a> {
    Link {
        element: "",
        attribute,
        svg: false,
        kind,
        raw,
        target: parse_url(raw, page, None),
        rel,
        nofollow: rel.is_some_and(has_nofollow),
        hreflang: None,
        as_: None,
        text: None,
    }
}

/// `raw` parsed against `base`, its query encoded by `encoder` (UTF-8
/// without one).
fn parse_url(raw: &str, base: &Url, encoder: Option<&dyn QueryEncoder>) -> Result<Url, ParseError> {
    Url::options()
        .base_url(Some(base))
        .query_encoder(encoder)
        .parse(raw)
}

/// Whether the `rel` value has the token `nofollow` (ASCII
/// case-insensitive).
fn has_nofollow(rel: &str) -> bool {
    rel.split_ascii_whitespace()
        .any(|t| t.eq_ignore_ascii_case("nofollow"))
}
