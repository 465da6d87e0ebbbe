//! The pipeline benchmark's input: a gzip WARC of the shared corpus
//! repeated K times, made once by the corpus's `make_warc.py` and kept in
//! the scratch folder, and the volume of HTML it holds as spinneret counts
//! it (the denominator of every rate in the table).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use spinneret_url::Url;
use spinneret_warc::Reader;

/// The WARC for `repeat`, made by `make_warc.py` unless it exists.
pub fn ensure_warc(repeat: u32) -> PathBuf {
    let script = spinneret_testdata::path("corpus/make_warc.py");
    ensure_made(
        &format!("pipeline-k{repeat}.warc.gz"),
        &script,
        &["--repeat", &repeat.to_string()],
    )
}

/// `name` in the scratch folder, made by the Python `script` (given the
/// output path, then `args`) unless it exists.
///
/// The script writes to a `.part` file that is renamed when complete, so an
/// interrupted run never leaves a truncated file to be reused.
pub fn ensure_made(name: &str, script: &Path, args: &[&str]) -> PathBuf {
    let dir = crate::scratch_dir();
    std::fs::create_dir_all(&dir).expect("create the bench temp dir");
    let path = dir.join(name);
    if path.exists() {
        eprintln!("input: reusing {}", path.display());
        return path;
    }
    let part = dir.join(format!("{name}.part"));
    eprintln!(
        "input: making {} ({} {})…",
        path.display(),
        script.display(),
        args.join(" ")
    );
    let status = Command::new("python3")
        .arg(script)
        .arg(&part)
        .args(args)
        .stdout(Stdio::null())
        .status()
        .expect("run python3");
    assert!(status.success(), "{} failed: {status}", script.display());
    std::fs::rename(&part, &path).expect("rename the file into place");
    path
}

/// What the HTML of the input amounts to, as spinneret counts it.
#[derive(Clone, Copy, Debug)]
pub struct Volume {
    /// Bytes of the decoded payloads of the HTML records.
    pub html_bytes: u64,
    /// HTML records whose target URI parses: the pages spinneret extracts.
    pub pages: u64,
}

impl Volume {
    /// Reads every record of the WARC `data`.
    pub fn of(data: &[u8]) -> Volume {
        let mut v = Volume {
            html_bytes: 0,
            pages: 0,
        };
        for rec in Reader::new(data).flatten() {
            if rec.is_html()
                && rec
                    .target_uri
                    .as_deref()
                    .is_some_and(|u| Url::parse(u).is_ok())
            {
                v.html_bytes += rec.body.len() as u64;
                v.pages += 1;
            }
        }
        v
    }

    /// Megabytes (10^6 bytes) of HTML per second in `secs`.
    pub fn mb_per_sec(&self, secs: f64) -> f64 {
        self.html_bytes as f64 / 1e6 / secs
    }
}
