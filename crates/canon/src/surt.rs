//! SURT keys ("Sort-friendly URI Reordering Transform") and the Internet
//! Archive canonicalizer that precedes them.
//!
//! The SURT of `http://www.example.com/a?b=1` is `com,example)/a?b=1`: host
//! labels reversed and comma-joined, so one site's URLs sort together. This
//! is the key of CDX indexes (Internet Archive, pywb, Common Crawl); to look
//! URLs up in existing indexes the key has to match theirs exactly, so the
//! `surt` profile follows the Internet Archive's default canonicalizer rather
//! than our WHATWG-based rules:
//!
//! 1. Google Safe Browsing canonicalization ([`crate::safebrowsing`]);
//! 2. host: strip a leading `www` / `wwwN` label; drop userinfo and the
//!    scheme's default port;
//! 3. path: lower-case, remove session ids, strip a trailing `/` (but `/`
//!    stays);
//! 4. query: lower-case, remove session ids, drop an empty query, sort the
//!    parameters as whole strings;
//! 5. key: reversed host `)` path `?` query; the scheme is not part of it.
//!
//! `filedesc:`, `warcinfo:` and authority-less URLs (`dns:example.com`) are
//! their own key; the empty input's key is `-`.
//!
//! [`ssurt`] is urlcanon's "SSURT" variant, which keeps every component.

use crate::lenient;
use crate::rules::{is_session_param, remove_path_session_ids};
use crate::safebrowsing::{self, parse_ipv4};

/// The Internet Archive canonical URL and its SURT key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IaCanonical {
    /// The canonical URL (`http://example.com/a?b=1`).
    pub url: String,
    /// Its SURT (`com,example)/a?b=1`).
    pub surt: String,
}

/// Canonicalizes `input` with the Internet Archive's default rules and
/// returns the URL and its SURT. Never fails.
pub fn ia_canonicalize(input: &[u8]) -> IaCanonical {
    let cleaned = safebrowsing::clean(input);
    if cleaned.is_empty() {
        return IaCanonical {
            url: String::new(),
            surt: "-".into(),
        };
    }
    let lower = cleaned.to_ascii_lowercase();
    if lower.starts_with(b"filedesc:") || lower.starts_with(b"warcinfo:") {
        // ARC/WARC file records: their own key, as written.
        let s = String::from_utf8_lossy(&cleaned).into_owned();
        return IaCanonical {
            url: s.clone(),
            surt: s,
        };
    }
    let raw = lenient::split(&cleaned);
    if !raw.has_authority {
        let s = safebrowsing::canonicalize(&cleaned);
        return IaCanonical {
            url: s.clone(),
            surt: s,
        };
    }
    let c = safebrowsing::canonical_parts(&raw);
    // Every piece is ASCII after Safe Browsing escaping.
    let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
    let scheme = text(&c.scheme);
    let mut host = text(&c.host);
    if !c.host_is_ip {
        massage_host(&mut host);
    }
    let port = c.port.as_deref().map(text).filter(|p| {
        !matches!(
            (scheme.as_str(), p.as_str()),
            ("http", "80") | ("https", "443")
        )
    });
    let mut path = text(&c.path).to_ascii_lowercase();
    let mut tmp = String::new();
    remove_path_session_ids(&mut path, &mut tmp);
    while path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    let query = c.query.as_deref().map(text).and_then(|q| {
        let q = q.to_ascii_lowercase();
        let params: Vec<&str> = q
            .split('&')
            .filter(|p| {
                let (n, v) = p.split_once('=').map_or((*p, None), |(n, v)| (n, Some(v)));
                !is_session_param(n, v)
            })
            .collect();
        let q = alpha_reorder_query(&params.join("&"));
        (!q.is_empty()).then_some(q)
    });
    let mut url = format!("{scheme}://{host}");
    let mut surt = if c.host_is_ip {
        host.clone()
    } else {
        reverse_labels(&host, false)
    };
    if let Some(p) = &port {
        url.push(':');
        url.push_str(p);
        surt.push(':');
        surt.push_str(p);
    }
    surt.push(')');
    for s in [&mut url, &mut surt] {
        s.push_str(&path);
        if let Some(q) = &query {
            s.push('?');
            s.push_str(q);
        }
    }
    IaCanonical { url, surt }
}

/// The SURT form of a host and the rest of an already-canonical URL
/// (`host`, `port`, `path`, `query`), for keys of WHATWG-based profiles.
pub(crate) fn surt_key(
    host: &str,
    host_is_name: bool,
    port: &str,
    path: &str,
    query: Option<&str>,
    out: &mut String,
) {
    if host_is_name {
        out.push_str(&reverse_labels(host, false));
    } else {
        out.push_str(host);
    }
    if !port.is_empty() {
        out.push(':');
        out.push_str(port);
    }
    out.push(')');
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
}

