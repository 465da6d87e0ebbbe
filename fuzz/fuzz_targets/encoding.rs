//! Encoding sniffing and decoding under both policies: determining never
//! panics; whole-input decoding agrees with `decode_with` on the chosen
//! encoding; streaming decoding (`decode_stream`, from a reader returning
//! fuzzer-sized reads) gives exactly the text the whole-input decoder gives
//! for the encoding the stream chose.
//!
//! Input: a flags byte (bits 0-1 the detector input setting, bits 2-7 its
//! byte count in KiB), a read-size byte (0: whole reads), then NUL-ended
//! fields: a `Content-Type` value, the page URL, then the document.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_encoding::{DetectorInput, Policy, Sniffer, decode_with};
use spinneret_fuzz::{ChunkedReader, Input};

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
    }
});
