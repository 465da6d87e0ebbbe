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
//! buffered (raw text, borrowed from the decoded text wherever possible)
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
//! SVG (so it is not reported).

pub mod css;
pub mod header;
pub mod refresh;
pub mod rules;
pub mod srcset;

use std::borrow::Cow;

use spinneret_encoding::{
    Change, Confidence, Determination, DocumentQueryEncoder, Encoding, Policy, Sniffer,
    decode_with, meta_element_encoding,
};
use spinneret_html::{LocalName, Name, Token, Tokenizer, TokenizerOptions};
pub use spinneret_url::ParseError;
use spinneret_url::{QueryEncoder, Url};

/// What a link is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LinkKind {
    /// `a`/`area` `href`, SVG `a` `href`/`xlink:href`.
    Hyperlink,
    /// `link` `href`.
    Link,
    /// `img` `src`/`srcset`, `source` `srcset`, `video` `poster`,
    /// `input type=image` `src`, SVG `image`.
    Image,
    /// `audio`/`video`/`source`/`track` `src`.
    Media,
    /// `iframe`/`frame` `src`.
    Frame,
    /// `embed` `src`, `object` `data`, SVG `use`.
    Embed,
    /// `script` `src`.
    Script,
    /// `form` `action`, `button`/`input` `formaction`.
    Form,
    /// `blockquote`/`q`/`del`/`ins` `cite`.
    Citation,
    /// `a`/`area` `ping` (one link per URL of the list).
    Ping,
    /// `meta http-equiv=refresh` `content`.
    Refresh,
    /// `url(…)`/`@import` in `<style>` text or a `style` attribute.
    Style,
    /// The HTTP `Location` header.
    Redirect,
    /// An HTTP `Link` header's target.
    Header,
}

impl LinkKind {
    /// Every kind, in declaration order (the index of [`KindCounts`]).
    pub const ALL: [LinkKind; 14] = [
        LinkKind::Hyperlink,
        LinkKind::Link,
        LinkKind::Image,
        LinkKind::Media,
        LinkKind::Frame,
        LinkKind::Embed,
        LinkKind::Script,
        LinkKind::Form,
        LinkKind::Citation,
        LinkKind::Ping,
        LinkKind::Refresh,
        LinkKind::Style,
        LinkKind::Redirect,
        LinkKind::Header,
    ];

    /// A short lower-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Hyperlink => "hyperlink",
            LinkKind::Link => "link",
            LinkKind::Image => "image",
            LinkKind::Media => "media",
            LinkKind::Frame => "frame",
            LinkKind::Embed => "embed",
            LinkKind::Script => "script",
            LinkKind::Form => "form",
            LinkKind::Citation => "citation",
            LinkKind::Ping => "ping",
            LinkKind::Refresh => "refresh",
            LinkKind::Style => "style",
            LinkKind::Redirect => "redirect",
            LinkKind::Header => "header",
        }
    }
}

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

/// One link.
#[derive(Clone, Debug)]
pub struct Link<'a> {
    /// The element's name (lower case); empty for HTTP headers.
    pub element: Cow<'a, str>,
    /// The attribute (`href`, `xlink:href`, `srcset`, `style`, …), `#text`
    /// for a `<style>` element's text, or the header name (`Location`,
    /// `Link`).
    pub attribute: &'static str,
    /// Whether the element is in the SVG namespace.
    pub svg: bool,
    /// What the link is for.
    pub kind: LinkKind,
    /// The URL text as found (character references and CSS escapes
    /// resolved; stripped of leading and trailing ASCII whitespace).
    pub raw: Cow<'a, str>,
    /// The URL resolved against the document base (headers: the page URL).
    pub target: Result<Url, ParseError>,
    /// `rel` of `a`/`area`/`link` (and of a `Link` header).
    pub rel: Option<Cow<'a, str>>,
    /// Whether `rel` contains the token `nofollow` (ASCII case-insensitive).
    pub nofollow: bool,
    /// `hreflang` of `a`/`area`/`link`.
    pub hreflang: Option<Cow<'a, str>>,
    /// `as` of `link`.
    pub as_: Option<Cow<'a, str>>,
    /// For `a` `href`: the text between `<a>` and `</a>`, ASCII whitespace
    /// collapsed to single spaces and trimmed, at most
    /// [`ANCHOR_TEXT_MAX`] characters.
    pub text: Option<&'a str>,
}

/// The cap on [`Link::text`], in characters.
pub const ANCHOR_TEXT_MAX: usize = 256;

/// Link counts by [`LinkKind`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCounts(pub [usize; 14]);

impl KindCounts {
    /// The count of one kind.
    pub fn get(&self, kind: LinkKind) -> usize {
        self.0[kind as usize]
    }
}

