//! WPT `url/resources/percent-encoding.json`, whole file: a query written
//! in a document of each encoding is percent-encoded through
//! [`DocumentQueryEncoder`] by the URL parser (special-query set), as the
//! WPT test does with `<a href="https://doesnotmatter.invalid/?{input}">`.

use spinneret_encoding::{DocumentQueryEncoder, Encoding};
use spinneret_url::Url;

#[test]
fn percent_encoding_json() {
    let json: serde_json::Value = serde_json::from_str(&spinneret_testdata::read_to_string(
        "testdata/wpt-url/percent-encoding.json",
    ))
    .unwrap();
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in json.as_array().unwrap() {
        // Strings are comments.
        let Some(case) = case.as_object() else {
            continue;
        };
        let input = case["input"].as_str().unwrap();
        for (label, expected) in case["output"].as_object().unwrap() {
            let encoding = Encoding::for_label(label.as_bytes()).unwrap();
            let encoder = DocumentQueryEncoder::new(encoding);
            let url = Url::options()
                .query_encoder(Some(&encoder))
                .parse(&format!("https://doesnotmatter.invalid/?{input}#{input}"))
                .unwrap();
            let got = url.search();
            let want = format!("?{}", expected.as_str().unwrap());
            if got != want {
                failures.push(format!("{input:?} in {label}: got {got}, want {want}"));
            }
            checked += 1;
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 12, "only {checked} checks");
}
