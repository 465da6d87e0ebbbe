//! Inputs the fuzz targets (`fuzz/`) found crashing the extractor, each
//! reduced to the part that matters and kept as a test: the extractor must
//! return normally and give the expected links.

use spinneret_extract::{Headers, extract};
use spinneret_url::Url;

/// The raw values of the links `extract` finds in `page`.
fn raw_links(page: &[u8]) -> Vec<String> {
    let url = Url::parse("https://example.com/dir/page.html").unwrap();
    let mut raws = Vec::new();
    extract(page, &url, &Headers::default(), |link| {
        raws.push(link.raw.to_owned())
    });
    raws
}

/// A `srcset` descriptor whose last character is not ASCII (here U+FFFD,
/// as invalid bytes decode to): the descriptor parser sliced one byte off
/// its end, inside the character, and panicked. Such a descriptor is
/// invalid, so the candidate is dropped.
#[test]
fn srcset_descriptor_ending_in_non_ascii() {
    let page = b"<img srcset=\"a.png 2x\xef\xbf\xbd\xef\xbf\xbd, b.png 1\xc3\xa9, c.png 2x\">";
    assert_eq!(raw_links(page), ["c.png"]);
    // The fuzzer's bytes: invalid UTF-8 after the density, decoded to U+FFFD.
    let page = b"<img srcset=\"a.png 1x, b.png 2x\xf0\x9f\x98\xff\xff\">";
    assert_eq!(raw_links(page), ["a.png"]);
}
