//! Links from a WAT record: the links of a page as Common Crawl's WAT
//! names them ([`spinneret_wat::read::page`]), resolved as a browser
//! resolves them, for users who have only WAT files; `job.rs` renders them
//! as it renders extracted links.
//!
//! Each URL of the WAT becomes a link of the usual columns: the element
//! and attribute from its `path` (`IMG@/src` is `img`, `src`), the kind
//! the same element and attribute have in an HTML page (`image`), the
//! `rel` and anchor text the WAT records. Header links (`Location` of a
//! 3xx response, `Content-Location`, `Link`) resolve against the page's
//! URL, the rest against `Head.Base` (resolved against the page), which
//! is itself not a row. A `<meta>` naming a URL (`og:image`…) is a row of
//! kind `meta`, element `meta`, attribute `content`, as in an HTML page.
//!
//! What a WAT cannot give: the page's encoding (queries are encoded as
//! UTF-8, where the page's own encoding might differ), and the links
//! Common Crawl's generator does not record (`srcset`, `ping`, meta
//! refresh, `style` attributes); it records some spinneret's extractor
//! does not (`data-href`, `onclick`, `object` `codebase`).

use spinneret_extract::{Link, LinkKind};
use spinneret_url::{ParseError, Url};
use spinneret_warc::Record;
use spinneret_wat::read::{self, Source, WatLink};

/// What a WAT record gave.
pub enum WatItem {
    /// A page and its links.
    Page(WatPage),
    /// Not a page's record (a request's, a warcinfo's).
    NotAPage,
    /// A page without a target URI that parses.
    NoUrl,
    /// JSON that does not read (the message).
    Bad(String),
}

/// A page of a WAT: its URL and links, resolved.
pub struct WatPage {
    /// The page's URL.
    pub url: Url,
    /// Its HTTP status, when it has one.
    pub status: Option<u16>,
    /// Whether the WAT read it as HTML.
    pub html: bool,
    /// Its links.
    pub links: Vec<WatRow>,
}

/// One link of a WAT page, owned, resolved.
pub struct WatRow {
    element: String,
    attribute: &'static str,
    kind: LinkKind,
    raw: String,
    target: Result<Url, ParseError>,
    rel: Option<String>,
    text: Option<String>,
}

impl WatRow {
    /// The link as the extractor reports one.
    pub fn as_link(&self) -> Link<'_> {
        let rel = self.rel.as_deref();
        Link {
            element: &self.element,
            attribute: self.attribute,
            svg: false,
            kind: self.kind,
            raw: &self.raw,
            target: self.target.clone(),
            rel,
            nofollow: rel.is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|t| t.eq_ignore_ascii_case("nofollow"))
            }),
            hreflang: None,
            as_: None,
            text: self.text.as_deref(),
        }
    }
}

/// The page of a WAT record (its JSON in `record.body`).
pub fn wat_links(record: &Record) -> WatItem {
    let page = match read::page(&record.body) {
        Ok(Some(page)) => page,
        Ok(None) => return WatItem::NotAPage,
        Err(e) => return WatItem::Bad(e.to_string()),
    };
    let Some(Ok(url)) = page.target_uri.as_deref().map(|u| Url::parse(u.trim())) else {
        return WatItem::NoUrl;
    };
    let mut links = Vec::with_capacity(page.links.len());
    for (link, target) in page.resolved(&url) {
        if link.source == Source::Base {
            continue;
        }
        let (element, attribute, kind) = describe(link);
        links.push(WatRow {
            element: element.unwrap_or_default(),
            attribute,
            kind,
            raw: link.url.trim().to_owned(),
            target,
            rel: link.rel.clone(),
            text: link.text.clone(),
        });
    }
    WatItem::Page(WatPage {
        url,
        status: (page.status != 0).then_some(page.status),
        html: page.html,
        links,
    })
}

/// A WAT link's element (lower case; none for a header), attribute and
/// kind: those the element and attribute have in an HTML page.
fn describe(link: &WatLink) -> (Option<String>, &'static str, LinkKind) {
    match link.source {
        Source::Location => return (None, "Location", LinkKind::Redirect),
        Source::ContentLocation => return (None, "Content-Location", LinkKind::Header),
        Source::LinkHeader => return (None, "Link", LinkKind::Header),
        Source::Meta => return (Some("meta".into()), "content", LinkKind::Meta),
        _ => {}
    }
    let (element, attribute) = match link.path.split_once("@/") {
        Some((e, a)) => (e.to_ascii_lowercase(), a.to_ascii_lowercase()),
        None => match link.path.split_once('/') {
            // `STYLE/#text`.
            Some((e, a)) => (e.to_ascii_lowercase(), a.to_owned()),
            None => (link.path.to_ascii_lowercase(), String::new()),
        },
    };
    let attr = ATTRIBUTES
        .iter()
        .copied()
        .find(|a| *a == attribute)
        .unwrap_or("other");
    let kind = match (element.as_str(), attr) {
        (_, "#text") => LinkKind::Style,
        ("link", _) => LinkKind::Link,
        ("script", _) => LinkKind::Script,
        ("img" | "input" | "menuitem", "src" | "icon")
        | ("video", "poster")
        | (_, "background") => LinkKind::Image,
        ("audio" | "video" | "source" | "track", _) => LinkKind::Media,
        ("iframe" | "frame", _) => LinkKind::Frame,
        ("embed" | "object" | "applet", _) => LinkKind::Embed,
        (_, "action" | "formaction") => LinkKind::Form,
        (_, "cite") => LinkKind::Citation,
        _ => LinkKind::Hyperlink,
    };
    (Some(element), attr, kind)
}

/// The attributes a WAT's paths name.
const ATTRIBUTES: [&str; 16] = [
    "href",
    "src",
    "action",
    "formaction",
    "background",
    "data-href",
    "data-uri",
    "longdesc",
    "poster",
    "codebase",
    "cdata",
    "data",
    "cite",
    "icon",
    "onclick",
    "#text",
];
