//! The media type of a payload as determined from its bytes: the
//! `mime-detected` field of Common Crawl's cc-index.
//!
//! Built from the WHATWG MIME Sniffing Standard
//! (<https://mimesniff.spec.whatwg.org/>), with refinements an index needs
//! and a browser does not. [`detect`] is the entry point; [`sniff_unknown`]
//! is the standard's "rules for identifying an unknown MIME type" alone.
//!
//! # What `detect` answers
//!
//! A browser's "MIME type sniffing algorithm" answers *how to treat* a
//! response and, for safety, mostly keeps the label (an HTML or XML label is
//! kept whatever the bytes; `text/plain` never becomes a scriptable type).
//! An index wants *what the bytes are*: [`detect`] runs the rules for
//! identifying an unknown MIME type (sniff-scriptable set, extended as
//! below) and uses the declared type only where the content leaves the
//! answer open, as the standard's last step ("the computed MIME type is the
//! supplied MIME type") does:
//!
//! 1. A signature (image, audio/video, font, archive, PDF, PostScript) wins
//!    over any label, except that `application/zip` takes a declared
//!    ZIP-based type (EPUB, OOXML, ODF, JAR, APK, KMZ).
//! 2. HTML (the tag table) and feeds (the rules for sniffing a mislabeled
//!    feed) win over any label; a declared `application/xhtml+xml` refines
//!    HTML.
//! 3. Other text is a feed, SVG or JSON when it looks like one, else the
//!    declared type if that is a known *textual* type, else `text/plain`.
//! 4. Binary bytes nothing matched are the declared type if that is a known
//!    *binary* type (`image/tiff`, `application/msword`, ...), else
//!    `application/octet-stream`. A textual label is never trusted for
//!    binary bytes, nor a binary label for text.
//! 5. Empty content is the declared type if it is known, else
//!    `application/octet-stream`: there are no bytes to judge (Apache Tika,
//!    which fills Common Crawl's field, also keeps the label then), and a
//!    `&'static str` can only name a type from this module's tables of known
//!    essences. Unknown or unparsable labels count as no label, as do
//!    `unknown/unknown`, `application/unknown` and `*/*` in the standard.
//!
//! # Names
//!
//! Common Crawl's values are Tika's canonical names. Where Tika's name for a
//! format differs from the standard's, Tika's is returned:
//!
//! | standard | returned |
//! |---|---|
//! | `text/xml` | `application/xml` (Tika's alias; Common Crawl's statistics list it) |
//! | `image/x-icon` | `image/vnd.microsoft.icon` (icons and cursors) |
//! | `application/x-gzip` | `application/gzip` |
//! | `audio/wave`, `audio/aiff` | `audio/vnd.wave`, `audio/x-aiff` |
//! | `video/avi` | `video/x-msvideo` |
//! | `font/ttf`, `font/otf` | `application/x-font-ttf`, `application/x-font-otf` |
//!
//! Tika has no name for WOFF, WOFF2 and TrueType collections: the standard's
//! `font/woff`, `font/woff2`, `font/collection` are returned. Declared
//! aliases (`text/xml`, `audio/wav`, ...) become the canonical name.
//!
//! # Implemented from the standard
//!
//! - The pattern matching algorithm, with the tag-terminating byte.
//! - The rules for identifying an unknown MIME type: the scriptable table
//!   (17 HTML rows, `<?xml`, `%PDF-`); PostScript and the three BOMs; images
//!   (ICO, CUR, BMP, GIF, WebP, PNG, JPEG); audio and video (AIFF, MP3 with
//!   ID3, Ogg, MIDI, AVI, WAVE, MP4, WebM); archives (gzip, ZIP, RAR 4); the
//!   binary data byte check. And the font table (EOT, TrueType, OpenType,
//!   collections, WOFF, WOFF2).
//! - The rules for sniffing a mislabeled feed (RSS, Atom, RSS 1.0 as
//!   `rdf:RDF` with both namespaces) as last published: the standard
//!   dropped them in July 2024 (commit b47be44, "Remove sniffing of HTML")
//!   as no browser sniffs feeds any more, but an index still tells feeds
//!   from pages.
//!
//! # Not implemented
//!
//! - The signature for MP3 without ID3: the standard's text is inconsistent
//!   (the frame size is compared with `s - length`) and two plausible frame
//!   headers are weak evidence in arbitrary binary data. Such files are
//!   `application/octet-stream` (or their declared binary type).
//! - RAR 5, absent from the standard's table.
//! - Context-specific sniffing and the no-sniff flag (an index has no
//!   context); markup and JSON in UTF-16 (such text is `text/plain`).
//!
//! # Beyond the standard
//!
//! - **A UTF-8 BOM is looked past**: the standard calls BOM-prefixed bytes
//!   `text/plain` (a BOM is no licence to run script); here the scriptable
//!   table runs after a UTF-8 BOM, so a BOM-prefixed page is HTML.
//! - **Fonts** are matched where the standard's commented-out step puts them
//!   (after audio and video, before archives).
//! - **Binary signatures need binary bytes**: an image, audio/video, font or
//!   archive signature counts only if the resource header has a binary data
//!   byte, so text starting `BMW` is not a BMP image, nor text with `LP` at
//!   offset 34 an EOT font. Real files of those formats have such bytes.
//! - **XML refinement**: content starting with `<?xml` (after whitespace or
//!   a UTF-8 BOM) is a feed by the feed rules, else named by its root
//!   element's local name: `html` is `application/xhtml+xml`, `svg`
//!   `image/svg+xml`, `RDF` `application/rdf+xml`, others `application/xml`.
//!   Unlike Tika, HTML without an XML declaration stays `text/html` even
//!   with the XHTML namespace on its root (Common Crawl reports those as
//!   `application/xhtml+xml`): it is served and parsed as HTML.
//! - **Feeds under any label** (the standard's rules ran for `text/html`
//!   only), and **SVG** without an XML declaration (first element `svg`).
//! - **JSON**: text starting with `{` or `[` (after whitespace or a UTF-8
//!   BOM) that passes a structural check of the JSON grammar (nesting up to
//!   128 levels, valid escapes) is `application/json`. A payload ending
//!   within the resource header must be one complete value followed by
//!   whitespace only; a longer one, a valid prefix.
//!
//! # Invariants
//!
//! - Never panics, for any bytes and any declared string; never allocates.
//! - Only the first 1445 bytes (the resource header) are read, each a
//!   bounded number of times: time is O(1445) whatever the input's length.

