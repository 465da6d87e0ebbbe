//! Idempotence, canon(canon(u)) == canon(u), of every built-in profile (and
//! of one with every rule on) over every URL list of the corpus:
//! `urls/*.txt`, the page / rel=canonical / og:url columns of
//! `canonical_pairs.tsv`, the target URIs of `warc_url_digest.tsv`, and every
//! raw link of `extracted_links.tsv.gz` resolved against its page.
//!
//! Also: the key of the canonical form is the key of the input, and the
//! 128-bit key hash agrees with the key text.

use spinneret_canon::{Canonicalizer, KeyHash, Profile, Rule};
use spinneret_url::Url;

fn corpus_urls() -> Vec<(String, Vec<String>)> {
    let mut lists = Vec::new();
    for f in [
        "absolute_links.txt",
        "ada_isaacs_files.txt",
        "ada_kasztp.txt",
        "ada_node_files.txt",
        "ada_userbait.txt",
        "page_urls.txt",
    ] {
        lists.push((
            f.to_owned(),
            spinneret_testdata::lines(&format!("corpus/urls/{f}")),
        ));
    }
    let column = |file: &str, names: &[&str]| -> Vec<String> {
        let lines = spinneret_testdata::lines(&format!("corpus/urls/{file}"));
        let header: Vec<&str> = lines[0].split('\t').collect();
        let idx: Vec<usize> = names
            .iter()
            .map(|n| {
                header
                    .iter()
                    .position(|h| h == n)
                    .unwrap_or_else(|| panic!("{file}: no column {n}"))
            })
            .collect();
        lines[1..]
            .iter()
            .flat_map(|l| {
                let cols: Vec<&str> = l.split('\t').collect();
                idx.iter()
                    .filter_map(move |&i| {
                        cols.get(i).filter(|v| !v.is_empty()).map(|v| v.to_string())
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    lists.push((
        "canonical_pairs.tsv".into(),
        column(
            "canonical_pairs.tsv",
            &["page_url", "link_rel_canonical", "og_url"],
        ),
    ));
    lists.push((
        "warc_url_digest.tsv".into(),
        column("warc_url_digest.tsv", &["target_uri"]),
    ));
    let links = spinneret_testdata::lines("corpus/urls/extracted_links.tsv.gz");
    let mut resolved = Vec::with_capacity(links.len());
    for l in &links[1..] {
        let cols: Vec<&str> = l.split('\t').collect();
        let (Some(page), Some(raw)) = (cols.get(1), cols.get(5)) else {
            continue;
        };
        let Ok(base) = Url::parse(page) else { continue };
        let base = match cols.get(2).filter(|b| !b.is_empty()) {
            Some(b) => Url::parse_with_base(b, &base).unwrap_or(base),
            None => base,
        };
        if let Ok(u) = Url::parse_with_base(raw, &base) {
            resolved.push(u.href().to_owned());
        }
    }
    lists.push(("extracted_links.tsv.gz (resolved)".into(), resolved));
    lists
}

fn profiles() -> Vec<Profile> {
    let mut ps: Vec<Profile> = Profile::BUILTIN
        .iter()
        .map(|n| Profile::builtin(n).unwrap())
        .collect();
    // Every rule at once (both trailing-slash rules: the later one wins).
    let all: Vec<String> = Rule::ALL.iter().map(|r| r.name().to_owned()).collect();
    let mut every = Profile::builtin("whatwg").unwrap().edit(&all).unwrap();
    every.name = "every-rule".into();
    ps.push(every);
    let mut surt_key = Profile::builtin("aggressive").unwrap();
    surt_key.key = spinneret_canon::KeyForm::Surt;
    surt_key.name = "aggressive+surt-key".into();
    ps.push(surt_key);
    // `safe` keeps route fragments, and its SURT key carries them.
    let mut safe_surt = Profile::safe();
    safe_surt.key = spinneret_canon::KeyForm::Surt;
    safe_surt.name = "safe+surt-key".into();
    ps.push(safe_surt);
    ps
}

#[test]
fn every_profile_is_idempotent_on_the_corpus() {
    let lists = corpus_urls();
    let mut failures = Vec::new();
    for p in profiles() {
        let mut c = Canonicalizer::new(p.clone());
        let (mut n, mut accepted, mut changed) = (0u64, 0u64, 0u64);
        for (list, urls) in &lists {
            for u in urls {
                n += 1;
                let Ok(once) = c.canonicalize(u).map(str::to_owned) else {
                    continue;
                };
                accepted += 1;
                changed += u64::from(once != *u);
                match c.canonicalize(&once).map(str::to_owned) {
                    Ok(twice) if twice == once => {}
                    other => failures.push(format!(
                        "{} [{list}]: {u:?} -> {once:?} -> {other:?}",
                        p.name
                    )),
                }
                let k1 = c.key(u).map(str::to_owned);
                let k2 = c.key(&once).map(str::to_owned);
                if k1 != k2 {
                    failures.push(format!(
                        "{} [{list}] key: {u:?} -> {k1:?} but canonical {once:?} -> {k2:?}",
                        p.name
                    ));
                }
                if let Ok(k) = &k1 {
                    assert_eq!(c.key_hash(u).unwrap(), KeyHash::of(k));
                }
            }
        }
        let bad = failures
            .iter()
            .filter(|f| f.starts_with(&format!("{} [", p.name)))
            .count();
        println!(
            "{:<22} {n} URLs, {accepted} accepted, {changed} changed by the profile, {bad} not idempotent",
            p.name
        );
    }
    assert!(
        failures.is_empty(),
        "{} not idempotent:\n{}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
