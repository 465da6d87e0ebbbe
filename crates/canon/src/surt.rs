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
//! 2. host: lower-case (escapes included), strip a leading `www` / `wwwN`
//!    label; drop userinfo and the scheme's default port;
//! 3. path: remove an ASP.NET session segment (`.aspx` paths), lower-case,
//!    strip a trailing `/` (but `/` stays);
//! 4. query: remove session ids exactly as IA's patterns do, lower-case,
//!    sort the parameters by (name, value), drop an empty query;
//! 5. key: reversed host (IPv4 addresses too) `)` path `?` query; the
//!    scheme is not part of it.

//!
//! `filedesc:`, `warcinfo:` and authority-less URLs (`dns:example.com`) are
//! their own key; the empty input's key is `-`.
//!
//! [`surt_with`] is the same engine with every option and canonicalizer
//! choice of the PyPI `surt` package (module [`crate::surt_options`]);
//! [`ia_canonicalize`] is it with the defaults.
//!
//! [`ssurt`] is urlcanon's "SSURT" variant, which keeps every component.

use crate::lenient::{self, RawUrl};
use crate::rules::is_aspnet_session_segment;
use crate::safebrowsing::parse_ipv4;
use crate::surt_options::{self, Step};
pub use crate::surt_options::{
    SurtCanonicalizer, SurtOptionError, SurtOptions, registrable_domain, surt_string, surt_with,
};

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
///
/// As in [`crate::safebrowsing::canonicalize`], a URL whose host normalizes to
/// nothing is read back and canonicalized again, so that the result is a
/// fixed point.
pub fn ia_canonicalize(input: &[u8]) -> IaCanonical {
    // The `surt` package's default canonicalizer and options: one
    // pipeline (`surt_options`), so that its options change only what
    // they name.
    let k = surt_options::canonicalize(input, &[Step::Google, Step::Ia], &SurtOptions::default());
    let text = |v: Vec<u8>| match String::from_utf8(v) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    };
    IaCanonical {
        url: text(k.url),
        surt: text(k.key),
    }
}

/// The SURT form of a host and the rest of an already-canonical URL
/// (`host`, `port`, `path`, `query`, `fragment`), for keys of WHATWG-based
/// profiles. A fragment follows the query after `#`, where the Internet
/// Archive's `surt` library writes one its canonicalizer kept.
pub(crate) fn surt_key(
    host: &str,
    host_is_name: bool,
    port: &str,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
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
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
}

/// The Internet Archive's query order: parameters sorted by (name, value),
/// a parameter without `=` before one with the same name and a value;
/// empty parameters kept (`a=1&` → `&a=1`).
pub fn alpha_reorder_query(query: &str) -> String {
    ascii_cut(alpha_reorder_query_bytes(query.as_bytes()))
}

/// [`alpha_reorder_query`] on bytes (parameters compared bytewise).
pub(crate) fn alpha_reorder_query_bytes(query: &[u8]) -> Vec<u8> {
    let mut params: Vec<(&[u8], Option<&[u8]>)> = query
        .split(|&b| b == b'&')
        .map(|p| match p.iter().position(|&b| b == b'=') {
            Some(i) => (&p[..i], Some(&p[i + 1..])),
            None => (p, None),
        })
        .collect();
    params.sort_unstable();
    let mut out = Vec::with_capacity(query.len());
    for (i, (n, v)) in params.iter().enumerate() {
        if i > 0 {
            out.push(b'&');
        }
        out.extend_from_slice(n);
        if let Some(v) = v {
            out.push(b'=');
            out.extend_from_slice(v);
        }
    }
    out
}

/// Text from bytes that a function cut or joined only at ASCII bytes of
/// valid UTF-8 (so still valid UTF-8).
fn ascii_cut(v: Vec<u8>) -> String {
    String::from_utf8(v).expect("cut at ASCII bytes of UTF-8 text")
}

/// The Internet Archive's query session-id removal: for each of
/// `jsessionid=`, `phpsessid=`, `sid=` (each with exactly 32 letters and
/// digits), `aspsessionid`+8 letters`=`+24 letters and
/// `cfid=…&cftoken=…`, the last occurrence followed by `&` or the end is
/// cut out together with that `&` — anywhere in the query, as IA's
/// `^(.*)(?:…)(?:&(.*))?$` patterns do (so `a=1&sid=…` leaves `a=1&`).
pub fn strip_query_session_id(query: &str) -> String {
    ascii_cut(strip_query_session_id_bytes(query.as_bytes()))
}