use memchr::memmem;

/// The resource header: the standard reads at most this many bytes.
const RESOURCE_HEADER_LEN: usize = 1445;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

// The names returned (see "Names" in the module documentation).
const TEXT_HTML: &str = "text/html";
const TEXT_PLAIN: &str = "text/plain";
const APPLICATION_XML: &str = "application/xml";
const APPLICATION_PDF: &str = "application/pdf";
const POSTSCRIPT: &str = "application/postscript";
const OCTET_STREAM: &str = "application/octet-stream";
const JSON: &str = "application/json";
const RSS: &str = "application/rss+xml";
const ATOM: &str = "application/atom+xml";
const RDF: &str = "application/rdf+xml";
const XHTML: &str = "application/xhtml+xml";
const SVG: &str = "image/svg+xml";
const ICO: &str = "image/vnd.microsoft.icon";
const ZIP: &str = "application/zip";

/// The media type of `bytes` as determined from its content, for the `mime-detected` field.
/// `declared` is the Content-Type as received (may be None or garbage); it is used only where the standard uses it (e.g. `text/html` → mislabeled-feed check, `text/plain` … whatever the spec's "MIME type sniffing algorithm" says when no-sniff is false), never trusted blindly for binary content.
///
/// The content decides whenever it can (the module documentation gives the
/// order). The declared type counts by its essence (type and subtype, case
/// ignored; of several comma-separated values, the last that parses) and
/// only if this module knows it: for text with nothing more specific found
/// (a textual type), binary bytes with no signature (a binary type), a ZIP
/// archive (a ZIP-based type), and empty content, which is otherwise
/// `application/octet-stream`. Only the first 1445 bytes are read.
pub fn detect(declared: Option<&str>, bytes: &[u8]) -> &'static str {
    let header = resource_header(bytes);
    let supplied = declared.and_then(supplied_type);
    if header.is_empty() {
        return supplied.map_or(OCTET_STREAM, |(essence, _)| essence);
    }
    let declared_as = |class| supplied.filter(|k| k.1 == class).map(|k| k.0);
    match identify(header, true, true) {
        // A feed may start with a comment, which the `<!--` row takes.
        Outcome::Scriptable(TEXT_HTML) => mislabeled_feed(header)
            .or(declared_as(Class::Textual).filter(|&essence| essence == XHTML))
            .unwrap_or(TEXT_HTML),
        Outcome::Scriptable(APPLICATION_XML) => refine_xml(header),
        Outcome::Signature(ZIP) => declared_as(Class::ZipBased).unwrap_or(ZIP),
        Outcome::Scriptable(mime) | Outcome::Signature(mime) => mime,
        Outcome::Text => {
            let truncated = bytes.len() > RESOURCE_HEADER_LEN;
            if let Some(feed) = mislabeled_feed(header) {
                feed
            } else if root_local_name(header) == Some(b"svg") {
                SVG
            } else if looks_like_json(strip_utf8_bom(header), truncated) {
                JSON
            } else {
                declared_as(Class::Textual).unwrap_or(TEXT_PLAIN)
            }
        }
        Outcome::Binary => match supplied {
            Some((essence, class)) if class != Class::Textual => essence,
            _ => OCTET_STREAM,
        },
    }
}

