//! What an element's markup says it is: navigation and other boilerplate,
//! or a content container — its tag, its ARIA role, and the words of its
//! `class` and `id`.
//!
//! The word lists are ours, drawn from the patterns that Readability
//! (Mozilla's `Readability.js`: *unlikely candidates* and the class
//! weight), DOM Distiller and Trafilatura (its XPath expressions for
//! article bodies and for discarded parts) match, with the names of
//! cookie banners, share bars and newsletter boxes that sites use today.
//! Matching is by substring of the `class` or `id` value (ASCII
//! case-insensitive, all lists at once with one Aho-Corasick automaton),
//! as theirs is, except for the short words (`ad`, `nav`, `tag`…) that would
//! match inside others: those must be whole tokens (split at white space,
//! `-` and `_`).

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use spinneret_html::{AttrNamespace, ElementRef, LocalName as L};

/// Substrings of a `class` or `id` that mark boilerplate.
const BOILERPLATE: &[&str] = &[
    "advert",
    "agegate",
    "author-info",
    "authorbox",
    "banner",
    "breadcrumb",
    "byline",
    "caption",
    "comment",
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
    "user-info",
    "userdetails",
    "userextras",
    "userinfo",
    "message-cell--user",
    "postprofile",
    "widget",
    "onetrust",
    "cookiebot",
    "qc-cmp",
];

/// Of [`BOILERPLATE`], the words that name what is never the article —
/// comments, share bars, consent and login dialogs, newsletters, related
/// links, ads: unlike the layout words (`sidebar`, `header`, `menu`), a
/// declared container's tag does not overrule them (`<article
/// class=comment>`, `<article class=login-modal>`).
/// [`CONTENT`]'s words do, as for the others.
const STRONG: &[&str] = &[
    "advert",
    "agegate",
    "comment",
    "consent",
    "cookie",
    "disqus",
    "gdpr",
    "login",
    "modal",
    "newsletter",
    "outbrain",
    "popup",
    "recommend",
    "related",
    "replies",
    "reply",
    "share",
    "sharing",
    "shoutbox",
    "signup",
    "social",
    "sponsor",
    "subscribe",
    "taboola",
    "onetrust",
    "cookiebot",
    "qc-cmp",
];

/// Of [`STRONG`], the words of what covers the page over its content —
/// consent and cookie banners (by name, and by the consent platforms'
/// own: OneTrust, Cookiebot, Quantcast's CMP), newsletter and sign-up
/// dialogs, age gates:
/// not even [`CONTENT`]'s words keep them (`consent-bar__content`,
/// `modal-content`, `cookie-content` are the dialog's own content).
const OVERLAY: &[&str] = &[
    "agegate",
    "consent",
    "cookie",
    "gdpr",
    "modal",
    "newsletter",
    "popup",
    "signup",
    "subscribe",
    "onetrust",
    "cookiebot",
    "qc-cmp",
];

/// Of [`OVERLAY`], the words that only a consent dialog or an age gate
/// has: what they name is never content, however long (a consent
/// platform's settings run to pages), nor with the class marks relaxed.
/// (Not `newsletter`: a newsletter's own posts are named after it; nor
/// `cookie`, which a baking site's recipes are.)
const CONSENT: &[&str] = &[
    "agegate",
    "consent",
    "gdpr",
    "onetrust",
    "cookiebot",
    "qc-cmp",
];

/// Whole tokens of a `class` or `id` that mark boilerplate.
const BOILERPLATE_TOKENS: &[&str] = &[
    "ad", "ads", "adv", "aside", "extra", "foot", "meta", "nav", "print", "side", "tags", "tools",
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
    /// A sidebar, header, footer, menu, widget…: by its `class` or `id`
    /// (less certain: layouts name wrappers `content-with-sidebar`).
    Named,
    /// Comments, share bar, ad, consent or login dialog, related links…:
    /// by its `class` or `id` ([`STRONG`]).
    NamedStrong,
    /// Something that is not shown (the `hidden` attribute, `aria-hidden`, an inline
    /// `display: none`, a hiding class such as `hidden` or `sr-only`).
    Hidden,
    /// Nothing special.
    Neutral,
}

/// The word lists as one automaton, each pattern's list its
/// [`PatternId`](aho_corasick::PatternId)'s range.
struct Lists {
    automaton: AhoCorasick,
    /// The first pattern of each list, in the order of [`LISTS`], and the
    /// end of the last.
    starts: [usize; 9],
}

