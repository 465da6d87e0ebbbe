//! `spinneret canon-eval` over every real WARC/ARC of the corpus and over
//! `urls/warc_url_digest.tsv`, every default policy, with every figure
//! checked by an independent slow implementation written here: string keys
//! in ordered maps, captures selected and digests resolved by their own code,
//! and the paper's formulas evaluated group by group with plain loops.
//!
//! The slow side shares only the key function (`Canonicalizer::key`, tested
//! on its own in crates/canon) and the WARC reader (tested in crates/warc).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;

use clap::Parser;
use sha1::{Digest, Sha1};
use spinneret_canon::{Canonicalizer, Profile};
use spinneret_cli::commands::canon_eval::{self, CanonEvalArgs, EvalReport};
use spinneret_cli::commands::{Cli, Command};
use spinneret_warc::{Reader, RecordType};

fn args(inputs: &[String], extra: &[&str]) -> CanonEvalArgs {
    let mut v: Vec<String> = vec!["spinneret".into(), "canon-eval".into()];
    v.extend(extra.iter().map(|s| s.to_string()));
    v.extend(inputs.iter().cloned());
    match Cli::try_parse_from(v).unwrap().command {
        Command::CanonEval(a) => a,
        _ => unreachable!(),
    }
}

fn warcs() -> Vec<PathBuf> {
    let root = spinneret_testdata::path("corpus/warc");
    let mut v = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if dir.file_name().unwrap() == "cdx" {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            v.push(f.unwrap().path());
        }
    }
    v.sort();
    v
}

fn digest_label(d: &str) -> Option<String> {
    let d = d.trim();
    if d.is_empty() || d == "-" {
        return None;
    }
    Some(match d.find(':') {
        Some(i) => format!("{}:{}", d[..i].to_lowercase(), d[i + 1..].to_uppercase()),
        None => format!("sha1:{}", d.to_uppercase()),
    })
}

fn base32(bytes: &[u8]) -> String {
    // Bit by bit: slow and obviously right.
    let alphabet: Vec<char> = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".chars().collect();
    let bits: Vec<u8> = bytes
        .iter()
        .flat_map(|b| (0..8).rev().map(move |i| (b >> i) & 1))
        .collect();
    bits.chunks(5)
        .map(|c| {
            let mut v = 0;
            for i in 0..5 {
                v = v * 2 + c.get(i).copied().unwrap_or(0) as usize;
            }
            alphabet[v]
        })
        .collect()
}

fn ok_status(s: Option<u16>) -> bool {
    match s {
        None => true,
        Some(s) => (200..300).contains(&s),
    }
}

/// (url, digest) captures of the WARC files, the slow way.
fn slow_warc_captures(files: &[PathBuf]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in files {
        let data = std::fs::read(f).unwrap();
        let records: Vec<_> = Reader::new(&data).filter_map(Result::ok).collect();
        let mut digest_of_id = HashMap::new();
        let digest_of = |r: &spinneret_warc::Record| -> String {
            match r.payload_digest.as_deref().and_then(digest_label) {
                Some(d) => d,
                None => format!("sha1:{}", base32(&Sha1::digest(&r.body))),
            }
        };
        for r in &records {
            if matches!(r.kind, RecordType::Response | RecordType::Resource)
                && let Some(id) = &r.record_id
            {
                digest_of_id.insert(id.clone(), digest_of(r));
            }
        }
        for r in &records {
            let page = matches!(
                r.kind,
                RecordType::Response | RecordType::Resource | RecordType::Revisit
            );
            if !page || !ok_status(r.http.as_ref().map(|h| h.status)) {
                continue;
            }
            let Some(url) = r
                .target_uri
                .as_deref()
                .map(str::trim)
                .filter(|u| !u.is_empty())
            else {
                continue;
            };
            let digest = if r.kind == RecordType::Revisit {
                match r.payload_digest.as_deref().and_then(digest_label) {
                    Some(d) => Some(d),
                    None => r
                        .refers_to
                        .as_ref()
                        .and_then(|id| digest_of_id.get(id).cloned()),
                }
            } else {
                Some(digest_of(r))
            };
            if let Some(d) = digest {
                out.push((url.to_owned(), d));
            }
        }
    }
    out
}

/// (url, digest) captures of warc_url_digest.tsv, the slow way.
fn slow_tsv_captures(path: &str) -> Vec<(String, String)> {
    let lines = spinneret_testdata::lines(path);
    let header: Vec<&str> = lines[0].split('\t').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (u, d, t, s) = (
        col("target_uri"),
        col("payload_digest"),
        col("record_type"),
        col("http_status"),
    );
    let mut out = Vec::new();
    for l in &lines[1..] {
        let f: Vec<&str> = l.split('\t').collect();
        let kind = f[t];
        if !["response", "resource", "revisit"].contains(&kind) || !ok_status(f[s].parse().ok()) {
            continue;
        }
        if let (url, Some(dig)) = (f[u].trim(), digest_label(f[d]))
            && !url.is_empty()
        {
            out.push((url.to_owned(), dig));
        }
    }
    out
}

#[derive(Debug, PartialEq)]
struct Slow {
    groups: u64,
    grouped: u64,
    unique: u64,
    downloaded: u64,
    saved: u64,
    redundancy: f64,
    loss: f64,
    failures: u64,
}