/// What [`extract`] found besides the links.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The encoding decision the links were extracted with.
    pub encoding: Determination,
    /// The decision before any `<meta>` met by the tokenizer.
    pub initial_encoding: Determination,
    /// What *change the encoding* said, if a `<meta>` triggered it.
    pub encoding_change: Option<Change>,
    /// Whether the document was decoded and tokenized a second time.
    pub restarted: bool,
    /// The document base URL.
    pub base: Url,
    /// The first `<base href>` value, when it did not parse (the base is
    /// then the page URL).
    pub base_error: Option<(String, ParseError)>,
    /// How many links were handed to the sink.
    pub links: usize,
    /// Links by kind.
    pub by_kind: KindCounts,
    /// Links whose URL did not parse.
    pub failures: usize,
    /// Failures by kind.
    pub failures_by_kind: KindCounts,
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
/// the anchor texts, which otherwise grow from empty on every page (their
/// doublings cost 2.2 % of a worker's instructions). One per thread.
#[derive(Default)]
pub struct Extractor {
    /// Empty between pages; only the allocation is kept.
    links: Vec<Pending<'static>>,
    attrs: Vec<(&'static str, Cow<'static, str>)>,
    texts: AnchorTexts,
}

impl std::fmt::Debug for Extractor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extractor")
            .field("links_capacity", &self.links.capacity())
            .field("texts_capacity", &self.texts.all.capacity())
            .finish()
    }
}

/// `v`, emptied, as a vector of another element type, keeping its
/// allocation when the two types have the same size and alignment (an
/// in-place `collect`; here they differ only in lifetimes).
fn recycle<T, U>(mut v: Vec<T>) -> Vec<U> {
    v.clear();
    v.into_iter().filter_map(|_| None).collect()
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
        let text0 = decode_with(page, det.encoding).0;
        let mut buffers = Buffers {
            links: recycle(std::mem::take(&mut self.links)),
            attrs: recycle(std::mem::take(&mut self.attrs)),
            texts: &mut self.texts,
        };
        let first = scan(&text0, page, &mut det, true, buffers);
        let encoding_change = first.change;
        let text1;
        let restarted = first.restart;
        let doc = if restarted {
            text1 = decode_with(page, det.encoding).0;
            buffers = Buffers {
                links: recycle(first.links),
                attrs: recycle(first.attrs),
                texts: first.texts,
            };
            scan(&text1, page, &mut det, false, buffers)
        } else {
            first
        };

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
        // The frozen base URL: the first base element with an href, parsed
        // against the fallback base URL (the page URL); failure → fallback.
        if let Some(href) = &doc.base_href {
            match parse_url(href, url, Some(&encoder)) {
                Ok(b) => summary.base = b,
                Err(e) => summary.base_error = Some((href.to_string(), e)),
            }
        }
        let mut deliver = |link: Link<'_>, summary: &mut Summary| {
            summary.links += 1;
            summary.by_kind.0[link.kind as usize] += 1;
            if link.target.is_err() {
                summary.failures += 1;
                summary.failures_by_kind.0[link.kind as usize] += 1;
            }
            sink(link);
        };
        // HTTP headers: resolved against the page URL, UTF-8 queries.
        if let Some(loc) = headers.location {
            let raw = rules::strip(loc);
            let link = header_link("Location", LinkKind::Redirect, raw, None, url);
            deliver(link, &mut summary);
        }
        for field in &headers.link {
            for lv in header::parse_link_header(field) {
                let raw = rules::strip(lv.target);
                let link = header_link("Link", LinkKind::Header, raw, lv.rel, url);
                deliver(link, &mut summary);
            }
        }
        let base = summary.base.clone();
        let Scan {
            mut links,
            attrs,
            texts,
            ..
        } = doc;
        for p in links.drain(..) {
            let target = parse_url(&p.raw, &base, Some(&encoder));
            let text = p.text.map(|i| texts.get(i));
            let nofollow = p.rel.as_deref().is_some_and(has_nofollow);
            let link = Link {
                element: p.element,
                attribute: p.attribute,
                svg: p.svg,
                kind: p.kind,
                raw: p.raw,
                target,
                rel: p.rel,
                nofollow,
                hreflang: p.hreflang,
                as_: p.as_,
                text,
            };
            deliver(link, &mut summary);
        }
        self.links = recycle(links);
        self.attrs = recycle(attrs);
        self.release_outsized();
        summary
    }

    /// Frees buffers a huge page grew beyond what ordinary pages need, so
    /// that one such page does not hold its memory for the thread's life.
    fn release_outsized(&mut self) {
        if self.links.capacity() > KEEP_LINKS {
            self.links = Vec::new();
        }
        if self.texts.all.capacity() > KEEP_TEXT_BYTES {
            self.texts.all = String::new();
        }
        if self.texts.starts.capacity() > KEEP_LINKS {
            self.texts.starts = Vec::new();
        }
    }
}