/// The Internet Archive's query order: parameters sorted as whole
/// `name=value` strings (empty parameters kept: `a=1&` → `&a=1`).
pub fn alpha_reorder_query(query: &str) -> String {
    let mut params: Vec<&str> = query.split('&').collect();
    params.sort_unstable();
    params.join("&")
}

/// Removes ASP.NET cookieless session segments and `;jsessionid=` path
/// parameters from a path (the Internet Archive's `stripPathSessionID`).
pub fn strip_path_session_id(path: &str) -> String {
    let mut p = path.to_owned();
    remove_path_session_ids(&mut p, &mut String::new());
    p
}

/// The Internet Archive's host massage: strip a leading `www` or `wwwN` label.
pub fn massage_host(host: &mut String) {
    let b = host.as_bytes();
    if b.starts_with(b"www") {
        let digits = b[3..].iter().take_while(|c| c.is_ascii_digit()).count();
        if b.get(3 + digits) == Some(&b'.') {
            host.drain(..4 + digits);
        }
    }
}

fn reverse_labels(host: &str, trailing_comma: bool) -> String {
    let mut out = String::with_capacity(host.len() + 1);
    for (i, label) in host.rsplit('.').enumerate() {
        if i > 0 {
            out.push(',');
        }
        for c in label.chars() {
            out.push(if c == ',' { '.' } else { c });
        }
    }
    if trailing_comma {
        out.push(',');
    }
    out
}

/// How [`surt`] writes a key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurtOptions {
    /// Keep the scheme: `http://(com,example,)/` (Heritrix form) instead of
    /// `com,example,)/` (CDX form).
    pub with_scheme: bool,
    /// End the host with a comma (`com,example,`), as Heritrix does.
    pub trailing_comma: bool,
}

/// The SURT form of `url` as written (no canonicalization; userinfo is
/// dropped, everything else kept): `http://(org,example,foo,:81)/p?q#f`
/// with scheme and trailing comma. An IP address host is not reversed. URLs
/// without an authority are returned unchanged.
pub fn surt(url: &str, opts: SurtOptions) -> String {
    let u = lenient::split(url.as_bytes());
    if !u.has_authority || u.scheme.is_empty() {
        return url.to_owned();
    }
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let host = s(u.host);
    let mut out = String::with_capacity(url.len() + 4);
    if opts.with_scheme {
        out.push_str(&s(u.scheme));
        out.push_str("://(");
    }
    let is_ip = parse_ipv4(host.as_bytes()).is_some() || host.starts_with('[');
    if is_ip {
        out.push_str(&host);
    } else {
        out.push_str(&reverse_labels(&host, opts.trailing_comma));
    }
    if let Some(p) = u.port {
        out.push(':');
        out.push_str(&s(p));
    }
    out.push(')');
    out.push_str(&s(u.path));
    if let Some(q) = u.query {
        out.push('?');
        out.push_str(&s(q));
    }
    if let Some(f) = u.fragment {
        out.push('#');
        out.push_str(&s(f));
    }
    out
}

/// urlcanon's `reverse_host`: labels reversed, commas inside labels turned
/// into dots, and a trailing comma (`x.y.z` → `z,y,x,`).
pub fn reverse_host(host: &str) -> String {
    reverse_labels(host, true)
}

/// urlcanon's `ssurt_host`: an IPv4 address (any accepted form) stays as is,
/// anything else is [`reverse_host`]ed.
pub fn ssurt_host(host: &str) -> String {
    if parse_ipv4(host.as_bytes()).is_some() {
        host.to_owned()
    } else {
        reverse_host(host)
    }
}

/// urlcanon's SSURT: `host,//port:scheme@user:pass:/path?query#fragment`,
/// every component kept, so the transform is reversible. URLs without an
/// authority are returned unchanged.
pub fn ssurt(url: &str) -> String {
    let u = lenient::split(url.as_bytes());
    if !u.has_authority || u.scheme.is_empty() {
        return url.to_owned();
    }
    let s = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let mut out = ssurt_host(&s(u.host));
    out.push_str("//");
    if let Some(p) = u.port {
        out.push_str(&s(p));
        out.push(':');
    }
    out.push_str(&s(u.scheme));
    if let Some(ui) = u.userinfo {
        out.push('@');
        out.push_str(&s(ui));
    }
    out.push(':');
    out.push_str(&s(u.path));
    if let Some(q) = u.query {
        out.push('?');
        out.push_str(&s(q));
    }
    if let Some(f) = u.fragment {
        out.push('#');
        out.push_str(&s(f));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ia_keys() {
        let c = ia_canonicalize(b"https://WWW.Example.com:443/A/B/?z=1&A=2&jsessionid=0123456789abcdefghijklmnopqrstuv#x");
        assert_eq!(c.url, "https://example.com/a/b?a=2&z=1");
        assert_eq!(c.surt, "com,example)/a/b?a=2&z=1");
        assert_eq!(
            ia_canonicalize(b"http://10.0.0.1:8080/").surt,
            "10.0.0.1:8080)/"
        );
        assert_eq!(ia_canonicalize(b"   ").surt, "-");
    }
}