/// The paper's figures for one profile, with string keys and plain loops.
fn slow_metrics(captures: &[(String, String)], profile: &Profile) -> Slow {
    // Each URL once, with its first capture's digest.
    let mut urls: Vec<(String, String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for (u, d) in captures {
        if seen.insert(u.clone()) {
            urls.push((u.clone(), d.clone()));
        }
    }
    let mut c = Canonicalizer::new(profile.clone());
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut first_seen: Vec<String> = Vec::new();
    let mut canonical: Vec<Option<String>> = Vec::new();
    let mut failures = 0;
    for (i, (u, _)) in urls.iter().enumerate() {
        match c.key(u) {
            Ok(k) => {
                let k = k.to_owned();
                if !groups.contains_key(&k) {
                    first_seen.push(k.clone());
                }
                groups.entry(k).or_default().push(i);
                canonical.push(c.canonicalize(u).ok().map(str::to_owned));
            }
            Err(_) => {
                failures += 1;
                canonical.push(None);
            }
        }
    }
    // What the canonicalized crawl fetches: per group, the URL that is its
    // own canonical form, else the first.
    let mut fetched = BTreeSet::new();
    for members in groups.values() {
        let rep = members
            .iter()
            .find(|&&i| canonical[i].as_deref() == Some(urls[i].0.as_str()))
            .unwrap_or(&members[0]);
        fetched.insert(urls[*rep].1.clone());
    }
    let mut s = Slow {
        groups: 0,
        grouped: 0,
        unique: 0,
        downloaded: 0,
        saved: 0,
        redundancy: 0.0,
        loss: 0.0,
        failures,
    };
    for k in &first_seen {
        let members = &groups[k];
        if members.len() < 2 {
            continue;
        }
        let pages: BTreeSet<&String> = members.iter().map(|&i| &urls[i].1).collect();
        s.groups += 1;
        s.grouped += members.len() as u64;
        s.unique += pages.len() as u64;
        s.saved += members.len() as u64 - 1;
        s.downloaded += pages.iter().filter(|p| fetched.contains(**p)).count() as u64;
    }
    if s.grouped > 0 {
        s.redundancy = (s.grouped - s.unique) as f64 / s.grouped as f64;
        s.loss = 1.0 - s.downloaded as f64 / s.unique as f64;
    }
    s
}

fn check(report: &EvalReport, captures: &[(String, String)], args: &CanonEvalArgs) {
    let profiles = canon_eval::policies(args).unwrap();
    assert_eq!(report.policies.len(), profiles.len());
    let distinct: BTreeSet<&String> = captures.iter().map(|(u, _)| u).collect();
    assert_eq!(report.urls as usize, distinct.len(), "distinct URLs");
    assert_eq!(
        report.repeated_captures as usize,
        captures.len() - distinct.len()
    );
    let mut merged_somewhere = false;
    for (r, p) in report.policies.iter().zip(&profiles) {
        let s = slow_metrics(captures, p);
        let e = &r.exact;
        let fast = Slow {
            groups: e.groups,
            grouped: e.grouped_urls,
            unique: e.unique_pages,
            downloaded: e.downloaded,
            saved: e.requests_saved,
            redundancy: e.redundancy_rate,
            loss: e.coverage_loss_rate,
            failures: r.failures,
        };
        assert_eq!(fast, s, "policy {}", r.name);
        merged_somewhere |= s.groups > 0 && s.loss > 0.0;
        println!(
            "  {:<34} groups {:>3}  redundancy {:.4}  coverage loss {:.4}",
            r.name, s.groups, s.redundancy, s.loss
        );
    }
    assert!(
        merged_somewhere,
        "no policy lost coverage: the check would not see a wrong loss formula"
    );
}

#[test]
fn canon_eval_on_every_real_warc_matches_the_slow_implementation() {
    let files = warcs();
    assert!(files.len() >= 30, "corpus WARCs: {}", files.len());
    let inputs: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    let a = args(&inputs, &[]);
    let report = canon_eval::run(&a, &mut Vec::new()).unwrap();
    println!("{} WARC/ARC files: {:?}", files.len(), report.read);
    check(&report, &slow_warc_captures(&files), &a);

    // --near-dup: the same exact figures, and near-duplicate figures that
    // never show more loss than exact digests (merging contents can only
    // remove loss).
    let near = canon_eval::run(&args(&inputs, &["--near-dup"]), &mut Vec::new()).unwrap();
    for (e, n) in report.policies.iter().zip(&near.policies) {
        assert_eq!(e.exact, n.exact, "{}", e.name);
        let nm = n.near.expect("near figures");
        assert!(
            nm.coverage_loss_rate <= n.exact.coverage_loss_rate + 1e-12,
            "{}",
            e.name
        );
        assert!(nm.unique_pages <= n.exact.unique_pages, "{}", e.name);
    }
}

#[test]
fn canon_eval_on_the_digest_table_matches_the_slow_implementation() {
    let path = "corpus/urls/warc_url_digest.tsv";
    let a = args(&[spinneret_testdata::path(path).display().to_string()], &[]);
    let report = canon_eval::run(&a, &mut Vec::new()).unwrap();
    println!("warc_url_digest.tsv: {:?}", report.read);
    check(&report, &slow_tsv_captures(path), &a);
}

#[test]
fn html_and_json_reports() {
    let dir = std::env::temp_dir().join(format!("spinneret-canon-eval-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (html, json) = (dir.join("r.html"), dir.join("r.json"));
    let path = spinneret_testdata::path("corpus/urls/warc_url_digest.tsv")
        .display()
        .to_string();
    let a = args(
        &[path],
        &[
            "--profile",
            "safe",
            "--profile",
            "aggressive",
            "--html",
            html.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
    );
    let mut table = Vec::new();
    canon_eval::run(&a, &mut table).unwrap();
    let table = String::from_utf8(table).unwrap();
    assert!(table.contains("aggressive") && table.contains("redundancy"));
    let h = std::fs::read_to_string(&html).unwrap();
    assert!(
        h.starts_with("<!DOCTYPE html>") && h.contains("<h3>aggressive</h3>") && h.contains("<svg")
    );
    let j: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(j["policies"].as_array().unwrap().len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}
