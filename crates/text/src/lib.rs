//! `spinneret-text`: a page's readable text, as a reader of the rendered
//! page sees it — the whole page, or only its **main content** (the
//! article or post without navigation, menus, headers, footers, sidebars,
//! cookie banners, share bars, comments, related-link lists and ads) — as
//! plain text or as **Markdown**, with the metadata the page declares.
//!
//! ```
//! use spinneret_text::{Format, Options, Page, extract_page};
//! let html = b"<html lang=en><title>News</title><nav><a href=/>Home</a> <a href=/a>About</a></nav>\
//!   <article><h1>Rain</h1><p>It rained all day in the valley, and the river rose by a metre, \
//!   which the farmers had feared since spring.</p></article><footer>(c) 2026</footer>";
//! let page = Page { url: Some("https://example.com/rain"), ..Page::new(html) };
//! let whole = extract_page(&page, &Options::default());
//! assert!(whole.text.starts_with("Home About\nRain"));
//! let main = extract_page(&page, &Options { main_content: true, ..Options::default() });
//! assert_eq!(main.text.lines().next(), Some("Rain"));
//! assert!(!main.text.contains("About") && !main.text.contains("2026"));
//! assert_eq!(main.title.as_deref(), Some("News"));
//! assert_eq!(main.html_lang.as_deref(), Some("en"));
//! let md = extract_page(&page, &Options { main_content: true, format: Format::Markdown, ..Options::default() });
//! assert!(md.text.starts_with("# Rain\n\nIt rained"));
//! ```
//!
//! The pieces:
//!
//! - **Whole-page text** is `spinneret-html`'s visible text
//!   ([`NodeRef::visible_text`]): what a browser renders as text without
//!   a style sheet (its rules are in that function's module).
//! - **Main content** ([`main_content`]) picks the subtrees that hold the
//!   page's article and the parts inside them to leave out; its method
//!   (Readability's scored candidates, Boilerpipe's and jusText's text
//!   features, Trafilatura's container hints) is explained in that
//!   module.
//! - **Markdown** ([`markdown`]) renders the same nodes with headings,
//!   paragraphs, lists, block quotes, code blocks and tables.
//! - **Page type** ([`page_type`]): article, forum, product, collection,
//!   listing, documentation or service, from declared types, the URL and
//!   the page's structure.
//! - **Metadata** ([`metadata`]): title, `<html lang>`, the
//!   `Content-Language` (header or `<meta http-equiv>`), the canonical
//!   URL, the declared publication date; and the language detected from
//!   the text ([`language`], whatlang's trigram profiles).
//!
//! Invariants: every function here is total — any bytes give an
//! [`Extraction`], never a panic; the output is valid UTF-8 (it is a
//! `String`); time and memory are linear in the page (every walk follows
//! the DOM's links with no recursion, so any depth is fine).
//!
//! [`NodeRef::visible_text`]: spinneret_html::NodeRef::visible_text

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod hints;
pub mod language;
pub mod main_content;
pub mod markdown;
pub mod metadata;
pub mod page_type;
mod phrases;
mod stats;

use spinneret_encoding::{Determination, Policy, Sniffer};
use spinneret_html::{
    Document, NodeRef, ParallelOptions, ParallelRender, ParseOptions, VisibleTextOptions,
    parse_bytes_parallel, parse_owned_bytes_parallel,
};

pub use language::DetectedLanguage;
pub use metadata::Metadata;
pub use page_type::PageType;

/// The text's form.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Format {
    /// Plain text: blocks on lines of their own, paragraphs separated by
    /// a blank line, table cells by tabs.
    #[default]
    Text,
    /// Markdown (CommonMark, with GitHub's tables).
    Markdown,
}

