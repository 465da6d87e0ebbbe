//! The link extractor on arbitrary bytes, fetched from an arbitrary URL with
//! arbitrary headers: it never panics, every resolved target and the base
//! pass the URL invariants, the summary's counts agree with the links it
//! reported, and a reused `Extractor` gives the same result.
//!
//! Input: NUL-ended fields — the page URL (a fixed one when it does not
//! parse), a `Content-Type` value, a `Location` value, a `Link` value — then
//! the page.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_extract::{Extractor, Headers};
use spinneret_fuzz::Input;
use spinneret_url::Url;

/// A field as text (invalid UTF-8 replaced), `None` when empty.
fn text(field: &[u8]) -> Option<String> {
    (!field.is_empty()).then(|| String::from_utf8_lossy(field).into_owned())
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let url = String::from_utf8_lossy(input.field()).into_owned();
    let content_type = input.field();
    let location = text(input.field());
    let link = text(input.field());
    let page = input.rest();
    let url = Url::parse(&url)
        .unwrap_or_else(|_| Url::parse("https://example.com/dir/page.html").expect("valid"));
    let headers = Headers {
        content_type: if content_type.is_empty() {
            Vec::new()
        } else {
            vec![content_type]
        },
        location: location.as_deref(),
        link: link.as_deref().into_iter().collect(),
    };
    let mut extractor = Extractor::new();
    let mut links = Vec::new();
    let mut failures = 0;
    let summary = extractor.extract(page, &url, &headers, |link| {
        match &link.target {
            Ok(target) => target.check_invariants().expect("a valid target URL"),
            Err(_) => failures += 1,
        }
        assert_eq!(
            link.raw,
            link.raw.trim_matches(|c: char| c.is_ascii_whitespace()),
            "raw URL text is trimmed"
        );
        links.push(format!("{link:?}"));
    });
    assert_eq!(summary.links, links.len());
    assert_eq!(summary.failures, failures);
    summary.base.check_invariants().expect("a valid base URL");

    let mut again = Vec::new();
    let second = extractor.extract(page, &url, &headers, |link| again.push(format!("{link:?}")));
    assert_eq!(again, links, "a reused extractor");
    assert_eq!(second.base.href(), summary.base.href());
});
