//! The IIPC urlcanon expectations (`../shared/corpus/urls/canon-testdata/
//! urlcanon__*.json`), every case of every file, each file mapped to the
//! matching profile or function:
//!
//! | file | checked against |
//! |---|---|
//! | `supplemental_whatwg` | profile `whatwg` |
//! | `semantic_precise` | urlcanon's semantic-precise policy composed from our rules (`SEMANTIC_PRECISE` below) |
//! | `aggressive` | profile `aggressive` |
//! | `surt` → `Canonicalizer.IA`, `Canonicalizer.DefaultIA` | profile `surt` (canonical URL) |
//! | `surt` → `defaultIASurt` | profile `surt` (SURT key) |
//! | `surt` → `google`, `googleSupplementalFromSurt` | profile `safebrowsing` (byte input) |
//! | `surt` → `unescapeRepeatedly`, `alphaRorderQuery`, `massageHost`, `stripPathSessionId` | the functions of those steps |
//! | `ssurt` | `surt::ssurt`, `ssurt_host`, `reverse_host`, `surt::surt` with its options |
//! | `path_dots` | the WHATWG path of `http://h` / `foo://h` + path |
//! | `funky_ipv4` | `safebrowsing::parse_ipv4` |
//! | `idempotence` | every built-in profile: canon(canon(u)) == canon(u) |
//!
//! `parsing.json` describes urlcanon's internal parse tree (its field
//! names), not a canonical form, so it has no counterpart here.
//!
//! JSON strings carry bytes as ISO-8859-1 characters (urlcanon is
//! byte-based). Byte-level functions get those bytes; the `&str` profiles get
//! them as UTF-8 when they are UTF-8, else lossily decoded.
//!
//! Where our result differs from urlcanon's, the case must be listed in
//! `DEVIATIONS` with our own result and the reason; the test fails on any
//! unlisted difference and on any listed case that no longer deviates as
//! written. The deviations are printed with their reasons on every run.

use serde_json::Value;
use spinneret_canon::{Canonicalizer, Profile, Rule, safebrowsing, surt};
use std::collections::BTreeMap;

fn load(name: &str) -> Value {
    let text = spinneret_testdata::read_to_string(&format!(
        "corpus/urls/canon-testdata/urlcanon__{name}.json"
    ));
    serde_json::from_str(&text).unwrap()
}

fn bytes_of(s: &str) -> Vec<u8> {
    if s.chars().all(|c| (c as u32) < 256) {
        s.chars().map(|c| c as u8).collect()
    } else {
        s.as_bytes().to_vec()
    }
}

fn text_of(s: &str) -> String {
    String::from_utf8_lossy(&bytes_of(s)).into_owned()
}

fn semantic_precise() -> Profile {
    let mut p = Profile::builtin("whatwg")
        .unwrap()
        .edit(&[
            Rule::DefaultScheme.name(),
            Rule::DropUserinfo.name(),
            Rule::DropTrailingHostDot.name(),
            Rule::DecodeSafe.name(),
            Rule::UppercasePercentEncoding.name(),
            Rule::CollapseSlashes.name(),
            Rule::SortQueryPairs.name(),
        ])
        .unwrap();
    p.name = "urlcanon-semantic-precise".into();
    p
}

/// A comparison result: (file/group, input, ours, expected).
type Case = (String, String, String, String);

fn compare(
    cases: &mut Vec<Case>,
    total: &mut BTreeMap<String, usize>,
    group: &str,
    input: &str,
    ours: String,
    expected: String,
) {
    *total.entry(group.to_owned()).or_default() += 1;
    if ours != expected {
        cases.push((group.to_owned(), input.to_owned(), ours, expected));
    }
}

fn canon_or_err(c: &mut Canonicalizer, input: &str) -> String {
    match c.canonicalize(input) {
        Ok(s) => s.to_owned(),
        Err(e) => format!("<error: {e}>"),
    }
}

