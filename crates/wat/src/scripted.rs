//! URLs inside text that is not markup: a `<style>`'s CSS and an
//! `onclick` handler, found as Common Crawl's WAT generator finds them
//! (simple patterns, not a CSS or JavaScript parser), and `data:` URLs cut
//! short.
//!
//! - [`css_urls`]: every `url(…)` (the literal lower-case `url`, no white
//!   space inside the target, at most 8,000 characters), then every
//!   `@import` of a quoted, parenthesized or bare target followed by `;`;
//!   quotes (optionally backslash-escaped) are stripped from both ends. A
//!   pass stops after the first target that ends at or beyond character
//!   100,000 of the text.
//! - [`onclick_urls`]: a handler that is only an assignment to
//!   `location` / `location.href` (optionally `window.`, `top.`,
//!   `document.`, `self.` or `parent.`) of a quoted string, and one that
//!   starts with `window.open(` or `parent.open(` a quoted string; 3 to
//!   256 characters without quotes.
//!
//! Invariant: every function is linear in its input (an unclosed
//! `url(` or quote is not scanned again for each later one) and returns
//! slices of it.

/// The most characters of a CSS text searched (see the module doc).
const CSS_LIMIT: usize = 100_000;
/// The longest `url(…)` target.
const MAX_CSS_URL: usize = 8000;
/// The most UTF-16 units of a `data:` URL kept.
const MAX_DATA_URL: usize = 128;

/// CSS white space as the patterns know it.
fn css_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// The targets of `url(…)` and `@import` in `css`, in that order.
pub fn css_urls(css: &str) -> Vec<&str> {
    let mut out = Vec::new();
    url_functions(css, &mut out);
    imports(css, &mut out);
    out
}

/// Character index of byte `i` reached? (The limit counts characters;
/// for ASCII CSS it is the byte offset.)
fn past_limit(css: &str, end: usize) -> bool {
    end >= CSS_LIMIT && css[..end].chars().count() >= CSS_LIMIT
}

fn url_functions<'a>(css: &'a str, out: &mut Vec<&'a str>) {
    let b = css.as_bytes();
    let mut from = 0;
    let mut next_stop = Next::default();
    while let Some(i) = css[from..].find("url").map(|i| from + i) {
        from = i + 3;
        let mut j = i + 3;
        while j < b.len() && css_space(b[j]) {
            j += 1;
        }
        if b.get(j) != Some(&b'(') {
            continue;
        }
        j += 1;
        while j < b.len() && css_space(b[j]) {
            j += 1;
        }
        let start = j;
        j = next_stop.find(b, start, |c| c == b')' || css_space(c));
        let target = &css[start..j];
        // At most 8,000 characters (a longer run is over 8,000 bytes; one
        // over 32,000 bytes is over 8,000 characters: no count needed).
        let too_long = target.len() > MAX_CSS_URL
            && (target.len() > 4 * MAX_CSS_URL || target.chars().count() > MAX_CSS_URL);
        if target.is_empty() || too_long {
            continue;
        }
        while j < b.len() && css_space(b[j]) {
            j += 1;
        }
        if b.get(j) != Some(&b')') {
            continue;
        }
        from = j + 1;
        if let Some(u) = unquote(target) {
            out.push(u);
        }
        if past_limit(css, from) {
            break;
        }
    }
}

fn imports<'a>(css: &'a str, out: &mut Vec<&'a str>) {
    let b = css.as_bytes();
    let mut from = 0;
    let mut next = [Next::default(), Next::default(), Next::default()];
    while let Some(i) = css[from..].find("@import").map(|i| from + i) {
        from = i + 7;
        let mut j = i + 7;
        let ws = j;
        while j < b.len() && css_space(b[j]) {
            j += 1;
        }
        if j == ws {
            continue;
        }
        let start = j;
        let Some(end) = import_target(b, start, &mut next) else {
            continue;
        };
        let mut k = end;
        while k < b.len() && css_space(b[k]) {
            k += 1;
        }
        if b.get(k) != Some(&b';') {
            continue;
        }
        from = k + 1;
        if let Some(u) = unquote(&css[start..end]) {
            out.push(u);
        }
        if past_limit(css, from) {
            break;
        }
    }
}