/// The most pending links an [`Extractor`] keeps room for between pages
/// (about 1.3 MB; the corpus's pages have at most a few thousand links).
const KEEP_LINKS: usize = 8192;
/// The most anchor-text bytes an [`Extractor`] keeps room for between
/// pages.
const KEEP_TEXT_BYTES: usize = 1 << 20;

fn header_link<'a>(
    attribute: &'static str,
    kind: LinkKind,
    raw: &'a str,
    rel: Option<&'a str>,
    page: &Url,
) -> Link<'a> {
    Link {
        element: Cow::Borrowed(""),
        attribute,
        svg: false,
        kind,
        raw: Cow::Borrowed(raw),
        target: parse_url(raw, page, None),
        rel: rel.map(Cow::Borrowed),
        nofollow: rel.is_some_and(has_nofollow),
        hreflang: None,
        as_: None,
        text: None,
    }
}

fn parse_url(raw: &str, base: &Url, encoder: Option<&dyn QueryEncoder>) -> Result<Url, ParseError> {
    Url::options()
        .base_url(Some(base))
        .query_encoder(encoder)
        .parse(raw)
}

fn has_nofollow(rel: &str) -> bool {
    rel.split(['\t', '\n', '\x0C', '\r', ' '])
        .any(|t| t.eq_ignore_ascii_case("nofollow"))
}

/// A link found in the document, before resolution.
struct Pending<'t> {
    element: Cow<'t, str>,
    attribute: &'static str,
    svg: bool,
    kind: LinkKind,
    raw: Cow<'t, str>,
    rel: Option<Cow<'t, str>>,
    hreflang: Option<Cow<'t, str>>,
    as_: Option<Cow<'t, str>>,
    /// Which of the page's [`AnchorTexts`].
    text: Option<usize>,
}

/// The anchor texts of a page, one after another in one string. Text is
/// only ever appended to the last one (an `<a>` closes the one before), so
/// each is a range of `all`: it starts where [`AnchorTexts::begin`] left
/// `all` and ends where the next starts.
#[derive(Default)]
struct AnchorTexts {
    all: String,
    /// Where each text starts in `all`.
    starts: Vec<usize>,
    /// The last text's length in characters.
    chars: usize,
    /// Whether the last text has had whitespace after its last word.
    space: bool,
}

impl AnchorTexts {
    fn clear(&mut self) {
        self.all.clear();
        self.starts.clear();
    }

    /// Starts a new (empty) text; returns its index.
    fn begin(&mut self) -> usize {
        self.starts.push(self.all.len());
        self.chars = 0;
        self.space = false;
        self.starts.len() - 1
    }

    /// Text `i`.
    fn get(&self, i: usize) -> &str {
        let start = self.starts.get(i).copied().unwrap_or(self.all.len());
        let end = self.starts.get(i + 1).copied().unwrap_or(self.all.len());
        self.all.get(start..end).unwrap_or_default()
    }

    /// Appends a text token to the last text: runs of ASCII whitespace
    /// become one space between words (none before the first), and the text
    /// stops at [`ANCHOR_TEXT_MAX`] characters. Words are appended whole:
    /// character by character, anchor texts cost 1.4 % more of the
    /// pipeline's instructions.
    fn push(&mut self, t: &str) {
        let Some(&start) = self.starts.last() else {
            return;
        };
        // `u8::is_ascii_whitespace` is exactly the HTML standard's ASCII
        // whitespace (tab, LF, FF, CR, space).
        let mut rest = t;
        while self.chars < ANCHOR_TEXT_MAX {
            let spaces = rest.bytes().take_while(u8::is_ascii_whitespace).count();
            if spaces > 0 {
                self.space = self.all.len() > start;
                rest = &rest[spaces..];
            }
            if rest.is_empty() {
                return;
            }
            if self.space {
                self.all.push(' ');
                self.chars += 1;
                self.space = false;
                if self.chars >= ANCHOR_TEXT_MAX {
                    return;
                }
            }
            // The word: up to the next space (ASCII, so a char boundary).
            let word_len = rest
                .bytes()
                .position(|b| b.is_ascii_whitespace())
                .unwrap_or(rest.len());
            let word = &rest[..word_len];
            let room = ANCHOR_TEXT_MAX - self.chars;
            let (taken, chars) = if word.is_ascii() {
                let n = word_len.min(room);
                (&word[..n], n)
            } else {
                match word.char_indices().nth(room) {
                    Some((cut, _)) => (&word[..cut], room),
                    None => (word, word.chars().count()),
                }
            };
            self.all.push_str(taken);
            self.chars += chars;
            rest = &rest[word_len..];
        }
    }
}

/// The buffers one pass fills (emptied, allocations kept from earlier
/// pages).
struct Buffers<'t, 'x> {
    links: Vec<Pending<'t>>,
    attrs: Vec<(&'static str, Cow<'t, str>)>,
    texts: &'x mut AnchorTexts,
}

