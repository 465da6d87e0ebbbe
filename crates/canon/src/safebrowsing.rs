//! Google Safe Browsing URL canonicalization (the documented algorithm of the
//! Safe Browsing Lookup/Update API, "Canonicalization"), on raw bytes.
//!
//! It is not built on the WHATWG parser on purpose: lookups must match keys
//! computed by other Safe Browsing clients byte for byte, and the algorithm
//! accepts inputs the URL Standard rejects (`http://\x01\x80.com/`).
//!
//! Steps, per the documentation:
//! 1. Remove tab, CR and LF; trim leading and trailing spaces/controls.
//! 2. Remove the fragment.
//! 3. Repeatedly percent-unescape host, path and query until no escape is left.
//! 4. Host: remove leading and trailing dots, collapse consecutive dots,
//!    normalize an IPv4 address in any accepted form (octal, hex, fewer than
//!    four parts) to dotted decimal, lower-case. Non-ASCII hosts are mapped to
//!    A-labels with IDNA (UTS #46); bytes that are not UTF-8 are read as
//!    ISO-8859-1, as the Java and Python implementations do.
//! 5. Path: resolve `/./` and `/../`, collapse runs of `/`; empty becomes `/`.
//! 6. The query is not path-normalized.
//! 7. Percent-escape every byte ≤ 0x20, ≥ 0x7F, `#` and `%` (upper-case hex).
//!
//! One deliberate difference: a `?` that step 3 produces inside the path is
//! escaped as `%3F`. The published algorithm leaves it raw, which moves the
//! rest of the path into the query when the output is canonicalized again;
//! with the escape every profile stays idempotent.
//!
//! A missing scheme means `http://`. URLs without an authority
//! (`mailto:a@b`) get only steps 1, 2 and 7.

use crate::lenient::{self, RawUrl};
use crate::percent::push_escape;
pub use crate::percent::unescape_repeatedly;

/// Canonicalizes `input` per Safe Browsing. Never fails.
///
/// One deviation from the published algorithm, so that canonicalizing is
/// idempotent: a hierarchical URL whose host normalizes to nothing
/// (`http://./e`) would serialize as `http:///e`, which reads back with
/// `e` as its host; the result is that reading, canonicalized.
pub fn canonicalize(input: &[u8]) -> String {
    let mut canonical = canonicalize_once(input);
    for _ in 0..MAX_EMPTY_HOST_READINGS {
        match empty_host_reading(&canonical) {
            Some(again) => canonical = canonicalize_once(again.as_bytes()),
            None => break,
        }
    }
    canonical
}

/// How many times an empty host is read back from the path at most. Each
/// reading moves the path's first segment (with the slashes before it)
/// into the host; a segment that normalizes to no host again (`\\.`, which
/// the path's dot-segment removal keeps because `\\` does not separate
/// path segments there) needs one more. Real URLs need one; the bound keeps
/// the work linear on hostile ones (deeper nests than this keep an empty
/// host, and are then not a fixed point).
pub(crate) const MAX_EMPTY_HOST_READINGS: usize = 64;

/// The text to canonicalize again when `canonical` is a hierarchical URL
/// with an empty host and a path that the split reads a host from (its
/// scheme skips slashes: [`lenient::skips_slashes`]). `file:///x` and
/// `foo:///x` read back as they are: they are fixed points already.
pub(crate) fn empty_host_reading(canonical: &str) -> Option<&str> {
    let (scheme, rest) = canonical.split_once("://")?;
    (lenient::skips_slashes(scheme.as_bytes()) && rest.starts_with('/') && rest.len() > 1)
        .then_some(canonical)
}

fn canonicalize_once(input: &[u8]) -> String {
    let cleaned = clean(input);
    let u = lenient::split(&cleaned);
    let mut out = Vec::with_capacity(cleaned.len() + 8);
    if !u.has_authority {
        out.extend_from_slice(u.scheme);
        out.push(b':');
        write_opaque_path(&mut out, &unescape_repeatedly(u.path));
        if let Some(q) = u.query {
            out.push(b'?');
            escape_into(&mut out, &unescape_repeatedly(q));
        }
        return ascii(out);
    }
    write_hierarchical(&u, &mut out);
    ascii(out)
}

