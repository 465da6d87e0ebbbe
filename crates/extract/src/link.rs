//! What the extractor reports: each [`Link`] with its [`LinkKind`], and the
//! page's [`Summary`] with counts by kind ([`KindCounts`]).
//!
//! Invariant: [`LinkKind::ALL`] lists every kind in declaration order, so a
//! kind's discriminant is its index there and in [`KindCounts`]; both are
//! generated from the one list in this file.

use spinneret_encoding::{Change, Determination};
use spinneret_url::{ParseError, Url};

macro_rules! link_kinds {
    ($($(#[$doc:meta])* $variant:ident => $name:literal,)*) => {
        /// What a link is for.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum LinkKind {
            $($(#[$doc])* $variant,)*
        }

        impl LinkKind {
            /// How many kinds there are.
            pub const COUNT: usize = [$($name),*].len();

            /// Every kind, in declaration order (the index of [`KindCounts`]).
            pub const ALL: [LinkKind; LinkKind::COUNT] = [$(LinkKind::$variant),*];

            /// A short lower-case name.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(LinkKind::$variant => $name,)*
                }
            }
        }
    };
}

link_kinds! {
    /// `a`/`area` `href`, SVG `a` `href`/`xlink:href`.
    Hyperlink => "hyperlink",
    /// `link` `href`.
    Link => "link",
    /// `img` `src`/`srcset`, `source` `srcset`, `video` `poster`,
    /// `input type=image` `src`, SVG `image`.
    Image => "image",
    /// `audio`/`video`/`source`/`track` `src`.
    Media => "media",
    /// `iframe`/`frame` `src`.
    Frame => "frame",
    /// `embed` `src`, `object` `data`, SVG `use`.
    Embed => "embed",
    /// `script` `src`.
    Script => "script",
    /// `form` `action`, `button`/`input` `formaction`.
    Form => "form",
    /// `blockquote`/`q`/`del`/`ins` `cite`.
    Citation => "citation",
    /// `a`/`area` `ping` (one link per URL of the list).
    Ping => "ping",
    /// `meta http-equiv=refresh` `content`.
    Refresh => "refresh",
    /// `meta` `content` naming a URL: `og:image`, `twitter:url` and the
    /// other properties and names of [`meta`](crate::meta), or a content
    /// beginning `http://`, `https://` or `//`.
    Meta => "meta",
    /// `url(…)`/`@import` in `<style>` text or a `style` attribute.
    Style => "style",
    /// The HTTP `Location` header.
    Redirect => "redirect",
    /// An HTTP `Link` header's target.
    Header => "header",
}

/// One link.
#[derive(Clone, Debug)]
pub struct Link<'a> {
    /// The element's name (lower case); empty for HTTP headers.
    pub element: &'a str,
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
    pub raw: &'a str,
    /// The URL resolved against the document base (headers: the page URL).
    pub target: Result<Url, ParseError>,
    /// `rel` of `a`/`area`/`link` (and of a `Link` header).
    pub rel: Option<&'a str>,
    /// Whether `rel` contains the token `nofollow` (ASCII case-insensitive).
    pub nofollow: bool,
    /// `hreflang` of `a`/`area`/`link`.
    pub hreflang: Option<&'a str>,
    /// `as` of `link`.
    pub as_: Option<&'a str>,
    /// For `a` `href`: the text between `<a>` and `</a>`, ASCII whitespace
    /// collapsed to single spaces and trimmed, at most
    /// [`ANCHOR_TEXT_MAX`](crate::ANCHOR_TEXT_MAX) characters.
    pub text: Option<&'a str>,
}

/// Link counts by [`LinkKind`], indexed by the kind's discriminant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KindCounts(pub [usize; LinkKind::COUNT]);

impl KindCounts {
    /// The count of one kind.
    pub fn get(&self, kind: LinkKind) -> usize {
        self.0[kind as usize]
    }

    /// Counts one more link of `kind`.
    pub(crate) fn add(&mut self, kind: LinkKind) {
        self.0[kind as usize] += 1;
    }
}

/// What [`extract`](crate::extract) found besides the links.
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_lists_every_kind_at_its_discriminant() {
        for (i, kind) in LinkKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, i, "{kind:?}");
        }
        assert_eq!(LinkKind::Header as usize + 1, LinkKind::COUNT);
    }
}
