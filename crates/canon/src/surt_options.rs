//! Every option of the PyPI `surt` package (0.3.1) over our Internet
//! Archive engine: [`surt_with`] is `surt.surt(url, canonicalizer,
//! **options)`, written from a reading of that package's algorithm.
//!
//! ```
//! use spinneret_canon::surt::{SurtCanonicalizer, SurtOptions, surt_with};
//!
//! let url = b"http://www.Example.com/A/?b=1&a=2#x";
//! let defaults = SurtOptions::default();
//! let key = |c, o| String::from_utf8(surt_with(url, c, o)).unwrap();
//! assert_eq!(key(&SurtCanonicalizer::Default, &defaults), "com,example)/a?a=2&b=1");
//! let o = SurtOptions {
//!     with_scheme: true,
//!     trailing_comma: true,
//!     host_massage: false,
//!     ..defaults
//! };
//! assert_eq!(key(&SurtCanonicalizer::Default, &o), "http://(com,example,www,)/a?a=2&b=1");
//! assert_eq!(key(&SurtCanonicalizer::Identity, &defaults), "com,example,www)/A/?b=1&a=2#x");
//! ```
//!
//! The pipeline: split the URL (our lenient splitter, as the default
//! engine), run the canonicalizer's steps in order — Google's (Safe
//! Browsing: unescape, host and path normalization, escape; drops the
//! fragment) and IA's (the options `host_*` to `query_*`) — then write the
//! key (the options `surt`, `public_suffix`, `reverse_ipaddr`,
//! `trailing_comma`, `with_scheme`). With [`SurtCanonicalizer::Default`]
//! and [`SurtOptions::default()`] the result is [`crate::surt::ia_canonicalize`]'s
//! SURT byte for byte: that function is this pipeline with those choices.
//!
//! Where the package's code and its option names disagree, the package's
//! behaviour is kept (so that keys match it): `hash_strip`,
//! `auth_strip_user` and `auth_strip_pass` are accepted and change
//! nothing (its IA canonicalizer never reads `hash_strip`, and its parser
//! never keeps a userinfo for the others to strip; so under the `ia` or
//! `identity` canonicalizer a fragment stays in the key), and an empty
//! query's `?` stays only when it ends the URL and `query_strip_empty` is
//! off. `public_suffix` replaces the host by its registrable domain under
//! the Public Suffix List's ICANN section (tldextract's default, which the
//! package calls), or drops the host when it has none (an IP address, a
//! public suffix, an unknown TLD), as the package writes such a key.
//!
//! One option is ours, off by default: `query_keep_escaped_delimiters`
//! fixes the package's known failure (its test `test_surt_query`) behind
//! an option, since the default key must stay the Internet Archive's.
//!
//! Where our engine differs from the package whatever the options (these
//! are the default engine's choices, which these options do not change):
//! URLs without an authority (`mailto:`, `data:`) are their own key, in
//! Safe Browsing form when a Google step runs and as written otherwise
//! (the package lower-cases and sorts them as if they were paths); an
//! empty host is written as one (`)/?q`; the package writes `http:/?q`);
//! a host that Google's step empties is read back from the path (`../a/b`
//! has the key `a)/b`; the package writes `http:/a/b`); Google's path
//! step drops a `..` above the root and keeps the `/` of a final `.`
//! segment, as RFC 3986 (the package does neither); the port is kept as
//! written (the package reads an int, or raises ValueError); a backslash
//! ends the host; `name:digits` without a scheme is a host and a port;
//! IPv6 keeps its brackets; a host whose unescaping gives a delimiter or
//! a space stays escaped (the package writes it raw, or punycodes it);
//! digits alone are an IPv4 address as the URL Standard reads them (the
//! package: decimal, modulo 2^32); spaces alone give `-` (the package
//! raises). `crates/python/tests/test_surt_package.py` runs the package
//! itself over the corpus and asserts each of these differences exactly.

use std::fmt;
use std::str::FromStr;

use crate::lenient::{self, RawUrl};
use crate::percent::{escape_at, push_escape};
use crate::safebrowsing::{self, parse_ipv4};
use crate::surt::{
    alpha_reorder_query_bytes, massage_host_bytes, strip_path_session_id_bytes,
    strip_query_session_id_bytes,
};

