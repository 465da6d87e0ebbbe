//! Encoding sniffing and decoding under both policies: determining never
//! panics; whole-input decoding agrees with `decode_with` on the chosen
//! encoding; streaming decoding (`decode_stream`, from a reader returning
//! fuzzer-sized reads) gives exactly the text the whole-input decoder gives
//! for the encoding the stream chose; decoding in pieces on rayon's pool
//! (`decode_parallel`, into 1 + the read-size byte % 16 pieces) gives
//! exactly `decode_with`'s text and error flag, in the chosen encoding and
//! in each multibyte encoding that is cut.
//!
//! Input: a flags byte (bits 0-1 the detector input setting, bits 2-7 its
//! byte count in KiB), a read-size byte (0: whole reads), then NUL-ended
//! fields: a `Content-Type` value, the page URL, then the document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_encoding::{DetectorInput, Encoding, Policy, Sniffer, decode_parallel, decode_with};
use spinneret_fuzz::{ChunkedReader, Input};

/// The multibyte encodings `decode_parallel` cuts.
const CUT_MULTIBYTE: [&str; 6] = ["Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "gb18030", "GBK"];

/// `decode_parallel` of `bytes` as `encoding` is `decode_with`'s.
fn check_pieces(bytes: &[u8], encoding: &'static Encoding, pieces: usize) {
    let want = decode_with(bytes, encoding);
    let got = decode_parallel(bytes, encoding, pieces);
    assert_eq!(got, want, "{} in {pieces} pieces", encoding.name());
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let flags = input.byte();
    let read_size = usize::from(input.byte());
    let content_type = input.field();
    let url = String::from_utf8_lossy(input.field());
    let bytes = input.rest();
    let kib = usize::from(flags >> 2) * 1024;
    let detector = match flags & 3 {
        0 => DetectorInput::Whole,
        1 => DetectorInput::AfterFirstNonAscii(kib),
        _ => DetectorInput::UntilStable(kib),
    };
    for policy in [Policy::Browser, Policy::Crawler] {
        let mut sniffer = Sniffer::new(policy).url(&url).detector_input(detector);
        if !content_type.is_empty() {
            sniffer = sniffer.content_type(content_type);
        }
        let decoded = sniffer.decode(bytes);
        let (text, had_errors) = decode_with(bytes, decoded.determination.encoding);
        assert_eq!(decoded.text, text);
        assert_eq!(decoded.had_errors, had_errors);
        let _ = sniffer.determine_prefix(bytes, false);

        let mut streamed = String::new();
        let (determination, stream_errors) = sniffer
            .decode_stream(ChunkedReader::new(bytes, read_size), |piece| {
                streamed.push_str(piece)
            })
            .expect("reading a slice never fails");
        let (want, want_errors) = decode_with(bytes, determination.encoding);
        assert_eq!(
            streamed,
            want,
            "streamed as {}",
            determination.encoding.name()
        );
        assert_eq!(stream_errors, want_errors);
        check_pieces(bytes, decoded.determination.encoding, 1 + read_size % 16);
    }
    for label in CUT_MULTIBYTE {
        let encoding = Encoding::for_label(label.as_bytes()).expect("an encoding's label");
        check_pieces(bytes, encoding, 1 + read_size % 16);
    }
});
