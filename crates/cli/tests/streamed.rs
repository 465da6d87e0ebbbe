//! Pages whose output is streamed by the writing thread: one whose rendered
//! lines pass their budget (twice the page, at least 1 MiB), rendered again
//! line by line, and one over the pipeline's `STREAM_PAYLOAD` (8 MiB),
//! processed by the writing thread directly. Their output must be every
//! link once, in source order, with `--unique` and TSV as for any page, and
//! the same for any `--threads`.

use std::path::PathBuf;
use std::process::Command;

/// A page of `n` links `<a href=/pI>x</a>`, each twice when `twice`.
fn page(name: &str, n: usize, twice: bool) -> PathBuf {
    let mut s = String::from("<!doctype html><title>t</title>");
    for i in 0..n {
        let a = format!("<a href=/p{i}>x</a>");
        s.push_str(&a);
        if twice {
            s.push_str(&a);
        }
    }
    let path = std::env::temp_dir().join(format!("spinneret-{name}-{}.html", std::process::id()));
    std::fs::write(&path, s).expect("write the page");
    path
}

/// `spinneret links --html path` with `args`: its output.
fn links(path: &PathBuf, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(["links", "--html"])
        .arg(path)
        .args(["--url", "https://example.com/"])
        .args(args)
        .output()
        .expect("run spinneret");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Checks that `out` has one line per link of the page, in order, after
/// `skip` header lines.
fn assert_in_order(out: &str, n: usize, per_link: usize, skip: usize) {
    let lines: Vec<&str> = out.lines().skip(skip).collect();
    assert_eq!(lines.len(), n * per_link);
    for (i, line) in lines.iter().enumerate() {
        let want = format!("https://example.com/p{}", i / per_link);
        assert!(
            line.contains(&format!("{want}\"")) || line.contains(&format!("{want}\t")),
            "line {i}: {line}"
        );
    }
}

#[test]
fn over_budget_page_is_streamed_in_order() {
    // 30,000 links in 0.7 MB of page: about 5 MB of JSON Lines.
    let n = 30_000;
    let path = page("over-budget", n, true);
    let jsonl = links(&path, &[]);
    assert_in_order(&jsonl, n, 2, 0);
    assert_eq!(jsonl, links(&path, &["--threads", "1"]));
    assert_in_order(&links(&path, &["--unique"]), n, 1, 0);
    assert_in_order(&links(&path, &["--format", "tsv"]), n, 2, 1);
    std::fs::remove_file(path).ok();
}

#[test]
fn page_over_stream_payload_is_streamed_in_order() {
    // 400,000 links in 9 MB of page.
    let n = 400_000;
    let path = page("huge", n, false);
    let jsonl = links(&path, &[]);
    assert_in_order(&jsonl, n, 1, 0);
    assert_eq!(
        jsonl.lines().count(),
        links(&path, &["--unique", "--threads", "1"])
            .lines()
            .count()
    );
    std::fs::remove_file(path).ok();
}
