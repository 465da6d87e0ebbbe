//! Crawler URL canonicalization: every step a documented rule, named
//! profiles built from them, SURT and Safe Browsing keys, and the evaluation
//! of a policy on a crawl with the metrics of Lee, Kim & Hong, "On URL
//! Normalization" (2005).
//!
//! Why rules and profiles: the standard normalizations (WHATWG, RFC 3986 §6)
//! never merge two different pages but leave much duplication; crawler
//! conventions remove more at the risk of merging pages that differ. Which
//! trade-off is right depends on the crawl, so each step is a [`Rule`] with
//! its false-merge risk written down, a [`Profile`] is a set of rules, and
//! [`eval`] measures a profile on the user's own crawl.
//!
//! ```
//! use spinneret_canon::{Canonicalizer, Profile};
//!
//! let mut c = Canonicalizer::new(Profile::builtin("aggressive").unwrap());
//! assert_eq!(
//!     c.canonicalize("https://WWW.Example.com/a/?utm_source=x&b=2&a=1#top").unwrap(),
//!     "http://example.com/a?a=1&b=2"
//! );
//! // `safe` drops in-page anchors but keeps hash-bang and `#/` routes.
//! let mut safe = Canonicalizer::new(Profile::safe());
//! assert_eq!(safe.canonicalize("http://example.com/#top").unwrap(), "http://example.com/");
//! assert_eq!(
//!     safe.canonicalize("http://example.com/#!/user/42").unwrap(),
//!     "http://example.com/#!/user/42"
//! );
//! let mut surt = Canonicalizer::new(Profile::builtin("surt").unwrap());
//! assert_eq!(surt.key("http://www.example.com/a?b=1").unwrap(), "com,example)/a?b=1");
//! ```
//!
//! Invariants:
//! - Every profile is idempotent: `canon(canon(u)) == canon(u)`
//!   (tests/idempotence.rs checks every corpus URL list), with one
//!   documented exception: the Internet Archive engine (`surt`) removes per
//!   pass, as IA's canonicalizer does and its CDX keys require, one leading
//!   `www` label and the last of each query session id, so a URL with two
//!   of either loses one more on a second pass.
//! - WHATWG-based profiles always return a WHATWG-serialized URL: after the
//!   rules, the result is parsed again, and a rule result that would not
//!   survive that is an error, never a silently different URL.
//! - A [`Canonicalizer`] reuses its buffers: no allocation per URL beyond the
//!   parse and the returned text.
//!
//! Modules: `rules` (the steps), `profile` (built-ins, TOML, edits),
//! `parts` (the editable URL), `surt` (Internet Archive canonicalizer, SURT,
//! SSURT), `surt_options` (the PyPI `surt` package's options and
//! canonicalizer choices over that engine), `safebrowsing` (Google),
//! `lenient` (the raw splitter those two use), `percent`, `key` (128-bit
//! key hashes), `eval` (the paper's metrics), `simhash` (near-duplicate
//! content keys), `report` (tables and the HTML report).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod lenient;
mod parts;
mod percent;
mod profile;
mod rules;

pub mod eval;
pub mod key;
pub mod report;
pub mod safebrowsing;
pub mod simhash;
pub mod surt;
pub mod surt_options;

pub use key::KeyHash;
pub use parts::Parts;
pub use profile::{Engine, KeyForm, Profile, ProfileError};
pub use rules::{DEFAULT_PAGES, Lists, Rule, RuleSet, TRACKING_PARAMS};

use spinneret_url::{HostKind, ParseError, Url};

/// Why a URL has no canonical form under a profile.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// The WHATWG parser rejects the input.
    #[error("not a URL: {0}")]
    Parse(#[from] ParseError),
    /// A rule produced text the WHATWG parser does not read back
    /// (reported, never returned as a key).
    #[error("canonical form {0:?} does not re-parse")]
    Unstable(String),
}

/// Applies one profile to many URLs, reusing its buffers.
pub struct Canonicalizer {
    profile: Profile,
    parts: Parts,
    scratch: rules::Scratch,
    out: String,
    key: String,
}

impl Canonicalizer {
    /// A canonicalizer for `profile`.
    pub fn new(profile: Profile) -> Canonicalizer {
        Canonicalizer {
            profile,
            parts: Parts::default(),
            scratch: rules::Scratch::default(),
            out: String::new(),
            key: String::new(),
        }
    }

