//! `extract_owned_page` (the payload given away) gives what `extract_page`
//! gives on the same page: on every corpus page whose response named a
//! charset or whose bytes are not UTF-8 (where the sniffer's inputs decide
//! and the owned path decodes as the borrowed one does), and on every 8th
//! of the others, each with its URL and Content-Type, as whole-page text
//! and as the main content in Markdown with links. (That the two parses
//! give the same document on every page is `spinneret-html`'s
//! `tests/parallel.rs`; this is the extraction's use of them.)

use spinneret_text::{Format, Options, Page, extract_owned_page, extract_page};

#[test]
fn owned_payloads_give_the_same_extraction() {
    let tsv = spinneret_testdata::read_to_string("corpus/pages.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (path, url, content_type, utf8) = (
        col("path"),
        col("url"),
        col("http_content_type"),
        col("utf8_valid"),
    );
    let modes = [
        Options::default(),
        Options {
            main_content: true,
            format: Format::Markdown,
            links: true,
            ..Options::default()
        },
    ];
    let (mut pages, mut not_utf8) = (0, 0);
    for (i, line) in lines.filter(|l| !l.is_empty()).enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let declared = fields[content_type].contains("charset");
        let valid = fields[utf8] == "true" || fields[utf8] == "1";
        if !declared && valid && i % 8 != 0 {
            continue;
        }
        let bytes = spinneret_testdata::read(&format!("corpus/{}", fields[path]));
        let page = Page {
            url: Some(fields[url]).filter(|u| !u.is_empty()),
            content_type: Some(fields[content_type].as_bytes()).filter(|c| !c.is_empty()),
            ..Page::new(&bytes)
        };
        for options in &modes {
            let borrowed = extract_page(&page, options);
            let owned = extract_owned_page(bytes.clone(), &Page { bytes: &[], ..page }, options);
            assert_eq!(owned, borrowed, "{} ({options:?})", fields[path]);
        }
        pages += 1;
        not_utf8 += usize::from(!valid);
    }
    println!(
        "{pages} pages ({not_utf8} not UTF-8), each in {} modes",
        modes.len()
    );
    assert!(
        pages > 200 && not_utf8 > 0,
        "{pages} pages, {not_utf8} not UTF-8"
    );
}
