//! The `safe` profile's promise, case by case: pairs of URLs that can name
//! different pages must keep different keys, and pairs that name the same
//! page by definition (the WHATWG parser's normalizations, RFC 3986 §6.2.2,
//! in-page anchors) must share one. Each pair is checked with the URL key
//! and with the SURT key of the same rules, and both ways round.
//!
//! The reasons for each decision are in the rules' docs (`Rule`); the tests
//! name the class of input they stand for.

use spinneret_canon::{Canonicalizer, KeyForm, Profile, Rule};

/// `safe` keyed by its canonical URL and `safe` keyed by SURT.
fn safe_keyers() -> [Canonicalizer; 2] {
    let mut surt = Profile::safe();
    surt.key = KeyForm::Surt;
    [
        Canonicalizer::new(Profile::safe()),
        Canonicalizer::new(surt),
    ]
}

fn key(c: &mut Canonicalizer, url: &str) -> String {
    c.key(url)
        .unwrap_or_else(|e| panic!("{url}: {e}"))
        .to_owned()
}

/// Pairs that may be different pages: `safe` keeps them apart.
const DISTINCT: &[(&str, &str, &str)] = &[
    // Hash-bang routes (the AJAX crawling scheme): the fragment is the page.
    (
        "#! routes",
        "http://example.com/#!/a",
        "http://example.com/#!/b",
    ),
    (
        "#! route vs none",
        "http://example.com/#!/a",
        "http://example.com/",
    ),
    (
        "#! route vs anchor",
        "http://example.com/#!/a",
        "http://example.com/#a",
    ),
    (
        "#! route without /",
        "http://twitter.com/#!Sn00ki",
        "http://twitter.com/",
    ),
    (
        "#! route, case",
        "http://example.com/#!/A",
        "http://example.com/#!/a",
    ),
    (
        "#! route, trailing /",
        "http://example.com/#!/a",
        "http://example.com/#!/a/",
    ),
    (
        "#! route, not decoded",
        "http://example.com/#!/%41",
        "http://example.com/#!/A",
    ),
    (
        "#! route, hex case kept",
        "http://example.com/#!/a%2fb",
        "http://example.com/#!/a%2Fb",
    ),
    (
        "#! route, query kept",
        "http://example.com/#!/s?q=1",
        "http://example.com/#!/s?q=2",
    ),
    (
        "#! root route",
        "http://example.com/#!/",
        "http://example.com/",
    ),
    (
        "#! vs #/ routes",
        "http://example.com/#!/a",
        "http://example.com/#/a",
    ),
    // Single-page application hash routing (`#/path`).
    (
        "#/ routes",
        "https://app.example/#/app/1",
        "https://app.example/#/app/2",
    ),
    (
        "#/ route vs none",
        "https://app.example/#/login",
        "https://app.example/",
    ),
    (
        "#/ root route",
        "https://app.example/#/",
        "https://app.example/",
    ),
    // Encoded delimiters are not the delimiter.
    (
        "%2F in path",
        "http://example.com/a%2Fb",
        "http://example.com/a/b",
    ),
    (
        "%2f in path",
        "http://example.com/a%2fb",
        "http://example.com/a/b",
    ),
    (
        "%3F in path",
        "http://example.com/a%3Fb",
        "http://example.com/a?b",
    ),
    (
        "%23 in path",
        "http://example.com/a%23b",
        "http://example.com/a",
    ),
    (
        "%26 in query",
        "http://example.com/?a=1%26b=2",
        "http://example.com/?a=1&b=2",
    ),
    (
        "%3D in query",
        "http://example.com/?a%3D1",
        "http://example.com/?a=1",
    ),
    (
        "%23 in query",
        "http://example.com/?q=%23x",
        "http://example.com/?q=",
    ),
    (
        "%2B in query",
        "http://example.com/?q=a%2Bb",
        "http://example.com/?q=a+b",
    ),
    (
        "%3B in path",
        "http://example.com/a%3Bb",
        "http://example.com/a;b",
    ),
    (
        "reserved %21",
        "http://example.com/a%21",
        "http://example.com/a!",
    ),
    // Case outside the host and the hex digits.
    (
        "path case",
        "http://example.com/Docs/A.html",
        "http://example.com/docs/a.html",
    ),
    (
        "query case",
        "http://example.com/?id=AbC",
        "http://example.com/?id=abc",
    ),
    // Query order, duplicates, empties.
    (
        "query order",
        "http://example.com/?a=1&b=2",
        "http://example.com/?b=2&a=1",
    ),
    (
        "repeated name order",
        "http://example.com/?a=1&a=2",
        "http://example.com/?a=2&a=1",
    ),
    (
        "duplicate parameter",
        "http://example.com/?a=1&a=1",
        "http://example.com/?a=1",
    ),
    (
        "empty parameter",
        "http://example.com/?a=1&&b=2",
        "http://example.com/?a=1&b=2",
    ),
    (
        "empty query",
        "http://example.com/a?",
        "http://example.com/a",
    ),
    (
        "tracking parameter",
        "http://example.com/?utm_source=x",
        "http://example.com/",
    ),
    // Path shape.
    (
        "trailing slash",
        "http://example.com/a",
        "http://example.com/a/",
    ),
    (
        "default document",
        "http://example.com/a/",
        "http://example.com/a/index.html",
    ),
    (
        "default document at root",
        "http://example.com/",
        "http://example.com/index.php",
    ),
    (
        "double slash",
        "http://example.com/a//b",
        "http://example.com/a/b",
    ),
    (
        "session id in path",
        "http://example.com/a;jsessionid=0123456789ABCDEF",
        "http://example.com/a",
    ),
    // Host.
    ("www", "http://www.example.com/", "http://example.com/"),
    ("www2", "http://www2.example.com/", "http://example.com/"),
    ("port", "http://example.com:8080/", "http://example.com/"),
];

