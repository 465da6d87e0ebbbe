//! What an element's markup says it is: navigation and other boilerplate,
//! or a content container — its tag, its ARIA role, and the words of its
//! `class` and `id`.
//!
//! The word lists are ours, drawn from the patterns that Readability
//! (Mozilla's `Readability.js`: *unlikely candidates* and the class
//! weight), DOM Distiller and Trafilatura (its XPath expressions for
//! article bodies and for discarded parts) match, with the names of
//! cookie banners, share bars and newsletter boxes that sites use today.
//! Matching is by substring of the lower-cased `class` or `id` value, as
//! theirs is, except for the short words (`ad`, `nav`, `tag`…) that would
//! match inside others: those must be whole tokens (split at white space,
//! `-` and `_`).

use spinneret_html::{ElementRef, LocalName as L};

/// Substrings of a `class` or `id` that mark boilerplate.
const BOILERPLATE: &[&str] = &[
    "advert",
    "agegate",
    "author-info",
    "authorbox",
    "banner",
    "breadcrumb",
    "byline",
    "comment",
    "community",
    "consent",
    "contact",
    "cookie",
    "copyright",
    "disqus",
    "dropdown",
    "footer",
    "footnote",
    "gdpr",
    "header",
    "login",
    "masthead",
    "menu",
    "modal",
    "navbar",
    "navigation",
    "newsletter",
    "outbrain",
    "pagination",
    "pager",
    "popular",
    "popup",
    "promo",
    "rating",
    "recommend",
    "related",
    "remark",
    "replies",
    "reply",
    "rss",
    "share",
    "sharing",
    "shoutbox",
    "sidebar",
    "signup",
    "skyscraper",
    "social",
    "sponsor",
    "subscribe",
    "supplemental",
    "taboola",
    "tagcloud",
    "toolbar",
    "trending",
    "widget",
];

/// Whole tokens of a `class` or `id` that mark boilerplate.
const BOILERPLATE_TOKENS: &[&str] = &[
    "ad", "ads", "adv", "aside", "extra", "foot", "hidden", "meta", "nav", "print", "side", "tags",
    "tools",
];

/// Substrings that mark content (they keep an element that also matches
/// [`BOILERPLATE`], as Readability's *maybe candidate* does).
const CONTENT: &[&str] = &[
    "article",
    "body",
    "column",
    "content",
    "main",
    "shadow",
    "elementor",
];

/// Substrings that raise a candidate's score (Readability's positive
/// class weight).
const POSITIVE: &[&str] = &[
    "article", "body", "content", "entry", "hentry", "h-entry", "main", "page", "post", "text",
    "blog", "story",
];

/// Substrings that lower a candidate's score.
const NEGATIVE: &[&str] = &[
    "banner",
    "combx",
    "comment",
    "contact",
    "foot",
    "gdpr",
    "masthead",
    "media",
    "meta",
    "outbrain",
    "promo",
    "related",
    "scroll",
    "share",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "sponsor",
    "shopping",
    "tags",
    "tool",
    "widget",
    "cookie",
    "social",
    "newsletter",
];

/// Class or id values of the containers sites put an article's body in
/// (Trafilatura's body expressions, WordPress, Drupal and news CMS
/// conventions).
const BODY_CONTAINERS: &[&str] = &[
    "articlebody",
    "article-body",
    "article_body",
    "article__body",
    "article-content",
    "article_content",
    "articlecontent",
    "article-text",
    "article_text",
    "articletext",
    "entry-content",
    "entry_content",
    "entrycontent",
    "entry-body",
    "post-content",
    "post_content",
    "postcontent",
    "post-body",
    "post_body",
    "postbody",
    "post-entry",
    "postentry",
    "post-text",
    "post_text",
    "posttext",
    "story-body",
    "story-content",
    "storycontent",
    "story-text",
    "blog-content",
    "blogpost-content",
    "field-body",
    "field-name-body",
    "news-content",
    "page-content",
    "main-content",
    "content-body",
    "text-content",
    "rich-text",
    "single-content",
    "td-post-content",
];

/// What the markup says of one element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Navigation, a footer, a sidebar, a menu, a dialog: by its tag or
    /// ARIA role.
    Boilerplate,
    /// Comments, share bar, ad, cookie banner…: by its `class` or `id`
    /// (less certain: layouts name wrappers `content-with-sidebar`).
    Named,
    /// Something that is not shown (`aria-hidden`, an inline
    /// `display: none`).
    Hidden,
    /// Nothing special.
    Neutral,
}