    /// The profile.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The canonical URL of `input` (absolute; for [`Engine::Whatwg`]
    /// profiles parsed by the WHATWG parser).
    pub fn canonicalize(&mut self, input: &str) -> Result<&str, CanonError> {
        match self.profile.engine {
            Engine::Whatwg => {
                let url = match Url::parse(input) {
                    Ok(u) => u,
                    Err(ParseError::MissingSchemeNonRelativeUrl)
                        if self.profile.rules.contains(Rule::DefaultScheme) =>
                    {
                        Url::parse(&format!("http://{}", input.trim_start()))?
                    }
                    Err(e) => return Err(e.into()),
                };
                self.apply(&url)?;
            }
            Engine::SafeBrowsing => self.out = safebrowsing::canonicalize(input.as_bytes()),
            Engine::InternetArchive => self.out = surt::ia_canonicalize(input.as_bytes()).url,
        }
        Ok(&self.out)
    }

    /// The canonical URL of an already parsed URL (the links pipeline's
    /// targets). Byte-level engines read its serialization.
    pub fn canonicalize_url(&mut self, url: &Url) -> Result<&str, CanonError> {
        match self.profile.engine {
            Engine::Whatwg => {
                self.apply(url)?;
                Ok(&self.out)
            }
            _ => self.canonicalize(url.href()),
        }
    }

    /// The profile's key of `input`: the canonical URL, or its SURT.
    pub fn key(&mut self, input: &str) -> Result<&str, CanonError> {
        match (self.profile.key, self.profile.engine) {
            (KeyForm::Url, _) => self.canonicalize(input),
            (KeyForm::Surt, Engine::InternetArchive) => {
                self.key = surt::ia_canonicalize(input.as_bytes()).surt;
                Ok(&self.key)
            }
            (KeyForm::Surt, _) => {
                self.canonicalize(input)?;
                let url = std::mem::take(&mut self.out);
                self.key.clear();
                surt_of(&url, &mut self.key);
                self.out = url;
                Ok(&self.key)
            }
        }
    }

    /// The 128-bit hash of [`Canonicalizer::key`] (for deduplicating huge
    /// URL sets without keeping strings).
    pub fn key_hash(&mut self, input: &str) -> Result<KeyHash, CanonError> {
        Ok(KeyHash::of(self.key(input)?))
    }

    fn apply(&mut self, url: &Url) -> Result<(), CanonError> {
        self.out.clear();
        if self.profile.rules == RuleSet::EMPTY {
            self.out.push_str(url.href());
            return Ok(());
        }
        self.parts.load(url);
        rules::apply(
            self.profile.rules,
            &self.profile.lists,
            &mut self.parts,
            &mut self.scratch,
        );
        self.parts.serialize_into(&mut self.out);
        // Re-parse: the result is the WHATWG serialization of the rules'
        // output (see the crate invariants).
        match Url::parse(&self.out) {
            Ok(u) => {
                if u.href() != self.out {
                    self.out.clear();
                    self.out.push_str(u.href());
                }
                Ok(())
            }
            Err(_) => Err(CanonError::Unstable(std::mem::take(&mut self.out))),
        }
    }
}

/// The SURT of a WHATWG-serialized URL (scheme dropped, as in CDX keys);
/// URLs without a host are their own key. A fragment the profile kept (a
/// `#!` or `#/` route) stays in the key, so routes stay distinct.
fn surt_of(href: &str, out: &mut String) {
    let Ok(u) = Url::parse(href) else {
        out.push_str(href);
        return;
    };
    if !u.has_host() || u.host_kind() == HostKind::Empty {
        out.push_str(href);
        return;
    }
    surt::surt_key(
        u.hostname(),
        u.host_kind() == HostKind::Domain,
        u.port(),
        u.pathname(),
        u.query(),
        u.fragment(),
        out,
    );
}

/// Canonicalizes one URL with a built-in or custom profile (convenience; use
/// a [`Canonicalizer`] for many URLs).
pub fn canonicalize(input: &str, profile: &Profile) -> Result<String, CanonError> {
    Canonicalizer::new(profile.clone())
        .canonicalize(input)
        .map(str::to_owned)
}
