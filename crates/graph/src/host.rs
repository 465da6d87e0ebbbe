//! A host name as Common Crawl's web graphs name a vertex: cc-pyspark's
//! `ExtractHostLinksJob.get_surt_host`, applied to the host a browser
//! finds in the URL (spinneret-url's WHATWG parse), not to what Python's
//! `urlparse` finds.
//!
//! Steps, in `get_surt_host`'s order:
//! 1. trim and lower-case; 1 to 253 bytes;
//! 2. not an IPv4 address (`a.b.c.d` of 1–3 digits each, a leading `www.`
//!    allowed) — nor an IPv6 one, which has no dot and fails step 4;
//! 3. a trailing dot is dropped;
//! 4. two labels or more;
//! 5. with [`SurtHostOptions::strip_www`] (Common Crawl's graphs until
//!    2025), a leading `www` is dropped when more than two labels remain;
//! 6. each label at most 63 bytes and `[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?`,
//!    else IDNA-encoded (`idna.encode`, IDNA 2008), which must give such a
//!    label, else the host is dropped;
//! 7. the labels reversed and joined by dots: `www.example.com` →
//!    `com.example.www`.
//!
//! Invariant: the result is ASCII, lower case, of two labels or more, each
//! matching the label pattern; so it never holds a tab or a newline (the
//! graph's text files are safe).

use spinneret_url::Url;

/// How [`surt_host`] names a host.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SurtHostOptions {
    /// Drop a leading `www.` when more than two labels remain, as Common
    /// Crawl's graphs did until 2025 (since the first graph of 2026 the
    /// `www.` is kept: cc-pyspark #56/#57).
    pub strip_www: bool,
}

/// `host` (as a URL's host serializes) as a reversed host name, or `None`
/// when Common Crawl's rules drop it (an IP address, a single label, an
/// invalid label).
///
/// ```
/// use spinneret_graph::{SurtHostOptions, surt_host};
/// let keep = SurtHostOptions::default();
/// assert_eq!(surt_host("www.Example.com.", keep).as_deref(), Some("com.example.www"));
/// let strip = SurtHostOptions { strip_www: true };
/// assert_eq!(surt_host("www.example.com", strip).as_deref(), Some("com.example"));
/// assert_eq!(surt_host("www.com", strip).as_deref(), Some("com.www"));
/// assert_eq!(surt_host("192.168.0.1", keep), None);
/// assert_eq!(surt_host("localhost", keep), None);
/// ```
pub fn surt_host(host: &str, options: SurtHostOptions) -> Option<String> {
    let mut out = String::with_capacity(host.len());
    surt_host_into(host, options, &mut out).then_some(out)
}

/// Whether a URL's host is a web host for the graph (a page's or a
/// link's): its scheme is two to six letters and digits, starting with a
/// letter (`http`, `https`, `ftp`, `wss`…), cc-pyspark's rule
/// (`^(?:[a-z][a-z0-9]{1,5}:)?//`). It keeps out the "hosts" of app links —
/// `android-app://com.example.app/…`, `ios-app://`, `fb-messenger://`,
/// `whatsapp://` — which name apps, not sites, and wget's `metadata://`
/// records.
pub fn names_a_web_host(url: &Url) -> bool {
    let scheme = url.scheme().as_bytes();
    (2..=6).contains(&scheme.len())
        && scheme[0].is_ascii_lowercase()
        && scheme[1..]
            .iter()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// The reversed host name of a URL for the graph: [`surt_host`] of its
/// host when [`names_a_web_host`] holds, else `None`.
///
/// ```
/// use spinneret_graph::{SurtHostOptions, url_surt_host};
/// use spinneret_url::Url;
/// let o = SurtHostOptions::default();
/// let url = |s| Url::parse(s).unwrap();
/// assert_eq!(url_surt_host(&url("https://www.Example.com/a"), o).as_deref(), Some("com.example.www"));
/// assert_eq!(url_surt_host(&url("android-app://com.example.app/http/x"), o), None);
/// assert_eq!(url_surt_host(&url("mailto:a@example.com"), o), None);
/// ```
pub fn url_surt_host(url: &Url, options: SurtHostOptions) -> Option<String> {
    names_a_web_host(url)
        .then(|| surt_host(url.hostname(), options))
        .flatten()
}

/// [`surt_host`] into `out` (cleared first): whether the host is kept.
/// (A crawl's pages name a few hosts each, millions of times: the buffer
/// is reused.)
pub fn surt_host_into(host: &str, options: SurtHostOptions, out: &mut String) -> bool {
    out.clear();
    // Step 1: trim and lower-case; 1 to 253 bytes.
    let host = host.trim();
    if host.is_empty() || host.len() > 253 {
        return false;
    }
    let lower;
    let host = if host.bytes().any(|b| b.is_ascii_uppercase()) {
        lower = host.to_ascii_lowercase();
        lower.as_str()
    } else {
        host
    };
    // Step 2: not an IPv4 address.
    if is_ipv4(host.strip_prefix("www.").unwrap_or(host)) {
        return false;
    }
    // Step 3: a trailing dot is dropped.
    let host = host.strip_suffix('.').unwrap_or(host);
    // Step 4: two labels or more.
    let mut labels: Vec<&str> = host.split('.').collect();
    if labels.len() < 2 {
        return false;
    }
    // Step 5: the older `www.` stripping.
    if options.strip_www && labels.len() > 2 && labels[0] == "www" {
        labels.remove(0);
    }
    // Steps 6 and 7: each label valid (or IDNA-encoded to a valid one),
    // in reverse order.
    for (i, label) in labels.iter().rev().enumerate() {
        if i > 0 {
            out.push('.');
        }
        if label.len() > 63 {
            return false;
        }
        if is_host_label(label) {
            out.push_str(label);
        } else if let Some(encoded) = idna_label(label) {
            out.push_str(&encoded);
        } else {
            return false;
        }
    }
    true
}

/// `^(?:\d{1,3}\.){3}\d{1,3}$`: what cc-pyspark takes for an IPv4 address.
fn is_ipv4(host: &str) -> bool {
    let mut parts = 0;
    for part in host.split('.') {
        parts += 1;
        if part.is_empty() || part.len() > 3 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return false;
        }
    }
    parts == 4
}

