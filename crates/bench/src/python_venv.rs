//! The Python peers' virtual environments: one per benchmark under the
//! bench temp folder, made with `python3 -m venv` on first use and filled
//! from PyPI, so a benchmark's Python row needs nothing installed by hand.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::pipeline_bench::bench_dir;

/// The python of the venv `name` (created when missing), or why not.
pub fn python(name: &str) -> Result<PathBuf, String> {
    let venv = bench_dir().join(name);
    let py = venv.join("bin").join("python");
    if !py.exists() {
        eprintln!("python: creating {}…", venv.display());
        let s = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .map_err(|e| format!("python3 -m venv: {e}"))?;
        if !s.success() {
            return Err(format!("python3 -m venv failed: {s}"));
        }
    }
    Ok(py)
}

/// Whether `py` imports `modules` (a comma-separated list).
pub fn has(py: &Path, modules: &str) -> bool {
    Command::new(py)
        .args(["-c", &format!("import {modules}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `pip install` of `packages` into `py`'s venv; whether it succeeded.
pub fn pip_install(py: &Path, packages: &[&str]) -> bool {
    eprintln!("python: pip install {}…", packages.join(" "));
    Command::new(py)
        .args(["-m", "pip", "install", "-q"])
        .args(packages)
        .status()
        .is_ok_and(|s| s.success())
}
