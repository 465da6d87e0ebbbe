//! The HTML Standard's *prescan a byte stream to determine its encoding*,
//! with *get an attribute*, the *algorithm for extracting a character
//! encoding from a meta element*, and *get an XML encoding*.
//!
//! Invariants: the functions read only the slice they are given (the caller
//! passes the first 1024 bytes — the standard's end condition); running out
//! of bytes anywhere aborts the meta scan with no result, as the standard
//! says. Everything is total over arbitrary bytes.
//!
//! What "XML declaration" means here, precisely: (1) *prescan for UTF-16 XML
//! declarations* — `<\0?\0x\0` at byte 0 gives UTF-16LE and `\0<\0?\0x` gives
//! UTF-16BE (BOM-less UTF-16 XML documents); (2) when the meta scan finds
//! nothing, *get an XML encoding* — an `encoding="…"` pseudo-attribute in a
//! `<?xml … >` declaration that starts at byte 0, UTF-16 remapped to UTF-8.
//! Both give a tentative confidence and are reported as [`Found::Xml`]; a
//! `<meta>` in the window is preferred over the declaration.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// The number of bytes the prescan looks at.
pub const PRESCAN_WINDOW: usize = 1024;

/// What the prescan found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// A `<meta charset>` or `<meta http-equiv=content-type content=…>`.
    Meta(&'static Encoding),
    /// An XML declaration (see the module documentation).
    Xml(&'static Encoding),
}

impl Found {
    /// The encoding found.
    pub fn encoding(self) -> &'static Encoding {
        match self {
            Found::Meta(e) | Found::Xml(e) => e,
        }
    }
}

/// Bytes ran out (the `Err` of the internal steps).
struct OutOfBytes;

/// An attribute's (name, value), both lower-cased bytes.
type Attr = (Vec<u8>, Vec<u8>);

/// The whole prescan over `bytes` (callers pass at most [`PRESCAN_WINDOW`]
/// bytes to follow the standard; the change-the-encoding harness passes more).
pub fn prescan(bytes: &[u8]) -> Option<Found> {
    prescan_with(bytes, Encoding::for_label)
}

/// How a label becomes an encoding: the standard's *get an encoding* is
/// [`Encoding::for_label`]; the crawler policy passes a superset.
pub type LabelLookup = fn(&[u8]) -> Option<&'static Encoding>;

/// [`prescan`] with another *get an encoding*.
pub fn prescan_with(bytes: &[u8], lookup: LabelLookup) -> Option<Found> {
    // Prescan for UTF-16 XML declarations.
    if bytes.starts_with(&[0x3C, 0x00, 0x3F, 0x00, 0x78, 0x00]) {
        return Some(Found::Xml(UTF_16LE));
    }
    if bytes.starts_with(&[0x00, 0x3C, 0x00, 0x3F, 0x00, 0x78]) {
        return Some(Found::Xml(UTF_16BE));
    }
    if let Ok(Some(e)) = prescan_meta_inner(bytes, lookup) {
        return Some(Found::Meta(e));
    }
    get_xml_encoding_with(bytes, lookup).map(Found::Xml)
}

/// The prescan's loop over `<meta>` elements; `None` when it finds nothing
/// or runs out of bytes.
pub fn prescan_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    prescan_meta_inner(bytes, Encoding::for_label)
        .ok()
        .flatten()
}

