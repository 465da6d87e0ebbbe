//! Host parsing and serializing (URL Standard §3): domains through UTS #46,
//! IPv4 in every accepted form, IPv6 with compression and embedded IPv4,
//! opaque hosts.
//!
//! The parser writes the host's *serialization* straight into the caller's
//! buffer and returns its [`HostKind`]; a URL never stores a host in any other
//! form. Domains that are ASCII take the lower-casing path: the standard
//! (domain parser, step "If domain is an ASCII string") makes that exact for
//! non-strict parsing, so `idna` runs only on non-ASCII input.

use crate::error::{ParseError, ValidationErrorKind as K};
use crate::percent_encoding::{C0_CONTROL, percent_decode, utf8_percent_encode};
use crate::report::Reporter;
use idna::uts46::{AsciiDenyList, DnsLength, Hyphens, Uts46};
use std::fmt::Write;

/// What a URL's host is. The host's text is always the serialization.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum HostKind {
    /// The URL has no host (null host).
    #[default]
    None,
    /// The empty host (`file:///`, `sc://`).
    Empty,
    /// A domain: ASCII, lower-cased, punycoded.
    Domain,
    /// An IPv4 address, serialized dotted-decimal.
    Ipv4,
    /// An IPv6 address, serialized in brackets in the canonical compressed form.
    Ipv6,
    /// An opaque host of a non-special URL.
    Opaque,
}

/// A forbidden host code point (ASCII only; every one of them is ASCII).
#[inline]
pub(crate) fn is_forbidden_host_code_point(b: u8) -> bool {
    matches!(
        b,
        0 | b'\t'
            | b'\n'
            | b'\r'
            | b' '
            | b'#'
            | b'/'
            | b':'
            | b'<'
            | b'>'
            | b'?'
            | b'@'
            | b'['
            | b'\\'
            | b']'
            | b'^'
            | b'|'
    )
}

/// A forbidden domain code point.
#[inline]
pub(crate) fn is_forbidden_domain_code_point(b: u8) -> bool {
    is_forbidden_host_code_point(b) || b <= 0x1F || b == b'%' || b == 0x7F
}

/// Host parser. Appends the serialized host to `out`; on failure `out` may
/// hold a partial write which the caller discards.
///
/// `input` is never empty for special URLs (the URL parser checks first);
/// for opaque hosts the empty string gives [`HostKind::Empty`].
pub(crate) fn parse_host(
    input: &str,
    is_opaque: bool,
    out: &mut String,
    rep: &mut Reporter<'_>,
    pos: usize,
) -> Result<HostKind, ParseError> {
    // Host parser, step 1: IPv6.
    if let Some(rest) = input.strip_prefix('[') {
        let Some(inner) = rest.strip_suffix(']') else {
            return rep.fail(ParseError::Ipv6Unclosed, pos);
        };
        let pieces = parse_ipv6(inner, rep, pos + 1)?;
        write_ipv6(&pieces, out);
        return Ok(HostKind::Ipv6);
    }
    if is_opaque {
        return parse_opaque_host(input, out, rep, pos);
    }
    debug_assert!(!input.is_empty());
    let bytes = input.as_bytes();
    // The common case: ASCII with no percent sign — no decoding needed.
    if input.is_ascii() && !bytes.contains(&b'%') {
        return finish_domain(input, true, out, rep, pos);
    }
    if rep.is_on() && contains_percent_encoded_byte(bytes) {
        rep.report(K::DomainPercentEncoded, pos);
    }
    let decoded = percent_decode(bytes);
    // UTF-8 decode without BOM or fail: a malformed sequence would become
    // U+FFFD, which the domain parser rejects anyway.
    let Ok(domain) = String::from_utf8(decoded) else {
        return rep.fail(ParseError::DomainToAscii, pos);
    };
    let is_ascii = domain.is_ascii();
    finish_domain(&domain, is_ascii, out, rep, pos)
}

