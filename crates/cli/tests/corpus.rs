//! Every real WARC/ARC file of the shared corpus (`corpus/warc/`, through
//! `spinneret-testdata`) through `spinneret links`: no error exit (bad
//! records are allowed and counted), per-file counts printed; and the
//! output with `--threads 1` equals the output with `--threads 2` (and tiny
//! batches), i.e. output order is input order.

use std::path::PathBuf;
use std::process::{Command, Stdio};

const SUBDIRS: [&str; 7] = [
    "dolma",
    "pywb",
    "resiliparse",
    "stormcrawler",
    "ukwa-webarchive-discovery",
    "warcat",
    "warcbench",
];

fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in SUBDIRS {
        for suffix in [".warc", ".warc.gz", ".arc", ".arc.gz", ".warc.zst"] {
            out.extend(spinneret_testdata::files_with_suffix(
                &format!("corpus/warc/{sub}"),
                suffix,
            ));
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_file_runs() {
    let files = corpus_files();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let stats = std::env::temp_dir().join(format!("spinneret-corpus-{}.json", std::process::id()));
    let (mut links, mut pages, mut bad) = (0, 0, 0);
    for f in &files {
        let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
            .args(["links", "--stats"])
            .arg(&stats)
            .arg(f)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {out:?}", f.display());
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
        let n = |k: &str| s[k].as_u64().unwrap();
        let lines = out.stdout.iter().filter(|&&b| b == b'\n').count() as u64;
        assert_eq!(lines, n("links_written"), "{}", f.display());
        println!(
            "{}\trecords={}\thtml={}\tlinks={}\tfailures={}\tbad={}",
            f.strip_prefix(spinneret_testdata::path("corpus/warc"))
                .unwrap_or(f)
                .display(),
            s["records"]
                .as_object()
                .unwrap()
                .values()
                .filter_map(|v| v.as_u64())
                .sum::<u64>(),
            n("html_pages"),
            n("links"),
            n("parse_failures"),
            n("bad_records"),
        );
        links += n("links");
        pages += n("html_pages");
        bad += n("bad_records");
    }
    std::fs::remove_file(&stats).ok();
    println!(
        "total: {} files, {pages} HTML pages, {links} links, {bad} bad records",
        files.len()
    );
    assert!(
        pages > 100 && links > 10_000,
        "{pages} pages, {links} links"
    );
}

fn run_all(extra: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .arg("links")
        .args(extra)
        .args(corpus_files())
        .stderr(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
}

#[test]
fn output_order_does_not_depend_on_threads() {
    let one = run_all(&["--threads", "1"]);
    let two = run_all(&["--threads", "2"]);
    let small = run_all(&["--threads", "2", "--batch", "3"]);
    assert!(one.len() > 1_000_000, "{} bytes", one.len());
    assert!(one == two, "--threads 1 and --threads 2 differ");
    assert!(one == small, "--batch 3 differs");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.warc.gz");
    let run = |t: &str| {
        Command::new(env!("CARGO_BIN_EXE_spinneret"))
            .args(["links", "--batch", "1", "--threads", t, sample])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run("1"), run("2"));
}

/// Every page of `corpus/pages.tsv` through `spinneret links --manifest`:
/// exit 0, and every manifest row is either an HTML page whose links are
/// written or a reported bad record (rows without a page URL); per-source
/// counts printed.
#[test]
fn every_corpus_page_runs() {
    let manifest = spinneret_testdata::path("corpus/pages.tsv");
    let rows = spinneret_testdata::lines("corpus/pages.tsv")
        .iter()
        .skip(1)
        .filter(|l| !l.is_empty())
        .count() as u64;
    let stats = std::env::temp_dir().join(format!("spinneret-pages-{}.json", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(["links", "--format", "tsv", "--stats"])
        .arg(&stats)
        .arg("--manifest")
        .arg(&manifest)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{:?}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let _ = std::fs::remove_file(&stats);
    let n = |k: &str| s[k].as_u64().unwrap_or(0);
    let (html, bad, written) = (n("html_pages"), n("bad_records"), n("links_written"));
    let lines = out.stdout.iter().filter(|&&b| b == b'\n').count() as u64;
    assert_eq!(lines, written + 1, "TSV lines = header + links written");
    // Per source, from the TSV's record column ("path:offset").
    let text = String::from_utf8_lossy(&out.stdout);
    let mut by_source: std::collections::BTreeMap<&str, u64> = Default::default();
    for line in text.lines().skip(1) {
        let record = line.rsplit('\t').next().unwrap_or("");
        // ".../corpus/pages/<source>/<name>.gz:0"
        let source = record
            .split_once("/pages/")
            .and_then(|(_, rest)| rest.split('/').next())
            .unwrap_or("?");
        *by_source.entry(source).or_default() += 1;
    }
    for (source, links) in &by_source {
        println!("{source}\tlinks={links}");
    }
    println!("{rows} manifest rows: {html} HTML pages, {bad} bad records, {written} links");
    assert!(
        html + bad >= rows * 99 / 100,
        "{html} pages + {bad} bad of {rows} rows"
    );
    assert!(
        html > 2000 && written > 300_000,
        "{html} pages, {written} links"
    );
}

/// `spinneret links` on `input` (a path, or `-` with `stdin`): its output
/// and its bad-record diagnostics.
fn links_and_diagnostics(threads: &str, input: &str, stdin: &[u8]) -> (Vec<u8>, String) {
    let out = crate::common::spinneret_with_stdin(&["links", "--threads", threads, input], stdin);
    assert!(out.status.success(), "{input}: {out:?}");
    let bad: Vec<&str> = std::str::from_utf8(&out.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("spinneret: bad record"))
        .collect();
    (out.stdout, bad.join("\n"))
}

/// With more than one worker, gzip members are inflated by the workers
/// ahead of the reading thread (`read_ahead.rs`); with one, by the reading
/// thread itself. Output and bad-record reports are the same, on every
/// corpus file, on damaged copies of the gzip ones (truncated, bits
/// flipped, garbage between members), and from standard input.
#[test]
fn inflating_ahead_changes_nothing() {
    let mut rng = spinneret_testdata::Rng(0x0DDB_1A5E_5BAD_5EED);
    let mut damaged_runs = 0;
    for f in corpus_files() {
        let path = f.to_str().unwrap();
        let one = links_and_diagnostics("1", path, b"");
        assert!(one == links_and_diagnostics("3", path, b""), "{path}");
        let data = std::fs::read(&f).unwrap();
        if !data.starts_with(b"\x1f\x8b") || data.len() > 3_000_000 {
            continue;
        }
        let one = links_and_diagnostics("1", "-", &data);
        assert!(
            one == links_and_diagnostics("2", "-", &data),
            "{path} (stdin)"
        );
        for round in 0..3 {
            let at = (rng.next_u64() % data.len() as u64) as usize;
            let mut copy = data.clone();
            match round {
                0 => copy.truncate(at),
                1 => copy[at] ^= 1 << (rng.next_u64() % 8),
                _ => {
                    let junk = b"\x1f\x8b\x08 junk between members \r\n";
                    copy.splice(at..at, junk.iter().copied());
                }
            }
            let one = links_and_diagnostics("1", "-", &copy);
            let ahead = links_and_diagnostics("4", "-", &copy);
            assert!(one == ahead, "{path}: damage {round} at {at}");
            damaged_runs += 1;
        }
    }
    assert!(damaged_runs >= 30, "{damaged_runs} damaged runs");
}
