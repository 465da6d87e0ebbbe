//! Request bodies folded into index keys, as pywb's cdxj-indexer does.
//!
//! A replay system keys a POST or PUT by its URL *and* its body, so that
//! two POSTs to one URL are told apart: cdxj-indexer (with `--post-append`)
//! appends `?__wb_method=POST&QUERY` (or `&…` when the URL already has a
//! query) to the request's URL before its SURT key is taken, where QUERY
//! is the body turned into query-string text. [`method_query`] reproduces
//! `cdxj_indexer.postquery.append_method_query` of cdxj-indexer 1.5.0
//! (with multipart 2.0.1 and CPython 3.11's `urllib.parse`, `json`,
//! `base64` and `str()`), byte for byte:
//!
//! - only the methods `POST` and `PUT`, spelled so, have a query; any
//!   method is written into `__wb_method=` as the request line has it;
//! - the body is cut to its `Content-Length` (parsed as Python's `int()`
//!   parses it: surrounding whitespace, a sign, `_` between digits and
//!   non-ASCII decimal digits are accepted; a negative length reads
//!   nothing); without one, to 8192 bytes; an unparsable one gives no query;
//! - the media type, compared case-sensitively as a prefix, picks the
//!   form: `application/x-www-form-urlencoded` (UTF-8 text, `+` and `%XX`
//!   decoded as `unquote_plus` decodes them), `multipart/` with a
//!   `boundary=` (the fields, `urlencode`d; a part with a file name gives
//!   its raw bytes), `application/json` (leaf values keyed by their
//!   innermost object key, duplicates renamed `key.2_`, `key.3_`, …; a
//!   body that is not JSON as a whole but has a `'\n'` is read line by
//!   line; on failure no query),
//!   `text/plain` (the same, on failure the binary form), anything else
//!   the binary form `__wb_post_data=BASE64`;
//! - the query is cut to [`MAX_QUERY_LENGTH`] characters (code points).
//!
//! # Known divergences
//!
//! - **AMF** (`application/x-amf`): cdxj-indexer decodes the body with
//!   PyAMF (thousands of lines) into `request=<Envelope>…`, or gives no
//!   query when that fails; here it takes the binary form.
//! - **A multipart body the `multipart` package rejects** (no final
//!   boundary, a malformed part header, a field that is not valid in its
//!   charset, an empty boundary, more than 128 parts, …) makes
//!   cdxj-indexer raise, and the whole indexing run stops; here it takes
//!   the binary form, as a multipart body without a boundary does. Part
//!   charsets other than UTF-8, ASCII and Latin-1 (and their Python
//!   aliases) count as rejected.
//! - **JSON** is parsed by `serde_json`, which differs from Python's
//!   `json` only on input outside RFC 8259 or outside 64-bit numbers:
//!   `NaN`, `Infinity` and `-Infinity` (Python accepts them: `nan`, `inf`),
//!   numbers beyond the `f64` range (Python: `inf`), integers outside
//!   `i64`/`u64` (Python prints every digit; here the nearest `f64`),
//!   the integer `-0` (Python `0`; here `-0.0`), lone surrogates (`\ud800`
//!   escapes, or encoded in the bytes: Python keeps them and fails only if
//!   one reaches the query; here the body fails), and
//!   nesting deeper than 128 (Python allows about 990). Floats are parsed
//!   correctly rounded (serde_json's `float_roundtrip`) and printed as
//!   Python's `repr` prints them: the shortest digits that read back to the
//!   same `f64`, ties to even (serde_json's formatter; Rust's `{:e}` would
//!   differ on ties).
//!
//! Python writes a parse error of a JSON body to stderr; this module is
//! silent. Where Python's query is `None` (an unparsable `Content-Length`,
//! for which cdxj-indexer writes `"requestBody": null`) the query here is
//! empty.

use std::collections::HashMap;
use std::fmt::Write as _;

use base64::Engine as _;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

mod multipart;

/// The longest query kept, in characters (cdxj-indexer's `MAX_QUERY_LENGTH`).
pub const MAX_QUERY_LENGTH: usize = 4096;

/// How much of a body without a `Content-Length` is read.
pub const DEFAULT_BODY_LENGTH: usize = 8192;

/// What [`method_query`] gives for a request.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MethodQuery {
    /// The body as query text (cdxj-indexer's `requestBody`); empty for
    /// methods other than `POST` and `PUT`, and for bodies that give none.
    pub query: String,
    /// What goes after the URL before its key is taken:
    /// `?__wb_method=METHOD[&QUERY]`, with `&` first when the URL has a `?`.
    pub append: String,
}

/// The method query of a request, as cdxj-indexer's `append_method_query`
/// computes it: `method` as in the request line, the request's
/// `Content-Type` and `Content-Length` header values, its body (as
/// warcio's `content_stream()` gives it: dechunked and content-decoded),
/// and its URL (`WARC-Target-URI`).
pub fn method_query(
    method: &str,
    content_type: Option<&str>,
    content_length: Option<&str>,
    body: &[u8],
    url: &str,
) -> MethodQuery {
    let query = if method == "POST" || method == "PUT" {
        extract_query(content_type, content_length, body)
    } else {
        String::new()
    };
    let mut append = String::with_capacity(query.len() + method.len() + 16);
    append.push(if url.contains('?') { '&' } else { '?' });
    append.push_str("__wb_method=");
    append.push_str(method);
    if !query.is_empty() {
        append.push('&');
        append.push_str(&query);
    }
    MethodQuery { query, append }
}