/// The standard's "rules for identifying an unknown MIME type" on the first
/// 1445 bytes of `bytes`, with the sniff-scriptable flag as given.
///
/// The standard's algorithm alone (none of the extensions [`detect`] adds),
/// with this module's names (`application/xml` for `text/xml`, ...). `None`
/// for empty input only, where there is nothing to identify (the standard
/// would vacuously say `text/plain`); otherwise `Some`, ending in
/// `text/plain` or `application/octet-stream` as the standard does.
pub fn sniff_unknown(bytes: &[u8], sniff_scriptable: bool) -> Option<&'static str> {
    let header = resource_header(bytes);
    if header.is_empty() {
        return None;
    }
    Some(match identify(header, sniff_scriptable, false) {
        Outcome::Scriptable(mime) | Outcome::Signature(mime) => mime,
        Outcome::Text => TEXT_PLAIN,
        Outcome::Binary => OCTET_STREAM,
    })
}

/// "Read the resource header": at most the first 1445 bytes.
fn resource_header(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(RESOURCE_HEADER_LEN)]
}

fn strip_utf8_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(UTF8_BOM).unwrap_or(bytes)
}

// ---------------------------------------------------------------------------
// Terminology

/// A binary data byte: 0x00–0x08, 0x0B, 0x0E–0x1A, 0x1C–0x1F.
fn is_binary_data_byte(b: u8) -> bool {
    matches!(b, 0x00..=0x08 | 0x0B | 0x0E..=0x1A | 0x1C..=0x1F)
}

/// A whitespace byte (0xWS): HT, LF, FF, CR, SP.
fn is_whitespace_byte(b: u8) -> bool {
    matches!(b, 0x09 | 0x0A | 0x0C | 0x0D | 0x20)
}

/// A tag-terminating byte (0xTT): SP or `>`.
fn is_tag_terminating_byte(b: u8) -> bool {
    matches!(b, 0x20 | 0x3E)
}

// ---------------------------------------------------------------------------
// Matching a MIME type pattern

/// The set of leading bytes to be ignored.
#[derive(Clone, Copy, Debug)]
enum Ignored {
    None,
    Whitespace,
}

/// The pattern matching algorithm; on a match, the index just past the
/// matched bytes.
fn pattern_match(input: &[u8], pattern: &[u8], mask: &[u8], ignored: Ignored) -> Option<usize> {
    // 1. Assert: pattern's length is equal to mask's length.
    debug_assert_eq!(pattern.len(), mask.len());
    // 2. If input's length is less than pattern's length, return false.
    if input.len() < pattern.len() {
        return None;
    }
    // 3.–4. Let s be 0; while s < input's length and ignored contains
    // input[s], set s to s + 1.
    let ignore = |b: &u8| matches!(ignored, Ignored::Whitespace) && is_whitespace_byte(*b);
    let s = input.iter().take_while(|b| ignore(b)).count();
    // 5.–6. Each byte of input ANDed with the mask must equal the pattern's
    // byte. (The standard reads input[s] unbounded: when the ignored bytes
    // leave fewer bytes than the pattern, there is no match.)
    let window = input.get(s..s + pattern.len())?;
    let mut pairs = window.iter().zip(pattern).zip(mask);
    // 7. Return true.
    pairs
        .all(|((&i, &p), &m)| i & m == p)
        .then_some(s + pattern.len())
}

/// One row of a table: the byte pattern, the pattern mask, the leading bytes
/// to be ignored, whether 0xTT ends the pattern (the HTML rows: `pattern`
/// is the row's pattern without it), and the MIME type.
struct Row(&'static [u8], &'static [u8], Ignored, bool, &'static str);

/// "Execute the following steps for each row in the following table": the
/// MIME type of the first row that matches.
fn match_table(input: &[u8], table: &[Row]) -> Option<&'static str> {
    let matches = |&&Row(pattern, mask, ignored, terminated, _): &&Row| {
        let end = pattern_match(input, pattern, mask, ignored);
        end.is_some_and(|end| {
            !terminated || input.get(end).is_some_and(|&b| is_tag_terminating_byte(b))
        })
    };
    table.iter().find(matches).map(|row| row.4)
}

const FF: u8 = 0xFF;
const DF: u8 = 0xDF;

/// A row without ignored bytes or 0xTT.
const fn exact(pattern: &'static [u8], mask: &'static [u8], mime: &'static str) -> Row {
    Row(pattern, mask, Ignored::None, false, mime)
}

/// An HTML row: whitespace bytes ignored, the pattern, then 0xTT.
const fn html(pattern: &'static [u8], mask: &'static [u8]) -> Row {
    Row(pattern, mask, Ignored::Whitespace, true, TEXT_HTML)
}

