//! The Rust main-content peer, dom_smoothie (a port of Mozilla's
//! Readability.js on html5ever's tokenizer), beside spinneret, in process
//! on one thread: WCXB dev by its metric and page type, trafilatura's set
//! by its snippet rule, and pages per CPU-second on WCXB dev (the
//! Python peers are `wcxb_peers.py`'s).
//!
//! dom_smoothie gets the page as UTF-8 (lossy: WCXB's pages are UTF-8;
//! the decoding is timed) and its URL, with `TextMode::Formatted` (a line
//! break between blocks; `Raw`, its default, can join the words of two
//! blocks, which the metric would count as one unknown word). A page it
//! fails on (too little content to score) counts as empty text and as an
//! error.

use spinneret_testdata::{cpu_time, wcxb};
use spinneret_text::{Options, Page, extract_page};

use super::eval::{Counts, EvalSet};

/// An extractor of the comparison.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Peer {
    Spinneret,
    DomSmoothie,
}

impl Peer {
    fn label(self) -> &'static str {
        match self {
            Peer::Spinneret => "spinneret (`extract_page`, `main_content`)",
            Peer::DomSmoothie => "dom_smoothie 0.19 (`Readability::parse`, formatted text)",
        }
    }

    /// The main content of `bytes` from `url`; `None` when the extractor
    /// failed.
    fn extract(self, bytes: &[u8], url: Option<&str>) -> Option<String> {
        match self {
            Peer::Spinneret => {
                let page = Page {
                    url,
                    ..Page::new(bytes)
                };
                let options = Options {
                    main_content: true,
                    ..Options::default()
                };
                Some(extract_page(&page, &options).text)
            }
            Peer::DomSmoothie => {
                let html = String::from_utf8_lossy(bytes);
                let config = dom_smoothie::Config {
                    text_mode: dom_smoothie::TextMode::Formatted,
                    ..dom_smoothie::Config::default()
                };
                let mut readability =
                    dom_smoothie::Readability::new(html.as_ref(), url, Some(config)).ok()?;
                readability.parse().ok().map(|a| a.text_content.to_string())
            }
        }
    }
}

/// One extractor's texts of a set's pages (empty where it failed), the
/// failures, and its best pass's CPU time.
struct Pass {
    texts: Vec<String>,
    errors: usize,
    cpu_s: f64,
}

/// `passes` timed passes of `peer` over `pages` (bytes, URL), after a
/// warm-up; one thread (a pool of one, so that no parse is split).
fn time(peer: Peer, pages: &[(&[u8], Option<&str>)], passes: u32) -> Pass {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread");
    pool.install(|| {
        let run = || -> Vec<Option<String>> {
            pages
                .iter()
                .map(|&(bytes, url)| peer.extract(bytes, url))
                .collect()
        };
        drop(std::hint::black_box(run()));
        let mut best = f64::INFINITY;
        let mut texts = Vec::new();
        for _ in 0..passes.max(1) {
            let start = cpu_time::current_thread();
            let out = std::hint::black_box(run());
            best = best.min((cpu_time::current_thread() - start).as_secs_f64());
            texts = out;
        }
        Pass {
            errors: texts.iter().filter(|t| t.is_none()).count(),
            texts: texts.into_iter().map(Option::unwrap_or_default).collect(),
            cpu_s: best,
        }
    })
}

/// Prints the comparison: WCXB dev overall and by page type (F1), the
/// trafilatura set's F1, and pages per CPU-second on WCXB dev.
pub(super) fn run(set: &EvalSet, pages: &[wcxb::WcxbPage], passes: u32) {
    let wcxb_pages: Vec<(&[u8], Option<&str>)> = pages
        .iter()
        .map(|p| {
            (
                p.bytes.as_slice(),
                (!p.url.is_empty()).then_some(p.url.as_str()),
            )
        })
        .collect();
    let set_pages: Vec<(&[u8], Option<&str>)> = set
        .pages
        .iter()
        .map(|p| (p.bytes.as_slice(), Some(p.url.as_str())))
        .collect();
    let megabytes = wcxb_pages.iter().map(|p| p.0.len()).sum::<usize>() as f64 / 1e6;
    println!(
        "\nIn process, one thread, best of {passes} passes over WCXB dev ({} pages, {megabytes:.1} MB):\n",
        pages.len()
    );
    println!(
        "| extractor | P | R | F1 | With | Without | {} | trafilatura set F1 | errors | CPU s | pages/CPU-s |",
        wcxb::TYPES.join(" | ")
    );
    println!("|---|{}", "---:|".repeat(9 + wcxb::TYPES.len()));
    for peer in [Peer::Spinneret, Peer::DomSmoothie] {
        eprintln!("text quality: {}…", peer.label());
        let on_wcxb = time(peer, &wcxb_pages, passes);
        let on_set = time(peer, &set_pages, 1);
        let scores: Vec<wcxb::Score> = pages
            .iter()
            .zip(&on_wcxb.texts)
            .map(|(p, t)| wcxb::Score::of(p, t))
            .collect();
        let by_type = wcxb::by_type(pages, &scores);
        let all = &by_type[0].2;
        let per_type: Vec<String> = by_type[1..]
            .iter()
            .map(|(_, _, s)| format!("{:.3}", s.f1))
            .collect();
        let set_f1 = Counts::of_set(set, &on_set.texts).f1();
        println!(
            "| {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {set_f1:.4} | {} | {:.3} | {:.1} |",
            peer.label(),
            all.p,
            all.r,
            all.f1,
            all.with,
            all.without,
            per_type.join(" | "),
            on_wcxb.errors + on_set.errors,
            on_wcxb.cpu_s,
            pages.len() as f64 / on_wcxb.cpu_s,
        );
    }
}