/// The body of a POST or PUT as query text (cdxj-indexer's
/// `query_extract`), at most [`MAX_QUERY_LENGTH`] characters.
pub fn extract_query(
    content_type: Option<&str>,
    content_length: Option<&str>,
    body: &[u8],
) -> String {
    let limit = match content_length {
        None => DEFAULT_BODY_LENGTH,
        Some(text) => match py_int_length(text) {
            Some(n) => n,
            None => return String::new(),
        },
    };
    let data = &body[..body.len().min(limit)];
    let mime = content_type.unwrap_or("");
    let mut query = if mime.starts_with("application/x-www-form-urlencoded") {
        match std::str::from_utf8(data) {
            Ok(text) => unquote_plus(text),
            Err(_) => binary(data),
        }
    } else if mime.starts_with("multipart/") {
        multipart::multipart_query(mime, data)
    } else if mime.starts_with("application/json") {
        json_parse(data).unwrap_or_default()
    } else if mime.starts_with("text/plain") {
        json_parse(data).unwrap_or_else(|| binary(data))
    } else {
        // Everything else, `application/x-amf` included (see the module doc).
        binary(data)
    };
    if let Some((cut, _)) = query.char_indices().nth(MAX_QUERY_LENGTH) {
        query.truncate(cut);
    }
    query
}

/// `__wb_post_data=` and the body in standard base64.
fn binary(data: &[u8]) -> String {
    let mut out = String::from("__wb_post_data=");
    base64::engine::general_purpose::STANDARD.encode_string(data, &mut out);
    out
}

// ---------------------------------------------------------------------------
// Python's int() of a Content-Length

/// The first code points of the runs of ten decimal digits (0–9) that
/// CPython 3.11 (Unicode 14.0) maps to ASCII digits in `int()`.
const DECIMAL_ZEROS: [u32; 66] = [
    0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6, 0xC66, 0xCE6, 0xD66,
    0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90,
    0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0, 0xFF10,
    0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0, 0x112F0, 0x11450, 0x114D0, 0x11650,
    0x116C0, 0x11730, 0x118E0, 0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
    0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0, 0x1E950, 0x1FBF0,
];

/// CPython's limit on the digits of an `int()` of a string.
const PY_INT_MAX_DIGITS: usize = 4300;

/// How many bytes `int(text)` asks for: `None` where Python raises
/// `ValueError`, 0 for a negative value, saturated at `usize::MAX`.
fn py_int_length(text: &str) -> Option<usize> {
    // int() maps non-ASCII white space to ' ' and decimal digits to ASCII;
    // any other non-ASCII character makes the literal invalid. Its white
    // space then is Rust's `char::is_whitespace` (the ASCII part is
    // " \t\n\x0b\x0c\r", not \x1c-\x1f).
    let mut ascii = Vec::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii() {
            ascii.push(c as u8);
        } else if c.is_whitespace() {
            ascii.push(b' ');
        } else {
            let code = c as u32;
            let zero = DECIMAL_ZEROS.iter().rev().find(|&&z| z <= code)?;
            let digit = code - zero;
            if digit > 9 {
                return None;
            }
            ascii.push(b'0' + digit as u8);
        }
    }
    let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r');
    let start = ascii.iter().position(|b| !is_space(b))?;
    let end = ascii.iter().rposition(|b| !is_space(b))? + 1;
    let mut s = &ascii[start..end];
    let negative = s.first() == Some(&b'-');
    if matches!(s.first(), Some(b'-' | b'+')) {
        s = &s[1..];
    }
    // Digits, with single underscores between them.
    if s.first().is_none_or(|b| !b.is_ascii_digit())
        || !s.last().is_some_and(u8::is_ascii_digit)
        || s.windows(2).any(|w| w == b"__")
        || !s.iter().all(|&b| b.is_ascii_digit() || b == b'_')
    {
        return None;
    }
    let mut value = 0usize;
    let mut digits = 0;
    for &b in s.iter().filter(|b| b.is_ascii_digit()) {
        digits += 1;
        value = value
            .saturating_mul(10)
            .saturating_add(usize::from(b - b'0'));
    }
    if digits > PY_INT_MAX_DIGITS {
        return None;
    }
    Some(if negative { 0 } else { value })
}

// ---------------------------------------------------------------------------
// urllib.parse: unquote_plus and urlencode (quote_plus)

/// `urllib.parse.unquote_plus`: `+` becomes a space, then each run of ASCII
/// text is percent-decoded and read as UTF-8 with U+FFFD for invalid
/// sequences; other text is kept as it is.
fn unquote_plus(text: &str) -> String {
    let text = text.replace('+', " ");
    if !text.contains('%') {
        return text;
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut decoded = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let ascii = bytes[i].is_ascii();
        while i < bytes.len() && bytes[i].is_ascii() == ascii {
            i += 1;
        }
        // Both ends are at ASCII bytes or the ends: char boundaries.
        let run = &text[start..i];
        if !ascii {
            out.push_str(run);
            continue;
        }
        decoded.clear();
        let run = run.as_bytes();
        let mut j = 0;
        while j < run.len() {
            let hex = |k: usize| run.get(k).and_then(|&b| (b as char).to_digit(16));
            match (run[j], hex(j + 1), hex(j + 2)) {
                (b'%', Some(hi), Some(lo)) => {
                    decoded.push((hi * 16 + lo) as u8);
                    j += 3;
                }
                (b, _, _) => {
                    decoded.push(b);
                    j += 1;
                }
            }
        }
        out.push_str(&String::from_utf8_lossy(&decoded));
    }
    out
}

