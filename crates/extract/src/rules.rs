//! Which attributes of which elements are links, and how a value becomes
//! link texts (stripping, `srcset`, `ping`, refresh, URL metas, CSS).
//!
//! The table is shared by the streaming extractor and by anything that has
//! elements from elsewhere (a DOM, a test's tree): [`element_links`] takes an
//! element name, whether it is in the SVG namespace, and an attribute
//! lookup.
//!
//! Every attribute the table reads is declared once, in the
//! `read_attributes!` list below, as an `Attr`: the rules can read no
//! other (they look attributes up by `Attr`), and the streaming
//! extractor's choice of attributes to keep (`Attr::from_local`) and
//! [`LINK_ATTRIBUTES`] are generated from the same list.
//!
//! Invariant: every emitted raw value is stripped of leading and trailing
//! ASCII whitespace (as HTML does before parsing a URL) and is non-empty
//! except for `href`/`src`-like attributes given as empty (an empty URL
//! resolves to the document base, as in a browser).

use std::borrow::Cow;

use spinneret_html::LocalName;

use crate::LinkKind;
use crate::css::css_urls;
use crate::meta::names_url;
use crate::refresh::parse_refresh;
use crate::srcset::srcset_urls;

macro_rules! read_attributes {
    (
        urls: $($url:ident = $url_name:literal),* ;
        css: $($css:ident = $css_name:literal),* ;
        qualifiers: $($q:ident = $q_name:literal),* ;
    ) => {
        /// An attribute the rules read. Each is an interned [`LocalName`]
        /// (the variant of the same name), so the streaming extractor picks
        /// them out of a tag by integer.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub(crate) enum Attr {
            $($url,)*
            $($css,)*
            $($q,)*
        }

        impl Attr {
            /// Every attribute the rules read.
            #[cfg(test)]
            pub(crate) const ALL: &[Attr] = &[$(Attr::$url,)* $(Attr::$css,)* $(Attr::$q,)*];

            /// The attribute's name.
            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(Attr::$url => $url_name,)*
                    $(Attr::$css => $css_name,)*
                    $(Attr::$q => $q_name,)*
                }
            }

            /// The attribute called `name`, if the rules read it.
            #[inline]
            pub(crate) fn from_local(name: LocalName) -> Option<Attr> {
                match name {
                    $(LocalName::$url => Some(Attr::$url),)*
                    $(LocalName::$css => Some(Attr::$css),)*
                    $(LocalName::$q => Some(Attr::$q),)*
                    _ => None,
                }
            }

            /// Whether a link can be in the value (the others only
            /// qualify links: a `type`, a `rel`, …).
            pub(crate) fn can_hold_link(self) -> bool {
                matches!(self, $(Attr::$url)|* $(| Attr::$css)*)
            }
        }

        /// The attributes whose value is a URL or holds URLs (besides
        /// `style`, whose CSS may).
        pub const LINK_ATTRIBUTES: &[&str] = &[$($url_name),*];
    };
}

read_attributes! {
    urls: Href = "href", XlinkHref = "xlink:href", Src = "src", Srcset = "srcset",
        Poster = "poster", Action = "action", Formaction = "formaction", Data = "data",
        Cite = "cite", Ping = "ping", Content = "content";
    css: Style = "style";
    qualifiers: Type = "type", Rel = "rel", Hreflang = "hreflang", As = "as",
        HttpEquiv = "http-equiv", Charset = "charset", Name = "name", Property = "property";
}

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
    links_of(
        element,
        svg,
        |a| attr(a.name()),
        |a, kind, v| emit(a.name(), kind, v),
    );
}

