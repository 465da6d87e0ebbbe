//! `application/x-www-form-urlencoded` (URL Standard §5) and the
//! `URLSearchParams` class (§6.2) in Rust form: [`parse_urlencoded`],
//! [`serialize_urlencoded`] and [`SearchParams`], plus the binding of a
//! [`SearchParams`] to a [`Url`]'s query ([`Url::search_params`],
//! [`Url::set_search_params`]).
//!
//! Invariants and how they map to the standard:
//! - A [`SearchParams`] is exactly the standard's *list*: an ordered `Vec` of
//!   `(name, value)` tuples, duplicates allowed, order kept by every method
//!   except [`SearchParams::sort`], which is stable.
//! - Names and values are Rust `String`s, hence always scalar value strings:
//!   the IDL `USVString` conversion is a no-op and the serializer's "assert:
//!   name and value are scalar value strings" holds by construction.
//! - The parser never fails: percent-decoding keeps malformed `%` sequences
//!   and UTF-8 decoding replaces malformed bytes with U+FFFD.
//! - The serializer's output is ASCII made only of `*-._`, ASCII
//!   alphanumerics, `+`, `%XX`, `&` and `=`; parsing it gives back the list
//!   exactly (UTF-8 case).
//! - There is no back-pointer from a [`SearchParams`] to a URL (the
//!   standard's *URL object*): [`Url::search_params`] is the URL object's
//!   *initialize* of its query object (a snapshot), and
//!   [`Url::set_search_params`] is the *update* steps, called explicitly by
//!   the user after mutating the list.

use crate::percent_encoding::{
    FORM_URLENCODED, QueryEncoder, percent_decode, percent_encode_after_encoding,
};
use crate::url::Url;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;
use std::iter::FusedIterator;

/// The `application/x-www-form-urlencoded` parser: a byte sequence to a list
/// of name-value tuples.
///
/// ```
/// use spinneret_url::parse_urlencoded;
/// let pairs = parse_urlencoded(b"a=1&b=x+y%21&&c");
/// let expected = [("a", "1"), ("b", "x y!"), ("c", "")].map(|(n, v)| (n.to_owned(), v.to_owned()));
/// assert_eq!(pairs, expected);
/// ```
pub fn parse_urlencoded(input: &[u8]) -> Vec<(String, String)> {
    // Step 2: let output be an initially empty list of name-value tuples.
    let mut output = Vec::new();
    // Step 1: let sequences be the result of splitting input on 0x26 (&).
    // Step 3: for each byte sequence bytes in sequences:
    for bytes in input.split(|&b| b == b'&') {
        // Step 3.1: if bytes is the empty byte sequence, continue.
        if bytes.is_empty() {
            continue;
        }
        // Steps 3.2-3.3: split at the first 0x3D (=), if any; otherwise the
        // value is the empty byte sequence.
        let (name, value) = match bytes.iter().position(|&b| b == b'=') {
            Some(i) => (&bytes[..i], &bytes[i + 1..]),
            None => (bytes, &[][..]),
        };
        // Steps 3.4-3.6: replace +, percent-decode, UTF-8 decode, append.
        output.push((decode_component(name), decode_component(value)));
    }
    // Step 4: return output.
    output
}

/// Parser steps 3.4-3.5 for one of name or value: replace any 0x2B (+) with
/// 0x20 (SP) — before percent-decoding, so `%2B` stays `+` — then UTF-8
/// decode without BOM the percent-decoding. "Without BOM" means a leading
/// U+FEFF is kept; malformed sequences become U+FFFD, one per maximal
/// subpart, as the Encoding Standard's UTF-8 decoder does (and as
/// `String::from_utf8_lossy` does).
fn decode_component(bytes: &[u8]) -> String {
    let replaced: Cow<'_, [u8]> = if bytes.contains(&b'+') {
        Cow::Owned(
            bytes
                .iter()
                .map(|&b| if b == b'+' { b' ' } else { b })
                .collect(),
        )
    } else {
        Cow::Borrowed(bytes)
    };
    let decoded = percent_decode(&replaced);
    match String::from_utf8(decoded) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// The `application/x-www-form-urlencoded` serializer. `encoder` is the
/// optional *encoding* argument (a document's encoding for form
/// submission); `None` means UTF-8, as for `URLSearchParams`.
///
/// ```
/// use spinneret_url::serialize_urlencoded;
/// let s = serialize_urlencoded([("a b", "1+1"), ("é", "~")], None);
/// assert_eq!(s, "a+b=1%2B1&%C3%A9=%7E");
/// ```
pub fn serialize_urlencoded<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    encoder: Option<&dyn QueryEncoder>,
) -> String {
    // Step 1 (get an output encoding) is the encoder's job: it reports
    // UTF-8 through `QueryEncoder::is_utf8`, which
    // `percent_encode_after_encoding` honours.
    // Step 2: let output be the empty string.
    let mut output = String::new();
    // Step 3: for each tuple of tuples.
    for (name, value) in pairs {
        // Step 3.1 (assert: scalar value strings) holds for every `&str`.
        // Step 3.4: if output is not the empty string, append U+0026 (&).
        if !output.is_empty() {
            output.push('&');
        }
        // Steps 3.2, 3.3 and 3.5: percent-encode after encoding name and
        // value with the application/x-www-form-urlencoded percent-encode
        // set and spaceAsPlus true, appending name, "=", value.
        percent_encode_after_encoding(encoder, name, FORM_URLENCODED, true, &mut output);
        output.push('=');
        percent_encode_after_encoding(encoder, value, FORM_URLENCODED, true, &mut output);
    }
    // Step 4: return output.
    output
}

