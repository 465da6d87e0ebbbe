//! Prints a page's text: `extract FILE [URL] [--main] [--markdown] [--links]`
//! (a `.gz` file is decompressed first), then its metadata on stderr.

use std::io::Read;

use spinneret_text::{Format, Options, Page, extract_page};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let mut plain = args.iter().filter(|a| !a.starts_with("--"));
    let Some(path) = plain.next() else {
        eprintln!("usage: extract FILE [URL] [--main] [--markdown] [--links]");
        std::process::exit(2);
    };
    let url = plain.next().map(String::as_str);
    let raw = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let bytes = if path.ends_with(".gz") {
        let mut out = Vec::new();
        if let Err(e) = flate2::read::GzDecoder::new(&raw[..]).read_to_end(&mut out) {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
        out
    } else {
        raw
    };
    let options = Options {
        main_content: flag("--main"),
        format: if flag("--markdown") {
            Format::Markdown
        } else {
            Format::Text
        },
        links: flag("--links"),
        ..Options::default()
    };
    let page = Page {
        url,
        ..Page::new(&bytes)
    };
    let ex = extract_page(&page, &options);
    println!("{}", ex.text);
    eprintln!(
        "{:#?}\nlanguage: {:?}\nencoding: {}",
        ex.metadata, ex.language, ex.encoding
    );
}