/// Domain parser (beStrict = false), forbidden-code-point check, and the
/// "ends in a number" switch to the IPv4 parser.
fn finish_domain(
    domain: &str,
    is_ascii: bool,
    out: &mut String,
    rep: &mut Reporter<'_>,
    pos: usize,
) -> Result<HostKind, ParseError> {
    let uts46 = Uts46::new();
    if rep.is_on()
        && uts46
            .to_ascii(
                domain.as_bytes(),
                AsciiDenyList::STD3,
                Hyphens::Check,
                DnsLength::Verify,
            )
            .is_err()
    {
        // The strict run only feeds the domain-to-ASCII validation error.
        rep.report(K::DomainToAscii, pos);
    }
    let start = out.len();
    if is_ascii {
        // Domain parser: "If domain is an ASCII string, set result to domain,
        // lowercased."
        out.reserve(domain.len());
        for &b in domain.as_bytes() {
            if is_forbidden_domain_code_point(b) {
                out.truncate(start);
                return rep.fail(ParseError::DomainInvalidCodePoint, pos);
            }
            out.push(b.to_ascii_lowercase() as char);
        }
    } else {
        match uts46.to_ascii(
            domain.as_bytes(),
            AsciiDenyList::EMPTY,
            Hyphens::Allow,
            DnsLength::Ignore,
        ) {
            Ok(ascii) => {
                if has_label_decoding_to_xn(&ascii) {
                    return rep.fail(ParseError::DomainToAscii, pos);
                }
                if ascii.bytes().any(is_forbidden_domain_code_point) {
                    return rep.fail(ParseError::DomainInvalidCodePoint, pos);
                }
                out.push_str(&ascii);
            }
            Err(_) => return rep.fail(ParseError::DomainToAscii, pos),
        }
    }
    let ascii = &out[start..];
    if ascii.is_empty() {
        return rep.fail(ParseError::DomainToAscii, pos);
    }
    if ends_in_a_number(ascii) {
        let address = parse_ipv4(&out[start..], rep, pos)?;
        out.truncate(start);
        write_ipv4(address, out);
        return Ok(HostKind::Ipv4);
    }
    Ok(HostKind::Domain)
}

/// UTS #46 validity criterion V4 with CheckHyphens=false: a label must not
/// begin with `xn--`. It applies to labels *after* Punycode decoding, so an
/// input label `xn--xn---epa` (decoding to `xn--é`) fails. `idna` 1.1 does
/// not check this; the ASCII result's Punycode labels are decoded here.
fn has_label_decoding_to_xn(ascii: &str) -> bool {
    ascii.split('.').any(|label| {
        label.len() > 4
            && label[..4].eq_ignore_ascii_case("xn--")
            && idna::punycode::decode(&label[4..]).is_some_and(|chars| {
                chars.len() >= 4
                    && chars[..4]
                        .iter()
                        .zip("xn--".chars())
                        .all(|(&c, x)| c.to_ascii_lowercase() == x)
            })
    })
}

fn contains_percent_encoded_byte(b: &[u8]) -> bool {
    b.windows(3)
        .any(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit())
}

/// The ends in a number checker.
pub(crate) fn ends_in_a_number(input: &str) -> bool {
    let trimmed = input.strip_suffix('.').unwrap_or(input);
    let last = match trimmed.rfind('.') {
        Some(i) => &trimmed[i + 1..],
        None => trimmed,
    };
    if !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit()) {
        return true;
    }
    // Equivalent to "parsing last as an IPv4 number does not return failure"
    // for a non-all-digits string: 0x followed by hex digits.
    let lb = last.as_bytes();
    lb.len() >= 2
        && lb[0] == b'0'
        && (lb[1] | 0x20) == b'x'
        && lb[2..].iter().all(u8::is_ascii_hexdigit)
}

/// The IPv4 number parser: `(value, was_not_decimal)`. Values that overflow
/// `u64` saturate; they are out of range either way.
fn parse_ipv4_number(mut input: &str) -> Option<(u64, bool)> {
    if input.is_empty() {
        return None;
    }
    let b = input.as_bytes();
    let mut radix = 10;
    let mut validation_error = false;
    if b.len() >= 2 && b[0] == b'0' && (b[1] | 0x20) == b'x' {
        validation_error = true;
        input = &input[2..];
        radix = 16;
    } else if b.len() >= 2 && b[0] == b'0' {
        validation_error = true;
        input = &input[1..];
        radix = 8;
    }
    if input.is_empty() {
        return Some((0, true));
    }
    let mut value: u64 = 0;
    for c in input.bytes() {
        let d = (c as char).to_digit(radix)? as u64;
        value = value.saturating_mul(radix as u64).saturating_add(d);
    }
    Some((value, validation_error))
}

