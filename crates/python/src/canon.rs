//! `spinneret.canonicalize`, `surt` and `registrable_domain`: the
//! canonicalization profiles and rules of `spinneret canon` (crates/canon).
//! `surt(url, canonicalizer=None, **options)` takes the PyPI `surt`
//! package's arguments (crates/canon/src/surt_options.rs).
//!
//! Invariant: the same URL, profile and rules give the same string as
//! `spinneret canon --profile P --rule R…` (second column) and `surt` the
//! same as its third column (with `--surt-option`/`--surt-canonicalizer`
//! for options); the tests compare them over the corpus's URL
//! lists. Each thread keeps the canonicalizer it built last, so a loop over
//! URLs with one profile builds it once.

use std::cell::RefCell;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple};
use spinneret_canon::surt::{SurtCanonicalizer, SurtOptions, surt_string, surt_with};
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

/// `surt.surt(url, canonicalizer=None, **options)` of the PyPI `surt`
/// package: the URL's CDX key (Internet Archive canonicalization and
/// SURT). With no options it is the third column of `spinneret canon`.
///
/// `canonicalizer`: `None` or `"default"` (Google's then IA's), `"google"`,
/// `"ia"`, `"identity"`, or a list or tuple of those applied in order (the
/// package's canonicalizer functions are not accepted: pass the name).
/// `options`: the package's, with its names, defaults and meanings —
/// `with_scheme`, `trailing_comma`, `reverse_ipaddr`, `public_suffix`,
/// `surt`, and the IA canonicalizer's `host_lowercase`, `host_massage`,
/// `auth_strip_user`, `auth_strip_pass`, `port_strip_default`,
/// `path_strip_empty`, `path_lowercase`, `path_strip_session_id`,
/// `path_strip_trailing_slash_unless_empty`, `query_lowercase`,
/// `query_strip_session_id`, `query_strip_empty`, `query_alpha_reorder`,
/// `hash_strip`; values are read for their truth, as the package does.
/// One more is ours, off by default: `query_keep_escaped_delimiters`
/// (Google's step keeps `%26`, `%3D`, `%2B` in the query: the key the
/// package's own known-failure test expects).
/// An unknown option raises `TypeError`, an unknown canonicalizer name
/// `ValueError`.
///
/// As the package: `str` in, `str` out; `bytes` in, `bytes` out (the key
/// keeps the input's bytes where no Google step escapes them); `None` gives
/// `"-"`. Where the result differs from the package's (URLs without an
/// authority, hosts that normalize to nothing, the package's own bugs),
/// see `crates/canon/src/surt_options.rs` and the differential test
/// `tests/test_surt_package.py`.
#[pyfunction]
#[pyo3(signature = (url, canonicalizer = None, **options))]
pub fn surt<'py>(
    py: Python<'py>,
    url: Option<&Bound<'py, PyAny>>,
    canonicalizer: Option<&Bound<'py, PyAny>>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (canonicalizer, options) = surt_args(canonicalizer, options)?;
    let Some(url) = url.filter(|u| !u.is_none()) else {
        return Ok(PyString::new(py, "-").into_any());
    };
    if let Ok(b) = url.cast::<PyBytes>() {
        let key = surt_with(b.as_bytes(), &canonicalizer, &options);
        return Ok(PyBytes::new(py, &key).into_any());
    }
    let Ok(text) = url.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "surt() takes a str or bytes URL, not {}",
            url.get_type()
                .name()
                .map_or_else(|_| "?".into(), |n| n.to_string())
        )));
    };
    // A lone surrogate raises UnicodeEncodeError, as the package's encode.
    let text = text.to_str()?;
    let key = surt_string(text.as_bytes(), &canonicalizer, &options);
    Ok(PyString::new(py, &key).into_any())
}

/// The canonicalizer and options of `surt` and `surt_array`.
pub fn surt_args(
    canonicalizer: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(SurtCanonicalizer, SurtOptions)> {
    let canonicalizer = match canonicalizer.filter(|c| !c.is_none()) {
        None => SurtCanonicalizer::Default,
        Some(c) => canonicalizer_arg(c)?,
    };
    let mut opts = SurtOptions::default();
    if let Some(options) = options {
        let mut unknown = Vec::new();
        for (k, v) in options.iter() {
            let name: String = k.extract()?;
            match opts.set(&name, v.is_truthy()?) {
                Ok(()) => {}
                Err(_) => unknown.push(crate::repr::py_repr(&name)),
            }
        }
        if !unknown.is_empty() {
            return Err(PyTypeError::new_err(format!(
                "surt() got unknown option{} {} (options: {})",
                if unknown.len() > 1 { "s" } else { "" },
                unknown.join(", "),
                SurtOptions::NAMES.join(", ")
            )));
        }
    }
    Ok((canonicalizer, opts))
}

/// A name, or a list or tuple of names.
fn canonicalizer_arg(c: &Bound<'_, PyAny>) -> PyResult<SurtCanonicalizer> {
    let value_error =
        |e: spinneret_canon::surt::SurtOptionError| PyValueError::new_err(e.to_string());
    if let Ok(name) = c.extract::<String>() {
        return SurtCanonicalizer::from_name(&name).map_err(value_error);
    }
    if c.is_instance_of::<PyList>() || c.is_instance_of::<PyTuple>() {
        let mut chain = Vec::new();
        for item in c.try_iter()? {
            let item = item?;
            let name: String = item.extract().map_err(|_| not_a_canonicalizer(&item))?;
            chain.push(SurtCanonicalizer::from_name(&name).map_err(value_error)?);
        }
        return Ok(SurtCanonicalizer::Chain(chain));
    }
    Err(not_a_canonicalizer(c))
}

fn not_a_canonicalizer(c: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!(
        "canonicalizer: expected None, a name ({}) or a list of names, not {}",
        SurtCanonicalizer::NAMES.join(", "),
        c.repr().map_or_else(|_| "?".into(), |r| r.to_string())
    ))
}

/// The registrable domain of the URL's host (public suffix and one more
/// label, by the Public Suffix List); `None` when the host is not a
/// domain, is itself a public suffix, or `url` is not a URL.
#[pyfunction]
pub fn registrable_domain(url: &str) -> Option<String> {
    let url = Url::parse(url).ok()?;
    url.registrable_domain().map(str::to_owned)
}

/// The URL's host as Common Crawl's web graphs name it: its labels
/// reversed (`com.example.www`), `None` when the graph leaves it out (an
/// IP address, a single label, an invalid label, a scheme that names no
/// web host such as `android-app:`, or `url` not a URL). `strip_www`
/// drops a leading `www.` as the graphs before 2026 did.
#[pyfunction]
#[pyo3(signature = (url, strip_www = false))]
pub fn surt_host(url: &str, strip_www: bool) -> Option<String> {
    let url = Url::parse(url).ok()?;
    spinneret_graph::url_surt_host(&url, spinneret_graph::SurtHostOptions { strip_www })
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