/// The options of `surt.surt` (the package's names, meanings and
/// defaults; see the module doc for the three that change nothing), and
/// one of ours.
///
/// [`crate::surt::surt`], the SURT of a URL as written, reads only
/// `with_scheme` and `trailing_comma`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SurtOptions {
    /// Write the key with its scheme, as written (`HTTP://` stays so, as in
    /// the package): `http://(com,example)/` instead of `com,example)/`.
    /// Default off.
    pub with_scheme: bool,
    /// End the host with a comma (`com,example,)`), as Heritrix does.
    /// Default off.
    pub trailing_comma: bool,
    /// Reverse an IPv4 address's parts too (`4,3,2,1)`); off keeps a
    /// dotted quad of 1–3 digit parts as is. Default on.
    pub reverse_ipaddr: bool,
    /// Replace the host by its registrable domain (Public Suffix List,
    /// ICANN section); a host without one is dropped. Default off.
    pub public_suffix: bool,
    /// Write a SURT (reversed host, `)` after it); off writes the
    /// canonical URL (`example.com/a`). Default on.
    pub surt: bool,
    /// IA: lower-case the host. Default on.
    pub host_lowercase: bool,
    /// IA: strip a leading `www` or `wwwN` label. Default on.
    pub host_massage: bool,
    /// IA: strip the userinfo (accepted; changes nothing, see the module doc).
    pub auth_strip_user: bool,
    /// IA: strip the password (accepted; changes nothing, see the module doc).
    pub auth_strip_pass: bool,
    /// IA: drop `:80` from `http` and `:443` from `https`. Default on.
    pub port_strip_default: bool,
    /// IA: drop a path that is just `/` (`com,example)`). Default off.
    pub path_strip_empty: bool,
    /// IA: lower-case the path. Default on.
    pub path_lowercase: bool,
    /// IA: remove an ASP.NET cookieless session segment. Default on.
    pub path_strip_session_id: bool,
    /// IA: remove one trailing `/` unless the path is `/`. Default on.
    pub path_strip_trailing_slash_unless_empty: bool,
    /// IA: lower-case the query. Default on.
    pub query_lowercase: bool,
    /// IA: remove query session ids (`jsessionid`, `phpsessid`, `sid`,
    /// `aspsessionid…`, `cfid`+`cftoken`). Default on.
    pub query_strip_session_id: bool,
    /// IA: drop a query left empty, and an empty query's `?`. Default on.
    pub query_strip_empty: bool,
    /// IA: sort the query's parameters by (name, value). Default on.
    pub query_alpha_reorder: bool,
    /// IA: strip the fragment (accepted; changes nothing, see the module doc).
    pub hash_strip: bool,
    /// Ours, not the package's (default off, the package's and the Internet
    /// Archive's key): Google's step keeps the escapes of `&`, `=` and `+`
    /// in the query, so that `type=a+b+%26+c` stays one parameter (the
    /// package's own test `test_surt_query` expects this and is marked as a
    /// known failure: the package unescapes `%26`).
    pub query_keep_escaped_delimiters: bool,
}

impl Default for SurtOptions {
    fn default() -> SurtOptions {
        SurtOptions {
            with_scheme: false,
            trailing_comma: false,
            reverse_ipaddr: true,
            public_suffix: false,
            surt: true,
            host_lowercase: true,
            host_massage: true,
            auth_strip_user: true,
            auth_strip_pass: true,
            port_strip_default: true,
            path_strip_empty: false,
            path_lowercase: true,
            path_strip_session_id: true,
            path_strip_trailing_slash_unless_empty: true,
            query_lowercase: true,
            query_strip_session_id: true,
            query_strip_empty: true,
            query_alpha_reorder: true,
            hash_strip: true,
            query_keep_escaped_delimiters: false,
        }
    }
}

/// An unknown option or canonicalizer name, or a value that is not a boolean.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SurtOptionError {
    /// No option has this name.
    #[error("unknown surt option {0:?} (options: {names})", names = SurtOptions::NAMES.join(", "))]
    UnknownOption(String),
    /// No canonicalizer has this name.
    #[error(
        "unknown surt canonicalizer {0:?} (default, google, ia, identity, or a comma-separated list)"
    )]
    UnknownCanonicalizer(String),
    /// `NAME=VALUE` whose value is not a boolean.
    #[error("surt option {name:?}: {value:?} is not a boolean (true/false, 1/0, yes/no, on/off)")]
    NotABoolean {
        /// The option.
        name: String,
        /// What was given.
        value: String,
    },
}