/// Identifying a resource with an unknown MIME type, step 1: the table
/// consulted when the sniff-scriptable flag is set.
const SCRIPTABLE: &[Row] = &[
    html(
        b"<!DOCTYPE HTML",
        &[FF, FF, DF, DF, DF, DF, DF, DF, DF, FF, DF, DF, DF, DF],
    ),
    html(b"<HTML", &[FF, DF, DF, DF, DF]),
    html(b"<HEAD", &[FF, DF, DF, DF, DF]),
    html(b"<SCRIPT", &[FF, DF, DF, DF, DF, DF, DF]),
    html(b"<IFRAME", &[FF, DF, DF, DF, DF, DF, DF]),
    html(b"<H1", &[FF, DF, FF]),
    html(b"<DIV", &[FF, DF, DF, DF]),
    html(b"<FONT", &[FF, DF, DF, DF, DF]),
    html(b"<TABLE", &[FF, DF, DF, DF, DF, DF]),
    html(b"<A", &[FF, DF]),
    html(b"<STYLE", &[FF, DF, DF, DF, DF, DF]),
    html(b"<TITLE", &[FF, DF, DF, DF, DF, DF]),
    html(b"<B", &[FF, DF]),
    html(b"<BODY", &[FF, DF, DF, DF, DF]),
    html(b"<BR", &[FF, DF, DF]),
    html(b"<P", &[FF, DF]),
    html(b"<!--", &[FF, FF, FF, FF]),
    Row(
        b"<?xml",
        &[FF; 5],
        Ignored::Whitespace,
        false,
        APPLICATION_XML,
    ),
    exact(b"%PDF-", &[FF; 5], APPLICATION_PDF),
];

/// Identifying a resource with an unknown MIME type, step 2: PostScript and
/// the UTF-16BE, UTF-16LE and UTF-8 byte order marks.
const POSTSCRIPT_AND_BOMS: &[Row] = &[
    exact(b"%!PS-Adobe-", &[FF; 11], POSTSCRIPT),
    exact(b"\xFE\xFF\0\0", &[FF, FF, 0, 0], TEXT_PLAIN),
    exact(b"\xFF\xFE\0\0", &[FF, FF, 0, 0], TEXT_PLAIN),
    exact(b"\xEF\xBB\xBF\0", &[FF, FF, FF, 0], TEXT_PLAIN),
];

/// "RIFF", four bytes of anything, four more significant bytes.
const RIFF_MASK: &[u8] = &[FF, FF, FF, FF, 0, 0, 0, 0, FF, FF, FF, FF];
const WEBP_MASK: &[u8] = &[FF, FF, FF, FF, 0, 0, 0, 0, FF, FF, FF, FF, FF, FF];

/// The image type pattern matching algorithm's table.
const IMAGE: &[Row] = &[
    exact(b"\0\0\x01\0", &[FF; 4], ICO), // Windows Icon
    exact(b"\0\0\x02\0", &[FF; 4], ICO), // Windows Cursor
    exact(b"BM", &[FF; 2], "image/bmp"),
    exact(b"GIF87a", &[FF; 6], "image/gif"),
    exact(b"GIF89a", &[FF; 6], "image/gif"),
    exact(b"RIFF\0\0\0\0WEBPVP", WEBP_MASK, "image/webp"),
    exact(b"\x89PNG\r\n\x1A\n", &[FF; 8], "image/png"),
    exact(b"\xFF\xD8\xFF", &[FF; 3], "image/jpeg"),
];

/// The audio or video type pattern matching algorithm's table.
const AUDIO_VIDEO: &[Row] = &[
    exact(b"FORM\0\0\0\0AIFF", RIFF_MASK, "audio/x-aiff"),
    exact(b"ID3", &[FF; 3], "audio/mpeg"),
    exact(b"OggS\0", &[FF; 5], "application/ogg"),
    exact(b"MThd\0\0\0\x06", &[FF; 8], "audio/midi"),
    exact(b"RIFF\0\0\0\0AVI ", RIFF_MASK, "video/x-msvideo"),
    exact(b"RIFF\0\0\0\0WAVE", RIFF_MASK, "audio/vnd.wave"),
];

/// 34 bytes of anything, then "LP": the Embedded OpenType signature.
const EOT: ([u8; 36], [u8; 36]) = {
    let (mut pattern, mut mask) = ([0; 36], [0; 36]);
    (pattern[34], pattern[35], mask[34], mask[35]) = (b'L', b'P', FF, FF);
    (pattern, mask)
};

/// The font type pattern matching algorithm's table.
const FONT: &[Row] = &[
    exact(&EOT.0, &EOT.1, "application/vnd.ms-fontobject"),
    exact(b"\0\x01\0\0", &[FF; 4], "application/x-font-ttf"),
    exact(b"OTTO", &[FF; 4], "application/x-font-otf"),
    exact(b"ttcf", &[FF; 4], "font/collection"),
    exact(b"wOFF", &[FF; 4], "font/woff"),
    exact(b"wOF2", &[FF; 4], "font/woff2"),
];

