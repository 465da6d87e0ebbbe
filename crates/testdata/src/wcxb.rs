//! WCXB dev (`corpus/extraction/wcxb-dev`: 743 pages of seven page
//! types, each with its whole main text) and WCXB's metric, as the set's
//! README states it from WCXB's `evaluate.py`:
//!
//! - tokens: `re.findall(r'\w+', text.lower())` — here the runs of
//!   characters that are alphanumeric (`char::is_alphanumeric`) or `_`,
//!   of the lowercased text. (Rust's alphabetic class also holds the
//!   combining marks of the Unicode `Other_Alphabetic` property, which
//!   Python's `\w` does not; the set's pages are English and French, where
//!   the two agree, and `python/wcxb_peers.py` scores the same texts to
//!   show it.)
//! - per page: the overlap is the bag intersection of the output's and the
//!   reference's tokens; P = overlap / output tokens, R = overlap /
//!   reference tokens, F1 = 2PR / (P + R) (0 when both are 0); an empty
//!   reference scores 1 when the output is empty too, else 0; an empty
//!   output scores 0.
//! - over pages: the plain means of P, R and F1 (so F1 is a macro mean).
//! - snippets: "with" is the mean over pages of the share of `with`
//!   snippets found in the output as case-insensitive substrings,
//!   "without" the same of `without` (lower is better); an empty list
//!   counts 1.0.
//!
//! Used by `spinneret-text`'s regression guard (`tests/wcxb.rs`) and by
//! `spinneret-bench text`, so that both score alike.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;

use serde::Deserialize;

/// The set's folder under the shared folder.
pub const DIR: &str = "corpus/extraction/wcxb-dev";

/// The page types, in the README's order.
pub const TYPES: [&str; 7] = [
    "article",
    "service",
    "collection",
    "listing",
    "documentation",
    "forum",
    "product",
];

/// One page of the set.
pub struct WcxbPage {
    /// WCXB's file id (`0021`).
    pub id: String,
    /// The page's URL (empty for three pages).
    pub url: String,
    /// Its labelled type (one of [`TYPES`]).
    pub page_type: String,
    /// The reference's tokens, counted.
    reference: HashMap<String, u32>,
    /// The reference's token count.
    reference_len: u32,
    /// The snippets the output must hold, lowercased.
    with: Vec<String>,
    /// The snippets it must not hold, lowercased.
    without: Vec<String>,
    /// The page's HTML, gunzipped.
    pub bytes: Vec<u8>,
}

/// One entry of `ground-truth.json` (its other fields are ignored).
#[derive(Deserialize)]
struct Truth {
    #[serde(rename = "articleBody")]
    article_body: String,
    url: String,
    page_type: String,
    with: Vec<String>,
    without: Vec<String>,
}

/// Reads the set's pages, in id order (the first `limit`, all without
/// one).
///
/// # Panics
/// When the set cannot be read: the benchmark has nothing to run on.
pub fn load(limit: Option<usize>) -> Vec<WcxbPage> {
    let dir = crate::path(DIR);
    let json = std::fs::read_to_string(dir.join("ground-truth.json"))
        .unwrap_or_else(|e| panic!("{DIR}/ground-truth.json: {e}"));
    let truth: BTreeMap<String, Truth> =
        serde_json::from_str(&json).unwrap_or_else(|e| panic!("{DIR}/ground-truth.json: {e}"));
    truth
        .into_iter()
        .take(limit.unwrap_or(usize::MAX))
        .map(|(id, t)| {
            let path = dir.join("html").join(format!("{id}.html.gz"));
            let file =
                std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let mut bytes = Vec::new();
            flate2::read::GzDecoder::new(file)
                .read_to_end(&mut bytes)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let tokens = tokens(&t.article_body);
            WcxbPage {
                id,
                url: t.url,
                page_type: t.page_type,
                reference_len: tokens.len() as u32,
                reference: bag(&tokens),
                with: t.with.iter().map(|s| s.to_lowercase()).collect(),
                without: t.without.iter().map(|s| s.to_lowercase()).collect(),
                bytes,
            }
        })
        .collect()
}

/// The lowercased text's word tokens (`\w+`).
pub fn tokens(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
        .collect()
}

fn bag(tokens: &[String]) -> HashMap<String, u32> {
    let mut counts = HashMap::new();
    for t in tokens {
        *counts.entry(t.clone()).or_insert(0) += 1;
    }
    counts
}