fn prescan_meta_inner(
    b: &[u8],
    lookup: LabelLookup,
) -> Result<Option<&'static Encoding>, OutOfBytes> {
    let at = |i: usize| b.get(i).copied();
    // Position: the first byte.
    let mut pos = 0usize;
    // Loop:
    while pos < b.len() {
        if b[pos..].starts_with(b"<!--") {
            // `<!--`: advance to the first `>` preceded by two `-` (which may
            // be those of `<!--`).
            let rel = memfind(&b[pos + 2..], b"-->").ok_or(OutOfBytes)?;
            pos = pos + 2 + rel + 2;
        } else if b.len() >= pos + 6
            && b[pos] == b'<'
            && b[pos + 1..pos + 5].eq_ignore_ascii_case(b"meta")
            && matches!(b[pos + 5], 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x2F)
        {
            // `<meta` + space or slash:
            // 1. Advance to the space or slash.
            pos += 5;
            // 2-5. attribute list, got pragma, need pragma, charset.
            let mut attribute_list: Vec<Vec<u8>> = Vec::new();
            let mut got_pragma = false;
            let mut need_pragma: Option<bool> = None;
            // `None`: null; `Some(None)`: failure; `Some(Some(e))`: e.
            let mut charset: Option<Option<&'static Encoding>> = None;
            // 6. Attributes:
            while let Some((name, value)) = get_an_attribute(b, &mut pos)? {
                // 7. Skip a name already seen.
                if attribute_list.contains(&name) {
                    continue;
                }
                // 8. Add it to the list.
                // 9. The step for the attribute's name:
                match name.as_slice() {
                    b"http-equiv" if value == b"content-type" => got_pragma = true,
                    b"content" => {
                        if let Some(e) = extract_with(&value, lookup)
                            && charset.is_none()
                        {
                            charset = Some(Some(e));
                            need_pragma = Some(true);
                        }
                    }
                    b"charset" => {
                        charset = Some(lookup(&value));
                        need_pragma = Some(false);
                    }
                    _ => {}
                }
                attribute_list.push(name);
                // 10. Return to attributes.
            }
            // 11. Processing: need pragma null → next byte.
            // 12. need pragma true but no pragma → next byte.
            // 13. charset failure → next byte.
            let found = match need_pragma {
                None => None,
                Some(true) if !got_pragma => None,
                Some(_) => charset.flatten(),
            };
            if let Some(e) = found {
                // 14-16. Remap and abort the prescan, returning charset.
                return Ok(Some(remap_meta(e)));
            }
        } else if at(pos) == Some(b'<')
            && (at(pos + 1).is_some_and(|c| c.is_ascii_alphabetic())
                || (at(pos + 1) == Some(b'/')
                    && at(pos + 2).is_some_and(|c| c.is_ascii_alphabetic())))
        {
            // `<`, optionally `/`, a letter: a tag to skip.
            // 1. Advance to the next whitespace or `>`.
            while !matches!(at(pos), Some(0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x3E)) {
                if pos >= b.len() {
                    return Err(OutOfBytes);
                }
                pos += 1;
            }
            // 2. Repeatedly get an attribute until none.
            while get_an_attribute(b, &mut pos)?.is_some() {}
        } else if b[pos..].starts_with(b"<!")
            || b[pos..].starts_with(b"</")
            || b[pos..].starts_with(b"<?")
        {
            // `<!`, `</`, `<?`: advance to the first `>` after the `<`.
            let rel = memchr_byte(&b[pos + 1..], b'>').ok_or(OutOfBytes)?;
            pos = pos + 1 + rel;
        }
        // Any other byte: nothing. Next byte:
        pos += 1;
    }
    Ok(None)
}

/// Steps 14-15 of the meta branch: UTF-16 → UTF-8, x-user-defined →
/// windows-1252.
pub(crate) fn remap_meta(e: &'static Encoding) -> &'static Encoding {
    if e == UTF_16BE || e == UTF_16LE {
        UTF_8
    } else if e == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        e
    }
}

fn memchr_byte(hay: &[u8], needle: u8) -> Option<usize> {
    hay.iter().position(|&c| c == needle)
}

