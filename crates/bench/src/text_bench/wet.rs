//! The whole `spinneret text --format wet` against Common Crawl-style WET
//! generation in Python (`python/wet_peer.py`: FastWARC + Resiliparse), as
//! child processes on the same WARC, each under `/usr/bin/time -v`
//! ([`run_measured_exit`]): wall seconds, user + system CPU seconds of the
//! child (interpreter start-up and imports included for Python, as
//! start-up is for spinneret), peak RSS. Each row is the best of a few
//! runs (least wall, least CPU, separately). Both write a gzip WET file
//! (one member per record) to the scratch folder; its records are counted
//! afterwards with `spinneret-warc`, the same way for both.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::pipeline_bench::child::{Measured, run_measured_exit};
use crate::python_env::{self, PythonEnv};

/// One measured WET job.
pub struct Job {
    /// The tool and its options, as the table shows them.
    pub label: String,
    /// Whether it writes main content rather than whole-page text.
    pub main_content: bool,
    /// Worker threads (`None`: not a setting of that tool).
    pub threads: Option<usize>,
    /// The best run, or why there is none.
    pub result: Result<Measured, String>,
    /// Conversion records in its output file.
    pub records: Option<u64>,
    /// Its output file's size.
    pub output_bytes: Option<u64>,
    /// The Python script's own CPU seconds (its conversion loop, without
    /// start-up and imports).
    pub inner_cpu_s: Option<f64>,
}

/// The best (least CPU, least wall, separately) of `runs` runs.
fn best(
    runs: usize,
    mut once: impl FnMut() -> Result<Measured, String>,
) -> Result<Measured, String> {
    let mut best: Option<Measured> = None;
    for _ in 0..runs {
        let m = once()?;
        best = Some(match best {
            None => m,
            Some(b) => Measured {
                secs: b.secs.min(m.secs),
                stdout: if m.cpu_secs < b.cpu_secs {
                    m.stdout
                } else {
                    b.stdout
                },
                rss_kib: b.rss_kib.max(m.rss_kib),
                cpu_secs: match (b.cpu_secs, m.cpu_secs) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                },
            },
        });
    }
    best.ok_or_else(|| "no run".to_owned())
}

/// Conversion records in the WET file `path`, and its size.
fn count_output(path: &Path) -> (Option<u64>, Option<u64>) {
    let Ok(file) = std::fs::File::open(path) else {
        return (None, None);
    };
    let size = file.metadata().ok().map(|m| m.len());
    let opts = spinneret_warc::Options {
        content: spinneret_warc::Content::Head(0),
        ..spinneret_warc::Options::default()
    };
    let records = spinneret_warc::Reader::from_read(file, opts)
        .flatten()
        .filter(|r| r.kind == spinneret_warc::RecordType::Conversion)
        .count() as u64;
    (Some(records), size)
}

/// Whether `bin` has the `text` subcommand (the CLI may be older).
pub fn has_text(bin: &Path) -> bool {
    std::process::Command::new(bin)
        .args(["text", "--help"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Every job over `warc`, `runs` runs each: `spinneret text --format wet`
/// (when `bin` is given) whole page and main content on 1 and 2 threads,
/// then `wet_peer.py` (when `env` is given).
pub fn jobs(bin: Option<&Path>, env: Option<&PythonEnv>, warc: &Path, runs: usize) -> Vec<Job> {
    let dir = crate::scratch_dir();
    let mut out = Vec::new();
    if let Some(bin) = bin {
        for main_content in [false, true] {
            for threads in [1usize, 2] {
                let output: PathBuf = dir.join(format!(
                    "text-{}-t{threads}.wet.gz",
                    if main_content { "main" } else { "page" }
                ));
                let t = threads.to_string();
                let fixed = ["text", "--format", "wet", "--threads", &t];
                let mut args: Vec<&OsStr> = fixed.iter().map(OsStr::new).collect();
                if main_content {
                    args.push(OsStr::new("--main-content"));
                }
                args.extend([OsStr::new("-o"), output.as_os_str(), warc.as_os_str()]);
                // 1: a damaged record reported, the rest written.
                let result = best(runs, || run_measured_exit(bin, &args, false, &[0, 1]));
                let (records, output_bytes) = count_output(&output);
                out.push(Job {
                    label: format!(
                        "spinneret text --format wet{}",
                        if main_content { " --main-content" } else { "" }
                    ),
                    main_content,
                    threads: Some(threads),
                    result,
                    records,
                    output_bytes,
                    inner_cpu_s: None,
                });
            }
        }
    }
    if let Some(env) = env {
        let output = dir.join("text-wet-peer.wet.gz");
        let script = python_env::script("wet_peer.py");
        let args = [script.as_os_str(), warc.as_os_str(), output.as_os_str()];
        let result = best(runs, || run_measured_exit(env.python(), &args, true, &[0]));
        let report: Value = result
            .as_ref()
            .ok()
            .and_then(|m| serde_json::from_str(m.stdout.trim()).ok())
            .unwrap_or(Value::Null);
        let versions = &report["versions"];
        let (records, output_bytes) = count_output(&output);
        out.push(Job {
            label: format!(
                "wet_peer.py: FastWARC {} + Resiliparse {}",
                versions["fastwarc"].as_str().unwrap_or("?"),
                versions["resiliparse"].as_str().unwrap_or("?"),
            ),
            main_content: false,
            threads: Some(1),
            result,
            records,
            output_bytes,
            inner_cpu_s: report["cpu_s"].as_f64(),
        });
    }
    out
}
