//! [`Url`]: one buffer holding the serialized URL, plus `u32` offsets of its
//! components (the url_aggregator idea of Ada), and its getters.
//!
//! Every getter is a slice of the buffer between two offsets; the layout
//! and the invariants the getters rely on are in `components.rs`
//! ([`Url::check_invariants`] checks them).

use crate::components::{Components, NONE};
use crate::error::ParseError;
use crate::host::HostKind;
use crate::origin::Origin;
use crate::parser::{self, ParseOptions};
use crate::record::Record;
use crate::scheme::SchemeType;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::str::FromStr;

/// The getters of a URL held as a serialization (`self.serialization`, a
/// `str` behind any pointer) and its [`Components`] (`self.components`):
/// the same code for [`Url`] and [`UrlBuf`](crate::UrlBuf).
macro_rules! url_getters {
    () => {
        #[inline]
        fn slice(&self, start: u32, end: u32) -> &str {
            &self.serialization[start as usize..end as usize]
        }

        #[inline]
        fn len(&self) -> u32 {
            self.serialization.len() as u32
        }

        /// The end of the path (start of query, fragment or the buffer end).
        #[inline]
        fn path_end(&self) -> u32 {
            if self.components.query_start != NONE {
                self.components.query_start
            } else if self.components.fragment_start != NONE {
                self.components.fragment_start
            } else {
                self.len()
            }
        }

        /// The serialization (`href`).
        #[inline]
        pub fn href(&self) -> &str {
            &self.serialization
        }

        /// The serialization; same as [`Url::href`].
        #[inline]
        pub fn as_str(&self) -> &str {
            &self.serialization
        }

        /// The serialization without the fragment (the serializer's *exclude
        /// fragment*).
        pub fn href_without_fragment(&self) -> &str {
            let end = if self.components.fragment_start != NONE {
                self.components.fragment_start
            } else {
                self.len()
            };
            self.slice(0, end)
        }

        /// The scheme, without `:`.
        #[inline]
        pub fn scheme(&self) -> &str {
            self.slice(0, self.components.scheme_end)
        }

        /// The scheme class (special schemes get their own variant).
        #[inline]
        pub fn scheme_type(&self) -> SchemeType {
            self.components.scheme_type
        }

        /// Whether the scheme is special.
        #[inline]
        pub fn is_special(&self) -> bool {
            self.components.scheme_type.is_special()
        }

        /// The scheme followed by `:` (the `protocol` getter).
        #[inline]
        pub fn protocol(&self) -> &str {
            self.slice(0, self.components.scheme_end + 1)
        }

        /// Whether the host is non-null.
        #[inline]
        pub fn has_host(&self) -> bool {
            self.components.host_kind != HostKind::None
        }

        /// The kind of host.
        #[inline]
        pub fn host_kind(&self) -> HostKind {
            self.components.host_kind
        }

        /// The username, percent-encoded as stored.
        pub fn username(&self) -> &str {
            if self.components.host_start > self.components.scheme_end + 3 {
                self.slice(self.components.scheme_end + 3, self.components.username_end)
            } else {
                ""
            }
        }

        /// The password, percent-encoded as stored.
        pub fn password(&self) -> &str {
            if self.components.host_start > self.components.scheme_end + 3
                && self.serialization.as_bytes()[self.components.username_end as usize] == b':'
            {
                self.slice(
                    self.components.username_end + 1,
                    self.components.host_start - 1,
                )
            } else {
                ""
            }
        }

        /// Whether the URL includes credentials.
        pub fn has_credentials(&self) -> bool {
            self.components.host_start > self.components.scheme_end + 3
        }

        /// The serialized host, with `:port` if there is a port (the `host` getter).
        pub fn host(&self) -> &str {
            if self.has_host() {
                self.slice(self.components.host_start, self.components.path_start)
            } else {
                ""
            }
        }

        /// The serialized host (the `hostname` getter); empty for a null host.
        #[inline]
        pub fn hostname(&self) -> &str {
            self.slice(self.components.host_start, self.components.host_end)
        }

        /// The port as written (the `port` getter); empty when null.
        pub fn port(&self) -> &str {
            if self.has_host() && self.components.host_end < self.components.path_start {
                self.slice(self.components.host_end + 1, self.components.path_start)
            } else {
                ""
            }
        }

        /// The port number, when non-null (never the scheme's default).
        pub fn port_number(&self) -> Option<u16> {
            let p = self.port();
            if p.is_empty() {
                None
            } else {
                // Invariant: a stored port is the decimal serialization of a u16.
                p.parse().ok()
            }
        }

        /// The port, or the special scheme's default port.
        pub fn port_or_known_default(&self) -> Option<u16> {
            self.port_number()
                .or(self.components.scheme_type.default_port())
        }

        /// Whether the path is opaque (a string rather than a list of segments,
        /// as in `mailto:x@y`).
        #[inline]
        pub fn has_opaque_path(&self) -> bool {
            !self.has_host()
                && self
                    .serialization
                    .as_bytes()
                    .get(self.components.path_start as usize)
                    != Some(&b'/')
        }

        /// The path serialization (the `pathname` getter).
        #[inline]
        pub fn pathname(&self) -> &str {
            self.slice(self.components.path_start, self.path_end())
        }

        /// The path segments of a list path (`None` for an opaque path).
        pub fn path_segments(&self) -> Option<std::str::Split<'_, char>> {
            if self.has_opaque_path() {
                None
            } else {
                Some(self.pathname()[1..].split('/'))
            }
        }

        /// The query without `?`; `None` when null (which differs from empty).
        pub fn query(&self) -> Option<&str> {
            if self.components.query_start == NONE {
                return None;
            }
            let end = if self.components.fragment_start != NONE {
                self.components.fragment_start
            } else {
                self.len()
            };
            Some(self.slice(self.components.query_start + 1, end))
        }

        /// The fragment without `#`; `None` when null.
        pub fn fragment(&self) -> Option<&str> {
            if self.components.fragment_start == NONE {
                None
            } else {
                Some(self.slice(self.components.fragment_start + 1, self.len()))
            }
        }

        /// `?` + query, or empty when the query is null or empty (the `search`
        /// getter).
        pub fn search(&self) -> &str {
            match self.query() {
                Some(q) if !q.is_empty() => self.slice(
                    self.components.query_start,
                    self.components.query_start + 1 + q.len() as u32,
                ),
                _ => "",
            }
        }

        /// `#` + fragment, or empty when the fragment is null or empty (the
        /// `hash` getter).
        pub fn hash(&self) -> &str {
            match self.fragment() {
                Some(f) if !f.is_empty() => self.slice(self.components.fragment_start, self.len()),
                _ => "",
            }
        }
    };
}
pub(crate) use url_getters;

