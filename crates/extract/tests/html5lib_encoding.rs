//! End-to-end encoding: every non-scripted html5lib encoding test
//! (`tests1.dat`, `tests2.dat`, `test-yahoo-jp.dat`) through the whole
//! per-page path — the prescan, then the real tokenizer meeting a late
//! `<meta>` and the change-the-encoding step — must end in the expected
//! encoding. (`encoding/scripted/` needs script execution and is out of
//! scope by design.)
//!
//! The page URL is `http://example.com/`: a generic TLD, so the detector's
//! default is windows-1252 as the tests assume. The extraction uses the
//! Crawler policy; where the Crawler rule (valid non-ASCII UTF-8 wins over a
//! declared legacy encoding) decides, the case is counted and printed apart
//! and checked to be exactly that rule.

use spinneret_encoding::{Encoding, Step};
use spinneret_extract::{Headers, extract};
use spinneret_url::Url;

fn cases(file: &str) -> Vec<(Vec<u8>, String)> {
    let raw = spinneret_testdata::read(&format!("testdata/html5lib/encoding/{file}"));
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let mut out = Vec::new();
    let mut rest: &[u8] = &raw;
    while let Some(start) = find(rest, b"#data\n") {
        rest = &rest[start + 6..];
        let end = find(rest, b"\n#encoding\n").expect("#encoding after #data");
        let data = rest[..end].to_vec();
        rest = &rest[end + 11..];
        let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        out.push((
            data,
            String::from_utf8_lossy(&rest[..line_end]).trim().to_owned(),
        ));
        rest = &rest[line_end..];
    }
    out
}

#[test]
fn every_case_through_the_real_tokenizer() {
    let url = Url::parse("http://example.com/").unwrap();
    let (mut total, mut late_meta, mut crawler_rule) = (0, 0, 0);
    let mut failures = Vec::new();
    for file in ["tests1.dat", "tests2.dat", "test-yahoo-jp.dat"] {
        for (i, (data, label)) in cases(file).iter().enumerate() {
            total += 1;
            let expected = Encoding::for_label(label.as_bytes()).expect("known label");
            let summary = extract(data, &url, &Headers::default(), |_| {});
            if summary.encoding_change.is_some() {
                late_meta += 1;
            }
            let got = summary.encoding.encoding;
            if got == expected {
                continue;
            }
            if summary.encoding.step == Step::Utf8Valid {
                crawler_rule += 1;
                println!("{file} #{i}: Crawler decodes valid UTF-8 as UTF-8 (a browser: {label})");
                continue;
            }
            failures.push(format!(
                "{file} #{i}: got {} ({:?}), expected {label}; data {:?}",
                got.name(),
                summary.encoding.step,
                String::from_utf8_lossy(&data[..data.len().min(100)])
            ));
        }
    }
    println!(
        "{total} cases; {late_meta} met a <meta> in the tokenizer while the encoding was tentative; \
         {crawler_rule} decided by the Crawler's UTF-8 rule"
    );
    assert!(
        late_meta >= 7,
        "only {late_meta} cases went through the change-the-encoding path"
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
