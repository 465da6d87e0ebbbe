//! The basic URL parser (URL Standard §4.4), as a state machine over a
//! [`Record`], with state override for the setters.
//!
//! This is the exact, general path. [`parse`] first tries the fast paths in
//! [`crate::fast_path`], which accept only inputs whose result they can
//! write directly; everything else comes here.
//!
//! The machine walks *bytes* of the preprocessed input. That is exact:
//! every state branches only on ASCII code points, and every percent-encode
//! set contains all non-ASCII code points, so UTF-8 percent-encoding a code
//! point is percent-encoding each of its bytes. Buffers that are handed to
//! other algorithms (host parser, query encoding) receive complete UTF-8
//! sequences because they are cut only at ASCII delimiters.

use crate::error::{ParseError, ValidationError, ValidationErrorKind as K};
use crate::host::{HostKind, parse_host};
use crate::percent_encoding::{
    C0_CONTROL, FRAGMENT, PATH, QUERY, QueryEncoder, SPECIAL_QUERY, USERINFO,
    percent_encode_after_encoding, percent_encode_byte,
};
use crate::record::Record;
use crate::report::{Reporter, check_url_unit};
use crate::scheme::SchemeType;
use crate::url::Url;
use std::borrow::Cow;

/// The basic URL parser's states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum State {
    SchemeStart,
    Scheme,
    NoScheme,
    SpecialRelativeOrAuthority,
    PathOrAuthority,
    Relative,
    RelativeSlash,
    SpecialAuthoritySlashes,
    SpecialAuthorityIgnoreSlashes,
    Authority,
    Host,
    Hostname,
    Port,
    File,
    FileSlash,
    FileHost,
    PathStart,
    Path,
    OpaquePath,
    Query,
    Fragment,
}

/// Parsing with options: a base URL, the document's encoding for the query,
/// and validation-error reporting.
///
/// ```
/// use spinneret_url::Url;
/// let base = Url::parse("https://example.com/dir/page").unwrap();
/// let mut errors = Vec::new();
/// let url = Url::options()
///     .base_url(Some(&base))
///     .report_errors(&mut errors)
///     .parse("\\other path")
///     .unwrap();
/// assert_eq!(url.href(), "https://example.com/other%20path");
/// let names: Vec<_> = errors.iter().map(|e| e.kind.spec_name()).collect();
/// assert_eq!(names, ["invalid-reverse-solidus", "invalid-URL-unit"]);
/// ```
#[derive(Default)]
pub struct ParseOptions<'a> {
    base: Option<&'a Url>,
    encoder: Option<&'a dyn QueryEncoder>,
    errors: Option<&'a mut Vec<ValidationError>>,
}

impl<'a> ParseOptions<'a> {
    /// Resolve against this base URL.
    pub fn base_url(mut self, base: Option<&'a Url>) -> Self {
        self.base = base;
        self
    }

    /// Encode queries of special URLs in this encoding (the parser's
    /// *encoding* argument; UTF-8 when not given).
    pub fn query_encoder(mut self, encoder: Option<&'a dyn QueryEncoder>) -> Self {
        self.encoder = encoder;
        self
    }

    /// Append every validation error, with its position, to `errors`.
    pub fn report_errors(mut self, errors: &'a mut Vec<ValidationError>) -> Self {
        self.errors = Some(errors);
        self
    }

    /// Runs the URL parser.
    pub fn parse(self, input: &str) -> Result<Url, ParseError> {
        let mut rep = match self.errors {
            Some(e) => Reporter::on(e),
            None => Reporter::off(),
        };
        parse(input, self.base, self.encoder, &mut rep)
    }
}

#[inline]
fn is_c0_or_space(b: u8) -> bool {
    b <= 0x20
}

