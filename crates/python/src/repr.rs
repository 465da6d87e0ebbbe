//! Python string literals for `repr`s and messages: `URL(…)`, `Link(…)`
//! and the names `canonicalize` quotes in its errors.
//!
//! Invariant: the literal reads back in Python as the string — in single
//! quotes, the quote, the backslash and control characters escaped,
//! everything else as it is.

/// `s` as a Python string literal, for a `repr`: in single quotes, with the
/// quote, the backslash and control characters escaped.
pub(crate) fn py_repr(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::py_repr;

    /// The literal reads back as the string in Python: the characters
    /// that need escapes are escaped.
    #[test]
    fn repr_escapes_as_python_does() {
        assert_eq!(py_repr("https://e.com/"), "'https://e.com/'");
        assert_eq!(py_repr("a'b\\c\n\u{7f}é"), "'a\\'b\\\\c\\n\\x7fé'");
    }
}