/// The lists, in their order in [`Lists`].
const LISTS: [&[&str]; 8] = [
    BOILERPLATE,
    CONTENT,
    POSITIVE,
    NEGATIVE,
    BODY_CONTAINERS,
    STRONG,
    OVERLAY,
    CONSENT,
];
const LIST_BOILERPLATE: usize = 0;
const LIST_CONTENT: usize = 1;
const LIST_POSITIVE: usize = 2;
const LIST_NEGATIVE: usize = 3;
const LIST_CONTAINER: usize = 4;
const LIST_STRONG: usize = 5;
const LIST_OVERLAY: usize = 6;
const LIST_CONSENT: usize = 7;

fn lists() -> &'static Lists {
    static LISTS_AUTOMATON: OnceLock<Lists> = OnceLock::new();
    LISTS_AUTOMATON.get_or_init(|| {
        let mut starts = [0; 9];
        let mut patterns = Vec::new();
        for (i, list) in LISTS.iter().enumerate() {
            starts[i] = patterns.len();
            patterns.extend_from_slice(list);
        }
        starts[LISTS.len()] = patterns.len();
        Lists {
            automaton: word_automaton(&patterns),
            starts,
        }
    })
}

/// One automaton for word lists of `class` and `id` values: ASCII
/// case-insensitive (the lists are lower-case ASCII), a DFA (a few
/// hundred states, the fastest search of the crate).
pub(crate) fn word_automaton(patterns: &[&str]) -> AhoCorasick {
    AhoCorasick::builder()
        .kind(Some(AhoCorasickKind::DFA))
        .ascii_case_insensitive(true)
        .build(patterns)
        .expect("the word lists are small")
}

/// Which lists one attribute value matches, a bit per list.
fn matched_lists(value: &str) -> u8 {
    let lists = lists();
    let mut found = 0u8;
    for m in lists.automaton.find_overlapping_iter(value) {
        let id = m.pattern().as_usize();
        let list = lists.starts[1..]
            .iter()
            .position(|&end| id < end)
            .unwrap_or(0);
        found |= 1 << list;
    }
    found
}

/// What one `class` or `id` value matches: a bit per list of [`LISTS`],
/// and whether a token is one of [`BOILERPLATE_TOKENS`] or
/// [`DATELINE_TOKENS`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ValueMatch {
    lists: u8,
    boilerplate_token: bool,
    dateline_token: bool,
    /// A whole class (split at white space only) of [`HIDING_CLASSES`].
    hiding: bool,
}

/// Classes that hide an element (Bootstrap's, WordPress's, Tailwind's
/// utilities), matched whole: `field--label-hidden` hides a label, not
/// the field.
const HIDING_CLASSES: &[&str] = &[
    "hidden",
    "hide",
    "d-none",
    "sr-only",
    "visually-hidden",
    "visuallyhidden",
    "screen-reader-text",
    "invisible",
];

impl ValueMatch {
    /// The matches of `value` (split at white space, `-` and `_` for the
    /// tokens; ASCII case-insensitive).
    pub(crate) fn of(value: &str) -> ValueMatch {
        let mut m = ValueMatch {
            lists: matched_lists(value),
            ..ValueMatch::default()
        };
        m.hiding = value
            .split_ascii_whitespace()
            .any(|c| HIDING_CLASSES.iter().any(|h| c.eq_ignore_ascii_case(h)));
        let mut lower = [0u8; 16];
        let tokens = value
            .split_ascii_whitespace()
            .filter(|class| !names_a_state(class))
            .flat_map(|class| {
                // A BEM modifier (`summary-item__dek--extra-spacing`) says
                // how the block looks, not what it is.
                let block = class.split("--").next().unwrap_or(class);
                block.split(['-', '_'])
            });
        for token in tokens {
            // Every listed token is short and ASCII.
            if token.is_empty() || token.len() > lower.len() {
                continue;
            }
            let lower = &mut lower[..token.len()];
            lower.copy_from_slice(token.as_bytes());
            lower.make_ascii_lowercase();
            let lower = std::str::from_utf8(lower).unwrap_or("");
            m.boilerplate_token |= BOILERPLATE_TOKENS.contains(&lower);
            m.dateline_token |= DATELINE_TOKENS.contains(&lower);
        }
        m
    }
}

/// Whether a class names a state or a condition of the element
/// (`hide-read-more-ad`, `has-sidebar`, `no-ads`, `is-extra`) rather than
/// what it is: its words are not the element's.
fn names_a_state(class: &str) -> bool {
    let lower = |p: &str| {
        class.len() > p.len() && class.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes())
    };
    ["hide-", "show-", "has-", "no-", "is-", "with-", "without-"]
        .iter()
        .any(|p| lower(p))
}

/// Tokens of the names of date, time and byline lines.
const DATELINE_TOKENS: &[&str] = &[
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
];