/// A page's scores, or their means over pages.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    /// Precision.
    pub p: f64,
    /// Recall.
    pub r: f64,
    /// F1.
    pub f1: f64,
    /// The share of `with` snippets found.
    pub with: f64,
    /// The share of `without` snippets found (lower is better).
    pub without: f64,
}

impl Score {
    /// `page`'s scores for the output `text`.
    pub fn of(page: &WcxbPage, text: &str) -> Score {
        let out = tokens(text);
        let (p, r, f1) = if page.reference_len == 0 {
            let same = f64::from(u8::from(out.is_empty()));
            (same, same, same)
        } else if out.is_empty() {
            (0.0, 0.0, 0.0)
        } else {
            let mut overlap = 0u64;
            for (token, n) in bag(&out) {
                overlap += u64::from(n.min(page.reference.get(&token).copied().unwrap_or(0)));
            }
            let p = overlap as f64 / out.len() as f64;
            let r = overlap as f64 / f64::from(page.reference_len);
            let f1 = if p + r > 0.0 {
                2.0 * p * r / (p + r)
            } else {
                0.0
            };
            (p, r, f1)
        };
        let lower = text.to_lowercase();
        let found = |snippets: &[String]| {
            if snippets.is_empty() {
                return 1.0;
            }
            let n = snippets
                .iter()
                .filter(|s| lower.contains(s.as_str()))
                .count();
            n as f64 / snippets.len() as f64
        };
        Score {
            p,
            r,
            f1,
            with: found(&page.with),
            without: found(&page.without),
        }
    }

    /// The means of `scores` (zero for none).
    pub fn mean<'a>(scores: impl IntoIterator<Item = &'a Score>) -> Score {
        let mut sum = Score::default();
        let mut n = 0usize;
        for s in scores {
            sum.p += s.p;
            sum.r += s.r;
            sum.f1 += s.f1;
            sum.with += s.with;
            sum.without += s.without;
            n += 1;
        }
        if n == 0 {
            return sum;
        }
        let n = n as f64;
        Score {
            p: sum.p / n,
            r: sum.r / n,
            f1: sum.f1 / n,
            with: sum.with / n,
            without: sum.without / n,
        }
    }
}

/// The mean scores of `pages` (with `scores`, one per page) overall and
/// by page type, in [`TYPES`]' order: `("all", n, score)` first.
pub fn by_type(pages: &[WcxbPage], scores: &[Score]) -> Vec<(&'static str, usize, Score)> {
    let mut rows = vec![("all", pages.len(), Score::mean(scores))];
    for t in TYPES {
        let of_type: Vec<&Score> = pages
            .iter()
            .zip(scores)
            .filter(|(p, _)| p.page_type == t)
            .map(|(_, s)| s)
            .collect();
        rows.push((t, of_type.len(), Score::mean(of_type)));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(body: &str, with: &[&str], without: &[&str]) -> WcxbPage {
        let tokens = tokens(body);
        WcxbPage {
            id: "0".into(),
            url: String::new(),
            page_type: "article".into(),
            reference_len: tokens.len() as u32,
            reference: bag(&tokens),
            with: with.iter().map(|s| s.to_lowercase()).collect(),
            without: without.iter().map(|s| s.to_lowercase()).collect(),
            bytes: Vec::new(),
        }
    }

    #[test]
    fn tokens_are_lowercased_word_runs() {
        assert_eq!(
            tokens("Don't STOP_me, 3.14 café!"),
            ["don", "t", "stop_me", "3", "14", "café"]
        );
    }

    #[test]
    fn scores_follow_the_bag_of_words_rule() {
        let p = page("a a b c", &["A B"], &["zzz"]);
        let s = Score::of(&p, "a b b x");
        // overlap: a 1, b 1 = 2 of 4 output tokens and 4 reference ones.
        assert_eq!((s.p, s.r, s.f1), (0.5, 0.5, 0.5));
        // "a b" is in "a b b x" (case-insensitive); "zzz" is not.
        assert_eq!((s.with, s.without), (1.0, 0.0));
        assert_eq!(Score::of(&p, "").f1, 0.0);
        let empty = page("", &[], &[]);
        assert_eq!(Score::of(&empty, "").f1, 1.0);
        assert_eq!(Score::of(&empty, "x").f1, 0.0);
        assert_eq!(Score::of(&empty, "x").with, 1.0);
    }
}
