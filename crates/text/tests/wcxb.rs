//! Main content and page types on WCXB dev (743 real pages of seven page
//! types, each with its whole main text;
//! `../shared/corpus/extraction/wcxb-dev`), scored by WCXB's metric
//! (`spinneret_testdata::wcxb`: a bag of words per page, macro means).
//!
//! The test asserts that no page panics and that the scores — overall and
//! for each page type — and the page-type classifier's accuracy do not
//! fall below the last recorded ones ([`FLOORS`], [`TYPE_ACCURACY`]): a
//! regression guard, not a target. It prints the scores and the
//! classifier's confusion matrix (`--nocapture`); `spinneret-bench text`
//! compares them with the peers'. Set `SPINNERET_WCXB_PAGES=FILE` to write
//! every page's scores, types and text as JSON Lines (for error analysis).

use std::io::Write;

use spinneret_testdata::wcxb::{self, Score, TYPES};
use spinneret_text::{Options, Page, PageType, extract_page};

/// F1 of the last recorded run, overall and by type (in [`TYPES`]' order
/// after "all"), rounded down: raise them when the method improves.
const FLOORS: [(&str, f64); 8] = [
    ("all", 0.84),
    ("article", 0.93),
    ("service", 0.83),
    ("collection", 0.70),
    ("listing", 0.68),
    ("documentation", 0.92),
    ("forum", 0.78),
    ("product", 0.64),
];

/// The classifier's accuracy in the last recorded run, rounded down.
const TYPE_ACCURACY: f64 = 0.78;

#[test]
fn wcxb_dev_by_page_type() {
    let pages = wcxb::load(None);
    assert_eq!(pages.len(), 743, "WCXB dev here has 743 pages");
    let options = Options {
        main_content: true,
        ..Options::default()
    };
    let mut dump = std::env::var_os("SPINNERET_WCXB_PAGES")
        .map(|p| std::io::BufWriter::new(std::fs::File::create(p).unwrap()));
    let mut scores = Vec::with_capacity(pages.len());
    let mut classified = Vec::with_capacity(pages.len());
    for p in &pages {
        let page = Page {
            url: (!p.url.is_empty()).then_some(p.url.as_str()),
            ..Page::new(&p.bytes)
        };
        let out = extract_page(&page, &options);
        let s = Score::of(p, &out.text);
        if let Some(w) = dump.as_mut() {
            let line = serde_json::json!({
                "id": p.id, "page_type": p.page_type, "classified": out.page_type.as_str(),
                "p": s.p, "r": s.r, "f1": s.f1, "text": out.text,
            });
            writeln!(w, "{line}").unwrap();
        }
        scores.push(s);
        classified.push(out.page_type);
    }

    println!("| WCXB dev | pages | P | R | F1 | with | without |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let rows = wcxb::by_type(&pages, &scores);
    for (t, n, s) in &rows {
        println!(
            "| {t} | {n} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            s.p, s.r, s.f1, s.with, s.without
        );
    }

    println!("\n| labelled \\ classified | {} |", TYPES.join(" | "));
    println!("| --- |{}", " ---: |".repeat(TYPES.len()));
    let mut right = 0;
    for t in TYPES {
        let row: Vec<String> = TYPES
            .iter()
            .map(|c| {
                let n = pages
                    .iter()
                    .zip(&classified)
                    .filter(|(p, k)| p.page_type == t && k.as_str() == *c)
                    .count();
                if t == *c {
                    right += n;
                }
                n.to_string()
            })
            .collect();
        println!("| {t} | {} |", row.join(" | "));
    }
    let accuracy = right as f64 / pages.len() as f64;
    println!(
        "\npage type: {right} of {} right ({accuracy:.3})",
        pages.len()
    );
    assert!(classified.iter().all(|t| *t != PageType::Other));

    for ((t, _, s), (floor_t, floor)) in rows.iter().zip(FLOORS) {
        assert_eq!(*t, floor_t);
        assert!(s.f1 >= floor, "{t}: F1 {:.4} fell below {floor}", s.f1);
    }
    assert!(
        accuracy >= TYPE_ACCURACY,
        "page-type accuracy {accuracy:.4} fell below {TYPE_ACCURACY}"
    );
}
