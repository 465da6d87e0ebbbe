//! Visible text on every corpus page: no panic, and the output rules hold
//! on real pages — no line break at either end; outside preformatted text,
//! no space there either, no line that starts or ends with a space, no two
//! spaces in a row and never more than one blank line; nothing but the
//! page's text, in its order; nothing from `script` or `style` elements.

use spinneret_html::{LocalName, ParseOptions, parse_document};

/// Every corpus page (decoded as UTF-8, invalid bytes replaced): its path
/// and text.
fn pages() -> Vec<(String, String)> {
    spinneret_testdata::corpus_pages_text()
}

#[test]
fn corpus_pages_follow_the_rules() {
    let pages = pages();
    assert!(pages.len() > 1000, "the corpus is there");
    let mut checked_layout = 0;
    for (path, html) in &pages {
        let doc = parse_document(html, &ParseOptions::default());
        let text = doc.visible_text();
        // (Tabs of empty leading cells and U+00A0 are text, not white space
        // to trim.)
        assert!(
            !text.starts_with('\n') && !text.ends_with('\n'),
            "{path}: a line break at an end"
        );

        let elements = || doc.root().descendants().filter_map(|n| n.as_element());
        let preformatted = elements().any(|e| {
            [
                LocalName::Pre,
                LocalName::Textarea,
                LocalName::Listing,
                LocalName::Xmp,
                LocalName::Plaintext,
            ]
            .iter()
            .any(|&name| e.is_html(name))
        });
        if !preformatted {
            checked_layout += 1;
            assert!(
                !text.starts_with(' ') && !text.ends_with(' '),
                "{path}: a space at an end"
            );
            for line in text.lines() {
                let cut: String = line.chars().take(80).collect();
                assert!(
                    !line.starts_with(' ') && !line.ends_with(' '),
                    "{path}: a space at an end of {cut:?}"
                );
            }
            assert!(!text.contains("  "), "{path}: two spaces");
            assert!(!text.contains("\n\n\n"), "{path}: two blank lines");
        }

        // The visible characters are the page's text with parts left out:
        // a subsequence of it, in tree order (select labels may come from
        // an attribute: pages with them are not checked).
        if elements().all(|e| e.attr("label").is_none()) {
            let all = doc
                .document_element()
                .and_then(|e| e.node().text_content())
                .unwrap_or_default();
            let mut page_chars = all.chars();
            for c in text.chars().filter(|c| !c.is_ascii_whitespace()) {
                assert!(
                    page_chars.any(|p| p == c),
                    "{path}: {c:?} is not next in the page's text"
                );
            }
        }

        // No script or style text shows (when it is not also page text).
        for e in elements().filter(|e| e.is_html(LocalName::Script) || e.is_html(LocalName::Style))
        {
            let code = e.node().text_content().unwrap_or_default();
            let code = code.trim();
            if code.len() > 40 && !code.contains('\n') && text.matches(code).count() > 0 {
                let elsewhere = html.matches(code).count() > 1;
                assert!(elsewhere, "{path}: script or style text {code:?} shows");
            }
        }
    }
    assert!(checked_layout > 100, "{checked_layout} pages without pre");
}