impl SurtOptions {
    /// Every option's name: the package's, output options first, then ours.
    pub const NAMES: [&'static str; 20] = [
        "with_scheme",
        "trailing_comma",
        "reverse_ipaddr",
        "public_suffix",
        "surt",
        "host_lowercase",
        "host_massage",
        "auth_strip_user",
        "auth_strip_pass",
        "port_strip_default",
        "path_strip_empty",
        "path_lowercase",
        "path_strip_session_id",
        "path_strip_trailing_slash_unless_empty",
        "query_lowercase",
        "query_strip_session_id",
        "query_strip_empty",
        "query_alpha_reorder",
        "hash_strip",
        "query_keep_escaped_delimiters",
    ];

    fn field(&mut self, name: &str) -> Option<&mut bool> {
        Some(match name {
            "with_scheme" => &mut self.with_scheme,
            "trailing_comma" => &mut self.trailing_comma,
            "reverse_ipaddr" => &mut self.reverse_ipaddr,
            "public_suffix" => &mut self.public_suffix,
            "surt" => &mut self.surt,
            "host_lowercase" => &mut self.host_lowercase,
            "host_massage" => &mut self.host_massage,
            "auth_strip_user" => &mut self.auth_strip_user,
            "auth_strip_pass" => &mut self.auth_strip_pass,
            "port_strip_default" => &mut self.port_strip_default,
            "path_strip_empty" => &mut self.path_strip_empty,
            "path_lowercase" => &mut self.path_lowercase,
            "path_strip_session_id" => &mut self.path_strip_session_id,
            "path_strip_trailing_slash_unless_empty" => {
                &mut self.path_strip_trailing_slash_unless_empty
            }
            "query_lowercase" => &mut self.query_lowercase,
            "query_strip_session_id" => &mut self.query_strip_session_id,
            "query_strip_empty" => &mut self.query_strip_empty,
            "query_alpha_reorder" => &mut self.query_alpha_reorder,
            "hash_strip" => &mut self.hash_strip,
            "query_keep_escaped_delimiters" => &mut self.query_keep_escaped_delimiters,
            _ => return None,
        })
    }

    /// Sets the option `name`.
    pub fn set(&mut self, name: &str, value: bool) -> Result<(), SurtOptionError> {
        let f = self
            .field(name)
            .ok_or_else(|| SurtOptionError::UnknownOption(name.to_owned()))?;
        *f = value;
        Ok(())
    }

    /// The option `name`'s value.
    pub fn get(&self, name: &str) -> Option<bool> {
        self.clone().field(name).map(|f| *f)
    }

    /// Sets an option from `NAME=VALUE` (`true`/`false`, `1`/`0`,
    /// `yes`/`no`, `on`/`off`; a bare `NAME` means true).
    pub fn set_assignment(&mut self, assignment: &str) -> Result<(), SurtOptionError> {
        let (name, value) = assignment.split_once('=').unwrap_or((assignment, "true"));
        let name = name.trim();
        let v = match value.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" | "on" => true,
            "false" | "0" | "no" | "off" => false,
            _ => {
                // An unknown name is the better message when both are wrong.
                self.get(name)
                    .ok_or_else(|| SurtOptionError::UnknownOption(name.to_owned()))?;
                return Err(SurtOptionError::NotABoolean {
                    name: name.to_owned(),
                    value: value.to_owned(),
                });
            }
        };
        self.set(name, v)
    }
}

/// The canonicalizer before the key is written (`surt.surt`'s
/// `canonicalizer` argument).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SurtCanonicalizer {
    /// The package's default, `DefaultIAURLCanonicalizer`: Google's then IA's.
    #[default]
    Default,
    /// Google's alone (`GoogleURLCanonicalizer`: Safe Browsing).
    Google,
    /// IA's alone (`IAURLCanonicalizer`: the `host_*` … `query_*` options).
    Ia,
    /// None: the URL as split (the package's `lambda url, **o: url`).
    Identity,
    /// These, in order (the package's list of canonicalizers).
    Chain(Vec<SurtCanonicalizer>),
}

/// One canonicalization step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    Google,
    Ia,
}

