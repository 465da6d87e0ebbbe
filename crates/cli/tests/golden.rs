//! Golden test of `spinneret links` on `tests/data/sample.warc.gz` (written
//! by `tests/data/make_sample.py`): every link kind, a `<base>` after links,
//! a windows-1251 query, a late `<meta charset>`, a 301 with `Location`, a
//! revisit and a corrupt gzip member followed by good records. Expected
//! outputs sit next to the sample; `BLESS=1` rewrites them.

use std::path::Path;
use std::process::{Command, Output};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

fn spinneret(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .current_dir(DATA)
        .args(args)
        .output()
        .expect("run spinneret")
}

fn check_golden(name: &str, actual: &str) {
    let path = Path::new(DATA).join(name);
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (run with BLESS=1)", path.display()));
    if expected != actual {
        for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
            assert_eq!(e, a, "{name}: first difference at line {}", i + 1);
        }
        panic!(
            "{name}: {} expected lines, {} actual",
            expected.lines().count(),
            actual.lines().count()
        );
    }
}

fn stats(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn jsonl_golden_and_stats() {
    let stats_path =
        std::env::temp_dir().join(format!("spinneret-golden-{}.json", std::process::id()));
    let out = spinneret(&[
        "links",
        "sample.warc.gz",
        "--stats",
        stats_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    check_golden(
        "sample.expected.jsonl",
        &String::from_utf8(out.stdout).unwrap(),
    );

    let stderr = String::from_utf8(out.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(
        lines[0].starts_with("spinneret: bad record: sample.warc.gz: offset ")
            && lines[0].contains("corrupt gzip member"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("spinneret links: 11 records, 6 HTML pages, 49 links"),
        "{stderr}"
    );

    let s = stats(&stats_path);
    std::fs::remove_file(&stats_path).unwrap();
    assert_eq!(s["bad_records"], 1);
    assert_eq!(s["records"]["revisit"], 1);
    assert_eq!(s["records"]["request"], 1);
    assert_eq!(s["records"]["metadata"], 1);
    assert_eq!(s["records"]["warcinfo"], 1);
    assert_eq!(s["html_pages"], 6);
    assert_eq!(s["non_html_records"], 1);
    assert_eq!(s["links"], 49);
    assert_eq!(s["parse_failures"], 1);
    assert_eq!(s["encoding_changes"], 1);
    assert_eq!(s["restarts"], 1);
    assert_eq!(s["encoding_steps"]["HTTP"], 2);
    assert_eq!(
        s["bytes"],
        std::fs::metadata(Path::new(DATA).join("sample.warc.gz"))
            .unwrap()
            .len()
    );
    // Every link kind of spinneret-extract occurs in the sample.
    assert_eq!(s["links_by_kind"].as_object().unwrap().len(), 14, "{s}");
    assert!(s["elapsed_seconds"].is_number() && s["mb_per_s"].is_number());
}

#[test]
fn tsv_unique_golden() {
    let out = spinneret(&["links", "--format", "tsv", "--unique", "sample.warc.gz"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("source\ttarget\terror\traw\ttag\tattr\tkind\trel\ttext\trecord\n"));
    let dups = text
        .lines()
        .filter(|l| l.split('\t').nth(1) == Some("https://example.com/dup"))
        .count();
    assert_eq!(dups, 1);
    assert!(text.lines().all(|l| l.split('\t').count() == 10));
    check_golden("sample.expected-unique.tsv", &text);
}

/// `--profile aggressive --unique`: targets are canonical (a fixed point of
/// the profile), each printed once, and fewer than the WHATWG targets.
#[test]
fn canon_profile_unique_golden() {
    let out = spinneret(&[
        "links",
        "--format",
        "tsv",
        "--unique",
        "--profile",
        "aggressive",
        "sample.warc.gz",
    ]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut canon = spinneret_canon::Canonicalizer::new(
        spinneret_canon::Profile::builtin("aggressive").unwrap(),
    );
    let mut seen = std::collections::HashSet::new();
    for line in text.lines().skip(1) {
        let target = line.split('\t').nth(1).unwrap();
        if target.is_empty() {
            continue;
        }
        assert!(seen.insert(target.to_owned()), "printed twice: {target}");
        assert_eq!(canon.canonicalize(target).unwrap(), target, "not canonical");
    }
    let plain = spinneret(&["links", "--format", "tsv", "--unique", "sample.warc.gz"]);
    let plain_targets = String::from_utf8(plain.stdout).unwrap().lines().count();
    assert!(
        text.lines().count() < plain_targets,
        "{} vs {plain_targets}",
        text.lines().count()
    );
    check_golden("sample.expected-aggressive-unique.tsv", &text);
}

/// `spinneret canon`: three columns per input line.
#[test]
fn canon_command() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(["canon", "--profile", "aggressive"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"https://www.Example.com/a/?utm_source=x&b=1#f\n::\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "https://www.Example.com/a/?utm_source=x&b=1#f\thttp://example.com/a?b=1\tcom,example)/a?b=1&utm_source=x\n::\t\thttp:/\n"
    );
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("2 lines, 1 not URLs")
    );
}

#[test]
fn stdin_equals_file() {
    let data = std::fs::read(Path::new(DATA).join("sample.warc.gz")).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .current_dir(DATA)
        .args(["links", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&data).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let from_file = spinneret(&["links", "sample.warc.gz"]).stdout;
    let from_file = String::from_utf8(from_file)
        .unwrap()
        .replace("\"record\":\"sample.warc.gz:", "\"record\":\"-:");
    assert_eq!(String::from_utf8(out.stdout).unwrap(), from_file);
}

#[test]
fn strict_stops_at_the_bad_record_with_exit_2() {
    let out = spinneret(&["links", "--strict", "sample.warc.gz"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    // The links of the records before the corrupt member, and none after.
    assert!(text.contains("new-home") && !text.contains("next-resource.html"));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("stopped: strict")
    );
}

#[test]
fn html_file_and_manifest() {
    let dir = std::env::temp_dir().join(format!("spinneret-html-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("p.html"), "<base href=/b/><a href=x>X</a>").unwrap();
    std::fs::write(
        dir.join("m.tsv"),
        "path\turl\np.html\thttps://h.example/a/\nmissing.html\thttps://h.example/\n",
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    let out = spinneret(&[
        "links",
        "--html",
        &format!("{d}/p.html"),
        "--url",
        "https://h.example/a/",
    ]);
    assert!(out.status.success(), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["target"], "https://h.example/b/x");
    // A listed page that cannot be read is reported, the others' links
    // written, and the exit code is 1.
    let out = spinneret(&["links", "--manifest", &format!("{d}/m.tsv")]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 1);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("spinneret: cannot read: ") && stderr.contains("missing.html: "),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn usage_errors() {
    let out = spinneret(&["links", "--profile", "google", "sample.warc.gz"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("unknown profile")
    );
    let out = spinneret(&["links", "--rule", "+no-such-rule", "sample.warc.gz"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("unknown rule")
    );
    // A missing input is reported (and the others read: tests/inputs.rs);
    // the exit code is 1.
    let out = spinneret(&["links", "no-such-file.warc"]);
    assert_eq!(out.status.code(), Some(1));
    // The message names the file, then its cause, once.
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("spinneret: cannot read: no-such-file.warc: "),
        "{stderr}"
    );
    assert_eq!(stderr.matches("(os error").count(), 1, "{stderr}");
    let out = spinneret(&["links", "*.no-such-ext"]);
    assert_eq!(out.status.code(), Some(1));
    let out = spinneret(&["links"]);
    assert_eq!(out.status.code(), Some(1));
}