/// The end of an `@import` target at `start`: `'…'`, `"…"`, `('…')`,
/// `("…")`, `(…)` or a bare run of name characters. `next` remembers where
/// the next `'`, `"` and `)` are, so that many unclosed targets cost one
/// scan of the text, not one each.
fn import_target(b: &[u8], start: usize, next: &mut [Next; 3]) -> Option<usize> {
    let [single, double, paren] = next;
    let mut quoted = |at: usize| -> Option<usize> {
        let q = *b.get(at)?;
        let finder = match q {
            b'\'' => &mut *single,
            b'"' => &mut *double,
            _ => return None,
        };
        let close = finder.find(b, at + 1, |c| c == q);
        (close < b.len()).then_some(close + 1)
    };
    match b.get(start)? {
        b'\'' | b'"' => quoted(start),
        b'(' => {
            if let Some(end) = quoted(start + 1) {
                return (b.get(end) == Some(&b')')).then_some(end + 1);
            }
            let close = paren.find(b, start + 1, |c| c == b')');
            (close < b.len()).then_some(close + 1)
        }
        _ => {
            let n = b[start..]
                .iter()
                .take_while(|&&c| c.is_ascii_alphanumeric() || b"_.:/\\-".contains(&c))
                .count();
            (n > 0).then_some(start + n)
        }
    }
}

/// The next byte of a kind at or after a position, remembered: the
/// positions asked for only grow, so the bytes are scanned once in all.
#[derive(Default)]
struct Next {
    /// The first such byte at or after every position asked for so far
    /// (the text's length when there is none).
    at: usize,
    /// Whether `at` has been computed.
    known: bool,
}

impl Next {
    /// The first byte at or after `from` for which `is` holds (the text's
    /// length when none does).
    fn find(&mut self, b: &[u8], from: usize, is: impl Fn(u8) -> bool) -> usize {
        if !self.known || self.at < from {
            let from = from.min(b.len());
            self.at = from
                + b[from..]
                    .iter()
                    .position(|&c| is(c))
                    .unwrap_or(b.len() - from);
            self.known = true;
        }
        self.at
    }
}

/// `s` without a leading and a trailing run of quotes (each optionally
/// after a backslash); none when nothing is left.
fn unquote(s: &str) -> Option<&str> {
    let mut s = s;
    loop {
        let t = s.strip_prefix('\\').unwrap_or(s);
        match t.strip_prefix(['\'', '"']) {
            Some(rest) => s = rest,
            None => break,
        }
    }
    while let Some(rest) = s.strip_suffix(['\'', '"']) {
        s = rest.strip_suffix('\\').unwrap_or(rest);
    }
    (!s.is_empty()).then_some(s)
}

/// The URLs an `onclick` handler navigates to (see the module doc).
pub fn onclick_urls(v: &str) -> Vec<&str> {
    let mut out = Vec::new();
    if let Some(u) = location_assignment(v) {
        out.push(u);
    }
    if let Some(u) = window_open(v) {
        out.push(u);
    }
    out
}

/// Strips an ASCII-case-insensitive `prefix`.
fn strip_ci<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// A quote: `'`, `"` (when `double`) or `&#39;`; the rest after it and
/// the quote.
fn open_quote(s: &str, double: bool) -> Option<(&str, &'static str)> {
    if let Some(r) = s.strip_prefix('\'') {
        Some((r, "'"))
    } else if let Some(r) = strip_ci(s, "&#39;") {
        Some((r, "&#39;"))
    } else if double {
        s.strip_prefix('"').map(|r| (r, "\""))
    } else {
        None
    }
}

/// 3 to 256 characters up to the first quote (`'`, `"` or `&#39;`),
/// which must be `quote`: the string and the rest after the quote.
fn quoted_string<'a>(s: &'a str, quote: &str) -> Option<(&'a str, &'a str)> {
    let stop = s
        .find(['\'', '"'])
        .unwrap_or(s.len())
        .min(s.find("&#39;").unwrap_or(s.len()));
    let body = &s[..stop];
    if !(3..=256).contains(&body.chars().count()) {
        return None;
    }
    let rest = strip_ci(&s[stop..], quote)?;
    Some((body, rest))
}

