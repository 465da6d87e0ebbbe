//! Secrets kept out of every message: a URL as it may be shown
//! ([`redact`]: no userinfo, no query), and a message scrubbed of every
//! secret a URL or the environment holds ([`Secrets::scrub`]).
//!
//! Invariant: nothing this crate returns for display — an error's text, a
//! name to print — holds a URL's password or user name, a signed URL's
//! query (`X-Amz-Signature`, `X-Amz-Credential`, `X-Goog-Signature`, an
//! Azure SAS `sig`, …) or the AWS secret key and session token of the
//! environment. The query is dropped whole rather than filtered by name:
//! which parameters are secret differs by signer, and none is needed to
//! say which object is meant.

/// `url` as it may be shown: without user name, password, query or
/// fragment (what is left names the object: an index's `filename` taken
/// from it is the object's name). A string that is not a URL is returned
/// as it is.
pub fn redact(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        return url.to_owned();
    };
    // Both fail only for URLs that cannot have credentials (`data:`…).
    let _ = parsed.set_username("");
    let _ = parsed.set_password(None);
    parsed.set_query(None);
    parsed.set_fragment(None);
    parsed.into()
}

/// The secrets one URL (and the environment) could leak into a message.
#[derive(Debug, Clone, Default)]
pub struct Secrets {
    /// Each secret, longest first (so that a secret containing another is
    /// replaced whole).
    words: Vec<String>,
}

/// Secrets shorter than this are not scrubbed (replacing every `1` of a
/// message would hide more than it protects; real keys and signatures are
/// far longer).
const SHORTEST_SECRET: usize = 4;

/// The environment variables whose values are secrets.
const SECRET_VARIABLES: [&str; 5] = [
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_SECURITY_TOKEN",
    "AZURE_STORAGE_ACCOUNT_KEY",
    "AZURE_STORAGE_SAS_KEY",
];

impl Secrets {
    /// The secrets of `url`: its user name and password, its whole query
    /// and each query value (raw and decoded), and the environment's
    /// secret keys.
    pub fn of(url: &str) -> Secrets {
        let mut words: Vec<String> = SECRET_VARIABLES
            .iter()
            .filter_map(|v| std::env::var(v).ok())
            .collect();
        if let Ok(parsed) = url::Url::parse(url) {
            words.push(parsed.username().to_owned());
            words.extend(parsed.password().map(str::to_owned));
            if let Some(query) = parsed.query() {
                words.push(query.to_owned());
                for pair in query.split('&') {
                    if let Some((_, raw)) = pair.split_once('=') {
                        words.push(raw.to_owned());
                    }
                }
                words.extend(parsed.query_pairs().map(|(_, v)| v.into_owned()));
            }
        }
        words.retain(|w| w.len() >= SHORTEST_SECRET);
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        words.dedup();
        Secrets { words }
    }

    /// `message` with every secret replaced by `REDACTED`.
    pub fn scrub(&self, message: &str) -> String {
        let mut out = message.to_owned();
        for w in &self.words {
            if out.contains(w.as_str()) {
                out = out.replace(w.as_str(), "REDACTED");
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shown_url_has_no_userinfo_or_query() {
        assert_eq!(
            redact("https://user:pw@example.com/a/b.warc.gz?X-Amz-Signature=abc#f"),
            "https://example.com/a/b.warc.gz"
        );
        assert_eq!(redact("s3://bucket/key.warc.gz"), "s3://bucket/key.warc.gz");
        assert_eq!(redact("not a url"), "not a url");
    }

    #[test]
    fn messages_lose_every_secret_of_the_url() {
        let url = "https://alice:s3cret-pw@h.example/x?X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=deadbeef42";
        let s = Secrets::of(url);
        let msg = format!("Error performing GET {url} - AKIA/2026 rejected, sig deadbeef42");
        let scrubbed = s.scrub(&msg);
        for secret in [
            "s3cret-pw",
            "alice",
            "deadbeef42",
            "AKIA%2F2026",
            "AKIA/2026",
        ] {
            assert!(!scrubbed.contains(secret), "{secret} in {scrubbed}");
        }
        assert!(scrubbed.contains("h.example/x"));
    }
}