fn memfind(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// *get an attribute*: `Ok(None)` is "there isn't one" (at `>`); running out
/// of bytes is `Err`. Names and values are ASCII-lower-cased bytes.
fn get_an_attribute(b: &[u8], pos: &mut usize) -> Result<Option<Attr>, OutOfBytes> {
    let at = |i: usize| b.get(i).copied().ok_or(OutOfBytes);
    // 1. Skip whitespace and `/`.
    while matches!(at(*pos)?, 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x2F) {
        *pos += 1;
    }
    // 2. `>`: there isn't one.
    if at(*pos)? == b'>' {
        return Ok(None);
    }
    // 3. The start of the name.
    let mut name = Vec::new();
    let value = Vec::new();
    // 4-5. The name.
    loop {
        let c = at(*pos)?;
        match c {
            b'=' if !name.is_empty() => {
                *pos += 1;
                return attribute_value(b, pos, name, value);
            }
            0x09 | 0x0A | 0x0C | 0x0D | 0x20 => break,
            b'/' | b'>' => return Ok(Some((name, value))),
            _ => name.push(c.to_ascii_lowercase()),
        }
        *pos += 1;
    }
    // 6. Spaces.
    while at(*pos)?.is_ascii_whitespace() {
        *pos += 1;
    }
    // 7. Not `=`: the value is empty.
    if at(*pos)? != b'=' {
        return Ok(Some((name, value)));
    }
    // 8. Past the `=`.
    *pos += 1;
    attribute_value(b, pos, name, value)
}

/// Steps 9-12 of *get an attribute* (from the label "value").
fn attribute_value(
    b: &[u8],
    pos: &mut usize,
    name: Vec<u8>,
    value: Vec<u8>,
) -> Result<Option<Attr>, OutOfBytes> {
    let at = |i: usize| b.get(i).copied().ok_or(OutOfBytes);
    let mut value = value;
    // 9. Value: skip whitespace.
    while at(*pos)?.is_ascii_whitespace() {
        *pos += 1;
    }
    // 10. The first byte of the value.
    let c = at(*pos)?;
    match c {
        b'"' | b'\'' => {
            // Quote loop.
            loop {
                *pos += 1;
                let d = at(*pos)?;
                if d == c {
                    *pos += 1;
                    return Ok(Some((name, value)));
                }
                value.push(d.to_ascii_lowercase());
            }
        }
        b'>' => return Ok(Some((name, value))),
        _ => {
            value.push(c.to_ascii_lowercase());
            *pos += 1;
        }
    }
    // 11-12. The rest of an unquoted value.
    loop {
        let d = at(*pos)?;
        if matches!(d, 0x09 | 0x0A | 0x0C | 0x0D | 0x20 | 0x3E) {
            return Ok(Some((name, value)));
        }
        value.push(d.to_ascii_lowercase());
        *pos += 1;
    }
}

/// The *algorithm for extracting a character encoding from a meta element*
/// over the `content` attribute's value. `None` is "nothing" (also when the
/// label is not an encoding: *get an encoding* failed).
pub fn extract_from_meta_content(s: &[u8]) -> Option<&'static Encoding> {
    extract_with(s, Encoding::for_label)
}

fn extract_with(s: &[u8], lookup: LabelLookup) -> Option<&'static Encoding> {
    // 1. Position at the start.
    let mut pos = 0usize;
    loop {
        // 2. Loop: the next "charset", ASCII case-insensitively.
        let rel = s[pos..]
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += rel + 7;
        // 3. Skip ASCII whitespace.
        while pos < s.len() && s[pos].is_ascii_whitespace() {
            pos += 1;
        }
        // 4. Not `=`: loop again from just before that character.
        if s.get(pos) != Some(&b'=') {
            continue;
        }
        // 5. Skip whitespace after `=`.
        pos += 1;
        while pos < s.len() && s[pos].is_ascii_whitespace() {
            pos += 1;
        }
        // 6. The next character.
        return match s.get(pos) {
            None => None,
            Some(&q @ (b'"' | b'\'')) => {
                // Matched quote: the label between them; unmatched: nothing.
                let rest = &s[pos + 1..];
                let end = memchr_byte(rest, q)?;
                lookup(&rest[..end])
            }
            Some(_) => {
                let rest = &s[pos..];
                let end = rest
                    .iter()
                    .position(|&c| c.is_ascii_whitespace() || c == b';')
                    .unwrap_or(rest.len());
                lookup(&rest[..end])
            }
        };
    }
}

/// *get an XML encoding*: the `encoding` of a `<?xml` declaration at the
/// start of `b`, UTF-16 changed to UTF-8; `None` is failure.
pub fn get_xml_encoding(b: &[u8]) -> Option<&'static Encoding> {
    get_xml_encoding_with(b, Encoding::for_label)
}

