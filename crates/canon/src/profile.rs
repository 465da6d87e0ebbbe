//! Profiles: named sets of rules, plus the key form.
//!
//! Built-in profiles (see [`Profile::BUILTIN`]):
//!
//! | profile | what it is |
//! |---|---|
//! | `whatwg` | WHATWG parse + serialize, nothing else |
//! | `safe` | `whatwg` + the RFC 3986 §6 semantic-preserving steps (decode unreserved, upper-case hex, drop trailing host dot) + drop in-page anchors but keep `#!`/`#/` route fragments — the default; never merges different pages |
//! | `lee2005` | `safe` + Lee, Kim & Hong (2005): lower-case path, add trailing slash, remove default pages, drop every fragment |
//! | `aggressive` | `safe` + crawler conventions (urlcanon's "aggressive"): www, https, userinfo, session ids, tracking parameters, empty parameters, sorting, lower-casing, slashes, every fragment |
//! | `surt` | the Internet Archive canonicalizer, keyed by SURT (CDX-compatible) |
//! | `safebrowsing` | Google Safe Browsing canonicalization |
//!
//! What "never merges different pages" means for `safe`: two URLs get one
//! key only if a browser sends the same request for both (the WHATWG parser's
//! own normalizations: host case and IDNA, IPv4 forms, default port, dot
//! segments) or RFC 3986 §6.2.2 defines them equal (unreserved `%XX`, hex
//! case), and, once loaded, shows the same route (in-page anchors differ
//! only by scroll position; `#!` and `#/` routes are kept). Path case, query
//! order and duplicates, trailing slashes, default pages, `www.`, empty
//! queries and encoded delimiters (`%2F`, `%3F`, `%26`, `%3D`, `%23`) are
//! all kept: each can select a different page (see each [`Rule`] for the
//! evidence). The one residual risk is a router whose routes look like
//! anchors (`#about`, see [`Rule::DropAnchor`]). `surt` and `safebrowsing`
//! follow external algorithms that drop every fragment, so they do not keep
//! routes.
//!
//! Custom profiles start from a built-in and add or remove rules, from CLI
//! flags ([`Profile::edit`]) or a small TOML file ([`Profile::from_toml`]):
//!
//! ```toml
//! base = "safe"                     # a built-in profile to start from
//! add = ["strip-www", "sort-query"] # rule names (see `Rule::name`)
//! remove = ["drop-anchor"]        # keep every fragment
//! key = "url"                       # or "surt"
//! extra_tracking_params = ["ref_src"]
//! # default_pages = [...], tracking_params = [...] replace the lists
//! ```

use crate::rules::{Lists, Rule, RuleSet};
use serde::Deserialize;

/// Which canonicalizer a profile runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// WHATWG parse, then the profile's rules.
    Whatwg,
    /// Google Safe Browsing canonicalization (rules do not apply).
    SafeBrowsing,
    /// The Internet Archive canonicalizer (rules do not apply).
    InternetArchive,
}

/// What a profile's key is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyForm {
    /// The canonical URL itself.
    Url,
    /// The SURT of the canonical URL (`com,example)/path?q#!/route`): the
    /// scheme and userinfo are not part of it (as in CDX keys), a kept
    /// fragment is.
    Surt,
}

/// A canonicalization policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Its name (a built-in's, or the one a custom profile was given).
    pub name: String,
    /// The canonicalizer.
    pub engine: Engine,
    /// The rules (for [`Engine::Whatwg`]).
    pub rules: RuleSet,
    /// The lists rules use.
    pub lists: Lists,
    /// The key form.
    pub key: KeyForm,
}

/// Why a profile could not be built.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProfileError {
    /// Not a built-in profile.
    #[error(
        "unknown profile {0:?} (built-in: whatwg, safe, lee2005, aggressive, surt, safebrowsing)"
    )]
    UnknownProfile(String),
    /// Not a rule name.
    #[error("unknown rule {0:?} (see `spinneret canon --list-rules`)")]
    UnknownRule(String),
    /// Rules only apply to WHATWG-based profiles.
    #[error(
        "profile {0:?} has its own fixed algorithm; rules cannot be added to or removed from it"
    )]
    FixedProfile(String),
    /// The TOML file is malformed.
    #[error("profile file: {0}")]
    Toml(String),
    /// A key form other than `url` / `surt`.
    #[error("unknown key form {0:?} (url, surt)")]
    UnknownKey(String),
}

const SAFE: &[Rule] = &[
    Rule::DecodeUnreserved,
    Rule::UppercasePercentEncoding,
    Rule::DropAnchor,
    Rule::DropTrailingHostDot,
];

const LEE2005: &[Rule] = &[
    Rule::LowercasePath,
    Rule::AddTrailingSlash,
    Rule::RemoveDefaultPage,
    // The paper's "standard normalization" truncates every fragment.
    Rule::DropFragment,
];

const AGGRESSIVE: &[Rule] = &[
    Rule::DefaultScheme,
    Rule::DropUserinfo,
    Rule::FoldHttps,
    Rule::StripWww,
    Rule::DecodeSafe,
    Rule::RemoveSessionIds,
    Rule::CollapseSlashes,
    Rule::LowercasePath,
    Rule::RemoveTrailingSlash,
    Rule::RemoveTrackingParams,
    Rule::DropEmptyParams,
    Rule::LowercaseQuery,
    Rule::SortQuery,
    Rule::DropEmptyQuery,
    Rule::DropFragment,
];