/// Writes the unescaped path of a URL without an authority, escaped so
/// that it reads back as the same path: delimiters that unescaping made
/// (`x:/%2F…` would start an authority, `x:80%2F` read as `host:port/`, a
/// `?` start a query) stay escaped, and so does the last digit of a path
/// that unescaping made all digits (`x:8%30?q` would read as `host:port`).
fn write_opaque_path(out: &mut Vec<u8>, path: &[u8]) {
    let digits = path.iter().take_while(|b| b.is_ascii_digit()).count();
    let all_digits = digits > 0 && digits == path.len();
    for (i, &b) in path.iter().enumerate() {
        let delimiter = match b {
            b'?' => true,
            b'/' | b'\\' => (i == 1 && path[0] == b'/') || (digits > 0 && i == digits),
            b'0'..=b'9' => all_digits && i + 1 == digits,
            _ => false,
        };
        if delimiter {
            push_escape(out, b);
        } else {
            escape_into(out, &[b]);
        }
    }
}

/// The canonical pieces of a hierarchical URL, before serialization (shared
/// with the Internet Archive canonicalizer, which continues from here).
pub(crate) struct Canonical {
    pub scheme: Vec<u8>,
    pub userinfo: Option<Vec<u8>>,
    pub host: Vec<u8>,
    pub host_is_ip: bool,
    pub port: Option<Vec<u8>>,
    pub path: Vec<u8>,
    pub query: Option<Vec<u8>>,
}

pub(crate) fn canonical_parts(u: &RawUrl<'_>) -> Canonical {
    let scheme = if u.scheme.is_empty() {
        b"http".to_vec()
    } else {
        u.scheme.to_ascii_lowercase()
    };
    let (host, host_is_ip) = canonical_host(u.host);
    let mut path = normalize_path(&unescape_repeatedly(u.path));
    if path.is_empty() {
        path.push(b'/');
    }
    let escaped = |s: &[u8]| {
        let mut v = Vec::with_capacity(s.len());
        escape_into(&mut v, s);
        v
    };
    // Delimiters that unescaping produced inside the authority stay
    // escaped, so that the output splits as the input did: `/ \ ?` would
    // end the authority, `@` move the userinfo, `:` start the port.
    let authority_escaped = |s: &[u8], keep: &dyn Fn(usize, u8) -> bool| {
        let mut v = Vec::with_capacity(s.len());
        for (i, &b) in s.iter().enumerate() {
            if matches!(b, b'/' | b'\\' | b'?' | b'@' | b':' | b'[' | b']') && !keep(i, b) {
                push_escape(&mut v, b);
            } else {
                escape_into(&mut v, &[b]);
            }
        }
        v
    };
    let bracketed = host_is_ip;
    let last = host.len().saturating_sub(1);
    Canonical {
        scheme,
        // A `:` in the userinfo separates the password; the last `@` ends it.
        userinfo: u
            .userinfo
            .map(|s| authority_escaped(&unescape_repeatedly(s), &|_, b| b == b':' || b == b'@')),
        host: authority_escaped(&host, &|i, b| {
            // A dotted IPv4 address has none; a bracketed one (IPv6) keeps
            // its brackets (first and last byte) and its colons.
            bracketed && (b == b':' || (b == b'[' && i == 0) || (b == b']' && i == last))
        }),
        host_is_ip,
        port: u
            .port
            .filter(|p| !p.is_empty())
            // The port is everything after the host's colon, junk included.
            .map(|p| authority_escaped(&unescape_repeatedly(p), &|_, b| b == b':')),
        path: {
            // A `?` that unescaping produced stays part of the path: written
            // raw it would become a query on the next pass (the published
            // algorithm leaves it raw and so is not idempotent there).
            let mut v = escaped(&path);
            if v.contains(&b'?') {
                let mut w = Vec::with_capacity(v.len() + 4);
                for b in v {
                    if b == b'?' {
                        w.extend_from_slice(b"%3F");
                    } else {
                        w.push(b);
                    }
                }
                v = w;
            }
            v
        },
        query: u.query.map(|q| escaped(&unescape_repeatedly(q))),
    }
}