/// Pairs differing only in what the SURT key leaves out by definition (CDX
/// keys have no scheme and no userinfo): distinct as URLs only.
const DISTINCT_AS_URLS: &[(&str, &str, &str)] = &[
    ("scheme", "https://example.com/", "http://example.com/"),
    (
        "userinfo",
        "http://user@example.com/",
        "http://example.com/",
    ),
];

/// Pairs that are one page: `safe` merges them.
const MERGED: &[(&str, &str, &str)] = &[
    // The WHATWG parser: what a browser sends for both.
    (
        "scheme and host case",
        "HTTP://EXAMPLE.COM/a",
        "http://example.com/a",
    ),
    (
        "default port",
        "http://example.com:80/",
        "http://example.com/",
    ),
    ("empty path", "http://example.com", "http://example.com/"),
    (
        "dot segments",
        "http://example.com/a/./b/../c",
        "http://example.com/a/c",
    ),
    (
        "%2e dot segment",
        "http://example.com/a/%2e%2E/c",
        "http://example.com/c",
    ),
    (
        "backslash",
        "http://example.com/a\\b",
        "http://example.com/a/b",
    ),
    ("IPv4 forms", "http://0x7f.1/", "http://127.0.0.1/"),
    (
        "IDNA",
        "http://BÜCHER.example/",
        "http://xn--bcher-kva.example/",
    ),
    // RFC 3986 §6.2.2.
    (
        "unreserved %7E",
        "http://example.com/%7Euser",
        "http://example.com/~user",
    ),
    (
        "unreserved %41 in query",
        "http://example.com/?q=%41",
        "http://example.com/?q=A",
    ),
    (
        "hex case",
        "http://example.com/a%2fb",
        "http://example.com/a%2Fb",
    ),
    (
        "hex case in query",
        "http://example.com/?q=%c3%a9",
        "http://example.com/?q=%C3%A9",
    ),
    (
        "trailing host dot",
        "http://example.com./",
        "http://example.com/",
    ),
    // In-page anchors.
    ("anchor", "http://example.com/a#top", "http://example.com/a"),
    (
        "two anchors",
        "http://example.com/a#top",
        "http://example.com/a#sec-2",
    ),
    (
        "empty fragment",
        "http://example.com/a#",
        "http://example.com/a",
    ),
    (
        "empty hash-bang",
        "http://example.com/a#!",
        "http://example.com/a",
    ),
    (
        "tracking marker",
        "http://example.com/a#e=NavLink",
        "http://example.com/a",
    ),
    (
        "encoded ! is no hash-bang",
        "http://example.com/a#%21/x",
        "http://example.com/a",
    ),
    // A kept route is percent-encoded as the URL Standard's fragment set does.
    (
        "route, space",
        "http://example.com/#!/a b",
        "http://example.com/#!/a%20b",
    ),
];

