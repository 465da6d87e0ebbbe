//! The `URL` class's setters, with the standard's exact semantics: each runs
//! the basic URL parser with a state override on the URL's record. A setter
//! given an invalid value leaves the URL unchanged where the standard says
//! so — and, where the standard keeps a partial change (a host set before
//! an invalid port), keeps it too.

use crate::error::ParseError;
use crate::host::HostKind;
use crate::parser::{State, basic_parse};
use crate::percent_encoding::{USERINFO, utf8_percent_encode};
use crate::record::Record;
use crate::report::Reporter;
use crate::scheme::SchemeType;
use crate::url::Url;

impl Url {
    /// Whether the URL cannot have a username, password or port: it has a
    /// null or empty host, or its scheme is `file`.
    pub fn cannot_have_username_password_port(&self) -> bool {
        matches!(self.host_kind(), HostKind::None | HostKind::Empty)
            || self.scheme_type() == SchemeType::File
    }

    fn run_override(&mut self, value: &str, state: State, prepare: impl FnOnce(&mut Record)) {
        let mut record = self.to_record();
        prepare(&mut record);
        // Failure and success both keep what the algorithm already changed.
        let _ = basic_parse(
            value,
            None,
            None,
            &mut record,
            Some(state),
            &mut Reporter::off(),
        );
        self.replace_with(&record);
    }

    /// The `href` setter: replaces the URL with the parse of `value`, or
    /// fails and leaves it unchanged.
    pub fn set_href(&mut self, value: &str) -> Result<(), ParseError> {
        *self = Url::parse(value)?;
        Ok(())
    }

    /// The `protocol` setter.
    pub fn set_protocol(&mut self, value: &str) {
        let mut input = String::with_capacity(value.len() + 1);
        input.push_str(value);
        input.push(':');
        self.run_override(&input, State::SchemeStart, |_| {});
    }

    /// The `username` setter.
    pub fn set_username(&mut self, value: &str) {
        if self.cannot_have_username_password_port() {
            return;
        }
        let mut record = self.to_record();
        record.username.clear();
        utf8_percent_encode(value, USERINFO, &mut record.username);
        self.replace_with(&record);
    }

    /// The `password` setter.
    pub fn set_password(&mut self, value: &str) {
        if self.cannot_have_username_password_port() {
            return;
        }
        let mut record = self.to_record();
        record.password.clear();
        utf8_percent_encode(value, USERINFO, &mut record.password);
        self.replace_with(&record);
    }

    /// The `host` setter (host and optional port).
    pub fn set_host(&mut self, value: &str) {
        if self.has_opaque_path() {
            return;
        }
        self.run_override(value, State::Host, |_| {});
    }

    /// The `hostname` setter.
    pub fn set_hostname(&mut self, value: &str) {
        if self.has_opaque_path() {
            return;
        }
        self.run_override(value, State::Hostname, |_| {});
    }

    /// The `port` setter; the empty string removes the port.
    pub fn set_port(&mut self, value: &str) {
        if self.cannot_have_username_password_port() {
            return;
        }
        if value.is_empty() {
            let mut record = self.to_record();
            record.port = None;
            self.replace_with(&record);
            return;
        }
        self.run_override(value, State::Port, |_| {});
    }

    /// The `pathname` setter.
    pub fn set_pathname(&mut self, value: &str) {
        if self.has_opaque_path() {
            return;
        }
        self.run_override(value, State::PathStart, |r| r.path.clear());
    }

    /// The `search` setter; the empty string removes the query.
    pub fn set_search(&mut self, value: &str) {
        if value.is_empty() {
            let mut record = self.to_record();
            record.query = None;
            self.replace_with(&record);
            return;
        }
        let input = value.strip_prefix('?').unwrap_or(value);
        self.run_override(input, State::Query, |r| r.query = Some(String::new()));
    }

    /// The `hash` setter; the empty string removes the fragment.
    pub fn set_hash(&mut self, value: &str) {
        if value.is_empty() {
            let mut record = self.to_record();
            record.fragment = None;
            self.replace_with(&record);
            return;
        }
        let input = value.strip_prefix('#').unwrap_or(value);
        self.run_override(input, State::Fragment, |r| r.fragment = Some(String::new()));
    }
}