/// What an element's `class` and `id` say, computed once per element.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Names {
    /// Named boilerplate ([`BOILERPLATE`] or [`BOILERPLATE_TOKENS`],
    /// and not [`CONTENT`]).
    boilerplate: bool,
    /// Named with one of [`STRONG`]'s words (and not [`CONTENT`]'s, unless
    /// [`OVERLAY`]'s).
    strong: bool,
    /// Named with one of [`CONSENT`]'s words.
    consent: bool,
    body_container: bool,
    dateline: bool,
    /// A class that hides the element.
    hiding: bool,
    weight: f32,
}

/// The attributes of an element that the marks read, found in one pass
/// over its attributes (a walk reads them for every element).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Attrs<'d> {
    class: &'d str,
    id: &'d str,
    role: Option<&'d str>,
    style: Option<&'d str>,
    itemprop: Option<&'d str>,
    hidden: bool,
    aria_hidden: bool,
    aria_labelledby: bool,
}

impl<'d> Attrs<'d> {
    /// The attributes of `e` (in no namespace).
    pub(crate) fn of(e: ElementRef<'d>) -> Attrs<'d> {
        let mut a = Attrs::default();
        for attr in e.attrs() {
            if attr.namespace() != AttrNamespace::None {
                continue;
            }
            match attr.local_name() {
                Some(L::Class) => a.class = attr.value(),
                Some(L::Id) => a.id = attr.value(),
                Some(L::Role) => a.role = Some(attr.value()),
                Some(L::Style) => a.style = Some(attr.value()),
                Some(L::Itemprop) => a.itemprop = Some(attr.value()),
                Some(L::Hidden) => a.hidden = true,
                _ => match attr.name() {
                    "aria-hidden" => {
                        a.aria_hidden = attr.value().trim().eq_ignore_ascii_case("true");
                    }
                    "aria-labelledby" => a.aria_labelledby = true,
                    _ => {}
                },
            }
        }
        a
    }
}

impl Names {
    /// The names of an element of attributes `attrs`; `class_match` gives
    /// (and remembers) a `class` value's matches (pages repeat their class
    /// values).
    pub(crate) fn of<'d>(
        attrs: &Attrs<'d>,
        class_match: &mut impl FnMut(&'d str) -> ValueMatch,
    ) -> Names {
        let (class, id) = (attrs.class, attrs.id);
        if class.is_empty() && id.is_empty() {
            return Names::default();
        }
        let c = if class.is_empty() {
            ValueMatch::default()
        } else {
            class_match(class)
        };
        let i = if id.is_empty() || is_slug(id) {
            ValueMatch::default()
        } else {
            ValueMatch::of(id)
        };
        let both = c.lists | i.lists;
        let has = |bits: u8, list: usize| bits & (1 << list) != 0;
        // Readability's class weight: ±25 for each of `class` and `id`.
        let mut weight = 0.0;
        for bits in [c.lists, i.lists] {
            if has(bits, LIST_NEGATIVE) {
                weight -= 25.0;
            }
            if has(bits, LIST_POSITIVE) {
                weight += 25.0;
            }
        }
        Names {
            boilerplate: (has(both, LIST_BOILERPLATE)
                || c.boilerplate_token
                || i.boilerplate_token)
                && !has(both, LIST_CONTENT),
            strong: has(both, LIST_STRONG) && (!has(both, LIST_CONTENT) || has(both, LIST_OVERLAY)),
            consent: has(both, LIST_CONSENT),
            body_container: has(both, LIST_CONTAINER),
            dateline: c.dateline_token || i.dateline_token,
            hiding: c.hiding,
            weight,
        }
    }

    /// Readability's class weight: ±25 for each of `class` and `id`.
    pub(crate) fn weight(&self) -> f32 {
        self.weight
    }

    /// Whether the names are those of a consent dialog or an age gate
    /// ([`CONSENT`]).
    pub(crate) fn is_consent(&self) -> bool {
        self.consent
    }

    /// Whether the names are those of an article-body container.
    pub(crate) fn is_body_container(&self) -> bool {
        self.body_container
    }

    /// Whether the names mark the element as a date, time or byline line.
    pub(crate) fn is_dateline(&self) -> bool {
        self.dateline
    }
}

/// Whether an `id` is a heading's text made into a fragment name
/// (`receive-and-reply-to-an-inbound-sms`): seven words or more, lower
/// case. Its words are the heading's, not the names of a component, so
/// they say nothing of what the element is.
fn is_slug(id: &str) -> bool {
    id.split(['-', '_']).filter(|w| !w.is_empty()).count() >= 7
        && !id
            .bytes()
            .any(|b| b.is_ascii_uppercase() || b.is_ascii_whitespace())
}

/// What the markup says of `e` (its tag, role, attributes and names).
pub(crate) fn kind(e: ElementRef<'_>, attrs: &Attrs<'_>, names: &Names) -> Kind {
    if (names.hiding || attrs.hidden || attrs.aria_hidden || attrs.style.is_some_and(hides))
        && !is_collapsed_panel(attrs)
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
    // (Not `tablist`: pages put it on an accordion that holds the
    // answers, and a true tab strip's buttons are boilerplate already.)
    if let Some(role) = attrs.role
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
            )
        })
    {
        return Kind::Boilerplate;
    }
    if names.strong {
        return Kind::NamedStrong;
    }
    if names.boilerplate {
        return Kind::Named;
    }
    Kind::Neutral
}

