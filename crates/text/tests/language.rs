//! The detected language against the `<html lang>` of the corpus pages
//! that declare one (`../shared/corpus/pages.tsv`'s `html_lang`, 1,076
//! pages): how often the detector's ISO 639-1 code is the declaration's
//! primary subtag. A declaration is not ground truth (templates declare
//! `en` over German text), so this is agreement, not accuracy; the test
//! prints it and asserts it does not fall below the last recorded figure
//! (a regression guard).

use spinneret_text::{Options, Page, extract_page, language::primary_subtag};

/// Agreement of the last recorded run (all pages with a declaration and
/// a detection; those the detector deems reliable), rounded down.
const FLOOR: (f64, f64) = (0.95, 0.96);

#[test]
fn detected_language_agrees_with_html_lang() {
    let tsv = spinneret_testdata::read_to_string("corpus/pages.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (path_col, url_col, lang_col) = (col("path"), col("url"), col("html_lang"));
    let (mut declared, mut detected, mut agree) = (0, 0, 0);
    let (mut reliable, mut reliable_agree) = (0, 0);
    let mut confusions = std::collections::BTreeMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let fields: Vec<&str> = line.split('\t').collect();
        let Some(want) = primary_subtag(fields[lang_col]) else {
            continue;
        };
        declared += 1;
        let bytes = spinneret_testdata::read(&format!("corpus/{}", fields[path_col]));
        let url = fields[url_col];
        let page = Page {
            url: (!url.is_empty()).then_some(url),
            ..Page::new(&bytes)
        };
        let Some(lang) = extract_page(&page, &Options::default()).language else {
            continue;
        };
        detected += 1;
        let same = lang.iso639_1 == want;
        agree += usize::from(same);
        if lang.reliable {
            reliable += 1;
            reliable_agree += usize::from(same);
        }
        if !same {
            *confusions.entry((want, lang.iso639_1)).or_insert(0) += 1;
        }
    }
    let share = |a: usize, n: usize| a as f64 / n.max(1) as f64;
    let (all, sure) = (share(agree, detected), share(reliable_agree, reliable));
    let mut top: Vec<_> = confusions.into_iter().collect();
    top.sort_by_key(|entry| std::cmp::Reverse(entry.1));
    println!(
        "{declared} pages declare a language, {detected} detected: agreement {all:.4} \
         ({agree}); of the {reliable} reliable, {sure:.4} ({reliable_agree}); \
         most frequent (declared, detected): {:?}",
        &top[..top.len().min(8)]
    );
    assert!(declared > 1000, "the corpus declares {declared} languages");
    assert!(
        all >= FLOOR.0 && sure >= FLOOR.1,
        "agreement fell below {FLOOR:?}"
    );
}
