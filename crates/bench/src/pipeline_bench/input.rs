//! The pipeline benchmark's input: a gzip WARC of the shared corpus
//! repeated K times, made once by the corpus's `make_warc.py` and kept in
//! the scratch folder, and the volume of HTML it holds as spinneret counts
//! it (the denominator of every rate in the table).

use std::path::PathBuf;
use std::process::{Command, Stdio};

use spinneret_url::Url;
use spinneret_warc::Reader;

/// The WARC for `repeat`, made by `make_warc.py` unless it exists.
///
/// The script writes to a `.part` file that is renamed when complete, so an
/// interrupted run never leaves a truncated WARC to be reused.
pub fn ensure_warc(repeat: u32) -> PathBuf {
    let dir = crate::scratch_dir();
    std::fs::create_dir_all(&dir).expect("create the bench temp dir");
    let path = dir.join(format!("pipeline-k{repeat}.warc.gz"));
    if path.exists() {
        eprintln!("input: reusing {}", path.display());
        return path;
    }
    let script = spinneret_testdata::path("corpus/make_warc.py");
    let part = dir.join(format!("pipeline-k{repeat}.warc.gz.part"));
    eprintln!("input: making {} (--repeat {repeat})…", path.display());
    let status = Command::new("python3")
        .arg(&script)
        .arg(&part)
        .arg("--repeat")
        .arg(repeat.to_string())
        .stdout(Stdio::null())
        .status()
        .expect("run python3 make_warc.py");
    assert!(status.success(), "make_warc.py failed: {status}");
    std::fs::rename(&part, &path).expect("rename the WARC into place");
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
