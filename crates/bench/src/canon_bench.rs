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

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use spinneret_canon::{Canonicalizer, Profile};

use crate::pipeline_bench::bench_dir;
use crate::python_venv;
use crate::timing::{Plan, fmt_ns, fmt_rate, fmt_ratio, measure};

const URLS: &str = "corpus/urls/absolute_links.txt";

/// The venv's python with the three tools, or why not.
fn python_env() -> Result<PathBuf, String> {
    let py = python_venv::python("venv-canon")?;
    for (module, package) in [
        ("w3lib", "w3lib"),
        ("url_normalize", "url-normalize"),
        ("surt", "surt"),
    ] {
        if !python_venv::has(&py, module) {
            // A failure shows as an "unavailable" row from canon.py.
            python_venv::pip_install(&py, &[package]);
        }
    }
    Ok(py)
}

/// One Python tool's row: (name, version, ns/URL, errors) or why not.
type PyRow = (String, Result<(String, f64, u64), String>);

fn python_rows(py: &Path, urls: &Path, repeat: u32, dump: &Path) -> Result<Vec<PyRow>, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/canon.py");
    let out = Command::new(py)
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
            let r = match t["unavailable"].as_str() {
                Some(why) => Err(why.to_owned()),
                None => Ok((
                    t["version"].as_str().unwrap_or("?").to_owned(),
                    t["ns_per_url"].as_f64().unwrap_or(f64::NAN),
                    t["errors"].as_u64().unwrap_or(0),
                )),
            };
            (name, r)
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

/// Runs the benchmark and prints the table.
pub fn run(plan: Plan, quick: bool) {
    let urls = spinneret_testdata::lines(URLS);
    println!("canon: {} URLs of {URLS}", urls.len());
    println!(
        "{:<26} {:>12} {:>14} {:>9}",
        "canonicalizer", "per URL", "URLs/s", "failures"
    );
    let mut ours = std::collections::HashMap::new();
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
        println!(
            "{:<26} {:>12} {:>14} {:>9}",
            format!("spinneret {name}"),
            fmt_ns(t.ns_per_item),
            fmt_rate(t.items_per_sec()),
            failures
        );
        ours.insert(name, t.ns_per_item);
    }
    let repeat = if quick { 1 } else { 3 };
    let dump = bench_dir().join("python-surt-keys.txt");
    let _ = std::fs::remove_file(&dump);
    let rows = python_env()
        .and_then(|py| python_rows(&py, &spinneret_testdata::path(URLS), repeat, &dump));
    match rows {
        Err(why) => println!("python peers: unavailable ({why})"),
        Ok(rows) => {
            for (name, r) in rows {
                match r {
                    Err(why) => println!("{name:<26} unavailable: {why}"),
                    Ok((version, ns, errors)) => {
                        let (vs, ours_ns) = if name == "surt" {
                            ("surt", ours["surt"])
                        } else {
                            ("safe", ours["safe"])
                        };
                        println!(
                            "{:<26} {:>12} {:>14} {:>9}   {} of spinneret {vs}",
                            format!("python {name} {version}"),
                            fmt_ns(ns),
                            fmt_rate(1e9 / ns),
                            errors,
                            fmt_ratio(ns, ours_ns)
                        );
                    }
                }
            }
        }
    }
    surt_agreement(&urls, &dump);
}
