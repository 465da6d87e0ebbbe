//! The Python peer of the pipeline benchmark: `python/links.py` (fastwarc,
//! resiliparse's decoding, selectolax's DOM, `urljoin`) in its own venv,
//! run as a child process; the script times its own loop and prints one
//! JSON object, which becomes the `python` row.

use std::path::Path;

use serde_json::Value;

use super::child::run_measured;
use super::kernels::TARGETS;
use super::{Kernel, Row};
use crate::python_env::{self, PythonEnv, Requirement};

/// What `links.py` imports (it falls back on resiliparse's DOM without
/// selectolax, and on UTF-8 without resiliparse).
const REQUIREMENTS: [Requirement; 3] = [
    Requirement {
        module: "fastwarc",
        package: "fastwarc",
    },
    Requirement {
        module: "resiliparse",
        package: "resiliparse",
    },
    Requirement {
        module: "selectolax",
        package: "selectolax",
    },
];

/// The venv with fastwarc and an HTML parser, or why not.
pub fn env() -> Result<PythonEnv, String> {
    let env = PythonEnv::open("venv")?;
    env.install_missing(&REQUIREMENTS);
    if !env.has("fastwarc") {
        return Err("fastwarc could not be installed from PyPI".into());
    }
    if !env.has("selectolax") && !env.has("resiliparse") {
        return Err("neither selectolax nor resiliparse could be installed".into());
    }
    Ok(env)
}

/// One run of `links.py` on `warc`: the script's own time (its loop, without
/// interpreter start-up) and counts, with the child's peak RSS and CPU time.
pub fn row(env: &PythonEnv, warc: &Path) -> Result<Row, String> {
    let script = python_env::script("links.py");
    let targets: Vec<String> = TARGETS.iter().map(|(t, a)| format!("{t}:{a}")).collect();
    let targets = targets.join(",");
    let run = run_measured(
        env.python(),
        &[script.as_os_str(), warc.as_os_str(), targets.as_ref()],
        true,
    )?;
    let report = parse_report(&run.stdout);
    Ok(Row {
        secs: report.seconds,
        pages: report.pages,
        links: report.links,
        rss_kib: run.rss_kib,
        cpu_secs: run.cpu_secs,
        ..Row::empty(
            Kernel::Python,
            Some(1),
            format!(
                "fastwarc + {} decode + {} DOM + urljoin",
                report.decoder, report.parser
            ),
        )
    })
}

/// What `links.py` printed: its last line, one JSON object. Missing fields
/// (or a line that is not JSON) are `None`, or `?` for the names.
#[derive(Debug, PartialEq)]
struct Report {
    parser: String,
    decoder: String,
    seconds: Option<f64>,
    pages: Option<u64>,
    links: Option<u64>,
}

fn parse_report(stdout: &str) -> Report {
    let line = stdout.lines().last().unwrap_or_default();
    let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
    let name = |key: &str| v[key].as_str().unwrap_or("?").to_owned();
    Report {
        parser: name("parser"),
        decoder: name("decoder"),
        seconds: v["seconds"].as_f64(),
        pages: v["pages"].as_u64(),
        links: v["links"].as_u64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_the_last_line() {
        let out = "warming up\n{\"parser\": \"selectolax\", \"decoder\": \"resiliparse\", \
                   \"pages\": 1794, \"html_bytes\": 1, \"links\": 306805, \"seconds\": 3.25}\n";
        assert_eq!(
            parse_report(out),
            Report {
                parser: "selectolax".into(),
                decoder: "resiliparse".into(),
                seconds: Some(3.25),
                pages: Some(1794),
                links: Some(306805),
            }
        );
        assert_eq!(parse_report("").parser, "?");
        assert_eq!(parse_report("Traceback").seconds, None);
    }
}
