//! The URL record of the standard, in the form the general parser and the
//! setters work on, and its conversion to and from the compact [`Url`].
//!
//! A record owns each component as its *serialized* text. The path is kept
//! serialized too: a list path is `"/seg1/seg2"` (each segment prefixed by
//! `/`), an opaque path is its string. This makes "shorten", "append" and
//! "clone base's path" string operations without a `Vec` of segments.

use crate::components::{Components, NONE};
use crate::error::ParseError;
use crate::host::HostKind;
use crate::parser::is_normalized_windows_drive_letter;
use crate::scheme::SchemeType;
use crate::url::Url;

#[derive(Clone, Debug, Default)]
pub(crate) struct Record {
    pub scheme: String,
    pub scheme_type: SchemeType,
    pub username: String,
    pub password: String,
    pub host_kind: HostKind,
    /// Serialized host; meaningful unless `host_kind` is `None`.
    pub host: String,
    pub port: Option<u16>,
    pub opaque_path: bool,
    pub path: String,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

impl Record {
    #[inline]
    pub fn is_special(&self) -> bool {
        self.scheme_type.is_special()
    }

    pub fn set_scheme(&mut self, scheme: &str) {
        self.scheme.clear();
        self.scheme.push_str(scheme);
        self.scheme_type = SchemeType::from_lowercase(scheme);
    }

    pub fn includes_credentials(&self) -> bool {
        !self.username.is_empty() || !self.password.is_empty()
    }

    /// Shorten a URL's path.
    pub fn shorten_path(&mut self) {
        debug_assert!(!self.opaque_path);
        if self.scheme_type == SchemeType::File
            && self.path.len() == 3
            && is_normalized_windows_drive_letter(&self.path.as_bytes()[1..])
        {
            return;
        }
        if let Some(i) = self.path.rfind('/') {
            self.path.truncate(i);
        }
    }

    /// Copies the compact URL's components into a record.
    pub fn from_url(url: &Url) -> Record {
        Record {
            scheme: url.scheme().to_owned(),
            scheme_type: url.scheme_type(),
            username: url.username().to_owned(),
            password: url.password().to_owned(),
            host_kind: url.host_kind(),
            host: url.hostname().to_owned(),
            port: url.port_number(),
            opaque_path: url.has_opaque_path(),
            path: url.pathname().to_owned(),
            query: url.query().map(str::to_owned),
            fragment: url.fragment().map(str::to_owned),
        }
    }

    /// The compact URL of this record (see [`Record::serialize`]).
    pub fn to_url(&self) -> Result<Url, ParseError> {
        let (serialization, components) = self.serialize()?;
        Ok(Url::from_components(serialization, components))
    }

    /// URL serializer: writes the record into one exactly-sized buffer and
    /// records the component offsets. Fails when the serialization would
    /// not fit the `u32` offsets.
    pub fn serialize(&self) -> Result<(String, Components), ParseError> {
        let has_host = self.host_kind != HostKind::None;
        let credentials = self.includes_credentials();
        let port_text = self.port.map(|p| p.to_string()).unwrap_or_default();
        // "/." guards a null-host list path that would otherwise start with "//".
        let dot_guard = !has_host && !self.opaque_path && self.path.starts_with("//");
        let len = self.scheme.len()
            + 1
            + if has_host {
                2 + if credentials {
                    self.username.len()
                        + if self.password.is_empty() {
                            0
                        } else {
                            1 + self.password.len()
                        }
                        + 1
                } else {
                    0
                } + self.host.len()
                    + if self.port.is_some() {
                        1 + port_text.len()
                    } else {
                        0
                    }
            } else {
                0
            }
            + if dot_guard { 2 } else { 0 }
            + self.path.len()
            + self.query.as_ref().map_or(0, |q| 1 + q.len())
            + self.fragment.as_ref().map_or(0, |f| 1 + f.len());
        if len >= u32::MAX as usize {
            return Err(ParseError::InputTooLong);
        }
        let mut s = String::with_capacity(len);
        s.push_str(&self.scheme);
        let scheme_end = s.len() as u32;
        s.push(':');
        let (username_end, host_start, host_end);
        if has_host {
            s.push_str("//");
            if credentials {
                s.push_str(&self.username);
                username_end = s.len() as u32;
                if !self.password.is_empty() {
                    s.push(':');
                    s.push_str(&self.password);
                }
                s.push('@');
            } else {
                username_end = s.len() as u32;
            }
            host_start = s.len() as u32;
            s.push_str(&self.host);
            host_end = s.len() as u32;
            if self.port.is_some() {
                s.push(':');
                s.push_str(&port_text);
            }
        } else {
            username_end = s.len() as u32;
            host_start = username_end;
            host_end = username_end;
            if dot_guard {
                s.push_str("/.");
            }
        }
        let path_start = s.len() as u32;
        s.push_str(&self.path);
        let query_start = match &self.query {
            Some(q) => {
                let at = s.len() as u32;
                s.push('?');
                s.push_str(q);
                at
            }
            None => NONE,
        };
        let fragment_start = match &self.fragment {
            Some(f) => {
                let at = s.len() as u32;
                s.push('#');
                s.push_str(f);
                at
            }
            None => NONE,
        };
        debug_assert_eq!(s.len(), len);
        Ok((
            s,
            Components {
                scheme_end,
                username_end,
                host_start,
                host_end,
                path_start,
                query_start,
                fragment_start,
                scheme_type: self.scheme_type,
                host_kind: self.host_kind,
            },
        ))
    }
}