fn get_xml_encoding_with(b: &[u8], lookup: LabelLookup) -> Option<&'static Encoding> {
    // 1-2. `<?xml` at the start.
    if !b.starts_with(b"<?xml") {
        return None;
    }
    // 3. xmlDeclarationEnd: the next `>`.
    let decl_end = memchr_byte(b, b'>')?;
    let decl = &b[..decl_end];
    // 4-5. The first `encoding` (inside the declaration), then past it.
    let mut pos = memfind(decl, b"encoding")? + 8;
    // 6. Skip bytes ≤ 0x20.
    while pos < decl.len() && decl[pos] <= 0x20 {
        pos += 1;
    }
    // 7-8. `=`.
    if decl.get(pos) != Some(&b'=') {
        return None;
    }
    pos += 1;
    // 9. Skip bytes ≤ 0x20.
    while pos < decl.len() && decl[pos] <= 0x20 {
        pos += 1;
    }
    // 10-12. quoteMark.
    let quote = *decl.get(pos)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    pos += 1;
    // 13-14. potentialEncoding up to the next quoteMark.
    let end = memchr_byte(&decl[pos..], quote)?;
    let potential = &decl[pos..pos + end];
    // 15. Bytes ≤ 0x20 inside: failure.
    if potential.iter().any(|&c| c <= 0x20) {
        return None;
    }
    // 16-17. Get an encoding; UTF-16 → UTF-8.
    let e = lookup(potential)?;
    Some(if e == UTF_16BE || e == UTF_16LE {
        UTF_8
    } else {
        e
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::*;

    fn meta(s: &str) -> Option<&'static Encoding> {
        prescan_meta(s.as_bytes())
    }

    #[test]
    fn meta_charset_forms() {
        assert_eq!(meta("<meta charset=gbk>"), Some(GBK));
        assert_eq!(meta("<META CHARSET='EUC-KR'>"), Some(EUC_KR));
        assert_eq!(meta("<meta charset=\"koi8-r\">"), Some(KOI8_R));
        assert_eq!(meta("<meta/charset=big5>"), Some(BIG5));
        assert_eq!(meta("<meta\ncharset = shift_jis >"), Some(SHIFT_JIS));
        // No space or slash after `<meta`: not a meta (and it is skipped as a tag).
        assert_eq!(meta("<metacharset=gbk>"), None);
        // Bad label: charset failure, then the next meta is looked at.
        assert_eq!(meta("<meta charset=nope><meta charset=gbk>"), Some(GBK));
        // Empty value.
        assert_eq!(meta("<meta charset>"), None);
        assert_eq!(meta("<meta charset=>"), None);
    }

    #[test]
    fn meta_remaps() {
        assert_eq!(meta("<meta charset=utf-16le>"), Some(UTF_8));
        assert_eq!(meta("<meta charset=utf-16be>"), Some(UTF_8));
        assert_eq!(meta("<meta charset=x-user-defined>"), Some(WINDOWS_1252));
    }

    #[test]
    fn pragma_rules() {
        let ok = "<meta http-equiv=Content-Type content='text/html; charset=euc-jp'>";
        assert_eq!(meta(ok), Some(EUC_JP));
        // Order does not matter.
        let rev = "<meta content='text/html; charset=euc-jp' http-equiv=content-type>";
        assert_eq!(meta(rev), Some(EUC_JP));
        // content without http-equiv: need pragma but no pragma.
        assert_eq!(meta("<meta content='text/html; charset=euc-jp'>"), None);
        // http-equiv with another value.
        assert_eq!(
            meta("<meta http-equiv=refresh content='charset=euc-jp'>"),
            None
        );
        // charset attribute beats content (need pragma false).
        let both = "<meta content='charset=euc-jp' charset=gbk>";
        assert_eq!(meta(both), Some(GBK));
        // content after charset does not override it.
        let both2 = "<meta charset=gbk http-equiv=content-type content='charset=euc-jp'>";
        assert_eq!(meta(both2), Some(GBK));
        // A duplicate attribute is ignored: the first charset wins.
        assert_eq!(meta("<meta charset=gbk charset=big5>"), Some(GBK));
        // http-equiv only, no charset.
        assert_eq!(meta("<meta http-equiv=content-type>"), None);
        // A duplicate http-equiv with the right value comes too late.
        let dup = "<meta http-equiv=x http-equiv=content-type content='charset=gbk'>";
        assert_eq!(meta(dup), None);
    }

    #[test]
    fn comments_and_other_constructs() {
        assert_eq!(
            meta("<!-- <meta charset=gbk> --><meta charset=big5>"),
            Some(BIG5)
        );
        // `<!-->` closes at once (the dashes of `<!--` count).
        assert_eq!(meta("<!--><meta charset=big5>"), Some(BIG5));
        assert_eq!(meta("<!---><meta charset=big5>"), Some(BIG5));
        // Unterminated comment: out of bytes.
        assert_eq!(meta("<!-- <meta charset=gbk>"), None);
        // `<!`, `</`, `<?` skip to `>`.
        assert_eq!(meta("<!DOCTYPE html><meta charset=gbk>"), Some(GBK));
        assert_eq!(meta("<? x ><meta charset=gbk>"), Some(GBK));
        assert_eq!(meta("</ x ><meta charset=gbk>"), Some(GBK));
        assert_eq!(
            meta("<!x <meta charset=big5> ><meta charset=gbk>"),
            Some(GBK)
        );
        // Other tags: attributes are consumed, so quoted `>` or a fake meta
        // inside a value is skipped.
        assert_eq!(
            meta("<a title='<meta charset=gbk>'><meta charset=big5>"),
            Some(BIG5)
        );
        assert_eq!(
            meta("</p x='<meta charset=gbk>'><meta charset=big5>"),
            Some(BIG5)
        );
        assert_eq!(meta("<a\ttitle=\"x>y\" b><meta charset=big5>"), Some(BIG5));
        // `<` followed by something else is a plain byte.
        assert_eq!(
            meta("< meta charset=gbk><1><meta charset=big5>"),
            Some(BIG5)
        );
        // An unterminated tag runs out of bytes.
        assert_eq!(meta("<a href='x"), None);
        assert_eq!(meta("<meta charset='gbk"), None);
        assert_eq!(meta("<meta charset=gbk"), None);
    }

    #[test]
    fn get_an_attribute_edge_cases() {
        // `=` at the start of a name is part of the name.
        assert_eq!(meta("<meta =charset=gbk>"), None);
        // Spaces around `=`.
        assert_eq!(meta("<meta charset   =   gbk >"), Some(GBK));
        // `/` ends a name with an empty value.
        assert_eq!(meta("<meta charset/=gbk>"), None);
        // An attribute without `=` followed by another.
        assert_eq!(meta("<meta foo charset=gbk>"), Some(GBK));
        // Non-ASCII bytes in names and values do not matter.
        assert_eq!(meta("<meta d\u{e9}f=\u{e9} charset=gbk>"), Some(GBK));
        assert_eq!(prescan_meta(b"<meta \xff\xfe=\x80 charset=gbk>"), Some(GBK));
    }

    #[test]
    fn extract_from_content() {
        let x = |s: &str| extract_from_meta_content(s.as_bytes());
        assert_eq!(x("text/html; charset=gbk"), Some(GBK));
        assert_eq!(x("text/html; CHARSET = \"big5\""), Some(BIG5));
        assert_eq!(x("charset='euc-kr' x"), Some(EUC_KR));
        assert_eq!(x("charset=shift_jis;foo"), Some(SHIFT_JIS));
        assert_eq!(x("charset=\"gbk"), None);
        assert_eq!(x("charset="), None);
        assert_eq!(x("charsetcharset=gbk"), Some(GBK));
        assert_eq!(x("charset x; charset=gbk"), Some(GBK));
        assert_eq!(x("text/html"), None);
        assert_eq!(x("charset=nonsense"), None);
    }

    #[test]
    fn xml_declarations() {
        assert_eq!(
            prescan(b"<?xml version=\"1.0\" encoding=\"windows-1251\"?><r/>"),
            Some(Found::Xml(WINDOWS_1251))
        );
        assert_eq!(
            prescan(b"<?xml encoding = 'utf-16'?>"),
            Some(Found::Xml(UTF_8))
        );
        assert_eq!(prescan(b"<?xml encoding='e uc'?>"), None);
        assert_eq!(prescan(b" <?xml encoding='gbk'?>"), None);
        assert_eq!(prescan(b"<?xml version='1.0'?> encoding='gbk'"), None);
        // A meta wins over the declaration.
        assert_eq!(
            prescan(b"<?xml version='1.0' encoding='gbk'?><meta charset=big5>"),
            Some(Found::Meta(BIG5))
        );
        assert_eq!(prescan(b"<\0?\0x\0m\0l\0"), Some(Found::Xml(UTF_16LE)));
        assert_eq!(prescan(b"\0<\0?\0x\0m\0l"), Some(Found::Xml(UTF_16BE)));
    }
}
