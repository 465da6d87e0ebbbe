//! `spinneret canon --profile safe` run as a process: hash-bang (`#!`) and
//! `#/` routes keep distinct canonical URLs and keys, in-page anchors do not.
//! The third column is the Internet Archive's CDX key, which has no
//! fragment whatever the profile.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `spinneret canon ARGS` with `input` on standard input; returns the
/// output rows split at tabs.
fn canon(args: &[&str], input: &str) -> Vec<Vec<String>> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .arg("canon")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run spinneret");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect()
}

const INPUT: &str = "\
http://twitter.com/#!/washingtonpost
http://twitter.com/#!/Sn00ki
http://twitter.com/
http://twitter.com/#top
https://app.example/#/login
https://app.example/#/shop
https://app.example/#!
";

#[test]
fn safe_keeps_hash_bang_routes_distinct() {
    let rows = canon(&["--profile", "safe"], INPUT);
    let canonical: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(
        canonical,
        [
            "http://twitter.com/#!/washingtonpost",
            "http://twitter.com/#!/Sn00ki",
            "http://twitter.com/",
            "http://twitter.com/",
            "https://app.example/#/login",
            "https://app.example/#/shop",
            "https://app.example/",
        ]
    );
    // The CDX key column follows the Internet Archive, which drops fragments.
    assert!(rows.iter().all(|r| !r[2].contains('#')), "{rows:?}");
}

#[test]
fn safe_keys_keep_hash_bang_routes_distinct() {
    let rows = canon(&["--profile", "safe", "--key"], INPUT);
    assert_eq!(rows[0][1], "http://twitter.com/#!/washingtonpost");
    assert_ne!(rows[0][1], rows[1][1]);
    assert_ne!(rows[0][1], rows[2][1]);
    assert_eq!(rows[2][1], rows[3][1]);
    // A profile keyed by SURT keeps the route after the path too.
    let dir = std::env::temp_dir().join(format!("spinneret-canon-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let profile = dir.join("safe-surt.toml");
    std::fs::write(&profile, "base = \"safe\"\nkey = \"surt\"\n").unwrap();
    let rows = canon(
        &["--profile-file", profile.to_str().unwrap(), "--key"],
        INPUT,
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let keys: Vec<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(
        keys,
        [
            "com,twitter)/#!/washingtonpost",
            "com,twitter)/#!/Sn00ki",
            "com,twitter)/",
            "com,twitter)/",
            "example,app)/#/login",
            "example,app)/#/shop",
            "example,app)/",
        ]
    );
}

#[test]
fn aggressive_still_drops_every_fragment() {
    let rows = canon(&["--profile", "aggressive"], INPUT);
    assert!(rows.iter().all(|r| !r[1].contains('#')), "{rows:?}");
}

/// `--surt-option` and `--surt-canonicalizer` change the third column only,
/// as `surt.surt(url, canonicalizer, **options)` of the PyPI `surt`
/// package; with neither, the column is the Internet Archive's key.
#[test]
fn surt_options_change_the_third_column() {
    let input =
        "http://www.Example.com:80/A/?b=1&a=2#x\nhttp://192.168.1.254/info/\nmailto:X@Y.org\n";
    let plain = canon(&[], input);
    let third = |rows: &[Vec<String>]| rows.iter().map(|r| r[2].clone()).collect::<Vec<_>>();
    assert_eq!(
        third(&plain),
        [
            "com,example)/a?a=2&b=1",
            "254,1,168,192)/info",
            "mailto:X@Y.org"
        ]
    );
    let rows = canon(
        &[
            "--surt-option",
            "with_scheme=true",
            "--surt-option",
            "trailing_comma",
            "--surt-option",
            "host_massage=false",
            "--surt-option",
            "reverse_ipaddr=0",
        ],
        input,
    );
    assert_eq!(
        third(&rows),
        [
            "http://(com,example,www,)/a?a=2&b=1",
            "http://(192.168.1.254,)/info",
            "mailto:X@Y.org"
        ]
    );
    // The first two columns do not move.
    for (a, b) in plain.iter().zip(&rows) {
        assert_eq!(a[..2], b[..2]);
    }
    let rows = canon(&["--surt-canonicalizer", "identity"], input);
    assert_eq!(
        third(&rows),
        [
            "com,example,www:80)/A/?b=1&a=2#x",
            "254,1,168,192)/info/",
            "mailto:X@Y.org"
        ]
    );
    let rows = canon(
        &[
            "--surt-canonicalizer",
            "google,ia",
            "--surt-option",
            "surt=no",
        ],
        input,
    );
    assert_eq!(rows[0][2], "example.com/a?a=2&b=1");

    // Unknown names fail before any output, naming the choices.
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(["canon", "--surt-option", "no_such=true"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("host_massage"));
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(["canon", "--surt-canonicalizer", "java"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("identity"));
}
