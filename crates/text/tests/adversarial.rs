//! Pathological pages through every mode of `spinneret-text`: no panic,
//! output in proportion to the input, and time linear in it.
//!
//! Each generated page (a million links, 100k nested `div`s, quotes,
//! lists, tables, `pre`s, `details`, containers and named boilerplate, 100k
//! sibling paragraphs, spans nested inside a link…) is extracted at full
//! size and at a tenth of it, as whole-page text, main content, Markdown
//! and Markdown with links. The cost of a run is the CPU time of the thread
//! that does it (`spinneret_testdata::cpu_time`), the least of 3 runs, so
//! other processes loading the machine do not move it. Linear work gives a
//! full/tenth ratio of about 10 (more when the working set outgrows the
//! caches), a quadratic pass about 100: 50 or more fails. A full-size run
//! under 20 ms of CPU is not checked (noise).
//!
//! Per-thread CPU clocks are read through POSIX calls that Linux has, so
//! this test is compiled for Linux only.

#![cfg(target_os = "linux")]

use std::time::Duration;

use spinneret_testdata::cpu_time;
use spinneret_text::{Format, Options, Page, extract_page};

struct Case {
    name: &'static str,
    n: usize,
    build: fn(usize) -> String,
}

fn modes() -> [(&'static str, Options); 4] {
    let md = |main_content, links| Options {
        main_content,
        format: Format::Markdown,
        links,
        ..Options::default()
    };
    [
        ("whole page", Options::default()),
        (
            "main content",
            Options {
                main_content: true,
                ..Options::default()
            },
        ),
        ("markdown", md(true, false)),
        ("markdown with links", md(false, true)),
    ]
}

/// The least CPU time of 3 extractions, and the last output's length.
fn cost(html: &str, options: &Options) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut len = 0;
    for _ in 0..3 {
        let start = cpu_time::current_thread();
        let page = Page {
            url: Some("https://example.com/a/b.html"),
            ..Page::new(html.as_bytes())
        };
        let out = extract_page(&page, options);
        best = best.min(cpu_time::current_thread().saturating_sub(start));
        len = out.text.len();
        std::hint::black_box(out);
    }
    (best, len)
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "a million links",
            n: 1_000_000,
            build: |n| "<a href=/x>y</a> ".repeat(n),
        },
        Case {
            name: "100k nested divs",
            n: 100_000,
            build: |n| {
                format!(
                    "{}text, more text.{}",
                    "<div>".repeat(n),
                    "</div>".repeat(n)
                )
            },
        },
        Case {
            name: "100k nested quotes, a line each",
            n: 100_000,
            build: |n| "<blockquote>line<br>".repeat(n),
        },
        Case {
            name: "100k nested list items",
            n: 100_000,
            build: |n| "<ol><li>item, text".repeat(n),
        },
        Case {
            name: "30k nested tables",
            n: 30_000,
            build: |n| "<table><tr><td>cell, text".repeat(n),
        },
        Case {
            name: "100k nested pre",
            n: 100_000,
            build: |n| "<pre>`code`\n".repeat(n),
        },
        Case {
            name: "20k nested closed details",
            n: 20_000,
            build: |n| "<details><summary>s, summary".repeat(n),
        },
        Case {
            name: "100k sibling paragraphs",
            n: 100_000,
            build: |n| {
                "<p>A sentence, with commas, long enough to score. <a href=/r>r</a></p>".repeat(n)
            },
        },
        Case {
            name: "50k nested articles",
            n: 50_000,
            build: |n| {
                "<article class=post-content><p>Text, of an article, long enough to score."
                    .repeat(n)
            },
        },
        Case {
            name: "50k sibling articles",
            n: 50_000,
            build: |n| {
                "<article><p>Text, of an article, long enough to score.</p></article>".repeat(n)
            },
        },
        Case {
            name: "50k nested sidebars around an article",
            n: 50_000,
            build: |n| {
                format!(
                    "{}<article><p>The article, with commas, long enough.</p></article>",
                    "<div class=sidebar-right>".repeat(n)
                )
            },
        },
        Case {
            name: "100k spans in a link",
            n: 100_000,
            build: |n| format!("<p><a href=/n>{}x", "<span>".repeat(n)),
        },
        Case {
            name: "100k dated spans",
            n: 100_000,
            build: |n| "<span class=date><time datetime=2020>1 May</time>".repeat(n),
        },
    ]
}

#[test]
fn pathological_pages_extract_in_linear_time() {
    let mut failures = Vec::new();
    for case in cases() {
        let full = (case.build)(case.n);
        let tenth = (case.build)(case.n / 10);
        for (mode, options) in modes() {
            let (big, len) = cost(&full, &options);
            // The output is in proportion to the input: a line prefix is
            // bounded, a link's URL is the page's own length at most.
            let bound = 40 * full.len() + 1024;
            if len > bound {
                failures.push(format!(
                    "{} / {mode}: {len} bytes out of {} in",
                    case.name,
                    full.len()
                ));
            }
            if big < Duration::from_millis(20) {
                continue;
            }
            let (small, _) = cost(&tenth, &options);
            let ratio = big.as_secs_f64() / small.as_secs_f64().max(1e-6);
            println!(
                "{} / {mode}: {:.1} ms, tenth {:.1} ms, ratio {ratio:.1}",
                case.name,
                big.as_secs_f64() * 1e3,
                small.as_secs_f64() * 1e3
            );
            if ratio >= 50.0 {
                failures.push(format!("{} / {mode}: ratio {ratio:.1}", case.name));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}
