//! A lenient URL splitter for the byte-level canonicalizers (Safe Browsing,
//! Internet Archive), which are defined on raw strings rather than on the
//! WHATWG parse: they accept any bytes and never fail.
//!
//! The split follows RFC 3986 appendix B (`scheme:` `//authority` `path`
//! `?query` `#fragment`) with the crawler conventions those tools share: a
//! missing scheme means `http`, `host:port/…` is not a scheme, and the
//! special schemes may omit or repeat their slashes (`http:example.com`,
//! `http:////example.com`).

/// The pieces of a URL, as slices of the input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawUrl<'a> {
    /// The scheme as written (empty when the input has none).
    pub scheme: &'a [u8],
    /// Whether an authority (`//…`) is present.
    pub has_authority: bool,
    /// Userinfo before `@`, when present.
    pub userinfo: Option<&'a [u8]>,
    /// Host (IPv6 with its brackets).
    pub host: &'a [u8],
    /// Port digits after `:`, when a `:` is present (possibly empty).
    pub port: Option<&'a [u8]>,
    /// The path (or opaque rest when there is no authority).
    pub path: &'a [u8],
    /// The query without `?`, when present.
    pub query: Option<&'a [u8]>,
    /// The fragment without `#`, when present.
    pub fragment: Option<&'a [u8]>,
}

/// Schemes whose authority the tools find even without `//`.
pub fn is_hierarchical_scheme(s: &[u8]) -> bool {
    [&b"http"[..], b"https", b"ftp", b"ws", b"wss", b"file"]
        .iter()
        .any(|k| k.eq_ignore_ascii_case(s))
}

/// Whether [`split`] finds the authority of a URL with this scheme after
/// any number of slashes or backslashes (`http:////h`, `ftp:h`): no scheme
/// (`http`), and the hierarchical schemes but `file`, whose authority is
/// what exactly two slashes open. A canonical `scheme:///path` with one of
/// these schemes reads back with a host taken from the path.
pub fn skips_slashes(scheme: &[u8]) -> bool {
    scheme.is_empty() || (is_hierarchical_scheme(scheme) && !scheme.eq_ignore_ascii_case(b"file"))
}

/// The length of a leading `scheme:` (without the colon), if the input
/// starts with one that is not really `host:port`.
pub fn scheme_len(s: &[u8]) -> Option<usize> {
    let first = *s.first()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let n = s
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        .count();
    if s.get(n) != Some(&b':') {
        return None;
    }
    // `example.com:8080/x` — digits then the end of the authority: a
    // port, not a scheme.
    let rest = &s[n + 1..];
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 && matches!(rest.get(digits), None | Some(b'/' | b'?' | b'#' | b'\\')) {
        return None;
    }
    Some(n)
}

/// Splits `s` (with the scheme possibly absent).
pub fn split(s: &[u8]) -> RawUrl<'_> {
    let mut u = RawUrl::default();
    let (scheme, mut rest) = match scheme_len(s) {
        Some(n) => (&s[..n], &s[n + 1..]),
        None => (&s[..0], s),
    };
    u.scheme = scheme;
    if let Some(i) = rest.iter().position(|&b| b == b'#') {
        u.fragment = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    let authority_follows = if scheme.eq_ignore_ascii_case(b"file") {
        // `file:///path`: the authority is what the two slashes open (empty).
        match rest.strip_prefix(b"//") {
            Some(r) => {
                rest = r;
                true
            }
            None => false,
        }
    } else if skips_slashes(scheme) {
        let slashes = rest
            .iter()
            .take_while(|&&b| b == b'/' || b == b'\\')
            .count();
        rest = &rest[slashes..];
        true
    } else if rest.starts_with(b"//") {
        rest = &rest[2..];
        true
    } else {
        false
    };
    if authority_follows {
        u.has_authority = true;
        let end = rest
            .iter()
            .position(|&b| matches!(b, b'/' | b'?' | b'\\'))
            .unwrap_or(rest.len());
        let mut auth = &rest[..end];
        rest = &rest[end..];
        if let Some(at) = auth.iter().rposition(|&b| b == b'@') {
            u.userinfo = Some(&auth[..at]);
            auth = &auth[at + 1..];
        }
        let port_colon = if auth.first() == Some(&b'[') {
            auth.iter()
                .position(|&b| b == b']')
                .and_then(|close| (auth.get(close + 1) == Some(&b':')).then_some(close + 1))
        } else {
            // The first colon: what follows is the port, junk included, so
            // that the split of the output is the split of the input.
            auth.iter().position(|&b| b == b':')
        };
        match port_colon {
            Some(c) => {
                u.host = &auth[..c];
                u.port = Some(&auth[c + 1..]);
            }
            None => u.host = auth,
        }
    }
    match rest.iter().position(|&b| b == b'?') {
        Some(q) => {
            u.path = &rest[..q];
            u.query = Some(&rest[q + 1..]);
        }
        None => u.path = rest,
    }
    u
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_the_usual_forms() {
        let u = split(b"http://u:p@Host.com:81/p/a?q=1#f");
        assert_eq!(u.scheme, b"http");
        assert_eq!(u.userinfo, Some(&b"u:p"[..]));
        assert_eq!(u.host, b"Host.com");
        assert_eq!(u.port, Some(&b"81"[..]));
        assert_eq!(u.path, b"/p/a");
        assert_eq!(u.query, Some(&b"q=1"[..]));
        assert_eq!(u.fragment, Some(&b"f"[..]));

        let u = split(b"example.com:8080/x");
        assert_eq!(
            (u.scheme, u.host, u.port),
            (&b""[..], &b"example.com"[..], Some(&b"8080"[..]))
        );
        let u = split(b"mailto:a@b");
        assert!(!u.has_authority);
        assert_eq!(u.path, b"a@b");
        let u = split(b"http:////h/x");
        assert_eq!(u.host, b"h");
        let u = split(b"http://[::1]:8/");
        assert_eq!((u.host, u.port), (&b"[::1]"[..], Some(&b"8"[..])));
        let u = split(b"");
        assert_eq!(
            u,
            RawUrl {
                has_authority: true,
                ..RawUrl::default()
            }
        );
    }
}
