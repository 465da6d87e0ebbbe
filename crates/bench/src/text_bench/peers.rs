//! The Python peers of the `text` benchmark, in their own venv: quality
//! and CPU time of the main-content and whole-page extractors
//! (`python/text_peers.py`, which also scores spinneret's main content
//! from a JSON Lines file, as a check of the scoring written here), and
//! Common Crawl-style WET generation (`python/wet_peer.py`, run by
//! [`super::wet`]).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::python_env::{self, PythonEnv, Requirement};

/// What the two scripts import: `text_peers.py`'s extractors and
/// `wet_peer.py`'s FastWARC. `lxml_html_clean` is lxml's `html.clean`
/// module, a project of its own since lxml 5.2, which trafilatura and
/// readability-lxml import (trafilatura asks for it as the extra
/// `lxml[html_clean]`).
pub const REQUIREMENTS: [Requirement; 8] = [
    Requirement {
        module: "trafilatura",
        package: "trafilatura",
    },
    Requirement {
        module: "resiliparse",
        package: "resiliparse",
    },
    Requirement {
        module: "justext",
        package: "justext",
    },
    Requirement {
        module: "readability",
        package: "readability-lxml",
    },
    Requirement {
        module: "lxml_html_clean",
        package: "lxml_html_clean",
    },
    Requirement {
        module: "html_text",
        package: "html-text",
    },
    Requirement {
        module: "inscriptis",
        package: "inscriptis",
    },
    Requirement {
        module: "fastwarc",
        package: "fastwarc",
    },
];

/// The venv's name under the scratch folder.
const VENV: &str = "venv-text";

/// The venv with whatever of [`REQUIREMENTS`] could be installed. pip is
/// upgraded first when anything is missing: the pip that Python 3.11's
/// `venv` bundles (23.2) does not match the extra `lxml[html_clean]` to
/// lxml's `html-clean` and leaves trafilatura without `lxml_html_clean`
/// ("lxml 6.1.3 does not provide the extra 'html_clean'"; `import
/// trafilatura` then fails).
pub fn env() -> Result<PythonEnv, String> {
    let env = PythonEnv::open(VENV)?;
    if REQUIREMENTS.iter().any(|r| !env.has(r.module)) {
        env.upgrade_pip();
        env.install_missing(&REQUIREMENTS);
    }
    Ok(env)
}

/// One extractor's figures from `text_peers.py`.
#[derive(Clone, Debug, PartialEq)]
pub struct Extractor {
    /// The script's name for it (`trafilatura`, `resiliparse_full`, …).
    pub name: String,
    /// Its package's version (`None` for spinneret read from a file).
    pub version: Option<String>,
    /// Snippet counts, summed over pages.
    pub tp: u64,
    /// See `tp`.
    pub fp: u64,
    /// See `tp`.
    pub tn: u64,
    /// See `tp`.
    pub fn_: u64,
    /// Pages where it raised.
    pub errors: u64,
    /// The best pass's CPU seconds (`None`: not timed).
    pub cpu_s: Option<f64>,
    /// Timed passes.
    pub passes: u64,
    /// The first error message, if any.
    pub first_error: Option<String>,
}

/// What one run of `text_peers.py` reported.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Pages read.
    pub pages: u64,
    /// Their raw bytes.
    pub bytes: u64,
    /// The interpreter's version.
    pub python: Option<String>,
    /// Every extractor that ran, in the script's order.
    pub extractors: Vec<Extractor>,
    /// Extractors skipped, with the reason.
    pub skipped: Vec<(String, String)>,
}

impl Report {
    /// The extractor named `name`.
    pub fn get(&self, name: &str) -> Option<&Extractor> {
        self.extractors.iter().find(|e| e.name == name)
    }
}

/// Runs `text_peers.py` over the first `limit` pages (all without one),
/// `passes` timed passes per extractor, spinneret's main content read
/// from `spinneret_jsonl` (`{"url", "text"}` lines) and scored, not timed.
pub fn run(
    env: &PythonEnv,
    passes: u32,
    limit: Option<usize>,
    spinneret_jsonl: &Path,
) -> Result<Report, String> {
    let script = python_env::script("text_peers.py");
    let mut cmd = Command::new(env.python());
    cmd.arg(&script)
        .arg(spinneret_testdata::shared_dir())
        .args(["--repeat", &passes.to_string()])
        .arg("--spinneret-jsonl")
        .arg(spinneret_jsonl);
    if let Some(n) = limit {
        cmd.args(["--limit", &n.to_string()]);
    }
    // Progress (one line per pass) goes through to this process's stderr.
    let out = cmd
        .stderr(std::process::Stdio::inherit())
        .output()
        .map_err(|e| format!("{}: {e}", env.python().display()))?;
    if !out.status.success() {
        return Err(format!("text_peers.py: {}", out.status));
    }
    parse_report(&String::from_utf8_lossy(&out.stdout))
}

/// `text_peers.py`'s output: one JSON object (indented, over many lines).
fn parse_report(stdout: &str) -> Result<Report, String> {
    let v: Value = serde_json::from_str(stdout.trim())
        .map_err(|e| format!("text_peers.py printed no report ({e})"))?;
    let count = |v: &Value, key: &str| {
        v[key]
            .as_u64()
            .ok_or_else(|| format!("text_peers.py: no `{key}` in its report"))
    };
    let mut extractors = Vec::new();
    if let Some(map) = v["extractors"].as_object() {
        for (name, e) in map {
            extractors.push(Extractor {
                name: name.clone(),
                version: e["version"].as_str().map(str::to_owned),
                tp: count(e, "tp")?,
                fp: count(e, "fp")?,
                tn: count(e, "tn")?,
                fn_: count(e, "fn")?,
                errors: count(e, "errors")?,
                cpu_s: e["cpu_s"].as_f64(),
                passes: e["passes"].as_u64().unwrap_or(0),
                first_error: e["first_error"].as_str().map(str::to_owned),
            });
        }
    }
    let skipped = v["skipped"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, r)| (k.clone(), r.as_str().unwrap_or("?").to_owned()))
                .collect()
        })
        .unwrap_or_default();
    Ok(Report {
        pages: count(&v, "pages")?,
        bytes: count(&v, "bytes")?,
        python: v["python"].as_str().map(str::to_owned),
        extractors,
        skipped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_one_json_object() {
        let out = "{\n \"pages\": 990,\n \"bytes\": 143127046,\n \"python\": \"3.11.7\",\n \
                   \"extractors\": {\"resiliparse\": {\"precision\": 0.75, \"tp\": 10, \"fp\": 2, \
                   \"tn\": 5, \"fn\": 1, \"errors\": 0, \"cpu_s\": 3.8, \"passes\": 1, \
                   \"version\": \"2.0.1\", \"first_error\": null}},\n \
                   \"skipped\": {\"spinneret_full\": \"no module\"}\n}\n";
        let r = parse_report(out).unwrap();
        assert_eq!(r.pages, 990);
        assert_eq!(r.python.as_deref(), Some("3.11.7"));
        let e = r.get("resiliparse").unwrap();
        assert_eq!((e.tp, e.fp, e.tn, e.fn_), (10, 2, 5, 1));
        assert_eq!(e.cpu_s, Some(3.8));
        assert_eq!(e.version.as_deref(), Some("2.0.1"));
        assert_eq!(
            r.skipped,
            vec![("spinneret_full".into(), "no module".into())]
        );
        assert!(parse_report("Traceback").is_err());
    }
}