impl SurtCanonicalizer {
    /// The names [`SurtCanonicalizer::from_str`] reads (a comma-separated
    /// list of them is a [`SurtCanonicalizer::Chain`]).
    pub const NAMES: [&'static str; 4] = ["default", "google", "ia", "identity"];

    /// The canonicalizer called `name` (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Result<SurtCanonicalizer, SurtOptionError> {
        let n = name.trim();
        let c = |s: &str| n.eq_ignore_ascii_case(s);
        Ok(if c("default") {
            SurtCanonicalizer::Default
        } else if c("google") {
            SurtCanonicalizer::Google
        } else if c("ia") {
            SurtCanonicalizer::Ia
        } else if c("identity") {
            SurtCanonicalizer::Identity
        } else {
            return Err(SurtOptionError::UnknownCanonicalizer(name.to_owned()));
        })
    }

    fn push_steps(&self, out: &mut Vec<Step>) {
        match self {
            SurtCanonicalizer::Default => out.extend([Step::Google, Step::Ia]),
            SurtCanonicalizer::Google => out.push(Step::Google),
            SurtCanonicalizer::Ia => out.push(Step::Ia),
            SurtCanonicalizer::Identity => {}
            SurtCanonicalizer::Chain(list) => list.iter().for_each(|c| c.push_steps(out)),
        }
    }
}

impl FromStr for SurtCanonicalizer {
    type Err = SurtOptionError;

    /// A name, or a comma-separated list of names (a chain).
    fn from_str(s: &str) -> Result<SurtCanonicalizer, SurtOptionError> {
        if !s.contains(',') {
            return SurtCanonicalizer::from_name(s);
        }
        s.split(',')
            .map(SurtCanonicalizer::from_name)
            .collect::<Result<Vec<_>, _>>()
            .map(SurtCanonicalizer::Chain)
    }
}

impl fmt::Display for SurtCanonicalizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SurtCanonicalizer::Default => f.write_str("default"),
            SurtCanonicalizer::Google => f.write_str("google"),
            SurtCanonicalizer::Ia => f.write_str("ia"),
            SurtCanonicalizer::Identity => f.write_str("identity"),
            SurtCanonicalizer::Chain(list) => {
                for (i, c) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{c}")?;
                }
                Ok(())
            }
        }
    }
}

/// The key of `input` (any bytes) under `canonicalizer` and `options`:
/// `surt.surt(input, canonicalizer, **options)` of the `surt` package,
/// with the differences the module doc lists. Never fails. The result is
/// ASCII whenever a Google step runs; otherwise it keeps the input's other
/// bytes (valid UTF-8 in, valid UTF-8 out).
pub fn surt_with(
    input: &[u8],
    canonicalizer: &SurtCanonicalizer,
    options: &SurtOptions,
) -> Vec<u8> {
    let mut steps = Vec::with_capacity(2);
    canonicalizer.push_steps(&mut steps);
    canonicalize(input, &steps, options).key
}

