//! `spinneret-bench canon`: ns/URL of every canonicalization profile on
//! `corpus/urls/absolute_links.txt`, and in the same run the Python
//! canonicalizers crawler authors use today — w3lib `canonicalize_url`
//! (Scrapy), `url-normalize`, and `surt` (the Internet Archive's) — through
//! `python/canon.py` in a venv under the temp dir (installed from PyPI; if
//! that is impossible the rows say why and the run goes on).
//!
//! Ratios compare like with like: Python `surt` against our `surt` profile
//! (same algorithm, same key), w3lib and url-normalize against `safe` (all
//! three: parse, normalize percent-encoding and case, drop the fragment;
//! w3lib also sorts the query).
//!
//! Our figures: best pass of [`Plan`] over the whole list, one
//! `Canonicalizer` per profile (its buffers reused), the result written to
//! a `String` per URL as a user would keep it.
//!
//! Output: one table of every row (ours, then Python's), the Python tools
//! that could not run, how many `surt` keys agree with Python's, and the
//! same table in Markdown for the README.

use std::collections::HashMap;
use std::path::Path;
use std::process::{Command, Stdio};

use spinneret_canon::{Canonicalizer, Profile};

use crate::python_env::{self, PythonEnv, Requirement};
use crate::table::{Cell, Column, Table};
use crate::timing::{Plan, fmt_ratio, measure};

const URLS: &str = "corpus/urls/absolute_links.txt";

/// The Python canonicalizers `canon.py` runs.
const REQUIREMENTS: [Requirement; 3] = [
    Requirement {
        module: "w3lib",
        package: "w3lib",
    },
    Requirement {
        module: "url_normalize",
        package: "url-normalize",
    },
    Requirement {
        module: "surt",
        package: "surt",
    },
];

/// The venv with whichever of the three tools could be installed (a tool
/// that could not shows as an "unavailable" row from canon.py).
fn python_env() -> Result<PythonEnv, String> {
    let env = PythonEnv::open("venv-canon")?;
    env.install_missing(&REQUIREMENTS);
    Ok(env)
}

/// What `canon.py` measured of one Python tool.
struct PythonTool {
    /// The tool's name in `canon.py` (`surt`, `url_normalize`, …).
    name: String,
    /// Its measurement, or why it could not be imported.
    result: Result<PythonTiming, String>,
}

/// One Python tool's best pass.
struct PythonTiming {
    version: String,
    ns_per_url: f64,
    /// URLs on which the tool raised.
    errors: u64,
}

fn python_rows(
    env: &PythonEnv,
    urls: &Path,
    repeat: u32,
    dump: &Path,
) -> Result<Vec<PythonTool>, String> {
    let script = python_env::script("canon.py");
    let out = Command::new(env.python())
        .arg(&script)
        .arg(urls)
        .args(["--repeat", &repeat.to_string()])
        .arg("--dump-surt")
        .arg(dump)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("run canon.py: {e}"))?;
    if !out.status.success() {
        return Err(format!("canon.py failed: {}", out.status));
    }
    let v: serde_json::Value =
        serde_json::from_slice(&out.stdout).map_err(|e| format!("canon.py output: {e}"))?;
    let tools = v["tools"].as_array().ok_or("canon.py output: no tools")?;
    Ok(tools
        .iter()
        .map(|t| {
            let name = t["name"].as_str().unwrap_or("?").to_owned();
            let result = match t["unavailable"].as_str() {
                Some(why) => Err(why.to_owned()),
                None => Ok(PythonTiming {
                    version: t["version"].as_str().unwrap_or("?").to_owned(),
                    ns_per_url: t["ns_per_url"].as_f64().unwrap_or(f64::NAN),
                    errors: t["errors"].as_u64().unwrap_or(0),
                }),
            };
            PythonTool { name, result }
        })
        .collect())
}

