//! Prints, per file, `path<TAB>encoding<TAB>deciding step<TAB>confidence`.
//!
//! ```text
//! cargo run --release -p spinneret-encoding --example sniff -- [--browser] [--content-type CT] [--url URL] FILE…
//! ```
//!
//! The Crawler policy by default; `--browser` for the HTML Standard exactly.
//! Files ending in `.gz` are read as they are (not decompressed): pass
//! plain files.

use std::process::ExitCode;

use spinneret_encoding::{Policy, Sniffer};

fn main() -> ExitCode {
    let mut policy = Policy::Crawler;
    let mut content_type: Option<String> = None;
    let mut url: Option<String> = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--browser" => policy = Policy::Browser,
            "--content-type" => content_type = args.next(),
            "--url" => url = args.next(),
            flag if flag.starts_with("--") => {
                eprintln!(
                    "unknown option {flag:?}; usage: sniff [--browser] [--content-type CT] [--url URL] FILE…"
                );
                return ExitCode::from(2);
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        eprintln!("usage: sniff [--browser] [--content-type CT] [--url URL] FILE…");
        return ExitCode::from(2);
    }
    let mut status = ExitCode::SUCCESS;
    for path in &files {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
                continue;
            }
        };
        let mut sniffer = Sniffer::new(policy);
        if let Some(ct) = &content_type {
            sniffer = sniffer.content_type(ct.as_bytes());
        }
        if let Some(u) = &url {
            sniffer = sniffer.url(u);
        }
        let d = sniffer.determine(&bytes);
        println!(
            "{path}\t{}\t{}\t{}",
            d.encoding.name(),
            d.step.as_str(),
            d.confidence.as_str()
        );
    }
    status
}