/// The archive type pattern matching algorithm's table.
const ARCHIVE: &[Row] = &[
    exact(b"\x1F\x8B\x08", &[FF; 3], "application/gzip"),
    exact(b"PK\x03\x04", &[FF; 4], ZIP),
    exact(b"Rar!\x1A\x07\0", &[FF; 7], "application/x-rar-compressed"),
];

/// The audio or video type pattern matching algorithm: the table, then the
/// MP4 and WebM signatures (the MP3-without-ID3 step is not implemented).
fn match_audio_video(input: &[u8]) -> Option<&'static str> {
    let mp4 = || matches_mp4(input).then_some("video/mp4");
    let webm = || matches_webm(input).then_some("video/webm");
    match_table(input, AUDIO_VIDEO).or_else(mp4).or_else(webm)
}

/// "Matches the signature for MP4".
fn matches_mp4(sequence: &[u8]) -> bool {
    let length = sequence.len();
    // 3. If length is less than 12, return false.
    if length < 12 {
        return false;
    }
    // 4. box-size: bytes 0 to 3, a 32-bit unsigned big-endian integer.
    let box_size = u32::from_be_bytes([sequence[0], sequence[1], sequence[2], sequence[3]]);
    let box_size = box_size as usize;
    // 5. If length < box-size or box-size % 4 != 0, return false.
    // 6. If bytes 4 to 7 are not "ftyp", return false.
    if length < box_size || !box_size.is_multiple_of(4) || &sequence[4..8] != b"ftyp" {
        return false;
    }
    // 7. If bytes 8 to 10 (the major brand) are "mp4", return true.
    // 8.–9. From bytes-read 16 while below box-size, by 4 (the compatible
    // brands): if three bytes are "mp4", return true.
    let brand = |i: usize| sequence.get(i..i + 3) == Some(b"mp4");
    brand(8) || (16..box_size).step_by(4).any(brand)
}

/// "Matches the signature for WebM".
fn matches_webm(sequence: &[u8]) -> bool {
    let length = sequence.len();
    // 3.–4. The four bytes 0x1A 0x45 0xDF 0xA3 (EBML).
    if !sequence.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
        return false;
    }
    // 5.–6. While iter < length and iter < 38: at the DocType element ID
    // (0x42 0x82), skip it and its size (a vint), then match the padded
    // sequence "webm".
    let mut iter = 4;
    while iter < length && iter < 38 {
        if sequence[iter..].starts_with(&[0x42, 0x82]) {
            iter += 2;
            if iter >= length {
                return false;
            }
            iter += vint_size(sequence[iter]);
            if iter + 4 >= length {
                return false;
            }
            return matches_padded(&sequence[iter..], b"webm");
        }
        iter += 1;
    }
    false
}

/// "Parse a vint", its number size only: 1 plus the leading zero bits of the
/// first byte, at most 8. (The standard's text reads from index 0, not from
/// the vint; this reads the vint.)
fn vint_size(first: u8) -> usize {
    (first.leading_zeros() as usize + 1).min(8)
}

/// "Matching a padded sequence": `pattern`, possibly after 0x00 bytes.
fn matches_padded(sequence: &[u8], pattern: &[u8]) -> bool {
    let zeros = sequence.iter().take_while(|&&b| b == 0).count();
    sequence[zeros..].starts_with(pattern)
}

// ---------------------------------------------------------------------------
// Identifying a resource with an unknown MIME type

