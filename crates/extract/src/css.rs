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
//! Whitespace: CSS's is newline, tab and space, and its input
//! preprocessing turns CR, FF and CRLF into newlines. This tokenizer reads
//! the text unpreprocessed, so CR and FF count as whitespace too: the set is
//! exactly `u8::is_ascii_whitespace`'s (tab, LF, FF, CR, space).
//!
//! Invariant: never panics and runs in linear time; every returned URL is
//! the value after CSS escapes are resolved (borrowed when it had none).

use std::borrow::Cow;

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
    css_urls_jumping(css).unwrap_or_else(|| css_urls_tokenized(css))
}

/// Bytes where the jumping scan must look: comment starts, strings,
/// escapes, at-rules, and `(` (a function such as `url(` ends there).
#[cfg(test)]
fn is_significant(b: u8) -> bool {
    matches!(b, b'/' | b'"' | b'\'' | b'\\' | b'@' | b'(')
}

/// The next significant byte (see `is_significant`), found with two
/// `memchr3` searches whose results are kept until the scan passes them,
/// so a style sheet is searched about twice in all, not once per hit.
#[derive(Default)]
struct NextSignificant {
    /// The next `(`, `"` or `'` at or after where it was last searched
    /// from (`None`: not searched yet; the length: none).
    group_a: Option<usize>,
    /// The same for `/`, `\\` and `@`.
    group_b: Option<usize>,
}

impl NextSignificant {
    fn at_or_after(&mut self, b: &[u8], i: usize) -> Option<usize> {
        let find = |x: u8, y: u8, z: u8| {
            b.get(i..)
                .and_then(|rest| memchr::memchr3(x, y, z, rest))
                .map_or(b.len(), |k| i + k)
        };
        let a = match self.group_a {
            Some(a) if a >= i => a,
            _ => find(b'(', b'"', b'\''),
        };
        let c = match self.group_b {
            Some(c) if c >= i => c,
            _ => find(b'/', b'\\', b'@'),
        };
        self.group_a = Some(a);
        self.group_b = Some(c);
        let at = a.min(c);
        (at < b.len()).then_some(at)
    }
}

/// [`css_urls_tokenized`]'s result without tokenizing every identifier:
/// jumps from one significant byte to the next and looks back from each
/// `(` for the name of its function. `None` when that name contains an
/// escape (`\75rl(`): the caller then tokenizes (rare in real CSS).
///
/// Why it gives the tokenizer's result: outside comments and strings, only
/// a function token `url(` (an identifier immediately followed by `(`), an
/// `@import` at-keyword and the strings after it yield URLs; identifiers,
/// numbers and delimiters between them only matter for `@import` (any
/// token other than whitespace and comments ends it, which `only_space`
/// checks) and for where an identifier starts (the look-back stops at the
/// first byte that cannot continue a name, as the tokenizer's would).
fn css_urls_jumping(css: &str) -> Option<Vec<Cow<'_, str>>> {
    let b = css.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    // The position after an `@import` keyword, while nothing but
    // whitespace and comments followed it.
    let mut import_at: Option<usize> = None;
    let only_space = |from: usize, to: usize| b[from..to].iter().all(|&c| c.is_ascii_whitespace());
    // Where the last escape outside strings ended: a name run starting
    // there continues the escape's identifier.
    let mut escape_end = usize::MAX;
    // Where the last at-keyword ended: a `(` there follows the at-keyword.
    let mut at_keyword_end = usize::MAX;
    let mut next = NextSignificant::default();
    loop {
        let Some(at) = next.at_or_after(b, i) else {
            return Some(out);
        };
        if import_at.is_some_and(|from| !only_space(from, at)) {
            import_at = None;
        }
        match b[at] {
            b'/' if b.get(at + 1) == Some(&b'*') => {
                i = match css[at + 2..].find("*/") {
                    Some(e) => at + 2 + e + 2,
                    None => b.len(),
                };
                // A comment does not end an `@import`: continue from here.
                if import_at.is_some() {
                    import_at = Some(i);
                }
                continue;
            }
            b'/' => {
                import_at = None;
                i = at + 1;
            }
            q @ (b'"' | b'\'') => {
                let (s, next) = string_token(css, at + 1, q);
                if import_at.is_some() && !s.is_empty() {
                    out.push(s);
                }
                import_at = None;
                i = next;
            }
            b'\\' => {
                import_at = None;
                i = skip_escape(css, at + 1).max(at + 1);
                escape_end = i;
            }
            b'@' => {
                let (name, next) = ident(css, at + 1);
                import_at = name.eq_ignore_ascii_case("import").then_some(next);
                at_keyword_end = next;
                i = next.max(at + 1);
            }
            _ => {
                // `(`: the function name is the identifier ending here.
                import_at = None;
                let mut s = at;
                while s > 0
                    && (b[s - 1].is_ascii_alphanumeric()
                        || matches!(b[s - 1], b'_' | b'-')
                        || b[s - 1] >= 0x80)
                {
                    s -= 1;
                }
                if s == escape_end || s > 0 && b[s - 1] == b'\\' || b[s..at].contains(&b'\\') {
                    return None;
                }
                // `@url(` is an at-keyword followed by `(`, not a function.
                let at_keyword = at == at_keyword_end || s > 0 && b[s - 1] == b'@';
                if !at_keyword && b[s..at].eq_ignore_ascii_case(b"url") {
                    let (url, next) = url_function(css, at + 1);
                    out.extend(url);
                    i = next;
                } else {
                    i = at + 1;
                }
            }
        }
    }
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
            _ if c.is_ascii_whitespace() => i += 1,
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
        } else if b.get(j).is_some_and(|&c| c.is_ascii_whitespace()) {
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
    loop {
        // The run of plain string content up to the next byte that is not
        // (every such byte is ASCII, so `j` is a char boundary).
        let j = string_run_end(b, i, quote);
        if let Some(o) = owned.as_mut() {
            o.push_str(&css[i..j]);
        }
        i = j;
        let Some(&c) = b.get(i) else { break };
        if c == quote {
            let v = owned.map_or(Cow::Borrowed(&css[start..i]), Cow::Owned);
            return (v, i + 1);
        }
        if c != b'\\' {
            // A newline: a bad string, whose value is not used.
            return (Cow::Borrowed(""), i);
        }
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
    }
    (
        owned.map_or(Cow::Borrowed(&css[start..]), Cow::Owned),
        b.len(),
    )
}

