//! Parsing a document from bytes: the encoding stage
//! (`spinneret-encoding`) decides the encoding and decodes, the tree
//! builder builds, and a `<meta>` that declares another encoding while the
//! confidence is tentative (one after the prescan window, or an encoding
//! guessed by the detector) *changes the encoding*: the bytes are decoded
//! again and parsed from the start, at most once (the second decision is
//! certain).

use super::parse::{Stopped, drive, finish, tokenizer_options};
use super::{ParseOptions, TreeBuilder};
use crate::TextMode;
use crate::dom::{Document, DomSink};
use crate::tokenizer::Core;
use spinneret_encoding::{Change, Determination, Encoding, Sniffer, decode_with};
use std::borrow::Cow;

/// Parses a document from its bytes, with the encoding `sniffer`
/// determines (its policy, the HTTP `Content-Type` and the URL it was
/// given). Returns the document and the final encoding decision (after any
/// change a late `<meta>` made).
///
/// ```
/// use spinneret_encoding::{Policy, Sniffer};
/// use spinneret_html::{parse_bytes, ParseOptions};
/// let page = b"<title>caf\xe9</title>";
/// let (doc, det) = parse_bytes(page, &Sniffer::new(Policy::Browser), &ParseOptions::default());
/// assert_eq!(det.encoding.name(), "windows-1252");
/// assert!(doc.dump().contains("\"caf\u{e9}\""));
/// ```
pub fn parse_bytes(
    bytes: &[u8],
    sniffer: &Sniffer<'_>,
    options: &ParseOptions,
) -> (Document, Determination) {
    parse_bytes_determined(bytes, sniffer.determine(bytes), options)
}

/// [`parse_bytes`] of `bytes` whose encoding the sniffer has determined
/// (`det`).
pub(crate) fn parse_bytes_determined(
    bytes: &[u8],
    mut det: Determination,
    options: &ParseOptions,
) -> (Document, Determination) {
    let text = decode_with(bytes, det.encoding).0;
    let lent = matches!(text, Cow::Borrowed(_));
    // The document's source: a text the decoder made is moved there, not
    // copied (bytes lent as they are are copied, once).
    let source = std::sync::Arc::new(text.into_owned());
    let mut run = |builder: &mut TreeBuilder<DomSink>, core: &mut Core, text: &str| {
        drive(builder, core, text, true)
    };
    if let Some(doc) = parse_watching(
        bytes,
        source.as_str(),
        std::sync::Arc::clone(&source),
        lent,
        &mut det,
        options,
        &mut run,
    ) {
        return (doc, det);
    }
    // The encoding changed: decode again and parse from the start.
    let text = decode_with(bytes, det.encoding).0;
    (super::parse_document(&text, options), det)
}

/// Parses `text` (the bytes decoded with `det`'s encoding), changing the
/// encoding when a `<meta>` asks while it is tentative; `None` when the
/// document must be decoded again and parsed from the start. `run` drives
/// the tree builder over `text` until it ends or a watched `<meta>`
/// declares an encoding (sequentially, or from speculated tokens).
pub(crate) fn parse_watching(
    bytes: &[u8],
    text: &str,
    source: std::sync::Arc<String>,
    lent: bool,
    det: &mut Determination,
    options: &ParseOptions,
    run: &mut dyn FnMut(&mut TreeBuilder<DomSink>, &mut Core, &str) -> Stopped,
) -> Option<Document> {
    let sink = DomSink::sharing(source, false);
    let mut builder = TreeBuilder::new(sink, options.scripting, options.report_errors);
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    core.scan_stream_errors(text, 0);
    loop {
        builder.watch_meta_encoding = det.confidence == spinneret_encoding::Confidence::Tentative;
        match run(&mut builder, &mut core, text) {
            Stopped::End | Stopped::NeedMore(_) => return Some(finish(builder, core)),
            Stopped::MetaEncoding => {
                let declared = builder
                    .control
                    .meta_encoding
                    .take()
                    .expect("drive stops for a declared encoding");
                let consumed = consumed(bytes, text, lent, det.encoding, core.pos);
                match det.change_the_encoding(declared, consumed) {
                    Change::Ignored | Change::Keep => {}
                    Change::SwitchInPlace(_) | Change::Reparse(_) => return None,
                }
            }
        }
    }
}

/// The bytes that decode to `text[..offset]`: when the decoder lent the
/// text (`lent`), the BOM and the first `offset` bytes after it; otherwise the
/// bytes are decoded again up to `offset` bytes of text.
fn consumed<'b>(
    bytes: &'b [u8],
    text: &str,
    lent: bool,
    encoding: &'static Encoding,
    offset: usize,
) -> &'b [u8] {
    let offset = offset.min(text.len());
    if lent {
        let bom = bytes.len() - text.len();
        return &bytes[..bom + offset];
    }
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = vec![0u8; offset];
    let (_, read, _, _) = decoder.decode_to_utf8(bytes, &mut out, false);
    &bytes[..read]
}

#[cfg(test)]
mod tests {
    use super::*;
    use spinneret_encoding::{Confidence, Policy};

    fn title(doc: &Document) -> String {
        let title = doc
            .root()
            .descendants()
            .find(|n| {
                n.as_element()
                    .is_some_and(|e| e.is_html(crate::LocalName::Title))
            })
            .expect("a title");
        title.text_content().unwrap_or_default()
    }

    #[test]
    fn a_late_meta_changes_a_tentative_encoding_and_restarts() {
        // The <meta> is past the prescan window, so only the tree builder
        // sees it.
        let mut page = b"<!doctype html><head><!--".to_vec();
        page.extend(std::iter::repeat_n(b' ', 2000));
        page.extend(b"--><meta charset=windows-1251><title>\xe0\xe1</title>");
        let (doc, det) = parse_bytes(
            &page,
            &Sniffer::new(Policy::Browser),
            &ParseOptions::default(),
        );
        assert_eq!(det.encoding.name(), "windows-1251");
        assert_eq!(det.confidence, Confidence::Certain);
        assert_eq!(title(&doc), "\u{430}\u{431}");
    }

    #[test]
    fn a_certain_encoding_is_not_changed() {
        let page = b"\xef\xbb\xbf<meta charset=windows-1251><title>\xc3\xa9</title>";
        let (doc, det) = parse_bytes(
            page,
            &Sniffer::new(Policy::Browser),
            &ParseOptions::default(),
        );
        assert_eq!(det.encoding.name(), "UTF-8");
        assert_eq!(title(&doc), "\u{e9}");
    }

    #[test]
    fn a_meta_naming_the_same_encoding_keeps_the_parse() {
        let mut page = b"<head><!--".to_vec();
        page.extend(std::iter::repeat_n(b' ', 2000));
        page.extend(b"--><meta charset=windows-1252><title>\xe9</title>");
        let (doc, det) = parse_bytes(
            &page,
            &Sniffer::new(Policy::Browser),
            &ParseOptions::default(),
        );
        assert_eq!(det.encoding.name(), "windows-1252");
        assert_eq!(det.confidence, Confidence::Certain);
        assert_eq!(title(&doc), "\u{e9}");
    }
}
