//! The transport layer's character encoding: the `charset` parameter of an
//! HTTP `Content-Type`, found the way browsers find it.
//!
//! Steps follow Fetch's *extract a MIME type* (several `Content-Type`
//! values, combined and split on commas outside quoted strings by *get,
//! decode, and split*) over MIME Sniffing's *parse a MIME type* (quoted
//! values through *collect an HTTP quoted string*, the first occurrence of a
//! parameter wins, parameters with invalid names or values are dropped).
//!
//! Invariants: every function here is total — any bytes give a result, never
//! a panic. Header values are bytes; they are read *isomorphic decoded*
//! (byte `b` is code point `U+00b`), so no UTF-8 validation is involved.

/// HTTP whitespace: TAB, LF, CR, SPACE.
fn is_http_ws(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r' | b' ')
}

/// HTTP token code points.
fn is_token(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// HTTP quoted-string token code points (isomorphic decoded bytes).
fn is_quoted_string_token(b: u8) -> bool {
    b == b'\t' || (0x20..=0x7E).contains(&b) || b >= 0x80
}

fn trim_http_ws(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s
        && is_http_ws(*first)
    {
        s = rest;
    }
    while let [rest @ .., last] = s
        && is_http_ws(*last)
    {
        s = rest;
    }
    s
}

/// *collect an HTTP quoted string* from `input` at `*pos` (which points at
/// `"`). Returns the value (extract-value true) and, through `raw_end`, the
/// position after it, so callers wanting extract-value false slice `input`.
fn collect_quoted_string(input: &[u8], pos: &mut usize) -> Vec<u8> {
    let mut value = Vec::new();
    // 4. Advance position by 1 (past the opening quote).
    *pos += 1;
    // 5. While true:
    loop {
        // 5.1 Append the code points that are not `"` or `\`.
        while *pos < input.len() && input[*pos] != b'"' && input[*pos] != b'\\' {
            value.push(input[*pos]);
            *pos += 1;
        }
        // 5.2 If position is past the end of input, then break.
        if *pos >= input.len() {
            break;
        }
        // 5.3-5.4 quoteOrBackslash; advance by 1.
        let quote_or_backslash = input[*pos];
        *pos += 1;
        if quote_or_backslash == b'\\' {
            // 5.5.1 Past the end: append `\` and break.
            if *pos >= input.len() {
                value.push(b'\\');
                break;
            }
            // 5.5.2-3 Append the escaped code point; advance.
            value.push(input[*pos]);
            *pos += 1;
        } else {
            // 5.6 The closing quote.
            break;
        }
    }
    value
}

/// A parsed MIME type: lower-cased essence and the parameters kept (names
/// lower-cased, first occurrence wins, values unescaped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MimeType {
    /// `type/subtype`, lower-cased.
    pub essence: String,
    /// `(name, value)` pairs in order of appearance; values are bytes because
    /// header values may hold any byte.
    pub parameters: Vec<(String, Vec<u8>)>,
}

impl MimeType {
    /// The value of parameter `name` (lower-case), if present.
    pub fn parameter(&self, name: &str) -> Option<&[u8]> {
        self.parameters
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_slice())
    }
}