#[inline]
fn is_tab_or_newline(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

/// Preprocessing without a given URL: trim C0 controls and spaces, remove
/// tabs and newlines (reporting invalid-URL-unit for each change).
fn preprocess<'i>(input: &'i str, trim: bool, rep: &mut Reporter<'_>) -> Cow<'i, str> {
    let b = input.as_bytes();
    let (mut start, mut end) = (0, b.len());
    if trim {
        while start < end && is_c0_or_space(b[start]) {
            start += 1;
        }
        while end > start && is_c0_or_space(b[end - 1]) {
            end -= 1;
        }
        if (start, end) != (0, b.len()) {
            rep.report_raw(K::InvalidUrlUnit, if start > 0 { 0 } else { end });
        }
    }
    let trimmed = &input[start..end];
    if !trimmed.bytes().any(is_tab_or_newline) {
        rep.set_preprocessing(start, Vec::new());
        return Cow::Borrowed(trimmed);
    }
    let mut removed = Vec::new();
    let mut out = String::with_capacity(trimmed.len());
    let mut run = 0;
    let mut first_removed = None;
    for (i, c) in trimmed.bytes().enumerate() {
        if is_tab_or_newline(c) {
            out.push_str(&trimmed[run..i]);
            run = i + 1;
            first_removed.get_or_insert(start + i);
            if rep.is_on() {
                removed.push(out.len());
            }
        }
    }
    out.push_str(&trimmed[run..]);
    if let Some(first) = first_removed {
        rep.report_raw(K::InvalidUrlUnit, first);
    }
    rep.set_preprocessing(start, removed);
    Cow::Owned(out)
}

/// The URL parser: fast paths first, then the state machine.
pub(crate) fn parse(
    input: &str,
    base: Option<&Url>,
    encoder: Option<&dyn QueryEncoder>,
    rep: &mut Reporter<'_>,
) -> Result<Url, ParseError> {
    if input.len() > u32::MAX as usize {
        return rep.fail(ParseError::InputTooLong, 0);
    }
    if !rep.is_on()
        && let Some(url) = crate::fast_path::try_parse(input, base)
    {
        return Ok(url);
    }
    let mut record = Record::default();
    basic_parse(input, base, encoder, &mut record, None, rep)?;
    record.to_url().or_else(|e| rep.fail(e, 0))
}

/// The basic URL parser. With `state_override` it modifies `url` in place
/// (setters); `Ok(())` covers both the standard's plain "return" and
/// reaching the end, `Err` its "return failure".
pub(crate) fn basic_parse(
    input: &str,
    base: Option<&Url>,
    encoder: Option<&dyn QueryEncoder>,
    url: &mut Record,
    state_override: Option<State>,
    rep: &mut Reporter<'_>,
) -> Result<(), ParseError> {
    let input = preprocess(input, state_override.is_none(), rep);
    let mut machine = Machine {
        input: input.as_bytes(),
        base,
        encoder,
        url,
        state_override,
        rep,
        buffer: Vec::new(),
        at_sign_seen: false,
        inside_brackets: false,
        password_token_seen: false,
        seg_start: None,
    };
    machine.run(state_override.unwrap_or(State::SchemeStart))
}

struct Machine<'i, 'b, 'u, 'r, 'rr> {
    input: &'i [u8],
    base: Option<&'b Url>,
    encoder: Option<&'b dyn QueryEncoder>,
    url: &'u mut Record,
    state_override: Option<State>,
    rep: &'r mut Reporter<'rr>,
    buffer: Vec<u8>,
    at_sign_seen: bool,
    inside_brackets: bool,
    password_token_seen: bool,
    /// Start (in `url.path`) of the path segment being built: the path
    /// state's *buffer* lives in place at the end of the path.
    seg_start: Option<usize>,
}

#[inline]
fn buffer_str(b: &[u8]) -> &str {
    // Invariant: buffers are cut only at ASCII delimiters of a &str, so they
    // are valid UTF-8.
    std::str::from_utf8(b).expect("buffer holds whole UTF-8 sequences")
}

/// A single-dot URL path segment: `.` or `%2e`, case-insensitively.
pub(crate) fn is_single_dot_segment(seg: &[u8]) -> bool {
    seg == b"." || seg.eq_ignore_ascii_case(b"%2e")
}

/// A double-dot URL path segment: `..`, `.%2e`, `%2e.` or `%2e%2e`,
/// case-insensitively.
pub(crate) fn is_double_dot_segment(seg: &[u8]) -> bool {
    matches!(seg.len(), 2 | 4 | 6)
        && (seg == b".."
            || seg.eq_ignore_ascii_case(b".%2e")
            || seg.eq_ignore_ascii_case(b"%2e.")
            || seg.eq_ignore_ascii_case(b"%2e%2e"))
}

// Windows drive letters (URL Standard, "URL miscellaneous"): the file
// scheme's quirks in the file, file slash, file host and path states.

