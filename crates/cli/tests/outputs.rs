//! `-o FILE` through the binary: the output is written under a temporary
//! name beside the file and renamed when the run completes, so a file under
//! the final name is always whole. Every format written to a file equals
//! the same run on standard output and leaves nothing else in the folder;
//! a run that fails leaves the file that was there; SIGTERM, SIGINT and
//! SIGHUP remove the temporary (exit code 128 + the signal); `kill -9`
//! cannot be caught, but leaves no file under the final name either; a
//! full disk (a 4 KiB tmpfs, mounted in a mount namespace of the test's
//! own) is a one-line error naming the file, and nothing is left on it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn spinneret() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spinneret"))
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.warc.gz")
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spinneret-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn every_format_to_a_file_equals_standard_output_and_leaves_nothing_else() {
    let d = tmpdir("formats");
    let input = sample();
    let input = input.to_str().unwrap();
    for (name, args) in [
        ("l.jsonl", &["links"][..]),
        ("l.tsv", &["links", "--format", "tsv"][..]),
        ("l.parquet", &["links", "--format", "parquet"][..]),
        ("i.cdxj", &["index"][..]),
        ("i.parquet", &["index", "--format", "parquet"][..]),
        ("t.jsonl", &["text"][..]),
        ("t.parquet", &["text", "--format", "parquet"][..]),
    ] {
        let out = d.join(name);
        let to_file = spinneret()
            .args(args)
            .arg("-o")
            .arg(&out)
            .arg(input)
            .output()
            .unwrap();
        let to_stdout = spinneret().args(args).arg(input).output().unwrap();
        assert_eq!(to_file.status.code(), to_stdout.status.code(), "{name}");
        assert!(
            std::fs::read(&out).unwrap() == to_stdout.stdout,
            "{name}: the file differs from standard output"
        );
        assert_eq!(names(&d), [name], "{name}");
        std::fs::remove_file(&out).unwrap();
    }
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_run_that_fails_leaves_the_file_that_was_there() {
    let d = tmpdir("failed");
    let out = d.join("out.jsonl");
    std::fs::write(&out, b"the previous run's output\n").unwrap();
    // The links are written, then the --stats file cannot be: an error.
    let run = spinneret()
        .args(["links", "--stats"])
        .arg(d.join("no/such/folder/stats.json"))
        .arg("-o")
        .arg(&out)
        .arg(sample())
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("--stats"), "{stderr}");
    assert_eq!(std::fs::read(&out).unwrap(), b"the previous run's output\n");
    assert_eq!(names(&d), ["out.jsonl"]);
    std::fs::remove_dir_all(&d).unwrap();
}

/// Starts `spinneret links -o DIR/out.jsonl -` with half a WARC on its
/// standard input (kept open, so the run waits for the rest), and waits
/// until its temporary file is there.
fn a_run_waiting_for_input(d: &Path) -> std::process::Child {
    let mut child = spinneret()
        .args(["links", "-o"])
        .arg(d.join("out.jsonl"))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let warc = std::fs::read(sample()).unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&warc[..warc.len() / 2]).unwrap();
    // Kept open: leaked on purpose, closed when the child is gone.
    std::mem::forget(stdin);
    // The temporary appears once the output is open (an event, waited
    // for; the test asserts nothing about how long it takes).
    while names(d).is_empty() {
        assert!(child.try_wait().unwrap().is_none(), "the run ended early");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let temp = names(d);
    assert_eq!(temp.len(), 1);
    assert!(
        temp[0].starts_with(".out.jsonl.spinneret-") && temp[0].ends_with(".tmp"),
        "{temp:?}"
    );
    child
}

fn kill(child: &std::process::Child, signal: &str) {
    let status = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

#[test]
fn a_signal_removes_the_temporary_and_says_so_in_the_exit_code() {
    for (signal, code) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let d = tmpdir(&format!("signal-{signal}"));
        let mut child = a_run_waiting_for_input(&d);
        kill(&child, signal);
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        assert!(names(&d).is_empty(), "SIG{signal}: {:?}", names(&d));
        std::fs::remove_dir_all(&d).unwrap();
    }
}

#[test]
fn kill_9_leaves_no_file_under_the_final_name() {
    use std::os::unix::process::ExitStatusExt;
    let d = tmpdir("kill-9");
    let mut child = a_run_waiting_for_input(&d);
    kill(&child, "KILL");
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9));
    // Its temporary stays (nothing can remove it), under its own name.
    let left = names(&d);
    assert_eq!(left.len(), 1);
    assert!(left[0].starts_with(".out.jsonl.spinneret-"), "{left:?}");
    assert!(!d.join("out.jsonl").exists());
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_full_disk_is_a_one_line_error_and_leaves_nothing() {
    let d = tmpdir("enospc");
    // In a user and mount namespace of its own (no privilege needed, and
    // the machine's mounts untouched): a 4 KiB tmpfs over `d`, the run,
    // then what is left on the tmpfs.
    let script = format!(
        "mount -t tmpfs -o size=4k tmpfs {d} || exit 99; {bin} links -o {d}/out.jsonl {input}; echo \"exit $?\" >&2; ls -A {d}",
        d = d.display(),
        bin = env!("CARGO_BIN_EXE_spinneret"),
        input = sample().display(),
    );
    let run = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", &script])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        run.status.code(),
        Some(0),
        "the tmpfs could not be made: {stderr}"
    );
    assert!(stderr.contains("exit 1"), "{stderr}");
    let errors: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("spinneret: links:"))
        .collect();
    let want = format!(
        "spinneret: links: -o {}/out.jsonl: cannot be written: No space left on device",
        d.display()
    );
    assert!(
        errors.len() == 1 && errors[0].starts_with(&want),
        "{want} in {stderr}"
    );
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "",
        "left on the full disk"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_zipnum_cluster_is_put_in_place_whole_beside_other_files() {
    let d = tmpdir("zipnum");
    let cluster = d.join("indexes");
    let index = |lines: &str| {
        let run = spinneret()
            .args(["index", "--zipnum"])
            .arg(&cluster)
            .args(["--lines", lines, "--cluster-name", "c"])
            .arg(sample())
            .output()
            .unwrap();
        assert!(run.status.code() == Some(1), "{run:?}"); // the sample's bad record
        assert_eq!(names(&d), ["indexes"], "nothing beside the cluster");
        let idx = std::fs::read_to_string(cluster.join("c.idx")).unwrap();
        let loc = std::fs::read_to_string(cluster.join("c.loc")).unwrap();
        (idx, loc)
    };
    // A new folder: renamed into place.
    let (idx, loc) = index("5");
    assert!(
        idx.lines().count() > 1 && loc.starts_with("c-00\t"),
        "{idx}\n{loc}"
    );
    // A folder that holds other files: they stay; the cluster is replaced.
    std::fs::write(cluster.join("notes.txt"), b"mine").unwrap();
    let (idx2, _) = index("2");
    assert!(idx2.lines().count() > idx.lines().count(), "{idx2}");
    let mut files = names(&cluster);
    files.retain(|n| !n.ends_with(".cdx.gz"));
    assert_eq!(files, ["c.idx", "c.loc", "notes.txt"]);
    std::fs::remove_dir_all(&d).unwrap();
}