/// MIME Sniffing's *parse a MIME type*; `None` is failure.
pub fn parse_mime_type(input: &[u8]) -> Option<MimeType> {
    // 1. Remove leading and trailing HTTP whitespace.
    let input = trim_http_ws(input);
    // 2-3. type: code points up to `/`, non-empty HTTP token.
    let slash = input.iter().position(|&b| b == b'/')?;
    let ty = &input[..slash];
    if ty.is_empty() || !ty.iter().all(|&b| is_token(b)) {
        return None;
    }
    // 4-5. (`position` past the end is failure: handled by `?` above.)
    let mut pos = slash + 1;
    // 6-8. subtype: up to `;`, trailing HTTP whitespace removed, HTTP token.
    let sub_end = input[pos..]
        .iter()
        .position(|&b| b == b';')
        .map_or(input.len(), |i| pos + i);
    let mut subtype = &input[pos..sub_end];
    while let [rest @ .., last] = subtype
        && is_http_ws(*last)
    {
        subtype = rest;
    }
    if subtype.is_empty() || !subtype.iter().all(|&b| is_token(b)) {
        return None;
    }
    pos = sub_end;
    // 9. The MIME type record, lower-cased (tokens are ASCII).
    let mut mime = MimeType {
        essence: format!(
            "{}/{}",
            String::from_utf8_lossy(ty).to_ascii_lowercase(),
            String::from_utf8_lossy(subtype).to_ascii_lowercase()
        ),
        parameters: Vec::new(),
    };
    // 10. While position is not past the end of input:
    while pos < input.len() {
        // 10.1 Advance position by 1 (skips `;`).
        pos += 1;
        // 10.2 Collect HTTP whitespace.
        while pos < input.len() && is_http_ws(input[pos]) {
            pos += 1;
        }
        // 10.3-4 parameterName: up to `;` or `=`, lower-cased.
        let name_start = pos;
        while pos < input.len() && input[pos] != b';' && input[pos] != b'=' {
            pos += 1;
        }
        let name = input[name_start..pos].to_ascii_lowercase();
        // 10.5 `;` → next parameter; otherwise skip `=`.
        if pos < input.len() {
            if input[pos] == b';' {
                continue;
            }
            pos += 1;
        }
        // 10.6 Past the end: break.
        if pos >= input.len() {
            break;
        }
        // 10.7-9 parameterValue.
        let value = if input[pos] == b'"' {
            let v = collect_quoted_string(input, &mut pos);
            while pos < input.len() && input[pos] != b';' {
                pos += 1;
            }
            v
        } else {
            let start = pos;
            while pos < input.len() && input[pos] != b';' {
                pos += 1;
            }
            let mut v = &input[start..pos];
            while let [rest @ .., last] = v
                && is_http_ws(*last)
            {
                v = rest;
            }
            if v.is_empty() {
                continue;
            }
            v.to_vec()
        };
        // 10.10 Keep it when valid and not already present.
        if !name.is_empty()
            && name.iter().all(|&b| is_token(b))
            && value.iter().all(|&b| is_quoted_string_token(b))
        {
            let name = String::from_utf8_lossy(&name).into_owned();
            if mime.parameter(&name).is_none() {
                mime.parameters.push((name, value));
            }
        }
    }
    // 11. Return mimeType.
    Some(mime)
}

/// Fetch's *get, decode, and split* of one combined header value: splits on
/// commas outside HTTP quoted strings, trimming tabs and spaces.
pub fn split_header_value(input: &[u8]) -> Vec<&[u8]> {
    let mut values = Vec::new();
    let mut pos = 0;
    let mut start = 0;
    loop {
        // 2.1 Code points that are not `"` or `,`.
        while pos < input.len() && input[pos] != b'"' && input[pos] != b',' {
            pos += 1;
        }
        // 2.2 A quoted string (extract-value false) belongs to the value.
        if pos < input.len() && input[pos] == b'"' {
            collect_quoted_string(input, &mut pos);
            if pos < input.len() {
                continue;
            }
        }
        // 2.3-5 Trim HTTP tab or space; append.
        let mut v = &input[start..pos.min(input.len())];
        while let [first, rest @ ..] = v
            && matches!(*first, b'\t' | b' ')
        {
            v = rest;
        }
        while let [rest @ .., last] = v
            && matches!(*last, b'\t' | b' ')
        {
            v = rest;
        }
        values.push(v);
        // 2.6 Past the end: return values.
        if pos >= input.len() {
            return values;
        }
        // 2.7-8 At `,`: advance.
        pos += 1;
        start = pos;
    }
}

/// Fetch's *extract a MIME type* from the `Content-Type` header values (in
/// order; several headers are combined with `, ` as Fetch does). `None` is
/// failure.
pub fn extract_mime_type(header_values: &[&[u8]]) -> Option<MimeType> {
    // 4. values: get, decode, and split the combined value.
    let combined = header_values.join(&b", "[..]);
    if header_values.is_empty() {
        return None;
    }
    // 1-3. charset, essence, mimeType: null.
    let mut charset: Option<Vec<u8>> = None;
    let mut essence: Option<String> = None;
    let mut mime_type: Option<MimeType> = None;
    // 6. For each value:
    for value in split_header_value(&combined) {
        // 6.1-2 Parse; skip failure and `*/*`.
        let Some(mut temp) = parse_mime_type(value) else {
            continue;
        };
        if temp.essence == "*/*" {
            continue;
        }
        if essence.as_deref() != Some(temp.essence.as_str()) {
            // 6.4 A new essence: its own charset (or none).
            charset = temp.parameter("charset").map(<[u8]>::to_vec);
            essence = Some(temp.essence.clone());
        } else if temp.parameter("charset").is_none()
            && let Some(c) = &charset
        {
            // 6.5 Same essence without charset inherits the earlier one.
            temp.parameters.push(("charset".to_string(), c.clone()));
        }
        // 6.3 Set mimeType to temporaryMimeType.
        mime_type = Some(temp);
    }
    // 7. Return mimeType (or failure).
    mime_type
}

/// The transport layer's encoding: the `charset` parameter of the extracted
/// MIME type, when it is a label of the Encoding Standard. Bad labels are
/// ignored (`None`), as are missing headers.
pub fn charset_from_content_type(
    header_values: &[&[u8]],
) -> Option<&'static encoding_rs::Encoding> {
    charset_from_content_type_with(header_values, encoding_rs::Encoding::for_label)
}

