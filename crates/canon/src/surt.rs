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
//! [`ssurt`] is urlcanon's "SSURT" variant, which keeps every component.

use crate::lenient::{self, RawUrl};
use crate::rules::is_aspnet_session_segment;
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
///
/// As in [`safebrowsing::canonicalize`], a URL whose host normalizes to
/// nothing is read back and canonicalized again, so that the result is a
/// fixed point.
pub fn ia_canonicalize(input: &[u8]) -> IaCanonical {
    let mut canonical = ia_canonicalize_once(input);
    for _ in 0..safebrowsing::MAX_EMPTY_HOST_READINGS {
        match safebrowsing::empty_host_reading(&canonical.url) {
            Some(again) => canonical = ia_canonicalize_once(again.as_bytes()),
            None => break,
        }
    }
    canonical
}

fn ia_canonicalize_once(input: &[u8]) -> IaCanonical {
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
    // `http://http://host/` → `http://host/`: IA collapses repeated
    // `http(s)://` prefixes to the last one.
    let mut cleaned = &cleaned[..];
    while let Some(rest) = strip_http_prefix(cleaned)
        && strip_http_prefix(rest).is_some()
    {
        cleaned = rest;
    }
    let raw = lenient::split(cleaned);
    if !raw.has_authority {
        let s = safebrowsing::canonicalize(cleaned);
        return IaCanonical {
            url: s.clone(),
            surt: s,
        };
    }
    let c = safebrowsing::canonical_parts(&raw);
    // Every piece is ASCII after Safe Browsing escaping.
    let text = |v: &[u8]| String::from_utf8_lossy(v).into_owned();
    let scheme = text(&c.scheme);
    // The host is lower-cased after escaping, escapes included (`%c3`).
    let mut host = text(&c.host).to_ascii_lowercase();
    if !c.host_is_ip {
        let len = host.len();
        massage_host(&mut host);
        // What is left may be an IPv4 address in another form (`www.3`);
        // it is normalized as step 1 would, so that the result is a fixed
        // point (IA's own keys differ here: it massages after step 1).
        if host.len() != len
            && let Some(ip) = parse_ipv4(host.as_bytes())
        {
            host = std::net::Ipv4Addr::from(ip).to_string();
        }
    }
    let port = c.port.as_deref().map(text).filter(|p| {
        !matches!(
            (scheme.as_str(), p.as_str()),
            ("http", "80") | ("https", "443")
        )
    });
    let mut path = strip_path_session_id(&text(&c.path)).to_ascii_lowercase();
    while path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    let query = c.query.as_deref().map(text).and_then(|q| {
        // Lower-casing first gives the same result (IA's patterns ignore case).
        let q = alpha_reorder_query(&strip_query_session_id(&q.to_ascii_lowercase()));
        (!q.is_empty()).then_some(q)
    });
    let mut url = format!("{scheme}://{host}");
    // IPv4 addresses are reversed too (`4,3,2,1)`), as in CDX indexes;
    // IPv6 stays in its brackets.
    let mut surt = if host.starts_with('[') {
        host.clone()
    } else {
        // Labels reversed as they are (a comma inside one stays a comma).
        host.rsplit('.').collect::<Vec<_>>().join(",")
    };
    if let Some(p) = &port {
        url.push(':');
        url.push_str(p);
        surt.push(':');
        surt.push_str(p);
    }
    surt.push(')');
    url.push_str(&path);
    // The key has IA's raw `?` where unescaping made one inside the path;
    // the URL keeps `%3f` there, so that it reads back as the same path
    // (and canonicalizing it again gives it back, and the same key).
    surt.push_str(&path.replace("%3f", "?"));
    for s in [&mut url, &mut surt] {
        if let Some(q) = &query {
            s.push('?');
            s.push_str(q);
        }
    }
    IaCanonical { url, surt }
}

/// The rest after a leading `http://` or `https://` (ASCII case-insensitive).
fn strip_http_prefix(s: &[u8]) -> Option<&[u8]> {
    [&b"http://"[..], b"https://"]
        .into_iter()
        .find(|p| s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p))
        .map(|p| &s[p.len()..])
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
    let mut params: Vec<(&str, Option<&str>)> = query
        .split('&')
        .map(|p| p.split_once('=').map_or((p, None), |(n, v)| (n, Some(v))))
        .collect();
    params.sort_unstable();
    let mut out = String::with_capacity(query.len());
    for (i, (n, v)) in params.iter().enumerate() {
        if i > 0 {
            out.push('&');
        }
        out.push_str(n);
        if let Some(v) = v {
            out.push('=');
            out.push_str(v);
        }
    }
    out
}

/// The Internet Archive's query session-id removal: for each of
/// `jsessionid=`, `phpsessid=`, `sid=` (each with exactly 32 letters and
/// digits), `aspsessionid`+8 letters`=`+24 letters and
/// `cfid=…&cftoken=…`, the last occurrence followed by `&` or the end is
/// cut out together with that `&` — anywhere in the query, as IA's
/// `^(.*)(?:…)(?:&(.*))?$` patterns do (so `a=1&sid=…` leaves `a=1&`).
pub fn strip_query_session_id(query: &str) -> String {
    let mut q = query.to_owned();
    // Every pattern contains `id=` or `aspsessionid`: most queries have neither.
    let lower = query.to_ascii_lowercase();
    if !lower.contains("id=") && !lower.contains("aspsessionid") {
        return q;
    }
    for pattern in [
        SessionPattern::Id("jsessionid="),
        SessionPattern::Id("phpsessid="),
        SessionPattern::Id("sid="),
        SessionPattern::Asp,
        SessionPattern::ColdFusion,
    ] {
        let b = q.as_bytes();
        let found = (0..b.len())
            .rev()
            .find_map(|p| pattern.match_at(b, p).map(|end| (p, end)));
        if let Some((p, end)) = found {
            let rest = if end < b.len() { &q[end + 1..] } else { "" };
            q = format!("{}{}", &q[..p], rest);
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
    if !path.contains("/(") {
        return path.to_owned();
    }
    let b = path.as_bytes();
    // `^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^?]+\.aspx.*)$` and
    // `^(.*/)(\([0-9a-z]{24}\)/)([^?]+\.aspx.*)$`, case-insensitive; the
    // greedy `(.*/)` takes the last such segment.
    for start in (0..b.len()).rev() {
        if start == 0 || b[start - 1] != b'/' || b[start] != b'(' {
            continue;
        }
        let Some(close) = path[start..].find(")/").map(|i| start + i) else {
            continue;
        };
        if !is_aspnet_session_segment(&path[start..=close], is_ia_session_id) {
            continue;
        }
        let rest = &path[close + 2..];
        let before_query = rest.split('?').next().unwrap_or("");
        if before_query.is_empty() || !rest.to_ascii_lowercase().contains(".aspx") {
            continue;
        }
        // `[^?]+\.aspx`: `.aspx` must come before any `?`.
        let lower = rest.to_ascii_lowercase();
        let aspx = lower.find(".aspx").expect("checked");
        if rest[..aspx].contains('?') || aspx == 0 {
            continue;
        }
        return format!("{}{}", &path[..start], rest);
    }
    path.to_owned()
}

/// IA's session id: 24 ASCII letters or digits.
fn is_ia_session_id(s: &str) -> bool {
    s.len() == 24 && s.bytes().all(|c| c.is_ascii_alphanumeric())
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
