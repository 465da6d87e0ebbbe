//! The lexbor peer of the `tree` benchmark: `python/tree.py` (selectolax's
//! `LexborHTMLParser`) in its own venv, run as a child process over the same
//! corpus pages; the script times its own passes and prints one JSON
//! object, read here.

use std::process::Command;

use serde_json::Value;

use crate::python_env::{self, PythonEnv, Requirement};
use crate::timing::Plan;

/// What `tree.py` imports.
const REQUIREMENTS: [Requirement; 1] = [Requirement {
    module: "selectolax",
    package: "selectolax",
}];

/// The venv's name under the scratch folder.
const VENV: &str = "venv-tree";

/// What one run of `tree.py` measured.
#[derive(Debug, PartialEq)]
pub struct Report {
    /// selectolax's version.
    pub version: String,
    /// Pages parsed in each pass.
    pub pages: u64,
    /// UTF-8 bytes of the pages as Python decoded them.
    pub bytes: u64,
    /// The best pass, in seconds.
    pub seconds: f64,
    /// How many passes were timed.
    pub passes: u64,
    /// How much the passes raised the process's peak RSS, in KiB.
    pub rss_increase_kib: u64,
    /// Nodes of every page's tree (template contents not entered).
    pub nodes: Option<u64>,
    /// The C heap each page's parser holds after the parse, summed over
    /// pages (`None` without glibc's `mallinfo2`).
    pub dom_heap_bytes: Option<u64>,
    /// The least of those over pages: lexbor's fixed cost per document.
    pub dom_heap_min_bytes: Option<u64>,
}

/// The venv with selectolax, or why not.
pub fn env() -> Result<PythonEnv, String> {
    let env = PythonEnv::open(VENV)?;
    env.install_missing(&REQUIREMENTS);
    if !env.has("selectolax") {
        return Err("selectolax could not be installed from PyPI".into());
    }
    Ok(env)
}

/// Runs `tree.py` over the corpus with `plan`'s repetitions.
pub fn run(env: &PythonEnv, plan: Plan) -> Result<Report, String> {
    let script = python_env::script("tree.py");
    let out = Command::new(env.python())
        .arg(&script)
        .arg(spinneret_testdata::shared_dir())
        .args(["--min-passes", &plan.min_reps.to_string()])
        .args(["--min-seconds", &plan.min_total.as_secs_f64().to_string()])
        .args(["--max-passes", &plan.max_reps.to_string()])
        .output()
        .map_err(|e| format!("{}: {e}", env.python().display()))?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
        return Err(format!("tree.py: {} ({})", out.status, tail.join(" | ")));
    }
    parse_report(&String::from_utf8_lossy(&out.stdout))
}

/// `tree.py`'s last line of output, one JSON object.
fn parse_report(stdout: &str) -> Result<Report, String> {
    let line = stdout.lines().last().unwrap_or_default();
    let v: Value =
        serde_json::from_str(line).map_err(|e| format!("tree.py printed no report ({e})"))?;
    let count = |key: &str| {
        v[key]
            .as_u64()
            .ok_or_else(|| format!("tree.py: no `{key}` in its report"))
    };
    let rss_before = count("rss_before_kib")?;
    let rss_after = count("rss_after_kib")?;
    Ok(Report {
        version: v["version"].as_str().unwrap_or("?").to_owned(),
        pages: count("pages")?,
        bytes: count("bytes")?,
        seconds: v["seconds"]
            .as_f64()
            .ok_or("tree.py: no `seconds` in its report")?,
        passes: count("passes")?,
        rss_increase_kib: rss_after.saturating_sub(rss_before),
        nodes: v["nodes"].as_u64(),
        dom_heap_bytes: v["dom_heap_bytes"].as_u64(),
        dom_heap_min_bytes: v["dom_heap_min_bytes"].as_u64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_the_last_line() {
        let out = "loading\n{\"version\": \"1.0.2\", \"pages\": 2062, \"bytes\": 191945391, \
                   \"lossy\": 3, \"seconds\": 1.5, \"passes\": 3, \"rss_before_kib\": 1000, \
                   \"rss_after_kib\": 1500, \"nodes\": 42, \"dom_heap_bytes\": 900, \"dom_heap_min_bytes\": 100}\n";
        assert_eq!(
            parse_report(out),
            Ok(Report {
                version: "1.0.2".into(),
                pages: 2062,
                bytes: 191_945_391,
                seconds: 1.5,
                passes: 3,
                rss_increase_kib: 500,
                nodes: Some(42),
                dom_heap_bytes: Some(900),
                dom_heap_min_bytes: Some(100),
            })
        );
        assert!(parse_report("Traceback").is_err());
    }
}