/// One pass over the decoded text.
struct Scan<'t, 'x> {
    links: Vec<Pending<'t>>,
    /// The wanted attributes of the current start tag (kept for the
    /// allocation's reuse afterwards).
    attrs: Vec<(&'static str, Cow<'t, str>)>,
    texts: &'x mut AnchorTexts,
    base_href: Option<Cow<'t, str>>,
    change: Option<Change>,
    /// The encoding changed: decode again and rescan.
    restart: bool,
}

/// Which raw-text element's text the next text token is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RawText {
    Style,
    /// `script`, `xmp`, `iframe`, `noembed`, `noframes`: not anchor text.
    Hidden,
}

/// `value` as a `Cow` of `text`: borrowed when it is a span of `text`
/// (the tokenizer lends spans of its input unless the value needed a
/// change), else copied.
fn keep<'t>(text: &'t str, value: &str) -> Cow<'t, str> {
    let base = text.as_ptr() as usize;
    let p = value.as_ptr() as usize;
    if p >= base && p + value.len() <= base + text.len() {
        let off = p - base;
        if let Some(s) = text.get(off..off + value.len()) {
            return Cow::Borrowed(s);
        }
    }
    Cow::Owned(value.to_owned())
}

/// The attribute names any rule reads, as `'static` text, and whether a
/// link can be in the attribute's value (the others — `type`, `rel`,
/// `hreflang`, `as`, `http-equiv`, `charset` — only qualify links). Every
/// one is an interned name (the tokenizer interns every name in its table),
/// so the test is an integer match.
fn wanted_attribute(name: LocalName) -> Option<(&'static str, bool)> {
    use LocalName as L;
    match name {
        L::Href
        | L::XlinkHref
        | L::Src
        | L::Srcset
        | L::Poster
        | L::Action
        | L::Formaction
        | L::Data
        | L::Cite
        | L::Ping
        | L::Content
        | L::Style => Some((name.as_str(), true)),
        L::Type | L::Rel | L::Hreflang | L::As | L::HttpEquiv | L::Charset => {
            Some((name.as_str(), false))
        }
        _ => None,
    }
}

/// Start tags that leave foreign content (the ones this crate cares about).
fn breaks_out(name: Option<LocalName>) -> bool {
    use LocalName as L;
    matches!(
        name,
        Some(L::Img | L::Embed | L::Blockquote | L::Meta | L::Body | L::Head)
    )
}

/// The bytes of `page` that decode to `text[..offset]`.
fn consumed<'p>(
    page: &'p [u8],
    text: &str,
    encoding: &'static Encoding,
    offset: usize,
) -> &'p [u8] {
    if std::ptr::eq(text.as_ptr(), page.as_ptr()) {
        return &page[..offset.min(page.len())];
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0u8; offset];
    let (_, read, _, _) = decoder.decode_to_utf8(page, &mut out, false);
    &page[..read]
}

/// The `url()`s of a `<style>` element's text, as pending links.
fn push_style_links<'t>(links: &mut Vec<Pending<'t>>, style_text: &str) {
    rules::style_text_links(style_text, |attribute, kind, v| {
        links.push(Pending {
            element: Cow::Borrowed("style"),
            attribute,
            svg: false,
            kind,
            raw: Cow::Owned(v.into_owned()),
            rel: None,
            hreflang: None,
            as_: None,
            text: None,
        });
    });
}

