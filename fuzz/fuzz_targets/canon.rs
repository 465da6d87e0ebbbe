//! Canonicalization under every built-in profile: idempotence
//! (`canon(canon(x)) == canon(x)`), key stability (the key of `x` is the key
//! of `canon(x)`, and `key_hash` is the hash of the key), and
//! `canonicalize_url` of the parsed input agrees with `canonicalize` of the
//! text. The SURT helpers run on the input too (no panic).
#![no_main]

#[path = "../../crates/canon/tests/support/ia_passes.rs"]
mod ia_passes;

use libfuzzer_sys::fuzz_target;
use spinneret_canon::{Canonicalizer, Engine, KeyHash, Profile, surt};
use spinneret_url::Url;
use std::sync::Mutex;

/// One canonicalizer per built-in profile, kept across runs (as a crawler
/// keeps them: their buffers must not leak state from one URL to the next).
static CANONICALIZERS: Mutex<Vec<Canonicalizer>> = Mutex::new(Vec::new());

fuzz_target!(|data: &[u8]| {
    let _ = surt::ia_canonicalize(data);
    surt_options(data);
    let Ok(input) = std::str::from_utf8(data) else {
        return;
    };
    let _ = surt::ssurt(input);
    let mut canonicalizers = CANONICALIZERS.lock().expect("not poisoned");
    if canonicalizers.is_empty() {
        for name in Profile::BUILTIN {
            canonicalizers.push(Canonicalizer::new(
                Profile::builtin(name).expect("built-in"),
            ));
        }
    }
    for canon in canonicalizers.iter_mut() {
        let name = canon.profile().name.clone();
        let Ok(once) = canon.canonicalize(input).map(str::to_owned) else {
            continue;
        };
        let twice = canon
            .canonicalize(&once)
            .map(str::to_owned)
            .unwrap_or_else(|e| panic!("{name}: {once:?} (from {input:?}) fails: {e:?}"));
        // The Internet Archive engine removes one leading `www`/`wwwN`
        // label and the last of each query session id per pass, as IA does
        // (its keys must equal IA's CDX keys): a second pass may remove one
        // more, and then go on as a pass over the shorter text would
        // (crates/canon/tests/support/ia_passes.rs).
        if canon.profile().engine == Engine::InternetArchive
            && ia_passes::is_one_more_ia_removal(&once, &twice, |s| {
                canon.canonicalize(s).ok().map(str::to_owned)
            })
        {
            continue;
        }
        assert_eq!(twice, once, "{name}: not idempotent on {input:?}");

        let key = canon.key(input).expect("canonicalizes").to_owned();
        let key_of_canonical = canon.key(&once).expect("canonicalizes").to_owned();
        // A key without a host part (`Http:/x` for `Http:///x`, the surt
        // package's form for an empty authority) keeps the scheme as
        // written, as the package does; canonicalization lowercases it.
        assert_eq!(
            scheme_lowercased(&key_of_canonical),
            scheme_lowercased(&key),
            "{name}: key of {input:?} vs of {once:?}"
        );
        let hash = canon.key_hash(input).expect("canonicalizes");
        assert_eq!(hash, KeyHash::of(&key), "{name}: key_hash of {input:?}");

        if let Ok(url) = Url::parse(input)
            && let Ok(from_url) = canon.canonicalize_url(&url)
        {
            // The URL's serialization is what the text parses to; both
            // canonicalize the same URL.
            let from_url = from_url.to_owned();
            let from_href = canon.canonicalize(url.href()).map(str::to_owned);
            assert_eq!(Ok(from_url), from_href, "{name}: {input:?}");
        }
    }
});

/// The PyPI `surt` package's options and canonicalizers (`surt_with`) on
/// the input less its last three bytes, which choose them: one bit per
/// option, three for the canonicalizer (chains included). No panic.
fn surt_options(data: &[u8]) {
    use surt::SurtCanonicalizer::{Chain, Default, Google, Ia, Identity};
    let [rest @ .., a, b, c] = data else {
        return;
    };
    let bits = u32::from_le_bytes([*a, *b, *c, 0]);
    let mut options = surt::SurtOptions::default();
    for (i, name) in surt::SurtOptions::NAMES.iter().enumerate() {
        options.set(name, bits >> i & 1 == 1).expect("a known name");
    }
    let canonicalizer = match bits >> 21 & 7 {
        0 => Default,
        1 => Google,
        2 => Ia,
        3 => Identity,
        4 => Chain(vec![Ia, Google]),
        5 => Chain(vec![Google, Google, Ia]),
        _ => Chain(vec![Identity, Default, Ia]),
    };
    let _ = surt::surt_with(rest, &canonicalizer, &options);
}

/// `key` with a leading `scheme:` lower-cased (other keys as they are).
fn scheme_lowercased(key: &str) -> String {
    match key.split_once(':') {
        Some((scheme, rest))
            if scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) =>
        {
            format!("{}:{rest}", scheme.to_ascii_lowercase())
        }
        _ => key.to_owned(),
    }
}