/// A parsed URL (a URL record of the WHATWG URL Standard).
///
/// ```
/// use spinneret_url::Url;
/// let url = Url::parse("HTTPS://User@Example.COM:443/a/./b/../c?q#f").unwrap();
/// assert_eq!(url.href(), "https://User@example.com/a/c?q#f");
/// assert_eq!(url.hostname(), "example.com");
/// assert_eq!(url.pathname(), "/a/c");
/// let link = Url::parse_with_base("../d?x=1", &url).unwrap();
/// assert_eq!(link.href(), "https://User@example.com/d?x=1");
/// ```
#[derive(Clone)]
pub struct Url {
    serialization: Box<str>,
    components: Components,
}

impl Url {
    /// The URL with this serialization and these components — the one way
    /// a `Url` is made (by the URL serializer and by the fast paths). In
    /// debug builds it checks [`Url::check_invariants`].
    #[inline]
    pub(crate) fn from_components(
        serialization: impl Into<Box<str>>,
        components: Components,
    ) -> Url {
        let url = Url {
            serialization: serialization.into(),
            components,
        };
        debug_assert_eq!(url.check_invariants(), Ok(()));
        url
    }

    /// The serialization, taken out.
    pub(crate) fn into_serialization(self) -> Box<str> {
        self.serialization
    }

    /// The component offsets and tags.
    #[inline]
    pub(crate) fn components(&self) -> Components {
        self.components
    }

    /// Parses an absolute URL string (the URL parser without a base).
    pub fn parse(input: &str) -> Result<Url, ParseError> {
        parser::parse(input, None, None, &mut crate::report::Reporter::off())
    }

    /// Parses `input` against an already-parsed base URL — the crawler's
    /// case of many links resolved against one page URL.
    pub fn parse_with_base(input: &str, base: &Url) -> Result<Url, ParseError> {
        parser::parse(input, Some(base), None, &mut crate::report::Reporter::off())
    }

    /// Options for parsing: base, document encoding, error reporting.
    pub fn options<'a>() -> ParseOptions<'a> {
        ParseOptions::default()
    }

    /// Whether `input` parses (against `base`, itself parsed first), like
    /// the standard's `URL.canParse`.
    pub fn can_parse(input: &str, base: Option<&str>) -> bool {
        let base = match base.map(Url::parse) {
            Some(Ok(b)) => Some(b),
            Some(Err(_)) => return false,
            None => None,
        };
        // The fast paths decide most inputs without allocating.
        crate::fast_path::plan(input, base.as_ref()).is_some()
            || parser::parse(
                input,
                base.as_ref(),
                None,
                &mut crate::report::Reporter::off(),
            )
            .is_ok()
    }

    url_getters!();

    /// The URL's origin.
    pub fn origin(&self) -> Origin {
        Origin::of(self)
    }

    /// Whether `input` (against `base`) is handled by a fast path rather
    /// than the state machine. For tests and benchmarks.
    #[doc(hidden)]
    pub fn takes_fast_path(input: &str, base: Option<&Url>) -> bool {
        crate::fast_path::plan(input, base).is_some()
    }

    /// The components as offsets, for tests and debugging.
    #[doc(hidden)]
    pub fn offsets(&self) -> [u32; 7] {
        [
            self.components.scheme_end,
            self.components.username_end,
            self.components.host_start,
            self.components.host_end,
            self.components.path_start,
            self.components.query_start,
            self.components.fragment_start,
        ]
    }

