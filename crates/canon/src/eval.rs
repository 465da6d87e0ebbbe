//! Evaluating a canonicalization policy on a crawl, with the metrics of
//! Lee, Kim & Hong, "On URL Normalization" (2005).
//!
//! Input: the crawl's URLs, each with the content it returned (a payload
//! digest, or a near-duplicate cluster id). A policy maps URLs to keys; the
//! URLs sharing a key form a group `Dᵢ`, and only groups with at least two
//! URLs matter (the others are not affected by the policy). For each group,
//! `n(Dᵢ)` is its number of URLs and `un(Dᵢ)` its number of distinct
//! contents.
//!
//! - **Redundancy rate** `Σ(n(Dᵢ) − un(Dᵢ)) / Σ n(Dᵢ)`: the share of the
//!   grouped URLs that were fetches of content already fetched in the group —
//!   the waste the policy removes.
//! - **Coverage loss rate** `1 − D_downloaded / Σ un(Dᵢ)`: a crawler that
//!   applies the policy fetches one URL per group, so of the `Σ un(Dᵢ)`
//!   distinct contents of the groups only `D_downloaded` are still obtained.
//!   A content of group `Dᵢ` counts as downloaded when the policy's crawl
//!   still fetches it: it is the content of `Dᵢ`'s representative, or of any
//!   other URL the policy's crawl fetches (another group's representative or
//!   an ungrouped URL). The representative is the group's URL whose own text
//!   equals the canonical key (that is the URL the crawler would request),
//!   else the group's first URL in input order.
//! - **Requests saved** `Σ(n(Dᵢ) − 1)`: fetches the policy avoids.
//!
//! Each distinct URL string counts once (its first capture's content); later
//! captures of the same URL are counted as `repeated_captures`.
//!
//! The paper's Example 1 (ten URLs, two decompositions: 0.5 / 0.5 and
//! 0.33 / 0) is a unit test below; an independent slow implementation in
//! tests/eval.rs checks these numbers on the real WARCs.

use crate::{CanonError, Canonicalizer, KeyForm, KeyHash};
use std::collections::{HashMap, HashSet};

/// One observation: a URL and the content it returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// The URL as recorded (WARC-Target-URI, CDX original).
    pub url: String,
    /// The content's identity (hash of the payload digest).
    pub content: u128,
    /// The near-duplicate identity (SimHash cluster), when known.
    pub near: Option<u128>,
}

/// The URLs of a crawl, deduplicated, in input order.
#[derive(Clone, Debug, Default)]
pub struct Crawl {
    urls: Vec<String>,
    content: Vec<u128>,
    near: Vec<Option<u128>>,
    /// 128-bit hashes of the URLs seen (not a second copy of each string).
    seen: HashSet<KeyHash>,
    /// Observations of a URL already seen (ignored after the first).
    pub repeated_captures: u64,
}

impl Crawl {
    /// An empty crawl.
    pub fn new() -> Crawl {
        Crawl::default()
    }

    /// Adds one observation (ignored, and counted, if the URL was seen).
    pub fn push(&mut self, o: Observation) {
        if !self.seen.insert(KeyHash::of(&o.url)) {
            self.repeated_captures += 1;
            return;
        }
        self.urls.push(o.url);
        self.content.push(o.content);
        self.near.push(o.near);
    }

    /// Number of distinct URLs.
    pub fn len(&self) -> usize {
        self.urls.len()
    }

    /// Whether there is no URL.
    pub fn is_empty(&self) -> bool {
        self.urls.is_empty()
    }

    /// The distinct URLs, in input order.
    pub fn urls(&self) -> &[String] {
        &self.urls
    }

    /// Whether every URL has a near-duplicate identity.
    pub fn has_near(&self) -> bool {
        !self.near.is_empty() && self.near.iter().all(Option::is_some)
    }
}

/// The paper's figures for one policy on one crawl (serialized as they
/// are, field by field, in `spinneret canon-eval --json`).
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Metrics {
    /// Groups with at least two URLs.
    pub groups: u64,
    /// Σ n(Dᵢ).
    pub grouped_urls: u64,
    /// Σ un(Dᵢ).
    pub unique_pages: u64,
    /// D_downloaded.
    pub downloaded: u64,
    /// Σ(n(Dᵢ) − 1).
    pub requests_saved: u64,
    /// Σ(n − un) / Σ n (0 when nothing is grouped).
    pub redundancy_rate: f64,
    /// 1 − D_downloaded / Σ un (0 when nothing is grouped).
    pub coverage_loss_rate: f64,
}

/// One policy's result: on exact contents and, when known, near-duplicates.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// The policy's name (a profile or `whatwg+rule`).
    pub name: String,
    /// URLs the policy could not canonicalize (left out of the grouping).
    pub failures: u64,
    /// With exact content identities.
    pub exact: Metrics,
    /// With near-duplicate identities, when the crawl has them.
    pub near: Option<Metrics>,
}

