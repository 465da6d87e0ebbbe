//! Schemes: the special schemes, their default ports, and a branch-light
//! lookup from a lower-cased scheme string.

/// The scheme classes the parser distinguishes. Special schemes get a
/// variant each; everything else is [`SchemeType::NotSpecial`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum SchemeType {
    /// `http` (default port 80).
    Http,
    /// `https` (default port 443).
    Https,
    /// `ws` (default port 80).
    Ws,
    /// `wss` (default port 443).
    Wss,
    /// `ftp` (default port 21).
    Ftp,
    /// `file` (no default port; hosts may be empty, Windows drive letters
    /// are quirks).
    File,
    /// Any scheme that is not special.
    #[default]
    NotSpecial,
}

impl SchemeType {
    /// Classifies an already lower-cased scheme.
    #[inline]
    pub fn from_lowercase(scheme: &str) -> SchemeType {
        SchemeType::from_lowercase_bytes(scheme.as_bytes())
    }

    /// Classifies an already lower-cased scheme given as bytes. The match on
    /// byte strings compiles to a switch on the length and one or two
    /// integer comparisons — a perfect hash on the length, in effect.
    #[inline]
    pub fn from_lowercase_bytes(scheme: &[u8]) -> SchemeType {
        match scheme {
            b"http" => SchemeType::Http,
            b"https" => SchemeType::Https,
            b"ws" => SchemeType::Ws,
            b"wss" => SchemeType::Wss,
            b"ftp" => SchemeType::Ftp,
            b"file" => SchemeType::File,
            _ => SchemeType::NotSpecial,
        }
    }

    /// The scheme's name, for special schemes.
    pub fn as_str(self) -> &'static str {
        match self {
            SchemeType::Http => "http",
            SchemeType::Https => "https",
            SchemeType::Ws => "ws",
            SchemeType::Wss => "wss",
            SchemeType::Ftp => "ftp",
            SchemeType::File => "file",
            SchemeType::NotSpecial => "",
        }
    }

    /// Whether the scheme is special.
    #[inline]
    pub fn is_special(self) -> bool {
        self != SchemeType::NotSpecial
    }

    /// The default port of a special scheme (`file` has none).
    #[inline]
    pub fn default_port(self) -> Option<u16> {
        match self {
            SchemeType::Http | SchemeType::Ws => Some(80),
            SchemeType::Https | SchemeType::Wss => Some(443),
            SchemeType::Ftp => Some(21),
            SchemeType::File | SchemeType::NotSpecial => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_every_special_scheme_and_rejects_lookalikes() {
        for t in [
            SchemeType::Http,
            SchemeType::Https,
            SchemeType::Ws,
            SchemeType::Wss,
            SchemeType::Ftp,
            SchemeType::File,
        ] {
            assert_eq!(SchemeType::from_lowercase(t.as_str()), t);
            assert!(t.is_special());
        }
        for s in [
            "", "h", "htt", "httpx", "hxxp", "wx", "wsx", "fip", "fild", "ftps", "blob",
        ] {
            assert_eq!(SchemeType::from_lowercase(s), SchemeType::NotSpecial, "{s}");
        }
        assert_eq!(SchemeType::Https.default_port(), Some(443));
        assert_eq!(SchemeType::File.default_port(), None);
    }
}
