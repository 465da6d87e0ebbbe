//! `spinneret check` (through `spinneret_cli::commands::check::run`, what the
//! subcommand runs): every corpus WARC/ARC file is checked without a panic,
//! with the verdict each is known to deserve and the same lines whatever
//! `--threads`; damaged copies of a good corpus WARC (made here, in a temp
//! folder) are each caught with the right problem kind; a good file exits
//! 0, an unreadable one 1.
//!
//! The corpus files with errors, and why: `pywb/bad.arc` (ARC records of
//! length -1 and `abc`: bad boundaries), `pywb/example-extra.warc`
//! (records repeated, the copy's payload digest fails), `pywb/example.warc`
//! (a request's Content-Length 3 bytes short of its record),
//! `resiliparse/clipped.warc.gz` (the file ends inside its only gzip
//! member). `crates/python/tests/test_check_warcio.py` compares the
//! verdicts with `warcio check`.

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use clap::Parser;
use spinneret_cli::commands::check::{self, CheckArgs};

#[derive(Parser)]
struct Cmd {
    #[command(flatten)]
    args: CheckArgs,
}

/// One problem line, as JSON.
#[derive(Debug, Clone)]
struct Found {
    offset: Option<u64>,
    severity: String,
    kind: String,
}

/// Runs `spinneret check --format jsonl ARGS`: exit code, problems,
/// summary.
fn run(args: &[&str]) -> (u8, Vec<Found>, String) {
    let mut argv = vec!["check", "--format", "jsonl"];
    argv.extend_from_slice(args);
    let cmd = Cmd::try_parse_from(&argv).expect("arguments");
    let (mut out, mut diag) = (Vec::new(), Vec::new());
    let result = check::run(&cmd.args, &mut out, &mut diag, false).expect("a run");
    let found = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            Found {
                offset: v["offset"].as_u64(),
                severity: v["severity"].as_str().unwrap().to_owned(),
                kind: v["kind"].as_str().unwrap().to_owned(),
            }
        })
        .collect();
    (result.exit_code(), found, String::from_utf8(diag).unwrap())
}

fn corpus_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in walk(&spinneret_testdata::path("corpus/warc")) {
        let name = entry.to_string_lossy().into_owned();
        let crawl = [".warc", ".warc.gz", ".arc", ".arc.gz", ".warc.zst"]
            .iter()
            .any(|s| name.ends_with(s));
        if crawl && !name.contains("/cdx/") {
            out.push(entry);
        }
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The corpus files `check` finds errors in (see the module doc).
const WITH_ERRORS: [&str; 4] = [
    "pywb/bad.arc",
    "pywb/example-extra.warc",
    "pywb/example.warc",
    "resiliparse/clipped.warc.gz",
];

#[test]
fn every_corpus_file_gets_its_verdict() {
    let files = corpus_files();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let root = spinneret_testdata::path("corpus/warc");
    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
    for f in &files {
        let name = f
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let path = f.to_str().unwrap();
        let (code, found, summary) = run(&[path, "--threads", "1"]);
        let errors: Vec<&Found> = found.iter().filter(|p| p.severity == "error").collect();
        println!(
            "{name}\texit {code}\t{} problems\t{} errors",
            found.len(),
            errors.len()
        );
        let expected = WITH_ERRORS.contains(&name.as_str());
        assert_eq!(code, u8::from(expected), "{name}: {found:?}\n{summary}");
        assert_eq!(!errors.is_empty(), expected, "{name}");
        assert!(summary.contains("spinneret check: 1 inputs"), "{summary}");
        for p in &found {
            assert!(
                ["error", "warning", "note"].contains(&p.severity.as_str()),
                "{p:?}"
            );
            *kinds.entry(p.kind.clone()).or_default() += 1;
        }
        // The same lines on two threads.
        let (code2, found2, _) = run(&[path, "--threads", "2"]);
        assert_eq!(code2, code, "{name}");
        assert_eq!(format!("{found2:?}"), format!("{found:?}"), "{name}");
    }
    println!("problems by kind: {kinds:?}");
}

/// The gzip members of a file: (compressed bytes, decompressed bytes).
fn members(data: &[u8]) -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut out = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let mut d = flate2::bufread::GzDecoder::new(rest);
        let mut plain = Vec::new();
        d.read_to_end(&mut plain).unwrap();
        let left = d.into_inner();
        out.push((rest[..rest.len() - left.len()].to_vec(), plain));
        rest = left;
    }
    out
}