/// What to extract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Only the main content (see [`main_content`]); else the whole page.
    pub main_content: bool,
    /// Plain text or Markdown.
    pub format: Format,
    /// Markdown only: links as `[text](url)` and images as
    /// `![alt](url)`, URLs resolved against the page's base URL; without
    /// it a link is its text and an image nothing.
    pub links: bool,
    /// Detect the text's language ([`Extraction::language`]; `None`
    /// without it). On by default; off where the caller has no use for
    /// it: the detector's cost is fixed per page (about 0.1–0.2 ms with
    /// its 2 KiB sample, [`language`]), about what the parse costs.
    pub language: bool,
}

impl Default for Options {
    /// Whole page, plain text, no links, the language detected.
    fn default() -> Options {
        Options {
            main_content: false,
            format: Format::Text,
            links: false,
            language: true,
        }
    }
}

/// One page as a crawl holds it: its bytes and what the response said.
#[derive(Clone, Copy, Debug)]
pub struct Page<'a> {
    /// The payload (decoded transfer and content encodings).
    pub bytes: &'a [u8],
    /// The page's URL: the encoding detector's hint (its top-level
    /// domain) and the base of relative URLs.
    pub url: Option<&'a str>,
    /// The HTTP `Content-Type` (its `charset` decides the encoding).
    pub content_type: Option<&'a [u8]>,
    /// The HTTP `Content-Language`.
    pub content_language: Option<&'a str>,
}

impl<'a> Page<'a> {
    /// A page with only its bytes.
    pub fn new(bytes: &'a [u8]) -> Page<'a> {
        Page {
            bytes,
            url: None,
            content_type: None,
            content_language: None,
        }
    }
}

/// A page's text and metadata.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Extraction {
    /// The text (whole page or main content, plain or Markdown), without
    /// a line break at its start or end.
    pub text: String,
    /// The metadata the page declares.
    pub metadata: Metadata,
    /// The language detected from the plain text of what was extracted
    /// (with [`Options::language`]).
    pub language: Option<DetectedLanguage>,
    /// The encoding the page was decoded with (its WHATWG name).
    pub encoding: &'static str,
    /// What kind of page it is ([`page_type`]).
    pub page_type: PageType,
}

impl std::ops::Deref for Extraction {
    type Target = Metadata;
    fn deref(&self) -> &Metadata {
        &self.metadata
    }
}

/// Decodes a page as a crawler's browser would (the HTTP charset, the BOM,
/// the `<meta>` prescan, detection with the URL's top-level domain as a
/// hint; `spinneret-encoding`'s crawler policy), parses it with the HTML
/// Standard's tree builder and extracts its text and metadata.
pub fn extract_page(page: &Page<'_>, options: &Options) -> Extraction {
    let (doc, det) = parse_bytes_parallel(
        page.bytes,
        &sniffer(page),
        &ParseOptions::default(),
        &parallel_parse(),
    );
    extraction_of(&doc, det, page, options)
}

/// Pages shorter than this (bytes) are parsed on the calling thread, and
/// longer ones on rayon's current pool (the same tree). Text extraction
/// does more work than the parse: over WCXB dev's 743 pages (mean
/// 290 KB), with the HTML crate's own threshold (128 KiB) the parallel
/// parse took 1.12 CPU-s and 0.94 s a pass against 0.90 CPU-s and 0.88 s
/// on the calling thread (2 cores, 2026-12-07): the split only pays on
/// documents of megabytes, and a crawl's pages are extracted
/// concurrently anyway.
pub const PARALLEL_PARSE_FROM: usize = 4 << 20;

/// Documents with fewer nodes than this have their whole-page text
/// rendered on the calling thread (see [`PARALLEL_PARSE_FROM`]); about
/// what a 4 MiB page has.
pub const PARALLEL_RENDER_FROM: usize = 100_000;

/// How [`extract_page`] parses: [`PARALLEL_PARSE_FROM`].
fn parallel_parse() -> ParallelOptions {
    ParallelOptions {
        sequential_below: PARALLEL_PARSE_FROM,
        ..ParallelOptions::default()
    }
}

