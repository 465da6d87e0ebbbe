//! `spinneret get` through the binary, over the corpus WARCs: index them
//! (CDXJ and CDX), fetch every record the index names, and check that
//! each gzip member came back byte for byte, that a plain record came back
//! as a member holding the same bytes, that the fetched file is a WARC
//! file `check` reads without a framing error, and that indexing it gives
//! the same keys, dates, types and digests as the source lines. Damaged
//! index lines and ranges are reported and the rest fetched.

use std::io::Read;
use std::path::{Path, PathBuf};

fn corpus() -> PathBuf {
    spinneret_testdata::path("corpus/warc")
}

use crate::common::spinneret_with_stdin as spinneret;

/// The corpus index: `filename`s relative to the corpus folder.
fn index(format: &str) -> String {
    let w = corpus();
    let w = w.to_str().unwrap();
    let args = ["index", "--no-sort", "--format", format, "--dir-root", w];
    let out = spinneret(&[&args[..], &[w]].concat(), b"");
    String::from_utf8(out.stdout).unwrap()
}

fn json(line: &str) -> serde_json::Value {
    serde_json::from_str(line.splitn(3, ' ').nth(2).unwrap()).unwrap()
}

/// The bytes of `path` in `offset..offset + length`.
fn range(path: &Path, offset: u64, length: u64) -> Vec<u8> {
    let data = std::fs::read(path).unwrap();
    data[offset as usize..(offset + length) as usize].to_vec()
}

/// All of a gzip stream, inflated.
fn inflate(member: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(member)
        .read_to_end(&mut out)
        .unwrap();
    out
}

#[test]
fn every_record_an_index_names_comes_back_as_it_was() {
    let cdxj = index("cdxj");
    let base = corpus();
    let got = spinneret(&["get", "--base", base.to_str().unwrap()], cdxj.as_bytes());
    let stderr = String::from_utf8_lossy(&got.stderr);
    // What cannot be one record of a WARC file: ARC records, and a record
    // whose range holds an ARC record's damaged HTTP head.
    let skipped = stderr
        .lines()
        .filter(|l| l.starts_with("spinneret: bad range:"))
        .count();
    let arc_lines = cdxj
        .lines()
        .filter(|l| json(l)["filename"].as_str().unwrap().contains(".arc"))
        .count();
    assert_eq!(skipped, arc_lines, "{stderr}");
    assert_eq!(got.status.code(), Some(1));
    // The members, one per fetched record, in index order.
    let mut members = Vec::new();
    let mut rest = &got.stdout[..];
    while !rest.is_empty() {
        let mut decoder = flate2::bufread::GzDecoder::new(rest);
        std::io::copy(&mut decoder, &mut std::io::sink()).unwrap();
        let left = decoder.into_inner();
        let len = rest.len() - left.len();
        members.push(&rest[..len]);
        rest = left;
    }
    let fetched: Vec<&str> = cdxj
        .lines()
        .filter(|l| !json(l)["filename"].as_str().unwrap().contains(".arc"))
        .collect();
    assert_eq!(members.len(), fetched.len());
    for (line, member) in fetched.iter().zip(&members) {
        let v = json(line);
        let n = |k: &str| v[k].as_str().unwrap().parse::<u64>().unwrap();
        let file = base.join(v["filename"].as_str().unwrap());
        let original = range(&file, n("offset"), n("length"));
        if original.starts_with(&[0x1f, 0x8b]) {
            assert!(original == *member, "{line}: not the member verbatim");
        } else {
            assert!(inflate(member) == original, "{line}: not the plain record");
        }
    }
    // A WARC file: no framing error; its own index names the same records.
    let fetched_file =
        std::env::temp_dir().join(format!("spinneret-get-{}.warc.gz", std::process::id()));
    std::fs::write(&fetched_file, &got.stdout).unwrap();
    let check = spinneret(&["check", "--quiet", fetched_file.to_str().unwrap()], b"");
    let summary = String::from_utf8_lossy(&check.stderr);
    assert!(summary.contains(" 0 reader errors"), "{summary}");
    // (Without request records, which the index does not list, a POST
    // response's key has no body folded in: both sides are compared
    // without.)
    let again = spinneret(
        &[
            "index",
            "--no-sort",
            "--no-post-append",
            fetched_file.to_str().unwrap(),
        ],
        b"",
    );
    std::fs::remove_file(&fetched_file).unwrap();
    let again = String::from_utf8(again.stdout).unwrap();
    let fields = |line: &str| {
        let v = json(line);
        let key: Vec<&str> = line.splitn(3, ' ').take(2).collect();
        (
            key.join(" "),
            v["digest"].clone(),
            v["mime"].clone(),
            v["status"].clone(),
        )
    };
    let w = corpus();
    let w = w.to_str().unwrap();
    let source = spinneret(
        &["index", "--no-sort", "--no-post-append", "--dir-root", w, w],
        b"",
    );
    let source = String::from_utf8(source.stdout).unwrap();
    let want: Vec<_> = source
        .lines()
        .filter(|l| !json(l)["filename"].as_str().unwrap().contains(".arc"))
        .map(fields)
        .collect();
    let have: Vec<_> = again.lines().map(fields).collect();
    assert_eq!(have, want);
}

#[test]
fn cdx_lines_fetch_what_cdxj_lines_fetch() {
    let base = corpus();
    let base = base.to_str().unwrap();
    let from_cdxj = spinneret(&["get", "--base", base], index("cdxj").as_bytes());
    let from_cdx = spinneret(&["get", "--base", base], index("cdx11").as_bytes());
    assert!(!from_cdxj.stdout.is_empty());
    assert!(from_cdx.stdout == from_cdxj.stdout);
    // Threads change nothing.
    let one = spinneret(
        &["get", "--threads", "1", "--base", base],
        index("cdxj").as_bytes(),
    );
    assert!(one.stdout == from_cdxj.stdout);
}

#[test]
fn bad_lines_and_ranges_are_reported_and_the_rest_fetched() {
    let base = corpus();
    let base = base.to_str().unwrap();
    let good: Vec<String> = index("cdxj")
        .lines()
        .filter(|l| json(l)["filename"].as_str().unwrap().ends_with(".warc.gz"))
        .take(3)
        .map(str::to_owned)
        .collect();
    let mut shifted = json(&good[1]);
    let offset: u64 = shifted["offset"].as_str().unwrap().parse().unwrap();
    shifted["offset"] = serde_json::Value::String((offset + 1).to_string());
    let escape = r#"k 1 {"offset": "0", "length": "10", "filename": "../../etc/passwd"}"#;
    let lines = [
        good[0].clone(),
        format!("com,x)/ 2020 {shifted}"),
        "not an index line".to_owned(),
        escape.to_owned(),
        good[2].clone(),
    ];
    let got = spinneret(&["get", "--base", base], lines.join("\n").as_bytes());
    assert_eq!(got.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&got.stderr);
    assert!(
        stderr.contains(&format!("offset {} length", offset + 1)),
        "{stderr}"
    );
    assert!(
        stderr.contains("-:3: no filename in the CDX line"),
        "{stderr}"
    );
    assert!(
        stderr.contains("is not a path under the base folder"),
        "{stderr}"
    );
    assert!(
        stderr.contains("2 records, 1 bad lines, 2 bad ranges"),
        "{stderr}"
    );
    let two = spinneret(
        &["get", "--base", base],
        format!("{}\n{}\n", good[0], good[2]).as_bytes(),
    );
    assert!(got.stdout == two.stdout);
}