/// The IPv4 parser.
fn parse_ipv4(input: &str, rep: &mut Reporter<'_>, pos: usize) -> Result<u32, ParseError> {
    let mut parts: Vec<&str> = input.split('.').collect();
    if parts.last() == Some(&"") {
        rep.report(K::Ipv4EmptyPart, pos);
        if parts.len() > 1 {
            parts.pop();
        }
    }
    if parts.len() > 4 {
        return rep.fail(ParseError::Ipv4TooManyParts, pos);
    }
    if parts.len() < 4 {
        rep.report(K::Ipv4TooFewParts, pos);
    }
    let mut numbers = [0u64; 4];
    for (i, part) in parts.iter().enumerate() {
        let Some((n, non_decimal)) = parse_ipv4_number(part) else {
            return rep.fail(ParseError::Ipv4NonNumericPart, pos);
        };
        if non_decimal {
            rep.report(K::Ipv4NonDecimalPart, pos);
        }
        numbers[i] = n;
    }
    let numbers = &numbers[..parts.len()];
    if numbers.iter().any(|&n| n > 255) {
        rep.report(K::Ipv4OutOfRangePart, pos);
    }
    let (last, init) = numbers.split_last().expect("at least one part");
    if init.iter().any(|&n| n > 255) {
        return rep.fail(ParseError::Ipv4OutOfRangePart, pos);
    }
    if *last >= 1u64 << (8 * (5 - numbers.len())) {
        return rep.fail(ParseError::Ipv4OutOfRangePart, pos);
    }
    let mut ipv4 = *last;
    for (counter, &n) in init.iter().enumerate() {
        ipv4 += n << (8 * (3 - counter));
    }
    Ok(ipv4 as u32)
}

/// The IPv6 parser, on the text between the brackets.
fn parse_ipv6(input: &str, rep: &mut Reporter<'_>, pos: usize) -> Result<[u16; 8], ParseError> {
    let c = input.as_bytes();
    let at = |p: usize| c.get(p).copied();
    let mut address = [0u16; 8];
    let mut piece_index = 0usize;
    let mut compress: Option<usize> = None;
    let mut p = 0usize;
    if at(p) == Some(b':') {
        if at(p + 1) != Some(b':') {
            return rep.fail(ParseError::Ipv6InvalidCompression, pos);
        }
        p += 2;
        piece_index += 1;
        compress = Some(piece_index);
    }
    while p < c.len() {
        if piece_index == 8 {
            return rep.fail(ParseError::Ipv6TooManyPieces, pos + p);
        }
        if c[p] == b':' {
            if compress.is_some() {
                return rep.fail(ParseError::Ipv6MultipleCompression, pos + p);
            }
            p += 1;
            piece_index += 1;
            compress = Some(piece_index);
            continue;
        }
        let piece_start = p;
        let mut value: u32 = 0;
        let mut length = 0;
        while length < 4 {
            match at(p).and_then(|b| (b as char).to_digit(16)) {
                Some(d) => {
                    value = value * 0x10 + d;
                    p += 1;
                    length += 1;
                }
                None => break,
            }
        }
        match at(p) {
            Some(b'.') => {
                if length == 0 {
                    return rep.fail(ParseError::Ipv4InIpv6InvalidCodePoint, pos + p);
                }
                p -= length;
                if piece_index > 6 {
                    return rep.fail(ParseError::Ipv4InIpv6TooManyPieces, pos + p);
                }
                let mut numbers_seen = 0;
                while p < c.len() {
                    let mut ipv4_piece: Option<u32> = None;
                    if numbers_seen > 0 {
                        if c[p] == b'.' && numbers_seen < 4 {
                            p += 1;
                        } else {
                            return rep.fail(ParseError::Ipv4InIpv6InvalidCodePoint, pos + p);
                        }
                    }
                    if !at(p).is_some_and(|b| b.is_ascii_digit()) {
                        return rep.fail(ParseError::Ipv4InIpv6InvalidCodePoint, pos + p);
                    }
                    while let Some(d @ b'0'..=b'9') = at(p) {
                        let number = (d - b'0') as u32;
                        ipv4_piece = match ipv4_piece {
                            None => Some(number),
                            Some(0) => {
                                return rep.fail(ParseError::Ipv4InIpv6InvalidCodePoint, pos + p);
                            }
                            Some(v) => Some(v * 10 + number),
                        };
                        if ipv4_piece > Some(255) {
                            return rep.fail(ParseError::Ipv4InIpv6OutOfRangePart, pos + p);
                        }
                        p += 1;
                    }
                    let piece = &mut address[piece_index];
                    *piece = (*piece as u32 * 0x100 + ipv4_piece.unwrap_or(0)) as u16;
                    numbers_seen += 1;
                    if numbers_seen == 2 || numbers_seen == 4 {
                        piece_index += 1;
                    }
                }
                if numbers_seen != 4 {
                    return rep.fail(ParseError::Ipv4InIpv6TooFewParts, pos + p);
                }
                break;
            }
            Some(b':') => {
                p += 1;
                if p == c.len() {
                    return rep.fail(ParseError::Ipv6InvalidCodePoint, pos + p);
                }
            }
            Some(_) => return rep.fail(ParseError::Ipv6InvalidCodePoint, pos + p),
            None => {}
        }
        if length > 1 && value < 1 << (4 * (length - 1)) {
            rep.report(K::Ipv6PieceLeadingZero, pos + piece_start);
        }
        address[piece_index] = value as u16;
        piece_index += 1;
    }
    if let Some(compress) = compress {
        let mut swaps = piece_index - compress;
        piece_index = 7;
        while piece_index != 0 && swaps > 0 {
            address.swap(piece_index, compress + swaps - 1);
            piece_index -= 1;
            swaps -= 1;
        }
    } else if piece_index != 8 {
        return rep.fail(ParseError::Ipv6TooFewPieces, pos);
    }
    Ok(address)
}

