//! `--resume` through the binary: runs of `index -o` (sorted, with a
//! small `--memory` so that the sort spills runs of its own too),
//! `links --format parquet -o` and `text --format wet -o`, each killed
//! with SIGKILL at 20 pseudo-random moments and started again with the
//! same command, end with the output of an uninterrupted run, byte for
//! byte, and never leave a file under the final name before they complete.
//!
//! The moments are chosen by progress, not by the clock: each kill waits
//! for a pseudo-random number (0 to 4) of new journal lines (checkpoints),
//! then a pseudo-random few hundred microseconds more, so that kills land at a
//! run's start, between checkpoints and in the middle of writing one,
//! whatever the machine's speed. A resumed run reads only the inputs it
//! had not finished (shown by overwriting the finished ones with zeros
//! before it goes on), and a full disk keeps the journal, so the same
//! command finishes once there is room.

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use spinneret_testdata::Rng;

fn spinneret() -> Command {
    Command::new(env!("CARGO_BIN_EXE_spinneret"))
}

fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spinneret-resume-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The resume folder of the output `out`.
fn folder(out: &Path) -> PathBuf {
    let name = out.file_name().unwrap().to_string_lossy();
    out.with_file_name(format!(".{name}.spinneret-resume"))
}

/// The whole lines of `out`'s journal (its header and checkpoints).
fn journal(out: &Path) -> Vec<String> {
    let text = std::fs::read(folder(out).join("journal")).unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let whole = text.rfind('\n').map_or("", |end| &text[..end]);
    whole.lines().map(str::to_owned).collect()
}

/// The corpus's WARC/ARC folder.
fn corpus() -> PathBuf {
    spinneret_testdata::path("corpus/warc")
}

/// Runs `args -o out` to its end: its exit code.
fn run_whole(args: &[&str], out: &Path) -> Option<i32> {
    let status = spinneret()
        .args(args)
        .arg("-o")
        .arg(out)
        .stderr(Stdio::null())
        .status()
        .unwrap();
    status.code()
}