/// Compares two strings by their UTF-16 code units (the standard's *code
/// unit less than*), without allocating.
///
/// UTF-8 byte order equals code point order, which equals UTF-16 order
/// except that a supplementary code point (encoded with a leading surrogate
/// 0xD800-0xDBFF) sorts before U+E000-U+FFFF in UTF-16. So: skip the common
/// byte prefix, back up to the start of the code point it may end inside
/// (the prefix is shared, so the boundary is the same in both strings), and
/// compare the UTF-16 encodings of the first differing code points.
fn cmp_utf16(a: &str, b: &str) -> Ordering {
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let mut start = common;
    while !a.is_char_boundary(start) {
        start -= 1;
    }
    match (a[start..].chars().next(), b[start..].chars().next()) {
        (Some(x), Some(y)) => {
            let (mut xu, mut yu) = ([0u16; 2], [0u16; 2]);
            let xu: &[u16] = x.encode_utf16(&mut xu);
            let yu: &[u16] = y.encode_utf16(&mut yu);
            xu.cmp(yu)
        }
        (x, y) => x.is_some().cmp(&y.is_some()),
    }
}

/// The `URLSearchParams` class: an ordered list of name-value pairs with the
/// standard's methods. [`Display`](fmt::Display) is the stringifier (the
/// UTF-8 `application/x-www-form-urlencoded` serialization).
///
/// ```
/// use spinneret_url::SearchParams;
/// let mut p = SearchParams::parse("?b=2&a=1&b=3");
/// assert_eq!(p.get("b"), Some("2"));
/// assert_eq!(p.get_all("b"), ["2", "3"]);
/// p.set("b", "x y");
/// p.sort();
/// assert_eq!(p.to_string(), "a=1&b=x+y");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SearchParams {
    list: Vec<(String, String)>,
}

impl SearchParams {
    /// An empty list (`new URLSearchParams()`).
    pub fn new() -> SearchParams {
        SearchParams::default()
    }

    /// The constructor given a string: removes one leading `?`, then
    /// initializes with the `application/x-www-form-urlencoded` string
    /// parser.
    pub fn parse(init: &str) -> SearchParams {
        // Constructor step 1: if init starts with U+003F (?), remove it.
        let init = init.strip_prefix('?').unwrap_or(init);
        // Constructor step 2 / initialize step 3: the string parser (UTF-8
        // encode, which a `&str` already is, then parse).
        SearchParams {
            list: parse_urlencoded(init.as_bytes()),
        }
    }

    /// The constructor given a sequence of pairs or a record: appends each
    /// pair in order.
    pub fn from_pairs<I, K, V>(pairs: I) -> SearchParams
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        SearchParams {
            list: pairs
                .into_iter()
                .map(|(k, v)| (k.into(), v.into()))
                .collect(),
        }
    }

    /// The number of pairs (the `size` getter).
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// `append(name, value)`: appends the pair.
    pub fn append(&mut self, name: &str, value: &str) {
        self.list.push((name.to_owned(), value.to_owned()));
    }

    /// `delete(name, value)`: removes every pair named `name` — only those
    /// whose value is `value` when one is given.
    pub fn delete(&mut self, name: &str, value: Option<&str>) {
        match value {
            // Step 1: value given: remove tuples matching name and value.
            Some(value) => self.list.retain(|(n, v)| !(n == name && v == value)),
            // Step 2: otherwise remove tuples whose name is name.
            None => self.list.retain(|(n, _)| n != name),
        }
    }

    /// `get(name)`: the value of the first pair named `name`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.list
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `getAll(name)`: the values of all pairs named `name`, in list order.
    pub fn get_all(&self, name: &str) -> Vec<&str> {
        self.list
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// `has(name, value)`: whether a pair named `name` exists — with value
    /// `value`, when one is given.
    pub fn has(&self, name: &str, value: Option<&str>) -> bool {
        match value {
            // Step 1: value given and a tuple matches name and value.
            Some(value) => self.list.iter().any(|(n, v)| n == name && v == value),
            // Step 2: value not given and a tuple matches name.
            None => self.list.iter().any(|(n, _)| n == name),
        }
    }

    /// `set(name, value)`: sets the value of the first pair named `name`
    /// and removes the others, or appends the pair if there is none.
    pub fn set(&mut self, name: &str, value: &str) {
        match self.list.iter().position(|(n, _)| n == name) {
            // Step 1: set the first such tuple's value, remove the others.
            Some(first) => {
                let slot = &mut self.list[first].1;
                slot.clear();
                slot.push_str(value);
                let mut index = 0;
                self.list.retain(|(n, _)| {
                    let keep = index <= first || n != name;
                    index += 1;
                    keep
                });
            }
            // Step 2: otherwise append (name, value).
            None => self.append(name, value),
        }
    }

    /// `sort()`: stable sort by name, comparing names by UTF-16 code units
    /// (so `"\u{1F600}"` sorts before `"\u{FFFD}"`, unlike byte order).
    pub fn sort(&mut self) {
        // `sort_by` is stable: pairs with equal names keep their order.
        self.list.sort_by(|a, b| cmp_utf16(&a.0, &b.0));
    }

    /// The pairs, in list order (the value pairs to iterate over).
    pub fn iter(&self) -> SearchParamsIter<'_> {
        SearchParamsIter(self.list.iter())
    }

    /// The `application/x-www-form-urlencoded` serialization with an
    /// optional output encoding (`None` is UTF-8, the same as
    /// [`to_string`](ToString::to_string)).
    pub fn to_form_urlencoded(&self, encoder: Option<&dyn QueryEncoder>) -> String {
        serialize_urlencoded(self.iter(), encoder)
    }
}