/// What the rules for identifying an unknown MIME type found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// A row of the scriptable table: HTML, XML or PDF.
    Scriptable(&'static str),
    /// PostScript, or an image, audio/video, font or archive signature.
    Signature(&'static str),
    /// A byte order mark, or no binary data byte: `text/plain`.
    Text,
    /// `application/octet-stream`.
    Binary,
}

/// The rules for identifying an unknown MIME type on a non-empty resource
/// header. `extended` adds what [`detect`] does beyond the standard: the
/// look past a UTF-8 BOM, the font step and the binary-byte guard.
fn identify(header: &[u8], sniff_scriptable: bool, extended: bool) -> Outcome {
    // 1. If the sniff-scriptable flag is set, the scriptable table.
    if sniff_scriptable {
        let input = header.strip_prefix(UTF8_BOM).filter(|_| extended);
        let input = input.unwrap_or(header);
        if let Some(mime) = match_table(input, SCRIPTABLE) {
            return Outcome::Scriptable(mime);
        }
    }
    // 2. PostScript and the byte order marks.
    match match_table(header, POSTSCRIPT_AND_BOMS) {
        Some(TEXT_PLAIN) => return Outcome::Text,
        Some(mime) => return Outcome::Signature(mime),
        None => {}
    }
    let has_binary_byte = header.iter().any(|&b| is_binary_data_byte(b));
    let fonts = || match_table(header, FONT).filter(|_| extended && has_binary_byte);
    // 3.–4. The image type pattern matching algorithm.
    // 5.–6. The audio or video type pattern matching algorithm.
    // (Extended: the font type pattern matching algorithm, where the
    // standard's commented-out step puts it.)
    // 7.–8. The archive type pattern matching algorithm.
    let signature = match_table(header, IMAGE)
        .or_else(|| match_audio_video(header))
        .or_else(fonts)
        .or_else(|| match_table(header, ARCHIVE));
    // (Extended: a binary format's signature in bytes that are all text is
    // taken for text.)
    if let Some(mime) = signature.filter(|_| !extended || has_binary_byte) {
        return Outcome::Signature(mime);
    }
    // 9. If the resource header contains no binary data bytes, text/plain.
    // 10. Return application/octet-stream.
    if has_binary_byte {
        Outcome::Binary
    } else {
        Outcome::Text
    }
}

// ---------------------------------------------------------------------------
// Sniffing a mislabeled feed (as published until July 2024)

const PURL_RSS: &[u8] = b"http://purl.org/rss/1.0/";
const RDF_NS: &[u8] = b"http://www.w3.org/1999/02/22-rdf-syntax-ns#";

/// The steps of the "rules for distinguishing if a resource is a feed or
/// HTML" that skip what precedes the first element: a UTF-8 BOM, whitespace
/// bytes, comments, `<!...>` and `<?...?>`. The index just past the `<` of
/// the first element, or `None` where the rules abort with "the computed
/// MIME type is the supplied MIME type".
fn first_element(sequence: &[u8]) -> Option<usize> {
    // 3.–4. Initialize s to 0; skip a UTF-8 BOM.
    let mut s = if sequence.starts_with(UTF8_BOM) { 3 } else { 0 };
    // 5. While s is less than length:
    while s < sequence.len() {
        // Loop L: whitespace bytes up to a "<"; anything else aborts, and
        // so does the end (sequence[s] undefined).
        loop {
            let b = *sequence.get(s)?;
            s += 1;
            if b == b'<' {
                break;
            }
            if !is_whitespace_byte(b) {
                return None;
            }
        }
        // Loop L: "!--" up to "-->", "!" up to ">", "?" up to "?>" (loop
        // M, which aborts at the end); anything else is the element.
        let rest = &sequence[s..];
        let (opening, closing): (usize, &[u8]) = match rest {
            [] => return None,
            [b'!', b'-', b'-', ..] => (3, b"-->"),
            [b'!', ..] => (1, b">"),
            [b'?', ..] => (1, b"?>"),
            _ => return Some(s),
        };
        s += opening;
        s += memmem::find(&sequence[s..], closing)? + closing.len();
    }
    None
}

/// The rules for distinguishing if a resource is a feed or HTML: a feed
/// type, or `None` for "the supplied MIME type".
fn mislabeled_feed(sequence: &[u8]) -> Option<&'static str> {
    let rest = &sequence[first_element(sequence)?..];
    // "rss": RSS; "feed": Atom.
    if rest.starts_with(b"rss") {
        return Some(RSS);
    }
    if rest.starts_with(b"feed") {
        return Some(ATOM);
    }
    // "rdf:RDF": RSS if the RSS 1.0 namespace and the RDF namespace both
    // follow. (The standard finds the first of the two, then the other
    // after it; the strings cannot overlap, so both present is the same.
    // Its byte counts for the two are swapped: they are 24 and 43.)
    let after = rest.strip_prefix(b"rdf:RDF")?;
    let has = |needle| memmem::find(after, needle).is_some();
    (has(PURL_RSS) && has(RDF_NS)).then_some(RSS)
}

// ---------------------------------------------------------------------------
// Beyond the standard: root elements and JSON

/// The local name (after any prefix) of the first element, as the feed
/// rules find it.
fn root_local_name(header: &[u8]) -> Option<&[u8]> {
    let rest = &header[first_element(header)?..];
    let is_end = |&b: &u8| is_whitespace_byte(b) || b == b'>' || b == b'/';
    let name = &rest[..rest.iter().position(is_end).unwrap_or(rest.len())];
    let colon = memchr::memrchr(b':', name).map_or(0, |colon| colon + 1);
    Some(&name[colon..])
}

/// The XML refinement of content starting with `<?xml`.
fn refine_xml(header: &[u8]) -> &'static str {
    match (mislabeled_feed(header), root_local_name(header)) {
        (Some(feed), _) => feed,
        (None, Some(b"html")) => XHTML,
        (None, Some(b"svg")) => SVG,
        (None, Some(b"RDF")) => RDF,
        _ => APPLICATION_XML,
    }
}

