//! `spinneret.canonicalize`, `surt` and `registrable_domain`: the
//! canonicalization profiles and rules of `spinneret canon` (crates/canon).
//!
//! Invariant: the same URL, profile and rules give the same string as
//! `spinneret canon --profile P --rule R…` (second column) and `surt` the
//! same as its third column; the tests compare them over the corpus's URL
//! lists. Each thread keeps the canonicalizer it built last, so a loop over
//! URLs with one profile builds it once.

use std::cell::RefCell;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use spinneret_canon::{Canonicalizer, Profile, Rule};
use spinneret_url::Url;

thread_local! {
    /// The last profile (name and rule edits) built on this thread.
    static LAST: RefCell<Option<(String, Vec<String>, Canonicalizer)>> = const { RefCell::new(None) };
}

/// The profile `name` with the rule edits `rules` (`name` or `+name` adds,
/// `-name` removes), as `spinneret canon --profile name --rule …` builds it.
pub fn profile(name: &str, rules: &[String]) -> PyResult<Profile> {
    let base = Profile::builtin(name).map_err(|e| {
        PyValueError::new_err(format!("{e} (profiles: {})", Profile::BUILTIN.join(", ")))
    })?;
    base.edit(rules)
        .map_err(|e| PyValueError::new_err(format!("{e} (rules: see spinneret.rules())")))
}

/// Runs `f` with the canonicalizer of `name` and `rules`, built once per
/// thread while they stay the same.
pub fn with_canonicalizer<T>(
    name: &str,
    rules: &[String],
    f: impl FnOnce(&mut Canonicalizer) -> T,
) -> PyResult<T> {
    LAST.with_borrow_mut(|last| {
        let same = matches!(last, Some((n, r, _)) if n == name && r == rules);
        if !same {
            let c = Canonicalizer::new(profile(name, rules)?);
            *last = Some((name.to_owned(), rules.to_vec(), c));
        }
        match last {
            Some((_, _, c)) => Ok(f(c)),
            None => Err(PyValueError::new_err("no canonicalizer")),
        }
    })
}

/// `url` canonicalized by the profile `profile` (`whatwg`, `safe`,
/// `lee2005`, `aggressive`, `surt`, `safebrowsing`) with the rule edits
/// `rules` (`"name"`/`"+name"` adds a rule, `"-name"` removes one).
/// Raises `ValueError` when the profile or a rule is unknown, or when the
/// URL has no canonical form under the profile.
#[pyfunction]
#[pyo3(signature = (url, profile = "safe", rules = Vec::new()))]
pub fn canonicalize(url: &str, profile: &str, rules: Vec<String>) -> PyResult<String> {
    with_canonicalizer(profile, &rules, |c| {
        c.canonicalize(url)
            .map(str::to_owned)
            .map_err(|e| PyValueError::new_err(format!("{e} (input {url:?})")))
    })?
}

/// The URL's CDX key: Internet Archive canonicalization and SURT, as the
/// third column of `spinneret canon` (it accepts any string).
#[pyfunction]
pub fn surt(url: &str) -> String {
    spinneret_canon::surt::ia_canonicalize(url.as_bytes()).surt
}

/// The registrable domain of the URL's host (public suffix and one more
/// label, by the Public Suffix List); `None` when the host is not a
/// domain, is itself a public suffix, or `url` is not a URL.
#[pyfunction]
pub fn registrable_domain(url: &str) -> Option<String> {
    let url = Url::parse(url).ok()?;
    url.registrable_domain().map(str::to_owned)
}

/// The built-in profiles' names.
#[pyfunction]
pub fn profiles() -> Vec<&'static str> {
    Profile::BUILTIN.to_vec()
}

/// Every rule: `(name, summary)`.
#[pyfunction]
pub fn rules() -> Vec<(&'static str, &'static str)> {
    Rule::ALL.iter().map(|r| (r.name(), r.summary())).collect()
}
