//! URLs in CSS text: `url(…)` tokens and `@import "…"` strings, found with
//! a small tokenizer after CSS Syntax Level 3 (§4): comments, strings,
//! escapes, identifiers and url tokens.
//!
//! It does not build rules: a URL anywhere in a style sheet or a `style`
//! attribute is a link. `url()` with a quoted argument is a function whose
//! string is the URL; an unquoted `url(` is a url token (a bad url — one
//! containing a quote, `(` or a non-printable code point — is skipped, as
//! CSS does).
//!
//! Invariant: never panics and runs in linear time; every returned URL is
//! the value after CSS escapes are resolved (borrowed when it had none).

use std::borrow::Cow;

fn is_ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

fn is_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-' || !c.is_ascii()
}

/// Whether `css` can contain a URL at all: a `url(` (any case), an
/// `@import`, or an escape (which could spell either). Most style attributes
/// and many style sheets have none; they skip the tokenizer.
fn may_contain_urls(css: &[u8]) -> bool {
    memchr::memchr2(b'@', b'\\', css).is_some()
        || memchr::memchr_iter(b'(', css)
            .any(|i| i >= 3 && css[i - 3..i].eq_ignore_ascii_case(b"url"))
}

/// The URLs in a piece of CSS (a style sheet or a declaration list).
pub fn css_urls(css: &str) -> Vec<Cow<'_, str>> {
    if !may_contain_urls(css.as_bytes()) {
        return Vec::new();
    }
    css_urls_tokenized(css)
}

/// [`css_urls`] without the pre-filter: the CSS tokenizing itself.
fn css_urls_tokenized(css: &str) -> Vec<Cow<'_, str>> {
    let mut out = Vec::new();
    let b = css.as_bytes();
    let mut i = 0;
    // Whether the previous significant token was `@import`.
    let mut after_import = false;
    while i < b.len() {
        let c = b[i];
        match c {
            b'/' if b.get(i + 1) == Some(&b'*') => {
                // Comment.
                i = match css[i + 2..].find("*/") {
                    Some(e) => i + 2 + e + 2,
                    None => b.len(),
                };
            }
            b'"' | b'\'' => {
                let (s, next) = string_token(css, i + 1, c);
                if after_import && !s.is_empty() {
                    out.push(s);
                }
                after_import = false;
                i = next;
            }
            b'\\' => {
                // An escape starts an identifier; skip it.
                i = skip_escape(css, i + 1);
                after_import = false;
            }
            b'@' => {
                let (name, next) = ident(css, i + 1);
                after_import = name.eq_ignore_ascii_case("import");
                i = next.max(i + 1);
            }
            _ if is_ws(c as char) => i += 1,
            _ if is_name(c as char) => {
                let start = i;
                let (name, next) = ident(css, i);
                i = next.max(i + 1);
                let fresh = start == 0 || !is_name_byte_before(b, start);
                if fresh && name.eq_ignore_ascii_case("url") && b.get(i) == Some(&b'(') {
                    i += 1;
                    let (url, next) = url_function(css, i);
                    if let Some(u) = url {
                        out.push(u);
                    }
                    i = next;
                    after_import = false;
                    continue;
                }
                after_import = false;
            }
            _ => {
                i += 1;
                if c != b' ' {
                    after_import = false;
                }
            }
        }
    }
    out
}

fn is_name_byte_before(b: &[u8], at: usize) -> bool {
    // `at` starts an identifier only if the byte before is not part of one
    // (an escape before would have been consumed by `ident` already).
    let p = b[at - 1];
    p.is_ascii_alphanumeric() || p == b'_' || p == b'-' || p >= 0x80 || p == b'\\'
}