/// How a JSON scan ended.
enum Scan {
    /// A complete value, ending before this index.
    Complete(usize),
    /// Valid so far; the bytes ran out.
    Prefix,
    Invalid,
}

/// Whether `text` is plausibly JSON: an object or array that is complete and
/// followed by whitespace only, or, when the payload goes on past the
/// resource header (`truncated`), a valid prefix of one.
fn looks_like_json(text: &[u8], truncated: bool) -> bool {
    let text = text.trim_ascii_start();
    if !matches!(text.first(), Some(b'{' | b'[')) {
        return false;
    }
    match scan_json(text) {
        Scan::Complete(end) => text[end..].trim_ascii().is_empty(),
        Scan::Prefix => truncated,
        Scan::Invalid => false,
    }
}

/// What the JSON scan expects next.
#[derive(Clone, Copy)]
enum Expect {
    Value,
    ValueOrClose,
    KeyOrClose,
    Key,
    Colon,
    CommaOrClose,
}

/// A structural check of the JSON grammar (RFC 8259) with nesting up to 128
/// levels. Strings are not checked to be UTF-8.
fn scan_json(b: &[u8]) -> Scan {
    use Expect::*;
    // Open containers, innermost in bit 0: 1 for an object, 0 for an array.
    let (mut stack, mut depth, mut i) = (0u128, 0u32, 0);
    let mut expect = Value;
    loop {
        while b.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        let Some(&c) = b.get(i) else {
            return Scan::Prefix;
        };
        let in_object = stack & 1 == 1;
        expect = match (expect, c) {
            (Value | ValueOrClose, b'{' | b'[') if depth < 128 => {
                stack = stack << 1 | u128::from(c == b'{');
                depth += 1;
                i += 1;
                if c == b'{' { KeyOrClose } else { ValueOrClose }
            }
            (ValueOrClose | CommaOrClose, b']') | (KeyOrClose | CommaOrClose, b'}')
                if in_object == (c == b'}') =>
            {
                stack >>= 1;
                depth -= 1;
                i += 1;
                if depth == 0 {
                    return Scan::Complete(i);
                }
                CommaOrClose
            }
            (Value | ValueOrClose, _) | (KeyOrClose | Key, b'"') => {
                match scan_scalar(b, i) {
                    Scan::Complete(end) => i = end,
                    other => return other,
                }
                if matches!(expect, KeyOrClose | Key) {
                    Colon
                } else {
                    CommaOrClose
                }
            }
            (Colon, b':') => {
                i += 1;
                Value
            }
            (CommaOrClose, b',') => {
                i += 1;
                if in_object { Key } else { Value }
            }
            _ => return Scan::Invalid,
        };
    }
}

/// A string, number, `true`, `false` or `null` starting at `i`.
fn scan_scalar(b: &[u8], i: usize) -> Scan {
    if b[i] == b'"' {
        return scan_string(b, i + 1);
    }
    let is_scalar_byte = |c: &&u8| c.is_ascii_alphanumeric() || b"+-.".contains(*c);
    let token = &b[i..i + b[i..].iter().take_while(is_scalar_byte).count()];
    let literals: [&[u8]; 3] = [b"true", b"false", b"null"];
    let at_end = i + token.len() == b.len();
    match token {
        // The bytes end within the token: it may go on.
        [b'-' | b'0'..=b'9', ..] if at_end => Scan::Prefix,
        _ if at_end && literals.iter().any(|l| l.starts_with(token)) => Scan::Prefix,
        _ if literals.contains(&token) || is_json_number(token) => Scan::Complete(i + token.len()),
        _ => Scan::Invalid,
    }
}

/// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
fn is_json_number(token: &[u8]) -> bool {
    /// The rest after one or more digits, or `None`.
    fn digits(s: &[u8]) -> Option<&[u8]> {
        let n = s.iter().take_while(|c| c.is_ascii_digit()).count();
        (n > 0).then(|| &s[n..])
    }
    let unsigned = token.strip_prefix(b"-").unwrap_or(token);
    let Some(mut rest) = digits(unsigned) else {
        return false;
    };
    if unsigned[0] == b'0' && rest.len() + 1 != unsigned.len() {
        return false; // a leading zero
    }
    if let Some(fraction) = rest.strip_prefix(b".") {
        let Some(after) = digits(fraction) else {
            return false;
        };
        rest = after;
    }
    if let [b'e' | b'E', exponent @ ..] = rest {
        let signed = matches!(exponent.first(), Some(b'+' | b'-'));
        let Some(after) = digits(&exponent[usize::from(signed)..]) else {
            return false;
        };
        rest = after;
    }
    rest.is_empty()
}

