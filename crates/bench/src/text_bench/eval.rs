//! trafilatura's evaluation set and its scoring rule, written once here
//! for every row of the `text` benchmark that is scored in this process.
//!
//! The set: `corpus/extraction/trafilatura/evaldata.json` (page URL →
//! `{"file", "with", "without"}`) and `pages/FILE.gz` beside it, 990
//! pages, read in the JSON object's order (the order `text_peers.py`
//! reads it in, so that `--limit N` takes the same pages on both sides)
//! and gunzipped to their raw bytes before any timing.
//!
//! The rule: trafilatura's `tests/eval_common.py` `count_item` (at the
//! set's commit, e90b0ef5), as `python/text_peers.py` applies it to the
//! peers. The output and every snippet are whitespace-normalized
//! (Python's `re.sub(r"\s+", " ", s).strip()`); each `with` snippet found
//! in the output is a true positive, else a false negative; each
//! `without` snippet found is a false positive, else a true negative; a
//! page without an output has every `with` a false negative and every
//! `without` a true negative. Counts are summed over pages.

use std::fmt;
use std::io::Read;
use std::path::Path;

use serde::Deserialize;
use serde::de::{Deserializer, MapAccess, Visitor};

/// The set's folder under the shared folder.
pub const DIR: &str = "corpus/extraction/trafilatura";

/// One page of the set.
pub struct EvalPage {
    /// The page's URL (the key of `evaldata.json`).
    pub url: String,
    /// The page's raw bytes, gunzipped.
    pub bytes: Vec<u8>,
    /// The snippets the main content must hold, normalized.
    pub with: Vec<String>,
    /// The snippets it must not hold, normalized.
    pub without: Vec<String>,
}

/// The pages, in `evaldata.json`'s order.
pub struct EvalSet {
    /// Every page read.
    pub pages: Vec<EvalPage>,
    /// Their raw bytes in all: the denominator of MB per CPU-second.
    pub bytes: usize,
}

/// One entry of `evaldata.json` (its other fields are ignored).
#[derive(Deserialize)]
struct Case {
    file: String,
    with: Vec<String>,
    without: Vec<String>,
}

/// The entries of `evaldata.json` in the file's order (a `serde_json`
/// map would sort them by URL).
struct Ordered(Vec<(String, Case)>);

impl<'de> Deserialize<'de> for Ordered {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Ordered, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Ordered;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of page URL -> {file, with, without}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Ordered, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry::<String, Case>()? {
                    entries.push(entry);
                }
                Ok(Ordered(entries))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

impl EvalSet {
    /// Reads the set's first `limit` pages (all without one).
    ///
    /// # Panics
    /// When the set cannot be read: the benchmark has nothing to run on.
    pub fn load(limit: Option<usize>) -> EvalSet {
        let dir = spinneret_testdata::path(DIR);
        let json = std::fs::read_to_string(dir.join("evaldata.json"))
            .unwrap_or_else(|e| panic!("{DIR}/evaldata.json: {e}"));
        let Ordered(entries) =
            serde_json::from_str(&json).unwrap_or_else(|e| panic!("{DIR}/evaldata.json: {e}"));
        let mut set = EvalSet {
            pages: Vec::new(),
            bytes: 0,
        };
        for (url, case) in entries.into_iter().take(limit.unwrap_or(usize::MAX)) {
            let bytes = gunzip(&dir.join("pages").join(format!("{}.gz", case.file)));
            set.bytes += bytes.len();
            set.pages.push(EvalPage {
                url,
                bytes,
                with: case.with.iter().map(|s| normalize(s)).collect(),
                without: case.without.iter().map(|s| normalize(s)).collect(),
            });
        }
        assert!(!set.pages.is_empty(), "{DIR}/evaldata.json lists no pages");
        set
    }
}

fn gunzip(path: &Path) -> Vec<u8> {
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(file)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

/// Python's `re.sub(r"\s+", " ", s).strip()`: `\s` in a `str` pattern is
/// `str.isspace`, which is Unicode's White_Space (`char::is_whitespace`)
/// and the separators U+001C–U+001F.
pub fn normalize(s: &str) -> String {
    let is_space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The snippet counts of one page or of a whole set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `with` snippets found.
    pub tp: u64,
    /// `without` snippets found.
    pub fp: u64,
    /// `without` snippets not found.
    pub tn: u64,
    /// `with` snippets not found.
    pub fn_: u64,
}

impl Counts {
    /// The counts of `page` for the output `text` (`None`: no output).
    pub fn of(page: &EvalPage, text: Option<&str>) -> Counts {
        let (tp, fp) = match text {
            Some(text) => {
                let text = normalize(text);
                let found = |snippets: &[String]| {
                    snippets
                        .iter()
                        .filter(|s| text.contains(s.as_str()))
                        .count()
                };
                (found(&page.with), found(&page.without))
            }
            None => (0, 0),
        };
        Counts {
            tp: tp as u64,
            fp: fp as u64,
            tn: (page.without.len() - fp) as u64,
            fn_: (page.with.len() - tp) as u64,
        }
    }

    /// The counts of the outputs `texts`, one per page of `set` in order,
    /// summed.
    pub fn of_set(set: &EvalSet, texts: &[String]) -> Counts {
        let mut total = Counts::default();
        for (page, text) in set.pages.iter().zip(texts) {
            total += Counts::of(page, Some(text));
        }
        total
    }

    /// tp / (tp + fp), 0 on an empty denominator.
    pub fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }

    /// tp / (tp + fn), 0 on an empty denominator.
    pub fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }

    /// 2 tp / (2 tp + fp + fn), 0 on an empty denominator.
    pub fn f1(&self) -> f64 {
        ratio(2 * self.tp, 2 * self.tp + self.fp + self.fn_)
    }

    /// (tp + tn) / all, 0 on an empty denominator.
    pub fn accuracy(&self) -> f64 {
        ratio(self.tp + self.tn, self.tp + self.fp + self.tn + self.fn_)
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.tp += other.tp;
        self.fp += other.fp;
        self.tn += other.tn;
        self.fn_ += other.fn_;
    }
}

fn ratio(n: u64, d: u64) -> f64 {
    if d == 0 { 0.0 } else { n as f64 / d as f64 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn white_space_runs_are_one_space_and_trimmed_as_python_does() {
        assert_eq!(normalize("  a\t\n b\u{a0}\u{2003}c\u{1f}d  "), "a b c d");
        assert_eq!(normalize(" \n "), "");
    }

    #[test]
    fn snippets_are_counted_by_the_rule() {
        let page = EvalPage {
            url: "http://x/".into(),
            bytes: Vec::new(),
            with: vec![normalize("the  article"), normalize("second para")],
            without: vec![normalize("Menu"), normalize("Impressum")],
        };
        let c = Counts::of(&page, Some("Menu\nthe\narticle\n\nend"));
        assert_eq!(
            c,
            Counts {
                tp: 1,
                fp: 1,
                tn: 1,
                fn_: 1
            }
        );
        assert_eq!(
            Counts::of(&page, None),
            Counts {
                tp: 0,
                fp: 0,
                tn: 2,
                fn_: 2
            }
        );
        assert_eq!(c.precision(), 0.5);
        assert_eq!(c.f1(), 0.5);
        assert_eq!(Counts::default().f1(), 0.0);
    }
}