/// The opaque-host parser.
fn parse_opaque_host(
    input: &str,
    out: &mut String,
    rep: &mut Reporter<'_>,
    pos: usize,
) -> Result<HostKind, ParseError> {
    let bytes = input.as_bytes();
    if bytes.iter().any(|&b| is_forbidden_host_code_point(b)) {
        return rep.fail(ParseError::HostInvalidCodePoint, pos);
    }
    if rep.is_on() {
        crate::report::check_url_units(input, rep, pos);
    }
    if input.is_empty() {
        return Ok(HostKind::Empty);
    }
    utf8_percent_encode(input, C0_CONTROL, out);
    Ok(HostKind::Opaque)
}

/// IPv4 serializer.
pub(crate) fn write_ipv4(address: u32, out: &mut String) {
    let [a, b, c, d] = address.to_be_bytes();
    write!(out, "{a}.{b}.{c}.{d}").expect("writing to a String cannot fail");
}

/// IPv6 serializer (with brackets): the first longest run of two or more
/// zero pieces is compressed to `::`.
pub(crate) fn write_ipv6(pieces: &[u16; 8], out: &mut String) {
    let mut compress: Option<(usize, usize)> = None;
    let mut i = 0;
    while i < 8 {
        if pieces[i] == 0 {
            let start = i;
            while i < 8 && pieces[i] == 0 {
                i += 1;
            }
            let len = i - start;
            if len >= 2 && compress.is_none_or(|(_, l)| len > l) {
                compress = Some((start, len));
            }
        } else {
            i += 1;
        }
    }
    out.push('[');
    let mut ignore0 = false;
    for (index, piece) in pieces.iter().enumerate() {
        if ignore0 && *piece == 0 {
            continue;
        }
        ignore0 = false;
        if let Some((start, _)) = compress
            && index == start
        {
            out.push_str(if index == 0 { "::" } else { ":" });
            ignore0 = true;
            continue;
        }
        write!(out, "{piece:x}").expect("writing to a String cannot fail");
        if index != 7 {
            out.push(':');
        }
    }
    out.push(']');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(input: &str, opaque: bool) -> Result<(HostKind, String), ParseError> {
        let mut out = String::new();
        let kind = parse_host(input, opaque, &mut out, &mut Reporter::off(), 0)?;
        Ok((kind, out))
    }

    #[test]
    fn ipv4_forms() {
        for (input, want) in [
            ("0x7f.1", "127.0.0.1"),
            ("0300.0250.0.1", "192.168.0.1"),
            ("3232235521", "192.168.0.1"),
            ("192.168.1", "192.168.0.1"),
            ("1.2.3.4.", "1.2.3.4"),
            ("0x", "0.0.0.0"),
            ("0xffffffff", "255.255.255.255"),
        ] {
            assert_eq!(
                host(input, false),
                Ok((HostKind::Ipv4, want.into())),
                "{input}"
            );
        }
        assert_eq!(
            host("4294967296", false),
            Err(ParseError::Ipv4OutOfRangePart)
        );
        assert_eq!(host("1.2.3.4.5", false), Err(ParseError::Ipv4TooManyParts));
        assert_eq!(host("1.2.3.09", false), Err(ParseError::Ipv4NonNumericPart));
        assert_eq!(
            host("256.1.1.1", false),
            Err(ParseError::Ipv4OutOfRangePart)
        );
        assert_eq!(
            host(&format!("0x{}", "f".repeat(100)), false),
            Err(ParseError::Ipv4OutOfRangePart)
        );
    }

    #[test]
    fn ipv6_forms() {
        for (input, want) in [
            ("[::]", "[::]"),
            ("[::1]", "[::1]"),
            ("[1:0:0:2:0:0:0:3]", "[1:0:0:2::3]"),
            ("[1:0::0:2]", "[1::2]"),
            ("[::ffff:192.168.0.1]", "[::ffff:c0a8:1]"),
            ("[0:0:0:0:0:0:13.1.68.3]", "[::d01:4403]"),
            ("[1:2:3:4:5:6:7:8]", "[1:2:3:4:5:6:7:8]"),
        ] {
            assert_eq!(
                host(input, false),
                Ok((HostKind::Ipv6, want.into())),
                "{input}"
            );
        }
        assert_eq!(host("[::1", false), Err(ParseError::Ipv6Unclosed));
        assert_eq!(host("[:1]", false), Err(ParseError::Ipv6InvalidCompression));
        assert_eq!(
            host("[1::2::3]", false),
            Err(ParseError::Ipv6MultipleCompression)
        );
        assert_eq!(host("[1:2:3]", false), Err(ParseError::Ipv6TooFewPieces));
        assert_eq!(
            host("[1:2:3:4:5:6:7:8:9]", false),
            Err(ParseError::Ipv6TooManyPieces)
        );
        assert_eq!(
            host("[::1.2.3]", false),
            Err(ParseError::Ipv4InIpv6TooFewParts)
        );
        assert_eq!(
            host("[::1.2.3.256]", false),
            Err(ParseError::Ipv4InIpv6OutOfRangePart)
        );
        assert_eq!(host("[1:]", false), Err(ParseError::Ipv6InvalidCodePoint));
    }

    #[test]
    fn domains_and_opaque_hosts() {
        assert_eq!(
            host("ExAmPle.COM", false),
            Ok((HostKind::Domain, "example.com".into()))
        );
        assert_eq!(
            host("faß.de", false),
            Ok((HostKind::Domain, "xn--fa-hia.de".into()))
        );
        assert_eq!(
            host("%41.com", false),
            Ok((HostKind::Domain, "a.com".into()))
        );
        assert_eq!(host("a<b", false), Err(ParseError::DomainInvalidCodePoint));
        assert_eq!(host("xn--a", false), Ok((HostKind::Domain, "xn--a".into())));
        assert_eq!(host("xn--a.ß", false), Err(ParseError::DomainToAscii));
        assert_eq!(host("%ff", false), Err(ParseError::DomainToAscii));
        // V4: a label that decodes to "xn--…" fails on the non-ASCII path;
        // ASCII input is only lower-cased (the current standard).
        assert_eq!(
            host("xn--xn---epa.é", false),
            Err(ParseError::DomainToAscii)
        );
        assert_eq!(
            host("xn--xn---epa\u{AD}", false),
            Err(ParseError::DomainToAscii)
        );
        assert_eq!(
            host("xn--xn---epa", false),
            Ok((HostKind::Domain, "xn--xn---epa".into()))
        );
        assert_eq!(
            host("Ab%20c", true),
            Ok((HostKind::Opaque, "Ab%20c".into()))
        );
        assert_eq!(host("a b", true), Err(ParseError::HostInvalidCodePoint));
        assert_eq!(host("é", true), Ok((HostKind::Opaque, "%C3%A9".into())));
    }
}
