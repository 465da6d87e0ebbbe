//! `spinneret index` through the binary: the output does not depend on
//! `--threads`, `--memory` (a budget small enough for many sorted runs
//! gives the same bytes) or `--no-sort` (the same lines, sorted by the
//! test); lines are in byte order; a whole-file gzip is indexed with its
//! decompressed offsets, marked, with a warning, and refused under
//! `--strict`; a damaged record is reported and skipped, the rest indexed,
//! exit code 1; every line's offset and length lead back to a record with
//! the line's URL. (The differential tests against cdxj-indexer, pywb and
//! DuckDB are Python: crates/python/tests/test_index_*.py.)

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn shared_warcs() -> Vec<PathBuf> {
    let root = spinneret_testdata::path("corpus/warc");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir)
            .expect("the corpus folder")
            .flatten()
        {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                stack.push(p);
            } else if [".warc", ".warc.gz", ".arc", ".arc.gz"]
                .iter()
                .any(|x| name.ends_with(x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() >= 30, "the corpus WARCs are missing");
    out
}

/// `spinneret index ARGS`: exit code, stdout, stderr.
fn index(args: &[&str], files: &[PathBuf]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .arg("index")
        .args(args)
        .args(files)
        .output()
        .expect("run spinneret");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("UTF-8 lines"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spinneret-index-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn output_depends_on_the_inputs_only() {
    let files = shared_warcs();
    let (code, one, _) = index(&["--threads", "1"], &files);
    // Damaged corpus files (bad.arc, example.warc, clipped.warc.gz …).
    assert_eq!(code, 1);
    let (_, two, _) = index(&["--threads", "2"], &files);
    assert_eq!(one, two, "--threads changed the output");
    let (_, small, _) = index(&["--memory", "4K"], &files);
    assert_eq!(one, small, "a 4 KiB sort budget changed the output");
    let (_, unsorted, _) = index(&["--no-sort"], &files);
    let mut lines: Vec<&str> = unsorted.lines().collect();
    lines.sort_unstable();
    assert_eq!(one.lines().collect::<Vec<_>>(), lines);
    let sorted: Vec<&[u8]> = one.lines().map(str::as_bytes).collect();
    assert!(sorted.windows(2).all(|w| w[0] <= w[1]), "not in byte order");
    assert!(sorted.len() > 400);
}

/// `--skim` writes the same lines and the same reports as the full read on
/// every corpus file (the damaged ones included: their damage is of the
/// kinds the skim sees, or in records it does not take), and on a
/// gzip-per-record file of large pages, where it does skim.
#[test]
fn skim_writes_the_same_index() {
    // The exit code, the lines, and the reports (not the summary's time).
    let run = |args: &[&str], files: &[PathBuf]| {
        let (code, out, err) = index(args, files);
        let reports: Vec<String> = err
            .lines()
            .filter(|l| !l.starts_with("spinneret index:"))
            .map(str::to_owned)
            .collect();
        (code, out, reports)
    };
    let files = shared_warcs();
    let full = run(&["--threads", "1"], &files);
    let skim = run(&["--threads", "1", "--skim"], &files);
    assert_eq!(skim, full, "--skim changed the output on the corpus");
    for file in &files {
        let one = run(&["--no-sort", "--skim"], std::slice::from_ref(file));
        assert_eq!(
            one,
            run(&["--no-sort"], std::slice::from_ref(file)),
            "{}",
            file.display()
        );
    }
    // Large pages, one member each: nearly every response is skimmed.
    let dir = tmp("skim");
    let path = dir.join("pages.warc.gz");
    let mut out = std::fs::File::create(&path).unwrap();
    for i in 0..300 {
        let mut page =
            format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<title>{i}</title>")
                .into_bytes();
        page.extend((0..20_000 + i * 311).map(|k| b"abcdefgh ijklmnop"[(k * 7 + i) % 17]));
        let mut rec = record(
            "response",
            &format!("https://example.com/{i}"),
            "2026-12-08T00:00:00Z",
            "application/http; msgtype=response",
            &page,
        );
        let at = rec.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
        rec.splice(at + 2..at + 2, *b"WARC-Payload-Digest: sha1:AAAA\r\n");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        gz.write_all(&rec).unwrap();
        out.write_all(&gz.finish().unwrap()).unwrap();
    }
    drop(out);
    let full = run(&["--no-sort"], std::slice::from_ref(&path));
    assert_eq!(full.0, 0, "{:?}", full.2);
    assert_eq!(full.1.lines().count(), 300);
    assert_eq!(
        run(&["--no-sort", "--skim"], std::slice::from_ref(&path)),
        full
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Every line's range re-reads, in its file, as a record with its URL.
#[test]
fn every_line_leads_back_to_its_record() {
    let files = shared_warcs();
    let (_, out, _) = index(&["--no-sort", "--records", "all"], &files);
    let mut checked = 0;
    for line in out.lines() {
        let json: serde_json::Value =
            serde_json::from_str(line.splitn(3, ' ').nth(2).unwrap()).unwrap();
        if json.get("offset-kind").is_some() {
            continue;
        }
        let name = json["filename"].as_str().unwrap();
        let path = files
            .iter()
            .find(|p| p.file_name().unwrap().to_str() == Some(name))
            .unwrap();
        let data = std::fs::read(path).unwrap();
        let offset: usize = json["offset"].as_str().unwrap().parse().unwrap();
        let length: usize = json["length"].as_str().unwrap().parse().unwrap();
        let slice = &data[offset..offset + length];
        let opts = spinneret_warc::Options {
            content: spinneret_warc::Content::Head(1 << 10),
            ..spinneret_warc::Options::default()
        };
        let rec = spinneret_warc::Reader::with_options(slice, opts)
            .next()
            .expect("a record")
            .unwrap_or_else(|e| panic!("{name} at {offset}+{length}: {e}"));
        assert_eq!(
            rec.target_uri.as_deref(),
            json["url"].as_str(),
            "{name} at {offset}"
        );
        checked += 1;
    }
    assert!(checked > 900, "{checked}");
}

fn whole_file_gzip(dir: &Path) -> PathBuf {
    let src = spinneret_testdata::path("corpus/warc/pywb/example.warc");
    let plain = std::fs::read(src).unwrap();
    let path = dir.join("whole.warc.gz");
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(&plain).unwrap();
    std::fs::write(&path, enc.finish().unwrap()).unwrap();
    path
}

#[test]
fn a_whole_file_gzip_is_marked_and_refused_under_strict() {
    let dir = tmp("whole");
    let path = whole_file_gzip(&dir);
    let (_, out, err) = index(&["--no-sort"], std::slice::from_ref(&path));
    assert!(err.contains("replay cannot seek"), "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(!lines.is_empty());
    for l in &lines {
        assert!(l.contains(r#""offset-kind": "decompressed""#), "{l}");
    }
    // The decompressed offsets are those of the plain file's records.
    let (_, plain, _) = index(
        &["--no-sort"],
        &[spinneret_testdata::path("corpus/warc/pywb/example.warc")],
    );
    let strip = |s: &str| {
        s.lines()
            .map(|l| {
                l.replace(r#", "offset-kind": "decompressed""#, "")
                    .replace("whole.warc.gz", "example.warc")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&out), strip(&plain));
    let (code, _, _) = index(&["--strict"], &[path]);
    assert_eq!(code, 2);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_damaged_record_is_reported_and_the_rest_indexed() {
    let dir = tmp("damaged");
    let src = std::fs::read(spinneret_testdata::path("corpus/warc/pywb/iana.warc.gz")).unwrap();
    let (code, good, _) = index(
        &["--no-sort"],
        &[spinneret_testdata::path("corpus/warc/pywb/iana.warc.gz")],
    );
    assert_eq!(code, 0);
    // Flip bytes inside the tenth line's gzip member.
    let tenth: serde_json::Value =
        serde_json::from_str(good.lines().nth(9).unwrap().splitn(3, ' ').nth(2).unwrap()).unwrap();
    let at: usize = tenth["offset"].as_str().unwrap().parse::<usize>().unwrap() + 40;
    let mut bad = src.clone();
    for b in &mut bad[at..at + 16] {
        *b ^= 0x5a;
    }
    let path = dir.join("iana.warc.gz");
    std::fs::write(&path, &bad).unwrap();
    let (code, out, err) = index(&["--no-sort"], &[path]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad record"), "{err}");
    let got: Vec<&str> = out.lines().collect();
    let want: Vec<&str> = good
        .lines()
        .filter(|l| *l != good.lines().nth(9).unwrap())
        .collect();
    assert_eq!(got, want, "every other record indexed, none wrong");
    std::fs::remove_dir_all(dir).unwrap();
}

/// A WARC record (`kind`, of `url` dated `date`) holding `block`.
fn record(kind: &str, url: &str, date: &str, content_type: &str, block: &[u8]) -> Vec<u8> {
    let mut r = format!(
        "WARC/1.0\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{:08x}-0000-0000-0000-000000000000>\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        url.len(),
        block.len()
    )
    .into_bytes();
    r.extend_from_slice(block);
    r.extend_from_slice(b"\r\n\r\n");
    r
}

/// A `resource` record of `url` dated `date`.
fn resource(url: &str, date: &str) -> Vec<u8> {
    record("resource", url, date, "text/html", b"<p>hello</p>")
}

#[test]
fn a_date_that_is_not_one_is_reported_never_a_line_a_replay_system_cannot_use() {
    let dir = tmp("bad-date");
    // ClueWeb09's quirk (a three-digit day), a 13th month, and between
    // them dates that are: one with an offset, moved to UTC.
    let mut warc = resource("http://a.example/", "2008-10-29T05:21:46Z");
    let bad_at = warc.len();
    warc.extend(resource("http://b.example/", "2008-10-294T05:21:46-0700"));
    warc.extend(resource("http://c.example/", "2008-10-29T05:21:46-07:00"));
    let worse_at = warc.len();
    warc.extend(resource("http://d.example/", "2008-13-01T00:00:00Z"));
    let path = dir.join("dates.warc");
    std::fs::write(&path, &warc).unwrap();
    let (code, out, err) = index(&["--no-sort"], std::slice::from_ref(&path));
    assert_eq!(code, 1, "{err}");
    let timestamps: Vec<&str> = out.lines().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_eq!(timestamps, ["20081029052146", "20081029122146"], "{out}");
    for (at, date) in [
        (bad_at, "2008-10-294T05:21:46-0700"),
        (worse_at, "2008-13-01T00:00:00Z"),
    ] {
        let want = format!("offset {at}: WARC-Date {date:?} is not a W3C-DTF date");
        assert!(err.contains(&want), "{want} in {err}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_status_that_is_not_three_digits_is_reported() {
    let dir = tmp("bad-status");
    let response = |url: &str, status: &str| {
        let block = format!("HTTP/1.1 {status} OK\r\nContent-Type: text/html\r\n\r\n<p>x</p>");
        let http = "application/http; msgtype=response";
        record(
            "response",
            url,
            "2020-01-02T03:04:05Z",
            http,
            block.as_bytes(),
        )
    };
    let mut warc = response("http://a.example/", "200");
    let bad_at = warc.len();
    warc.extend(response("http://b.example/", "20"));
    let zeros_at = warc.len();
    warc.extend(response("http://c.example/", "000"));
    warc.extend(response("http://d.example/", "999"));
    let path = dir.join("status.warc");
    std::fs::write(&path, &warc).unwrap();
    let (code, out, err) = index(&["--no-sort"], std::slice::from_ref(&path));
    assert_eq!(code, 1, "{err}");
    let urls: Vec<&str> = out.lines().map(|l| l.split('"').nth(3).unwrap()).collect();
    assert_eq!(urls, ["http://a.example/", "http://d.example/"], "{out}");
    for (at, status) in [(bad_at, 20), (zeros_at, 0)] {
        let want = format!("offset {at}: HTTP status {status} is not a three-digit code");
        assert!(err.contains(&want), "{want} in {err}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_target_uri_that_is_not_a_url_is_reported() {
    let dir = tmp("bad-uri");
    let date = "2020-01-02T03:04:05Z";
    let mut warc = resource("http://a.example/", date);
    let space_at = warc.len();
    warc.extend(resource("http://exa mple.com/", date));
    let relative_at = warc.len();
    warc.extend(resource("index.html", date));
    // URLs all the same: a space in the path, a scheme without a host.
    warc.extend(resource("http://b.example/a b", date));
    warc.extend(resource("dns:c.example", date));
    let path = dir.join("uris.warc");
    std::fs::write(&path, &warc).unwrap();
    let (code, out, err) = index(&["--no-sort"], std::slice::from_ref(&path));
    assert_eq!(code, 1, "{err}");
    let urls: Vec<&str> = out.lines().map(|l| l.split('"').nth(3).unwrap()).collect();
    assert_eq!(
        urls,
        ["http://a.example/", "http://b.example/a b", "dns:c.example"],
        "{out}"
    );
    for (at, uri, why) in [
        (space_at, "http://exa mple.com/", "invalid domain character"),
        (relative_at, "index.html", "relative URL without a base"),
    ] {
        let want = format!("offset {at}: WARC-Target-URI {uri:?} is not a URL: {why}");
        assert!(err.contains(&want), "{want} in {err}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