/// Computes the metrics from keys already assigned: `keys[i]` is URL `i`'s
/// key hash (`None` = failed), `is_rep[i]` whether URL `i`'s text equals its
/// canonical form, `content[i]` its content identity.
pub fn metrics(keys: &[Option<KeyHash>], is_rep: &[bool], content: &[u128]) -> Metrics {
    // Groups in first-appearance order.
    let mut group_of: HashMap<KeyHash, u32> = HashMap::with_capacity(keys.len());
    let mut members: Vec<Vec<u32>> = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        let Some(k) = k else { continue };
        let g = *group_of.entry(*k).or_insert_with(|| {
            members.push(Vec::new());
            (members.len() - 1) as u32
        });
        members[g as usize].push(i as u32);
    }
    // What the policy's crawl fetches: one representative per group.
    let mut fetched: HashSet<u128> = HashSet::with_capacity(members.len());
    let rep = |m: &[u32]| {
        m.iter()
            .copied()
            .find(|&i| is_rep[i as usize])
            .unwrap_or(m[0])
    };
    for m in &members {
        fetched.insert(content[rep(m) as usize]);
    }
    let mut out = Metrics::default();
    let mut distinct: HashSet<u128> = HashSet::new();
    for m in members.iter().filter(|m| m.len() >= 2) {
        distinct.clear();
        distinct.extend(m.iter().map(|&i| content[i as usize]));
        out.groups += 1;
        out.grouped_urls += m.len() as u64;
        out.unique_pages += distinct.len() as u64;
        out.requests_saved += m.len() as u64 - 1;
        out.downloaded += distinct.iter().filter(|c| fetched.contains(c)).count() as u64;
    }
    if out.grouped_urls > 0 {
        out.redundancy_rate =
            (out.grouped_urls - out.unique_pages) as f64 / out.grouped_urls as f64;
        out.coverage_loss_rate = 1.0 - out.downloaded as f64 / out.unique_pages as f64;
    }
    out
}

/// Evaluates one canonicalizer on a crawl.
pub fn evaluate(crawl: &Crawl, canon: &mut Canonicalizer) -> Evaluation {
    let mut keys = Vec::with_capacity(crawl.len());
    let mut is_rep = Vec::with_capacity(crawl.len());
    let mut failures = 0;
    for u in &crawl.urls {
        // One canonicalization per URL: for URL-keyed profiles the key is
        // the canonical URL itself.
        let url_keyed = canon.profile().key == KeyForm::Url;
        let canonical: Result<(bool, Option<KeyHash>), CanonError> = canon
            .canonicalize(u)
            .map(|c| (c == u, url_keyed.then(|| KeyHash::of(c))));
        let key = match canonical {
            Ok((rep, Some(k))) => Ok((rep, k)),
            Ok((rep, None)) => canon.key_hash(u).map(|k| (rep, k)),
            Err(e) => Err(e),
        };
        match key {
            Ok((rep, k)) => {
                keys.push(Some(k));
                is_rep.push(rep);
            }
            Err(_) => {
                failures += 1;
                keys.push(None);
                is_rep.push(false);
            }
        }
    }
    let exact = metrics(&keys, &is_rep, &crawl.content);
    let near = crawl.has_near().then(|| {
        let near: Vec<u128> = crawl.near.iter().map(|n| n.expect("has_near")).collect();
        metrics(&keys, &is_rep, &near)
    });
    Evaluation {
        name: canon.profile().name.clone(),
        failures,
        exact,
        near,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ten URLs u1…u10 with pages p1…p6 and two decompositions, as in the
    /// paper's Example 1.
    #[test]
    fn paper_example_1() {
        // u1..u10 → pages
        let content: Vec<u128> = vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 6];
        let no_rep = vec![false; 10];
        let k = |g: u128| Some(KeyHash(g));
        // Decomposition 1: D1 = {u1..u4} (p1, p2), D2 = {u5..u8} (p3, p4);
        // u9, u10 alone. The crawl fetches u1 (p1) and u5 (p3): p2 and p4 are lost.
        let d1: Vec<Option<KeyHash>> =
            vec![k(1), k(1), k(1), k(1), k(2), k(2), k(2), k(2), k(3), k(4)];
        let m = metrics(&d1, &no_rep, &content);
        assert_eq!(
            (m.groups, m.grouped_urls, m.unique_pages, m.downloaded),
            (2, 8, 4, 2)
        );
        assert_eq!(m.redundancy_rate, 0.5);
        assert_eq!(m.coverage_loss_rate, 0.5);
        // Decomposition 2: D1 = {u1, u2, u3} (p1, p2), D2 = {u5, u6, u7} (p3, p4);
        // u4 (p2) and u8 (p4) stay separate URLs, so nothing is lost.
        let d2: Vec<Option<KeyHash>> =
            vec![k(1), k(1), k(1), k(5), k(2), k(2), k(2), k(6), k(3), k(4)];
        let m = metrics(&d2, &no_rep, &content);
        assert_eq!(
            (m.groups, m.grouped_urls, m.unique_pages, m.downloaded),
            (2, 6, 4, 4)
        );
        assert_eq!(format!("{:.2}", m.redundancy_rate), "0.33");
        assert_eq!(m.coverage_loss_rate, 0.0);
        assert_eq!(m.requests_saved, 4);
    }

    #[test]
    fn representative_is_the_canonical_url() {
        // Group {a, b}: b is the canonical URL itself, so its content is fetched.
        let m = metrics(
            &[Some(KeyHash(1)), Some(KeyHash(1))],
            &[false, true],
            &[10, 20],
        );
        assert_eq!(m.downloaded, 1);
        assert_eq!(m.unique_pages, 2);
        let none = metrics(&[None, None], &[false, false], &[1, 2]);
        assert_eq!(none, Metrics::default());
    }
}
