//! An HTTP request head as a `request` record stores it: the method, the
//! header fields and where the body starts — what joining a POST or PUT to
//! its response needs. Tolerant as a crawler's writer is not always
//! careful: LF or CRLF line ends, no reason to reject an odd target.

/// A request record's HTTP head.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestHead {
    /// The method as written (`POST`).
    pub method: String,
    /// The header fields, in order.
    pub headers: Vec<(String, String)>,
    /// The index of the body's first byte in the block.
    pub body_at: usize,
    /// The body, as much of it as the block holds.
    pub body: Vec<u8>,
}

/// The longest head read (the rest of a longer one is not a request head).
const MAX_HEAD: usize = 64 << 10;

impl RequestHead {
    /// The head of `block`, or None when it does not start with a request
    /// line (`METHOD SP TARGET SP HTTP/x`) followed by a blank line — or,
    /// when `complete` (the block is the record's whole block), by the
    /// block's end: some crawlers store a request head without its blank
    /// line (the record's own CR/LFs follow it), and warcio reads such a
    /// head to the end of the block, with an empty body.
    pub fn parse(block: &[u8], complete: bool) -> Option<RequestHead> {
        let window = &block[..block.len().min(MAX_HEAD)];
        let ends_head = complete && window.len() == block.len();
        let mut lines = Vec::new();
        let mut at = 0;
        let body_at = loop {
            if at == window.len() && ends_head {
                break at;
            }
            let end = match memchr::memchr(b'\n', &window[at..]) {
                Some(n) => at + n,
                None if ends_head => window.len(),
                None => return None,
            };
            let line = &window[at..end];
            at = (end + 1).min(window.len());
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            if line.is_empty() {
                break at;
            }
            lines.push(line);
        };
        let (first, fields) = lines.split_first()?;
        let first = std::str::from_utf8(first).ok()?;
        let mut parts = first.split(' ').filter(|p| !p.is_empty());
        let method = parts.next()?;
        let _target = parts.next()?;
        if !parts.next().is_some_and(|v| v.starts_with("HTTP/"))
            || !method.bytes().all(|b| b.is_ascii_alphabetic())
        {
            return None;
        }
        let headers = fields
            .iter()
            .filter_map(|l| {
                let colon = memchr::memchr(b':', l)?;
                let name = String::from_utf8_lossy(&l[..colon]).trim().to_owned();
                let value = String::from_utf8_lossy(&l[colon + 1..]).trim().to_owned();
                Some((name, value))
            })
            .collect();
        Some(RequestHead {
            method: method.to_owned(),
            headers,
            body_at,
            body: block[body_at..].to_vec(),
        })
    }

    /// The first value of a header field (case-insensitive name).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_post_head_and_its_body() {
        let block = b"POST /post HTTP/1.1\r\nHost: httpbin.org\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\nfoo=bar";
        let r = RequestHead::parse(block, true).unwrap();
        assert_eq!(r.method, "POST");
        assert_eq!(r.header("content-length"), Some("7"));
        assert_eq!(r.body, b"foo=bar");
        assert_eq!(r.body_at, block.len() - 7);
        assert!(RequestHead::parse(b"not a request\r\n\r\n", true).is_none());
        assert!(RequestHead::parse(b"", true).is_none());
    }

    #[test]
    fn a_head_without_its_blank_line_ends_with_a_whole_block() {
        for block in [
            &b"GET / HTTP/1.1\r\nHost: a.example\r\n"[..],
            b"GET / HTTP/1.1\r\nHost: a.example",
            b"GET / HTTP/1.0",
        ] {
            let r = RequestHead::parse(block, true).unwrap();
            assert_eq!((r.method.as_str(), r.body_at), ("GET", block.len()));
            assert!(r.body.is_empty());
            // A block the reader cut short may go on with the head.
            assert!(RequestHead::parse(block, false).is_none());
        }
        let host = RequestHead::parse(b"GET / HTTP/1.1\r\nHost: a.example", true).unwrap();
        assert_eq!(host.header("host"), Some("a.example"));
    }
}
