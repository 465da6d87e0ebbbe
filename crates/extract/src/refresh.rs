//! The HTML Standard's *shared declarative refresh steps* (§7.11.1), as
//! used for `<meta http-equiv=refresh content=…>`: the URL part of the
//! `content` attribute.
//!
//! The standard's *ASCII whitespace* (tab, LF, FF, CR, space) is exactly
//! `u8::is_ascii_whitespace`.
//!
//! Invariant: the returned URL is a slice of the input; `None` means the
//! value does not parse or names no URL (a refresh of the page itself).

/// The time and the URL text of a refresh declaration, or `None` on failure.
pub fn parse_refresh(input: &str) -> Option<(u64, Option<&str>)> {
    let b = input.as_bytes();
    // 1. If input is the empty string, then return.
    if b.is_empty() {
        return None;
    }
    // 3. Skip ASCII whitespace.
    let mut pos = 0;
    while pos < b.len() && b[pos].is_ascii_whitespace() {
        pos += 1;
    }
    // 5. Collect a sequence of ASCII digits: timeString.
    let start = pos;
    while pos < b.len() && b[pos].is_ascii_digit() {
        pos += 1;
    }
    let time_string = &input[start..pos];
    // 6-7. Empty timeString: fail unless a '.' follows.
    let time = if time_string.is_empty() {
        if b.get(pos) != Some(&b'.') {
            return None;
        }
        0
    } else {
        time_string.parse::<u64>().unwrap_or(u64::MAX)
    };
    // 8. Collect (and ignore) ASCII digits and '.'.
    while pos < b.len() && (b[pos].is_ascii_digit() || b[pos] == b'.') {
        pos += 1;
    }
    // 10. If position is not past the end of input:
    if pos < b.len() {
        // 10.1 Not ';', ',' or ASCII whitespace: return (failure).
        if !(b[pos] == b';' || b[pos] == b',' || b[pos].is_ascii_whitespace()) {
            return None;
        }
        // 10.2-10.4
        while pos < b.len() && b[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos < b.len() && (b[pos] == b';' || b[pos] == b',') {
            pos += 1;
        }
        while pos < b.len() && b[pos].is_ascii_whitespace() {
            pos += 1;
        }
    }
    // 11. If position is not past the end of input:
    if pos >= b.len() {
        return Some((time, None));
    }
    // 11.1 urlString: the rest.
    let mut url = &input[pos..];
    // 11.2-11.7 "url" "=" prefix (a partial match jumps to "parse").
    let has_prefix = b.len() - pos >= 3 && b[pos..pos + 3].eq_ignore_ascii_case(b"url");
    let mut skip_quotes = !has_prefix;
    if has_prefix {
        let mut p = pos + 3;
        while p < b.len() && b[p].is_ascii_whitespace() {
            p += 1;
        }
        if b.get(p) == Some(&b'=') {
            p += 1;
            while p < b.len() && b[p].is_ascii_whitespace() {
                p += 1;
            }
            pos = p;
            skip_quotes = true;
        }
    }
    if skip_quotes {
        // 11.8 Skip quotes.
        let quote = match b.get(pos) {
            Some(&q @ (b'"' | b'\'')) => {
                pos += 1;
                Some(q as char)
            }
            _ => None,
        };
        // 11.9 urlString: the rest.
        url = &input[pos..];
        // 11.10 Up to the matching quote.
        if let Some(q) = quote
            && let Some(i) = url.find(q)
        {
            url = &url[..i];
        }
    }
    Some((time, Some(url)))
}

#[cfg(test)]
mod tests {
    use super::parse_refresh;

    #[test]
    fn refresh() {
        assert_eq!(parse_refresh("5; url=/next"), Some((5, Some("/next"))));
        assert_eq!(
            parse_refresh("0;URL='a b.html'x"),
            Some((0, Some("a b.html")))
        );
        assert_eq!(parse_refresh("0, url = \"q\""), Some((0, Some("q"))));
        assert_eq!(parse_refresh("3 http://x/"), Some((3, Some("http://x/"))));
        assert_eq!(parse_refresh("1.5;url=x"), Some((1, Some("x"))));
        assert_eq!(parse_refresh(".5;url=x"), Some((0, Some("x"))));
        assert_eq!(parse_refresh("10"), Some((10, None)));
        assert_eq!(parse_refresh("10;  "), Some((10, None)));
        // "urx" is not the prefix: the URL is the whole rest, quotes kept.
        assert_eq!(parse_refresh("0; urx=y"), Some((0, Some("urx=y"))));
        // "url" without "=" is the URL text itself.
        assert_eq!(parse_refresh("0; url"), Some((0, Some("url"))));
        assert_eq!(parse_refresh("0;'/q'"), Some((0, Some("/q"))));
        assert_eq!(parse_refresh("x; url=y"), None);
        assert_eq!(parse_refresh("5x"), None);
        assert_eq!(parse_refresh(""), None);
    }
}