impl Profile {
    /// The built-in profile names.
    pub const BUILTIN: [&'static str; 6] = [
        "whatwg",
        "safe",
        "lee2005",
        "aggressive",
        "surt",
        "safebrowsing",
    ];

    /// The built-in profile `name`.
    pub fn builtin(name: &str) -> Result<Profile, ProfileError> {
        let whatwg = |rules: RuleSet| Profile {
            name: name.to_owned(),
            engine: Engine::Whatwg,
            rules,
            lists: Lists::default(),
            key: KeyForm::Url,
        };
        let safe = RuleSet::of(SAFE);
        Ok(match name {
            "whatwg" => whatwg(RuleSet::EMPTY),
            "safe" => whatwg(safe),
            "lee2005" => whatwg(safe.union(RuleSet::of(LEE2005))),
            "aggressive" => whatwg(safe.union(RuleSet::of(AGGRESSIVE))),
            "surt" => Profile {
                engine: Engine::InternetArchive,
                key: KeyForm::Surt,
                ..whatwg(RuleSet::EMPTY)
            },
            "safebrowsing" => Profile {
                engine: Engine::SafeBrowsing,
                ..whatwg(RuleSet::EMPTY)
            },
            _ => return Err(ProfileError::UnknownProfile(name.to_owned())),
        })
    }

    /// The default profile, `safe`.
    pub fn safe() -> Profile {
        Profile::builtin("safe").expect("built-in")
    }

    /// Adds or removes rules: `+name` or `name` adds, `-name` removes.
    pub fn edit<S: AsRef<str>>(mut self, edits: &[S]) -> Result<Profile, ProfileError> {
        for e in edits {
            let e = e.as_ref();
            let (add, name) = match e.strip_prefix('-') {
                Some(n) => (false, n),
                None => (true, e.strip_prefix('+').unwrap_or(e)),
            };
            let rule =
                Rule::from_name(name).ok_or_else(|| ProfileError::UnknownRule(name.to_owned()))?;
            if self.engine != Engine::Whatwg {
                return Err(ProfileError::FixedProfile(self.name.clone()));
            }
            self.rules = if add {
                self.rules.with(rule)
            } else {
                self.rules.without(rule)
            };
            if !self.name.ends_with('*') {
                self.name.push('*');
            }
        }
        Ok(self)
    }

    /// A profile from a TOML file's text (format in the module docs).
    pub fn from_toml(text: &str) -> Result<Profile, ProfileError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            name: Option<String>,
            base: Option<String>,
            #[serde(default)]
            add: Vec<String>,
            #[serde(default)]
            remove: Vec<String>,
            key: Option<String>,
            default_pages: Option<Vec<String>>,
            tracking_params: Option<Vec<String>>,
            #[serde(default)]
            extra_tracking_params: Vec<String>,
        }
        let f: File = toml::from_str(text).map_err(|e| ProfileError::Toml(e.to_string()))?;
        let mut p = Profile::builtin(f.base.as_deref().unwrap_or("whatwg"))?;
        let edits: Vec<String> = f
            .add
            .iter()
            .map(|r| format!("+{r}"))
            .chain(f.remove.iter().map(|r| format!("-{r}")))
            .collect();
        p = p.edit(&edits)?;
        if let Some(k) = f.key {
            p.key = match k.as_str() {
                "url" => KeyForm::Url,
                "surt" => KeyForm::Surt,
                _ => return Err(ProfileError::UnknownKey(k)),
            };
        }
        if let Some(d) = f.default_pages {
            p.lists.default_pages = d;
        }
        if let Some(t) = f.tracking_params {
            p.lists.tracking_params = t;
        }
        p.lists.tracking_params.extend(f.extra_tracking_params);
        if let Some(n) = f.name {
            p.name = n;
        }
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_and_edits() {
        for n in Profile::BUILTIN {
            assert_eq!(Profile::builtin(n).unwrap().name, n);
        }
        assert!(matches!(
            Profile::builtin("nope"),
            Err(ProfileError::UnknownProfile(_))
        ));
        let p = Profile::safe()
            .edit(&["+strip-www", "-drop-anchor"])
            .unwrap();
        assert!(p.rules.contains(Rule::StripWww));
        assert!(!p.rules.contains(Rule::DropAnchor));
        assert_eq!(p.name, "safe*");
        assert!(matches!(
            Profile::safe().edit(&["+nope"]),
            Err(ProfileError::UnknownRule(_))
        ));
        assert!(matches!(
            Profile::builtin("surt").unwrap().edit(&["+strip-www"]),
            Err(ProfileError::FixedProfile(_))
        ));
    }

    #[test]
    fn toml_profiles() {
        let p = Profile::from_toml(
            r#"
            name = "mine"
            base = "safe"
            add = ["sort-query"]
            remove = ["drop-anchor"]
            key = "surt"
            extra_tracking_params = ["ref_src"]
            "#,
        )
        .unwrap();
        assert_eq!(p.name, "mine");
        assert!(p.rules.contains(Rule::SortQuery) && !p.rules.contains(Rule::DropAnchor));
        assert_eq!(p.key, KeyForm::Surt);
        assert!(p.lists.tracking_params.iter().any(|t| t == "ref_src"));
        assert!(matches!(
            Profile::from_toml("bogus = 1"),
            Err(ProfileError::Toml(_))
        ));
        assert!(matches!(
            Profile::from_toml("key = \"x\""),
            Err(ProfileError::UnknownKey(_))
        ));
    }
}
