//! [`UrlBuf`]: a URL parsed into a buffer that is kept and reused, for the
//! loops that parse millions of URLs and keep none of them (a crawler
//! resolving a page's links to filter, hash or write them).
//!
//! A [`Url`] holds its serialization in a `Box<str>` of exactly its length
//! (so a `Url` is 48 bytes): parsing one costs an allocation, a copy and,
//! when it is dropped, a free — on the common path about a fifth of the
//! instructions of a parse. A `UrlBuf` holds a `String` whose capacity it
//! keeps across parses, so once it has grown to the longest URL seen,
//! parsing on the fast paths allocates nothing.
//!
//! Invariant: a `UrlBuf` always holds a valid URL (its serialization and
//! components as a [`Url`]'s; `about:blank` when new), so its getters are
//! the `Url` getters, the same code (`url_getters!`); a failed parse leaves
//! the URL it held before.

use crate::components::{Components, NONE};
use crate::error::ParseError;
use crate::host::HostKind;
use crate::scheme::SchemeType;
use crate::url::{Url, url_getters};

/// A URL in a reusable buffer: [`UrlBuf::parse`] and
/// [`UrlBuf::parse_with_base`] replace it without allocating once the
/// buffer is large enough, and it has every getter of [`Url`].
///
/// ```
/// use spinneret_url::{Url, UrlBuf};
/// let page = Url::parse("https://example.com/dir/page.html").unwrap();
/// let mut link = UrlBuf::new();
/// let mut hosts = Vec::new();
/// for raw in ["a.html", "//cdn.example.net/x.js", "https://[::1", "../up?q=1#top"] {
///     if link.parse_with_base(raw, &page).is_ok() {
///         hosts.push(format!("{} {}", link.hostname(), link.pathname()));
///     }
/// }
/// assert_eq!(hosts, ["example.com /dir/a.html", "cdn.example.net /x.js", "example.com /up"]);
/// assert_eq!(link.href(), "https://example.com/up?q=1#top");
/// assert_eq!(link.to_url(), Url::parse("https://example.com/up?q=1#top").unwrap());
/// ```
#[derive(Clone)]
pub struct UrlBuf {
    serialization: String,
    components: Components,
}

impl UrlBuf {
    /// A buffer holding `about:blank`.
    pub fn new() -> UrlBuf {
        UrlBuf::from(Url::parse("about:blank").expect("about:blank is a URL"))
    }

    /// Parses an absolute URL string into this buffer (as [`Url::parse`]).
    /// On failure the buffer keeps the URL it held.
    pub fn parse(&mut self, input: &str) -> Result<(), ParseError> {
        self.parse_into(input, None)
    }

    /// Parses `input` against `base` into this buffer (as
    /// [`Url::parse_with_base`]). On failure the buffer keeps the URL it
    /// held.
    pub fn parse_with_base(&mut self, input: &str, base: &Url) -> Result<(), ParseError> {
        self.parse_into(input, Some(base))
    }

    fn parse_into(&mut self, input: &str, base: Option<&Url>) -> Result<(), ParseError> {
        // The fast paths write straight into the buffer; anything else is
        // parsed by the state machine and copied in.
        if let Some(plan) = crate::fast_path::plan(input, base) {
            self.components = plan.write_into(&mut self.serialization);
            debug_assert_eq!(self.to_url().check_invariants(), Ok(()));
            return Ok(());
        }
        let url = match base {
            Some(base) => Url::parse_with_base(input, base)?,
            None => Url::parse(input)?,
        };
        self.serialization.clear();
        self.serialization.push_str(url.href());
        self.components = url.components();
        Ok(())
    }

    /// The URL, as an owned [`Url`] (one allocation).
    pub fn to_url(&self) -> Url {
        Url::from_components(self.serialization.as_str(), self.components)
    }

    url_getters!();
}

impl Default for UrlBuf {
    /// A buffer holding `about:blank`.
    fn default() -> UrlBuf {
        UrlBuf::new()
    }
}