/// `^[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?$` (the label is lower case
/// already).
pub(crate) fn is_host_label(label: &str) -> bool {
    let b = label.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    match b {
        [] => false,
        [c] => alnum(*c),
        [first, middle @ .., last] => {
            b.len() <= 63
                && alnum(*first)
                && alnum(*last)
                && middle.iter().all(|&c| alnum(c) || c == b'-' || c == b'_')
        }
    }
}

/// The label IDNA-encoded (Python's `idna.encode(label)`: IDNA 2008, no
/// transitional mapping), when that gives a valid host label.
fn idna_label(label: &str) -> Option<String> {
    // An ASCII label that fails the pattern fails IDNA 2008 too (an empty
    // label, a hyphen at either end, an underscore or another symbol).
    if label.is_ascii() {
        return None;
    }
    let encoded = idna::domain_to_ascii_strict(label).ok()?;
    // One label in, one label out (a full stop variant would split it).
    if encoded.contains('.') || !is_host_label(&encoded) {
        return None;
    }
    Some(encoded)
}

/// Whether a reversed host name's top-level label is a top-level domain
/// that IANA delegates: its ICANN section of the Public Suffix List
/// names it (`hostlinks_to_graph.py --validate_host_names`, which reads
/// IANA's list; the two differ only while a newly delegated TLD waits for
/// the PSL's next release).
pub fn has_iana_tld(reversed: &str) -> bool {
    let tld = reversed.split('.').next().unwrap_or("");
    if tld.is_empty() {
        return false;
    }
    psl::suffix(tld.as_bytes())
        .is_some_and(|s| s.typ() == Some(psl::Type::Icann) && s.as_bytes() == tld.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEEP: SurtHostOptions = SurtHostOptions { strip_www: false };
    const STRIP: SurtHostOptions = SurtHostOptions { strip_www: true };

    #[test]
    fn hosts_as_get_surt_host_names_them() {
        for (host, keep, strip) in [
            ("example.com", Some("com.example"), Some("com.example")),
            (
                "www.example.com",
                Some("com.example.www"),
                Some("com.example"),
            ),
            (
                "WWW.Example.COM.",
                Some("com.example.www"),
                Some("com.example"),
            ),
            ("www.com", Some("com.www"), Some("com.www")),
            (
                "www.www.example.com",
                Some("com.example.www.www"),
                Some("com.example.www"),
            ),
            (
                "a_b.example.com",
                Some("com.example.a_b"),
                Some("com.example.a_b"),
            ),
            (
                "xn--bcher-kva.example",
                Some("example.xn--bcher-kva"),
                Some("example.xn--bcher-kva"),
            ),
            (
                "bücher.example",
                Some("example.xn--bcher-kva"),
                Some("example.xn--bcher-kva"),
            ),
            ("1.2.3.4", None, None),
            ("www.1.2.3.4", None, None),
            ("1.2.3.4.5", Some("5.4.3.2.1"), Some("5.4.3.2.1")),
            ("[::1]", None, None),
            ("localhost", None, None),
            ("localhost.", None, None),
            ("-bad.example.com", None, None),
            ("bad-.example.com", None, None),
            ("_dmarc.example.com", None, None),
            ("a..example.com", None, None),
            ("ex%41mple.com", None, None),
            ("", None, None),
        ] {
            assert_eq!(surt_host(host, KEEP).as_deref(), keep, "{host}");
            assert_eq!(
                surt_host(host, STRIP).as_deref(),
                strip,
                "{host} (www stripped)"
            );
        }
        let long = format!("{}.com", "a".repeat(64));
        assert_eq!(surt_host(&long, KEEP), None);
        let too_long = format!("{}com", "abcdefghi.".repeat(26));
        assert_eq!(surt_host(&too_long, KEEP), None);
    }

    #[test]
    fn top_level_domains_iana_delegates() {
        assert!(has_iana_tld("com.example"));
        assert!(has_iana_tld("uk.co.example"));
        assert!(has_iana_tld("xn--p1ai.example"));
        assert!(!has_iana_tld("local.example"));
        assert!(!has_iana_tld("invalid.example"));
        assert!(!has_iana_tld(""));
    }
}