/// The stringification behavior: the UTF-8 serialization of the list.
impl fmt::Display for SearchParams {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&serialize_urlencoded(self.iter(), None))
    }
}

impl<K: Into<String>, V: Into<String>> FromIterator<(K, V)> for SearchParams {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> SearchParams {
        SearchParams::from_pairs(iter)
    }
}

impl<K: Into<String>, V: Into<String>> Extend<(K, V)> for SearchParams {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        self.list
            .extend(iter.into_iter().map(|(k, v)| (k.into(), v.into())));
    }
}

impl<'a> IntoIterator for &'a SearchParams {
    type Item = (&'a str, &'a str);
    type IntoIter = SearchParamsIter<'a>;
    fn into_iter(self) -> SearchParamsIter<'a> {
        self.iter()
    }
}

impl IntoIterator for SearchParams {
    type Item = (String, String);
    type IntoIter = std::vec::IntoIter<(String, String)>;
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

/// Iterator over a [`SearchParams`]'s `(name, value)` pairs, in list order.
#[derive(Clone, Debug)]
pub struct SearchParamsIter<'a>(std::slice::Iter<'a, (String, String)>);

impl<'a> Iterator for SearchParamsIter<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(n, v)| (n.as_str(), v.as_str()))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl DoubleEndedIterator for SearchParamsIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(n, v)| (n.as_str(), v.as_str()))
    }
}

impl ExactSizeIterator for SearchParamsIter<'_> {}

impl FusedIterator for SearchParamsIter<'_> {}

impl Url {
    /// The URL's query as a [`SearchParams`] (what the `URL` object's
    /// *initialize* gives its query object): the parse of the query, or an
    /// empty list when the query is null. Unlike [`SearchParams::parse`], no
    /// leading `?` is removed: in `https://x/??a=1` the first name is `?a`.
    ///
    /// This is a snapshot; after changing it, write it back with
    /// [`Url::set_search_params`].
    pub fn search_params(&self) -> SearchParams {
        // URL initialize step 1: query is the URL's query if non-null,
        // otherwise the empty string (which parses to the empty list).
        // Step 4 (URLSearchParams initialize with a string): the string
        // parser, with no `?` removal.
        SearchParams {
            list: self
                .query()
                .map(|q| parse_urlencoded(q.as_bytes()))
                .unwrap_or_default(),
        }
    }

    /// Sets the URL's query from `params`: the `URLSearchParams` *update*
    /// steps, with this URL as the URL object.
    ///
    /// ```
    /// use spinneret_url::Url;
    /// let mut url = Url::parse("https://x/?a=b c#f").unwrap();
    /// let mut params = url.search_params();
    /// params.set("q", "é");
    /// url.set_search_params(&params);
    /// assert_eq!(url.href(), "https://x/?a=b+c&q=%C3%A9#f");
    /// url.set_search_params(&Default::default());
    /// assert_eq!(url.href(), "https://x/#f");
    /// ```
    pub fn set_search_params(&mut self, params: &SearchParams) {
        // Update step 1 (URL object is null) does not apply: `self` is it.
        // Update step 2: serializedQuery is the serialization of the list.
        let serialized = params.to_string();
        // Update steps 3-4: an empty serialization means a null query; set
        // the URL's query to serializedQuery. (This url.bs has no "potentially
        // strip trailing spaces from an opaque path" step here: the opaque
        // path state already writes a space before `?`/`#` as `%20`.)
        //
        // `set_search` does exactly this. Given "", it sets the query to null.
        // Given a non-empty serialization it (a) removes a leading `?` — there
        // is none, `?` is in the form-urlencoded set so it is always `%3F`;
        // (b) sets the query to "" and basic-parses in query state with UTF-8,
        // which percent-encodes with the (special-)query set and stops at `#`
        // only without a state override. The serialization contains only
        // ASCII alphanumerics and `*-._+%&=`, none of which is in either query
        // set, and no tab or newline for the parser to drop, so the query
        // becomes the serialization byte for byte.
        self.set_search(&serialized);
        debug_assert_eq!(
            self.query(),
            if serialized.is_empty() {
                None
            } else {
                Some(serialized.as_str())
            }
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::percent_encoding::EncodedPiece;
    use proptest::prelude::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|&(n, v)| (n.to_owned(), v.to_owned()))
            .collect()
    }

    fn parsed(input: &str) -> Vec<(String, String)> {
        parse_urlencoded(input.as_bytes())
    }

    fn names(p: &SearchParams) -> Vec<&str> {
        p.iter().map(|(n, _)| n).collect()
    }

