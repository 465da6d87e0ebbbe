//! html5lib's encoding tests (`tests1.dat`, `tests2.dat`,
//! `test-yahoo-jp.dat`), every case, Browser policy, no headers, no URL.
//!
//! Each case runs BOM sniffing + the 1024-byte prescan (+ the detector and
//! the default). When the page's decisive `<meta>` lies beyond the prescan
//! window, the tokenizer would meet it while the confidence is tentative;
//! here the whole-input prescan stands in for the tokenizer to find that
//! `<meta>`, and the result goes through the change-the-encoding API
//! (`Determination::change_the_encoding`). The end-to-end version with the
//! real tokenizer comes with the pipeline issue.
//!
//! Not here, by design: `encoding/scripted/` needs script execution
//! (`document.write` of a `<meta>`), which this project does not do; and
//! `encoding/chardet/` is a detector data set, covered by the corpus test.

use spinneret_encoding::prescan::{PRESCAN_WINDOW, prescan_meta};
use spinneret_encoding::{Change, Confidence, Encoding, Policy, Sniffer};

/// The cases of a `.dat` file: (data bytes, expected label).
fn cases(file: &str) -> Vec<(Vec<u8>, String)> {
    let raw = spinneret_testdata::read(&format!("testdata/html5lib/encoding/{file}"));
    let mut out = Vec::new();
    let mut rest: &[u8] = &raw;
    while let Some(start) = find(rest, b"#data\n") {
        rest = &rest[start + 6..];
        let end = find(rest, b"\n#encoding\n").expect("#encoding after #data");
        let data = rest[..end].to_vec();
        rest = &rest[end + 11..];
        let line_end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        let label = String::from_utf8(rest[..line_end].to_vec()).unwrap();
        out.push((data, label.trim().to_string()));
        rest = &rest[line_end..];
    }
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Runs one file; returns (cases, cases decided through change-the-encoding).
fn run(file: &str) -> (usize, usize) {
    let cases = cases(file);
    assert!(!cases.is_empty(), "{file} has no cases");
    let mut changed = 0;
    let mut failures = Vec::new();
    for (i, (data, label)) in cases.iter().enumerate() {
        let expected = Encoding::for_label(label.as_bytes())
            .unwrap_or_else(|| panic!("{file} #{i}: unknown expected label {label}"));
        let mut d = Sniffer::new(Policy::Browser).determine(data);
        if d.confidence == Confidence::Tentative
            && data.len() > PRESCAN_WINDOW
            && let Some(meta) = prescan_meta(data)
        {
            // The tokenizer stand-in met a <meta> the prescan did not see.
            let consumed = &data[..find(data, b"<meta").unwrap_or(data.len())];
            match d.change_the_encoding(meta, consumed) {
                Change::Ignored => unreachable!("confidence was tentative"),
                Change::Keep | Change::SwitchInPlace(_) | Change::Reparse(_) => changed += 1,
            }
            assert_eq!(d.confidence, Confidence::Certain);
        }
        if d.encoding != expected {
            failures.push(format!(
                "{file} #{i}: got {} ({}), expected {label}; data {:?}",
                d.encoding.name(),
                d.step.as_str(),
                String::from_utf8_lossy(&data[..data.len().min(120)])
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    (cases.len(), changed)
}

#[test]
fn tests1() {
    let (n, changed) = run("tests1.dat");
    assert_eq!(n, 59);
    // The cases whose <meta> lies beyond the 1024-byte window.
    assert!(
        changed >= 7,
        "only {changed} cases went through change-the-encoding"
    );
}

#[test]
fn tests2() {
    assert_eq!(run("tests2.dat").0, 22);
}

#[test]
fn test_yahoo_jp() {
    assert_eq!(run("test-yahoo-jp.dat").0, 1);
}