/// [`strip_query_session_id`] on bytes (names matched ASCII
/// case-insensitively).
pub(crate) fn strip_query_session_id_bytes(query: &[u8]) -> Vec<u8> {
    let mut q = query.to_owned();
    // Every pattern contains `id=` or `aspsessionid`: most queries have neither.
    let lower = query.to_ascii_lowercase();
    let has = |n: &[u8]| lower.windows(n.len()).any(|w| w == n);
    if !has(b"id=") && !has(b"aspsessionid") {
        return q;
    }
    for pattern in [
        SessionPattern::Id("jsessionid="),
        SessionPattern::Id("phpsessid="),
        SessionPattern::Id("sid="),
        SessionPattern::Asp,
        SessionPattern::ColdFusion,
    ] {
        let b = &q[..];
        let found = (0..b.len())
            .rev()
            .find_map(|p| pattern.match_at(b, p).map(|end| (p, end)));
        if let Some((p, end)) = found {
            let rest = if end < b.len() {
                &b[end + 1..]
            } else {
                &[][..]
            };
            let mut cut = Vec::with_capacity(p + rest.len());
            cut.extend_from_slice(&b[..p]);
            cut.extend_from_slice(rest);
            q = cut;
        }
    }
    q
}

/// One of IA's query session-id patterns.
#[derive(Clone, Copy)]
enum SessionPattern {
    /// `name=` then exactly 32 ASCII letters or digits.
    Id(&'static str),
    /// `aspsessionid` + 8 letters + `=` + 24 letters.
    Asp,
    /// `cfid=` non-`&`+ `&cftoken=` non-`&`+.
    ColdFusion,
}

impl SessionPattern {
    /// Where the match starting at `p` ends, if it matches there and is
    /// followed by `&` or the end.
    fn match_at(self, b: &[u8], p: usize) -> Option<usize> {
        let lit = |at: usize, s: &str| {
            b.get(at..at + s.len())
                .filter(|x| x.eq_ignore_ascii_case(s.as_bytes()))
                .map(|_| at + s.len())
        };
        let run = |at: usize, n: usize, ok: fn(&u8) -> bool| {
            b.get(at..at + n)
                .filter(|x| x.iter().all(ok))
                .map(|_| at + n)
        };
        let end = match self {
            SessionPattern::Id(name) => run(lit(p, name)?, 32, u8::is_ascii_alphanumeric)?,
            SessionPattern::Asp => {
                let at = run(lit(p, "aspsessionid")?, 8, u8::is_ascii_alphabetic)?;
                run(lit(at, "=")?, 24, u8::is_ascii_alphabetic)?
            }
            SessionPattern::ColdFusion => {
                let value = |at: usize| {
                    let n = b[at..].iter().take_while(|&&c| c != b'&').count();
                    (n > 0).then_some(at + n)
                };
                let at = value(lit(p, "cfid=")?)?;
                value(lit(at, "&cftoken=")?)?
            }
        };
        matches!(b.get(end), None | Some(b'&')).then_some(end)
    }
}

/// The Internet Archive's path session-id removal: an ASP.NET cookieless
/// session segment (`/(S(x24))/` or `/(x24)/`, `x24` = 24 letters or digits)
/// before a path ending in `.aspx`, as IA's `stripPathSessionID` patterns.
pub fn strip_path_session_id(path: &str) -> String {
    ascii_cut(strip_path_session_id_bytes(path.as_bytes()))
}

/// [`strip_path_session_id`] on bytes.
pub(crate) fn strip_path_session_id_bytes(b: &[u8]) -> Vec<u8> {
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    if find(b, b"/(").is_none() {
        return b.to_owned();
    }
    // `^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^?]+\.aspx.*)$` and
    // `^(.*/)(\([0-9a-z]{24}\)/)([^?]+\.aspx.*)$`, case-insensitive; the
    // greedy `(.*/)` takes the last such segment.
    for start in (0..b.len()).rev() {
        if start == 0 || b[start - 1] != b'/' || b[start] != b'(' {
            continue;
        }
        let Some(close) = find(&b[start..], b")/").map(|i| start + i) else {
            continue;
        };
        // A session segment is ASCII.
        let Ok(segment) = std::str::from_utf8(&b[start..=close]) else {
            continue;
        };
        if !is_aspnet_session_segment(segment, is_ia_session_id) {
            continue;
        }
        let rest = &b[close + 2..];
        // `[^?]+\.aspx`: `.aspx` must come after at least one byte and
        // before any `?`.
        let lower = rest.to_ascii_lowercase();
        let Some(aspx) = find(&lower, b".aspx") else {
            continue;
        };
        if aspx == 0 || rest[..aspx].contains(&b'?') {
            continue;
        }
        let mut out = Vec::with_capacity(b.len());
        out.extend_from_slice(&b[..start]);
        out.extend_from_slice(rest);
        return out;
    }
    b.to_owned()
}

/// IA's session id: 24 ASCII letters or digits.
fn is_ia_session_id(s: &str) -> bool {
    s.len() == 24 && s.bytes().all(|c| c.is_ascii_alphanumeric())
}

/// The Internet Archive's host massage: strip a leading `www` or `wwwN` label.
pub fn massage_host(host: &mut String) {
    if let Some(n) = www_label_len(host.as_bytes()) {
        host.drain(..n);
    }
}

/// [`massage_host`] on bytes.
pub(crate) fn massage_host_bytes(host: &mut Vec<u8>) {
    if let Some(n) = www_label_len(host) {
        host.drain(..n);
    }
}

/// The length of a leading `www.` or `wwwN.` (N digits).
fn www_label_len(b: &[u8]) -> Option<usize> {
    if !b.starts_with(b"www") {
        return None;
    }
    let digits = b[3..].iter().take_while(|c| c.is_ascii_digit()).count();
    (b.get(3 + digits) == Some(&b'.')).then_some(4 + digits)
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

/// The SURT form of `url` as written (no canonicalization; userinfo is
/// dropped, everything else kept): `http://(org,example,foo,:81)/p?q#f`
/// with scheme and trailing comma. An IP address host is not reversed. URLs
/// without an authority are returned unchanged. Of `opts` it reads only
/// `with_scheme` and `trailing_comma` (the Internet Archive's key with
/// every option is [`surt_with`]).
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
    push_path_query_fragment(&u, &mut out);
    out
}

/// Appends `path[?query][#fragment]` of a split URL, as written.
fn push_path_query_fragment(u: &RawUrl<'_>, out: &mut String) {
    out.push_str(&String::from_utf8_lossy(u.path));
    for (mark, part) in [('?', u.query), ('#', u.fragment)] {
        if let Some(p) = part {
            out.push(mark);
            out.push_str(&String::from_utf8_lossy(p));
        }
    }
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
    push_path_query_fragment(&u, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ia_keys() {
        let c = ia_canonicalize(b"https://WWW.Example.com:443/A/B/?z=1&A=2&jsessionid=0123456789abcdefghijklmnopqrstuv#x");
        // IA leaves the `&` before a session id cut at the end.
        assert_eq!(c.url, "https://example.com/a/b?&a=2&z=1");
        assert_eq!(c.surt, "com,example)/a/b?&a=2&z=1");
        assert_eq!(
            ia_canonicalize(b"http://10.0.0.1:8080/").surt,
            "1,0,0,10:8080)/"
        );
        assert_eq!(alpha_reorder_query("c15=&c1=2&z=1&z8"), "c1=2&c15=&z=1&z8");
        assert_eq!(
            strip_query_session_id("f=1&sid=717e7233bc467f2b1c98c7876fab0c20"),
            "f=1&"
        );
        assert_eq!(
            strip_query_session_id("sid=717e7233bc467f2b1c98c7876fab0c20&f=1"),
            "f=1"
        );
        assert_eq!(strip_query_session_id("CFID=1&CFTOKEN=2&x=y"), "x=y");
        assert_eq!(strip_query_session_id("sid=short&x"), "sid=short&x");
        assert_eq!(
            strip_path_session_id("/(S(4hqa0555fwsecu455xqckv45))/a/b.aspx?x"),
            "/a/b.aspx?x"
        );
        assert_eq!(
            strip_path_session_id("/(4hqa0555fwsecu455xqckv45)/a.html"),
            "/(4hqa0555fwsecu455xqckv45)/a.html"
        );
        assert_eq!(ia_canonicalize(b"   ").surt, "-");
        assert_eq!(
            ia_canonicalize(b"http://https://www.a.com/x/").surt,
            "com,a)/x"
        );
        assert_eq!(ia_canonicalize(b"http://www,b.ca/").surt, "ca,www,b)/");
        let c = ia_canonicalize(b"http://a.com/x%3Fy=1?q=2");
        assert_eq!(
            (c.url.as_str(), c.surt.as_str()),
            ("http://a.com/x%3fy=1?q=2", "com,a)/x?y=1?q=2")
        );
        assert_eq!(ia_canonicalize(c.url.as_bytes()), c);
    }
}