/// The first byte at or after `i` that ends a run of plain string content:
/// the quote, `\\`, or a newline (LF, CR, FF); or the length. Two `memchr`
/// passes instead of decoding every character (strings in style sheets
/// are often long `data:` URLs).
fn string_run_end(b: &[u8], i: usize, quote: u8) -> usize {
    let rest = &b[i..];
    let end = memchr::memchr3(quote, b'\\', b'\n', rest).unwrap_or(rest.len());
    i + memchr::memchr2(b'\r', b'\x0C', &rest[..end]).unwrap_or(end)
}

/// Whether `c` continues a url token unchanged: not `)`, whitespace, a
/// quote, `(`, `\\`, a non-printable ASCII byte. Bytes of non-ASCII
/// characters all do.
fn is_plain_url_byte(c: u8) -> bool {
    !matches!(c, b')' | b'"' | b'\'' | b'(' | b'\\' | 0..=0x20 | 0x7F)
}

/// After `url(`: the URL (None for a bad url or an empty one) and the
/// position after the closing `)`.
fn url_function(css: &str, mut i: usize) -> (Option<Cow<'_, str>>, usize) {
    let b = css.as_bytes();
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if let Some(&q @ (b'"' | b'\'')) = b.get(i) {
        // url("…"): a function whose argument is a string.
        let (s, mut next) = string_token(css, i + 1, q);
        while next < b.len() && b[next].is_ascii_whitespace() {
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
            _ if c.is_ascii_whitespace() => {
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
                // A run of plain bytes (ASCII stops it, so `j` is a char
                // boundary).
                let j = b[i..]
                    .iter()
                    .position(|&c| !is_plain_url_byte(c))
                    .map_or(b.len(), |k| i + k);
                if let Some(o) = owned.as_mut() {
                    o.push_str(&css[i..j]);
                }
                i = j;
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
    use std::borrow::Cow;

    use super::{NextSignificant, css_urls, is_significant};

    #[test]
    fn next_significant_is_the_next_significant_byte() {
        let css = "a{b:url( x )}/* c */@import 'd\\'e';f(\"g\") h / i (j) @k";
        let b = css.as_bytes();
        // Offsets visited in order, as the scan does, with jumps of any size.
        for step in [1, 2, 3, 7] {
            let mut next = NextSignificant::default();
            let mut i = 0;
            while i <= b.len() {
                let want = b[i..]
                    .iter()
                    .position(|&c| is_significant(c))
                    .map(|k| i + k);
                assert_eq!(next.at_or_after(b, i), want, "at {i}, step {step}");
                i += step;
            }
        }
    }

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

    /// The jumping scan against the tokenizer: the same URLs on random
    /// CSS-like text made of the bytes that matter.
    #[test]
    fn jumping_equals_tokenizing_on_generated_css() {
        let pieces = [
            "url(", "URL(", "u", "rl", "(", ")", "@import", "@", "import", "\"", "'", "\\", "\\75",
            "/*", "*/", " ", "\n", "a", "1", "-", "_", "é", ";", ":", "{", "}", "x.png", "\t", "/",
        ];
        let mut rng = spinneret_testdata::Rng(0x05ee_dc55);
        let mut fell_back = 0;
        let cases = 200_000;
        for _ in 0..cases {
            let n = rng.below(24);
            let css: String = (0..n).map(|_| rng.pick(&pieces)).collect();
            let slow = super::css_urls_tokenized(&css);
            match super::css_urls_jumping(&css) {
                Some(fast) => assert_eq!(fast, slow, "{css:?}"),
                None => fell_back += 1,
            }
        }
        assert!(
            fell_back * 4 < cases,
            "the fallback should be the exception: {fell_back}"
        );
    }

    /// A string token character by character, as CSS Syntax writes it: the
    /// model `string_token`'s runs must equal.
    fn string_token_model(css: &str, mut i: usize, quote: u8) -> (Cow<'_, str>, usize) {
        let b = css.as_bytes();
        let start = i;
        let mut owned: Option<String> = None;
        while i < b.len() {
            let c = b[i];
            if c == quote {
                return (
                    owned.map_or(Cow::Borrowed(&css[start..i]), Cow::Owned),
                    i + 1,
                );
            }
            if c == b'\n' || c == b'\r' || c == b'\x0C' {
                return (Cow::Borrowed(""), i);
            }
            if c == b'\\' {
                let o = owned.get_or_insert_with(|| css[start..i].to_owned());
                match b.get(i + 1) {
                    None => i += 1,
                    Some(b'\n' | b'\x0C') => i += 2,
                    Some(b'\r') => i += if b.get(i + 2) == Some(&b'\n') { 3 } else { 2 },
                    Some(_) => {
                        let (ch, next) = super::escape(css, i + 1);
                        o.push(ch);
                        i = next;
                    }
                }
                continue;
            }
            let ch = css[i..].chars().next().unwrap();
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

    /// A url token character by character: the model of `url_function`'s
    /// unquoted branch.
    fn url_token_model(css: &str, mut i: usize) -> (Option<Cow<'_, str>>, usize) {
        let b = css.as_bytes();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
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
                _ if c.is_ascii_whitespace() => {
                    end.get_or_insert(i);
                    i += 1;
                }
                b'"' | b'\'' | b'(' | 0..=0x08 | 0x0B | 0x0E..=0x1F | 0x7F => {
                    return (None, super::bad_url_rest(css, i));
                }
                _ if end.is_some() => return (None, super::bad_url_rest(css, i)),
                b'\\' => {
                    if !super::valid_escape(css, i) {
                        return (None, super::bad_url_rest(css, i));
                    }
                    let o = owned.get_or_insert_with(|| css[start..i].to_owned());
                    let (ch, next) = super::escape(css, i + 1);
                    o.push(ch);
                    i = next;
                }
                _ => {
                    let ch = css[i..].chars().next().unwrap();
                    if let Some(o) = owned.as_mut() {
                        o.push(ch);
                    }
                    i += ch.len_utf8();
                }
            }
        }
        let e = end.unwrap_or(b.len());
        let v = owned.map_or(Cow::Borrowed(&css[start..e]), Cow::Owned);
        ((!v.is_empty()).then_some(v), b.len())
    }

    #[test]
    fn string_and_url_tokens_equal_their_character_models() {
        let pieces = [
            "a",
            "é",
            "😀",
            "\"",
            "'",
            "\\",
            "\\41 ",
            "\\\n",
            "\\\r\n",
            "\\\r",
            "\n",
            "\r",
            "\x0C",
            " ",
            "\t",
            ")",
            "(",
            "\x01",
            "\x7f",
            "x.png",
            "data:image/png;base64,iVBOR",
        ];
        let mut rng = spinneret_testdata::Rng(0x5717_46e5);
        for _ in 0..200_000 {
            let n = rng.below(16);
            let css: String = (0..n).map(|_| rng.pick(&pieces)).collect();
            for quote in [b'"', b'\''] {
                assert_eq!(
                    super::string_token(&css, 0, quote),
                    string_token_model(&css, 0, quote),
                    "{css:?}"
                );
            }
            // Unquoted arguments only (a quote first makes it a string).
            if !css.trim_start().starts_with(['"', '\'']) {
                assert_eq!(
                    super::url_function(&css, 0),
                    url_token_model(&css, 0),
                    "{css:?}"
                );
            }
        }
    }

    /// The same on every `<style>` text and `style` attribute of the corpus.
    #[test]
    fn jumping_equals_tokenizing_on_corpus_css() {
        use spinneret_html::{Token, Tokenizer, TokenizerOptions};
        let (mut sheets, mut urls) = (0, 0);
        for row in spinneret_testdata::lines("corpus/pages.tsv").iter().skip(1) {
            let path = row.split('\t').nth(1).expect("path column");
            let bytes = spinneret_testdata::read(&format!("corpus/{path}"));
            let text = String::from_utf8_lossy(&bytes);
            let mut tok = Tokenizer::new(&text, TokenizerOptions::default());
            let mut in_style = false;
            let mut check = |css: &str| {
                let slow = super::css_urls_tokenized(css);
                if let Some(fast) = super::css_urls_jumping(css) {
                    assert_eq!(fast, slow, "{path}: {css:?}");
                }
                urls += slow.len();
            };
            while let Some(t) = tok.next_token() {
                match t {
                    Token::StartTag(tag) => {
                        if let Some(st) = tag.attr("style") {
                            check(st);
                            sheets += 1;
                        }
                        in_style = tag.name.as_str() == "style";
                    }
                    Token::Text(css) if in_style => {
                        check(css);
                        sheets += 1;
                    }
                    _ => in_style = false,
                }
            }
        }
        assert!(
            sheets > 10_000 && urls > 1_000,
            "{sheets} style texts, {urls} URLs"
        );
    }
}