/// Whether `s` is a Windows drive letter: an ASCII alpha then `:` or `|`.
#[inline]
pub(crate) fn is_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && (s[1] == b':' || s[1] == b'|')
}

/// A normalized Windows drive letter: an ASCII alpha then `:`.
#[inline]
pub(crate) fn is_normalized_windows_drive_letter(s: &[u8]) -> bool {
    s.len() == 2 && s[0].is_ascii_alphabetic() && s[1] == b':'
}

/// Whether `s` starts with a Windows drive letter (URL Standard: two code
/// points that are a drive letter, then end or one of `/ \ ? #`).
pub(crate) fn starts_with_windows_drive_letter(s: &[u8]) -> bool {
    s.len() >= 2
        && is_windows_drive_letter(&s[..2])
        && (s.len() == 2 || matches!(s[2], b'/' | b'\\' | b'?' | b'#'))
}

impl Machine<'_, '_, '_, '_, '_> {
    #[inline]
    fn remaining_starts_with(&self, p: usize, s: &[u8]) -> bool {
        self.input.get(p + 1..).is_some_and(|r| r.starts_with(s))
    }

    /// Reports invalid-URL-unit for byte `p` when it is not a URL unit.
    #[inline]
    fn check_unit(&mut self, p: usize) {
        if self.rep.is_on() {
            check_url_unit(self.input, p, self.rep, p);
        }
    }

    fn host_parse(&mut self, is_opaque: bool, pos: usize) -> Result<(), ParseError> {
        let mut host = String::new();
        let kind = parse_host(
            buffer_str(&self.buffer),
            is_opaque,
            &mut host,
            self.rep,
            pos,
        )?;
        self.url.host_kind = kind;
        self.url.host = host;
        Ok(())
    }

    /// Starts a new path segment (the path state's buffer becomes empty).
    fn begin_segment(&mut self) {
        self.url.path.push('/');
        self.seg_start = Some(self.url.path.len());
    }

    /// The path state's steps on a segment terminator `c`.
    fn end_segment(&mut self, c: Option<u8>) {
        let start = self.seg_start.take().expect("a segment is open");
        let special = self.url.is_special();
        let is_slash = c == Some(b'/') || (special && c == Some(b'\\'));
        let seg = &self.url.path.as_bytes()[start..];
        if is_double_dot_segment(seg) {
            self.url.path.truncate(start - 1);
            self.url.shorten_path();
            if !is_slash {
                self.url.path.push('/');
            }
        } else if is_single_dot_segment(seg) {
            if is_slash {
                self.url.path.truncate(start - 1);
            } else {
                self.url.path.truncate(start);
            }
        } else if self.url.scheme_type == SchemeType::File
            && start == 1
            && is_windows_drive_letter(seg)
        {
            // Windows drive letter quirk: "C|" becomes "C:".
            self.url.path.replace_range(start + 1..start + 2, ":");
        }
    }

    fn copy_base_authority(&mut self, base: &Url) {
        self.url.username = base.username().to_owned();
        self.url.password = base.password().to_owned();
        self.url.host_kind = base.host_kind();
        self.url.host = base.hostname().to_owned();
        self.url.port = base.port_number();
    }

    fn finish_query(&mut self) {
        let use_encoder = self.url.is_special()
            && !matches!(self.url.scheme_type, SchemeType::Ws | SchemeType::Wss);
        let set = if self.url.is_special() {
            SPECIAL_QUERY
        } else {
            QUERY
        };
        let query = self.url.query.get_or_insert_with(String::new);
        let buffer = std::str::from_utf8(&self.buffer).expect("buffer holds whole UTF-8 sequences");
        percent_encode_after_encoding(
            if use_encoder { self.encoder } else { None },
            buffer,
            set,
            false,
            query,
        );
        self.buffer.clear();
    }

    fn run(&mut self, mut state: State) -> Result<(), ParseError> {
        let len = self.input.len();
        let over = self.state_override.is_some();
        // The pointer; "decrease by 1" at 0 wraps and the loop's increment
        // brings it back to 0.
        let mut p: usize = 0;
        loop {
            let c = self.input.get(p).copied();
            match state {
                // URL parser: scheme start state
                State::SchemeStart => {
                    if let Some(c) = c.filter(u8::is_ascii_alphabetic) {
                        self.buffer.push(c.to_ascii_lowercase());
                        state = State::Scheme;
                    } else if !over {
                        state = State::NoScheme;
                        p = p.wrapping_sub(1);
                    } else {
                        return Err(ParseError::MissingSchemeNonRelativeUrl);
                    }
                }
                // URL parser: scheme state
                State::Scheme => match c {
                    Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.') => {
                        self.buffer.push(c.to_ascii_lowercase());
                    }
                    Some(b':') => {
                        let new_type = SchemeType::from_lowercase(buffer_str(&self.buffer));
                        if over {
                            let url = &self.url;
                            if url.is_special() != new_type.is_special() {
                                return Ok(());
                            }
                            if (url.includes_credentials() || url.port.is_some())
                                && new_type == SchemeType::File
                            {
                                return Ok(());
                            }
                            if url.scheme_type == SchemeType::File
                                && url.host_kind == HostKind::Empty
                            {
                                return Ok(());
                            }
                        }
                        let scheme = buffer_str(&self.buffer).to_owned();
                        self.url.set_scheme(&scheme);
                        if over {
                            if self.url.port.is_some() && self.url.port == new_type.default_port() {
                                self.url.port = None;
                            }
                            return Ok(());
                        }
                        self.buffer.clear();
                        if new_type == SchemeType::File {
                            if !self.remaining_starts_with(p, b"//") {
                                self.rep.report(K::SpecialSchemeMissingFollowingSolidus, p);
                            }
                            state = State::File;
                        } else if new_type.is_special()
                            && let Some(base) = self.base
                            && base.scheme_type() == new_type
                        {
                            debug_assert!(base.is_special());
                            state = State::SpecialRelativeOrAuthority;
                        } else if new_type.is_special() {
                            state = State::SpecialAuthoritySlashes;
                        } else if self.remaining_starts_with(p, b"/") {
                            state = State::PathOrAuthority;
                            p += 1;
                        } else {
                            self.url.opaque_path = true;
                            self.url.path.clear();
                            state = State::OpaquePath;
                        }
                    }
                    _ if !over => {
                        self.buffer.clear();
                        state = State::NoScheme;
                        p = usize::MAX; // start over from the first code point
                    }
                    _ => return Err(ParseError::MissingSchemeNonRelativeUrl),
                },
                // URL parser: no scheme state
                State::NoScheme => {
                    let base = match self.base {
                        Some(b) if !(b.has_opaque_path() && c != Some(b'#')) => b,
                        _ => return self.rep.fail(ParseError::MissingSchemeNonRelativeUrl, p),
                    };
                    if base.has_opaque_path() {
                        // c is '#'
                        self.url.set_scheme(base.scheme());
                        self.url.opaque_path = true;
                        self.url.path = base.pathname().to_owned();
                        self.url.query = base.query().map(str::to_owned);
                        self.url.fragment = Some(String::new());
                        state = State::Fragment;
                    } else if base.scheme_type() != SchemeType::File {
                        state = State::Relative;
                        p = p.wrapping_sub(1);
                    } else {
                        state = State::File;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: special relative or authority state
                State::SpecialRelativeOrAuthority => {
                    if c == Some(b'/') && self.remaining_starts_with(p, b"/") {
                        state = State::SpecialAuthorityIgnoreSlashes;
                        p += 1;
                    } else {
                        self.rep.report(K::SpecialSchemeMissingFollowingSolidus, p);
                        state = State::Relative;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: path or authority state
                State::PathOrAuthority => {
                    if c == Some(b'/') {
                        state = State::Authority;
                    } else {
                        state = State::Path;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: relative state
                State::Relative => {
                    let base = self.base.expect("relative state has a base");
                    debug_assert!(base.scheme_type() != SchemeType::File);
                    self.url.set_scheme(base.scheme());
                    if c == Some(b'/') {
                        state = State::RelativeSlash;
                    } else if self.url.is_special() && c == Some(b'\\') {
                        self.rep.report(K::InvalidReverseSolidus, p);
                        state = State::RelativeSlash;
                    } else {
                        self.copy_base_authority(base);
                        self.url.path = base.pathname().to_owned();
                        self.url.query = base.query().map(str::to_owned);
                        match c {
                            Some(b'?') => {
                                self.url.query = Some(String::new());
                                state = State::Query;
                            }
                            Some(b'#') => {
                                self.url.fragment = Some(String::new());
                                state = State::Fragment;
                            }
                            Some(_) => {
                                self.url.query = None;
                                self.url.shorten_path();
                                state = State::Path;
                                p = p.wrapping_sub(1);
                            }
                            None => {}
                        }
                    }
                }
                // URL parser: relative slash state
                State::RelativeSlash => {
                    if self.url.is_special() && matches!(c, Some(b'/' | b'\\')) {
                        if c == Some(b'\\') {
                            self.rep.report(K::InvalidReverseSolidus, p);
                        }
                        state = State::SpecialAuthorityIgnoreSlashes;
                    } else if c == Some(b'/') {
                        state = State::Authority;
                    } else {
                        let base = self.base.expect("relative slash state has a base");
                        self.copy_base_authority(base);
                        state = State::Path;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: special authority slashes state
                State::SpecialAuthoritySlashes => {
                    if c == Some(b'/') && self.remaining_starts_with(p, b"/") {
                        state = State::SpecialAuthorityIgnoreSlashes;
                        p += 1;
                    } else {
                        self.rep.report(K::SpecialSchemeMissingFollowingSolidus, p);
                        state = State::SpecialAuthorityIgnoreSlashes;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: special authority ignore slashes state
                State::SpecialAuthorityIgnoreSlashes => {
                    if !matches!(c, Some(b'/' | b'\\')) {
                        state = State::Authority;
                        p = p.wrapping_sub(1);
                    } else {
                        self.rep.report(K::SpecialSchemeMissingFollowingSolidus, p);
                    }
                }
                // URL parser: authority state
                State::Authority => {
                    let special = self.url.is_special();
                    if c == Some(b'@') {
                        self.rep.report(K::InvalidCredentials, p);
                        let target_password = self.password_token_seen;
                        if self.at_sign_seen {
                            let t = if target_password {
                                &mut self.url.password
                            } else {
                                &mut self.url.username
                            };
                            t.push_str("%40");
                        }
                        self.at_sign_seen = true;
                        for i in 0..self.buffer.len() {
                            let b = self.buffer[i];
                            if b == b':' && !self.password_token_seen {
                                self.password_token_seen = true;
                                continue;
                            }
                            let t = if self.password_token_seen {
                                &mut self.url.password
                            } else {
                                &mut self.url.username
                            };
                            if USERINFO.contains(b) {
                                percent_encode_byte(b, t);
                            } else {
                                t.push(b as char);
                            }
                        }
                        self.buffer.clear();
                    } else if c.is_none()
                        || matches!(c, Some(b'/' | b'?' | b'#'))
                        || (special && c == Some(b'\\'))
                    {
                        if self.at_sign_seen && self.buffer.is_empty() {
                            return self.rep.fail(ParseError::HostMissing, p);
                        }
                        p = p.wrapping_sub(self.buffer.len() + 1);
                        self.buffer.clear();
                        state = State::Host;
                    } else {
                        self.buffer.push(c.expect("not EOF"));
                    }
                }
                // URL parser: host state / hostname state
                State::Host | State::Hostname => {
                    let special = self.url.is_special();
                    if over && self.url.scheme_type == SchemeType::File {
                        p = p.wrapping_sub(1);
                        state = State::FileHost;
                    } else if c == Some(b':') && !self.inside_brackets {
                        if self.buffer.is_empty() {
                            return self.rep.fail(ParseError::HostMissing, p);
                        }
                        if self.state_override == Some(State::Hostname) {
                            return Err(ParseError::HostMissing);
                        }
                        let pos = p - self.buffer.len();
                        self.host_parse(!special, pos)?;
                        self.buffer.clear();
                        state = State::Port;
                    } else if c.is_none()
                        || matches!(c, Some(b'/' | b'?' | b'#'))
                        || (special && c == Some(b'\\'))
                    {
                        p = p.wrapping_sub(1);
                        if special && self.buffer.is_empty() {
                            return self.rep.fail(ParseError::HostMissing, p.wrapping_add(1));
                        } else if over
                            && self.buffer.is_empty()
                            && (self.url.includes_credentials() || self.url.port.is_some())
                        {
                            return Err(ParseError::HostMissing);
                        }
                        let pos = p.wrapping_add(1) - self.buffer.len();
                        self.host_parse(!special, pos)?;
                        self.buffer.clear();
                        state = State::PathStart;
                        if over {
                            return Ok(());
                        }
                    } else if let Some(c) = c {
                        if c == b'[' {
                            self.inside_brackets = true;
                        }
                        if c == b']' {
                            self.inside_brackets = false;
                        }
                        self.buffer.push(c);
                    }
                }
                // URL parser: port state
                State::Port => {
                    let special = self.url.is_special();
                    if let Some(d) = c.filter(u8::is_ascii_digit) {
                        self.buffer.push(d);
                    } else if c.is_none()
                        || matches!(c, Some(b'/' | b'?' | b'#'))
                        || (special && c == Some(b'\\'))
                        || over
                    {
                        if !self.buffer.is_empty() {
                            let digits = buffer_str(&self.buffer).trim_start_matches('0');
                            let port = if digits.len() > 5 {
                                None
                            } else {
                                digits.parse::<u32>().ok().or(Some(0))
                            };
                            let port = match port {
                                Some(v) if v <= u16::MAX as u32 => v as u16,
                                _ => {
                                    return self
                                        .rep
                                        .fail(ParseError::PortOutOfRange, p - self.buffer.len());
                                }
                            };
                            self.url.port = if Some(port) == self.url.scheme_type.default_port() {
                                None
                            } else {
                                Some(port)
                            };
                            self.buffer.clear();
                            if over {
                                return Ok(());
                            }
                        }
                        if over {
                            return Err(ParseError::PortInvalid);
                        }
                        state = State::PathStart;
                        p = p.wrapping_sub(1);
                    } else {
                        return self.rep.fail(ParseError::PortInvalid, p);
                    }
                }
                // URL parser: file state
                State::File => {
                    self.url.set_scheme("file");
                    self.url.host_kind = HostKind::Empty;
                    self.url.host.clear();
                    if matches!(c, Some(b'/' | b'\\')) {
                        if c == Some(b'\\') {
                            self.rep.report(K::InvalidReverseSolidus, p);
                        }
                        state = State::FileSlash;
                    } else if let Some(base) =
                        self.base.filter(|b| b.scheme_type() == SchemeType::File)
                    {
                        self.url.host_kind = base.host_kind();
                        self.url.host = base.hostname().to_owned();
                        self.url.path = base.pathname().to_owned();
                        self.url.query = base.query().map(str::to_owned);
                        match c {
                            Some(b'?') => {
                                self.url.query = Some(String::new());
                                state = State::Query;
                            }
                            Some(b'#') => {
                                self.url.fragment = Some(String::new());
                                state = State::Fragment;
                            }
                            Some(_) => {
                                self.url.query = None;
                                if !starts_with_windows_drive_letter(&self.input[p..]) {
                                    self.url.shorten_path();
                                } else {
                                    self.rep.report(K::FileInvalidWindowsDriveLetter, p);
                                    self.url.path.clear();
                                }
                                state = State::Path;
                                p = p.wrapping_sub(1);
                            }
                            None => {}
                        }
                    } else {
                        state = State::Path;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: file slash state
                State::FileSlash => {
                    if matches!(c, Some(b'/' | b'\\')) {
                        if c == Some(b'\\') {
                            self.rep.report(K::InvalidReverseSolidus, p);
                        }
                        state = State::FileHost;
                    } else {
                        if let Some(base) =
                            self.base.filter(|b| b.scheme_type() == SchemeType::File)
                        {
                            self.url.host_kind = base.host_kind();
                            self.url.host = base.hostname().to_owned();
                            if !starts_with_windows_drive_letter(&self.input[p.min(len)..])
                                && let Some(first) = base.path_segments().and_then(|mut s| s.next())
                                && is_normalized_windows_drive_letter(first.as_bytes())
                            {
                                self.url.path.push('/');
                                self.url.path.push_str(first);
                            }
                        }
                        state = State::Path;
                        p = p.wrapping_sub(1);
                    }
                }
                // URL parser: file host state
                State::FileHost => {
                    if c.is_none() || matches!(c, Some(b'/' | b'\\' | b'?' | b'#')) {
                        p = p.wrapping_sub(1);
                        if !over && is_windows_drive_letter(&self.buffer) {
                            self.rep.report(
                                K::FileInvalidWindowsDriveLetterHost,
                                p.wrapping_add(1) - 2,
                            );
                            // The buffer is not reset: it starts the path's first segment.
                            self.begin_segment();
                            let drive = buffer_str(&self.buffer).to_owned();
                            self.url.path.push_str(&drive);
                            self.buffer.clear();
                            state = State::Path;
                        } else if self.buffer.is_empty() {
                            self.url.host_kind = HostKind::Empty;
                            self.url.host.clear();
                            if over {
                                return Ok(());
                            }
                            state = State::PathStart;
                        } else {
                            let pos = p.wrapping_add(1) - self.buffer.len();
                            self.host_parse(false, pos)?;
                            if self.url.host == "localhost" {
                                self.url.host_kind = HostKind::Empty;
                                self.url.host.clear();
                            }
                            if over {
                                return Ok(());
                            }
                            self.buffer.clear();
                            state = State::PathStart;
                        }
                    } else if let Some(c) = c {
                        self.buffer.push(c);
                    }
                }
                // URL parser: path start state
                State::PathStart => {
                    if self.url.is_special() {
                        if c == Some(b'\\') {
                            self.rep.report(K::InvalidReverseSolidus, p);
                        }
                        state = State::Path;
                        if !matches!(c, Some(b'/' | b'\\')) {
                            p = p.wrapping_sub(1);
                        }
                    } else if !over && c == Some(b'?') {
                        self.url.query = Some(String::new());
                        state = State::Query;
                    } else if !over && c == Some(b'#') {
                        self.url.fragment = Some(String::new());
                        state = State::Fragment;
                    } else if c.is_some() {
                        state = State::Path;
                        if c != Some(b'/') {
                            p = p.wrapping_sub(1);
                        }
                    } else if over && self.url.host_kind == HostKind::None {
                        self.url.path.push('/');
                    }
                }
                // URL parser: path state
                State::Path => {
                    if self.seg_start.is_none() {
                        self.begin_segment();
                    }
                    let special = self.url.is_special();
                    let terminator = c.is_none()
                        || c == Some(b'/')
                        || (special && c == Some(b'\\'))
                        || (!over && matches!(c, Some(b'?' | b'#')));
                    if terminator {
                        if special && c == Some(b'\\') {
                            self.rep.report(K::InvalidReverseSolidus, p);
                        }
                        self.end_segment(c);
                        match c {
                            Some(b'?') => {
                                self.url.query = Some(String::new());
                                state = State::Query;
                            }
                            Some(b'#') => {
                                self.url.fragment = Some(String::new());
                                state = State::Fragment;
                            }
                            _ => {}
                        }
                    } else {
                        let b = c.expect("not EOF");
                        self.check_unit(p);
                        if PATH.contains(b) {
                            percent_encode_byte(b, &mut self.url.path);
                        } else {
                            self.url.path.push(b as char);
                        }
                    }
                }
                // URL parser: opaque path state
                State::OpaquePath => match c {
                    Some(b'?') => {
                        self.url.query = Some(String::new());
                        state = State::Query;
                    }
                    Some(b'#') => {
                        self.url.fragment = Some(String::new());
                        state = State::Fragment;
                    }
                    Some(b' ') => {
                        self.rep.report(K::InvalidUrlUnit, p);
                        if matches!(self.input.get(p + 1), Some(b'?' | b'#')) {
                            self.url.path.push_str("%20");
                        } else {
                            self.url.path.push(' ');
                        }
                    }
                    Some(b) => {
                        self.check_unit(p);
                        if C0_CONTROL.contains(b) {
                            percent_encode_byte(b, &mut self.url.path);
                        } else {
                            self.url.path.push(b as char);
                        }
                    }
                    None => {}
                },
                // URL parser: query state
                State::Query => {
                    if (!over && c == Some(b'#')) || c.is_none() {
                        self.finish_query();
                        if c == Some(b'#') {
                            self.url.fragment = Some(String::new());
                            state = State::Fragment;
                        }
                    } else if let Some(c) = c {
                        self.check_unit(p);
                        self.buffer.push(c);
                    }
                }
                // URL parser: fragment state
                State::Fragment => {
                    if let Some(b) = c {
                        self.check_unit(p);
                        let f = self.url.fragment.get_or_insert_with(String::new);
                        if FRAGMENT.contains(b) {
                            percent_encode_byte(b, f);
                        } else {
                            f.push(b as char);
                        }
                    }
                }
            }
            if p == len {
                break;
            }
            p = p.wrapping_add(1);
        }
        Ok(())
    }
}
