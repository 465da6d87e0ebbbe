//! The real-web corpus (`corpus/pages.tsv`, every page).
//!
//! - Accuracy: every page with a ground-truth `true_encoding` (the labelled
//!   chardet corpus) must decode, under the Crawler policy (the default),
//!   to the same text as decoding with its label. Labels that are not
//!   encodings of the Encoding Standard (IBM855, UTF-32) are out of scope:
//!   no browser can decode them; they are counted, not skipped silently.
//! - Policies: how many pages the Browser and Crawler policies decode
//!   differently, and that no labelled page is decoded correctly by Browser
//!   but not by Crawler.
//! - Totality: every page, with and without its headers/URL, decodes
//!   without panicking, whole and streaming, to the same text.

use std::collections::BTreeMap;

use encoding_rs::{UTF_16BE, UTF_16LE};
use spinneret_encoding::{Encoding, Policy, Sniffer, Step, decode_with};

pub(crate) struct Page {
    pub(crate) path: String,
    url: String,
    content_type: String,
    true_encoding: String,
    pub(crate) bytes: Vec<u8>,
}

pub(crate) fn pages() -> Vec<Page> {
    let tsv = spinneret_testdata::read_to_string("corpus/pages.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (path, url, ct, te) = (
        col("path"),
        col("url"),
        col("http_content_type"),
        col("true_encoding"),
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Page {
                path: f[path].to_string(),
                url: f[url].to_string(),
                content_type: f[ct].to_string(),
                true_encoding: f[te].to_string(),
                bytes: spinneret_testdata::read(&format!("corpus/{}", f[path])),
            }
        })
        .collect()
}

pub(crate) fn sniffer<'a>(policy: Policy, page: &'a Page) -> Sniffer<'a> {
    let mut s = Sniffer::new(policy);
    if !page.content_type.is_empty() {
        s = s.content_type(page.content_type.as_bytes());
    }
    if !page.url.is_empty() {
        s = s.url(&page.url);
    }
    s
}

/// Whether `page` decodes under `sniffer` to the text of its label.
fn correct(sniffer: &Sniffer<'_>, page: &Page, label: &'static Encoding) -> bool {
    let ours = sniffer.decode(&page.bytes);
    ours.text == decode_with(&page.bytes, label).0
}

#[test]
fn labelled_pages_decode_to_their_label() {
    let pages = pages();
    let mut table: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new(); // ok, total, browser ok
    let mut out_of_scope = Vec::new();
    let mut failures = Vec::new();
    let mut steps: BTreeMap<&str, usize> = BTreeMap::new();
    for page in pages.iter().filter(|p| !p.true_encoding.is_empty()) {
        let Some(label) = Encoding::for_label(page.true_encoding.as_bytes()) else {
            out_of_scope.push(format!("{} ({})", page.path, page.true_encoding));
            continue;
        };
        let crawler = sniffer(Policy::Crawler, page);
        let ok = correct(&crawler, page, label);
        let browser_ok = correct(&sniffer(Policy::Browser, page), page, label);
        // No labelled page gets worse under the Crawler policy.
        assert!(
            ok || !browser_ok,
            "{}: Crawler wrong where Browser is right",
            page.path
        );
        let e = table
            .entry(page.true_encoding.to_ascii_lowercase())
            .or_default();
        e.1 += 1;
        if ok {
            e.0 += 1;
        } else {
            let d = crawler.determine(&page.bytes);
            failures.push(format!(
                "{}: label {} ({}), got {} by {}",
                page.path,
                page.true_encoding,
                label.name(),
                d.encoding.name(),
                d.step.as_str()
            ));
        }
        if browser_ok {
            e.2 += 1;
        }
        *steps
            .entry(crawler.determine(&page.bytes).step.as_str())
            .or_default() += 1;
    }
    let (ok, total, bok) = table
        .values()
        .fold((0, 0, 0), |a, v| (a.0 + v.0, a.1 + v.1, a.2 + v.2));
    println!("| true_encoding | pages | Crawler correct | Browser correct |\n|---|---:|---:|---:|");
    for (k, (o, t, b)) in &table {
        println!("| {k} | {t} | {o} | {b} |");
    }
    println!(
        "| **in scope** | {total} | {ok} ({:.1}%) | {bok} ({:.1}%) |",
        pct(ok, total),
        pct(bok, total)
    );
    println!(
        "out of scope (not Encoding Standard encodings): {}: {out_of_scope:?}",
        out_of_scope.len()
    );
    println!("deciding steps (Crawler): {steps:?}");
    println!("failures:\n{}", failures.join("\n"));
    assert!(total >= 240, "only {total} labelled pages in scope");
    assert!(
        pct(ok, total) >= 99.0,
        "accuracy {:.2}% below 99%:\n{}",
        pct(ok, total),
        failures.join("\n")
    );
}