#[test]
fn safe_keeps_pages_that_may_differ_apart() {
    let mut failures = Vec::new();
    for (i, c) in safe_keyers().iter_mut().enumerate() {
        let pairs = DISTINCT
            .iter()
            .chain(if i == 0 { DISTINCT_AS_URLS } else { &[] });
        for &(class, a, b) in pairs {
            let (ka, kb) = (key(c, a), key(c, b));
            if ka == kb {
                failures.push(format!(
                    "{} key, {class}: {a} and {b} -> {ka}",
                    c.profile().name
                ));
            }
        }
    }
    assert!(failures.is_empty(), "merged:\n{}", failures.join("\n"));
}

#[test]
fn safe_merges_what_is_one_page() {
    let mut failures = Vec::new();
    for c in safe_keyers().iter_mut() {
        for &(class, a, b) in MERGED {
            let (ka, kb) = (key(c, a), key(c, b));
            if ka != kb {
                failures.push(format!("{class}: {a} -> {ka} but {b} -> {kb}"));
            }
        }
    }
    assert!(failures.is_empty(), "not merged:\n{}", failures.join("\n"));
}

#[test]
fn kept_routes_are_written_as_the_url_standard_serializes_them() {
    let mut c = Canonicalizer::new(Profile::safe());
    for (input, canonical) in [
        ("http://example.com/#!/a", "http://example.com/#!/a"),
        (
            "HTTP://Example.com:80/%7Ex/#!/%7E b",
            "http://example.com/~x/#!/%7E%20b",
        ),
        (
            "http://example.com/#/App?id=%2f",
            "http://example.com/#/App?id=%2f",
        ),
        ("http://example.com/#!", "http://example.com/"),
        ("http://example.com/#top", "http://example.com/"),
    ] {
        assert_eq!(c.canonicalize(input).unwrap(), canonical, "{input}");
    }
    let mut surt = Profile::safe();
    surt.key = KeyForm::Surt;
    let mut c = Canonicalizer::new(surt);
    assert_eq!(
        c.key("http://www.example.com/p?q=1#!/route").unwrap(),
        "com,example,www)/p?q=1#!/route"
    );
    assert_eq!(
        c.key("http://www.example.com/p?q=1#top").unwrap(),
        "com,example,www)/p?q=1"
    );
}

#[test]
fn other_profiles_drop_every_fragment() {
    // `lee2005` and `aggressive` follow sources that truncate the fragment;
    // `surt` and `safebrowsing` follow external algorithms that do.
    for name in ["lee2005", "aggressive", "surt", "safebrowsing"] {
        let mut c = Canonicalizer::new(Profile::builtin(name).unwrap());
        let out = c
            .canonicalize("http://example.com/a#!/b")
            .unwrap()
            .to_owned();
        assert!(!out.contains('#'), "{name}: {out}");
    }
    // Removing `drop-anchor` keeps every fragment, as written.
    let mut c = Canonicalizer::new(Profile::safe().edit(&["-drop-anchor"]).unwrap());
    assert_eq!(
        c.canonicalize("http://example.com/#Top").unwrap(),
        "http://example.com/#Top"
    );
    assert!(Profile::safe().rules.contains(Rule::DropAnchor));
    assert!(!Profile::safe().rules.contains(Rule::DropFragment));
}