/// [`surt_with`] as text (bytes that are not UTF-8 replaced by U+FFFD).
pub fn surt_string(
    input: &[u8],
    canonicalizer: &SurtCanonicalizer,
    options: &SurtOptions,
) -> String {
    match String::from_utf8(surt_with(input, canonicalizer, options)) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// A canonical URL and its key.
pub(crate) struct Keyed {
    /// `scheme://host[:port]path[?query]` (what is read back when the host
    /// is empty), or the whole text of a URL without an authority.
    pub url: Vec<u8>,
    /// The key, written as the options say.
    pub key: Vec<u8>,
    /// The URL is its own key (empty, `filedesc:`, `warcinfo:`).
    verbatim: bool,
}

/// The pipeline, with the empty-host reading: when a Google step leaves
/// the host empty (`http://../a/b`), the canonical URL (`http:///a/b`) is
/// read again, its host taken from the path, as Safe Browsing does.
pub(crate) fn canonicalize(input: &[u8], steps: &[Step], options: &SurtOptions) -> Keyed {
    let mut k = once(input, steps, options);
    if steps.contains(&Step::Google) && !k.verbatim {
        for _ in 0..safebrowsing::MAX_EMPTY_HOST_READINGS {
            match empty_host_reading(&k.url) {
                Some(again) => {
                    let again = again.to_vec();
                    k = once(&again, steps, options);
                }
                None => break,
            }
        }
    }
    k
}

/// [`safebrowsing::empty_host_reading`] on bytes: for the schemes whose
/// host our split reads after any number of slashes
/// ([`lenient::skips_slashes`]: `http`, `https`, `ftp`, `ws`, `wss`), so
/// that the canonical URL is a fixed point (`wss://:/a` would give
/// `wss:///a`, which reads back with the host `a`). `file:///x` keeps no
/// host.
fn empty_host_reading(url: &[u8]) -> Option<&[u8]> {
    let at = url.windows(3).position(|w| w == b"://")?;
    if !lenient::skips_slashes(&url[..at]) {
        return None;
    }
    let rest = &url[at + 3..];
    (rest.first() == Some(&b'/') && rest.len() > 1).then_some(url)
}

fn once(input: &[u8], steps: &[Step], options: &SurtOptions) -> Keyed {
    let google = steps.contains(&Step::Google);
    let cleaned = safebrowsing::clean(input);
    if cleaned.is_empty() {
        return Keyed {
            url: Vec::new(),
            key: b"-".to_vec(),
            verbatim: true,
        };
    }
    let lower_start =
        |p: &[u8]| cleaned.len() >= p.len() && cleaned[..p.len()].eq_ignore_ascii_case(p);
    if lower_start(b"filedesc:") || lower_start(b"warcinfo:") {
        // ARC/WARC file records: their own key, as written.
        return Keyed {
            url: cleaned.clone(),
            key: cleaned,
            verbatim: true,
        };
    }
    // `http://http://host/` → `http://host/`: repeated `http(s)://`
    // prefixes collapse to the last one.
    let mut text = &cleaned[..];
    while let Some(rest) = strip_http_prefix(text)
        && strip_http_prefix(rest).is_some()
    {
        text = rest;
    }
    let raw = lenient::split(text);
    if !raw.has_authority {
        // No host to reverse: the URL is its own key.
        let url = if google {
            safebrowsing::canonicalize(text).into_bytes()
        } else {
            text.to_vec()
        };
        return Keyed {
            key: url.clone(),
            url,
            verbatim: false,
        };
    }
    let mut p = Pieces::split(&raw, text);
    for step in steps {
        match step {
            Step::Google => p.google(options),
            Step::Ia => p.ia(options),
        }
    }
    Keyed {
        url: p.url(),
        key: p.key(options),
        verbatim: false,
    }
}

/// The rest after a leading `http://` or `https://` (ASCII case-insensitive).
pub(crate) fn strip_http_prefix(s: &[u8]) -> Option<&[u8]> {
    [&b"http://"[..], b"https://"]
        .into_iter()
        .find(|p| s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p))
        .map(|p| &s[p.len()..])
}

/// Whether the package's parser reads this URL's host from its path:
/// a scheme starting with `http` (as written; none means `http://`) whose
/// `//` authority is missing or empty (`http:/a`, `http:///a/b`, `/a`).
/// It then keeps that host's case and gives the path at least a `/`.
fn host_read_from_path(scheme: &[u8], text: &[u8]) -> bool {
    let rest = if scheme.is_empty() {
        // `http://` + text: the authority is empty when text starts with
        // `/` (and the path is then not empty).
        return text.first() == Some(&b'/');
    } else if scheme.starts_with(b"http") {
        &text[scheme.len() + 1..]
    } else {
        return false;
    };
    let ends_authority = |b: Option<&u8>| matches!(b, None | Some(b'/' | b'?' | b'#'));
    let path = match rest.strip_prefix(b"//") {
        Some(after) if !ends_authority(after.first()) => return false,
        Some(after) => after,
        None => rest,
    };
    // The path must not be empty.
    !matches!(path.first(), None | Some(b'?' | b'#'))
}

/// The pieces of a URL with an authority, as the steps edit them. An
/// empty path, query or fragment is "absent" (the package's `None`).
struct Pieces {
    /// Lower-cased by a Google step.
    scheme: Vec<u8>,
    /// The scheme as written (`http` if none): the key writes it so, as
    /// the package, whose steps never change it.
    written_scheme: Vec<u8>,
    userinfo: Option<Vec<u8>>,
    host: Vec<u8>,
    /// The Google step found an IP address (IPv4 normalized, or bracketed).
    host_is_ip: bool,
    port: Option<Vec<u8>>,
    path: Vec<u8>,
    query: Option<Vec<u8>>,
    fragment: Option<Vec<u8>>,
    /// The input ended with a `?` and has no query: the `?` is written
    /// back unless IA's `query_strip_empty` drops it.
    last_delimiter: bool,
    /// A Google step ran: a `?` that unescaping put in the path is `%3F`
    /// here (so that the URL reads back) and `?` in the key.
    google: bool,
}

