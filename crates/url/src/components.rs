//! [`Components`]: where each part of a [`Url`]'s serialization starts and
//! ends (Ada's `url_components`), and [`Url::check_invariants`], which checks
//! that the offsets, the tags and the text agree.
//!
//! Layout of the buffer, with the offsets that delimit each part:
//!
//! ```text
//! https://user:pass@example.com:8080/path/x?query#frag
//!      |  |   |    |          |    |      |      |
//!      |  |   |    host_start |    |      |      fragment_start ('#')
//!      |  |   username_end    |    |      query_start ('?')
//!      |  |   (':' or '@')    |    path_start
//!      |  scheme_end + 3      host_end (':' of the port, or path_start)
//!      scheme_end (':')
//! ```
//!
//! Two writers build these: the URL serializer ([`Record::serialize`], for
//! the state machine and the setters) and the fast paths
//! (`fast_path::Plan`). Both hand them to [`Url::from_components`], which
//! runs [`Url::check_invariants`] under `debug_assert!`, so every constructor
//! and every setter is checked in debug builds; the property tests call it
//! explicitly (they run in release).
//!
//! The invariants every getter relies on (each is checked by
//! [`Url::check_invariants`]):
//! - the buffer is printable ASCII (`0x20..=0x7E`) and shorter than
//!   [`NONE`]; it is the URL serializer's output for the URL's own record
//!   (re-serializing gives the same text and the same components);
//! - the scheme is `buffer[..scheme_end]`, an ASCII lower-case letter then
//!   lower-case letters, digits, `+`, `-`, `.`, followed by `:`; the scheme
//!   type is its class;
//! - `scheme_end < username_end <= host_start <= host_end <= path_start <=
//!   len`; a present query starts at the end of the path with `?`, a present
//!   fragment after the path and query with `#`; absent ones are [`NONE`];
//! - with a null host, `username_end == host_start == host_end ==
//!   scheme_end + 1`, and `path_start` is after the `"/."` guard, which is
//!   there exactly when the path starts with `//`;
//! - with a host, the buffer has `//` after the scheme; credentials exist iff
//!   `host_start > scheme_end + 3`, and then the byte before `host_start` is
//!   `@`; the password is present (and non-empty) iff the byte at
//!   `username_end` is `:`;
//! - a port is present iff `host_end < path_start` (with a host): `:` at
//!   `host_end`, then the canonical decimal form of a `u16` that is not the
//!   scheme's default port; `file` URLs and empty hosts have neither port
//!   nor credentials;
//! - the host text agrees with the host kind: empty for `None`/`Empty`, a
//!   lower-case domain without forbidden domain code points, dotted-decimal
//!   IPv4, bracketed IPv6, or an opaque host without forbidden host code
//!   points; special schemes have a domain, IPv4 or IPv6 host (or, for
//!   `file`, an empty one), other schemes a null, empty, opaque or IPv6 host;
//! - the path holds no `?` or `#`; a special URL's path starts with `/` and
//!   holds no `\`; with a host the path is empty or starts with `/`; without
//!   a host, a path not starting with `/` is opaque; a list path has no `.`
//!   or `..` segment in any spelling.

use crate::fast_path::is_lower_scheme_byte;
use crate::host::{HostKind, is_forbidden_domain_code_point, is_forbidden_host_code_point};
use crate::parser::{is_double_dot_segment, is_single_dot_segment};
use crate::record::Record;
use crate::scheme::SchemeType;
use crate::url::Url;

/// Offset value meaning "this component is absent".
pub(crate) const NONE: u32 = u32::MAX;

/// The component offsets and tags of a [`Url`]: byte offsets into its
/// serialization (see the module doc for the layout and invariants).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Components {
    /// Offset of the `:` after the scheme.
    pub scheme_end: u32,
    /// End of the username (the `:` before the password, or the `@`); with
    /// no credentials, `host_start`.
    pub username_end: u32,
    /// Start of the host text.
    pub host_start: u32,
    /// End of the host text (the `:` before the port, or `path_start`).
    pub host_end: u32,
    /// Start of the path.
    pub path_start: u32,
    /// Offset of the `?` that starts the query, or [`NONE`].
    pub query_start: u32,
    /// Offset of the `#` that starts the fragment, or [`NONE`].
    pub fragment_start: u32,
    /// The scheme's class.
    pub scheme_type: SchemeType,
    /// What the host is.
    pub host_kind: HostKind,
}