fn write_hierarchical(u: &RawUrl<'_>, out: &mut Vec<u8>) {
    let c = canonical_parts(u);
    out.extend_from_slice(&c.scheme);
    out.extend_from_slice(b"://");
    if let Some(ui) = &c.userinfo {
        out.extend_from_slice(ui);
        out.push(b'@');
    }
    out.extend_from_slice(&c.host);
    if let Some(p) = &c.port {
        out.push(b':');
        out.extend_from_slice(p);
    }
    out.extend_from_slice(&c.path);
    if let Some(q) = &c.query {
        out.push(b'?');
        out.extend_from_slice(q);
    }
}

/// Step 1 and the whitespace trim.
pub(crate) fn clean(input: &[u8]) -> Vec<u8> {
    let start = input.iter().position(|&b| b > 0x20).unwrap_or(input.len());
    let end = input
        .iter()
        .rposition(|&b| b > 0x20)
        .map_or(start, |e| e + 1);
    input[start..end]
        .iter()
        .copied()
        .filter(|&b| !matches!(b, b'\t' | b'\r' | b'\n'))
        .collect()
}

fn escape_into(out: &mut Vec<u8>, s: &[u8]) {
    for &b in s {
        if b <= 0x20 || b >= 0x7F || b == b'#' || b == b'%' {
            push_escape(out, b);
        } else {
            out.push(b);
        }
    }
}

fn ascii(v: Vec<u8>) -> String {
    // Every byte ≥ 0x80 was escaped.
    String::from_utf8(v).expect("escaped output is ASCII")
}

/// Step 4. Returns the host bytes (unescaped; escaping comes last) and
/// whether it is an IP address.
fn canonical_host(raw: &[u8]) -> (Vec<u8>, bool) {
    if raw.first() == Some(&b'[') {
        // Unescaped like any host, so that escaping it again (last) gives
        // the same bytes on the next pass.
        return (unescape_repeatedly(raw).to_ascii_lowercase(), true);
    }
    let dots = normalize_dots(&unescape_repeatedly(raw));
    let ipv4 = |dots: &[u8]| {
        let [a, b, c, d] = parse_ipv4(dots)?.to_be_bytes();
        Some((format!("{a}.{b}.{c}.{d}").into_bytes(), true))
    };
    if let Some(ip) = ipv4(&dots) {
        return ip;
    }
    let delimiter =
        |b: &u8| matches!(b, b'/' | b'\\' | b'?' | b'@' | b':' | b'#' | b'%') || *b <= 0x20;
    // IDNA maps full-width forms to ASCII (`％` to `%`, `／` to `/`): a
    // result holding a delimiter would read differently on the next pass
    // (`％39` as the escape `%39`), so such a host is kept as it is.
    if !dots.is_ascii()
        && !dots.iter().any(delimiter)
        && let Some(a) = idna_to_ascii(&dots)
        && !a.iter().any(delimiter)
    {
        // IDNA maps full-width and ideographic dots to `.`: the dots are
        // normalized again, so that a second pass finds nothing to do.
        let a = normalize_dots(&a);
        return ipv4(&a).unwrap_or((a, false));
    }
    (dots.to_ascii_lowercase(), false)
}

/// Removes leading and trailing dots and collapses runs of dots.
fn normalize_dots(h: &[u8]) -> Vec<u8> {
    let mut dots = Vec::with_capacity(h.len());
    for &b in h {
        if b == b'.' && (dots.is_empty() || dots.last() == Some(&b'.')) {
            continue;
        }
        dots.push(b);
    }
    while dots.last() == Some(&b'.') {
        dots.pop();
    }
    dots
}

fn idna_to_ascii(host: &[u8]) -> Option<Vec<u8>> {
    let text: String = match std::str::from_utf8(host) {
        Ok(s) => s.to_owned(),
        Err(_) => host.iter().map(|&b| b as char).collect(), // ISO-8859-1
    };
    idna::domain_to_ascii(&text).ok().map(String::into_bytes)
}

