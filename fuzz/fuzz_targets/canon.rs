//! Canonicalization under every built-in profile: idempotence
//! (`canon(canon(x)) == canon(x)`), key stability (the key of `x` is the key
//! of `canon(x)`, and `key_hash` is the hash of the key), and
//! `canonicalize_url` of the parsed input agrees with `canonicalize` of the
//! text. The SURT helpers run on the input too (no panic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_canon::{Canonicalizer, Engine, KeyHash, Profile, surt};
use spinneret_url::Url;
use std::sync::Mutex;

/// One canonicalizer per built-in profile, kept across runs (as a crawler
/// keeps them: their buffers must not leak state from one URL to the next).
static CANONICALIZERS: Mutex<Vec<Canonicalizer>> = Mutex::new(Vec::new());

fuzz_target!(|data: &[u8]| {
    let _ = surt::ia_canonicalize(data);
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
        // The Internet Archive engine strips one leading `www`/`wwwN` label
        // per pass, as IA does (its keys must equal IA's CDX keys): a
        // second pass may strip the next one, and then normalize what is
        // left as an IPv4 address (`www.0` → `0.0.0.0`) as a pass over the
        // stripped text would (documented in crates/canon/tests/idempotence.rs).
        if canon.profile().engine == Engine::InternetArchive
            && let Some(stripped) = without_one_www(&once)
            && (twice == stripped || canon.canonicalize(&stripped).is_ok_and(|s| s == twice))
        {
            continue;
        }
        assert_eq!(twice, once, "{name}: not idempotent on {input:?}");

        let key = canon.key(input).expect("canonicalizes").to_owned();
        let key_of_canonical = canon.key(&once).expect("canonicalizes").to_owned();
        assert_eq!(
            key_of_canonical, key,
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

/// `url` with the leading `www`/`wwwN` label of its host removed, if it has
/// one.
fn without_one_www(url: &str) -> Option<String> {
    let at = url.find("://www")?;
    let rest = &url[at + 6..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let host_on = rest[digits..].strip_prefix('.')?;
    Some(format!("{}://{host_on}", &url[..at]))
}