impl Pieces {
    /// The pieces of `raw`, the split of `text`.
    fn split(raw: &RawUrl<'_>, text: &[u8]) -> Pieces {
        let non_empty = |s: Option<&[u8]>| s.filter(|s| !s.is_empty()).map(<[u8]>::to_vec);
        let query = non_empty(raw.query);
        let from_path = host_read_from_path(raw.scheme, text);
        let mut host = raw.host.to_vec();
        if !from_path {
            // The package's parser lower-cases the host whatever the
            // canonicalizer, as urllib's `hostname` does: up to its first
            // `%` (a zone id would follow it). Google's step lower-cases
            // all of it anyway.
            let end = host.iter().position(|&b| b == b'%').unwrap_or(host.len());
            host[..end].make_ascii_lowercase();
        }
        let mut path = Vec::with_capacity(raw.path.len() + 1);
        // A path after an authority starts with `/`: our split ends the
        // host at a backslash too (`http://a.b\c` has the path `/\c`,
        // as Google's step writes it), and a host read from the path
        // leaves at least `/`.
        if (from_path && raw.path.is_empty()) || raw.path.first().is_some_and(|&b| b != b'/') {
            path.push(b'/');
        }
        path.extend_from_slice(raw.path);
        let scheme = if raw.scheme.is_empty() {
            b"http".to_vec()
        } else {
            raw.scheme.to_vec()
        };
        Pieces {
            written_scheme: scheme.clone(),
            scheme,
            userinfo: raw.userinfo.map(<[u8]>::to_vec),
            host,
            host_is_ip: false,
            port: non_empty(raw.port),
            path,
            last_delimiter: text.ends_with(b"?") && query.is_none(),
            query,
            fragment: non_empty(raw.fragment),
            google: false,
        }
    }

    /// Google's canonicalizer (Safe Browsing), as the default engine runs
    /// it; with `query_keep_escaped_delimiters`, its query step keeps the
    /// escapes of `&`, `=` and `+`.
    fn google(&mut self, o: &SurtOptions) {
        let query = if o.query_keep_escaped_delimiters {
            self.query.take().map(|q| keep_escaped_delimiters(&q))
        } else {
            None
        };
        let raw = RawUrl {
            scheme: &self.scheme,
            has_authority: true,
            userinfo: self.userinfo.as_deref(),
            host: &self.host,
            port: self.port.as_deref(),
            path: &self.path,
            query: self.query.as_deref(),
            fragment: None,
        };
        let c = safebrowsing::canonical_parts(&raw);
        self.scheme = c.scheme;
        self.userinfo = c.userinfo;
        self.host = c.host;
        self.host_is_ip = c.host_is_ip;
        self.port = c.port;
        self.path = c.path;
        self.query = query.or(c.query).filter(|q| !q.is_empty());
        self.fragment = None;
        self.google = true;
    }

