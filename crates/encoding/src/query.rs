//! The URL Standard's query encoder for a document's encoding.
//!
//! The URL parser encodes a query (and form data) in the document's
//! *output encoding* — UTF-8 for UTF-16BE/LE and replacement, the encoding
//! itself otherwise — with the HTML error mode: a code point the encoding
//! cannot represent is reported as [`EncodedPiece::Unmappable`], which the
//! URL crate writes as `%26%23NNN%3B`.
//!
//! Invariant: each [`QueryEncoder::encode`] call is one complete encode
//! (stateful encoders such as ISO-2022-JP return to ASCII at the end).

use encoding_rs::{EncoderResult, Encoding, UTF_8};
use spinneret_url::{EncodedPiece, QueryEncoder};

/// A [`spinneret_url::QueryEncoder`] for a document encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DocumentQueryEncoder {
    output: &'static Encoding,
}

impl DocumentQueryEncoder {
    /// The encoder for a document in `encoding` (its output encoding is
    /// used, per the standard).
    pub fn new(encoding: &'static Encoding) -> Self {
        DocumentQueryEncoder {
            output: encoding.output_encoding(),
        }
    }

    /// The encoding bytes are produced in.
    pub fn output_encoding(&self) -> &'static Encoding {
        self.output
    }
}

impl QueryEncoder for DocumentQueryEncoder {
    fn is_utf8(&self) -> bool {
        self.output == UTF_8
    }

    fn encode(&self, input: &str, sink: &mut dyn FnMut(EncodedPiece<'_>)) {
        let mut encoder = self.output.new_encoder();
        let mut buf = [0u8; 512];
        let mut src = input;
        loop {
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(src, &mut buf, true);
            if written > 0 {
                sink(EncodedPiece::Bytes(&buf[..written]));
            }
            src = &src[read..];
            match result {
                EncoderResult::InputEmpty => break,
                EncoderResult::OutputFull => {}
                EncoderResult::Unmappable(c) => sink(EncodedPiece::Unmappable(c)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::*;
    use spinneret_url::Url;

    fn query(enc: &'static Encoding, q: &str) -> String {
        let e = DocumentQueryEncoder::new(enc);
        let u = Url::options()
            .query_encoder(Some(&e))
            .parse(&format!("http://h/?{q}"))
            .unwrap();
        u.search().to_string()
    }

    #[test]
    fn legacy_and_unmappable() {
        assert_eq!(query(WINDOWS_1251, "\u{44f}"), "?%FF");
        assert_eq!(query(WINDOWS_1252, "\u{44f}"), "?%26%231103%3B");
        assert_eq!(query(SHIFT_JIS, "\u{65e5}"), "?%93%FA");
        assert_eq!(query(GBK, "a b"), "?a%20b");
        // A long input crosses the internal buffer.
        let long = "\u{65e5}".repeat(1000);
        assert_eq!(
            query(SHIFT_JIS, &long),
            format!("?{}", "%93%FA".repeat(1000))
        );
    }

    #[test]
    fn utf16_and_replacement_use_utf8() {
        for e in [UTF_16LE, UTF_16BE, REPLACEMENT, UTF_8] {
            assert!(DocumentQueryEncoder::new(e).is_utf8());
            assert_eq!(query(e, "\u{e9}"), "?%C3%A9");
        }
    }
}