/// [`element_links`] with attributes named by [`Attr`].
pub(crate) fn links_of<'v>(
    element: &str,
    svg: bool,
    attr: impl Fn(Attr) -> Option<&'v str>,
    mut emit: impl FnMut(Attr, LinkKind, Cow<'v, str>),
) {
    use Attr as A;
    let mut one = |name: Attr, kind: LinkKind| {
        if let Some(v) = attr(name) {
            emit(name, kind, Cow::Borrowed(v.trim_ascii()));
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
            one(A::Href, kind);
            one(A::XlinkHref, kind);
        }
    } else {
        use LinkKind as K;
        match element {
            "a" | "area" => one(A::Href, K::Hyperlink),
            "link" => one(A::Href, K::Link),
            "img" => one(A::Src, K::Image),
            "source" | "audio" | "video" | "track" => one(A::Src, K::Media),
            "iframe" | "frame" => one(A::Src, K::Frame),
            "embed" => one(A::Src, K::Embed),
            "object" => one(A::Data, K::Embed),
            "script" => one(A::Src, K::Script),
            "form" => one(A::Action, K::Form),
            "button" => one(A::Formaction, K::Form),
            "input" => {
                if attr(A::Type).is_some_and(|t| t.eq_ignore_ascii_case("image")) {
                    one(A::Src, K::Image);
                }
                one(A::Formaction, K::Form);
            }
            "blockquote" | "q" | "del" | "ins" => one(A::Cite, K::Citation),
            _ => {}
        }
        if element == "video" {
            one(A::Poster, K::Image);
        }
        if matches!(element, "img" | "source")
            && let Some(v) = attr(A::Srcset)
        {
            for u in srcset_urls(v) {
                emit(A::Srcset, K::Image, Cow::Borrowed(u));
            }
        }
        if matches!(element, "a" | "area")
            && let Some(v) = attr(A::Ping)
        {
            for u in v.split_ascii_whitespace() {
                emit(A::Ping, K::Ping, Cow::Borrowed(u));
            }
        }
        if element == "meta"
            && let Some(c) = attr(A::Content)
        {
            if attr(A::HttpEquiv).is_some_and(|h| h.eq_ignore_ascii_case("refresh")) {
                if let Some((_, Some(u))) = parse_refresh(c) {
                    emit(A::Content, K::Refresh, Cow::Borrowed(u.trim_ascii()));
                }
            } else if names_url(attr(A::Name), attr(A::Property), c) {
                emit(A::Content, K::Meta, Cow::Borrowed(c.trim_ascii()));
            }
        }
    }
    if let Some(v) = attr(A::Style) {
        for u in css_urls(v) {
            emit(A::Style, LinkKind::Style, trim_cow(u));
        }
    }
}

/// The attribute name reported for the links of a `<style>` element's text.
pub(crate) const STYLE_TEXT: &str = "#text";

/// The CSS URLs of a `<style>` element's text (attribute name `#text`).
pub fn style_text_links<'v>(
    text: &'v str,
    mut emit: impl FnMut(&'static str, LinkKind, Cow<'v, str>),
) {
    for u in css_urls(text) {
        emit(STYLE_TEXT, LinkKind::Style, trim_cow(u));
    }
}

/// `c` without leading and trailing ASCII whitespace.
fn trim_cow(c: Cow<'_, str>) -> Cow<'_, str> {
    match c {
        Cow::Borrowed(b) => Cow::Borrowed(b.trim_ascii()),
        Cow::Owned(o) => {
            let s = o.trim_ascii();
            if s.len() == o.len() {
                Cow::Owned(o)
            } else {
                Cow::Owned(s.to_owned())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attribute_is_interned_under_its_name() {
        for &a in Attr::ALL {
            let local = LocalName::from_lowercase(a.name().as_bytes())
                .unwrap_or_else(|| panic!("{} is not interned", a.name()));
            assert_eq!(Attr::from_local(local), Some(a));
            let in_list = LINK_ATTRIBUTES.contains(&a.name());
            assert_eq!(a.can_hold_link(), in_list || a == Attr::Style, "{a:?}");
        }
        assert_eq!(Attr::from_local(LocalName::Class), None);
    }
}
