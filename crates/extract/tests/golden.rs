//! Golden test: `tests/data/all-kinds.html` (every link kind, written for
//! this crate) against `tests/data/all-kinds.expected`, one link a line:
//! kind, element, attribute, raw, resolved URL or error, rel, nofollow,
//! hreflang, as, text. Set `BLESS=1` to rewrite the expected file.

use spinneret_extract::{Headers, extract};
use spinneret_url::Url;

#[test]
fn every_kind() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/");
    let html = std::fs::read(format!("{dir}all-kinds.html")).expect("input");
    let page = Url::parse("https://www.example.com/news/today.html").expect("url");
    let headers = Headers {
        content_type: vec![b"text/html; charset=utf-8"],
        location: Some("/moved"),
        link: vec!["</hdr.css>; rel=preload"],
    };
    let mut lines = Vec::new();
    let s = extract(&html, &page, &headers, |l| {
        lines.push(format!(
            "{}\t{}\t{}{}\t{}\t{}\trel={:?}\tnofollow={}\threflang={:?}\tas={:?}\ttext={:?}",
            l.kind.as_str(),
            l.element,
            if l.svg { "svg:" } else { "" },
            l.attribute,
            l.raw,
            match &l.target {
                Ok(u) => u.href().to_owned(),
                Err(e) => format!("ERR {e:?}"),
            },
            l.rel,
            l.nofollow,
            l.hreflang,
            l.as_,
            l.text,
        ))
    });
    lines.push(format!(
        "links={} failures={} base={}",
        s.links,
        s.failures,
        s.base.href()
    ));
    let got = lines.join("\n") + "\n";
    let expected_path = format!("{dir}all-kinds.expected");
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&expected_path, &got).expect("write");
    }
    let expected = std::fs::read_to_string(&expected_path).expect("expected file");
    assert_eq!(got, expected);
}
