//! `<meta>` elements whose `content` is a URL: the Open Graph and Twitter
//! card images and URLs, Windows tile and app URLs, and any `content` that
//! begins like an absolute URL.
//!
//! The rule is Common Crawl's (cc-pyspark's `ExtractLinksJob`, which its
//! host graph uses over a WAT's `Head.Metas`), so a graph built from a WARC
//! and one built from its WAT count the same `<meta>` targets: a `property`
//! from [`URL_PROPERTIES`], a `name` from [`URL_NAMES`] (both compared
//! exactly, as cc-pyspark does), or a `content` matching
//! `^(?:https?:)?//` (ASCII case-insensitive, after leading whitespace).

/// The `property` values whose `content` is a URL.
pub const URL_PROPERTIES: [&str; 8] = [
    "og:url",
    "og:image",
    "og:image:secure_url",
    "og:video",
    "og:video:url",
    "og:video:secure_url",
    "twitter:url",
    "twitter:image:src",
];

/// The `name` values whose `content` is a URL.
pub const URL_NAMES: [&str; 6] = [
    "twitter:image",
    "thumbnail",
    "application-url",
    "msapplication-starturl",
    "msapplication-TileImage",
    "vb_meta_bburl",
];

/// Whether a `<meta>` with these attributes names a URL in its `content`.
///
/// ```
/// use spinneret_extract::meta::names_url;
///
/// assert!(names_url(None, Some("og:image"), "/logo.png"));
/// assert!(names_url(Some("msapplication-TileImage"), None, "tile.png"));
/// assert!(names_url(Some("author"), None, "//example.com/me"));
/// assert!(!names_url(Some("description"), None, "A page about http://"));
/// assert!(!names_url(None, Some("OG:IMAGE"), "logo.png")); // compared exactly
/// ```
pub fn names_url(name: Option<&str>, property: Option<&str>, content: &str) -> bool {
    property.is_some_and(|p| URL_PROPERTIES.contains(&p))
        || name.is_some_and(|n| URL_NAMES.contains(&n))
        || starts_like_url(content)
}

/// `^(?:https?:)?//`, ASCII case-insensitive, after leading whitespace.
fn starts_like_url(content: &str) -> bool {
    let s = content.trim_start();
    let starts = |p: &str| s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
    starts("//") || starts("http://") || starts("https://")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_that_begins_like_a_url() {
        for yes in [
            "//cdn.example/x",
            "HTTP://a.example",
            " https://a.example/",
            "Https://x",
        ] {
            assert!(starts_like_url(yes), "{yes}");
        }
        for no in [
            "",
            "/",
            "/x",
            "ftp://a",
            "http:/a",
            "httpx://a",
            "mailto:a@b",
            "é//",
        ] {
            assert!(!starts_like_url(no), "{no}");
        }
    }
}
