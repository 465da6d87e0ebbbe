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