    /// IA's canonicalizer with `o`'s `host_*` … `query_*` options.
    fn ia(&mut self, o: &SurtOptions) {
        if o.host_lowercase {
            // After escaping, escapes included (`%c3`).
            self.host.make_ascii_lowercase();
        }
        // (The package skips a `dns` URL here; the default engine never has,
        // and `dns:` without `//` has no authority to massage anyway.)
        if o.host_massage && !self.host_is_ip {
            let len = self.host.len();
            massage_host_bytes(&mut self.host);
            // What is left may be an IPv4 address in another form
            // (`www.3`); after a Google step it is normalized as that step
            // would, so that the result is a fixed point.
            if self.google
                && self.host.len() != len
                && let Some(ip) = parse_ipv4(&self.host)
            {
                self.host = std::net::Ipv4Addr::from(ip).to_string().into_bytes();
            }
        }
        if o.auth_strip_user {
            self.userinfo = None;
        }
        if o.port_strip_default
            && let Some(p) = &self.port
        {
            let s = &self.scheme;
            if (s.eq_ignore_ascii_case(b"http") && p == b"80")
                || (s.eq_ignore_ascii_case(b"https") && p == b"443")
            {
                self.port = None;
            }
        }
        if o.path_strip_empty && self.path == b"/" {
            self.path.clear();
        } else {
            if o.path_lowercase {
                self.path.make_ascii_lowercase();
            }
            if o.path_strip_session_id {
                self.path = strip_path_session_id_bytes(&self.path);
            }
            if o.path_strip_empty && self.path == b"/" {
                self.path.clear();
            }
            if o.path_strip_trailing_slash_unless_empty
                && self.path.len() > 1
                && self.path.ends_with(b"/")
            {
                self.path.pop();
            }
        }
        match self.query.take() {
            Some(mut q) => {
                if o.query_strip_session_id {
                    q = strip_query_session_id_bytes(&q);
                }
                if o.query_lowercase {
                    q.make_ascii_lowercase();
                }
                if o.query_alpha_reorder {
                    q = alpha_reorder_query_bytes(&q);
                }
                if !(q.is_empty() && o.query_strip_empty) {
                    self.query = Some(q);
                }
            }
            None => self.last_delimiter &= !o.query_strip_empty,
        }
    }

    /// `scheme://host[:port]path[?query]`, `%3F` kept in the path.
    fn url(&self) -> Vec<u8> {
        let mut out =
            Vec::with_capacity(self.scheme.len() + self.host.len() + self.path.len() + 16);
        out.extend_from_slice(&self.scheme);
        out.extend_from_slice(b"://");
        out.extend_from_slice(&self.host);
        if let Some(p) = &self.port {
            out.push(b':');
            out.extend_from_slice(p);
        }
        out.extend_from_slice(&self.path);
        if let Some(q) = &self.query {
            out.push(b'?');
            out.extend_from_slice(q);
        }
        out
    }

    /// The key, as the package's `geturl_bytes` writes it.
    fn key(&self, o: &SurtOptions) -> Vec<u8> {
        // `None`: no host to write (the package then writes `scheme:`), as
        // for an empty one (`file:///x` → `file:/x`).
        let mut host: Option<Vec<u8>> = (!self.host.is_empty()).then(|| self.host.clone());
        if o.public_suffix && !self.host.is_empty() {
            host = registrable_domain(&self.host).map(<[u8]>::to_vec);
        }
        if o.surt {
            host = host.map(|h| host_to_surt(&h, o.reverse_ipaddr));
        }
        let mut out = Vec::with_capacity(self.host.len() + self.path.len() + 24);
        match &host {
            Some(h) => {
                if o.with_scheme {
                    out.extend_from_slice(&self.written_scheme);
                    out.push(b':');
                    if self.written_scheme != b"dns" {
                        out.extend_from_slice(b"//");
                    }
                    if o.surt {
                        out.push(b'(');
                    }
                }
                out.extend_from_slice(h);
                if let Some(p) = &self.port {
                    out.push(b':');
                    out.extend_from_slice(p);
                }
                if o.surt {
                    if o.trailing_comma {
                        out.push(b',');
                    }
                    out.push(b')');
                }
            }
            None => {
                out.extend_from_slice(&self.written_scheme);
                out.push(b':');
            }
        }
        if !self.path.is_empty() {
            if self.google {
                // The key has the package's raw `?` where unescaping made
                // one inside the path.
                push_unescaping_question_marks(&mut out, &self.path);
            } else {
                out.extend_from_slice(&self.path);
            }
        } else if self.query.is_some() || self.fragment.is_some() {
            out.push(b'/');
        }
        if let Some(q) = &self.query {
            out.push(b'?');
            out.extend_from_slice(q);
        }
        if let Some(f) = &self.fragment {
            out.push(b'#');
            out.extend_from_slice(f);
        }
        if self.last_delimiter {
            out.push(b'?');
        }
        out
    }
}

/// Appends `path` with each `%3F`/`%3f` written as `?`.
fn push_unescaping_question_marks(out: &mut Vec<u8>, path: &[u8]) {
    let mut i = 0;
    while i < path.len() {
        if path[i] == b'%'
            && path.get(i + 1) == Some(&b'3')
            && matches!(path.get(i + 2), Some(b'f' | b'F'))
        {
            out.push(b'?');
            i += 3;
        } else {
            out.push(path[i]);
            i += 1;
        }
    }
}

