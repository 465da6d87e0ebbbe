//! The syntax of an HTTP head stored in a record (RFC 9112, sections 2–5):
//! the start line (status line or request line), the field lines and the
//! empty line that ends the head.
//!
//! How strict: a record holds what the server (or the crawler) sent, so a
//! deviation from RFC 9112 that every HTTP reader tolerates is a warning
//! about the message, not a damaged record: a status line without the
//! space before an empty reason phrase, a bare LF line end, a header line
//! without a colon, a field name that is not a token (whitespace before the
//! colon), obsolete line folding, a control character in a value, empty
//! lines before the start line, a head not ended by an empty line. Only a
//! start line that is not there at all, in a record that declares an HTTP
//! message, is an error (see [`super::Problem::NoHttpMessage`]): then the
//! record is not what it says, and its payload cannot be found. Each kind
//! of deviation is reported once per record, at its first line.
//!
//! The payload starts where the reader's own parser
//! ([`crate::http::parse_response`]) says: after the first empty line
//! (CRLF or LF) after the start line, or at the end of the block.

use std::fmt;

/// A deviation of an HTTP head from RFC 9112's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HttpSyntax {
    /// Empty lines before the start line.
    LeadingEmptyLines,
    /// A status line without the space before an empty reason phrase
    /// (`HTTP/1.1 200`).
    NoReasonPhrase,
    /// A status line that is not `HTTP/d.d SP 3DIGIT SP reason-phrase`.
    BadStatusLine,
    /// A request line that is not `method SP request-target SP HTTP/d.d`.
    BadRequestLine,
    /// A line ended by LF alone.
    BareLf,
    /// A line ended by several CRs and an LF (a CRLF file converted
    /// again; the reader takes it as one line end, as warcio and pywb do).
    ExtraCr,
    /// A header line without a colon.
    NoColon,
    /// A field name that is not a token (for instance whitespace before
    /// the colon).
    BadFieldName,
    /// Obsolete line folding (a line starting with a space or a tab).
    ObsFold,
    /// A control character other than a tab in a field value.
    ControlInValue,
    /// The head is not ended by an empty line before the block ends.
    Unterminated,
}

impl fmt::Display for HttpSyntax {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HttpSyntax::LeadingEmptyLines => "empty lines before the start line",
            HttpSyntax::NoReasonPhrase => {
                "status line without a reason phrase and the space before it"
            }
            HttpSyntax::BadStatusLine => "status line is not `HTTP/d.d SP 3DIGIT SP reason`",
            HttpSyntax::BadRequestLine => "request line is not `method SP target SP HTTP/d.d`",
            HttpSyntax::BareLf => "line ended by LF without CR",
            HttpSyntax::ExtraCr => "line ended by CR CR LF",
            HttpSyntax::NoColon => "header line without a colon",
            HttpSyntax::BadFieldName => "field name is not a token",
            HttpSyntax::ObsFold => "obsolete line folding",
            HttpSyntax::ControlInValue => "control character in a field value",
            HttpSyntax::Unterminated => "head not ended by an empty line",
        })
    }
}

/// What [`scan`] found.
#[derive(Debug, Default)]
pub(super) struct Head {
    /// Whether the block starts (after empty lines) with a start line of
    /// the expected kind.
    pub start_line: bool,
    /// Where the payload starts.
    pub body_at: usize,
    /// The header fields (names and values trimmed, lossy UTF-8), with
    /// folded lines joined.
    pub headers: Vec<(String, String)>,
    /// Each kind of deviation found, with its first line (1-based).
    pub issues: Vec<(usize, HttpSyntax)>,
}

impl Head {
    fn issue(&mut self, line: usize, what: HttpSyntax) {
        if !self.issues.iter().any(|(_, w)| *w == what) {
            self.issues.push((line, what));
        }
    }
}

/// RFC 9110's `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// `HTTP/` DIGIT [`.` DIGIT] (HTTP/2 written without a minor version is
/// accepted).
fn is_version(v: &[u8]) -> bool {
    match v.strip_prefix(b"HTTP/") {
        Some([d]) => d.is_ascii_digit(),
        Some([d, b'.', m]) => d.is_ascii_digit() && m.is_ascii_digit(),
        _ => false,
    }
}

/// How a line ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    /// CR LF.
    CrLf,
    /// LF alone.
    Lf,
    /// Several CRs, then LF.
    CrsLf,
    /// The block ended first.
    None,
}

