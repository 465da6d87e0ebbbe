//! HTTP `Link` header values (RFC 8288 §3): the target of each link-value
//! (`<uri-reference>`) and its `rel` parameter.
//!
//! Lenient, as a crawler must be: a link-value that does not start with `<`
//! is skipped up to the next top-level comma; quoted parameter values may
//! contain commas and semicolons.
//!
//! Invariant: returned slices are slices of the input; never panics.

/// One link-value: its target and its `rel` parameter (unquoted).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkValue<'h> {
    /// The text between `<` and `>`.
    pub target: &'h str,
    /// The `rel` parameter's value, if any.
    pub rel: Option<&'h str>,
}

/// The link-values of one `Link` header field value.
pub fn parse_link_header(value: &str) -> Vec<LinkValue<'_>> {
    let b = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        while i < b.len() && (b[i] == b',' || b[i].is_ascii_whitespace()) {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let mut item: Option<LinkValue<'_>> = None;
        if b[i] == b'<' {
            match value[i + 1..].find('>') {
                Some(e) => {
                    item = Some(LinkValue {
                        target: &value[i + 1..i + 1 + e],
                        rel: None,
                    });
                    i = i + 1 + e + 1;
                }
                None => break,
            }
        }
        // Parameters up to the next top-level comma.
        while i < b.len() && b[i] != b',' {
            if b[i] == b';' {
                i += 1;
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                let ns = i;
                while i < b.len() && !matches!(b[i], b'=' | b';' | b',') {
                    i += 1;
                }
                let name = value[ns..i].trim();
                if i < b.len() && b[i] == b'=' {
                    i += 1;
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    let v = if i < b.len() && b[i] == b'"' {
                        let s = i + 1;
                        let mut j = s;
                        while j < b.len() && b[j] != b'"' {
                            j += if b[j] == b'\\' { 2 } else { 1 };
                        }
                        let j = j.min(b.len());
                        i = (j + 1).min(b.len());
                        &value[s..j]
                    } else {
                        let s = i;
                        while i < b.len() && !matches!(b[i], b';' | b',') {
                            i += 1;
                        }
                        value[s..i].trim()
                    };
                    if name.eq_ignore_ascii_case("rel")
                        && let Some(it) = item.as_mut()
                        && it.rel.is_none()
                    {
                        it.rel = Some(v);
                    }
                }
            } else if b[i] == b'"' {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
            } else {
                i += 1;
            }
        }
        out.extend(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_values() {
        let v = parse_link_header(
            "</style.css>; rel=preload; as=style, <https://x.example/a,b>; rel=\"next, prev\"; title=\"a;b\", junk, <c>",
        );
        let got: Vec<_> = v.iter().map(|l| (l.target, l.rel)).collect();
        assert_eq!(
            got,
            [
                ("/style.css", Some("preload")),
                ("https://x.example/a,b", Some("next, prev")),
                ("c", None)
            ]
        );
        assert!(parse_link_header("").is_empty());
        assert!(parse_link_header("<unterminated").is_empty());
        assert_eq!(parse_link_header("<a>; rel=\"x\\").len(), 1);
    }
}