fn str_map(v: &Value) -> Vec<(String, Value)> {
    v.as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

#[test]
fn urlcanon_expectations() {
    let mut diffs: Vec<Case> = Vec::new();
    let mut total: BTreeMap<String, usize> = BTreeMap::new();

    let mut whatwg = Canonicalizer::new(Profile::builtin("whatwg").unwrap());
    for (i, e) in str_map(&load("supplemental_whatwg")) {
        let ours = canon_or_err(&mut whatwg, &text_of(&i));
        compare(
            &mut diffs,
            &mut total,
            "supplemental_whatwg",
            &i,
            ours,
            e.as_str().unwrap().to_owned(),
        );
    }
    let mut sp = Canonicalizer::new(semantic_precise());
    for (i, e) in str_map(&load("semantic_precise")) {
        let ours = canon_or_err(&mut sp, &text_of(&i));
        compare(
            &mut diffs,
            &mut total,
            "semantic_precise",
            &i,
            ours,
            e.as_str().unwrap().to_owned(),
        );
    }
    let mut aggressive = Canonicalizer::new(Profile::builtin("aggressive").unwrap());
    for (i, e) in str_map(&load("aggressive")) {
        let ours = canon_or_err(&mut aggressive, &text_of(&i));
        compare(
            &mut diffs,
            &mut total,
            "aggressive",
            &i,
            ours,
            e.as_str().unwrap().to_owned(),
        );
    }

    let mut ia = Canonicalizer::new(Profile::builtin("surt").unwrap());
    for (group, cases) in str_map(&load("surt")) {
        let g = format!("surt/{group}");
        for (i, e) in str_map(&cases) {
            let expected = e.as_str().unwrap().to_owned();
            let ours = match group.as_str() {
                "Canonicalizer.IA" | "Canonicalizer.DefaultIA" => {
                    canon_or_err(&mut ia, &text_of(&i))
                }
                "defaultIASurt" => surt::ia_canonicalize(&bytes_of(&i)).surt,
                "google" | "googleSupplementalFromSurt" => {
                    safebrowsing::canonicalize(&bytes_of(&i))
                }
                "unescapeRepeatedly" => {
                    String::from_utf8_lossy(&safebrowsing::unescape_repeatedly(i.as_bytes()))
                        .into_owned()
                }
                "alphaRorderQuery" => surt::alpha_reorder_query(&i),
                "massageHost" => {
                    let mut h = i.clone();
                    surt::massage_host(&mut h);
                    h
                }
                "stripPathSessionId" => surt::strip_path_session_id(&i),
                other => panic!("unmapped group surt/{other}: map it to a profile or function"),
            };
            compare(&mut diffs, &mut total, &g, &i, ours, expected);
        }
    }

    for (group, cases) in str_map(&load("ssurt")) {
        let g = format!("ssurt/{group}");
        for (i, e) in str_map(&cases) {
            let ours = match group.as_str() {
                "ssurtHost" => surt::ssurt_host(&i),
                "reverseHost" => surt::reverse_host(&i),
                "ssurt" => surt::ssurt(&i),
                "surt" => surt::surt(
                    &i,
                    surt::SurtOptions {
                        with_scheme: true,
                        trailing_comma: true,
                        ..surt::SurtOptions::default()
                    },
                ),
                "surtWithoutScheme" => surt::surt(
                    &i,
                    surt::SurtOptions {
                        with_scheme: false,
                        trailing_comma: true,
                        ..surt::SurtOptions::default()
                    },
                ),
                "surtWithoutTrailingComma" => surt::surt(
                    &i,
                    surt::SurtOptions {
                        with_scheme: true,
                        trailing_comma: false,
                        ..surt::SurtOptions::default()
                    },
                ),
                other => panic!("unmapped group ssurt/{other}"),
            };
            compare(
                &mut diffs,
                &mut total,
                &g,
                &i,
                ours,
                e.as_str().unwrap().to_owned(),
            );
        }
    }

    for (kind, cases) in str_map(&load("path_dots")) {
        let base = if kind == "special" {
            "http://h"
        } else {
            "foo://h"
        };
        let g = format!("path_dots/{kind}");
        for (path, e) in str_map(&cases) {
            let ours = match spinneret_url::Url::parse(&format!("{base}{path}")) {
                Ok(u) => u.pathname().to_owned(),
                Err(e) => format!("<error: {e}>"),
            };
            compare(
                &mut diffs,
                &mut total,
                &g,
                &path,
                ours,
                e.as_str().unwrap().to_owned(),
            );
        }
    }

    for (host, e) in str_map(&load("funky_ipv4")) {
        let ours = match safebrowsing::parse_ipv4(host.as_bytes()) {
            Some(v) => std::net::Ipv4Addr::from(v).to_string(),
            None => "null".into(),
        };
        let expected = e.as_str().map_or("null".to_owned(), str::to_owned);
        compare(&mut diffs, &mut total, "funky_ipv4", &host, ours, expected);
    }

    // Idempotence: every built-in profile, every input it accepts.
    let inputs: Vec<String> = load("idempotence")
        .as_array()
        .unwrap()
        .iter()
        .map(|v| text_of(v.as_str().unwrap()))
        .collect();
    for name in Profile::BUILTIN {
        let mut c = Canonicalizer::new(Profile::builtin(name).unwrap());
        for i in &inputs {
            let Ok(once) = c.canonicalize(i).map(str::to_owned) else {
                continue;
            };
            let twice = canon_or_err(&mut c, &once);
            compare(
                &mut diffs,
                &mut total,
                &format!("idempotence/{name}"),
                i,
                twice,
                once,
            );
        }
    }

    // Report and check against the deviation table.
    let deviations: BTreeMap<(&str, &str), (&str, &str)> = DEVIATIONS
        .iter()
        .map(|&(g, i, ours, why)| ((g, i), (ours, why)))
        .collect();
    let mut unexplained = Vec::new();
    let mut per_group: BTreeMap<&str, usize> = BTreeMap::new();
    for (g, i, ours, expected) in &diffs {
        match deviations.get(&(g.as_str(), i.as_str())) {
            Some((listed, _)) if *listed == ours => *per_group.entry(g.as_str()).or_default() += 1,
            _ => unexplained.push(format!(
                "{g}: {i:?}\n    ours:     {ours:?}\n    urlcanon: {expected:?}"
            )),
        }
    }
    let stale: Vec<_> = DEVIATIONS
        .iter()
        .filter(|(g, i, _, _)| !diffs.iter().any(|d| d.0 == *g && d.1 == *i))
        .collect();
    println!("urlcanon expectations: group, cases, same as urlcanon, listed deviations");
    for (g, n) in &total {
        let dev = per_group.get(g.as_str()).copied().unwrap_or(0);
        println!(
            "  {g:<40} {n:>5} {:>5} {dev:>5}",
            n - diffs.iter().filter(|d| &d.0 == g).count()
        );
    }
    println!("listed deviations and why:");
    for (g, i, ours, why) in DEVIATIONS {
        println!("  {g}: {i:?} -> {ours:?}: {why}");
    }
    assert!(
        stale.is_empty(),
        "listed deviations that no longer occur: {stale:?}"
    );
    assert!(
        unexplained.is_empty(),
        "{} unexplained differences:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}

include!("data/urlcanon_deviations.rs");
