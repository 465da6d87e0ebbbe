//! Which attributes of which elements are links, and how a value becomes
//! link texts (stripping, `srcset`, `ping`, refresh, CSS).
//!
//! The table is shared by the streaming extractor and by anything that has
//! elements from elsewhere (a DOM, a test's tree): [`element_links`] takes an
//! element name, whether it is in the SVG namespace, and an attribute
//! lookup.
//!
//! Invariant: every emitted raw value is stripped of leading and trailing
//! ASCII whitespace (as HTML does before parsing a URL) and is non-empty
//! except for `href`/`src`-like attributes given as empty (an empty URL
//! resolves to the document base, as in a browser).

use std::borrow::Cow;

use crate::LinkKind;
use crate::css::css_urls;
use crate::refresh::parse_refresh;
use crate::srcset::srcset_urls;

/// Strips leading and trailing ASCII whitespace.
pub fn strip(v: &str) -> &str {
    v.trim_matches(|c: char| matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' '))
}

/// The link-bearing attributes this crate reads (besides `style`).
pub const LINK_ATTRIBUTES: &[&str] = &[
    "href",
    "xlink:href",
    "src",
    "srcset",
    "poster",
    "action",
    "formaction",
    "data",
    "cite",
    "ping",
    "content",
];

/// Calls `emit(attribute, kind, raw)` for every link of one element, in a
/// fixed order (the table's, not the source's). `svg` says the element is in
/// the SVG namespace (then only `a`/`image`/`use` links and `style` count).
/// The `style` attribute of any element yields its CSS URLs. `base`'s
/// `href` is not a link here (it sets the document base).
pub fn element_links<'v>(
    element: &str,
    svg: bool,
    attr: impl Fn(&str) -> Option<&'v str>,
    mut emit: impl FnMut(&'static str, LinkKind, Cow<'v, str>),
) {
    let mut one = |name: &'static str, kind: LinkKind| {
        if let Some(v) = attr(name) {
            emit(name, kind, Cow::Borrowed(strip(v)));
        }
    };
    if svg {
        let kind = match element {
            "a" => Some(LinkKind::Hyperlink),
            "image" => Some(LinkKind::Image),
            "use" => Some(LinkKind::Embed),
            _ => None,
        };
        if let Some(kind) = kind {
            one("href", kind);
            one("xlink:href", kind);
        }
    } else {
        use LinkKind as K;
        match element {
            "a" | "area" => one("href", K::Hyperlink),
            "link" => one("href", K::Link),
            "img" => one("src", K::Image),
            "source" | "audio" | "video" | "track" => one("src", K::Media),
            "iframe" | "frame" => one("src", K::Frame),
            "embed" => one("src", K::Embed),
            "object" => one("data", K::Embed),
            "script" => one("src", K::Script),
            "form" => one("action", K::Form),
            "button" => one("formaction", K::Form),
            "input" => {
                if attr("type").is_some_and(|t| t.eq_ignore_ascii_case("image")) {
                    one("src", K::Image);
                }
                one("formaction", K::Form);
            }
            "blockquote" | "q" | "del" | "ins" => one("cite", K::Citation),
            _ => {}
        }
        if element == "video" {
            one("poster", K::Image);
        }
        if matches!(element, "img" | "source")
            && let Some(v) = attr("srcset")
        {
            for u in srcset_urls(v) {
                emit("srcset", K::Image, Cow::Borrowed(u));
            }
        }
        if matches!(element, "a" | "area")
            && let Some(v) = attr("ping")
        {
            for u in v.split(['\t', '\n', '\x0C', '\r', ' ']) {
                if !u.is_empty() {
                    emit("ping", K::Ping, Cow::Borrowed(u));
                }
            }
        }
        if element == "meta"
            && attr("http-equiv").is_some_and(|h| h.eq_ignore_ascii_case("refresh"))
            && let Some(c) = attr("content")
            && let Some((_, Some(u))) = parse_refresh(c)
        {
            emit("content", K::Refresh, Cow::Borrowed(strip(u)));
        }
    }
    if let Some(v) = attr("style") {
        for u in css_urls(v) {
            emit("style", LinkKind::Style, strip_cow(u));
        }
    }
}

/// The CSS URLs of a `<style>` element's text (attribute name `#text`).
pub fn style_text_links<'v>(
    text: &'v str,
    mut emit: impl FnMut(&'static str, LinkKind, Cow<'v, str>),
) {
    for u in css_urls(text) {
        emit("#text", LinkKind::Style, strip_cow(u));
    }
}

fn strip_cow(c: Cow<'_, str>) -> Cow<'_, str> {
    match c {
        Cow::Borrowed(b) => Cow::Borrowed(strip(b)),
        Cow::Owned(o) => {
            let s = strip(&o);
            if s.len() == o.len() {
                Cow::Owned(o)
            } else {
                Cow::Owned(s.to_owned())
            }
        }
    }
}