/// Google's query step (unescape repeatedly, then escape bytes up to
/// space, from DEL, `#` and `%`) except that an escape of a query
/// delimiter, `&`, `=` or `+`, stays (upper-case hex): `type=a+b+%26+c`
/// keeps its one parameter (the package's test_surt_query).
fn keep_escaped_delimiters(query: &[u8]) -> Vec<u8> {
    let kept = |s: &[u8], i: usize| escape_at(s, i).filter(|v| matches!(v, b'&' | b'=' | b'+'));
    let mut cur = query.to_vec();
    loop {
        let mut next = Vec::with_capacity(cur.len());
        let mut decoded = false;
        let mut i = 0;
        while i < cur.len() {
            match escape_at(&cur, i) {
                Some(v) if kept(&cur, i).is_none() => {
                    next.push(v);
                    decoded = true;
                    i += 3;
                }
                Some(v) => {
                    push_escape(&mut next, v);
                    i += 3;
                }
                None => {
                    next.push(cur[i]);
                    i += 1;
                }
            }
        }
        cur = next;
        if !decoded {
            break;
        }
    }
    let mut out = Vec::with_capacity(cur.len() + 8);
    let mut i = 0;
    while i < cur.len() {
        if kept(&cur, i).is_some() {
            out.extend_from_slice(&cur[i..i + 3]);
            i += 3;
            continue;
        }
        let b = cur[i];
        if b <= 0x20 || b >= 0x7F || b == b'#' || b == b'%' {
            push_escape(&mut out, b);
        } else {
            out.push(b);
        }
        i += 1;
    }
    out
}

/// The package's `hostToSURT`: labels reversed and comma-joined (a comma
/// inside a label stays); a bracketed IPv6 address as is; with
/// `reverse_ipaddr` off, a dotted quad of 1–3 digit parts as is.
fn host_to_surt(host: &[u8], reverse_ipaddr: bool) -> Vec<u8> {
    if host.first() == Some(&b'[') || (!reverse_ipaddr && is_dotted_quad(host)) {
        return host.to_vec();
    }
    let mut out = Vec::with_capacity(host.len());
    for (i, label) in host.rsplit(|&b| b == b'.').enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(label);
    }
    out
}

/// Four dot-separated parts of 1–3 ASCII digits (`990.991.992.993` too,
/// as the package's pattern).
fn is_dotted_quad(host: &[u8]) -> bool {
    let mut parts = 0;
    for part in host.split(|&b| b == b'.') {
        parts += 1;
        if part.is_empty() || part.len() > 3 || !part.iter().all(u8::is_ascii_digit) {
            return false;
        }
    }
    parts == 4
}

/// The registrable domain of `host` under the Public Suffix List's ICANN
/// section (private rules such as `github.io` are not suffixes here, as in
/// tldextract's default): the public suffix and one more label, without
/// a final dot. `None` for an IP address, a host that is a public suffix,
/// or a TLD the list does not know.
pub fn registrable_domain(host: &[u8]) -> Option<&[u8]> {
    // Without its final dots (`example.com.` gives `example.com`).
    let host = &host[..host.len() - host.iter().rev().take_while(|&&b| b == b'.').count()];
    if host.first() == Some(&b'[') || is_dotted_quad(host) && parse_ipv4(host).is_some() {
        return None;
    }
    let mut name = host;
    // The longest ICANN rule: when a private rule wins, the ICANN one is
    // shorter, and matches the private suffix less its first label.
    let suffix_len = loop {
        let s = psl::suffix(name)?;
        match s.typ() {
            Some(psl::Type::Icann) => break s.as_bytes().len(),
            Some(psl::Type::Private) => {
                let b = s.as_bytes();
                let dot = b.iter().position(|&c| c == b'.')?;
                name = &name[name.len() - (b.len() - dot - 1)..];
            }
            None => return None,
        }
    };
    if suffix_len >= host.len() {
        return None;
    }
    // The label before the suffix (`host` ends with `.suffix`).
    let before = &host[..host.len() - suffix_len - 1];
    let start = before.iter().rposition(|&c| c == b'.').map_or(0, |d| d + 1);
    (start < before.len()).then(|| &host[start..])
}
