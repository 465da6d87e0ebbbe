//! The editable form of a parsed URL that rules work on.
//!
//! A [`spinneret_url::Url`] is one immutable buffer; canonicalization rules
//! need to rewrite single components (drop the fragment, rewrite the query).
//! [`Parts`] holds each component in its own reusable `String`, so a
//! [`crate::Canonicalizer`] allocates nothing per URL once its buffers have
//! grown.
//!
//! Invariant: after [`Parts::load`], every component is exactly the WHATWG
//! serialization's text (percent-encoded as the URL stores it). Rules keep the
//! components printable ASCII; the canonicalizer re-parses the serialization
//! at the end, so a rule can never produce a URL that is not parse-stable.

use spinneret_url::{HostKind, Url};

/// A URL split into owned components (WHATWG serialization pieces).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parts {
    /// Scheme, lower-case, without the `:`.
    pub scheme: String,
    /// Username, percent-encoded; empty when none.
    pub username: String,
    /// Password, percent-encoded; empty when none.
    pub password: String,
    /// Host serialization (IPv6 in brackets); meaningful when `host_kind` is not `None`.
    pub host: String,
    /// What the host is.
    pub host_kind: HostKind,
    /// Port digits; empty when null or the scheme's default.
    pub port: String,
    /// The path (`pathname`), or the opaque path.
    pub path: String,
    /// Whether `path` is an opaque path (`mailto:x`, `javascript:…`).
    pub opaque_path: bool,
    /// The query without `?`, when there is one (possibly empty).
    pub query: Option<String>,
    /// The fragment without `#`, when there is one (possibly empty).
    pub fragment: Option<String>,
}

fn set(dst: &mut String, src: &str) {
    dst.clear();
    dst.push_str(src);
}

fn set_opt(dst: &mut Option<String>, src: Option<&str>) {
    match src {
        None => *dst = None,
        Some(s) => match dst {
            Some(d) => set(d, s),
            None => *dst = Some(s.to_owned()),
        },
    }
}

impl Parts {
    /// Fills `self` from a parsed URL, reusing the buffers.
    pub fn load(&mut self, url: &Url) {
        set(&mut self.scheme, url.scheme());
        set(&mut self.username, url.username());
        set(&mut self.password, url.password());
        set(&mut self.host, url.hostname());
        self.host_kind = url.host_kind();
        set(&mut self.port, url.port());
        set(&mut self.path, url.pathname());
        self.opaque_path = url.has_opaque_path();
        set_opt(&mut self.query, url.query());
        set_opt(&mut self.fragment, url.fragment());
    }

    /// Whether the URL has a host (the standard's "host is non-null").
    pub fn has_host(&self) -> bool {
        self.host_kind != HostKind::None
    }

    /// Whether the scheme is one of the standard's special schemes.
    pub fn is_special(&self) -> bool {
        matches!(
            self.scheme.as_str(),
            "http" | "https" | "ws" | "wss" | "ftp" | "file"
        )
    }

    /// Appends the URL serializer's output (with the fragment) to `out`.
    pub fn serialize_into(&self, out: &mut String) {
        // URL serializer, steps 1–7.
        out.push_str(&self.scheme);
        out.push(':');
        if self.has_host() {
            out.push_str("//");
            if !self.username.is_empty() || !self.password.is_empty() {
                out.push_str(&self.username);
                if !self.password.is_empty() {
                    out.push(':');
                    out.push_str(&self.password);
                }
                out.push('@');
            }
            out.push_str(&self.host);
            if !self.port.is_empty() {
                out.push(':');
                out.push_str(&self.port);
            }
        } else if !self.opaque_path && self.path.starts_with("//") {
            out.push_str("/.");
        }
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        if let Some(f) = &self.fragment {
            out.push('#');
            out.push_str(f);
        }
    }

    /// The serialization as a new string.
    pub fn serialize(&self) -> String {
        let mut s = String::new();
        self.serialize_into(&mut s);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_then_serialize_is_the_href() {
        let mut p = Parts::default();
        for s in [
            "https://u:p@EXAMPLE.com:8080/a/./b/../c?q=1#f",
            "http://[::1]/",
            "mailto:someone@example.com",
            "web+demo:/.//not-a-host/",
            "file:///C:/x",
            "sc://h?",
            "http://example.com/#",
        ] {
            let url = Url::parse(s).unwrap();
            p.load(&url);
            assert_eq!(p.serialize(), url.href(), "{s}");
        }
    }
}