/// [`charset_from_content_type`] with another *get an encoding*.
pub fn charset_from_content_type_with(
    header_values: &[&[u8]],
    lookup: crate::prescan::LabelLookup,
) -> Option<&'static encoding_rs::Encoding> {
    let mime = extract_mime_type(header_values)?;
    lookup(mime.parameter("charset")?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::*;

    fn cs(v: &str) -> Option<&'static Encoding> {
        charset_from_content_type(&[v.as_bytes()])
    }

    #[test]
    fn simple_and_case() {
        assert_eq!(cs("text/html; charset=windows-1251"), Some(WINDOWS_1251));
        assert_eq!(cs("TEXT/HTML;CHARSET=Shift_JIS"), Some(SHIFT_JIS));
        assert_eq!(cs("  text/html ;  charset=gbk  "), Some(GBK));
        assert_eq!(cs("text/html"), None);
        assert_eq!(cs(""), None);
    }

    #[test]
    fn quoted_values() {
        assert_eq!(cs("text/html; charset=\"utf-8\""), Some(UTF_8));
        assert_eq!(cs("text/html; charset=\"euc-\\kr\""), Some(EUC_KR));
        assert_eq!(cs("text/html; charset=\"koi8-r\" ; x=y"), Some(KOI8_R));
        // Unterminated quote: the value runs to the end.
        assert_eq!(cs("text/html; charset=\"big5"), Some(BIG5));
        assert_eq!(cs("text/html; charset=\"big5\\"), None);
        // Trailing junk after the closing quote is ignored.
        assert_eq!(cs("text/html; charset=\"gbk\"junk"), Some(GBK));
    }

    #[test]
    fn multiple_parameters_first_charset_wins() {
        assert_eq!(
            cs("text/html; a=b; charset=euc-jp; charset=utf-8"),
            Some(EUC_JP)
        );
        assert_eq!(cs("text/html;;;charset=euc-jp"), Some(EUC_JP));
        assert_eq!(cs("text/html; foo; charset=euc-jp"), Some(EUC_JP));
        // An empty unquoted value is dropped, so the later one is used.
        assert_eq!(cs("text/html; charset=; charset=gbk"), Some(GBK));
        // A parameter name with spaces is not a token: dropped.
        assert_eq!(cs("text/html; char set=gbk"), None);
        assert_eq!(cs("text/html; charset =gbk"), None);
    }

    #[test]
    fn bad_labels_and_types_are_ignored() {
        assert_eq!(cs("text/html; charset=nonsense"), None);
        assert_eq!(cs("text/html; charset=utf-9"), None);
        assert_eq!(cs("charset=utf-8"), None);
        assert_eq!(cs("/html; charset=utf-8"), None);
        assert_eq!(cs("text/; charset=utf-8"), None);
        assert_eq!(cs("te xt/html; charset=utf-8"), None);
        // A label surrounded by whitespace inside quotes still resolves
        // (get an encoding trims ASCII whitespace).
        assert_eq!(cs("text/html; charset=\" utf-8 \""), Some(UTF_8));
        // Non-ASCII bytes never panic and never match.
        assert_eq!(
            charset_from_content_type(&[b"text/html; charset=\xff\xfe"]),
            None
        );
    }

    #[test]
    fn several_values_follow_fetch() {
        // The last valid MIME type wins...
        assert_eq!(cs("text/plain; charset=gbk, text/html"), None);
        // ...but keeps the charset of an earlier one with the same essence.
        assert_eq!(cs("text/html; charset=gbk, text/html"), Some(GBK));
        assert_eq!(cs("text/html; charset=gbk, */*"), Some(GBK));
        // Commas inside quoted strings do not split.
        assert_eq!(cs("text/html; charset=\"shift_jis,x\", text/html"), None);
        assert_eq!(cs("text/html; x=\"a,b\"; charset=big5"), Some(BIG5));
        // Two header fields are combined with ", ".
        assert_eq!(
            charset_from_content_type(&[b"text/html; charset=euc-kr", b"text/html"]),
            Some(EUC_KR)
        );
        assert_eq!(charset_from_content_type(&[]), None);
    }

    #[test]
    fn replacement_labels_are_encodings() {
        assert_eq!(cs("text/html; charset=iso-2022-kr"), Some(REPLACEMENT));
    }

    #[test]
    fn mime_type_record() {
        let m = parse_mime_type(b"Text/HTML; Charset=\"a\\\"b\"; q=1").unwrap();
        assert_eq!(m.essence, "text/html");
        assert_eq!(m.parameter("charset"), Some(&b"a\"b"[..]));
        assert_eq!(m.parameter("q"), Some(&b"1"[..]));
    }
}
