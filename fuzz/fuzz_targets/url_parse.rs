//! URL parsing, with and without a base: every parsed URL passes
//! `check_invariants`, and re-parsing its serialization gives the same URL
//! (the URL standard's serializer round trip: `parse(serialize(u)) == u`).
//!
//! Input: a base and an input separated by the first newline; with no
//! newline, the whole input is parsed without a base.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_url::Url;

/// Checks one parsed URL: its invariants and the serializer round trip.
fn check(url: &Url) {
    url.check_invariants().unwrap();
    let again = Url::parse(url.href())
        .unwrap_or_else(|e| panic!("{:?} does not re-parse: {e:?}", url.href()));
    assert_eq!(again.href(), url.href());
    again.check_invariants().unwrap();
    assert!(Url::can_parse(url.href(), None));
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (base, input) = match text.split_once('\n') {
        Some((base, input)) => (Some(base), input),
        None => (None, text),
    };
    let alone = Url::parse(input);
    if let Ok(url) = &alone {
        check(url);
    }
    assert_eq!(Url::can_parse(input, None), alone.is_ok());
    let Some(base) = base else { return };
    let Ok(base_url) = Url::parse(base) else {
        assert!(!Url::can_parse(input, Some(base)));
        return;
    };
    check(&base_url);
    let joined = Url::parse_with_base(input, &base_url);
    if let Ok(url) = &joined {
        check(url);
    }
    assert_eq!(Url::can_parse(input, Some(base)), joined.is_ok());
    let mut errors = Vec::new();
    let reported = Url::options()
        .base_url(Some(&base_url))
        .report_errors(&mut errors)
        .parse(input);
    assert_eq!(
        reported.as_ref().map(Url::href).ok(),
        joined.as_ref().map(Url::href).ok()
    );
});
