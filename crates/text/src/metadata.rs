//! What a page declares about itself in its markup: title, description,
//! languages, canonical URL, base URL and publication date.
//!
//! One walk over the document collects it. The rules:
//!
//! - **title**: the first HTML `title` element's text, white space
//!   collapsed (the document's title, as `document.title` gives it).
//! - **description**: `<meta name=description>`, else `og:description`.
//! - **html_lang**: the document element's `lang` (or `xml:lang`).
//! - **content_language**: the HTTP `Content-Language` given, else the
//!   first `<meta http-equiv=content-language>`.
//! - **base_url** and **canonical**: the first `<base href>` resolved
//!   against the page URL (the document base URL), and the first
//!   `<link rel=canonical href>` resolved against that base; without a
//!   page URL, an absolute one as written.
//! - **published**, the first declared of: JSON-LD `datePublished`
//!   (objects, arrays and `@graph`s searched in order); the `meta`
//!   properties and names news and blog software write
//!   (`article:published_time`, `itemprop=datePublished`,
//!   `DC.date.issued`, `pubdate`, `sailthru.date`, `parsely-pub-date`…);
//!   a `<time>` with `pubdate`, or the first `<time datetime>` inside an
//!   `article`. The value is as written (trimmed): dates are not
//!   reinterpreted.

use spinneret_html::{Document, ElementRef, LocalName as L, Namespace, NodeKind};
use spinneret_url::Url;

/// A page's declared metadata (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    /// The document's title.
    pub title: Option<String>,
    /// The meta description.
    pub description: Option<String>,
    /// `<html lang>`.
    pub html_lang: Option<String>,
    /// The HTTP `Content-Language`, else `<meta http-equiv=content-language>`.
    pub content_language: Option<String>,
    /// The `<link rel=canonical>` URL, resolved.
    pub canonical: Option<String>,
    /// The document base URL (`<base href>` resolved), when the page sets one.
    pub base_url: Option<String>,
    /// The declared publication date, as written.
    pub published: Option<String>,
}

/// `meta` `property`/`name`/`itemprop` values that declare the
/// publication date, best first.
const DATE_NAMES: &[&str] = &[
    "article:published_time",
    "og:article:published_time",
    "datepublished",
    "og:published_time",
    "dc.date.issued",
    "dcterms.issued",
    "dc.date.created",
    "dcterms.created",
    "dc.date",
    "dcterms.date",
    "pubdate",
    "publishdate",
    "publish-date",
    "publish_date",
    "published_time",
    "article.published",
    "article_date_original",
    "sailthru.date",
    "parsely-pub-date",
    "originalpublicationdate",
    "date",
];

impl Metadata {
    /// The metadata of `doc`, a page at `url` served with
    /// `content_language`.
    pub fn of(doc: &Document, url: Option<&str>, content_language: Option<&str>) -> Metadata {
        let page_url = url.and_then(|u| Url::parse(u).ok());
        let mut m = Metadata {
            content_language: content_language
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
            ..Metadata::default()
        };
        if let Some(html) = doc.document_element() {
            m.html_lang = html
                .attr("lang")
                .or_else(|| html.attr("xml:lang"))
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
        }
        let mut canonical_href = None;
        let mut og_description = None;
        // (rank in DATE_NAMES, value)
        let mut meta_date: Option<(usize, String)> = None;
        let mut json_ld_date = None;
        let mut time_date = None;
        let mut in_article = 0usize;
        crate::stats::walk(doc.root(), |node, step| {
            let Some(e) = node.as_element() else {
                return matches!(node.kind(), NodeKind::Document | NodeKind::Fragment);
            };
            if e.namespace() != Namespace::Html {
                return false;
            }
            let name = e.local_name();
            if step == crate::stats::Step::Leave {
                if name == Some(L::Article) {
                    in_article -= 1;
                }
                return true;
            }
            match name {
                Some(L::Title) if m.title.is_none() => {
                    m.title = collapsed(&node.text_content().unwrap_or_default());
                    return false;
                }
                Some(L::Base) if m.base_url.is_none() => {
                    if let Some(href) = e.attr("href") {
                        m.base_url = resolve(href, page_url.as_ref());
                    }
                }
                Some(L::Link)
                    if canonical_href.is_none() && has_token(e.attr("rel"), "canonical") =>
                {
                    canonical_href = e.attr("href").map(str::to_owned);
                }
                Some(L::Meta) => {
                    meta(e, &mut m, &mut og_description, &mut meta_date);
                }
                Some(L::Script) => {
                    if json_ld_date.is_none()
                        && e.attr("type")
                            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
                    {
                        json_ld_date = node
                            .text_content()
                            .and_then(|json| json_ld_published(&json));
                    }
                    return false;
                }
                Some(L::Article) => in_article += 1,
                Some(L::Time)
                    if time_date.is_none() && (e.attr("pubdate").is_some() || in_article > 0) =>
                {
                    time_date = e
                        .attr("datetime")
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned);
                }
                _ => {}
            }
            if let Some(v) = e.attr("itemprop")
                && v.split_ascii_whitespace()
                    .any(|p| p.eq_ignore_ascii_case("datePublished"))
                && name != Some(L::Meta)
                && let Some(value) = e.attr("datetime").or_else(|| e.attr("content"))
                && !value.trim().is_empty()
            {
                let rank = DATE_NAMES
                    .iter()
                    .position(|n| *n == "datepublished")
                    .unwrap_or(0);
                if meta_date.as_ref().is_none_or(|(r, _)| rank < *r) {
                    meta_date = Some((rank, value.trim().to_owned()));
                }
            }
            true
        });
        if m.description.is_none() {
            m.description = og_description;
        }
        let base = m
            .base_url
            .as_deref()
            .and_then(|b| Url::parse(b).ok())
            .or(page_url);
        m.canonical = canonical_href.and_then(|href| resolve(&href, base.as_ref()));
        m.published = json_ld_date.or(meta_date.map(|(_, v)| v)).or(time_date);
        m
    }
}