/// [`extract_page`] of a payload given away: `bytes` are the page's, and
/// `page` says what the response said (its URL, Content-Type and
/// Content-Language; its `bytes` are not read). A UTF-8 payload becomes
/// the document's text as it is, without the copy [`extract_page`] makes
/// (fresh memory as large as the page, on the calling thread: about
/// 30 ms for 64 MB). The same extraction as [`extract_page`] of a page
/// with these bytes.
pub fn extract_owned_page(bytes: Vec<u8>, page: &Page<'_>, options: &Options) -> Extraction {
    let (doc, det) = parse_owned_bytes_parallel(
        bytes,
        &sniffer(page),
        &ParseOptions::default(),
        &parallel_parse(),
    );
    extraction_of(&doc, det, page, options)
}

/// The extraction of `doc`, parsed from `page` with the determination
/// `det`.
fn extraction_of(
    doc: &Document,
    det: Determination,
    page: &Page<'_>,
    options: &Options,
) -> Extraction {
    let mut extraction = extract_document(doc, page.url, page.content_language, options);
    extraction.encoding = det.encoding.name();
    extraction
}

/// The crawler's sniffer, with what the response said about `page`.
fn sniffer<'a>(page: &Page<'a>) -> Sniffer<'a> {
    let mut sniffer = Sniffer::new(Policy::Crawler);
    if let Some(url) = page.url {
        sniffer = sniffer.url(url);
    }
    if let Some(ct) = page.content_type {
        sniffer = sniffer.content_type(ct);
    }
    sniffer
}

/// Extracts the text and metadata of a parsed document; `url` is the
/// page's, `content_language` the HTTP header's. The encoding is left as
/// `"UTF-8"` (the document is already text).
pub fn extract_document(
    doc: &Document,
    url: Option<&str>,
    content_language: Option<&str>,
    options: &Options,
) -> Extraction {
    let metadata = metadata::Metadata::of(doc, url, content_language);
    let page_type = page_type::classify(doc, url);
    let chosen = options
        .main_content
        .then(|| main_content::select_for(doc, page_type));
    let text = match options.format {
        Format::Text => render_text(doc, chosen.as_ref()),
        Format::Markdown => {
            let base = metadata.base_url.as_deref().or(url);
            let md = markdown::Options {
                links: options.links,
                base,
                view: if options.main_content {
                    main_content::VIEW
                } else {
                    VisibleTextOptions::default()
                },
            };
            match &chosen {
                Some(c) => markdown::render_selection(doc, c, &md),
                None => markdown::render(doc.root(), |_| false, &md),
            }
        }
    };
    // The detector reads plain text: Markdown's marks would be noise.
    let language = match options.format {
        _ if !options.language => None,
        Format::Text => language::detect(&text),
        Format::Markdown => language::detect(&render_text(doc, chosen.as_ref())),
    };
    Extraction {
        text,
        metadata,
        language,
        encoding: "UTF-8",
        page_type,
    }
}

/// The plain text of a document, or of the main content's selection.
fn render_text(doc: &Document, chosen: Option<&main_content::Selection>) -> String {
    match chosen {
        // A large document's on rayon's current pool (the same text).
        None if doc.node_count() >= PARALLEL_RENDER_FROM => doc.visible_text_parallel(
            VisibleTextOptions::default(),
            &ParallelRender::current_pool(),
        ),
        None => doc.visible_text(),
        Some(selection) => {
            let mut out = String::new();
            for &root in &selection.roots {
                let part = doc
                    .node(root)
                    .visible_text_with(main_content::VIEW, |n: NodeRef<'_>| {
                        selection.is_dropped(n.id())
                    });
                if part.is_empty() {
                    continue;
                }
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
                out.push_str(&part);
            }
            out
        }
    }
}

/// The text of raw HTML bytes (no HTTP context): [`extract_page`] of
/// [`Page::new`].
pub fn text_of(html: &[u8], options: &Options) -> String {
    extract_page(&Page::new(html), options).text
}