/// Appends `urllib.parse.quote_plus(bytes)`: `A-Za-z0-9_.-~` kept, space
/// as `+`, every other byte as `%XX`.
fn quote_plus_into(out: &mut String, bytes: &[u8]) {
    for &b in bytes {
        if b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'~') {
            out.push(b as char);
        } else if b == b' ' {
            out.push('+');
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
}

/// `urllib.parse.urlencode` of (name, value) pairs, names and values as
/// UTF-8 text or raw bytes.
fn urlencode<'a>(pairs: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) -> String {
    let mut out = String::new();
    for (name, value) in pairs {
        if !out.is_empty() {
            out.push('&');
        }
        quote_plus_into(&mut out, name);
        out.push('=');
        quote_plus_into(&mut out, value);
    }
    out
}

// ---------------------------------------------------------------------------
// JSON (cdxj-indexer's json_parse over Python's json.loads)

/// A parsed JSON value: objects keep their first key order with the last
/// value of a repeated key (as a Python dict); scalars are kept as
/// Python's `str()` prints them. serde_json's own `Map` would sort the
/// keys (without its `preserve_order` feature, which would be switched on
/// for every crate of a build), so the values are read into this instead.
enum Node {
    Leaf(String),
    List(Vec<Node>),
    Object(Vec<(String, Node)>),
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Leaf(if v { "True" } else { "False" }.to_string()))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Leaf(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Node, E> {
        Ok(Node::Leaf(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Leaf(py_float_repr(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Leaf(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Node, E> {
        Ok(Node::Leaf(v))
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Leaf("None".to_string()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Node::List(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut entries: Vec<(String, Node)> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value()?;
            match index.get(&key) {
                Some(&i) => entries[i].1 = value,
                None => {
                    index.insert(key.clone(), entries.len());
                    entries.push((key, value));
                }
            }
        }
        Ok(Node::Object(entries))
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Node, D::Error> {
        deserializer.deserialize_any(NodeVisitor)
    }
}

/// Why `json.loads(bytes)` failed: a `JSONDecodeError` (after which
/// json_parse tries line by line) or another error (it does not).
enum LoadError {
    Syntax,
    Other,
}

/// `json.loads` of bytes: the encoding detected as Python's
/// `json.detect_encoding` does (UTF-8 with or without BOM, UTF-16 and
/// UTF-32 by BOM or by the zero bytes of the first four), then parsed.
fn json_loads(b: &[u8]) -> Result<Node, LoadError> {
    let units = |b: &[u8], n: usize, be: bool| -> Option<Vec<u32>> {
        if !b.len().is_multiple_of(n) {
            return None; // truncated data
        }
        let unit = |v: u32, &x: &u8| v << 8 | u32::from(x);
        let unit = |c: &[u8]| {
            if be {
                c.iter().fold(0, unit)
            } else {
                c.iter().rev().fold(0, unit)
            }
        };
        Some(b.chunks_exact(n).map(unit).collect())
    };
    let utf16 = |b: &[u8], be| -> Option<String> {
        let u = units(b, 2, be)?;
        char::decode_utf16(u.into_iter().map(|u| u as u16))
            .collect::<Result<_, _>>()
            .ok()
    };
    let utf32 = |b: &[u8], be| -> Option<String> {
        units(b, 4, be)?.into_iter().map(char::from_u32).collect()
    };
    let utf8 = |b: &[u8]| std::str::from_utf8(b).ok().map(str::to_string);
    let text = match b {
        [0, 0, 0xFE, 0xFF, rest @ ..] => utf32(rest, true),
        [0xFF, 0xFE, 0, 0, rest @ ..] => utf32(rest, false),
        [0xFE, 0xFF, rest @ ..] => utf16(rest, true),
        [0xFF, 0xFE, rest @ ..] => utf16(rest, false),
        [0xEF, 0xBB, 0xBF, rest @ ..] => utf8(rest),
        [0, 0, _, _, ..] => utf32(b, true),
        [0, _, _, _, ..] => utf16(b, true),
        [_, 0, 0, 0, ..] => utf32(b, false),
        [_, 0, _, _, ..] => utf16(b, false),
        [0, _] => utf16(b, true),
        [_, 0] => utf16(b, false),
        _ => utf8(b),
    };
    let text = text.ok_or(LoadError::Other)?;
    serde_json::from_str(&text).map_err(|_| LoadError::Syntax)
}

/// The flattened values of json_parse: a Python dict of str to str.
#[derive(Default)]
struct Flat {
    entries: Vec<(String, String)>,
    index: HashMap<String, usize>,
    dupes: HashMap<String, u64>,
}

impl Flat {
    /// json_parse's `_parser`: leaves under their innermost key (list
    /// items under the list's), leaves without a key (or with `""`) dropped.
    fn add(&mut self, node: &Node, name: &str) {
        match node {
            Node::Object(entries) => entries.iter().for_each(|(k, v)| self.add(v, k)),
            Node::List(items) => items.iter().for_each(|v| self.add(v, name)),
            Node::Leaf(text) if !name.is_empty() => {
                // get_key: a taken name becomes "name.N_", N from 2 on.
                let key = if self.index.contains_key(name) {
                    let n = self.dupes.entry(name.to_string()).or_insert(1);
                    *n += 1;
                    format!("{name}.{n}_")
                } else {
                    name.to_string()
                };
                match self.index.get(&key) {
                    Some(&i) => self.entries[i].1 = text.clone(),
                    None => {
                        self.index.insert(key.clone(), self.entries.len());
                        self.entries.push((key, text.clone()));
                    }
                }
            }
            Node::Leaf(_) => {}
        }
    }
}

/// cdxj-indexer's `json_parse`: the body parsed as JSON, or else (after a
/// syntax error, when it has a `'\n'`) each line as JSON; the leaf values
/// urlencoded. `None` where Python raises.
fn json_parse(data: &[u8]) -> Option<String> {
    let mut flat = Flat::default();
    match json_loads(data) {
        Ok(node) => flat.add(&node, ""),
        Err(LoadError::Syntax) if data.contains(&b'\n') => {
            for line in data.split(|&b| b == b'\n') {
                flat.add(&json_loads(line).ok()?, "");
            }
        }
        Err(_) => return None,
    }
    Some(urlencode(
        flat.entries
            .iter()
            .map(|(k, v)| (k.as_bytes(), v.as_bytes())),
    ))
}

/// Python's `repr(float)`: the shortest digits that read back to `v`, the
/// nearest of them to `v` and, on a tie, the even one (David Gay's
/// `dtoa`); laid out positionally with at least one decimal (`1.0`,
/// `0.0001`, `1000000000000000.0`) when the decimal exponent is from -4 to
/// 15, else as `1e+16`, `1.5e-05`. The digits are serde_json's (its
/// shortest-float formatter breaks ties to even as Python does; Rust's own
/// `{}` and `{:e}` round some ties up: `26717245193240.8125` is
/// `…240.812` in Python and serde_json, `…240.813` in `{}`).
fn py_float_repr(v: f64) -> String {
    if v.is_nan() {
        return "nan".to_string();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v == 0.0 {
        return format!("{sign}0.0");
    }
    let text = serde_json::to_string(&v.abs()).unwrap_or_else(|_| format!("{:e}", v.abs()));
    // Its significant digits, and the decimal exponent of the first one.
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.trim_start_matches('+').parse().unwrap_or(0)),
        None => (text.as_str(), 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = int.chars().chain(frac.chars()).collect();
    let leading_zeros = (all.len() - all.trim_start_matches('0').len()) as i32;
    let digits = all.trim_matches('0');
    let exp: i32 = int.len() as i32 - 1 - leading_zeros + exp;
    let n = digits.len() as i32;
    let decimal_point = exp + 1; // digits before the point
    if digits.is_empty() {
        format!("{sign}0.0")
    } else if !(-4 < decimal_point && decimal_point <= 16) {
        let (first, rest) = digits.split_at(1);
        let dot = if rest.is_empty() { "" } else { "." };
        let exp_sign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{first}{dot}{rest}e{exp_sign}{:02}", exp.abs())
    } else if decimal_point <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat((-decimal_point) as usize))
    } else if decimal_point >= n {
        let zeros = "0".repeat((decimal_point - n) as usize);
        format!("{sign}{digits}{zeros}.0")
    } else {
        let (int, frac) = digits.split_at(decimal_point as usize);
        format!("{sign}{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Case {
        name: &'static str,
        method: &'static str,
        content_type: Option<&'static str>,
        content_length: Option<&'static str>,
        body: Vec<u8>,
        url: &'static str,
        query: String,
        append: String,
    }

    /// Inputs and outputs of cdxj-indexer's `append_method_query`: made by
    /// /tmp/postq_cases.py (not in the repository) with cdxj-indexer 1.5.0 multipart 2.0.1 Python 3.11.7.
    #[rustfmt::skip]
    fn cases() -> Vec<Case> {
        let long_form = [b"a=".as_slice(), &"\u{e9}".repeat(5000).into_bytes()].concat();
        let long_json = [b"{\"a\": \"".as_slice(), &[b'x'; 9000], b"\"}"].concat();
        let mp_tail = b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--b--";
        let chunk_preamble = [&[b'x'; 65536][..], mp_tail].concat();
        let chunk_preamble_short = [&[b'x'; 65535][..], mp_tail].concat();
        let mp_big = [
            b"--b\r\nContent-Disposition: form-data; name=\"big\"; filename=\"f\"\r\n\r\n".as_slice(),
            "a b".repeat(30000).as_bytes(),
            b"\r\n--b\r\nContent-Disposition: form-data; name=small\r\n\r\ns\r\n--b--\r\n",
        ]
        .concat();
        vec![
        Case { name: "form_plus_and_pct20", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: None,
            body: b"foo=bar+baz&x=a%20b%2Bc&y=%zz%4".to_vec(), url: "http://httpbin.org/post",
            query: "foo=bar baz&x=a b+c&y=%zz%4".into(), append: "?__wb_method=POST&foo=bar baz&x=a b+c&y=%zz%4".into() },
        Case { name: "form_unicode", method: "POST", content_type: Some("application/x-www-form-urlencoded; charset=UTF-8"), content_length: None,
            body: b"name=caf%C3%A9&raw=\xc3\xbc\xe2\x82\xac&bad=%E2%82&mixed=%E2\xc3\xa9%82".to_vec(), url: "http://example.com/f",
            query: "name=caf\u{e9}&raw=\u{fc}\u{20ac}&bad=\u{fffd}&mixed=\u{fffd}\u{e9}\u{fffd}".into(), append: "?__wb_method=POST&name=caf\u{e9}&raw=\u{fc}\u{20ac}&bad=\u{fffd}&mixed=\u{fffd}\u{e9}\u{fffd}".into() },
        Case { name: "form_invalid_utf8", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: None,
            body: b"a=\xff\xfe".to_vec(), url: "http://example.com/f",
            query: "__wb_post_data=YT3//g==".into(), append: "?__wb_method=POST&__wb_post_data=YT3//g==".into() },
        Case { name: "multipart_fields_and_file", method: "POST", content_type: Some("multipart/form-data; boundary=xYzZY"), content_length: Some("323"),
            body: b"--xYzZY\r\nContent-Disposition: form-data; name=\"field1\"\r\n\r\nvalue one\r\n--xYzZY\r\nContent-Disposition: form-data; name=\"f\xc3\xa9ld2\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\ncaf\xc3\xa9 & co=1+1\r\n--xYzZY\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a b.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01 \xff~.-_\r\n--xYzZY--\r\n".to_vec(), url: "http://example.com/upload",
            query: "field1=value+one&f%C3%A9ld2=caf%C3%A9+%26+co%3D1%2B1&upload=%00%01+%FF~.-_".into(), append: "?__wb_method=POST&field1=value+one&f%C3%A9ld2=caf%C3%A9+%26+co%3D1%2B1&upload=%00%01+%FF~.-_".into() },
        Case { name: "multipart_latin1_empty_filename", method: "POST", content_type: Some("multipart/form-data; boundary=b"), content_length: None,
            body: b"preamble\r\n--b\r\ncontent-disposition: form-data; name=raw; filename=\"\"\r\ncontent-type: text/plain; charset=ISO-8859-1\r\n\r\ncaf\xe9\r\n--b--".to_vec(), url: "http://example.com/upload",
            query: "raw=caf%C3%A9".into(), append: "?__wb_method=POST&raw=caf%C3%A9".into() },
        Case { name: "multipart_chunk_boundary_preamble", method: "POST", content_type: Some("multipart/form-data; boundary=b"), content_length: Some("65591"),
            body: chunk_preamble.clone(), url: "http://example.com/upload",
            query: "a=v".into(), append: "?__wb_method=POST&a=v".into() },
        Case { name: "multipart_chunk_split_first_boundary", method: "POST", content_type: Some("multipart/form-data; boundary=b"), content_length: Some("65590"),
            body: chunk_preamble_short.clone(), url: "http://example.com/upload",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "multipart_big_file_then_field", method: "POST", content_type: Some("multipart/form-data; boundary=b"), content_length: Some("90128"),
            body: mp_big.clone(), url: "http://example.com/upload",
            query: format!("big={}", &"a+b".repeat(1400)[..4092]), append: format!("?__wb_method=POST&big={}", &"a+b".repeat(1400)[..4092]) },
        Case { name: "multipart_continuation_quotes_ie_path", method: "POST", content_type: Some("multipart/mixed; boundary=b"), content_length: None,
            body: b"--b\r\nContent-Disposition: form-data;\r\n\x09name=\"x\\\"y\"\r\nX-Other: 1\r\n\r\nv\r\n--b\r\ncontent-disposition: form-data; name=\"q%22\"; filename=\"C:\\dir\\f.txt\"\r\n\r\nF\r\n--b\r\nContent-Disposition: form-data; name=a\r\nContent-Length: 2\r\n\r\n12\r\n--b\r\nContent-Disposition: form-data\r\n\r\nnoname\r\n--b--".to_vec(), url: "http://example.com/upload",
            query: "x%22y=v&q%22=F&a=12&=noname".into(), append: "?__wb_method=POST&x%22y=v&q%22=F&a=12&=noname".into() },
        Case { name: "multipart_no_boundary", method: "POST", content_type: Some("multipart/form-data"), content_length: None,
            body: b"--xYzZY\r\nContent-Disposition: form-data; name=\"field1\"\r\n\r\nvalue one\r\n--xYzZY\r\nContent-Disposition: form-data; name=\"f\xc3\xa9ld2\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\ncaf\xc3\xa9 & co=1+1\r\n--xYzZY\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a b.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01 \xff~.-_\r\n--xYzZY--\r\n".to_vec(), url: "http://example.com/upload",
            query: "__wb_post_data=LS14WXpaWQ0KQ29udGVudC1EaXNwb3NpdGlvbjogZm9ybS1kYXRhOyBuYW1lPSJmaWVsZDEiDQoNCnZhbHVlIG9uZQ0KLS14WXpaWQ0KQ29udGVudC1EaXNwb3NpdGlvbjogZm9ybS1kYXRhOyBuYW1lPSJmw6lsZDIiDQpDb250ZW50LVR5cGU6IHRleHQvcGxhaW47IGNoYXJzZXQ9dXRmLTgNCg0KY2Fmw6kgJiBjbz0xKzENCi0teFl6WlkNCkNvbnRlbnQtRGlzcG9zaXRpb246IGZvcm0tZGF0YTsgbmFtZT0idXBsb2FkIjsgZmlsZW5hbWU9ImEgYi5iaW4iDQpDb250ZW50LVR5cGU6IGFwcGxpY2F0aW9uL29jdGV0LXN0cmVhbQ0KDQoAASD/fi4tXw0KLS14WXpaWS0tDQo=".into(), append: "?__wb_method=POST&__wb_post_data=LS14WXpaWQ0KQ29udGVudC1EaXNwb3NpdGlvbjogZm9ybS1kYXRhOyBuYW1lPSJmaWVsZDEiDQoNCnZhbHVlIG9uZQ0KLS14WXpaWQ0KQ29udGVudC1EaXNwb3NpdGlvbjogZm9ybS1kYXRhOyBuYW1lPSJmw6lsZDIiDQpDb250ZW50LVR5cGU6IHRleHQvcGxhaW47IGNoYXJzZXQ9dXRmLTgNCg0KY2Fmw6kgJiBjbz0xKzENCi0teFl6WlkNCkNvbnRlbnQtRGlzcG9zaXRpb246IGZvcm0tZGF0YTsgbmFtZT0idXBsb2FkIjsgZmlsZW5hbWU9ImEgYi5iaW4iDQpDb250ZW50LVR5cGU6IGFwcGxpY2F0aW9uL29jdGV0LXN0cmVhbQ0KDQoAASD/fi4tXw0KLS14WXpaWS0tDQo=".into() },
        Case { name: "json_nested", method: "POST", content_type: Some("application/json"), content_length: None,
            body: b"{\"a\": 1, \"b\": {\"a\": true, \"c\": [1.0, 2.5, {\"a\": null}]}, \"d\": [false, \"x y\", -7], \"a.2_\": \"z\", \"e\": {\"a\": 1e16, \"f\": 0.1}, \"g\": 1e-05, \"h\": 0.30000000000000004, \"i\": -0.0, \"j\": 1e15, \"k\": 123456789.125, \"dup\": \"first\", \"dup\": \"second\", \"\": \"empty\", \"l\": 18446744073709551615}".to_vec(), url: "http://example.com/api",
            query: "a=1&a.2_=True&c=1.0&c.2_=2.5&a.3_=None&d=False&d.2_=x+y&d.3_=-7&a.2_.2_=z&a.4_=1e%2B16&f=0.1&g=1e-05&h=0.30000000000000004&i=-0.0&j=1000000000000000.0&k=123456789.125&dup=second&l=18446744073709551615".into(), append: "?__wb_method=POST&a=1&a.2_=True&c=1.0&c.2_=2.5&a.3_=None&d=False&d.2_=x+y&d.3_=-7&a.2_.2_=z&a.4_=1e%2B16&f=0.1&g=1e-05&h=0.30000000000000004&i=-0.0&j=1000000000000000.0&k=123456789.125&dup=second&l=18446744073709551615".into() },
        Case { name: "json_ndjson", method: "POST", content_type: Some("application/json; charset=utf-8"), content_length: None,
            body: b"{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2}\n[{\"c\": 3}]".to_vec(), url: "http://example.com/api",
            query: "a=1&b=x&a.2_=2&c=3".into(), append: "?__wb_method=POST&a=1&b=x&a.2_=2&c=3".into() },
        Case { name: "json_ndjson_trailing_newline", method: "POST", content_type: Some("application/json"), content_length: None,
            body: b"{\"a\": 1}\n{\"b\": 2}\n".to_vec(), url: "http://example.com/api",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "json_invalid", method: "POST", content_type: Some("application/json"), content_length: None,
            body: b"{not json".to_vec(), url: "http://example.com/api",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "json_utf16", method: "POST", content_type: Some("application/json"), content_length: None,
            body: b"\xff\xfe{\x00\"\x00k\x00\"\x00:\x00 \x00\"\x00v\x00\xe9\x00\"\x00}\x00".to_vec(), url: "http://example.com/api",
            query: "k=v%C3%A9".into(), append: "?__wb_method=POST&k=v%C3%A9".into() },
        Case { name: "json_scalar_top", method: "POST", content_type: Some("application/json"), content_length: None,
            body: b"[1, 2]".to_vec(), url: "http://example.com/api",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "text_plain_json", method: "POST", content_type: Some("text/plain;charset=UTF-8"), content_length: None,
            body: b"{\"q\": \"a&b=c\", \"n\": [1, 2]}".to_vec(), url: "http://example.com/t",
            query: "q=a%26b%3Dc&n=1&n.2_=2".into(), append: "?__wb_method=POST&q=a%26b%3Dc&n=1&n.2_=2".into() },
        Case { name: "text_plain_not_json", method: "POST", content_type: Some("text/plain"), content_length: None,
            body: b"hello world".to_vec(), url: "http://example.com/t",
            query: "__wb_post_data=aGVsbG8gd29ybGQ=".into(), append: "?__wb_method=POST&__wb_post_data=aGVsbG8gd29ybGQ=".into() },
        Case { name: "octet_stream", method: "POST", content_type: Some("application/octet-stream"), content_length: None,
            body: b"\x00\x01\x02binary\xff".to_vec(), url: "http://example.com/b",
            query: "__wb_post_data=AAECYmluYXJ5/w==".into(), append: "?__wb_method=POST&__wb_post_data=AAECYmluYXJ5/w==".into() },
        Case { name: "no_content_type", method: "PUT", content_type: None, content_length: None,
            body: b"abc".to_vec(), url: "http://example.com/b",
            query: "__wb_post_data=YWJj".into(), append: "?__wb_method=PUT&__wb_post_data=YWJj".into() },
        Case { name: "content_length_shorter", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: Some("7"),
            body: b"foo=bar&rest=ignored".to_vec(), url: "http://example.com/f",
            query: "foo=bar".into(), append: "?__wb_method=POST&foo=bar".into() },
        Case { name: "content_length_spaces", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: Some(" 7 "),
            body: b"foo=bar&rest=ignored".to_vec(), url: "http://example.com/f",
            query: "foo=bar".into(), append: "?__wb_method=POST&foo=bar".into() },
        Case { name: "content_length_zero", method: "POST", content_type: Some("application/octet-stream"), content_length: Some("0"),
            body: b"abc".to_vec(), url: "http://example.com/b",
            query: "__wb_post_data=".into(), append: "?__wb_method=POST&__wb_post_data=".into() },
        Case { name: "content_length_negative", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: Some("-3"),
            body: b"abc".to_vec(), url: "http://example.com/f",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "content_length_bad", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: Some("12a"),
            body: b"foo=bar".to_vec(), url: "http://example.com/f",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "content_length_missing_reads_8192", method: "POST", content_type: Some("application/json"), content_length: None,
            body: long_json.clone(), url: "http://example.com/api",
            query: "".into(), append: "?__wb_method=POST".into() },
        Case { name: "content_length_full_long_json", method: "POST", content_type: Some("application/json"), content_length: Some("9009"),
            body: long_json.clone(), url: "http://example.com/api",
            query: format!("a={}", "x".repeat(4094)), append: format!("?__wb_method=POST&a={}", "x".repeat(4094)) },
        Case { name: "long_unicode_form", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: Some("10002"),
            body: long_form.clone(), url: "http://example.com/f",
            query: format!("a={}", "\u{e9}".repeat(4094)), append: format!("?__wb_method=POST&a={}", "\u{e9}".repeat(4094)) },
        Case { name: "get", method: "GET", content_type: Some("application/x-www-form-urlencoded"), content_length: None,
            body: b"foo=bar".to_vec(), url: "http://example.com/g",
            query: "".into(), append: "?__wb_method=GET".into() },
        Case { name: "delete", method: "DELETE", content_type: None, content_length: None,
            body: b"".to_vec(), url: "http://example.com/d",
            query: "".into(), append: "?__wb_method=DELETE".into() },
        Case { name: "lowercase_post", method: "post", content_type: Some("application/x-www-form-urlencoded"), content_length: None,
            body: b"foo=bar".to_vec(), url: "http://example.com/f",
            query: "".into(), append: "?__wb_method=post".into() },
        Case { name: "url_with_query", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: None,
            body: b"foo=bar&test=abc".to_vec(), url: "http://httpbin.org/post?x=1",
            query: "foo=bar&test=abc".into(), append: "&__wb_method=POST&foo=bar&test=abc".into() },
        Case { name: "httpbin_post", method: "POST", content_type: Some("application/x-www-form-urlencoded"), content_length: None,
            body: b"foo=bar&test=abc".to_vec(), url: "http://httpbin.org/post",
            query: "foo=bar&test=abc".into(), append: "?__wb_method=POST&foo=bar&test=abc".into() },
        ]
    }

    #[test]
    fn matches_cdxj_indexer() {
        for c in cases() {
            let got = method_query(c.method, c.content_type, c.content_length, &c.body, c.url);
            assert_eq!(got.query, c.query, "query of {}", c.name);
            assert_eq!(got.append, c.append, "append of {}", c.name);
        }
    }

    /// Bodies the `multipart` package rejects: cdxj-indexer raises (the
    /// error is Python's), here they take the binary form.
    #[test]
    #[rustfmt::skip]
    fn rejected_multipart_is_binary() {
        let cases: [(&str, &str, Option<&str>, Vec<u8>); 5] = [
        // ParserError: Unexpected end of multipart stream (parser closed)
        ("raises_multipart_boundary_with_params", "multipart/form-data; boundary=b; x=1", None, b"--b\r\nContent-Disposition: form-data;\r\n\x09name=\"x\\\"y\"\r\nX-Other: 1\r\n\r\nv\r\n--b\r\ncontent-disposition: form-data; name=\"q%22\"; filename=\"C:\\dir\\f.txt\"\r\n\r\nF\r\n--b\r\nContent-Disposition: form-data; name=a\r\nContent-Length: 2\r\n\r\n12\r\n--b\r\nContent-Disposition: form-data\r\n\r\nnoname\r\n--b--".to_vec()),
        // ParserError: Unexpected end of multipart stream (parser closed)
        ("raises_multipart_truncated", "multipart/form-data; boundary=xYzZY", None, b"--xYzZY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue".to_vec()),
        // ParserError: Empty boundary
        ("raises_multipart_empty_boundary", "multipart/form-data; boundary=", None, b"--xYzZY\r\nContent-Disposition: form-data; name=\"field1\"\r\n\r\nvalue one\r\n--xYzZY\r\nContent-Disposition: form-data; name=\"f\xc3\xa9ld2\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\ncaf\xc3\xa9 & co=1+1\r\n--xYzZY\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a b.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01 \xff~.-_\r\n--xYzZY--\r\n".to_vec()),
        // UnicodeDecodeError: 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
        ("raises_multipart_invalid_utf8_field", "multipart/form-data; boundary=b", None, b"--b\r\nContent-Disposition: form-data; name=a\r\n\r\n\xff\r\n--b--".to_vec()),
        // ParserError: Unexpected byte in front of first boundary
        ("raises_multipart_byte_before_boundary", "multipart/form-data; boundary=b", None, b"xxxxxxxxxx--b\r\nContent-Disposition: form-data; name=a\r\n\r\nv\r\n--b--".to_vec()),
        ];
        for (name, content_type, length, body) in cases {
            let got = method_query("POST", Some(content_type), length, &body, "http://example.com/");
            assert_eq!(got.query, binary(&body), "{name}");
        }
    }

    /// The documented divergences; Python's output in the comments.
    #[test]
    fn divergences() {
        let json = |body: &[u8]| extract_query(Some("application/json"), None, body);
        // a=nan&b=-inf
        assert_eq!(json(br#"{"a": NaN, "b": -Infinity}"#), "");
        // a=18446744073709551616
        assert_eq!(
            json(br#"{"a": 18446744073709551616}"#),
            "a=1.8446744073709552e%2B19"
        );
        // a=0
        assert_eq!(json(br#"{"a": -0}"#), "a=-0.0");
        // a=inf
        assert_eq!(json(br#"{"a": 1e400}"#), "");
        // a=1
        assert_eq!(json(br#"{"\ud800": {"a": 1}}"#), "");
        // a=1 (Python's limit is its recursion limit)
        let deep = format!(r#"{{"a": {}1{}}}"#, "[".repeat(200), "]".repeat(200));
        assert_eq!(json(deep.as_bytes()), "");
        // request=%3CEnvelope%3E%5B%5D%3C%2FEnvelope%3E (PyAMF's decoding)
        let amf = |body: &[u8]| extract_query(Some("application/x-amf"), None, body);
        assert_eq!(amf(b"\x00\x03\x00\x00\x00\x00"), "__wb_post_data=AAMAAAAA");
        // "" (PyAMF fails: a truncated envelope)
        assert_eq!(amf(b"\x00\x03\x00\x00"), "__wb_post_data=AAMAAA==");
    }

    /// Python's `repr()` of these floats (/tmp/postq_cases.py).
    #[test]
    #[rustfmt::skip]
    fn float_repr_matches_python() {
        let cases: &[(u64, &str)] = &[
        (0x3ff0000000000000, "1.0"),
        (0x4341c37937e08000, "1e+16"),
        (0x3fb999999999999a, "0.1"),
        (0x3ee4f8b588e368f1, "1e-05"),
        (0x3f1a36e2eb1c432d, "0.0001"),
        (0x430c6bf526340000, "1000000000000000.0"),
        (0x419d6f3454800000, "123456789.125"),
        (0x0000000000000001, "5e-324"),
        (0x7fefffffffffffff, "1.7976931348623157e+308"),
        (0x3fd3333333333334, "0.30000000000000004"),
        (0x8000000000000000, "-0.0"),
        (0x0000000000000000, "0.0"),
        (0x3e90c6f7a0b5ed8d, "2.5e-07"),
        (0x4480f0cf064dd592, "1e+22"),
        (0x444b1ae4d6e2ef50, "1e+21"),
        (0x4340000000000000, "9007199254740992.0"),
        (0xbff8000000000000, "-1.5"),
        (0x4059000000000000, "100.0"),
        (0x43118b54f22aeb03, "1234567890123456.8"),
        (0x4345ee2a2eb5a5c4, "1.2345678901234568e+16"),
        (0x3f50624dd2f1a9fc, "0.001"),
        (0x3f33a92a30553261, "0.0003"),
        (0x0010000000000000, "2.2250738585072014e-308"),
        (0x42b84c97e8bc18d0, "26717245193240.812"),
        (0x42ed08f0a3127904, "255393873302472.12"),
        (0x430eac8881302e62, "1079243948033484.2"),
        (0xf2a74de452e6b438, "-1.989032661366619e+244"),
        (0x6513270e269e0d37, "7.761117632285041e+178"),
        (0x0c5c7fd0a6a3a450, "3.980498358697587e-249"),
        (0xd23f0824128b2f33, "-1.5432835417340557e+88"),
        (0x1818e811892f902b, "1.3647584518757569e-192"),
        (0x9531985d5d9dc9f8, "-1.3701135617873088e-206"),
        (0xe8e25d940ed90475, "-1.7160537630466207e+197"),
        (0x36f675cc81e74ef5, "6.294675241195386e-44"),
        (0x1600a35a099950d8, "1.0613447212142254e-202"),
        (0x6b0d549b6f03675a, "4.708325160387546e+207"),
        (0x3d9c172411e20b8f, "6.387016158513563e-12"),
        (0x8d116ece1738f7d9, "-9.973130378568733e-246"),
        (0xc062dec59ae71db8, "-150.96162171497213"),
        (0x40846da24d7ae84a, "653.7042493440761"),
        (0xc087832b2ac919c1, "-752.3960777007088"),
        (0xc0814c2d3372bf8a, "-553.522070785971"),
        (0x406fdbb9ea77f9a0, "254.86644481117855"),
        (0x408bfb57d40bb95c, "895.4178849140112"),
        ];
        for &(bits, repr) in cases {
            assert_eq!(py_float_repr(f64::from_bits(bits)), repr, "{bits:#x}");
        }
    }

    #[test]
    fn content_length_as_python_int() {
        for (text, n) in [
            ("12", Some(12)),
            (" +1_0\n", Some(10)),
            ("\u{a0}7\u{3000}", Some(7)),
        ] {
            assert_eq!(py_int_length(text), n, "{text:?}");
        }
        // Arabic-Indic and fullwidth digits; a negative length reads nothing.
        assert_eq!(py_int_length("\u{663}\u{ff15}"), Some(35));
        assert_eq!(py_int_length("-5"), Some(0));
        for bad in [
            "", " ", "1__0", "_1", "1_", "- 5", "0x10", "\x1c5", "1.0", "+-1",
        ] {
            assert_eq!(py_int_length(bad), None, "{bad:?}");
        }
        assert_eq!(py_int_length(&"9".repeat(4300)), Some(usize::MAX));
        assert_eq!(py_int_length(&"1".repeat(4301)), None);
    }

    /// A small xorshift generator: the tests stay deterministic.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// Arbitrary and mutated bodies never panic, for every content type,
    /// and the query stays within its length.
    #[test]
    fn arbitrary_bodies_never_panic() {
        let types = [
            None,
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=b"),
            Some("multipart/form-data; boundary=xYzZY"),
            Some("multipart/form-data"),
            Some("application/json"),
            Some("text/plain"),
            Some("application/x-amf"),
            Some("application/octet-stream"),
        ];
        let lengths = [None, Some("5"), Some("100000"), Some("-1"), Some("x")];
        let alphabet = b"\r\n\t -\"\\:;=%+&{}[],.0123456789eEaN\x00\x80\xc3\xa9\xff\xfe";
        let seeds: Vec<Vec<u8>> = cases().into_iter().map(|c| c.body).collect();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for round in 0..6000 {
            let mut body = if round % 2 == 0 {
                seeds[rng.below(seeds.len())].clone()
            } else {
                let n = rng.below(200);
                (0..n).map(|_| rng.next() as u8).collect()
            };
            for _ in 0..rng.below(8) {
                let at = rng.below(body.len() + 1);
                match rng.below(3) {
                    0 if at < body.len() => body[at] = alphabet[rng.below(alphabet.len())],
                    1 => body.insert(at, alphabet[rng.below(alphabet.len())]),
                    _ => body.truncate(at),
                }
            }
            let content_type = types[rng.below(types.len())];
            let length = lengths[rng.below(lengths.len())];
            let got = method_query("POST", content_type, length, &body, "http://e/");
            assert!(got.query.chars().count() <= MAX_QUERY_LENGTH);
            assert!(got.append.starts_with("?__wb_method=POST"));
        }
    }
}