impl Url {
    /// Checks every invariant of the representation (listed in the module
    /// doc of `components.rs`): the order of the component offsets, the shape
    /// of the scheme, the delimiters at each offset, the port digits between
    /// the host and the path, the host text against its kind, the path's
    /// shape, and that re-serializing the URL's record gives it back.
    ///
    /// Every constructor and setter runs this under `debug_assert!` (no cost
    /// in release builds); tests call it directly. A URL from this crate's
    /// API always passes; an `Err` describes the first broken invariant.
    ///
    /// ```
    /// use spinneret_url::Url;
    /// let mut url = Url::parse("https://u:p@example.com:8080/a?q#f").unwrap();
    /// assert_eq!(url.check_invariants(), Ok(()));
    /// url.set_port("443");
    /// assert_eq!(url.check_invariants(), Ok(()));
    /// ```
    pub fn check_invariants(&self) -> Result<(), String> {
        let s = self.href().as_bytes();
        let c = self.components();
        let fail = |what: &str| Err(format!("{what} in {:?} ({c:?})", self.href()));
        if s.len() >= NONE as usize {
            return fail("the serialization does not fit the offsets");
        }
        if !s.iter().all(|b| (b' '..=b'~').contains(b)) {
            return fail("the serialization is not printable ASCII");
        }
        let len = s.len() as u32;
        // Offsets in order.
        let query = (c.query_start != NONE).then_some(c.query_start);
        let fragment = (c.fragment_start != NONE).then_some(c.fragment_start);
        let path_end = query.or(fragment).unwrap_or(len);
        if !(c.scheme_end < c.username_end
            && c.username_end <= c.host_start
            && c.host_start <= c.host_end
            && c.host_end <= c.path_start
            && c.path_start <= path_end
            && path_end <= len)
        {
            return fail("component offsets out of order");
        }
        if query.is_some_and(|q| q >= len || s[q as usize] != b'?') {
            return fail("the query does not start with '?'");
        }
        if let Some(f) = fragment
            && (f >= len || s[f as usize] != b'#' || query.is_some_and(|q| f <= q))
        {
            return fail("the fragment does not start with '#' after the query");
        }
        // Scheme.
        let scheme = &s[..c.scheme_end as usize];
        if !scheme.first().is_some_and(u8::is_ascii_lowercase)
            || !scheme.iter().all(|&b| is_lower_scheme_byte(b))
            || s[c.scheme_end as usize] != b':'
        {
            return fail("the scheme is not lower-case ASCII followed by ':'");
        }
        if c.scheme_type != SchemeType::from_lowercase_bytes(scheme) {
            return fail("the scheme type is not the scheme's class");
        }
        // Authority.
        let after_colon = c.scheme_end + 1;
        let has_credentials;
        let has_port;
        if c.host_kind == HostKind::None {
            if c.username_end != after_colon
                || c.host_start != after_colon
                || c.host_end != after_colon
            {
                return fail("a null host with authority offsets");
            }
            let guard = &s[after_colon as usize..c.path_start as usize];
            let path = &s[c.path_start as usize..path_end as usize];
            let guarded = path.starts_with(b"//");
            if guard != if guarded { &b"/."[..] } else { b"" } {
                return fail("a null host's path without its \"/.\" guard, or a stray one");
            }
            has_credentials = false;
            has_port = false;
        } else {
            if !s[after_colon as usize..].starts_with(b"//") {
                return fail("a host without \"//\" after the scheme");
            }
            let userinfo_start = after_colon + 2;
            if c.username_end < userinfo_start {
                return fail("the username ends before the authority starts");
            }
            has_credentials = c.host_start > userinfo_start;
            if has_credentials {
                let username = &s[userinfo_start as usize..c.username_end as usize];
                let password_end = c.host_start as usize - 1;
                if s[password_end] != b'@' {
                    return fail("credentials not followed by '@'");
                }
                if c.username_end as usize != password_end
                    && (s[c.username_end as usize] != b':'
                        || c.username_end as usize + 1 == password_end)
                {
                    return fail("a password without ':' before it, or an empty one");
                }
                let password = &s[(c.username_end as usize + 1).min(password_end)..password_end];
                if username.iter().any(|b| matches!(b, b':' | b'@' | b'/'))
                    || password.iter().any(|b| matches!(b, b':' | b'@' | b'/'))
                {
                    return fail("a username or password holding ':', '@' or '/'");
                }
            } else if c.username_end != c.host_start {
                return fail("a username end without credentials");
            }
            has_port = c.host_end < c.path_start;
            if has_port {
                let digits = &s[c.host_end as usize + 1..c.path_start as usize];
                let port = std::str::from_utf8(digits)
                    .ok()
                    .and_then(|d| d.parse::<u16>().ok());
                if s[c.host_end as usize] != b':'
                    || port.is_none_or(|p| p.to_string().as_bytes() != digits)
                    || port == c.scheme_type.default_port()
                {
                    return fail("a port that is not ':' and a canonical non-default u16");
                }
            }
        }
        if (has_credentials || has_port)
            && (c.scheme_type == SchemeType::File || c.host_kind == HostKind::Empty)
        {
            return fail("credentials or a port on a URL that cannot have them");
        }
        // Host text against host kind.
        let host = &s[c.host_start as usize..c.host_end as usize];
        if let Err(what) = check_host(host, c.host_kind, c.scheme_type) {
            return fail(what);
        }
        // Path.
        let path = &s[c.path_start as usize..path_end as usize];
        if path.iter().any(|b| matches!(b, b'?' | b'#')) {
            return fail("the path holds '?' or '#'");
        }
        let special = c.scheme_type.is_special();
        if special && (!path.starts_with(b"/") || path.contains(&b'\\')) {
            return fail("a special URL's path that is not a list path without '\\'");
        }
        if c.host_kind != HostKind::None && !path.is_empty() && path[0] != b'/' {
            return fail("a URL with a host whose path does not start with '/'");
        }
        let list_path = path.starts_with(b"/");
        if list_path
            && path[1..]
                .split(|&b| b == b'/')
                .any(|seg| is_single_dot_segment(seg) || is_double_dot_segment(seg))
        {
            return fail("a list path holding a dot segment");
        }
        if query.is_some() {
            let query_end = fragment.unwrap_or(len) as usize;
            if s[c.query_start as usize + 1..query_end].contains(&b'#') {
                return fail("the query holds '#'");
            }
        }
        // The serializer gives the same URL back.
        match Record::from_url(self).serialize() {
            Ok((text, again)) if text == self.href() && again == c => Ok(()),
            Ok((text, again)) => fail(&format!(
                "re-serializing gives {text:?} with {again:?}, not the same"
            )),
            Err(e) => fail(&format!("re-serializing fails: {e:?}")),
        }
    }
}