    pub(crate) fn to_record(&self) -> Record {
        Record::from_url(self)
    }

    /// Makes `record` this URL — unless its serialization would exceed the
    /// `u32` offsets, in which case the URL stays as it was (a setter given
    /// a multi-gigabyte value is ignored rather than corrupting offsets).
    pub(crate) fn replace_with(&mut self, record: &Record) {
        if let Ok(url) = record.to_url() {
            *self = url;
        }
    }
}

impl fmt::Display for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.serialization)
    }
}

impl fmt::Debug for Url {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Url").field(&&*self.serialization).finish()
    }
}

impl FromStr for Url {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Url, ParseError> {
        Url::parse(s)
    }
}

impl AsRef<str> for Url {
    fn as_ref(&self) -> &str {
        &self.serialization
    }
}

/// Two URLs are equal when their serializations are (URL equivalence with
/// fragments included).
impl PartialEq for Url {
    fn eq(&self, other: &Url) -> bool {
        self.serialization == other.serialization
    }
}

impl Eq for Url {}

impl Hash for Url {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.serialization.hash(state)
    }
}

impl PartialOrd for Url {
    fn partial_cmp(&self, other: &Url) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Ordered by serialization.
impl Ord for Url {
    fn cmp(&self, other: &Url) -> Ordering {
        self.serialization.cmp(&other.serialization)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Url {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.href())
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Url {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Url, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Url::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equality_hash_and_order_follow_the_serialization() {
        use std::collections::HashSet;
        let a = Url::parse("https://EXAMPLE.com/a").unwrap();
        let b: Url = "https://example.com/a".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(
            HashSet::from([a.clone()]).len(),
            HashSet::from([a.clone(), b]).len()
        );
        let c = Url::parse("https://example.com/b").unwrap();
        assert!(a < c);
        assert_eq!(a.to_string(), "https://example.com/a");
        assert_eq!(format!("{a:?}"), "Url(\"https://example.com/a\")");
    }

    #[test]
    fn getters_of_every_shape() {
        let u = Url::parse("https://u:p@h:8080/p/q?s#f").unwrap();
        assert_eq!(
            [
                u.protocol(),
                u.username(),
                u.password(),
                u.host(),
                u.hostname(),
                u.port()
            ],
            ["https:", "u", "p", "h:8080", "h", "8080"]
        );
        assert_eq!([u.pathname(), u.search(), u.hash()], ["/p/q", "?s", "#f"]);
        assert_eq!(u.port_number(), Some(8080));
        assert_eq!(u.href_without_fragment(), "https://u:p@h:8080/p/q?s");
        let e = Url::parse("sc:opaque?#").unwrap();
        assert!(e.has_opaque_path() && !e.has_host());
        assert_eq!(
            (e.query(), e.fragment(), e.search(), e.hash()),
            (Some(""), Some(""), "", "")
        );
        assert!(e.path_segments().is_none());
        let n = Url::parse("web+demo:/.//not-a-host/").unwrap();
        assert_eq!(n.pathname(), "//not-a-host/");
        assert!(!n.has_opaque_path());
        let p = Url::parse("https://:pw@h/").unwrap();
        assert_eq!((p.username(), p.password()), ("", "pw"));
        assert_eq!(
            Url::parse("http://h/").unwrap().port_or_known_default(),
            Some(80)
        );
    }

    /// The checker finds each kind of broken component: URLs built
    /// around the constructor, with one offset or tag wrong.
    #[test]
    fn check_invariants_finds_broken_components() {
        let good = Url::parse("https://u:p@example.com:8080/a/b?q#f").unwrap();
        assert_eq!(good.check_invariants(), Ok(()));
        let c = good.components;
        let broken = [
            Components {
                host_end: c.host_end + 1,
                ..c
            },
            Components {
                path_start: c.path_start - 1,
                ..c
            },
            Components {
                query_start: c.query_start + 1,
                ..c
            },
            Components {
                fragment_start: NONE,
                ..c
            },
            Components {
                username_end: c.username_end + 1,
                ..c
            },
            Components {
                scheme_type: SchemeType::Http,
                ..c
            },
            Components {
                host_kind: HostKind::Opaque,
                ..c
            },
            Components {
                host_kind: HostKind::Ipv4,
                ..c
            },
        ];
        for components in broken {
            let url = Url {
                serialization: good.serialization.clone(),
                components,
            };
            assert!(url.check_invariants().is_err(), "{components:?}");
        }
        let default_port = Url {
            serialization: "https://example.com:443/".into(),
            components: Components {
                host_end: 19,
                path_start: 23,
                ..Url::parse("https://example.com/").unwrap().components
            },
        };
        assert!(default_port.check_invariants().is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_round_trip() {
        let u = Url::parse("https://example.com/a?b#c").unwrap();
        let json = serde_json::to_string(&u).unwrap();
        assert_eq!(json, "\"https://example.com/a?b#c\"");
        let back: Url = serde_json::from_str(&json).unwrap();
        assert_eq!(back, u);
        assert!(serde_json::from_str::<Url>("\"not a url\"").is_err());
    }
}