/// chardetng alone (no BOM, headers or declarations; UTF-8 allowed; no TLD)
/// on the labelled pages, fed the whole page or the bytes up to the first
/// non-ASCII byte plus a window: the accuracy side of the window choice
/// (the speed side is `spinneret-bench encoding`).
#[test]
fn detector_window_accuracy() {
    use spinneret_encoding::DetectorInput;
    let pages: Vec<Page> = pages()
        .into_iter()
        .filter(|p| Encoding::for_label(p.true_encoding.as_bytes()).is_some())
        .collect();
    println!("| detector input | correct | accuracy |\n|---|---:|---:|");
    for input in [
        DetectorInput::AfterFirstNonAscii(1024),
        DetectorInput::AfterFirstNonAscii(4096),
        DetectorInput::AfterFirstNonAscii(8192),
        DetectorInput::AfterFirstNonAscii(16384),
        DetectorInput::AfterFirstNonAscii(65536),
        DetectorInput::Whole,
        DetectorInput::UntilStable(8192),
    ] {
        let mut ok = 0;
        for p in &pages {
            let label = Encoding::for_label(p.true_encoding.as_bytes()).unwrap();
            let guess = spinneret_encoding::determine::detect_only(&p.bytes, input, None);
            ok += usize::from(decode_with(&p.bytes, guess).0 == decode_with(&p.bytes, label).0);
        }
        println!(
            "| {input:?} | {ok}/{} | {:.1}% |",
            pages.len(),
            pct(ok, pages.len())
        );
    }
}

fn pct(a: usize, b: usize) -> f64 {
    100.0 * a as f64 / b.max(1) as f64
}

#[test]
fn policies_differ_only_on_valid_utf8() {
    let pages = pages();
    let mut differ = 0;
    let mut by_declared: BTreeMap<String, usize> = BTreeMap::new();
    for page in &pages {
        let b = sniffer(Policy::Browser, page).decode(&page.bytes);
        let c = sniffer(Policy::Crawler, page).decode(&page.bytes);
        if b.text != c.text {
            differ += 1;
            // Every difference is one of the Crawler's four rules.
            let d = c.determination;
            let (key, declared) = match (d.step, d.declared) {
                (Step::Utf8Valid, Some((e, step))) => {
                    assert!(!c.had_errors, "{}", page.path);
                    (
                        "utf8-valid over",
                        format!("{} by {}", e.name(), step.as_str()),
                    )
                }
                (Step::Detector, _) if d.encoding == UTF_16LE || d.encoding == UTF_16BE => {
                    ("bom-less UTF-16", d.encoding.name().to_string())
                }
                (Step::Xml | Step::Meta | Step::Http, _) => {
                    ("crawler label", d.encoding.name().to_string())
                }
                (Step::Detector, _) if d.encoding == encoding_rs::WINDOWS_1252 => {
                    println!(
                        "symbol-only windows-1252: {} (Browser: {})",
                        page.path,
                        b.determination.encoding.name()
                    );
                    (
                        "symbol-only windows-1252 over detector",
                        b.determination.encoding.name().to_string(),
                    )
                }
                _ => panic!("{}: unexpected difference {d:?}", page.path),
            };
            *by_declared.entry(format!("{key} {declared}")).or_default() += 1;
        }
    }
    println!(
        "pages decoded differently by Browser and Crawler: {differ} of {}",
        pages.len()
    );
    println!("by rule: {by_declared:?}");
    assert!(differ > 0);
}

#[test]
fn every_page_whole_equals_streaming() {
    for page in pages() {
        let first = page.bytes.iter().position(|&b| b >= 0x80 || b == 0x1B);
        let late = first.is_some_and(|i| i >= spinneret_encoding::decode::MAX_PREFIX);
        for s in [
            sniffer(Policy::Crawler, &page),
            Sniffer::new(Policy::Browser),
        ] {
            let whole = s.decode(&page.bytes);
            if late {
                // Documented: decided from an all-ASCII prefix.
                let (d, _) = s.decode_stream(&page.bytes[..], |_| {}).unwrap();
                assert!(
                    matches!(d.step, Step::Default | Step::Http | Step::Meta | Step::Xml),
                    "{}",
                    page.path
                );
                continue;
            }
            let mut text = String::new();
            let (d, _) = s
                .decode_stream(&page.bytes[..], |t| text.push_str(t))
                .unwrap();
            assert_eq!(d.encoding, whole.determination.encoding, "{}", page.path);
            assert_eq!(text, whole.text, "{}", page.path);
        }
    }
}