/// One `meta` element's contribution.
fn meta(
    e: ElementRef<'_>,
    m: &mut Metadata,
    og_description: &mut Option<String>,
    meta_date: &mut Option<(usize, String)>,
) {
    let Some(content) = e.attr("content").map(str::trim).filter(|c| !c.is_empty()) else {
        return;
    };
    if let Some(equiv) = e.attr("http-equiv")
        && equiv.trim().eq_ignore_ascii_case("content-language")
        && m.content_language.is_none()
    {
        m.content_language = Some(content.to_owned());
    }
    for attr in ["property", "name", "itemprop"] {
        let Some(key) = e.attr(attr) else { continue };
        let key = key.trim().to_ascii_lowercase();
        if key == "description" && m.description.is_none() {
            m.description = collapsed(content);
        } else if key == "og:description" && og_description.is_none() {
            *og_description = collapsed(content);
        } else if let Some(rank) = DATE_NAMES.iter().position(|n| *n == key)
            && meta_date.as_ref().is_none_or(|(r, _)| rank < *r)
        {
            *meta_date = Some((rank, content.to_owned()));
        }
    }
}

/// Whether a space-separated attribute value has `token` (ASCII
/// case-insensitive).
fn has_token(value: Option<&str>, token: &str) -> bool {
    value.is_some_and(|v| {
        v.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case(token))
    })
}

/// `href` resolved against `base` (or parsed alone without one).
fn resolve(href: &str, base: Option<&Url>) -> Option<String> {
    let parsed = match base {
        Some(base) => Url::parse_with_base(href, base),
        None => Url::parse(href),
    };
    parsed.ok().map(|u| u.href().to_owned())
}

/// Text with its white space runs collapsed to one space and trimmed;
/// `None` when nothing is left.
fn collapsed(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    (!out.is_empty()).then_some(out)
}

/// The first `datePublished` of a JSON-LD block.
fn json_ld_published(json: &str) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(json.trim()).ok()?;
    // Breadth-first over objects and arrays, bounded.
    let mut queue = std::collections::VecDeque::from([&value]);
    let mut seen = 0;
    while let Some(v) = queue.pop_front() {
        seen += 1;
        if seen > 10_000 {
            break;
        }
        match v {
            serde_json::Value::Object(map) => {
                if let Some(serde_json::Value::String(d)) = map.get("datePublished")
                    && !d.trim().is_empty()
                {
                    return Some(d.trim().to_owned());
                }
                queue.extend(map.values());
            }
            serde_json::Value::Array(items) => queue.extend(items),
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::Metadata;
    use spinneret_html::{ParseOptions, parse_document};

    fn meta(html: &str, url: Option<&str>) -> Metadata {
        Metadata::of(&parse_document(html, &ParseOptions::default()), url, None)
    }

    #[test]
    fn title_lang_description() {
        let m = meta(
            "<html lang=de-AT><title>  Ein\n Titel </title><meta name=description content=' D '>\
             <meta property=og:description content=O><svg><title>no</title></svg>",
            None,
        );
        assert_eq!(m.title.as_deref(), Some("Ein Titel"));
        assert_eq!(m.html_lang.as_deref(), Some("de-AT"));
        assert_eq!(m.description.as_deref(), Some("D"));
        let m = meta(
            "<meta property=og:description content=O><body><title>late</title>",
            None,
        );
        assert_eq!(m.description.as_deref(), Some("O"));
        assert_eq!(m.title.as_deref(), Some("late"));
    }

    #[test]
    fn content_language_header_wins() {
        let html = "<meta http-equiv=Content-Language content=fr>";
        assert_eq!(meta(html, None).content_language.as_deref(), Some("fr"));
        let doc = parse_document(html, &ParseOptions::default());
        let m = Metadata::of(&doc, None, Some("en-GB"));
        assert_eq!(m.content_language.as_deref(), Some("en-GB"));
    }

    #[test]
    fn canonical_and_base_resolve() {
        let m = meta(
            "<base href=/b/><link rel='alternate canonical' href=page?x#f><link rel=canonical href=/no>",
            Some("https://example.com/a/b"),
        );
        assert_eq!(m.base_url.as_deref(), Some("https://example.com/b/"));
        assert_eq!(
            m.canonical.as_deref(),
            Some("https://example.com/b/page?x#f")
        );
        let m = meta("<link rel=canonical href=/rel>", None);
        assert_eq!(m.canonical, None);
        let m = meta("<link rel=canonical href=http://x.org/>", None);
        assert_eq!(m.canonical.as_deref(), Some("http://x.org/"));
    }

    #[test]
    fn published_date_order() {
        let ld = r#"<script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"NewsArticle","datePublished":"2024-05-01T10:00:00Z"}]}</script>"#;
        let m = meta(
            &format!("<meta property=article:published_time content=2023-01-01>{ld}"),
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2024-05-01T10:00:00Z"));
        let m = meta(
            "<meta name=date content=2020><meta name=DC.date.issued content=2021>",
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2021"));
        let m = meta(
            "<p><time datetime=2001-01-01>x</time><article><time datetime=' 2002-02-02 '>y</time></article>",
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2002-02-02"));
        let m = meta(
            "<span itemprop=datePublished content=2019-09-09>9 Sept</span>",
            None,
        );
        assert_eq!(m.published.as_deref(), Some("2019-09-09"));
        let m = meta("<script type=application/ld+json>{broken</script>", None);
        assert_eq!(m.published, None);
    }
}
