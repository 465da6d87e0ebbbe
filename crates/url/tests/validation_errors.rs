//! Validation errors: every kind the parser reports, at the right byte of
//! the caller's input (before trimming and tab/newline removal).

use spinneret_url::{ParseError, Url, ValidationErrorKind as K};

fn errors(input: &str, base: Option<&str>) -> (Result<String, ParseError>, Vec<(K, usize)>) {
    let base = base.map(|b| Url::parse(b).expect("base parses"));
    let mut errs = Vec::new();
    let result = Url::options()
        .base_url(base.as_ref())
        .report_errors(&mut errs)
        .parse(input)
        .map(|u| u.href().to_owned());
    (result, errs.iter().map(|e| (e.kind, e.position)).collect())
}

#[track_caller]
fn expect(input: &str, base: Option<&str>, want: &[(K, usize)]) {
    let (result, got) = errors(input, base);
    assert_eq!(got, want, "{input:?} (result {result:?})");
    // Reporting never changes the result.
    let plain = match base {
        Some(b) => Url::parse_with_base(input, &Url::parse(b).unwrap()),
        None => Url::parse(input),
    };
    assert_eq!(result, plain.map(|u| u.href().to_owned()), "{input:?}");
}

#[test]
fn clean_urls_have_no_errors() {
    expect("https://example.com/a/b?c=d#e", None, &[]);
    expect("mailto:x@y.z", None, &[]);
    expect("../x", Some("https://example.com/a/b"), &[]);
}

#[test]
fn preprocessing_errors_and_positions_map_back() {
    expect(" https://a/", None, &[(K::InvalidUrlUnit, 0)]);
    expect("https://a/ ", None, &[(K::InvalidUrlUnit, 10)]);
    expect("ht\ttps://a/", None, &[(K::InvalidUrlUnit, 2)]);
    // After a removed tab, positions still point into the caller's string:
    // the space (an invalid URL unit in the path) is at byte 13.
    expect(
        "https://a\t/b\n c",
        None,
        &[(K::InvalidUrlUnit, 9), (K::InvalidUrlUnit, 13)],
    );
    // Leading trim shifts too.
    expect(
        "  https://a/b c",
        None,
        &[(K::InvalidUrlUnit, 0), (K::InvalidUrlUnit, 13)],
    );
}

#[test]
fn structural_errors() {
    // Reported twice, as the standard's steps do: once in the special
    // authority slashes state, once in the ignore-slashes state.
    expect(
        "https:/a",
        None,
        &[
            (K::SpecialSchemeMissingFollowingSolidus, 6),
            (K::SpecialSchemeMissingFollowingSolidus, 6),
        ],
    );
    expect("https://a\\b", None, &[(K::InvalidReverseSolidus, 9)]);
    expect("https://u:p@a/", None, &[(K::InvalidCredentials, 11)]);
    expect(
        "https://u@/",
        None,
        &[(K::InvalidCredentials, 9), (K::HostMissing, 10)],
    );
    expect("x", None, &[(K::MissingSchemeNonRelativeUrl, 0)]);
    expect("https://a:99999/", None, &[(K::PortOutOfRange, 10)]);
    expect("https://a:8x/", None, &[(K::PortInvalid, 11)]);
    expect(
        "file:c:/x",
        None,
        &[(K::SpecialSchemeMissingFollowingSolidus, 4)],
    );
    expect(
        "file://C|/x",
        None,
        &[(K::FileInvalidWindowsDriveLetterHost, 7)],
    );
    // '|' is not a URL code point, so the path state reports it too.
    expect(
        "C|/x",
        Some("file:///a/b"),
        &[
            (K::FileInvalidWindowsDriveLetter, 0),
            (K::InvalidUrlUnit, 1),
        ],
    );
    expect("https://a/%zz", None, &[(K::InvalidUrlUnit, 10)]);
    expect("https://a/?q=<", None, &[(K::InvalidUrlUnit, 13)]);
    expect("sc:a b", None, &[(K::InvalidUrlUnit, 4)]);
}

#[test]
fn host_errors() {
    expect("https://a%41/", None, &[(K::DomainPercentEncoded, 8)]);
    expect(
        "https://a<b/",
        None,
        &[(K::DomainToAscii, 8), (K::DomainInvalidCodePoint, 8)],
    );
    expect(
        "https://0x7f.1/",
        None,
        &[(K::Ipv4TooFewParts, 8), (K::Ipv4NonDecimalPart, 8)],
    );
    expect("https://1.2.3.4.5/", None, &[(K::Ipv4TooManyParts, 8)]);
    expect("https://[::1/", None, &[(K::Ipv6Unclosed, 8)]);
    // IPv6 errors point into the brackets, at the offending piece.
    expect("https://[:1]/", None, &[(K::Ipv6InvalidCompression, 9)]);
    expect(
        "https://[1::2::3]/",
        None,
        &[(K::Ipv6MultipleCompression, 14)],
    );
    expect("https://[0001::]/", None, &[(K::Ipv6PieceLeadingZero, 9)]);
    expect("sc://a b/", None, &[(K::HostInvalidCodePoint, 5)]);
    expect("sc://a%zz/", None, &[(K::InvalidUrlUnit, 6)]);
}

#[test]
fn every_reported_position_is_inside_the_input() {
    for input in [
        "\t\n https://a\t@\tb:1\t/\\x y?<#`\t ",
        "\u{1}http://[::1]:x",
        "https://é@%zz/",
    ] {
        let (_, errs) = errors(input, None);
        assert!(!errs.is_empty());
        for (_, pos) in errs {
            assert!(pos <= input.len(), "{input:?}: {pos}");
        }
    }
}

#[test]
fn url_is_at_most_48_bytes() {
    // The one-buffer representation: Box<str> + 7 u32 offsets + 2 tags.
    assert!(
        std::mem::size_of::<Url>() <= 48,
        "{}",
        std::mem::size_of::<Url>()
    );
    println!("size_of::<Url>() = {}", std::mem::size_of::<Url>());
}
