//! The fast paths against the state machine, over the whole corpus.
//!
//! Reporting validation errors turns the fast paths off, so the same input
//! parsed with and without an error sink exercises both implementations.
//! They must agree on the serialization and on every component offset; and
//! a [`UrlBuf`] reused for every input (which writes fast-path results
//! straight into its buffer) must hold what `Url::parse` returns.

use std::cell::RefCell;

use spinneret_url::{Url, UrlBuf};

thread_local! {
    /// One buffer for all the inputs of a test, as a crawler's loop keeps one.
    static BUF: RefCell<UrlBuf> = RefCell::new(UrlBuf::new());
}

fn slow(input: &str, base: Option<&Url>) -> Result<Url, spinneret_url::ParseError> {
    let mut errors = Vec::new();
    Url::options()
        .base_url(base)
        .report_errors(&mut errors)
        .parse(input)
}

fn check(input: &str, base: Option<&Url>, mismatches: &mut Vec<String>) {
    let fast = match base {
        Some(b) => Url::parse_with_base(input, b),
        None => Url::parse(input),
    };
    let slow = slow(input, base);
    BUF.with_borrow_mut(|buf| {
        let before = buf.href().to_owned();
        let parsed = match base {
            Some(b) => buf.parse_with_base(input, b),
            None => buf.parse(input),
        };
        let same = match (&fast, parsed) {
            (Ok(f), Ok(())) => f.href() == buf.href() && f.offsets() == buf.to_url().offsets(),
            (Err(f), Err(e)) => *f == e && buf.href() == before,
            _ => false,
        };
        if !same {
            mismatches.push(format!(
                "{input:?} base {:?}: UrlBuf {buf:?}, Url {fast:?}",
                base.map(Url::href)
            ));
        }
    });
    let same = match (&fast, &slow) {
        (Ok(f), Ok(s)) => {
            f.href() == s.href() && f.offsets() == s.offsets() && f.host_kind() == s.host_kind()
        }
        (Err(f), Err(s)) => f == s,
        _ => false,
    };
    if !same {
        mismatches.push(format!(
            "{input:?} base {:?}: fast {:?} {:?}, slow {:?} {:?}",
            base.map(Url::href),
            fast,
            fast.as_ref().map(Url::offsets).ok(),
            slow,
            slow.as_ref().map(Url::offsets).ok()
        ));
    }
}

#[test]
fn fast_paths_agree_with_the_state_machine_on_the_corpus() {
    let mut mismatches = Vec::new();
    let mut total = 0;
    for name in [
        "ada_kasztp",
        "ada_userbait",
        "ada_node_files",
        "ada_isaacs_files",
        "absolute_links",
        "page_urls",
    ] {
        for line in spinneret_testdata::lines(&format!("corpus/urls/{name}.txt")) {
            total += 1;
            check(&line, None, &mut mismatches);
        }
    }
    let text = spinneret_testdata::read_to_string("corpus/urls/extracted_links.tsv.gz");
    let mut current: Option<(String, Option<Url>)> = None;
    for row in text.lines().skip(1) {
        let cols: Vec<&str> = row.split('\t').collect();
        let (page_url, raw) = (cols[1], cols[5]);
        if current.as_ref().is_none_or(|(u, _)| u != page_url) {
            current = Some((page_url.to_owned(), Url::parse(page_url).ok()));
        }
        if let Some((_, Some(base))) = &current {
            total += 1;
            check(raw, Some(base), &mut mismatches);
            check(
                raw.trim_matches(|c: char| c.is_ascii_whitespace()),
                Some(base),
                &mut mismatches,
            );
        }
    }
    // Hand-picked shapes at the edges of the fast paths' conditions.
    let base = Url::parse("https://user:pw@example.com:8443/a/b/c?q#f").unwrap();
    let edges = [
        "http://example.com",
        "http://example.com?x",
        "http://example.com#x",
        "http://a.b.",
        "http://1.2.3.4/",
        "http://a.0x1/",
        "http://a.1./",
        // The last byte rules a number out (taken), or does not (`x`, hex
        // digits, digits, a trailing dot: left to the state machine).
        "http://a.1g/",
        "http://1.2.3.4z/",
        "http://a.0x/",
        "http://a.0xff/",
        "http://a.0x1a./",
        "http://a.09/",
        "http://a.1z./",
        "http://x.y:80/",
        "http://x.y:0/",
        "http://x.y:08/",
        "http://x.y:65536/",
        "http://x.y:/",
        "https://x/./a",
        "https://x/a/..",
        "https://x/%2e/",
        "https://x/.a/..b/...",
        "HTTP://x/",
        "Https://x/",
        "h2://x/",
        "ws://x/?'",
        "http://x/?a'b",
        "http://x/#`",
        "//x.y/z",
        "//X/",
        "///x",
        "/a?b#c",
        "/./a",
        "/..",
        "?",
        "#",
        "?a#b",
        "",
        "a",
        ".",
        "..",
        "./x",
        "a:b",
        "A:b",
        "a/b:c",
        "%2e/",
        "\\x",
        " x",
        "x ",
        "é",
        "http://x/é",
        "http://_a_/",
        "http://x.y:65535",
        "http://-/",
        "http://a..b/",
        "file:///C:/x",
        "file:///C|/x",
        "file:///c:",
        "file://localhost/x",
        "file://host",
        "file://1.2.3.4/",
        "file:///a/../b",
        "file://h:1/",
        "file:",
        "file:/x",
        "file://x?y#z",
        "node:url",
        "node: x",
        "node:x ?y",
        "node:x y",
        "node:x  y",
        "node:x  ?y",
        "node:x #y",
        "node:x y?a b",
        "node:x ",
        "node:x \ty",
        "node:x\t y",
        "node:x é",
        "node:x\u{7f}y",
        "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 7 7'>\"{}|^`</svg>",
        "javascript:f( 'a' );",
        "sc://host",
        "sc://Host/x",
        "sc://h:0/",
        "sc://h:00/",
        "sc:",
        "sc:?x#y",
        "sc:/x",
        "sc://h/a\\b",
        "sc://h?'",
        "mailto:a@b",
        "sc://1.2.3.4/",
        "sc://h#",
        "javascript:void(0)",
        "http://1.2.3.4",
        "http://1.2.3.4:8080/x",
        "http://255.255.255.255/",
        "http://256.1.1.1/",
        "http://01.2.3.4/",
        "http://1.2.3/",
        "http://1.2.3.4.5/",
        "http://0.0.0.0/",
        "http://1.2.3.04/",
        "file://1.2.3.4/x",
        "file://1.2.3.04/x",
        "./a",
        "../a",
        "../../../../a",
        "./../a/./b",
        "../",
        "..",
        "./",
        ".",
        "../..",
        "../.x",
        "../..x",
        "./?q",
        "../#f",
        ".././a",
        "..\\a",
        ".%2e/a",
    ];
    let root = Url::parse("http://h/").unwrap();
    let dir = Url::parse("http://h/dir/?q").unwrap();
    let ip = Url::parse("http://10.0.0.1:81/a/b").unwrap();
    for e in edges {
        for b in [None, Some(&base), Some(&root), Some(&dir), Some(&ip)] {
            total += 1;
            check(e, b, &mut mismatches);
        }
    }
    for m in &mismatches {
        println!("MISMATCH {m}");
    }
    println!("{total} inputs, {} mismatches", mismatches.len());
    assert!(mismatches.is_empty());
}