/// How many of our `surt` keys equal the Python `surt` package's (the
/// Internet Archive's reference implementation), with the first few that
/// differ: the keys must match to look URLs up in existing CDX indexes.
fn surt_agreement(urls: &[String], dump: &Path) {
    let Ok(text) = std::fs::read_to_string(dump) else {
        println!("surt keys vs Python surt: not compared (no Python surt output)");
        return;
    };
    let theirs: Vec<&str> = text.lines().collect();
    if theirs.len() != urls.len() {
        println!(
            "surt keys vs Python surt: not compared ({} keys for {} URLs)",
            theirs.len(),
            urls.len()
        );
        return;
    }
    let mut c = Canonicalizer::new(Profile::builtin("surt").expect("built-in"));
    let mut differ = Vec::new();
    for (u, t) in urls.iter().zip(&theirs) {
        let ours = c.key(u).map(str::to_owned).unwrap_or_default();
        if ours != *t {
            differ.push((u, ours, *t));
        }
    }
    println!(
        "surt keys vs Python surt: {} of {} identical; {} differ{}",
        urls.len() - differ.len(),
        urls.len(),
        differ.len(),
        if differ.is_empty() {
            ""
        } else {
            ", first ones:"
        }
    );
    for (u, ours, t) in differ.iter().take(10) {
        println!("  {u:?}\n    spinneret {ours:?}\n    python    {t:?}");
    }
}

/// Runs the benchmark and prints the table, then the same table in
/// Markdown for the README.
pub fn run(plan: Plan, quick: bool) {
    let urls = spinneret_testdata::lines(URLS);
    println!("canon: {} URLs of {URLS}", urls.len());
    let mut table = Table::new([
        Column::left("canonicalizer"),
        Column::right("ns/URL"),
        Column::right("URLs/s"),
        Column::right("failures"),
        Column::left("vs spinneret"),
    ]);
    let mut ours = HashMap::new();
    for name in Profile::BUILTIN {
        let mut c = Canonicalizer::new(Profile::builtin(name).expect("built-in"));
        let mut failures = 0;
        let t = measure(plan, urls.len(), || {
            let mut ok = 0;
            failures = 0;
            for u in &urls {
                match c.canonicalize(u) {
                    Ok(s) => {
                        ok += std::hint::black_box(s.to_owned()).len().min(1);
                    }
                    Err(_) => failures += 1,
                }
            }
            ok
        });
        table.push(vec![
            Cell::Text(format!("spinneret {name}")),
            Cell::Ns(t.ns_per_item),
            Cell::Rate(t.items_per_sec()),
            Cell::Count(failures),
            Cell::text(""),
        ]);
        ours.insert(name, t.ns_per_item);
    }
    let repeat = if quick { 1 } else { 3 };
    let dump = crate::scratch_dir().join("python-surt-keys.txt");
    let _ = std::fs::remove_file(&dump);
    let tools = python_env()
        .and_then(|env| python_rows(&env, &spinneret_testdata::path(URLS), repeat, &dump));
    let mut unavailable = Vec::new();
    match tools {
        Err(why) => unavailable.push(format!("python peers: unavailable ({why})")),
        Ok(tools) => {
            for PythonTool { name, result } in tools {
                match result {
                    Err(why) => unavailable.push(format!("python {name}: unavailable: {why}")),
                    Ok(t) => {
                        // Like with like: the same algorithm for surt, the
                        // safe normalizations for the others.
                        let vs = if name == "surt" { "surt" } else { "safe" };
                        table.push(vec![
                            Cell::Text(format!("python {name} {}", t.version)),
                            Cell::Ns(t.ns_per_url),
                            Cell::Rate(1e9 / t.ns_per_url),
                            Cell::Count(t.errors),
                            Cell::Text(format!(
                                "{} of spinneret {vs}",
                                fmt_ratio(t.ns_per_url, ours[vs])
                            )),
                        ]);
                    }
                }
            }
        }
    }
    println!();
    print!("{}", table.aligned());
    for line in unavailable {
        println!("{line}");
    }
    println!();
    surt_agreement(&urls, &dump);
    println!();
    println!("== markdown for README.md (ratios above 1 mean spinneret is faster) ==");
    if quick {
        println!("<!-- --quick run: single timed pass, do not publish -->");
    }
    print!("{}", table.markdown());
}