    /// A legacy encoding that maps ASCII to itself and nothing else.
    struct AsciiOnly;

    impl QueryEncoder for AsciiOnly {
        fn is_utf8(&self) -> bool {
            false
        }
        fn encode(&self, input: &str, sink: &mut dyn FnMut(EncodedPiece<'_>)) {
            for c in input.chars() {
                if c.is_ascii() {
                    sink(EncodedPiece::Bytes(&[c as u8]));
                } else {
                    sink(EncodedPiece::Unmappable(c));
                }
            }
        }
    }

    /// An encoder whose output encoding is UTF-8 (e.g. UTF-16LE after "get
    /// an output encoding"): it must never be called.
    struct ReportsUtf8;

    impl QueryEncoder for ReportsUtf8 {
        fn is_utf8(&self) -> bool {
            true
        }
        fn encode(&self, _: &str, _: &mut dyn FnMut(EncodedPiece<'_>)) {
            unreachable!("UTF-8 output encoding is handled by the crate")
        }
    }

    // ---- parser ----

    #[test]
    fn parse_splits_on_ampersand_and_skips_empty_sequences() {
        assert_eq!(
            parsed("a=1&b=2&&c"),
            pairs(&[("a", "1"), ("b", "2"), ("c", "")])
        );
        assert_eq!(parsed(""), pairs(&[]));
        assert_eq!(parsed("&&&"), pairs(&[]));
        assert_eq!(parsed("&a&"), pairs(&[("a", "")]));
        assert_eq!(parsed("&=&"), pairs(&[("", "")]));
        assert_eq!(
            parsed("a&a&a=1"),
            pairs(&[("a", ""), ("a", ""), ("a", "1")])
        );
    }

    #[test]
    fn parse_splits_name_and_value_at_first_equals() {
        assert_eq!(parsed("=x"), pairs(&[("", "x")]));
        assert_eq!(parsed("="), pairs(&[("", "")]));
        assert_eq!(parsed("x="), pairs(&[("x", "")]));
        assert_eq!(parsed("a=b=c"), pairs(&[("a", "b=c")]));
        assert_eq!(parsed("==="), pairs(&[("", "==")]));
        // Splitting happens before decoding: encoded delimiters are data.
        assert_eq!(parsed("a%26b=c%3Dd"), pairs(&[("a&b", "c=d")]));
    }

    #[test]
    fn parse_replaces_plus_before_percent_decoding() {
        assert_eq!(parsed("+%20"), pairs(&[("  ", "")]));
        assert_eq!(parsed("a+b=c+d"), pairs(&[("a b", "c d")]));
        assert_eq!(parsed("%2B=%2b"), pairs(&[("+", "+")]));
        assert_eq!(parsed("a=b+%2B+c"), pairs(&[("a", "b + c")]));
    }

    #[test]
    fn parse_keeps_malformed_percent_sequences() {
        assert_eq!(parsed("%zz"), pairs(&[("%zz", "")]));
        assert_eq!(parsed("%=%"), pairs(&[("%", "%")]));
        assert_eq!(parsed("a=%4"), pairs(&[("a", "%4")]));
        assert_eq!(parsed("a=%4g%"), pairs(&[("a", "%4g%")]));
        assert_eq!(parsed("a=%%41"), pairs(&[("a", "%A")]));
        // Decoding is one pass: %2541 is "%41", not "A".
        assert_eq!(parsed("a=%2541"), pairs(&[("a", "%41")]));
        assert_eq!(parsed("a=b%f0%9f%92%a9c"), pairs(&[("a", "b\u{1F4A9}c")]));
    }

    #[test]
    fn parse_decodes_utf8_lossily_without_bom() {
        assert_eq!(parsed("%FF"), pairs(&[("\u{FFFD}", "")]));
        assert_eq!(parsed("a=%C2"), pairs(&[("a", "\u{FFFD}")]));
        assert_eq!(parsed("%C3%A9=%C3"), pairs(&[("é", "\u{FFFD}")]));
        // One U+FFFD per maximal subpart, as the Encoding Standard says.
        assert_eq!(parsed("a=%F0%9F%98x"), pairs(&[("a", "\u{FFFD}x")]));
        assert_eq!(parsed("a=%C0%80"), pairs(&[("a", "\u{FFFD}\u{FFFD}")]));
        assert_eq!(
            parsed("a=%ED%A0%80"),
            pairs(&[("a", "\u{FFFD}\u{FFFD}\u{FFFD}")])
        );
        assert_eq!(
            parsed("a=%F4%90%80%80"),
            pairs(&[("a", "\u{FFFD}".repeat(4).as_str())])
        );
        // "Without BOM": a leading U+FEFF is kept, encoded or raw.
        assert_eq!(parsed("%EF%BB%BFa=1"), pairs(&[("\u{FEFF}a", "1")]));
        assert_eq!(
            parsed("\u{FEFF}test=\u{FEFF}"),
            pairs(&[("\u{FEFF}test", "\u{FEFF}")])
        );
        // Raw (unencoded) malformed bytes in the input too.
        assert_eq!(
            parse_urlencoded(b"\xFF=\xC3&\xE2\x82"),
            pairs(&[("\u{FFFD}", "\u{FFFD}"), ("\u{FFFD}", "")])
        );
        assert_eq!(parsed("\u{1F4A9}=\u{E9}"), pairs(&[("\u{1F4A9}", "é")]));
        assert_eq!(parsed("a=%00b"), pairs(&[("a", "\0b")]));
    }

