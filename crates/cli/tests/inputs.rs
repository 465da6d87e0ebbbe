//! Inputs as users give them: a directory tree, a glob, a manifest of
//! paths (Common Crawl's `warc.paths.gz`), standard input; an unreadable
//! input reported, the rest processed, exit code 1.
//!
//! The reference is the same run over the files listed and sorted by this
//! test itself (its own walk, not the CLI's): the output must be
//! byte-identical.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const CRAWL_SUFFIXES: [&str; 7] = [
    ".warc",
    ".warc.gz",
    ".warc.zst",
    ".arc",
    ".arc.gz",
    ".warc.zstd",
    ".arc.zst",
];

/// Every file under `dir` named like a WARC/ARC file, hidden entries
/// skipped, sorted by path (component by component).
fn crawl_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().to_lowercase();
            if name.starts_with('.') {
                continue;
            }
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if CRAWL_SUFFIXES.iter().any(|s| name.ends_with(s)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Runs `spinneret` with `args`, `stdin` fed to it.
fn spinneret(args: &[&std::ffi::OsStr], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(bytes) = stdin {
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn links(args: &[&std::ffi::OsStr], stdin: Option<&[u8]>) -> Output {
    let mut all: Vec<&std::ffi::OsStr> = vec!["links".as_ref()];
    all.extend_from_slice(args);
    spinneret(&all, stdin)
}

fn os(p: &Path) -> &std::ffi::OsStr {
    p.as_os_str()
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spinneret-inputs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_directory_tree_gives_the_output_of_its_files_sorted() {
    let corpus = spinneret_testdata::path("corpus/warc");
    let files = crawl_files(&corpus);
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let listed: Vec<&std::ffi::OsStr> = files.iter().map(|p| os(p)).collect();
    let want = links(&listed, None);
    assert!(want.status.success(), "{want:?}");
    let got = links(&[os(&corpus)], None);
    assert!(
        got.status.success(),
        "{:?}",
        String::from_utf8_lossy(&got.stderr)
    );
    assert!(want.stdout.len() > 100_000, "{} bytes", want.stdout.len());
    assert!(
        got.stdout == want.stdout,
        "the walk's output differs from the sorted files' ({} and {} bytes)",
        got.stdout.len(),
        want.stdout.len()
    );
    // A glob that matches the tree's folders walks each of them.
    let glob = corpus.join("*");
    let by_glob = links(&[os(&glob)], None);
    assert!(by_glob.status.success(), "{by_glob:?}");
    assert!(by_glob.stdout == want.stdout, "glob output differs");
}

#[test]
fn an_unreadable_input_is_reported_and_the_rest_is_written() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.warc.gz");
    let alone = links(&[os(&sample)], None);
    assert!(alone.status.success());
    let d = tmpdir("unreadable");
    std::fs::create_dir_all(d.join("a")).unwrap();
    std::fs::create_dir_all(d.join("c")).unwrap();
    std::fs::copy(&sample, d.join("a/1.warc.gz")).unwrap();
    std::fs::copy(&sample, d.join("c/3.warc.gz")).unwrap();
    // A WARC that cannot be opened, whoever runs the test (root reads a
    // file whatever its mode): a dangling symbolic link.
    #[cfg(unix)]
    std::os::unix::fs::symlink(d.join("gone.warc.gz"), d.join("b.warc.gz")).unwrap();
    #[cfg(not(unix))]
    std::fs::create_dir_all(d.join("b.warc.gz/not-a-file")).unwrap();
    let out = links(&[os(&d)], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("b.warc.gz"), "{stderr}");
    assert!(stderr.contains("1 unreadable inputs"), "{stderr}");
    // Both readable files' links, in order: the sample's twice, each with
    // its own file name in the record column.
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let n = alone.stdout.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(lines.len(), 2 * n);
    assert!(lines[..n].iter().all(|l| l.contains("1.warc.gz:")));
    assert!(lines[n..].iter().all(|l| l.contains("3.warc.gz:")));

    // Named on the command line, a missing file and an empty glob are
    // reported in place too; with --strict the run stops (exit code 2).
    let missing = d.join("missing.warc");
    let none = d.join("*.none");
    let out = links(&[os(&missing), os(&sample), os(&none)], None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(out.stdout, alone.stdout);
    assert!(
        stderr.contains("missing.warc") && stderr.contains("no file matches"),
        "{stderr}"
    );
    let strict = links(&[os(&missing), os(&sample), "--strict".as_ref()], None);
    assert_eq!(strict.status.code(), Some(2));
    assert!(strict.stdout.is_empty());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_manifest_of_paths_plain_or_gzip_and_standard_input() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.warc.gz");
    let alone = links(&[os(&sample)], None);
    let d = tmpdir("paths");
    std::fs::create_dir_all(d.join("crawl-data/seg")).unwrap();
    std::fs::copy(&sample, d.join("crawl-data/seg/x.warc.gz")).unwrap();
    let list = "crawl-data/seg/x.warc.gz\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(list.as_bytes()).unwrap();
    std::fs::write(d.join("warc.paths.gz"), gz.finish().unwrap()).unwrap();
    std::fs::write(d.join("warc.paths"), list).unwrap();
    for m in ["warc.paths.gz", "warc.paths"] {
        let out = links(&["--manifest".as_ref(), os(&d.join(m))], None);
        assert!(out.status.success(), "{m}: {out:?}");
        let name = d.join("crawl-data/seg/x.warc.gz").display().to_string();
        let want =
            String::from_utf8_lossy(&alone.stdout).replace(&sample.display().to_string(), &name);
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{m}");
    }
    // `--dir` sets the folder the paths are relative to.
    std::fs::write(d.join("crawl-data/list.txt"), list).unwrap();
    let out = links(
        &[
            "--manifest".as_ref(),
            os(&d.join("crawl-data/list.txt")),
            "--dir".as_ref(),
            os(&d),
        ],
        None,
    );
    assert!(out.status.success(), "{out:?}");
    // Standard input: the same links, the record column naming `-`.
    let bytes = std::fs::read(&sample).unwrap();
    let out = links(&["-".as_ref()], Some(&bytes));
    assert!(out.status.success(), "{out:?}");
    let want =
        String::from_utf8_lossy(&alone.stdout).replace(&format!("\"{}:", sample.display()), "\"-:");
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    std::fs::remove_dir_all(&d).unwrap();
}

fn canon_eval(args: &[&std::ffi::OsStr], stdin: Option<&[u8]>) -> Output {
    let mut all: Vec<&std::ffi::OsStr> =
        vec!["canon-eval".as_ref(), "--profile".as_ref(), "safe".as_ref()];
    all.extend_from_slice(args);
    spinneret(&all, stdin)
}

#[test]
fn canon_eval_takes_folders_manifests_and_standard_input() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.warc.gz");
    let d = tmpdir("canon-eval");
    std::fs::create_dir_all(d.join("w")).unwrap();
    std::fs::copy(&sample, d.join("w/a.warc.gz")).unwrap();
    let file = canon_eval(&[os(&sample)], None);
    assert!(file.status.success(), "{file:?}");
    let table = |o: &Output| {
        // The table without its inputs line (names differ).
        String::from_utf8_lossy(&o.stdout)
            .lines()
            .filter(|l| {
                !l.contains("sample.warc.gz") && !l.contains("a.warc.gz") && !l.starts_with("input")
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    let folder = canon_eval(&[os(&d.join("w"))], None);
    assert!(folder.status.success(), "{folder:?}");
    assert_eq!(table(&folder), table(&file));
    std::fs::write(d.join("list"), "w/a.warc.gz\n").unwrap();
    let listed = canon_eval(&["--manifest".as_ref(), os(&d.join("list"))], None);
    assert!(listed.status.success(), "{listed:?}");
    assert_eq!(table(&listed), table(&file));
    let piped = canon_eval(&["-".as_ref()], Some(&std::fs::read(&sample).unwrap()));
    assert!(piped.status.success(), "{piped:?}");
    assert_eq!(table(&piped), table(&file));
    // A missing input: reported, the rest evaluated, exit code 1.
    let missing = canon_eval(&[os(&d.join("gone.warc")), os(&sample)], None);
    assert_eq!(missing.status.code(), Some(1), "{missing:?}");
    assert_eq!(table(&missing), table(&file));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(
        stderr.contains("cannot read") && stderr.contains("gone.warc"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}