fn gz(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("spinneret-check-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    fn write(&self, name: &str, data: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, data).unwrap();
        p.to_str().unwrap().to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The kinds of the problems found, with their offsets.
fn kinds_at(found: &[Found]) -> Vec<(Option<u64>, &str)> {
    found.iter().map(|p| (p.offset, p.kind.as_str())).collect()
}

/// Damaged copies of a good corpus WARC (wpull's: warcinfo, request,
/// response and resource records, one gzip member each, every digest
/// verified): each damage is caught with the right kind, at the damaged
/// member's offset, and the records after it are still checked.
#[test]
fn damaged_copies_are_caught() {
    let good = std::fs::read(spinneret_testdata::path(
        "corpus/warc/pywb/example-wpull.warc.gz",
    ))
    .unwrap();
    let dir = TempDir::new("damaged");
    let path = dir.write("good.warc.gz", &good);
    let (code, found, summary) = run(&[&path]);
    assert_eq!((code, found.len()), (0, 0), "{found:?}");
    assert!(
        summary.contains("payload digests: 2 verified, 0 failed"),
        "{summary}"
    );
    let m = members(&good);
    assert_eq!(m.len(), 4);
    let at: Vec<u64> = m
        .iter()
        .scan(0u64, |off, (c, _)| {
            let here = *off;
            *off += c.len() as u64;
            Some(here)
        })
        .collect();
    let response = &m[2].1;
    assert!(response.windows(14).any(|w| w == b"WARC-Type: res"));
    let concat = |parts: &[Vec<u8>]| parts.concat();

    // A flipped bit in the response's payload: both digests fail.
    let mut flipped = response.clone();
    let heads = flipped.windows(4).filter(|w| w == b"\r\n\r\n").count();
    assert!(heads >= 2);
    let body_at = {
        let first = flipped.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
        first
            + flipped[first..]
                .windows(4)
                .position(|w| w == b"\r\n\r\n")
                .unwrap()
            + 4
    };
    flipped[body_at + 10] ^= 0x04;
    let file = concat(&[m[0].0.clone(), m[1].0.clone(), gz(&flipped), m[3].0.clone()]);
    let (code, found, _) = run(&[&dir.write("flipped.warc.gz", &file)]);
    assert_eq!(code, 1);
    assert_eq!(
        kinds_at(&found),
        [
            (Some(at[2]), "block-digest-mismatch"),
            (Some(at[2]), "payload-digest-mismatch")
        ]
    );

    // The response's member cut in half: a corrupt member; the resource
    // after it is still read (its offset moved: no problem of its own).
    let cut = m[2].0[..m[2].0.len() / 2].to_vec();
    let file = concat(&[m[0].0.clone(), m[1].0.clone(), cut.clone(), m[3].0.clone()]);
    let (code, found, summary) = run(&[&dir.write("cut.warc.gz", &file)]);
    assert_eq!(code, 1);
    assert_eq!(kinds_at(&found), [(Some(at[2]), "corrupt-member")]);
    assert!(summary.contains(", 3 records,"), "{summary}");
    // The file ending inside that member.
    let file = concat(&[m[0].0.clone(), m[1].0.clone(), cut]);
    let (code, found, _) = run(&[&dir.write("end.warc.gz", &file)]);
    assert_eq!(code, 1);
    assert_eq!(kinds_at(&found), [(Some(at[2]), "corrupt-member")]);

    // A wrong Content-Length (5 bytes short, then 5 long) in the
    // response's WARC header.
    let text = String::from_utf8_lossy(response).into_owned();
    let cl = text.split("Content-Length: ").nth(1).unwrap();
    let n: u64 = cl[..cl.find('\r').unwrap()].parse().unwrap();
    for (name, wrong, kind) in [
        ("short", n - 5, "bad-boundary"),
        ("long", n + 5, "bad-boundary"),
    ] {
        let changed = text.replacen(
            &format!("Content-Length: {n}\r"),
            &format!("Content-Length: {wrong}\r"),
            1,
        );
        let file = concat(&[
            m[0].0.clone(),
            m[1].0.clone(),
            gz(changed.as_bytes()),
            m[3].0.clone(),
        ]);
        let (code, found, _) = run(&[&dir.write(&format!("{name}.warc.gz"), &file)]);
        assert_eq!(code, 1, "{name}");
        assert_eq!(kinds_at(&found), [(Some(at[2]), kind)], "{name}");
        // And in the plain file.
        let plain = concat(&[
            m[0].1.clone(),
            m[1].1.clone(),
            changed.into_bytes(),
            m[3].1.clone(),
        ]);
        let (code, found, _) = run(&[&dir.write(&format!("{name}.warc"), &plain)]);
        assert_eq!(code, 1, "{name}");
        let plain_at = (m[0].1.len() + m[1].1.len()) as u64;
        assert_eq!(kinds_at(&found), [(Some(plain_at), kind)], "{name} plain");
    }

    // The request and the response in one gzip member.
    let shared = gz(&[m[1].1.clone(), m[2].1.clone()].concat());
    let file = concat(&[m[0].0.clone(), shared, m[3].0.clone()]);
    let (code, found, _) = run(&[&dir.write("shared.warc.gz", &file)]);
    assert_eq!(code, 1);
    assert_eq!(kinds_at(&found), [(Some(at[1]), "shared-member")]);
}

#[test]
fn exit_codes_strict_quiet_and_unreadable_inputs() {
    let root = spinneret_testdata::path("corpus/warc");
    let good = root.join("pywb/example-wpull.warc.gz");
    let warned = root.join("pywb/example.warc.gz");
    let (g, w) = (good.to_str().unwrap(), warned.to_str().unwrap());
    // Warnings alone pass, unless --strict.
    let (code, found, _) = run(&[w]);
    assert!(!found.is_empty() && found.iter().all(|p| p.severity != "error"));
    assert_eq!(code, 0);
    assert_eq!(run(&[w, "--strict"]).0, 1);
    assert_eq!(run(&[g, "--strict"]).0, 0);
    // --quiet: the summary only.
    let (code, found, summary) = run(&[w, "--quiet"]);
    assert_eq!((code, found.len()), (0, 0));
    assert!(summary.contains("warnings"), "{summary}");
    // An unreadable input is reported in its place; the rest is checked.
    let missing = root.join("no-such-file.warc.gz");
    let (code, found, summary) = run(&[g, missing.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert_eq!(kinds_at(&found), [(None, "unreadable-input")]);
    assert!(summary.contains("1 unreadable inputs"), "{summary}");
    // --stats: the same counts as JSON.
    let dir = TempDir::new("stats");
    let stats = dir.0.join("stats.json");
    run(&[g, "--stats", stats.to_str().unwrap()]);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    assert_eq!(s["errors"], 0);
    assert_eq!(s["block_digests"]["verified"], 4);
    assert_eq!(s["payload_digests"]["verified"], 2);
}