/// The lower-cased `class` and `id` of an element, for the matches below.
pub(crate) struct Names {
    class: String,
    id: String,
}

impl Names {
    pub(crate) fn of(e: ElementRef<'_>) -> Names {
        let lower = |name: &str| {
            e.attr(name)
                .map(str::to_ascii_lowercase)
                .unwrap_or_default()
        };
        Names {
            class: lower("class"),
            id: lower("id"),
        }
    }

    fn any(&self, pattern: impl Fn(&str) -> bool) -> bool {
        pattern(&self.class) || pattern(&self.id)
    }

    fn has_token(&self, tokens: &[&str]) -> bool {
        self.any(|v| {
            v.split(|c: char| c.is_ascii_whitespace() || c == '-' || c == '_')
                .any(|t| tokens.contains(&t))
        })
    }

    fn has_substring(&self, list: &[&str]) -> bool {
        self.any(|v| list.iter().any(|p| v.contains(p)))
    }

    /// Readability's class weight: ±25 for each of `class` and `id`.
    pub(crate) fn weight(&self) -> f32 {
        let mut w = 0.0;
        for v in [&self.class, &self.id] {
            if v.is_empty() {
                continue;
            }
            if NEGATIVE.iter().any(|p| v.contains(p)) {
                w -= 25.0;
            }
            if POSITIVE.iter().any(|p| v.contains(p)) {
                w += 25.0;
            }
        }
        w
    }

    /// Whether the names are those of an article-body container.
    pub(crate) fn is_body_container(&self) -> bool {
        self.any(|v| {
            v.split_ascii_whitespace()
                .any(|t| BODY_CONTAINERS.iter().any(|c| t.contains(c)))
        })
    }

    /// Whether the names mark the element as a date, time or byline line.
    pub(crate) fn is_dateline(&self) -> bool {
        self.has_token(&[
            "date",
            "time",
            "timestamp",
            "byline",
            "author",
            "posted",
            "published",
            "dateline",
            "updated",
            "meta",
            "info",
            "credit",
        ])
    }
}

/// What the markup says of `e` (its tag, role, attributes and names).
pub(crate) fn kind(e: ElementRef<'_>, names: &Names) -> Kind {
    if e.attr("aria-hidden")
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || e.attr("style").is_some_and(hides)
    {
        return Kind::Hidden;
    }
    if let Some(name) = e.local_name()
        && matches!(
            name,
            L::Nav | L::Aside | L::Footer | L::Menu | L::Dialog | L::Button | L::Select
        )
        && e.namespace() == spinneret_html::Namespace::Html
    {
        return Kind::Boilerplate;
    }
    if let Some(role) = e.attr("role")
        && role.split_ascii_whitespace().any(|r| {
            matches!(
                r.to_ascii_lowercase().as_str(),
                "navigation"
                    | "banner"
                    | "contentinfo"
                    | "complementary"
                    | "search"
                    | "menu"
                    | "menubar"
                    | "dialog"
                    | "alertdialog"
                    | "toolbar"
                    | "tablist"
            )
        })
    {
        return Kind::Boilerplate;
    }
    if (names.has_substring(BOILERPLATE) || names.has_token(BOILERPLATE_TOKENS))
        && !names.has_substring(CONTENT)
    {
        return Kind::Named;
    }
    Kind::Neutral
}

/// Whether an inline style hides the element (`display: none`,
/// `visibility: hidden`).
fn hides(style: &str) -> bool {
    let squeezed: String = style
        .chars()
        .filter(|c| !c.is_ascii_whitespace())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    squeezed.contains("display:none") || squeezed.contains("visibility:hidden")
}

/// Whether `e` is an explicit article container: `article`, `main`, an
/// `itemprop=articleBody`, or a body container's class or id.
pub(crate) fn is_container(e: ElementRef<'_>, names: &Names) -> bool {
    if e.is_html(L::Article) || e.is_html(L::Main) {
        return true;
    }
    if e.attr("itemprop").is_some_and(|v| {
        v.split_ascii_whitespace()
            .any(|p| p.eq_ignore_ascii_case("articleBody") || p.eq_ignore_ascii_case("text"))
    }) {
        return true;
    }
    if e.attr("role")
        .is_some_and(|r| r.eq_ignore_ascii_case("main"))
    {
        return true;
    }
    names.is_body_container()
}
