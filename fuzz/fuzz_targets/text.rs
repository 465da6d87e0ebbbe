//! `spinneret-text` on arbitrary bytes in every mode — whole page and main
//! content, plain text and Markdown, with and without links — from an
//! arbitrary URL and `Content-Type`: it never panics, the text has no line
//! break at its ends, its size is in proportion to the input (a Markdown
//! line's prefix is bounded; a link's URL at most the page's and the
//! URL's length), and a second extraction gives the same result (the
//! page type included: `page_type::classify` runs on every input). Time
//! linear in the input is `crates/text/tests/adversarial.rs`'s check; here
//! libFuzzer's `-timeout` catches a hang.
//!
//! Input: a flags byte (bit 0 main content, bit 1 Markdown, bit 2 links),
//! NUL-ended fields — the page URL (none when empty), a `Content-Type`
//! value — then the page.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_fuzz::Input;
use spinneret_text::{Format, Options, Page, extract_page};

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let url = String::from_utf8_lossy(input.field()).into_owned();
    let content_type = input.field();
    let bytes = input.rest();
    let options = Options {
        main_content: flags & 1 != 0,
        format: if flags & 2 != 0 {
            Format::Markdown
        } else {
            Format::Text
        },
        links: flags & 4 != 0,
        language: flags & 8 == 0,
    };
    let page = Page {
        bytes,
        url: (!url.is_empty()).then_some(url.as_str()),
        content_type: (!content_type.is_empty()).then_some(content_type),
        content_language: None,
    };
    let out = extract_page(&page, &options);
    assert!(
        !out.text.starts_with('\n') && !out.text.ends_with('\n'),
        "line breaks at the ends: {:?}",
        out.text
    );
    // Each input byte gives a bounded amount of text (a legacy encoding's
    // byte up to 3 UTF-8 bytes; a `<br>` in 32 nested quotes a 64-byte
    // prefix); with links, each link or image repeats a resolved URL.
    let url_len = url.len() + out.metadata.base_url.as_ref().map_or(0, String::len) + 64;
    let per_byte = if options.links { 40 + url_len } else { 40 };
    assert!(
        out.text.len() <= per_byte * bytes.len() + 1024,
        "{} bytes of text from {} bytes",
        out.text.len(),
        bytes.len()
    );
    let again = extract_page(&page, &options);
    assert_eq!(out, again, "a second extraction differs");
});
