//! Origins (HTML Standard, as the URL Standard's `origin` getter uses them).

use crate::host::HostKind;
use crate::scheme::SchemeType;
use crate::url::Url;
use std::fmt;

/// A URL's origin: a (scheme, host, port) tuple, or opaque.
///
/// Opaque origins are each unique in the standard; this type cannot give
/// them identity, so two opaque origins compare equal here — compare
/// [`Origin::is_tuple`] first where that matters.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Origin {
    /// A tuple origin.
    Tuple {
        /// The scheme.
        scheme: String,
        /// The serialized host.
        host: String,
        /// The port, null when the scheme's default.
        port: Option<u16>,
    },
    /// An opaque origin (serializes as `null`).
    Opaque,
}

impl Origin {
    /// The origin of `url`, following the URL Standard's `origin` steps.
    pub fn of(url: &Url) -> Origin {
        match url.scheme_type() {
            SchemeType::Http
            | SchemeType::Https
            | SchemeType::Ws
            | SchemeType::Wss
            | SchemeType::Ftp => Origin::Tuple {
                scheme: url.scheme().to_owned(),
                host: url.hostname().to_owned(),
                port: url.port_number(),
            },
            SchemeType::NotSpecial if url.scheme() == "blob" => {
                // The origin of the URL parsed from the path, if it is an
                // HTTP(S) URL. (Blob URL entries are not modelled.)
                match Url::parse(url.pathname()) {
                    Ok(inner)
                        if matches!(inner.scheme_type(), SchemeType::Http | SchemeType::Https) =>
                    {
                        Origin::of(&inner)
                    }
                    _ => Origin::Opaque,
                }
            }
            _ => Origin::Opaque,
        }
    }

    /// Whether this is a tuple origin.
    pub fn is_tuple(&self) -> bool {
        matches!(self, Origin::Tuple { .. })
    }

    /// The ASCII serialization of the origin (`https://example.com:8443`, or
    /// `null`).
    pub fn ascii_serialization(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Tuple { scheme, host, port } => {
                write!(f, "{scheme}://{host}")?;
                if let Some(p) = port {
                    write!(f, ":{p}")?;
                }
                Ok(())
            }
            Origin::Opaque => f.write_str("null"),
        }
    }
}

impl Url {
    /// The public suffix of the host (URL Standard §3.2), via the Public
    /// Suffix List; `None` unless the host is a domain.
    ///
    /// ```
    /// use spinneret_url::Url;
    /// let u = Url::parse("https://whatwg.github.io/x").unwrap();
    /// assert_eq!(u.public_suffix(), Some("github.io"));
    /// assert_eq!(u.registrable_domain(), Some("whatwg.github.io"));
    /// ```
    pub fn public_suffix(&self) -> Option<&str> {
        if self.host_kind() != HostKind::Domain {
            return None;
        }
        let host = self.hostname();
        let (name, dot) = split_trailing_dot(host);
        let suffix = psl::suffix(name.as_bytes())?;
        let len = suffix.as_bytes().len() + dot;
        Some(&host[host.len() - len..])
    }

    /// The registrable domain of the host (public suffix plus one label);
    /// `None` when the host is not a domain or is itself a public suffix.
    pub fn registrable_domain(&self) -> Option<&str> {
        if self.host_kind() != HostKind::Domain {
            return None;
        }
        let host = self.hostname();
        let (name, dot) = split_trailing_dot(host);
        let domain = psl::domain(name.as_bytes())?;
        let len = domain.as_bytes().len() + dot;
        Some(&host[host.len() - len..])
    }
}

fn split_trailing_dot(host: &str) -> (&str, usize) {
    match host.strip_suffix('.') {
        Some(h) => (h, 1),
        None => (host, 0),
    }
}