/// One line from `from`: the line without its end (every CR before the
/// LF, as the reader's parser strips them), the position after it, and
/// how it ended.
fn line_at(block: &[u8], from: usize) -> (&[u8], usize, End) {
    let rest = &block[from..];
    let (line, next, lf) = match memchr::memchr(b'\n', rest) {
        Some(i) => (&rest[..i], from + i + 1, true),
        None => (rest, block.len(), false),
    };
    let crs = line.iter().rev().take_while(|&&b| b == b'\r').count();
    let end = match (lf, crs) {
        (false, _) => End::None,
        (true, 0) => End::Lf,
        (true, 1) => End::CrLf,
        (true, _) => End::CrsLf,
    };
    (&line[..line.len() - crs], next, end)
}

/// Records a line end's deviation.
fn line_end(head: &mut Head, line_no: usize, end: End) {
    match end {
        End::Lf => head.issue(line_no, HttpSyntax::BareLf),
        End::CrsLf => head.issue(line_no, HttpSyntax::ExtraCr),
        End::CrLf | End::None => {}
    }
}

fn check_status_line(line: &[u8]) -> Option<HttpSyntax> {
    let mut parts = line.splitn(3, |&b| b == b' ');
    let version = parts.next().unwrap_or_default();
    let code = parts.next();
    let reason = parts.next();
    let code_ok = code.is_some_and(|c| c.len() == 3 && c.iter().all(u8::is_ascii_digit));
    if !is_version(version) || !code_ok {
        return Some(HttpSyntax::BadStatusLine);
    }
    match reason {
        None => Some(HttpSyntax::NoReasonPhrase),
        Some(r) if r.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f) => {
            Some(HttpSyntax::BadStatusLine)
        }
        Some(_) => None,
    }
}

fn check_request_line(line: &[u8]) -> Option<HttpSyntax> {
    let parts: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let ok = match parts[..] {
        [method, target, version] => {
            !method.is_empty()
                && method.iter().all(|&b| is_tchar(b))
                && !target.is_empty()
                && target.iter().all(|&b| b > 0x20 && b != 0x7f)
                && is_version(version)
        }
        _ => false,
    };
    (!ok).then_some(HttpSyntax::BadRequestLine)
}

/// Whether `line` looks enough like a start line of the kind for its
/// head to be split from its payload: `HTTP/` for a response, a last
/// whitespace-separated word starting `HTTP/` after a method and a target
/// for a request.
fn is_start_line(line: &[u8], request: bool) -> bool {
    if !request {
        return line.starts_with(b"HTTP/");
    }
    let words: Vec<&[u8]> = line
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    words.len() >= 3 && words.last().is_some_and(|w| w.starts_with(b"HTTP/"))
}

/// Scans the HTTP head at the start of `block` (a request's when
/// `request`, else a response's).
pub(super) fn scan(block: &[u8], request: bool) -> Head {
    let mut head = Head {
        body_at: block.len(),
        ..Head::default()
    };
    let lead = block
        .iter()
        .take_while(|&&b| matches!(b, b'\r' | b'\n'))
        .count();
    let mut line_no = 1 + block[..lead].iter().filter(|&&b| b == b'\n').count();
    if lead > 0 {
        head.issue(1, HttpSyntax::LeadingEmptyLines);
    }
    if lead >= block.len() {
        return head;
    }
    let (start, mut pos, end) = line_at(block, lead);
    if !is_start_line(start, request) {
        return head;
    }
    head.start_line = true;
    let start_issue = if request {
        check_request_line(start)
    } else {
        check_status_line(start)
    };
    if let Some(i) = start_issue {
        head.issue(line_no, i);
    }
    let mut ended = end;
    loop {
        if ended == End::None {
            head.issue(line_no, HttpSyntax::Unterminated);
            return head;
        }
        line_end(&mut head, line_no, ended);
        if pos >= block.len() {
            head.issue(line_no, HttpSyntax::Unterminated);
            return head;
        }
        line_no += 1;
        let (line, next, end) = line_at(block, pos);
        pos = next;
        ended = end;
        if line.is_empty() {
            if end == End::None {
                head.issue(line_no, HttpSyntax::Unterminated);
            } else {
                line_end(&mut head, line_no, end);
            }
            head.body_at = pos;
            return head;
        }
        field_line(&mut head, line, line_no);
    }
}