    // ---- serializer ----

    #[test]
    fn serialize_spaces_and_reserved_characters() {
        let s = |n: &str, v: &str| serialize_urlencoded([(n, v)], None);
        assert_eq!(s("a b", "c d"), "a+b=c+d");
        assert_eq!(s(" ", "  "), "+=++");
        assert_eq!(s("*-._", "*-._"), "*-._=*-._");
        assert_eq!(s("~", "!'()"), "%7E=%21%27%28%29");
        assert_eq!(s("+", "%"), "%2B=%25");
        assert_eq!(s("&", "="), "%26=%3D");
        assert_eq!(s("?#", "/:@"), "%3F%23=%2F%3A%40");
        assert_eq!(s("\0", "\x7F"), "%00=%7F");
        assert_eq!(s("a\r\nb", "\t"), "a%0D%0Ab=%09");
        assert_eq!(s("é", "\u{1F4A9}"), "%C3%A9=%F0%9F%92%A9");
        assert_eq!(s("\u{FFFD}", "\u{FEFF}"), "%EF%BF%BD=%EF%BB%BF");
        assert_eq!(s("", ""), "=");
    }

    #[test]
    fn serialize_joins_with_ampersand() {
        assert_eq!(serialize_urlencoded([], None), "");
        assert_eq!(serialize_urlencoded([("", ""), ("", "")], None), "=&=");
        assert_eq!(
            serialize_urlencoded([("a", "1"), ("b", ""), ("", "c")], None),
            "a=1&b=&=c"
        );
    }

    #[test]
    fn serialize_keeps_exactly_alphanumerics_and_star_dash_dot_underscore() {
        for b in 0u8..0x80 {
            let c = (b as char).to_string();
            let out = serialize_urlencoded([(c.as_str(), "")], None);
            let expected = if b.is_ascii_alphanumeric() || b"*-._".contains(&b) {
                format!("{c}=")
            } else if b == b' ' {
                "+=".to_owned()
            } else {
                format!("%{b:02X}=")
            };
            assert_eq!(out, expected, "byte {b:#04x}");
        }
    }

    #[test]
    fn serialize_with_legacy_encoder_writes_character_references() {
        let enc: &dyn QueryEncoder = &AsciiOnly;
        let s = |n: &str, v: &str| serialize_urlencoded([(n, v)], Some(enc));
        assert_eq!(s("a", "é"), "a=%26%23233%3B");
        assert_eq!(s("€", "\u{1F600}"), "%26%238364%3B=%26%23128512%3B");
        // ASCII goes through the same rules as UTF-8.
        assert_eq!(s("a b&c", "~*+"), "a+b%26c=%7E*%2B");
        // A literal "&#233;" is encoded, so it stays distinguishable.
        assert_eq!(s("&#233;", ""), "%26%23233%3B=");
        assert_eq!(
            serialize_urlencoded([("x", "ü ü"), ("y", "")], Some(enc)),
            "x=%26%23252%3B+%26%23252%3B&y="
        );
        let p = SearchParams::from_pairs([("q", "ß")]);
        assert_eq!(p.to_form_urlencoded(Some(enc)), "q=%26%23223%3B");
        assert_eq!(p.to_form_urlencoded(None), "q=%C3%9F");
    }

    #[test]
    fn serialize_with_utf8_output_encoding_is_utf8() {
        let enc: &dyn QueryEncoder = &ReportsUtf8;
        let list = [("é é", "\u{1F600}~")];
        assert_eq!(
            serialize_urlencoded(list, Some(enc)),
            serialize_urlencoded(list, None)
        );
        assert_eq!(
            serialize_urlencoded(list, None),
            "%C3%A9+%C3%A9=%F0%9F%98%80%7E"
        );
    }