/// Kills `args -o out` 20 times at pseudo-random moments, then lets it
/// finish: its output must be the uninterrupted run's.
fn killed_and_resumed(name: &str, args: &[&str], out_name: &str, seed: u64) {
    let d = tmpdir(name);
    std::fs::create_dir_all(d.join("whole")).unwrap();
    std::fs::create_dir_all(d.join("killed")).unwrap();
    let reference = d.join("whole").join(out_name);
    let code = run_whole(args, &reference);
    let want = std::fs::read(&reference).unwrap();
    assert!(!folder(&reference).exists(), "{name}: folder left");

    let out = d.join("killed").join(out_name);
    let mut rng = Rng(seed);
    let (mut from_checkpoint, mut mid_run) = (0, 0);
    for kill in 0..20 {
        let lines = journal(&out).len();
        if lines > 1 {
            from_checkpoint += 1;
        }
        // None to four more checkpoints (none: a kill as the run starts).
        let wait_for = lines + rng.below(5);
        let then = Duration::from_micros(rng.below(400) as u64);
        let mut child = spinneret()
            .args(args)
            .arg("-o")
            .arg(&out)
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() && journal(&out).len() < wait_for {
            std::thread::sleep(Duration::from_micros(100));
        }
        std::thread::sleep(then);
        let _ = child.kill();
        let status = child.wait().unwrap();
        if status.signal() == Some(9) {
            mid_run += 1;
        } else {
            assert_eq!(status.code(), code, "{name}: kill {kill}");
        }
        // A file under the final name only once the run completed (the
        // kill came after the output was put in place): whole. The next
        // run then starts over.
        if out.exists() {
            assert!(
                std::fs::read(&out).unwrap() == want,
                "{name}: kill {kill}: a file under the final name that is not the whole output"
            );
            std::fs::remove_file(&out).unwrap();
        }
    }
    assert_eq!(run_whole(args, &out), code, "{name}");
    let got = std::fs::read(&out).unwrap();
    assert!(
        got == want,
        "{name}: the resumed output differs from the uninterrupted run's ({} and {} bytes)",
        got.len(),
        want.len()
    );
    assert!(!folder(&out).exists(), "{name}: folder left");
    eprintln!(
        "{name}: {mid_run} of 20 kills mid-run, {from_checkpoint} runs went on from a checkpoint"
    );
    // The runs were stopped mid-way, and went on from checkpoints.
    assert!(
        mid_run > 0 && from_checkpoint > 0,
        "{name}: {mid_run} {from_checkpoint}"
    );
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_sorted_index_killed_20_times_ends_as_an_uninterrupted_one() {
    let corpus = corpus();
    let args = [
        "index",
        corpus.to_str().unwrap(),
        "--resume",
        "--checkpoint-every",
        "1",
        "--memory",
        "64K",
    ];
    killed_and_resumed("index", &args, "crawl.cdxj", 0x5EED_1DE7);
}

#[test]
fn links_parquet_killed_20_times_ends_as_an_uninterrupted_one() {
    let corpus = corpus();
    let args = [
        "links",
        corpus.to_str().unwrap(),
        "--format",
        "parquet",
        "--resume",
        "--checkpoint-every",
        "1",
    ];
    killed_and_resumed("links", &args, "links.parquet", 0x0011_17C5);
}

#[test]
fn text_wet_killed_20_times_ends_as_an_uninterrupted_one() {
    let corpus = corpus();
    let args = [
        "text",
        corpus.to_str().unwrap(),
        "--format",
        "wet",
        "--date",
        "2026-12-07T00:00:00Z",
        "--resume",
        "--checkpoint-every",
        "1",
    ];
    killed_and_resumed("text", &args, "crawl.warc.wet.gz", 0x7E47_0E75);
}

#[test]
fn a_resumed_run_reads_only_the_inputs_it_had_not_finished() {
    let d = tmpdir("only-unfinished");
    let inputs = d.join("in");
    std::fs::create_dir_all(&inputs).unwrap();
    let mut files = Vec::new();
    let mut folders = vec![corpus()];
    while let Some(dir) = folders.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.to_string_lossy().ends_with(".warc.gz") {
                files.push(path);
            }
        }
    }
    files.sort();
    for (i, f) in files.iter().enumerate() {
        std::fs::copy(f, inputs.join(format!("{i:02}.warc.gz"))).unwrap();
    }
    let args = [
        "links",
        inputs.to_str().unwrap(),
        "--resume",
        "--checkpoint-every",
        "1",
    ];
    let reference = d.join("whole.jsonl");
    run_whole(&args, &reference);
    let want = std::fs::read(&reference).unwrap();

    // Stopped once some inputs are finished…
    let out = d.join("out.jsonl");
    let mut child = spinneret()
        .args(args)
        .arg("-o")
        .arg(&out)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while child.try_wait().unwrap().is_none() && journal(&out).len() < 4 {
        std::thread::sleep(Duration::from_micros(100));
    }
    let _ = child.kill();
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(9), "the run ended before the kill");
    // …the finished inputs are overwritten with zeros (same name, same
    // size: the journal's inputs still match)…
    let lines = journal(&out);
    let header: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    let last: serde_json::Value = serde_json::from_str(lines.last().unwrap()).unwrap();
    let finished = last["inputs"].as_u64().unwrap() as usize;
    assert!(finished >= 3 && finished < files.len(), "{finished}");
    for input in &header["inputs"].as_array().unwrap()[..finished] {
        let path = input[0].as_str().unwrap();
        let len = std::fs::metadata(path).unwrap().len();
        std::fs::write(path, vec![0u8; len as usize]).unwrap();
    }
    // …and the resumed run's output is the uninterrupted one's.
    run_whole(&args, &out);
    assert!(std::fs::read(&out).unwrap() == want);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn a_full_disk_keeps_the_journal_and_the_same_command_finishes_once_there_is_room() {
    let d = tmpdir("enospc");
    let fs = d.join("fs");
    std::fs::create_dir_all(&fs).unwrap();
    let reference = d.join("whole.cdxj");
    let corpus = corpus();
    let args = [
        "index",
        corpus.to_str().unwrap(),
        "--resume",
        "--checkpoint-every",
        "1",
    ];
    run_whole(&args, &reference);
    // In a user and mount namespace of its own: a 64 KiB tmpfs (the
    // index is larger), the run; the tmpfs grown, the same run again.
    let run = format!(
        "{bin} {args} -o {fs}/crawl.cdxj",
        bin = env!("CARGO_BIN_EXE_spinneret"),
        args = args.join(" "),
        fs = fs.display(),
    );
    let script = format!(
        "mount -t tmpfs -o size=64k tmpfs {fs} || exit 99; {run}; echo \"exit $?\" >&2; ls -A {fs} >&2; \
         mount -o remount,size=64m {fs} || exit 98; {run} 2>/dev/null; echo \"exit $?\" >&2; ls -A {fs} >&2; \
         cp {fs}/crawl.cdxj {d}/result.cdxj",
        fs = fs.display(),
        d = d.display(),
    );
    let out = Command::new("unshare")
        .args(["--user", "--map-root-user", "--mount", "sh", "-c", &script])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    let error = lines
        .iter()
        .find(|l| l.starts_with("spinneret: index:"))
        .unwrap_or_else(|| panic!("no error in {stderr}"));
    assert!(error.contains("No space left on device"), "{stderr}");
    // The first run failed and kept its folder (and nothing under the
    // final name); the second finished and removed it.
    let first = lines.iter().position(|l| l.starts_with("exit ")).unwrap();
    assert_eq!(lines[first], "exit 1", "{stderr}");
    assert_eq!(lines[first + 1], ".crawl.cdxj.spinneret-resume", "{stderr}");
    assert_eq!(lines.len(), first + 4, "{stderr}");
    assert_eq!(lines[first + 2], "exit 1", "{stderr}"); // the corpus's damaged records
    assert_eq!(lines[first + 3], "crawl.cdxj", "{stderr}");
    assert!(std::fs::read(d.join("result.cdxj")).unwrap() == std::fs::read(&reference).unwrap());
    std::fs::remove_dir_all(&d).unwrap();
}