fn location_assignment(v: &str) -> Option<&str> {
    let mut s = strip_ci(v, "javascript:").unwrap_or(v);
    for owner in ["window.", "top.", "document.", "self.", "parent."] {
        if let Some(r) = strip_ci(s, owner) {
            s = r;
            break;
        }
    }
    s = strip_ci(s, "location")?;
    s = strip_ci(s, ".href").unwrap_or(s);
    s = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    s = s.strip_prefix('=')?;
    s = s.trim_start_matches(|c: char| c.is_ascii_whitespace());
    let (rest, quote) = open_quote(s, false)?;
    let (url, rest) = quoted_string(rest, quote)?;
    let rest = rest
        .strip_suffix("\r\n")
        .or_else(|| rest.strip_suffix('\n'))
        .unwrap_or(rest);
    rest.is_empty().then_some(url)
}

fn window_open(v: &str) -> Option<&str> {
    let s = strip_ci(v, "javascript:").unwrap_or(v);
    let s = strip_ci(s, "window.open(").or_else(|| strip_ci(s, "parent.open("))?;
    let (rest, quote) = open_quote(s, true)?;
    let (url, rest) = quoted_string(rest, quote)?;
    rest.starts_with([',', ')']).then_some(url)
}

/// A `data:` URL cut after the comma that ends its media type (or to 128
/// UTF-16 units when that comma is further or missing); other URLs as
/// they are.
pub fn trim_data_url(u: &str) -> String {
    if !u.starts_with("data:") {
        return u.to_owned();
    }
    let cut = |units: usize| -> String {
        let mut n = 0;
        u.chars()
            .take_while(|c| {
                n += c.len_utf16();
                n <= units
            })
            .collect()
    };
    match u.find(',') {
        Some(c) if u[..c].encode_utf16().count() <= MAX_DATA_URL => u[..=c].to_owned(),
        _ => cut(MAX_DATA_URL),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_url_functions_then_imports() {
        let css = r#"@import "a.css"; b{background:url( 'b.png' )} @import url(c.css); c{x:url(\"d.gif\")} @import ('e.css') ; @import f.css screen;"#;
        assert_eq!(
            css_urls(css),
            ["b.png", "c.css", "d.gif", "a.css", "('e.css')"]
        );
        assert!(css_urls("url(a b) URL(x) url()").is_empty());
    }

    #[test]
    fn unclosed_targets_stay_linear() {
        // 100,000 unclosed `url(` and quotes: one scan each, not one per
        // occurrence (5e9 steps).
        let css = "url(a".repeat(100_000) + &"@import 'x ".repeat(100_000);
        assert!(css_urls(&css).is_empty());
        // The first `url(` whose run to the `)` is at most 8,000
        // characters matches (as the pattern does), holding `url(`s.
        let css = "url(a".repeat(50_000) + ")";
        let found = css_urls(&css);
        assert_eq!(found.len(), 1);
        assert!(found[0].len() <= 8000 && found[0].len() > 7990 && found[0].ends_with("url(a"));
        assert_eq!(css_urls("url(x) url(y"), ["x"]);
    }

    #[test]
    fn onclick_patterns() {
        assert_eq!(onclick_urls("location.href='/a.html'"), ["/a.html"]);
        assert_eq!(
            onclick_urls("javascript:window.location = '/bb'\n"),
            ["/bb"]
        );
        assert!(onclick_urls("location.href='/a.html';").is_empty());
        assert_eq!(
            onclick_urls("window.open(\"http://x.org/p\", 'w'); return false"),
            ["http://x.org/p"]
        );
        assert_eq!(onclick_urls("parent.open(&#39;/pp&#39;)"), ["/pp"]);
        assert!(onclick_urls("location='ab'").is_empty());
    }

    #[test]
    fn data_urls_are_cut_after_their_type() {
        assert_eq!(
            trim_data_url("data:image/png;base64,iVBORw0KGgo"),
            "data:image/png;base64,"
        );
        assert_eq!(trim_data_url("data:,hello"), "data:,");
        assert_eq!(trim_data_url("http://x/data:,"), "http://x/data:,");
        let long = format!("data:{}", "a".repeat(300));
        assert_eq!(trim_data_url(&long).len(), 128);
        assert_eq!(trim_data_url(&format!("{long},x")).len(), 128);
    }
}