/// Step 5 on the unescaped path: dot segments, then runs of `/`.
fn normalize_path(p: &[u8]) -> Vec<u8> {
    let mut segs: Vec<&[u8]> = Vec::new();
    let body = p.strip_prefix(b"/").unwrap_or(p);
    let parts: Vec<&[u8]> = body.split(|&b| b == b'/').collect();
    let n = parts.len();
    let mut trailing_slash = false;
    for (i, seg) in parts.into_iter().enumerate() {
        let last = i + 1 == n;
        match seg {
            b"." => trailing_slash = last,
            b".." => {
                segs.pop();
                trailing_slash = last;
            }
            b"" => trailing_slash = last, // collapses `//`
            s => {
                segs.push(s);
                trailing_slash = false;
            }
        }
    }
    let mut out = Vec::with_capacity(p.len() + 1);
    for s in &segs {
        out.push(b'/');
        out.extend_from_slice(s);
    }
    if trailing_slash || segs.is_empty() {
        out.push(b'/');
    }
    out
}

/// An IPv4 address in any form the URL Standard's IPv4 parser accepts
/// (1–4 parts; decimal, `0x` hex, `0` octal; the last part fills the
/// remaining bytes; one trailing dot allowed), or `None` when `host` is not
/// one. This is also urlcanon's "funky IPv4" reading.
pub fn parse_ipv4(host: &[u8]) -> Option<u32> {
    let host = host.strip_suffix(b".").unwrap_or(host);
    if host.is_empty() {
        return None;
    }
    let parts: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut nums = Vec::with_capacity(4);
    for p in &parts {
        nums.push(parse_ipv4_number(p)?);
    }
    let (last, init) = nums.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    let limit = 256u64.pow(5 - nums.len() as u32);
    if *last >= limit {
        return None;
    }
    let mut v = *last;
    for (i, &n) in init.iter().enumerate() {
        v += n << (8 * (3 - i));
    }
    u32::try_from(v).ok()
}

fn parse_ipv4_number(p: &[u8]) -> Option<u64> {
    if p.is_empty() {
        return None;
    }
    let (digits, radix) = if p.len() >= 2 && p[0] == b'0' && (p[1] == b'x' || p[1] == b'X') {
        (&p[2..], 16)
    } else if p.len() >= 2 && p[0] == b'0' {
        (&p[1..], 8)
    } else {
        (p, 10)
    };
    if digits.is_empty() {
        return Some(0);
    }
    let mut v: u64 = 0;
    for &b in digits {
        let d = (b as char).to_digit(radix)? as u64;
        v = v.checked_mul(radix as u64)?.checked_add(d)?;
        if v > u64::from(u32::MAX) * 256 {
            return None;
        }
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_examples() {
        for (i, o) in [
            ("http://host/%25%32%35", "http://host/%25"),
            ("http://www.google.com/blah/..", "http://www.google.com/"),
            ("http://www.google.com.../", "http://www.google.com/"),
            ("http://3279880203/blah", "http://195.127.0.11/blah"),
            ("www.google.com", "http://www.google.com/"),
            ("http://evil.com/foo#bar#baz", "http://evil.com/foo"),
            (
                "http://host.com//twoslashes?more//slashes",
                "http://host.com/twoslashes?more//slashes",
            ),
            ("mailto:a b@example.com", "mailto:a%20b@example.com"),
            ("", "http:///"),
        ] {
            assert_eq!(canonicalize(i.as_bytes()), o, "{i:?}");
        }
    }

    #[test]
    fn empty_hosts_are_read_back_only_where_the_split_reads_one() {
        // The host is taken from the path where `scheme:///path` would read
        // back with one; `file:` and unknown schemes are fixed points as
        // they are (read again, they would give themselves).
        assert_eq!(canonicalize(b"wss://:/a/b"), "wss://a/b");
        assert_eq!(canonicalize(b"ftp:://x"), "ftp://x/");
        for fixed in ["file:///x", "foo:///x", "http://h/"] {
            assert_eq!(canonicalize(fixed.as_bytes()), fixed);
            assert_eq!(empty_host_reading(fixed), None, "{fixed}");
        }
        assert_eq!(empty_host_reading("http:///x"), Some("http:///x"));
    }

    #[test]
    fn ipv4_forms() {
        assert_eq!(parse_ipv4(b"0x7f.1"), Some(0x7f00_0001));
        assert_eq!(parse_ipv4(b"1.2.3.4."), Some(0x0102_0304));
        assert_eq!(parse_ipv4(b"1..2"), None);
        assert_eq!(parse_ipv4(b"09"), None);
        assert_eq!(parse_ipv4(b"4294967296"), None);
        assert_eq!(parse_ipv4(b"99999999999999999999999"), None);
    }
}