/// An identifier starting at `i` (escapes resolved); returns it and the
/// position after it.
fn ident(css: &str, mut i: usize) -> (Cow<'_, str>, usize) {
    let start = i;
    let mut owned: Option<String> = None;
    // ASCII name bytes first, byte by byte (the common case); the loop
    // below handles non-ASCII and escapes.
    let b = css.as_bytes();
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
        i += 1;
    }
    while let Some(c) = css[i..].chars().next() {
        if is_name(c) {
            if let Some(o) = owned.as_mut() {
                o.push(c);
            }
            i += c.len_utf8();
        } else if c == '\\' && valid_escape(css, i) {
            let o = owned.get_or_insert_with(|| css[start..i].to_owned());
            let (ch, next) = escape(css, i + 1);
            o.push(ch);
            i = next;
        } else {
            break;
        }
    }
    match owned {
        Some(o) => (Cow::Owned(o), i),
        None => (Cow::Borrowed(&css[start..i]), i),
    }
}

/// Whether `\` at `i` starts a valid escape (not followed by a newline).
fn valid_escape(css: &str, i: usize) -> bool {
    !matches!(
        css.as_bytes().get(i + 1),
        None | Some(b'\n' | b'\r' | b'\x0C')
    )
}

/// Consumes an escape after its `\` at `i`: the code point and the next
/// position. EOF gives U+FFFD.
fn escape(css: &str, i: usize) -> (char, usize) {
    let b = css.as_bytes();
    let mut j = i;
    while j < b.len() && j - i < 6 && b[j].is_ascii_hexdigit() {
        j += 1;
    }
    if j > i {
        let v = u32::from_str_radix(&css[i..j], 16).unwrap_or(0xFFFD);
        let ch = match char::from_u32(v) {
            Some(c) if v != 0 => c,
            _ => '\u{FFFD}',
        };
        // One whitespace after a hex escape is part of it (CRLF counts as one).
        if b.get(j) == Some(&b'\r') && b.get(j + 1) == Some(&b'\n') {
            j += 2;
        } else if b.get(j).is_some_and(|&c| is_ws(c as char)) {
            j += 1;
        }
        return (ch, j);
    }
    match css[i..].chars().next() {
        Some(c) => (c, i + c.len_utf8()),
        None => ('\u{FFFD}', i),
    }
}

fn skip_escape(css: &str, i: usize) -> usize {
    if css.as_bytes().get(i).is_some_and(|&c| c == b'\n') {
        return i;
    }
    escape(css, i).1.max(i)
}

/// A string token after its opening quote at `i - 1`: its value and the
/// position after it. A newline ends it (a bad string, value so far).
fn string_token(css: &str, mut i: usize, quote: u8) -> (Cow<'_, str>, usize) {
    let b = css.as_bytes();
    let start = i;
    let mut owned: Option<String> = None;
    while i < b.len() {
        let c = b[i];
        if c == quote {
            let v = owned.map_or(Cow::Borrowed(&css[start..i]), Cow::Owned);
            return (v, i + 1);
        }
        if c == b'\n' || c == b'\r' || c == b'\x0C' {
            // Bad string: the value is not used.
            return (Cow::Borrowed(""), i);
        }
        if c == b'\\' {
            let o = owned.get_or_insert_with(|| css[start..i].to_owned());
            match b.get(i + 1) {
                None => i += 1,
                Some(b'\n' | b'\x0C') => i += 2, // line continuation
                Some(b'\r') => i += if b.get(i + 2) == Some(&b'\n') { 3 } else { 2 },
                Some(_) => {
                    let (ch, next) = escape(css, i + 1);
                    o.push(ch);
                    i = next;
                }
            }
            continue;
        }
        let ch = css[i..].chars().next().expect("in bounds");
        if let Some(o) = owned.as_mut() {
            o.push(ch);
        }
        i += ch.len_utf8();
    }
    (
        owned.map_or(Cow::Borrowed(&css[start..]), Cow::Owned),
        b.len(),
    )
}

