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

/// Links longer than a line is held whole (1 MiB of `raw` and `target`)
/// are written as they are rendered (`Spill`): their lines must be what
/// any other line would be — JSON a parser reads back, TSV escaped, the
/// repeated `raw` of an absolute link rendered again, `--unique` applied.
#[test]
fn links_longer_than_a_held_line_are_written_whole() {
    let long = "a".repeat(3 << 20);
    let relative = format!("/{long}\"q\\{long}");
    let absolute = format!("https://example.com/{long}");
    let html = format!(
        "<a href='{relative}'>one</a><a href='{absolute}'>two</a>\
         <a href='{relative}'>three</a><a href=/small>four</a>"
    );
    let path = std::env::temp_dir().join(format!("spinneret-long-{}.html", std::process::id()));
    std::fs::write(&path, &html).expect("write the page");
    let target = format!("https://example.com/{long}%22q/{long}");
    let fields = |out: &str| -> Vec<(String, String, String)> {
        out.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
                let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
                (s("raw"), s("target"), s("text"))
            })
            .collect()
    };
    let all = fields(&links(&path, &[]));
    let row = |raw: &str, target: &str, text: &str| (raw.into(), target.into(), text.into());
    assert_eq!(
        all,
        [
            row(&relative, &target, "one"),
            row(&absolute, &absolute, "two"),
            row(&relative, &target, "three"),
            row("/small", "https://example.com/small", "four"),
        ]
    );
    let unique = fields(&links(&path, &["--unique"]));
    assert_eq!(unique.len(), 3);
    assert_eq!(unique[2].2, "four");
    let tsv = links(&path, &["--format", "tsv"]);
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines.len(), 5);
    let escaped = relative.replace('\\', "\\\\");
    assert_eq!(lines[1].split('\t').nth(3), Some(escaped.as_str()));
    assert_eq!(lines[2].split('\t').nth(1), Some(absolute.as_str()));
    std::fs::remove_file(path).ok();
}