fn scan<'t, 'x>(
    text: &'t str,
    page: &[u8],
    det: &mut Determination,
    may_change: bool,
    buffers: Buffers<'t, 'x>,
) -> Scan<'t, 'x> {
    let Buffers {
        links,
        attrs,
        texts,
    } = buffers;
    texts.clear();
    let mut out = Scan {
        links,
        attrs,
        texts,
        base_href: None,
        change: None,
        restart: false,
    };
    use LocalName as L;
    let mut tok = Tokenizer::new(text, TokenizerOptions::default());
    // Whether the start tag has an attribute that can hold a link.
    let mut link_attribute = false;
    let mut raw: Option<RawText> = None;
    let mut style_text: Option<String> = None;
    let mut in_anchor = false;
    // Whether an <svg>/<math> was seen (only then is the simulator's stack
    // consulted), and whether the adjusted current node is foreign.
    let mut maybe_foreign = false;
    let mut foreign = false;
    loop {
        let name = match tok.next_token() {
            None => break,
            Some(Token::Text(t)) => {
                match raw {
                    Some(RawText::Style) => style_text.get_or_insert_with(String::new).push_str(t),
                    Some(RawText::Hidden) => {}
                    None => {
                        if in_anchor {
                            out.texts.push(t);
                        }
                    }
                }
                continue;
            }
            Some(Token::Comment(_) | Token::Doctype(_)) => continue,
            Some(Token::EndTag(tag)) => {
                if tag.name.local() == Some(L::A) {
                    in_anchor = false;
                }
                None
            }
            Some(Token::StartTag(tag)) => {
                out.attrs.clear();
                link_attribute = false;
                for ((n, carries_link), v) in tag.attrs.select(wanted_attribute) {
                    link_attribute |= carries_link;
                    out.attrs.push((n, keep(text, v)));
                }
                // The name outlives the token (an upper-case name's
                // lower-cased copy is the tokenizer's).
                Some(match tag.name {
                    Name::Known(n) => (Some(n), Cow::Borrowed(n.as_str())),
                    Name::Other(s) => (None, keep(text, s)),
                })
            }
        };
        // The state after this tag.
        let before = foreign;
        if let Some((local, _)) = name
            && matches!(local, Some(L::Svg | L::Math))
        {
            maybe_foreign = true;
        }
        if maybe_foreign {
            foreign = tok.in_foreign_content();
        }
        if let Some(st) = style_text.take() {
            // The style element's text ended (end tag, or the next tag).
            push_style_links(&mut out.links, &st);
        }
        raw = None;
        let Some((local, name)) = name else { continue };
        // The element's namespace: SVG when the tree builder used the rules
        // for foreign content and kept it there.
        let svg = before && foreign && !breaks_out(local);
        let attrs = &out.attrs;
        let get = |n: &str| attrs.iter().find(|(k, _)| *k == n).map(|(_, v)| v.as_ref());
        if !svg {
            match local {
                Some(L::Style) => {
                    raw = Some(RawText::Style);
                    style_text = Some(String::new());
                }
                Some(L::Script | L::Xmp | L::Iframe | L::Noembed | L::Noframes) => {
                    raw = Some(RawText::Hidden);
                }
                Some(L::A) => in_anchor = false,
                Some(L::Base) => {
                    if out.base_href.is_none()
                        && let Some(h) = get("href")
                    {
                        out.base_href = Some(keep(text, h));
                    }
                }
                Some(L::Meta) if may_change && det.confidence == Confidence::Tentative => {
                    let enc = meta_element_encoding(
                        get("charset").map(str::as_bytes),
                        get("http-equiv").map(str::as_bytes),
                        get("content").map(str::as_bytes),
                    );
                    if let Some(enc) = enc {
                        let bytes = consumed(page, text, det.encoding, tok.offset());
                        let change = det.change_the_encoding(enc, bytes);
                        out.change = Some(change);
                        if matches!(change, Change::SwitchInPlace(_) | Change::Reparse(_)) {
                            out.restart = true;
                            return out;
                        }
                    }
                }
                _ => {}
            }
        }
        if !link_attribute {
            // Every rule reads at least one attribute that can hold a link.
            continue;
        }
        let is_anchor = !svg && local == Some(L::A);
        let is_linkish = !svg && matches!(local, Some(L::A | L::Area | L::Link));
        let texts = &mut *out.texts;
        let links = &mut out.links;
        rules::element_links(&name, svg, get, |attribute, kind, v| {
            let main = is_linkish && attribute == "href";
            let text_slot = if is_anchor && main {
                let i = texts.begin();
                in_anchor = true;
                Some(i)
            } else {
                None
            };
            let own = |v: Option<&str>| v.map(|v| keep(text, v));
            links.push(Pending {
                element: name.clone(),
                attribute,
                svg,
                kind,
                raw: match v {
                    Cow::Borrowed(b) => keep(text, b),
                    Cow::Owned(o) => Cow::Owned(o),
                },
                rel: if main { own(get("rel")) } else { None },
                hreflang: if main { own(get("hreflang")) } else { None },
                as_: if main && local == Some(L::Link) {
                    own(get("as"))
                } else {
                    None
                },
                text: text_slot,
            });
        });
    }
    if let Some(st) = style_text.take() {
        push_style_links(&mut out.links, &st);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The anchor-text rule character by character, as written: the model
    /// `AnchorText::push` must equal for any split of the text into tokens.
    fn anchor_text_model(tokens: &[&str]) -> String {
        let (mut s, mut chars, mut space) = (String::new(), 0, false);
        for t in tokens {
            for c in t.chars() {
                if chars >= ANCHOR_TEXT_MAX {
                    break;
                }
                if matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ') {
                    space = !s.is_empty();
                    continue;
                }
                if space {
                    s.push(' ');
                    chars += 1;
                    space = false;
                    if chars >= ANCHOR_TEXT_MAX {
                        break;
                    }
                }
                s.push(c);
                chars += 1;
            }
        }
        s
    }

    #[test]
    fn anchor_text_collapses_spaces_and_caps_characters() {
        let long_ascii = "word ".repeat(100);
        let long_wide = "é€😀 ".repeat(100);
        let one_long_word = "x".repeat(300);
        let wide_word = "ж".repeat(300);
        let cases: Vec<Vec<&str>> = vec![
            vec![""],
            vec!["  \t\n "],
            vec!["  Hello,\r\n  world  "],
            vec!["Hel", "lo", " ", " wor", "ld"],
            vec!["a", " ", "b", "\x0C", "c "],
            vec![" é\u{A0}ü ", "\u{3000}x"],
            vec![&long_ascii],
            vec![&long_wide],
            vec![&one_long_word],
            vec![&wide_word, "more"],
            vec![&one_long_word[..255], " ", "yz"],
            vec![&one_long_word[..255], "yz"],
            vec![&one_long_word[..254], " y", "z"],
        ];
        // Each case alone, then all of them as the texts of one page.
        let mut page = AnchorTexts::default();
        for tokens in &cases {
            let mut got = AnchorTexts::default();
            assert_eq!(got.begin(), 0);
            page.begin();
            for t in tokens {
                got.push(t);
                page.push(t);
            }
            let want = anchor_text_model(tokens);
            assert_eq!(got.get(0), want, "{tokens:?}");
            assert_eq!(got.chars, want.chars().count(), "{tokens:?}");
            assert!(got.chars <= ANCHOR_TEXT_MAX);
        }
        for (i, tokens) in cases.iter().enumerate() {
            assert_eq!(page.get(i), anchor_text_model(tokens), "{tokens:?}");
        }
        assert_eq!(page.get(cases.len()), "");
        page.clear();
        page.push("no text begun");
        assert_eq!((page.all.as_str(), page.get(0)), ("", ""));
    }

    #[test]
    fn extractor_reuses_its_buffers_and_gives_what_extract_gives() {
        let page = Url::parse("https://example.com/").unwrap();
        let html = "<a href=a1>one</a> <img src=i srcset='x 1x, y 2x'> <a href=a2>two".repeat(50);
        let collect = |x: &mut Extractor, html: &[u8]| {
            let mut v = Vec::new();
            x.extract(html, &page, &Headers::default(), |l| {
                v.push(format!("{} {} {:?}", l.attribute, l.raw, l.text));
            });
            v
        };
        let once = {
            let mut v = Vec::new();
            extract(html.as_bytes(), &page, &Headers::default(), |l| {
                v.push(format!("{} {} {:?}", l.attribute, l.raw, l.text));
            });
            v
        };
        let mut x = Extractor::new();
        assert_eq!(collect(&mut x, html.as_bytes()), once);
        let (links, texts) = (x.links.capacity(), x.texts.all.capacity());
        assert!(links >= 250 && texts >= 300, "{x:?}");
        // A second page: the same links, no new allocation.
        assert_eq!(collect(&mut x, html.as_bytes()), once);
        assert_eq!((x.links.capacity(), x.texts.all.capacity()), (links, texts));
        // A page whose late <meta> restarts the scan, then a small one.
        let mut late = " ".repeat(2000).into_bytes();
        late.extend_from_slice(b"<meta charset=windows-1251><a href=?q=\xef>\xef</a>");
        assert_eq!(collect(&mut x, &late), ["href ?q=п Some(\"п\")"]);
        assert_eq!(collect(&mut x, b"<a href=z>z</a>"), ["href z Some(\"z\")"]);
        assert_eq!(x.links.capacity(), links);
        // A page with more links than are kept room for: its buffers go.
        let huge = "<a href=x>y</a>".repeat(KEEP_LINKS + 1);
        assert_eq!(collect(&mut x, huge.as_bytes()).len(), KEEP_LINKS + 1);
        assert_eq!(x.links.capacity(), 0);
        assert_eq!(x.texts.starts.capacity(), 0);
    }

    struct Got {
        element: String,
        attribute: &'static str,
        kind: LinkKind,
        raw: String,
        href: Result<String, ParseError>,
        text: Option<String>,
        svg: bool,
    }

    fn run(html: &[u8], page: &str, headers: &Headers<'_>) -> (Vec<Got>, Summary) {
        let page = Url::parse(page).expect("page URL");
        let mut out = Vec::new();
        let s = extract(html, &page, headers, |l| {
            out.push(Got {
                element: l.element.into_owned(),
                attribute: l.attribute,
                kind: l.kind,
                raw: l.raw.into_owned(),
                href: l.target.map(|u| u.href().to_owned()),
                text: l.text.map(str::to_owned),
                svg: l.svg,
            })
        });
        (out, s)
    }

    fn hrefs(got: &[Got]) -> Vec<String> {
        got.iter()
            .map(|g| g.href.clone().unwrap_or_else(|e| format!("ERR {e:?}")))
            .collect()
    }

    #[test]
    fn every_attribute_a_rule_reads_is_interned_and_wanted() {
        let read_by_rules = rules::LINK_ATTRIBUTES.iter().chain(&[
            "style",
            "type",
            "rel",
            "hreflang",
            "as",
            "http-equiv",
            "charset",
        ]);
        for name in read_by_rules {
            let known = LocalName::from_lowercase(name.as_bytes())
                .unwrap_or_else(|| panic!("{name} is not interned"));
            let carries_link = rules::LINK_ATTRIBUTES.contains(name) || *name == "style";
            assert_eq!(wanted_attribute(known), Some((*name, carries_link)));
        }
        assert_eq!(wanted_attribute(LocalName::Class), None);
    }

    #[test]
    fn base_applies_before_and_after() {
        let (got, s) = run(
            b"<a href=a1>x</a><base href='/dir/'><base href='/other/'><a href=' a2 '>y</a>",
            "https://e.com/p/q.html",
            &Headers::default(),
        );
        assert_eq!(
            hrefs(&got),
            ["https://e.com/dir/a1", "https://e.com/dir/a2"]
        );
        assert_eq!(got[1].raw, "a2");
        assert_eq!(s.base.href(), "https://e.com/dir/");
        // A base that does not parse: the page URL is the base.
        let (got, s) = run(
            b"<base href='http://[bad'><a href=x>",
            "https://e.com/p/q.html",
            &Headers::default(),
        );
        assert_eq!(hrefs(&got), ["https://e.com/p/x"]);
        assert!(s.base_error.is_some());
        // A base without href does not count.
        let (got, _) = run(
            b"<base target=_top><base href=/b/><a href=x>",
            "https://e.com/",
            &Headers::default(),
        );
        assert_eq!(hrefs(&got), ["https://e.com/b/x"]);
    }

    #[test]
    fn anchor_text_collapsed_and_capped() {
        let (got, _) = run(
            b"<a href=1>  Hello \n\t <b>bold</b>&amp;  more <script>no()</script> end </a> after <a href=2>",
            "https://e.com/",
            &Headers::default(),
        );
        assert_eq!(got[0].text.as_deref(), Some("Hello bold& more end"));
        assert_eq!(got[1].text.as_deref(), Some(""));
        let long = format!("<a href=x>{}</a>", "ab ".repeat(200));
        let (got, _) = run(long.as_bytes(), "https://e.com/", &Headers::default());
        let t = got[0].text.as_deref().unwrap();
        assert_eq!(t.chars().count(), ANCHOR_TEXT_MAX);
        assert!(t.starts_with("ab ab"));
        // A new <a> closes the previous one's text.
        let (got, _) = run(
            b"<a href=1>one<a href=2>two</a>",
            "https://e.com/",
            &Headers::default(),
        );
        assert_eq!(got[0].text.as_deref(), Some("one"));
        assert_eq!(got[1].text.as_deref(), Some("two"));
    }

    #[test]
    fn late_meta_charset_re_decodes() {
        // ASCII for > 1024 bytes, then a <meta> for windows-1251 and Cyrillic
        // bytes in a link's query: the tentative default (windows-1252 for
        // .com) gives way, the page is decoded again.
        let mut html = b"<html><head><title>t</title>".to_vec();
        html.extend(std::iter::repeat_n(b' ', 1100));
        html.extend_from_slice(
            b"<meta charset=windows-1251></head><a href='/s?q=\xcf\xf0'>\xcf\xf0</a>",
        );
        let (got, s) = run(&html, "https://e.com/", &Headers::default());
        assert!(s.restarted);
        // The bytes before the <meta> are ASCII: the same in both encodings.
        assert!(matches!(s.encoding_change, Some(Change::SwitchInPlace(_))));
        assert_eq!(s.encoding.encoding.name(), "windows-1251");
        assert_eq!(got[0].raw, "/s?q=Пр");
        assert_eq!(got[0].text.as_deref(), Some("Пр"));
        assert_eq!(hrefs(&got), ["https://e.com/s?q=%CF%F0"]);
        // Non-ASCII before the <meta>: Reparse.
        let mut html2 = b"<html><head><title>\xc0\xe1\xe2</title>".to_vec();
        html2.extend(std::iter::repeat_n(b' ', 1100));
        html2
            .extend_from_slice(b"<meta charset=koi8-r></head><a href='/s?q=\xcf\xf0'>\xcf\xf0</a>");
        let (got2, s2) = run(&html2, "https://e.com/", &Headers::default());
        assert!(s2.restarted, "{:?}", s2.initial_encoding);
        assert!(matches!(s2.encoding_change, Some(Change::Reparse(_))));
        assert_eq!(hrefs(&got2), ["https://e.com/s?q=%CF%F0"]);
        // The same <meta> with an HTTP charset: certain, never restarted.
        let h = Headers {
            content_type: vec![b"text/html; charset=utf-8"],
            ..Headers::default()
        };
        let (_, s) = run(&html, "https://e.com/", &h);
        assert!(!s.restarted && s.encoding_change.is_none());
        // An ASCII-only page whose late <meta> agrees on ASCII: switch in place.
        let mut ascii = b"<p>".to_vec();
        ascii.extend(std::iter::repeat_n(b' ', 1100));
        ascii.extend_from_slice(
            b"<meta http-equiv=Content-Type content='text/html; charset=iso-8859-2'><a href=x>",
        );
        let (_, s) = run(&ascii, "https://e.com/", &Headers::default());
        assert!(matches!(s.encoding_change, Some(Change::SwitchInPlace(_))));
        assert!(s.restarted);
    }

    #[test]
    fn windows_1251_query_encoding() {
        let html =
            b"<meta charset=windows-1251><a href='?q=\xcf\xf0\xe8\xe2\xe5\xf2&x=\xe2\x82\xac'>";
        let (got, s) = run(html, "https://e.ru/search", &Headers::default());
        assert_eq!(s.encoding.encoding.name(), "windows-1251");
        // Привет in windows-1251; "в‚¬" is mappable too; the path stays UTF-8.
        assert_eq!(
            hrefs(&got),
            ["https://e.ru/search?q=%CF%F0%E8%E2%E5%F2&x=%E2%82%AC"]
        );
        // A character windows-1251 lacks becomes &#NNN; percent-encoded.
        let html = b"<meta charset=windows-1251><a href='/\xcf?q=&#x4E2D;'>";
        let (got, _) = run(html, "https://e.ru/", &Headers::default());
        assert_eq!(hrefs(&got), ["https://e.ru/%D0%9F?q=%26%2320013%3B"]);
    }

    #[test]
    fn svg_links() {
        let (got, _) = run(
            b"<svg><a href=/s1 xlink:href=/s2><image href=/i1></image><use xlink:href='#icon'/></a>\
              <foreignObject><a href=/html>h</a></foreignObject></svg><a href=/after>",
            "https://e.com/",
            &Headers::default(),
        );
        let v: Vec<_> = got
            .iter()
            .map(|g| {
                (
                    g.element.as_str(),
                    g.attribute,
                    g.svg,
                    g.kind,
                    g.href.clone().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            v,
            [
                (
                    "a",
                    "href",
                    true,
                    LinkKind::Hyperlink,
                    "https://e.com/s1".to_owned()
                ),
                (
                    "a",
                    "xlink:href",
                    true,
                    LinkKind::Hyperlink,
                    "https://e.com/s2".to_owned()
                ),
                (
                    "image",
                    "href",
                    true,
                    LinkKind::Image,
                    "https://e.com/i1".to_owned()
                ),
                (
                    "use",
                    "xlink:href",
                    true,
                    LinkKind::Embed,
                    "https://e.com/#icon".to_owned()
                ),
                (
                    "a",
                    "href",
                    false,
                    LinkKind::Hyperlink,
                    "https://e.com/html".to_owned()
                ),
                (
                    "a",
                    "href",
                    false,
                    LinkKind::Hyperlink,
                    "https://e.com/after".to_owned()
                ),
            ]
        );
        // An <img> breaks out of SVG: an HTML image.
        let (got, _) = run(b"<svg><img src=/x>", "https://e.com/", &Headers::default());
        assert!(!got[0].svg && got[0].kind == LinkKind::Image);
        // An HTML-only element name inside SVG is an SVG element: no link.
        let (got, _) = run(
            b"<svg><iframe src=/x></iframe></svg>",
            "https://e.com/",
            &Headers::default(),
        );
        assert!(got.is_empty());
    }

    #[test]
    fn headers_and_failures() {
        let h = Headers {
            location: Some(" /moved "),
            link: vec!["</s.css>; rel=preload, <https://x:99999/>; rel=nofollow"],
            ..Headers::default()
        };
        let (got, s) = run(
            b"<base href=/base/><a href='http://[::1'>",
            "https://e.com/a/b",
            &h,
        );
        assert_eq!(got[0].kind, LinkKind::Redirect);
        assert_eq!(got[0].href.as_deref(), Ok("https://e.com/moved"));
        assert_eq!(got[1].kind, LinkKind::Header);
        assert_eq!(got[1].href.as_deref(), Ok("https://e.com/s.css"));
        assert_eq!(got[2].href, Err(ParseError::PortOutOfRange));
        assert!(got[3].href.is_err());
        assert_eq!(got[3].element, "a");
        assert_eq!(s.links, 4);
        assert_eq!(s.failures, 2);
        assert_eq!(s.by_kind.get(LinkKind::Hyperlink), 1);
        assert_eq!(s.failures_by_kind.get(LinkKind::Header), 1);
    }

    #[test]
    fn total_on_odd_input() {
        for html in [
            &b""[..],
            b"<",
            b"<a href",
            b"\xff\xfe<\x00a\x00",
            b"<style>url(",
            b"<svg><a href=x/>",
            b"<meta charset=utf-16>",
        ] {
            let _ = run(html, "https://e.com/", &Headers::default());
        }
    }
}