/// The rest of a string from `i`, just past its opening quote.
fn scan_string(b: &[u8], mut i: usize) -> Scan {
    while let Some(&c) = b.get(i) {
        i += match (c, b.get(i + 1)) {
            (b'"', _) => return Scan::Complete(i + 1),
            (0x00..=0x1F, _) => return Scan::Invalid,
            (b'\\', None) => return Scan::Prefix,
            (b'\\', Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't')) => 2,
            (b'\\', Some(b'u')) => match &b[i + 2..b.len().min(i + 6)] {
                hex if !hex.iter().all(u8::is_ascii_hexdigit) => return Scan::Invalid,
                hex if hex.len() < 4 => return Scan::Prefix,
                _ => 6,
            },
            (b'\\', Some(_)) => return Scan::Invalid,
            _ => 1,
        };
    }
    Scan::Prefix
}

// ---------------------------------------------------------------------------
// The declared type

/// Known declared essences by class (see [`Class`]), whitespace-separated;
/// `alias=name` returns `name` for `alias`. The names are Tika's (see the
/// module documentation).
const TEXTUAL: &str = "text/html text/plain text/css text/csv text/calendar text/markdown \
    text/tab-separated-values text/vtt application/xml text/xml=application/xml \
    application/xhtml+xml application/rss+xml application/atom+xml application/rdf+xml \
    image/svg+xml application/json text/json=application/json application/ld+json \
    application/javascript application/x-javascript=application/javascript \
    text/javascript=application/javascript";
const BINARY: &str = "application/pdf application/postscript application/octet-stream \
    image/jpeg image/png image/gif image/webp image/bmp image/tiff image/avif \
    image/vnd.microsoft.icon image/x-icon=image/vnd.microsoft.icon \
    audio/mpeg audio/mp4 audio/ogg audio/midi audio/x-aiff audio/aiff=audio/x-aiff \
    audio/vnd.wave audio/wav=audio/vnd.wave audio/wave=audio/vnd.wave \
    audio/x-wav=audio/vnd.wave video/mp4 video/webm video/quicktime video/x-msvideo \
    video/avi=video/x-msvideo application/ogg application/gzip \
    application/x-gzip=application/gzip application/x-rar-compressed \
    application/x-7z-compressed application/x-bzip2 application/x-xz application/msword \
    application/vnd.ms-excel application/vnd.ms-powerpoint application/x-shockwave-flash \
    application/wasm application/vnd.ms-fontobject application/x-font-ttf \
    font/ttf=application/x-font-ttf application/x-font-otf font/otf=application/x-font-otf \
    font/woff font/woff2 font/collection";
const ZIP_BASED: &str = "application/zip application/epub+zip application/java-archive \
    application/vnd.android.package-archive application/vnd.google-earth.kmz \
    application/vnd.openxmlformats-officedocument.wordprocessingml.document \
    application/vnd.openxmlformats-officedocument.spreadsheetml.sheet \
    application/vnd.openxmlformats-officedocument.presentationml.presentation \
    application/vnd.oasis.opendocument.text application/vnd.oasis.opendocument.spreadsheet \
    application/vnd.oasis.opendocument.presentation";

/// How a known declared type may be used.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    /// Text formats: returned for text content with nothing more specific.
    Textual,
    /// Binary formats: returned for binary content no signature matched.
    Binary,
    /// ZIP-based formats: also returned for content with the ZIP signature.
    ZipBased,
}

/// The supplied MIME type, if it parses to a known essence: the name
/// returned and its class. Of several comma-separated values, the last that
/// parses counts.
fn supplied_type(declared: &str) -> Option<(&'static str, Class)> {
    let (ty, sub) = declared.rsplit(',').find_map(parse_essence)?;
    let tables = [
        (TEXTUAL, Class::Textual),
        (BINARY, Class::Binary),
        (ZIP_BASED, Class::ZipBased),
    ];
    tables.into_iter().find_map(|(table, class)| {
        table.split_ascii_whitespace().find_map(|entry| {
            let (name, essence) = entry.split_once('=').unwrap_or((entry, entry));
            let (t, s) = name.split_once('/')?;
            let hit = t.eq_ignore_ascii_case(ty) && s.eq_ignore_ascii_case(sub);
            hit.then_some((essence, class))
        })
    })
}

/// The type and subtype of a MIME type string, as "parse a MIME type" finds
/// them (parameters are not parsed).
fn parse_essence(value: &str) -> Option<(&str, &str)> {
    let is_http_whitespace = |c: char| matches!(c, '\t' | '\n' | '\r' | ' ');
    let essence = value.split(';').next()?.trim_matches(is_http_whitespace);
    let (ty, sub) = essence.split_once('/')?;
    let is_token_byte = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
    let is_token = |s: &str| !s.is_empty() && s.bytes().all(is_token_byte);
    (is_token(ty) && is_token(sub)).then_some((ty, sub))
}

#[cfg(test)]
mod tests;
