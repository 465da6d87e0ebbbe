//! The corpus pages every page-level benchmark reads (`tokenize`, `tree`):
//! the HTML pages and feeds of `corpus/pages.tsv`, gunzipped and decoded to
//! UTF-8 with `String::from_utf8_lossy` before any timing, so that neither
//! I/O nor decoding is measured and every library reads the same UTF-8
//! bytes. Python peers decode the same files the same way (`errors=
//! "replace"`, which also replaces each maximal invalid subsequence) and
//! report their byte total, which the benchmark compares with [`Pages::bytes`].

/// The page list in the shared folder.
pub const MANIFEST: &str = "corpus/pages.tsv";

/// The corpus pages, decoded, in memory, in the manifest's order.
pub struct Pages {
    /// Each page's text.
    pub pages: Vec<String>,
    /// Each page's path under `corpus/` (the manifest's `path` field), in
    /// the order of `pages`.
    pub paths: Vec<String>,
    /// Total UTF-8 bytes of `pages`: the denominator of every rate.
    pub bytes: usize,
    /// Pages that were not valid UTF-8 (decoded with U+FFFD replacements).
    pub lossy: usize,
}

impl Pages {
    /// Reads every page listed in `corpus/pages.tsv`.
    pub fn load() -> Pages {
        let manifest = spinneret_testdata::read_to_string(MANIFEST);
        let mut lines = manifest.split('\n');
        let header = lines.next().unwrap_or_default().trim_end_matches('\r');
        let column = header
            .split('\t')
            .position(|c| c == "path")
            .unwrap_or_else(|| panic!("{MANIFEST}: no `path` column in the header"));
        let mut set = Pages {
            pages: Vec::new(),
            paths: Vec::new(),
            bytes: 0,
            lossy: 0,
        };
        for (n, line) in lines.enumerate() {
            let line = line.trim_end_matches('\r');
            if line.is_empty() {
                continue;
            }
            let path = line
                .split('\t')
                .nth(column)
                .unwrap_or_else(|| panic!("{MANIFEST} line {}: no `path` field", n + 2));
            let raw = spinneret_testdata::read(&format!("corpus/{path}"));
            let page = match String::from_utf8(raw) {
                Ok(page) => page,
                Err(e) => {
                    set.lossy += 1;
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            set.bytes += page.len();
            set.pages.push(page);
            set.paths.push(path.to_owned());
        }
        assert!(!set.pages.is_empty(), "{MANIFEST} lists no pages");
        set
    }
}
