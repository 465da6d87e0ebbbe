//! Locating the shared test data: conformance suites, specifications and the
//! real-web corpus.
//!
//! The data lives outside the repository (it must never be copied in). Its
//! folder is `$SPINNERET_SHARED` when that variable is set, otherwise
//! `../shared` next to the workspace root. Every test and benchmark that reads
//! shared data goes through [`shared_dir`] so that the rule lives in one place.
//!
//! Missing data is a hard error, not a skipped test: a conformance test that
//! silently passes because its input is absent would hide a broken setup.
//!
//! [`cpu_time`] (Linux) gives tests per-thread CPU time, the measure their
//! scaling checks use instead of wall-clock time. [`wcxb`] reads WCXB dev
//! (main-content pages by type) and scores an extractor's texts with
//! WCXB's metric.
//!
//! Readers of the html5lib suites that several crates run:
//! [`tree_construction_tests`] (the `.dat` tree-construction tests) and
//! [`serializer_tests`]. [`text_chunkings`] and [`byte_chunkings`] cut an
//! input into pieces for tests of streaming parsers.

#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]
#![warn(missing_docs)]

mod chunking;
#[cfg(target_os = "linux")]
pub mod cpu_time;
mod serializer_tests;
mod tree_construction;
pub mod wcxb;

pub use chunking::{Chunking, byte_chunkings, text_chunkings};
pub use serializer_tests::{SerializerTest, serializer_tests};
pub use tree_construction::{TreeTest, parse_dat, tree_construction_tests};

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// The workspace root, known at compile time from this crate's manifest.
fn workspace_root() -> PathBuf {
    // crates/testdata -> crates -> root
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .expect("crate lies two levels below the workspace root")
        .to_path_buf()
}

/// The shared data folder: `$SPINNERET_SHARED`, else `<workspace>/../shared`.
///
/// # Panics
/// When the folder does not exist — tests must not pass without their data.
pub fn shared_dir() -> PathBuf {
    let dir = match std::env::var_os("SPINNERET_SHARED") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => workspace_root().join("..").join("shared"),
    };
    assert!(
        dir.is_dir(),
        "shared data folder {} not found; set SPINNERET_SHARED",
        dir.display()
    );
    dir
}

/// A path inside the shared folder, which must exist.
///
/// ```no_run
/// let p = spinneret_testdata::path("testdata/wpt-url/urltestdata.json");
/// assert!(p.is_file());
/// ```
pub fn path(relative: &str) -> PathBuf {
    let p = shared_dir().join(relative);
    assert!(p.exists(), "shared data file {} not found", p.display());
    p
}

/// The whole contents of a shared file as UTF-8 text (gzip-decompressed when
/// the name ends in `.gz`).
pub fn read_to_string(relative: &str) -> String {
    let bytes = read(relative);
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{relative} is not UTF-8: {e}"))
}

/// The whole contents of a shared file as bytes (gzip-decompressed when the
/// name ends in `.gz`).
pub fn read(relative: &str) -> Vec<u8> {
    let p = path(relative);
    let raw = fs::read(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()));
    if relative.ends_with(".gz") {
        let mut out = Vec::with_capacity(raw.len() * 4);
        flate2::read::MultiGzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap_or_else(|e| panic!("cannot gunzip {}: {e}", p.display()));
        out
    } else {
        raw
    }
}

/// The lines of a shared text file, without line terminators (`\n` or
/// `\r\n`). Lines are kept byte-exact otherwise: URL lists contain spaces and
/// other characters that matter to a parser.
pub fn lines(relative: &str) -> Vec<String> {
    let bytes = read(relative);
    BufReader::new(&bytes[..])
        .split(b'\n')
        .map(|l| {
            let mut l = l.expect("reading from memory cannot fail");
            if l.last() == Some(&b'\r') {
                l.pop();
            }
            String::from_utf8_lossy(&l).into_owned()
        })
        .collect()
}

/// The paths (relative to `corpus/`) of the corpus pages, in the order of
/// `corpus/pages.tsv`.
pub fn corpus_page_paths() -> Vec<String> {
    let tsv = read_to_string("corpus/pages.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("a header line").split('\t').collect();
    let col = header
        .iter()
        .position(|h| *h == "path")
        .expect("a path column");
    lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split('\t').nth(col).expect("a path field").to_owned())
        .collect()
}

/// Every corpus page with its path, as text (UTF-8, invalid sequences
/// replaced).
pub fn corpus_pages_text() -> Vec<(String, String)> {
    corpus_page_paths()
        .into_iter()
        .map(|path| {
            let bytes = read(&format!("corpus/{path}"));
            let text = String::from_utf8_lossy(&bytes).into_owned();
            (path, text)
        })
        .collect()
}

/// The files of a shared folder whose names end with `suffix`, sorted.
pub fn files_with_suffix(relative_dir: &str, suffix: &str) -> Vec<PathBuf> {
    let dir = path(relative_dir);
    let mut out: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    out.sort();
    out
}

/// A deterministic xorshift64 generator for generated and mutated test
/// inputs: reproducible from its seed, no dependency. (A seed of 0 stays 0;
/// use any other.)
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items` (non-empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_url_suite() {
        assert!(path("testdata/wpt-url/urltestdata.json").is_file());
    }

    #[test]
    fn reads_gzip_transparently() {
        let text = read_to_string("corpus/urls/extracted_links.tsv.gz");
        assert!(text.lines().count() > 1000);
    }
}
