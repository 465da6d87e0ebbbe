//! Timing a child process: the `spinneret` binary and the Python peer run
//! under `/usr/bin/time -v` (when present), which reports their peak RSS and
//! CPU time beside the wall time taken here; several runs of one row keep
//! the best of each figure.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use super::{Kernel, Row};

/// What [`run_measured`] saw of one run.
pub struct Measured {
    /// Wall seconds.
    pub secs: f64,
    /// The child's standard output (empty unless kept).
    pub stdout: String,
    /// Peak RSS in KiB.
    pub rss_kib: Option<u64>,
    /// User + system CPU seconds.
    pub cpu_secs: Option<f64>,
}

/// Runs `program` under `/usr/bin/time -v` (when present). With
/// `keep_stdout` false the output goes to `/dev/null` (as with `> file` on
/// a fast disk) instead of being collected here, where growing a buffer of
/// hundreds of MB would be timed as if the program were slow. A failed run
/// is an `Err` with its status and the last lines of its standard error.
pub fn run_measured(
    program: &Path,
    args: &[&OsStr],
    keep_stdout: bool,
) -> Result<Measured, String> {
    run_measured_exit(program, args, keep_stdout, &[0])
}

/// [`run_measured`], a run that ends with one of the exit codes `ok`
/// counting as done (a verifier's 1 is a verdict, not a failure).
pub fn run_measured_exit(
    program: &Path,
    args: &[&OsStr],
    keep_stdout: bool,
    ok: &[i32],
) -> Result<Measured, String> {
    let gnu_time = Path::new("/usr/bin/time");
    let mut cmd = if gnu_time.exists() {
        let mut c = Command::new(gnu_time);
        c.arg("-v").arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args).stdin(Stdio::null());
    if !keep_stdout {
        cmd.stdout(Stdio::null());
    }
    let start = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let secs = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.code().is_some_and(|c| ok.contains(&c)) {
        let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
        return Err(format!(
            "{}: {} ({})",
            program.display(),
            out.status,
            tail.join(" | ")
        ));
    }
    let field = |name: &str| {
        stderr
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
    };
    let rss_kib = field("Maximum resident set size (kbytes):").and_then(|v| v.parse().ok());
    let cpu_secs = match (
        field("User time (seconds):").and_then(|v| v.parse::<f64>().ok()),
        field("System time (seconds):").and_then(|v| v.parse::<f64>().ok()),
    ) {
        (Some(u), Some(s)) => Some(u + s),
        _ => None,
    };
    Ok(Measured {
        secs,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        rss_kib,
        cpu_secs,
    })
}

/// The built `spinneret` binary next to this one.
pub fn spinneret_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.parent()?.join("spinneret");
    p.exists().then_some(p)
}

/// One run of `spinneret links WARC --threads N --stats /dev/null`, its
/// JSON Lines to `/dev/null`, timed from outside (start-up included).
pub fn binary_row(bin: &Path, warc: &Path, threads: usize) -> Result<Row, String> {
    let t = threads.to_string();
    let run = run_measured(
        bin,
        &[
            "links".as_ref(),
            warc.as_os_str(),
            "--threads".as_ref(),
            t.as_ref(),
            "--stats".as_ref(),
            "/dev/null".as_ref(),
        ],
        false,
    )?;
    Ok(Row {
        secs: Some(run.secs),
        rss_kib: run.rss_kib,
        cpu_secs: run.cpu_secs,
        ..Row::empty(Kernel::SpinneretBinary, Some(threads), String::new())
    })
}

/// The best of several runs of one child-process row, as the in-process
/// rows take the best pass: the least wall time and, separately, the least
/// CPU time (this machine's noise only ever adds time: page zeroing in the
/// kernel, other tenants), with the largest peak RSS. The first failure
/// fails the row.
pub fn best_run(runs: impl Iterator<Item = Result<Row, String>>) -> Result<Row, String> {
    let mut best: Option<Row> = None;
    for run in runs {
        let run = run?;
        best = Some(match best {
            None => run,
            Some(b) => {
                let min = |x: Option<f64>, y: Option<f64>| match (x, y) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
                let (cpu_secs, rss_kib) =
                    (min(b.cpu_secs, run.cpu_secs), b.rss_kib.max(run.rss_kib));
                let faster = run.secs.zip(b.secs).is_some_and(|(r, b)| r < b);
                Row {
                    cpu_secs,
                    rss_kib,
                    ..if faster { run } else { b }
                }
            }
        });
    }
    best.ok_or_else(|| "no run".to_string())
}