/// Checks and records one field line of the head.
fn field_line(head: &mut Head, line: &[u8], line_no: usize) {
    let control = |v: &[u8]| v.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f);
    if matches!(line[0], b' ' | b'\t') {
        head.issue(line_no, HttpSyntax::ObsFold);
        if control(line) {
            head.issue(line_no, HttpSyntax::ControlInValue);
        }
        if let Some((_, v)) = head.headers.last_mut() {
            v.push(' ');
            v.push_str(String::from_utf8_lossy(line).trim());
        }
        return;
    }
    let Some(colon) = memchr::memchr(b':', line) else {
        head.issue(line_no, HttpSyntax::NoColon);
        return;
    };
    let (name, value) = (&line[..colon], &line[colon + 1..]);
    if name.is_empty() || !name.iter().all(|&b| is_tchar(b)) {
        head.issue(line_no, HttpSyntax::BadFieldName);
    }
    if control(value) {
        head.issue(line_no, HttpSyntax::ControlInValue);
    }
    head.headers.push((
        String::from_utf8_lossy(name).trim().to_owned(),
        String::from_utf8_lossy(value).trim().to_owned(),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(h: &Head) -> Vec<HttpSyntax> {
        h.issues.iter().map(|(_, k)| *k).collect()
    }

    #[test]
    fn a_clean_head_and_its_payload() {
        let b = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Empty:\r\n\r\n<p>hi";
        let h = scan(b, false);
        assert!(h.start_line);
        assert!(h.issues.is_empty(), "{:?}", h.issues);
        assert_eq!(&b[h.body_at..], b"<p>hi");
        assert_eq!(h.headers.len(), 2);
        let r = scan(b"GET /a?b=c HTTP/1.1\r\nHost: e.com\r\n\r\n", true);
        assert!(r.start_line && r.issues.is_empty(), "{:?}", r.issues);
        assert_eq!(r.body_at, 36);
        // The reader's parser puts the payload at the same place.
        let (_, at) = crate::http::parse_response(b).unwrap();
        assert_eq!(at, h.body_at);
    }

    #[test]
    fn each_deviation_once_at_its_first_line() {
        let b = b"\r\nHTTP/1.1 200\nBad Name: x\nnocolon\n folded\nA: \x01\nB: y\n\nbody";
        let h = scan(b, false);
        assert_eq!(
            h.issues,
            [
                (1, HttpSyntax::LeadingEmptyLines),
                (2, HttpSyntax::NoReasonPhrase),
                (2, HttpSyntax::BareLf),
                (3, HttpSyntax::BadFieldName),
                (4, HttpSyntax::NoColon),
                (5, HttpSyntax::ObsFold),
                (6, HttpSyntax::ControlInValue),
            ]
        );
        assert_eq!(&b[h.body_at..], b"body");
        assert_eq!(
            kinds(&scan(b"HTTP/1.1 200 OK\r\nA: b\r\n", false)),
            [HttpSyntax::Unterminated]
        );
        assert_eq!(
            kinds(&scan(b"HTTP/1.1 20x OK\r\n\r\n", false)),
            [HttpSyntax::BadStatusLine]
        );
        assert_eq!(
            kinds(&scan(b"GET  /  HTTP/1.1\r\n\r\n", true)),
            [HttpSyntax::BadRequestLine]
        );
        assert!(!scan(b"<html>", false).start_line);
        assert!(!scan(b"GET /", true).start_line);
        assert!(!scan(b"", false).start_line);
        assert!(!scan(b"\r\n\r\n", true).start_line);
        assert!(scan(b"HTTP/2 204 \r\n\r\n", false).issues.is_empty());
        // CR CR LF line ends: one line end each, as the reader takes them.
        let b = b"HTTP/1.0 302 \r\r\nLocation: /x\r\r\n\r\r\nbody";
        let h = scan(b, false);
        assert_eq!(h.issues, [(1, HttpSyntax::ExtraCr)]);
        assert_eq!(&b[h.body_at..], b"body");
        assert_eq!(crate::http::parse_response(b).unwrap().1, h.body_at);
    }

    /// Every prefix of a head with every kind of line end, as a response
    /// and as a request: no panic, and the payload where the reader puts it.
    #[test]
    fn every_prefix() {
        let b = b"\r\nHTTP/1.1 200 OK\r\r\nA: b\n c\r\nD\r\n:e\r\n\r\nbody\r";
        for n in 0..=b.len() {
            for request in [false, true] {
                let h = scan(&b[..n], request);
                assert!(h.body_at <= n);
            }
            if let Ok((_, at)) = crate::http::parse_response(&b[..n]) {
                assert_eq!(at, scan(&b[..n], false).body_at, "{n}");
            }
        }
    }
}