    proptest! {
        #[test]
        fn serialize_then_parse_round_trips(list in proptest::collection::vec((any::<String>(), any::<String>()), 0..6)) {
            let out = serialize_urlencoded(list.iter().map(|(n, v)| (n.as_str(), v.as_str())), None);
            prop_assert!(out.bytes().all(|b| b.is_ascii_alphanumeric() || b"*-._+%&=".contains(&b)));
            prop_assert_eq!(parse_urlencoded(out.as_bytes()), list);
        }

        #[test]
        fn cmp_utf16_matches_code_unit_order(
            a in "[a\u{7F}\u{80}\u{D7FF}\u{E000}\u{FFFD}\u{FFFF}\u{10000}\u{1F600}\u{10FFFF}]{0,5}",
            b in "[a\u{7F}\u{80}\u{D7FF}\u{E000}\u{FFFD}\u{FFFF}\u{10000}\u{1F600}\u{10FFFF}]{0,5}",
        ) {
            prop_assert_eq!(cmp_utf16(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
            prop_assert_eq!(cmp_utf16(&b, &a), b.encode_utf16().cmp(a.encode_utf16()));
            prop_assert_eq!(cmp_utf16(&a, &a), Ordering::Equal);
        }

        #[test]
        fn cmp_utf16_matches_on_any_strings(a in any::<String>(), b in any::<String>()) {
            prop_assert_eq!(cmp_utf16(&a, &b), a.encode_utf16().cmp(b.encode_utf16()));
            let ab = format!("{a}{b}");
            prop_assert_eq!(cmp_utf16(&a, &ab), a.encode_utf16().cmp(ab.encode_utf16()));
        }

        #[test]
        fn set_search_params_sets_the_query_to_the_serialization(
            list in proptest::collection::vec((any::<String>(), any::<String>()), 0..4),
            base in prop::sample::select(vec!["https://h/p?old#f", "sc://h/p", "sc:opaque ?x", "file:///x?y", "ws://h/"]),
        ) {
            let params = SearchParams::from_pairs(list.clone());
            let mut url = Url::parse(base).unwrap();
            url.set_search_params(&params);
            let serialized = params.to_string();
            prop_assert_eq!(url.query(), if serialized.is_empty() { None } else { Some(serialized.as_str()) });
            prop_assert_eq!(url.search_params(), params);
            // The result is a fixed point of parsing.
            let reparsed = Url::parse(url.href()).unwrap();
            prop_assert_eq!(reparsed.href(), url.href());
        }
    }

    #[test]
    fn cmp_utf16_examples() {
        assert_eq!(cmp_utf16("", ""), Ordering::Equal);
        assert_eq!(cmp_utf16("", "a"), Ordering::Less);
        assert_eq!(cmp_utf16("a", ""), Ordering::Greater);
        assert_eq!(cmp_utf16("\u{1F600}", "\u{FFFD}"), Ordering::Less);
        assert_eq!(cmp_utf16("\u{FFFD}", "\u{1F600}"), Ordering::Greater);
        assert_eq!(cmp_utf16("\u{D7FF}", "\u{10000}"), Ordering::Less);
        assert_eq!(cmp_utf16("\u{E000}", "\u{10000}"), Ordering::Greater);
        assert_eq!(cmp_utf16("\u{1F600}", "\u{1F601}"), Ordering::Less);
        assert_eq!(cmp_utf16("\u{1F600}", "\u{1F600}a"), Ordering::Less);
        // Shared lead byte, differing continuation bytes.
        assert_eq!(cmp_utf16("a\u{FFFD}", "a\u{F900}"), Ordering::Greater);
        assert_eq!(cmp_utf16("a\u{10400}", "a\u{FB03}"), Ordering::Less);
    }

    // ---- URLSearchParams ----

    #[test]
    fn constructor_strips_one_leading_question_mark() {
        assert_eq!(
            SearchParams::parse("?a=1").iter().collect::<Vec<_>>(),
            [("a", "1")]
        );
        assert_eq!(
            SearchParams::parse("??a=1").iter().collect::<Vec<_>>(),
            [("?a", "1")]
        );
        assert_eq!(
            SearchParams::parse("a=?").iter().collect::<Vec<_>>(),
            [("a", "?")]
        );
        assert!(SearchParams::parse("?").is_empty());
        assert!(SearchParams::parse("").is_empty());
        assert_eq!(SearchParams::parse("%3Fa=1").get("?a"), Some("1"));
        assert_eq!(SearchParams::new(), SearchParams::default());
    }

    #[test]
    fn from_pairs_keeps_order_and_duplicates() {
        let p = SearchParams::from_pairs([("b", "1"), ("a", "2"), ("b", "3")]);
        assert_eq!(p.len(), 3);
        assert_eq!(p.to_string(), "b=1&a=2&b=3");
        let q: SearchParams = vec![("x".to_owned(), "y".to_owned())].into_iter().collect();
        assert_eq!(q.get("x"), Some("y"));
        let mut r = SearchParams::new();
        r.extend([("k", "v")]);
        assert_eq!(r.to_string(), "k=v");
        let owned: Vec<(String, String)> = p.clone().into_iter().collect();
        assert_eq!(owned, pairs(&[("b", "1"), ("a", "2"), ("b", "3")]));
        assert_eq!((&p).into_iter().next_back(), Some(("b", "3")));
        assert_eq!(p.iter().len(), 3);
    }

    #[test]
    fn size_append_and_is_empty() {
        let mut p = SearchParams::new();
        assert!(p.is_empty());
        assert_eq!(p.len(), 0);
        p.append("a", "b");
        p.append("a", "b");
        p.append("", "");
        assert_eq!(p.len(), 3);
        assert!(!p.is_empty());
        assert_eq!(p.to_string(), "a=b&a=b&=");
    }

    #[test]
    fn get_and_get_all() {
        let p = SearchParams::parse("a=b&c=d&a=e&c&=f");
        assert_eq!(p.get("a"), Some("b"));
        assert_eq!(p.get("c"), Some("d"));
        assert_eq!(p.get(""), Some("f"));
        assert_eq!(p.get("x"), None);
        assert_eq!(p.get_all("a"), ["b", "e"]);
        assert_eq!(p.get_all("c"), ["d", ""]);
        assert!(p.get_all("x").is_empty());
        // Names are compared exactly: no case folding, no normalization.
        let q = SearchParams::from_pairs([("é", "1")]);
        assert_eq!(q.get("e\u{301}"), None);
        assert_eq!(q.get("É"), None);
        assert_eq!(q.get("é"), Some("1"));
    }

    #[test]
    fn has_with_and_without_value() {
        let p = SearchParams::parse("a=b&a=d&c&e&");
        assert!(p.has("a", None));
        assert!(p.has("a", Some("b")));
        assert!(p.has("a", Some("d")));
        assert!(!p.has("a", Some("c")));
        assert!(!p.has("a", Some("")));
        assert!(p.has("c", None));
        assert!(p.has("c", Some("")));
        assert!(p.has("e", Some("")));
        assert!(!p.has("f", None));
        assert!(!p.has("", None));
    }

    #[test]
    fn delete_with_and_without_value() {
        let mut p = SearchParams::parse("a=b&a=c&a=d&b=x&a=c");
        p.delete("a", Some("c"));
        assert_eq!(p.to_string(), "a=b&a=d&b=x");
        p.delete("a", Some("zz"));
        assert_eq!(p.to_string(), "a=b&a=d&b=x");
        p.delete("b", Some(""));
        assert_eq!(p.to_string(), "a=b&a=d&b=x");
        p.delete("a", None);
        assert_eq!(p.to_string(), "b=x");
        p.delete("nope", None);
        assert_eq!(p.to_string(), "b=x");
        p.delete("b", Some("x"));
        assert!(p.is_empty());
        let mut q = SearchParams::parse("a&a=&a=1");
        q.delete("a", Some(""));
        assert_eq!(q.to_string(), "a=1");
    }

    #[test]
    fn set_replaces_first_and_removes_the_rest() {
        let mut p = SearchParams::parse("x=0&a=b&c=d&a=e&y=1&a=g");
        p.set("a", "f");
        assert_eq!(p.to_string(), "x=0&a=f&c=d&y=1");
        p.set("z", "new");
        assert_eq!(p.to_string(), "x=0&a=f&c=d&y=1&z=new");
        p.set("x", "");
        assert_eq!(p.to_string(), "x=&a=f&c=d&y=1&z=new");
        let mut q = SearchParams::parse("a=1&a=2");
        q.set("a", "1");
        assert_eq!(q.get_all("a"), ["1"]);
        let mut r = SearchParams::new();
        r.set("a b", "c d");
        assert_eq!(r.to_string(), "a+b=c+d");
    }

    #[test]
    fn sort_is_stable() {
        let mut p = SearchParams::parse("z=b&a=b&z=a&a=a");
        p.sort();
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [("a", "b"), ("a", "a"), ("z", "b"), ("z", "a")]
        );
        let mut q = SearchParams::parse("z=z&a=a&z=y&a=b&z=x&a=c&z=w&a=d&z=v&a=e&z=u&a=f&z=t&a=g");
        q.sort();
        assert_eq!(
            q.to_string(),
            "a=a&a=b&a=c&a=d&a=e&a=f&a=g&z=z&z=y&z=x&z=w&z=v&z=u&z=t"
        );
        let mut r = SearchParams::parse("bbb&bb&aaa&aa=x&aa=y");
        r.sort();
        assert_eq!(r.to_string(), "aa=x&aa=y&aaa=&bb=&bbb=");
        let mut s = SearchParams::parse("z=z&=f&=t&=x");
        s.sort();
        assert_eq!(s.to_string(), "=f&=t&=x&z=z");
        // Long input (past any small-slice insertion-sort threshold).
        let mut long = SearchParams::new();
        for i in 0..200 {
            long.append(["c", "a", "b"][i % 3], &i.to_string());
        }
        long.sort();
        let values: Vec<usize> = long.iter().map(|(_, v)| v.parse().unwrap()).collect();
        let mut expected: Vec<usize> = (1..200).step_by(3).collect();
        expected.extend((2..200).step_by(3));
        expected.extend((0..200).step_by(3));
        assert_eq!(values, expected);
    }

    #[test]
    fn sort_compares_utf16_code_units() {
        let mut p = SearchParams::from_pairs([("\u{FFFD}", "x"), ("\u{1F600}", "y")]);
        p.sort();
        assert_eq!(names(&p), ["\u{1F600}", "\u{FFFD}"]);
        // The WPT cases.
        let mut p = SearchParams::parse("\u{FFFD}=x&\u{FFFC}&\u{FFFD}=a");
        p.sort();
        assert_eq!(
            p.iter().collect::<Vec<_>>(),
            [("\u{FFFC}", ""), ("\u{FFFD}", "x"), ("\u{FFFD}", "a")]
        );
        let mut p = SearchParams::parse("\u{FB03}&\u{1F308}");
        p.sort();
        assert_eq!(names(&p), ["\u{1F308}", "\u{FB03}"]);
        let mut p = SearchParams::parse("\u{E9}&e\u{FFFD}&e\u{301}");
        p.sort();
        assert_eq!(names(&p), ["e\u{301}", "e\u{FFFD}", "\u{E9}"]);
        let mut p = SearchParams::parse("a\u{1F308}&a\u{1F4A9}");
        p.sort();
        assert_eq!(names(&p), ["a\u{1F308}", "a\u{1F4A9}"]);
        // Values do not take part.
        let mut p = SearchParams::parse("a=2&a=1");
        p.sort();
        assert_eq!(p.to_string(), "a=2&a=1");
    }

    #[test]
    fn stringifier_is_the_utf8_serializer() {
        let p = SearchParams::parse("a=b+c&d=%7E&e=*&f=%F0%9F%92%A9");
        assert_eq!(p.to_string(), "a=b+c&d=%7E&e=*&f=%F0%9F%92%A9");
        assert_eq!(format!("{p}"), p.to_form_urlencoded(None));
        assert_eq!(SearchParams::new().to_string(), "");
        assert_eq!(SearchParams::parse("a=1&a=2&b").to_string(), "a=1&a=2&b=");
        assert_eq!(SearchParams::parse("%zz=%").to_string(), "%25zz=%25");
    }

    // ---- URL binding ----

    #[test]
    fn url_binding_set_and_delete() {
        let mut url = Url::parse("https://x/?a=b c").unwrap();
        assert_eq!(url.href(), "https://x/?a=b%20c");
        let mut params = url.search_params();
        assert_eq!(params.get("a"), Some("b c"));
        params.set("q", "é");
        url.set_search_params(&params);
        assert_eq!(url.href(), "https://x/?a=b+c&q=%C3%A9");
        params.delete("a", None);
        params.delete("q", None);
        url.set_search_params(&params);
        assert_eq!(url.href(), "https://x/");
        assert_eq!(url.query(), None);
        assert!(url.search_params().is_empty());
    }

    #[test]
    fn url_binding_getter() {
        assert!(Url::parse("https://x/").unwrap().search_params().is_empty());
        assert!(
            Url::parse("https://x/?")
                .unwrap()
                .search_params()
                .is_empty()
        );
        // No `?` removal for the URL's query.
        let p = Url::parse("https://x/??a=1").unwrap().search_params();
        assert_eq!(p.iter().collect::<Vec<_>>(), [("?a", "1")]);
        // The fragment is not part of the query.
        let p = Url::parse("https://x/?a=1#b=2").unwrap().search_params();
        assert_eq!(p.iter().collect::<Vec<_>>(), [("a", "1")]);
        // From the standard's note: `~` and `%7E` both read as "~".
        let p = Url::parse("https://example.com/?a=~&b=%7E")
            .unwrap()
            .search_params();
        assert_eq!((p.get("a"), p.get("b")), (Some("~"), Some("~")));
        // A query percent-encoded in a legacy encoding decodes as UTF-8.
        let p = Url::parse("https://x/?a=%E9").unwrap().search_params();
        assert_eq!(p.get("a"), Some("\u{FFFD}"));
    }

    #[test]
    fn url_binding_examples_from_the_standard() {
        let mut url = Url::parse("https://example.com/?a=b ~").unwrap();
        assert_eq!(url.href(), "https://example.com/?a=b%20~");
        let mut p = url.search_params();
        p.sort();
        url.set_search_params(&p);
        assert_eq!(url.href(), "https://example.com/?a=b+%7E");

        let mut url =
            Url::parse("https://example.org/?q=\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}&key=e1f7bc78")
                .unwrap();
        let mut p = url.search_params();
        p.sort();
        url.set_search_params(&p);
        assert_eq!(
            url.search(),
            "?key=e1f7bc78&q=%F0%9F%8F%B3%EF%B8%8F%E2%80%8D%F0%9F%8C%88"
        );
    }

    #[test]
    fn url_binding_sort_of_empty_query_nulls_it() {
        // WPT: sort() with an empty query removes the `?`.
        let mut url = Url::parse("http://example.com/?").unwrap();
        let mut p = url.search_params();
        p.sort();
        url.set_search_params(&p);
        assert_eq!(url.search(), "");
        assert_eq!(url.href(), "http://example.com/");
    }

    #[test]
    fn url_binding_keeps_fragment_and_other_components() {
        let mut url = Url::parse("https://u:p@x:8080/p/q?a=1#frag").unwrap();
        let mut p = url.search_params();
        p.append("b", "#?");
        url.set_search_params(&p);
        assert_eq!(url.href(), "https://u:p@x:8080/p/q?a=1&b=%23%3F#frag");
        url.set_search_params(&SearchParams::new());
        assert_eq!(url.href(), "https://u:p@x:8080/p/q#frag");
        // Adding to a URL without a query.
        let mut url = Url::parse("https://x/p#f").unwrap();
        url.set_search_params(&SearchParams::from_pairs([("'", "\"<>")]));
        assert_eq!(url.href(), "https://x/p?%27=%22%3C%3E#f");
    }

    #[test]
    fn url_binding_non_special_and_opaque_paths() {
        let mut url = Url::parse("sc:x?a=b c").unwrap();
        let mut p = url.search_params();
        assert_eq!(p.get("a"), Some("b c"));
        p.append("n", "'");
        url.set_search_params(&p);
        assert_eq!(url.href(), "sc:x?a=b+c&n=%27");
        // WPT: changing the query of a URL with an opaque path with trailing
        // spaces (the space before `?` was already written as `%20`).
        let mut url = Url::parse("data:space    ?test").unwrap();
        let mut p = url.search_params();
        assert!(p.has("test", None));
        p.delete("test", None);
        url.set_search_params(&p);
        assert!(!url.search_params().has("test", None));
        assert_eq!(url.search(), "");
        assert_eq!(url.pathname(), "space   %20");
        assert_eq!(url.href(), "data:space   %20");
        let mut url = Url::parse("data:space    ?test#test").unwrap();
        let mut p = url.search_params();
        p.delete("test", None);
        url.set_search_params(&p);
        assert_eq!(url.href(), "data:space   %20#test");
    }
}
