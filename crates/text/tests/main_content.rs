//! Main content on trafilatura's evaluation set (990 real pages, each
//! with snippets a main-content extractor must output and must not;
//! `../shared/corpus/extraction/trafilatura`), scored by trafilatura's own
//! rule (`tests/eval_common.py`, `count_item`, at the set's commit): the
//! output and every snippet have their white space runs made one space
//! and are trimmed (Python's `re.sub(r"\s+", " ", s).strip()`); a `with`
//! snippet in the output is a true positive, else a false negative; a
//! `without` snippet in the output is a false positive, else a true
//! negative.
//!
//! The test asserts that no page panics and that the scores do not fall
//! below the last recorded ones ([`FLOOR`]): a regression guard, not a
//! target. It prints the scores (`--nocapture`); `spinneret-bench text`
//! compares them with the peers'. Set `SPINNERET_EVAL_PAGES=FILE` to
//! write every page's counts as TSV (for error analysis).

use std::io::{Read, Write};

use spinneret_text::{Options, Page, extract_page};

/// The scores of the last recorded run (precision, recall, F1), rounded
/// down: raise them when the method improves.
const FLOOR: (f64, f64, f64) = (0.87, 0.94, 0.91);

#[derive(Default, Clone, Copy)]
struct Counts {
    tp: usize,
    fp: usize,
    tn: usize,
    fn_: usize,
}

/// Python's `re.sub(r"\s+", " ", s).strip()`: `\s` is `str.isspace`,
/// Unicode white space and the separators U+001C–U+001F.
fn normalized(s: &str) -> String {
    let is_space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
    s.split(is_space)
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn score(text: &str, with: &[String], without: &[String]) -> Counts {
    let mut c = Counts::default();
    let text = normalized(text);
    for s in with {
        let s = normalized(s);
        if !text.is_empty() && text.contains(s.as_str()) {
            c.tp += 1;
        } else {
            c.fn_ += 1;
        }
    }
    for s in without {
        let s = normalized(s);
        if !text.is_empty() && text.contains(s.as_str()) {
            c.fp += 1;
        } else {
            c.tn += 1;
        }
    }
    c
}

#[test]
fn trafilatura_evaluation_set() {
    let dir = spinneret_testdata::path("corpus/extraction/trafilatura");
    let eval: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("evaldata.json")).unwrap()).unwrap();
    let eval = eval.as_object().unwrap();
    assert_eq!(eval.len(), 990, "the evaluation set has 990 pages");
    let mut total = Counts::default();
    let mut per_page = std::env::var_os("SPINNERET_EVAL_PAGES")
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()));
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_owned))
                    .collect()
            })
            .unwrap_or_default()
    };
    for (url, case) in eval {
        let file = case["file"].as_str().unwrap();
        let mut bytes = Vec::new();
        flate2::read::GzDecoder::new(
            std::fs::File::open(dir.join("pages").join(format!("{file}.gz"))).unwrap(),
        )
        .read_to_end(&mut bytes)
        .unwrap();
        let page = Page {
            url: Some(url),
            ..Page::new(&bytes)
        };
        let out = extract_page(
            &page,
            &Options {
                main_content: true,
                ..Options::default()
            },
        );
        let c = score(
            &out.text,
            &strings(&case["with"]),
            &strings(&case["without"]),
        );
        if let Some(w) = per_page.as_mut() {
            writeln!(w, "{url}\t{file}\t{}\t{}\t{}\t{}", c.tp, c.fp, c.tn, c.fn_).unwrap();
        }
        total.tp += c.tp;
        total.fp += c.fp;
        total.tn += c.tn;
        total.fn_ += c.fn_;
    }
    let precision = total.tp as f64 / (total.tp + total.fp).max(1) as f64;
    let recall = total.tp as f64 / (total.tp + total.fn_).max(1) as f64;
    let f1 = 2.0 * precision * recall / (precision + recall).max(f64::MIN_POSITIVE);
    let accuracy =
        (total.tp + total.tn) as f64 / (total.tp + total.tn + total.fp + total.fn_).max(1) as f64;
    println!(
        "main content on {} pages: precision {precision:.4}, recall {recall:.4}, F1 {f1:.4}, \
         accuracy {accuracy:.4} (tp {}, fp {}, tn {}, fn {})",
        eval.len(),
        total.tp,
        total.fp,
        total.tn,
        total.fn_
    );
    assert!(
        precision >= FLOOR.0 && recall >= FLOOR.1 && f1 >= FLOOR.2,
        "scores fell below the last recorded ones {FLOOR:?}"
    );
}