/// Whether `e` is a panel a reader opens on the page: a tab panel
/// (`role=tabpanel`), an accordion's or a FAQ's answer (`role=region`
/// or `aria-labelledby` naming its heading, or a class naming an
/// accordion, a collapsible, a FAQ answer, a toggle, a tab pane). Hidden
/// until its tab or heading is chosen, it is part of what the page shows
/// (another language's install steps, the answer to each question).
fn is_collapsed_panel(attrs: &Attrs<'_>) -> bool {
    let role = attrs.role.map(str::trim);
    let labelled = attrs.aria_labelledby;
    match role {
        Some(r) if r.eq_ignore_ascii_case("tabpanel") => return true,
        Some(r) if r.eq_ignore_ascii_case("region") && labelled => return true,
        None if labelled => return true,
        _ => {}
    }
    PANEL_WORDS.iter().any(|w| {
        attrs
            .class
            .as_bytes()
            .windows(w.len())
            .any(|c| c.eq_ignore_ascii_case(w.as_bytes()))
    })
}

/// Words of the class of a panel a reader opens ([`is_collapsed_panel`]).
const PANEL_WORDS: &[&str] = &[
    "accordion",
    "collapse",
    "faq",
    "answer",
    "toggle",
    "tab-pane",
    "tab-content",
    "expand",
];

/// Whether an inline style hides the element (`display: none`,
/// `visibility: hidden`).
fn hides(style: &str) -> bool {
    // The declarations, white space left out and ASCII lower-cased, as
    // they come (no string built: most elements with a style show).
    let mut squeezed = style
        .bytes()
        .filter(|b| !b.is_ascii_whitespace())
        .map(|b| b.to_ascii_lowercase());
    let mut window = [0u8; 17];
    let mut len = 0;
    loop {
        let Some(b) = squeezed.next() else {
            return false;
        };
        if len == window.len() {
            window.copy_within(1.., 0);
            len -= 1;
        }
        window[len] = b;
        len += 1;
        if window[..len].ends_with(b"display:none") || window[..len].ends_with(b"visibility:hidden")
        {
            return true;
        }
    }
}

/// Whether `e` is an explicit article container: `article`, `main`, an
/// `itemprop=articleBody`, or a body container's class or id.
pub(crate) fn is_container(e: ElementRef<'_>, attrs: &Attrs<'_>, names: &Names) -> bool {
    if e.is_html(L::Article) || e.is_html(L::Main) {
        return true;
    }
    if attrs.itemprop.is_some_and(|v| {
        v.split_ascii_whitespace()
            .any(|p| p.eq_ignore_ascii_case("articleBody") || p.eq_ignore_ascii_case("text"))
    }) {
        return true;
    }
    if attrs.role.is_some_and(|r| r.eq_ignore_ascii_case("main")) {
        return true;
    }
    names.is_body_container()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_words_count_as_whole_tokens_of_what_an_element_is() {
        assert!(ValueMatch::of("ad-slot").boilerplate_token);
        assert!(ValueMatch::of("site-nav main").boilerplate_token);
        assert!(!ValueMatch::of("header-loaded").boilerplate_token);
        // A state or condition, and a BEM modifier, say nothing of what
        // the element is.
        assert!(!ValueMatch::of("grid hide-read-more-ad").boilerplate_token);
        assert!(!ValueMatch::of("has-side no-ads").boilerplate_token);
        assert!(!ValueMatch::of("summary-item__dek--extra-spacing").boilerplate_token);
        assert!(ValueMatch::of("summary-extra--wide").boilerplate_token);
    }

    #[test]
    fn an_inline_style_hides_with_display_none_or_visibility_hidden() {
        assert!(hides("display:none"));
        assert!(hides("color: red; DISPLAY : None !important"));
        assert!(hides("margin:0;visibility:\thidden"));
        assert!(!hides("display: block; visibility: visible"));
        assert!(!hides("display:non"));
        assert!(!hides(""));
    }

    #[test]
    fn an_id_of_seven_words_is_a_heading_slug() {
        assert!(is_slug(
            "receive-and-reply-to-an-inbound-sms-message-section"
        ));
        assert!(!is_slug("comment-reply-form"));
        assert!(!is_slug("npr-plus-get-access-modal-mount"));
        assert!(!is_slug(
            "google_ads_iframe_/6735/n6735.NPR/podcasts_Short_Wave_1"
        ));
    }
}
