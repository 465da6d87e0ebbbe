//! The Python peers' environments: one virtual environment per benchmark
//! under the bench scratch folder ([`crate::scratch_dir`]), made with
//! `python3 -m venv` on first use and filled from PyPI, so that a
//! benchmark's Python rows need nothing installed by hand. The scripts the
//! benchmarks run live in `crates/bench/python/`.
//!
//! Nothing here is fatal: a venv that cannot be made is an `Err` with the
//! reason, and a package that cannot be installed is simply missing
//! afterwards; each benchmark decides what it cannot do without (its row
//! then says why it was not run, and the run goes on).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A Python package a benchmark needs: the module it imports and the PyPI
/// package that provides it.
#[derive(Clone, Copy, Debug)]
pub struct Requirement {
    /// The name `import` takes (`url_normalize`).
    pub module: &'static str,
    /// The name `pip install` takes (`url-normalize`).
    pub package: &'static str,
}

/// One virtual environment, known to exist.
#[derive(Debug)]
pub struct PythonEnv {
    python: PathBuf,
}

impl PythonEnv {
    /// The venv `name` under the scratch folder, created when missing.
    pub fn open(name: &str) -> Result<PythonEnv, String> {
        let venv = crate::scratch_dir().join(name);
        let python = venv.join("bin").join("python");
        if !python.exists() {
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
        Ok(PythonEnv { python })
    }

    /// The venv's interpreter.
    pub fn python(&self) -> &Path {
        &self.python
    }

    /// Whether the venv imports `module`.
    pub fn has(&self, module: &str) -> bool {
        Command::new(&self.python)
            .args(["-c", &format!("import {module}")])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Installs the packages of the `requirements` whose module does not
    /// import yet: all in one `pip install` (one resolver run), and if that
    /// fails each on its own, so that whatever can be installed is.
    pub fn install_missing(&self, requirements: &[Requirement]) {
        let missing: Vec<&str> = requirements
            .iter()
            .filter(|r| !self.has(r.module))
            .map(|r| r.package)
            .collect();
        if missing.len() > 1 && self.pip_install(&missing) {
            return;
        }
        for package in missing {
            self.pip_install(&[package]);
        }
    }

    /// `pip install --upgrade pip`, for a venv whose bundled pip is too old
    /// for a requirement's metadata; a failure is only reported.
    pub fn upgrade_pip(&self) {
        eprintln!("python: pip install --upgrade pip…");
        let ok = Command::new(&self.python)
            .args(["-m", "pip", "install", "-q", "--upgrade", "pip"])
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            eprintln!("python: pip could not be upgraded; going on with the venv's own");
        }
    }

    /// `pip install` of `packages`; whether it succeeded.
    fn pip_install(&self, packages: &[&str]) -> bool {
        eprintln!("python: pip install {}…", packages.join(" "));
        Command::new(&self.python)
            .args(["-m", "pip", "install", "-q"])
            .args(packages)
            .status()
            .is_ok_and(|s| s.success())
    }
}

/// The path of the benchmark script `name` in `crates/bench/python/`.
pub fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("python")
        .join(name)
}