/// After `url(`: the URL (None for a bad url or an empty one) and the
/// position after the closing `)`.
fn url_function(css: &str, mut i: usize) -> (Option<Cow<'_, str>>, usize) {
    let b = css.as_bytes();
    while i < b.len() && is_ws(b[i] as char) {
        i += 1;
    }
    if let Some(&q @ (b'"' | b'\'')) = b.get(i) {
        // url("…"): a function whose argument is a string.
        let (s, mut next) = string_token(css, i + 1, q);
        while next < b.len() && is_ws(b[next] as char) {
            next += 1;
        }
        if b.get(next) == Some(&b')') {
            next += 1;
        }
        return ((!s.is_empty()).then_some(s), next);
    }
    // A url token.
    let start = i;
    let mut owned: Option<String> = None;
    let mut end: Option<usize> = None;
    while i < b.len() {
        let c = b[i];
        match c {
            b')' => {
                let e = end.unwrap_or(i);
                let v = owned.map_or(Cow::Borrowed(&css[start..e]), Cow::Owned);
                return ((!v.is_empty()).then_some(v), i + 1);
            }
            _ if is_ws(c as char) => {
                end.get_or_insert(i);
                i += 1;
            }
            b'"' | b'\'' | b'(' | 0..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F => {
                return (None, bad_url_rest(css, i));
            }
            _ if end.is_some() => return (None, bad_url_rest(css, i)),
            b'\\' => {
                if !valid_escape(css, i) {
                    return (None, bad_url_rest(css, i));
                }
                let o = owned.get_or_insert_with(|| css[start..i].to_owned());
                let (ch, next) = escape(css, i + 1);
                o.push(ch);
                i = next;
            }
            _ => {
                let ch = css[i..].chars().next().expect("in bounds");
                if let Some(o) = owned.as_mut() {
                    o.push(ch);
                }
                i += ch.len_utf8();
            }
        }
    }
    // EOF in a url token: a parse error, but the token is still a url.
    let e = end.unwrap_or(b.len());
    let v = owned.map_or(Cow::Borrowed(&css[start..e]), Cow::Owned);
    ((!v.is_empty()).then_some(v), b.len())
}

/// Consume the remnants of a bad url: up to and including `)`.
fn bad_url_rest(css: &str, mut i: usize) -> usize {
    let b = css.as_bytes();
    while i < b.len() {
        match b[i] {
            b')' => return i + 1,
            b'\\' if valid_escape(css, i) => i = skip_escape(css, i + 1).max(i + 1),
            _ => i += 1,
        }
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::css_urls;

    fn urls(css: &str) -> Vec<String> {
        css_urls(css).into_iter().map(|c| c.into_owned()).collect()
    }

    #[test]
    fn url_tokens() {
        assert_eq!(urls("a{background:url(x.png)}"), ["x.png"]);
        assert_eq!(
            urls("a{background:URL( 'y z.png' ) no-repeat}"),
            ["y z.png"]
        );
        assert_eq!(urls("b{x:url(\"q\\\"r\")}"), ["q\"r"]);
        assert_eq!(urls("c{x:url(  sp.png  )}"), ["sp.png"]);
        assert_eq!(urls("d{x:url(a\\29 b)}"), ["a)b"]);
        assert_eq!(
            urls("@import 'i.css'; @import url(j.css) screen;"),
            ["i.css", "j.css"]
        );
        assert_eq!(urls("@import \"k.css\";"), ["k.css"]);
    }

    #[test]
    fn comments_strings_and_bad_urls() {
        assert_eq!(urls("/* url(no.png) */ a{x:url(yes.png)}"), ["yes.png"]);
        assert_eq!(
            urls("a{content:'url(no.png)'} b{x:url(yes.png)}"),
            ["yes.png"]
        );
        // Not a url function: part of a longer identifier.
        assert_eq!(urls("a{x:myurl(no.png); y:url(ok)}"), ["ok"]);
        // Bad url (a quote inside, or whitespace inside): skipped up to ')'.
        assert_eq!(urls("a{x:url(b'ad.png); y:url(a b); z:url(ok2)}"), ["ok2"]);
        assert_eq!(urls("a{x:url()} b{y:url('')}"), Vec::<String>::new());
        // Unterminated: still a url at EOF.
        assert_eq!(urls("a{x:url(eof.png"), ["eof.png"]);
        assert_eq!(urls("a{x:url('eof2.png"), ["eof2.png"]);
        // Line continuation in a string.
        assert_eq!(urls("a{x:url('a\\\nb')}"), ["ab"]);
        // Unterminated comment.
        assert_eq!(urls("/* url(x)"), Vec::<String>::new());
    }
}