/// Whether the host text agrees with its kind and the scheme; the broken
/// rule otherwise.
fn check_host(host: &[u8], kind: HostKind, scheme: SchemeType) -> Result<(), &'static str> {
    let special = scheme.is_special();
    let ok = match kind {
        HostKind::None => host.is_empty() && !special,
        HostKind::Empty => host.is_empty() && (!special || scheme == SchemeType::File),
        HostKind::Domain => {
            special
                && !host.is_empty()
                && host
                    .iter()
                    .all(|&b| !b.is_ascii_uppercase() && !is_forbidden_domain_code_point(b))
        }
        HostKind::Ipv4 => special && is_dotted_decimal(host),
        HostKind::Ipv6 => host
            .strip_prefix(b"[")
            .and_then(|h| h.strip_suffix(b"]"))
            .is_some_and(|h| {
                h.iter()
                    .all(|&b| b == b':' || b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
                    && std::str::from_utf8(h).is_ok_and(|h| h.parse::<std::net::Ipv6Addr>().is_ok())
            }),
        HostKind::Opaque => {
            !special && !host.is_empty() && !host.iter().any(|&b| is_forbidden_host_code_point(b))
        }
    };
    if ok {
        Ok(())
    } else {
        Err("the host text does not match its kind and the scheme")
    }
}

/// Whether `host` is the IPv4 serializer's output: four decimal numbers
/// below 256 without leading zeros, joined by `.` (what std writes).
fn is_dotted_decimal(host: &[u8]) -> bool {
    std::str::from_utf8(host)
        .ok()
        .and_then(|h| h.parse::<std::net::Ipv4Addr>().ok())
        .is_some_and(|a| a.to_string().as_bytes() == host)
}