impl From<Url> for UrlBuf {
    /// The URL's buffer, taken over (no copy).
    fn from(url: Url) -> UrlBuf {
        let components = url.components();
        UrlBuf {
            serialization: url.into_serialization().into_string(),
            components,
        }
    }
}

impl std::fmt::Display for UrlBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.href())
    }
}

impl std::fmt::Debug for UrlBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("UrlBuf").field(&self.href()).finish()
    }
}

impl PartialEq for UrlBuf {
    fn eq(&self, other: &UrlBuf) -> bool {
        self.href() == other.href()
    }
}

impl Eq for UrlBuf {}

impl PartialEq<Url> for UrlBuf {
    fn eq(&self, other: &Url) -> bool {
        self.href() == other.href()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every getter of a `UrlBuf` equals the `Url`'s, over parses that
    /// take the fast paths, the state machine, and fail.
    #[test]
    fn getters_equal_the_urls() {
        let base = Url::parse("https://user:pw@example.com:8080/a/b?q#f").unwrap();
        let mut buf = UrlBuf::new();
        assert_eq!(buf.href(), "about:blank");
        let inputs = [
            "c/d",
            "//h.example/x?y#z",
            "?only",
            "#frag",
            "",
            "HTTP://EXAMPLE.ORG/../A/%7e?%41#x",
            "mailto:someone@example.com",
            "file:///C:/dir/../x",
            "http://[::1]:81/",
            "https://xn--nxasmq6b.example/\u{1F600}",
            "http://a b/",
            "javascript:void(0)",
        ];
        for input in inputs {
            let url = Url::parse_with_base(input, &base);
            let before = buf.href().to_owned();
            let got = buf.parse_with_base(input, &base);
            assert_eq!(got.is_ok(), url.is_ok(), "{input}");
            let Ok(url) = url else {
                assert_eq!(buf.href(), before, "{input}: a failure changed the buffer");
                continue;
            };
            assert_eq!(buf.to_url(), url);
            assert_eq!(buf.offsets_of(), url.offsets(), "{input}");
            let pairs = [
                (buf.href(), url.href()),
                (buf.href_without_fragment(), url.href_without_fragment()),
                (buf.scheme(), url.scheme()),
                (buf.protocol(), url.protocol()),
                (buf.username(), url.username()),
                (buf.password(), url.password()),
                (buf.host(), url.host()),
                (buf.hostname(), url.hostname()),
                (buf.port(), url.port()),
                (buf.pathname(), url.pathname()),
                (buf.search(), url.search()),
                (buf.hash(), url.hash()),
            ];
            for (a, b) in pairs {
                assert_eq!(a, b, "{input}");
            }
            assert_eq!(buf.query(), url.query());
            assert_eq!(buf.fragment(), url.fragment());
            assert_eq!(buf.port_or_known_default(), url.port_or_known_default());
            assert_eq!(buf.has_opaque_path(), url.has_opaque_path());
            assert_eq!(buf.host_kind(), url.host_kind());
            assert_eq!(buf.scheme_type(), url.scheme_type());
            assert_eq!(buf.has_credentials(), url.has_credentials());
            assert_eq!(
                buf.path_segments().map(Iterator::collect::<Vec<_>>),
                url.path_segments().map(Iterator::collect::<Vec<_>>)
            );
        }
        assert!(buf.parse("not a url").is_err());
        buf.parse("https://example.net/").unwrap();
        assert_eq!(buf, Url::parse("https://example.net").unwrap());
    }

    /// Once the buffer has room, the fast paths reuse it.
    #[test]
    fn the_buffer_is_reused() {
        let mut buf = UrlBuf::new();
        buf.parse("https://example.com/a/long/enough/path/to/grow/the/buffer")
            .unwrap();
        let ptr = buf.href().as_ptr();
        for input in ["https://example.com/", "https://a.example/b?c#d"] {
            assert!(Url::takes_fast_path(input, None));
            buf.parse(input).unwrap();
            assert_eq!(buf.href().as_ptr(), ptr);
        }
    }

    impl UrlBuf {
        fn offsets_of(&self) -> [u32; 7] {
            self.to_url().offsets()
        }
    }
}
