//! Queries encoded in the document's encoding (percent-encode after
//! encoding), with the encoding crate's `DocumentQueryEncoder` for
//! windows-1252 and windows-1251.

use spinneret_encoding::DocumentQueryEncoder;
use spinneret_url::Url;

fn parse_in(encoding: &'static encoding_rs::Encoding, input: &str, base: Option<&Url>) -> String {
    let encoder = DocumentQueryEncoder::new(encoding);
    Url::options()
        .base_url(base)
        .query_encoder(Some(&encoder))
        .parse(input)
        .expect("parses")
        .href()
        .to_owned()
}

#[test]
fn windows_1251_query_with_unmappable_characters() {
    let page = Url::parse("https://example.ru/новости/").unwrap();
    // Cyrillic maps to single bytes; the path stays UTF-8; 中 is unmappable
    // and becomes the percent-encoded numeric character reference &#20013;.
    assert_eq!(
        parse_in(
            encoding_rs::WINDOWS_1251,
            "поиск?q=привет 中&x=€",
            Some(&page)
        ),
        "https://example.ru/%D0%BD%D0%BE%D0%B2%D0%BE%D1%81%D1%82%D0%B8/\
         %D0%BF%D0%BE%D0%B8%D1%81%D0%BA?q=%EF%F0%E8%E2%E5%F2%20%26%2320013%3B&x=%88"
    );
}

#[test]
fn windows_1252_query_and_the_fragment_stays_utf8() {
    assert_eq!(
        parse_in(
            encoding_rs::WINDOWS_1252,
            "http://example.com/?café=ü#café",
            None
        ),
        "http://example.com/?caf%E9=%FC#caf%C3%A9"
    );
    // Unmappable in windows-1252: Cyrillic.
    assert_eq!(
        parse_in(encoding_rs::WINDOWS_1252, "http://example.com/?я", None),
        "http://example.com/?%26%231103%3B"
    );
}

#[test]
fn non_special_and_websocket_urls_always_use_utf8() {
    assert_eq!(
        parse_in(encoding_rs::WINDOWS_1251, "sc://h/?я", None),
        "sc://h/?%D1%8F"
    );
    assert_eq!(
        parse_in(encoding_rs::WINDOWS_1251, "wss://h/?я", None),
        "wss://h/?%D1%8F"
    );
    // UTF-16 documents encode queries as UTF-8 (get an output encoding).
    assert_eq!(
        parse_in(encoding_rs::UTF_16LE, "https://h/?я", None),
        "https://h/?%D1%8F"
    );
}

#[test]
fn ascii_queries_are_the_same_in_every_encoding() {
    // The fast paths ignore the encoder for ASCII queries; every WHATWG
    // encoding's encoder maps printable ASCII to itself.
    for enc in [
        encoding_rs::WINDOWS_1251,
        encoding_rs::SHIFT_JIS,
        encoding_rs::ISO_2022_JP,
        encoding_rs::GB18030,
    ] {
        assert_eq!(
            parse_in(enc, "https://h/p?a=b&c=d~", None),
            "https://h/p?a=b&c=d~"
        );
    }
}
