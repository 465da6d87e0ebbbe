//! The HTML Standard's *determining the character encoding*, with a
//! detector and a crawler policy on top.
//!
//! Order (step names of the standard):
//! - Step 1, BOM sniffing — UTF-8, UTF-16LE, UTF-16BE; confidence *certain*.
//! - Steps 2-3 (user override; waiting for bytes): not applicable.
//! - Step 4, transport layer — the `charset` of `Content-Type`
//!   ([`crate::content_type`]); *certain*. Unknown labels are ignored.
//! - Step 5, prescan of the first 1024 bytes ([`crate::prescan`]): `<meta>`, then
//!   the XML declaration; *tentative*.
//! - Steps 6-7 (parent document, cached information): not applicable.
//! - Step 8, autodetection — chardetng, with the URL's TLD as hint and UTF-8
//!   allowed, fed up to 8 KiB after the first non-ASCII byte but stopped
//!   once its guess is stable ([`DEFAULT_DETECTOR_INPUT`]); *tentative*.
//!   Fast paths: input with non-ASCII bytes that is entirely valid UTF-8 is
//!   UTF-8 without running the detector.
//!   Under [`Policy::Crawler`] that fast path over the whole document is
//!   *certain* (so a `<meta>` after the window cannot switch away from
//!   valid UTF-8), and BOM-less UTF-16 is recognized by its NUL bytes.
//! - Step 9, default — when the bytes are all ASCII (no ESC): the TLD's legacy
//!   default as chardetng defines it (windows-1252 for generic TLDs);
//!   *tentative*.
//!
//! [`Policy::Crawler`] trusts the detector less where it has no evidence:
//! when the TLD's default is windows-1252 and every non-ASCII byte is a
//! symbol or punctuation mark in windows-1252 (`£`, `€`, `©`, `’`, `–`), the
//! page is windows-1252 — the one reading with no accented letter at all.
//!
//! [`Policy::Crawler`] also reads declarations with [`crawler_label`] (the
//! standard's label table plus a few codec names real pages use, e.g.
//! `MacCyrillic`), and adds one rule: an encoding *declared* at steps 4-5
//! that is not UTF-8 gives way to UTF-8 when the bytes contain non-ASCII and
//! are entirely valid UTF-8 (pages re-saved as UTF-8 keep their old
//! `<meta>`). The result then says [`Step::Utf8Valid`], keeps the declared
//! choice in [`Determination::declared`], and is *certain* (it was made
//! from all the bytes, so a later `<meta>` must not change it).
//!
//! Invariant: total over any bytes, headers and URL — never panics (the TLD
//! handed to chardetng is checked to be lower-case ASCII without dots, which
//! is chardetng's only panic condition).

use chardetng::EncodingDetector;
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

use crate::content_type::charset_from_content_type_with;
use crate::prescan::{Found, LabelLookup, PRESCAN_WINDOW, prescan_with};

/// Which rules to apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Policy {
    /// The HTML Standard exactly (what a browser does; the conformance
    /// tests use it).
    Browser,
    /// The standard, except that a declared legacy encoding gives way to
    /// UTF-8 when the bytes are valid, non-ASCII UTF-8.
    #[default]
    Crawler,
}

/// The standard's confidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Confidence {
    /// A later `<meta>` may still change the encoding.
    Tentative,
    /// Final.
    Certain,
    /// The input was not bytes (e.g. `srcdoc`, `document.write` text); only
    /// [`Determination::irrelevant`] produces it.
    Irrelevant,
}

impl Confidence {
    /// Lower-case name, as the standard writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Confidence::Tentative => "tentative",
            Confidence::Certain => "certain",
            Confidence::Irrelevant => "irrelevant",
        }
    }
}

/// Which step decided the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// A byte order mark.
    Bom,
    /// The HTTP `Content-Type` charset.
    Http,
    /// A `<meta>` in the prescan window, or one met later by the tokenizer
    /// ([`crate::Determination::change_the_encoding`]).
    Meta,
    /// An XML declaration (see [`crate::prescan`] for exactly which).
    Xml,
    /// The detector (or its valid-UTF-8 fast path).
    Detector,
    /// The default for all-ASCII input.
    Default,
    /// [`Policy::Crawler`] overrode a declared legacy encoding with UTF-8.
    Utf8Valid,
    /// Text input; see [`Confidence::Irrelevant`].
    Text,
}

impl Step {
    /// A short name for reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Bom => "BOM",
            Step::Http => "HTTP",
            Step::Meta => "meta",
            Step::Xml => "XML",
            Step::Detector => "detector",
            Step::Default => "default",
            Step::Utf8Valid => "utf8-valid",
            Step::Text => "text",
        }
    }
}

/// The outcome of determining the encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Determination {
    /// The encoding to decode with.
    pub encoding: &'static Encoding,
    /// Which step decided it.
    pub step: Step,
    /// The standard's confidence.
    pub confidence: Confidence,
    /// With [`Step::Utf8Valid`]: what the standard would have used and the
    /// step that declared it.
    pub declared: Option<(&'static Encoding, Step)>,
}

impl Determination {
    /// For input that is already text: UTF-8, confidence irrelevant.
    pub fn irrelevant() -> Self {
        Determination {
            encoding: UTF_8,
            step: Step::Text,
            confidence: Confidence::Irrelevant,
            declared: None,
        }
    }

    fn new(encoding: &'static Encoding, step: Step, confidence: Confidence) -> Self {
        Determination {
            encoding,
            step,
            confidence,
            declared: None,
        }
    }
}

/// How much of the page the detector is fed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetectorInput {
    /// Every byte.
    Whole,
    /// The bytes up to the first non-ASCII byte (or ESC) plus this many.
    AfterFirstNonAscii(usize),
    /// The bytes up to the first non-ASCII byte (or ESC) plus 1 KiB, then
    /// plus 2, 4, … KiB up to this many, stopping as soon as the detector's
    /// guess is the same at two of these points in a row.
    UntilStable(usize),
}

/// The default detector input: until the guess is stable, at most 8 KiB
/// after the first non-ASCII byte. The detector (chardetng) runs at about
/// 20 MB/s, so on pages that need it, it cost more than tokenizing; on the
/// 539 corpus pages that reach it, stopping at a stable guess feeds it 28 %
/// of the bytes of a fixed 8 KiB window. Accuracy on the 249 labelled pages
/// (`tests/corpus.rs`): the Crawler policy stays at 249; chardetng alone
/// without a TLD hint gets 232 right, against 233 with the fixed window
/// and 234 with the whole page. With the pages' TLDs, 4 of the 539 pages
/// get another guess than with the fixed window: two BOM-less UTF-16 pages
/// (which the Crawler policy recognizes before the detector), one page
/// where the stable guess is the whole page's guess, and one where it is
/// not.
pub const DEFAULT_DETECTOR_INPUT: DetectorInput = DetectorInput::UntilStable(8 * 1024);

/// [`DetectorInput::UntilStable`]'s first point, after the first non-ASCII
/// byte.
const STABLE_FIRST_STEP: usize = 1024;

/// Runs the detector on `bytes` (the whole document when `complete`) as
/// `input` says, `first` being the first non-ASCII byte or ESC (or the
/// length); returns its guess, UTF-8 allowed, and how many bytes of `bytes`
/// it was fed.
fn run_detector(
    input: DetectorInput,
    bytes: &[u8],
    first: usize,
    complete: bool,
    tld: Option<&[u8]>,
) -> (&'static Encoding, usize) {
    let mut det = EncodingDetector::new();
    // The end of a window of `n` bytes after `first`, and whether it is the
    // end of the document.
    let window = |n: usize| match first.checked_add(n) {
        Some(end) if end < bytes.len() => (end, false),
        _ => (bytes.len(), complete),
    };
    match input {
        DetectorInput::Whole => {
            det.feed(bytes, complete);
            (det.guess(tld, true), bytes.len())
        }
        DetectorInput::AfterFirstNonAscii(n) => {
            let (end, last) = window(n);
            det.feed(&bytes[..end], last);
            (det.guess(tld, true), end)
        }
        DetectorInput::UntilStable(max) => {
            let mut fed = 0;
            let mut n = STABLE_FIRST_STEP.min(max);
            let mut previous = None;
            loop {
                let (end, last) = window(n);
                det.feed(&bytes[fed..end], last);
                fed = end;
                let guess = det.guess(tld, true);
                if end == bytes.len() || n >= max || previous == Some(guess) {
                    return (guess, fed);
                }
                previous = Some(guess);
                n = n.saturating_mul(2).min(max);
            }
        }
    }
}

/// The inputs besides the bytes, and the policy: build once per page (or
/// once per crawl and change the headers/URL per page).
#[derive(Clone, Debug)]
pub struct Sniffer<'h> {
    policy: Policy,
    content_type: Vec<&'h [u8]>,
    tld: Option<Vec<u8>>,
    detector_input: DetectorInput,
}

impl Default for Sniffer<'_> {
    fn default() -> Self {
        Sniffer::new(Policy::default())
    }
}

impl<'h> Sniffer<'h> {
    /// A sniffer with no headers and no URL.
    pub fn new(policy: Policy) -> Self {
        Sniffer {
            policy,
            content_type: Vec::new(),
            tld: None,
            detector_input: DEFAULT_DETECTOR_INPUT,
        }
    }

    /// Adds one `Content-Type` header value (call once per header field, in
    /// order).
    pub fn content_type(mut self, value: &'h [u8]) -> Self {
        self.content_type.push(value);
        self
    }

    /// The page's URL; only its TLD is used (as the detector's hint). A URL
    /// that does not parse, or whose host is not a domain, gives no hint.
    pub fn url(mut self, url: &str) -> Self {
        self.tld = tld_of(url);
        self
    }

    /// How much the detector is fed.
    pub fn detector_input(mut self, input: DetectorInput) -> Self {
        self.detector_input = input;
        self
    }

    /// The detector input setting.
    pub(crate) fn detector_input_setting(&self) -> DetectorInput {
        self.detector_input
    }

    /// The policy.
    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Determines the encoding of the whole document `bytes`.
    pub fn determine(&self, bytes: &[u8]) -> Determination {
        self.determine_prefix(bytes, true)
    }

    /// Determines the encoding from `bytes`, which are the whole document
    /// when `complete` and only its start otherwise (streaming: the
    /// detector is then not told the stream ended, and UTF-8 validity
    /// allows an incomplete last character).
    pub fn determine_prefix(&self, bytes: &[u8], complete: bool) -> Determination {
        // 1. BOM sniffing.
        if let Some((e, _)) = Encoding::for_bom(bytes) {
            return Determination::new(e, Step::Bom, Confidence::Certain);
        }
        let lookup: LabelLookup = match self.policy {
            Policy::Browser => Encoding::for_label,
            Policy::Crawler => crawler_label,
        };
        // 4. The transport layer's encoding.
        let spec = if let Some(e) = charset_from_content_type_with(&self.content_type, lookup) {
            Determination::new(e, Step::Http, Confidence::Certain)
        } else if let Some(found) = prescan_with(&bytes[..bytes.len().min(PRESCAN_WINDOW)], lookup)
        {
            // 5. Prescan.
            let step = match found {
                Found::Meta(_) => Step::Meta,
                Found::Xml(_) => Step::Xml,
            };
            Determination::new(found.encoding(), step, Confidence::Tentative)
        } else {
            // 8-9. Detector, default.
            return self.detect(bytes, complete);
        };
        // The crawler's rule over a declared legacy encoding.
        if self.policy == Policy::Crawler
            && spec.encoding != UTF_8
            && spec.encoding != UTF_16BE
            && spec.encoding != UTF_16LE
            && is_non_ascii_utf8(bytes, complete)
        {
            return Determination {
                encoding: UTF_8,
                step: Step::Utf8Valid,
                confidence: Confidence::Certain,
                declared: Some((spec.encoding, spec.step)),
            };
        }
        spec
    }

    /// Steps 8-9: the detector, with its fast paths, else the default.
    fn detect(&self, bytes: &[u8], complete: bool) -> Determination {
        // Crawler: BOM-less UTF-16 (a browser shows such pages as mojibake).
        if self.policy == Policy::Crawler
            && let Some(e) = bomless_utf16(bytes)
        {
            return Determination::new(e, Step::Detector, Confidence::Tentative);
        }
        let tld = self.tld.as_deref();
        let Some(first) = first_non_ascii_or_esc(bytes) else {
            // Pure ASCII fast path → default: the TLD's legacy encoding.
            let e = EncodingDetector::new().guess(tld, false);
            return Determination::new(e, Step::Default, Confidence::Tentative);
        };
        // Valid-UTF-8 fast path (non-ASCII or ESC present).
        if bytes[first] >= 0x80 && is_utf8(&bytes[first..], complete) {
            // The Crawler knows every byte is valid UTF-8: a `<meta>` met
            // later must not switch to a legacy encoding, so: certain.
            let confidence = if self.policy == Policy::Crawler && complete {
                Confidence::Certain
            } else {
                Confidence::Tentative
            };
            return Determination::new(UTF_8, Step::Detector, confidence);
        }
        let (e, fed) = run_detector(self.detector_input, bytes, first, complete, tld);
        let fed = &bytes[..fed];
        // Crawler: when the TLD's default is windows-1252 and every non-ASCII
        // byte the detector saw is a symbol or punctuation there (£ € © ’ –
        // NBSP…), the page has no accented letter at all in that reading;
        // the detector's letter statistics have nothing to go on, and its
        // guess (e.g. windows-1250, where £ is Ł) is noise.
        if self.policy == Policy::Crawler
            && e != encoding_rs::WINDOWS_1252
            && EncodingDetector::new().guess(tld, false) == encoding_rs::WINDOWS_1252
            && fed[first..]
                .iter()
                .all(|&b| b < 0x80 && b != 0x1B || is_windows_1252_symbol(b))
        {
            return Determination::new(
                encoding_rs::WINDOWS_1252,
                Step::Detector,
                Confidence::Tentative,
            );
        }
        Determination::new(e, Step::Detector, Confidence::Tentative)
    }
}

/// Whether byte `b` ≥ 0x80 is, in windows-1252, a symbol, punctuation mark
/// or space rather than a letter (and not one of its five unmapped bytes):
/// € ‚ „ … † ‡ ‰ ‹ ‘ ’ “ ” • – — ˜ ™ ›, NBSP to ¿ except ª µ º, × and ÷.
fn is_windows_1252_symbol(b: u8) -> bool {
    matches!(b, 0x80 | 0x82 | 0x84..=0x87 | 0x89 | 0x8B | 0x91..=0x99 | 0x9B | 0xA0..=0xBF | 0xD7 | 0xF7)
        && !matches!(b, 0xAA | 0xB5 | 0xBA)
}

/// The crawler's *get an encoding*: the standard's label table, then a few
/// names that real pages declare and the table lacks (Python/IANA codec
/// names for encodings the standard has).
pub fn crawler_label(label: &[u8]) -> Option<&'static Encoding> {
    if let Some(e) = Encoding::for_label(label) {
        return Some(e);
    }
    let label = label.trim_ascii().to_ascii_lowercase();
    Some(match label.as_slice() {
        b"maccyrillic" | b"mac-cyrillic" | b"mac_cyrillic" | b"x-mac-ukrainian" => {
            encoding_rs::X_MAC_CYRILLIC
        }
        b"euc_kr" | b"cp949" | b"uhc" => encoding_rs::EUC_KR,
        b"euc_jp" | b"eucjp" => encoding_rs::EUC_JP,
        b"cp932" => encoding_rs::SHIFT_JIS,
        b"cp950" | b"big5hkscs" | b"big5_hkscs" => encoding_rs::BIG5,
        b"cp874" => encoding_rs::WINDOWS_874,
        b"utf_8" | b"utf-8-sig" => UTF_8,
        _ => return None,
    })
}

/// BOM-less UTF-16: in the first 4 KiB, at least 40% of the bytes at one
/// parity are NUL and almost none (< 2%) at the other (ASCII markup encoded
/// as UTF-16). Needs at least 64 bytes.
fn bomless_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(4096) & !1];
    if head.len() < 64 {
        return None;
    }
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in head.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let half = head.len() / 2;
    if even * 10 >= half * 4 && odd * 50 < half {
        Some(UTF_16BE)
    } else if odd * 10 >= half * 4 && even * 50 < half {
        Some(UTF_16LE)
    } else {
        None
    }
}

/// chardetng alone on `bytes` (as much as `input` says, UTF-8 allowed):
/// for measurements; [`Sniffer::determine`] is the real thing. `tld` must
/// be in the form [`tld_of`] returns (anything else is ignored).
pub fn detect_only(bytes: &[u8], input: DetectorInput, tld: Option<&[u8]>) -> &'static Encoding {
    let tld = tld.filter(|t| {
        !t.is_empty()
            && t.iter()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
    });
    let first = first_non_ascii_or_esc(bytes).unwrap_or(bytes.len());
    run_detector(input, bytes, first, true, tld).0
}

/// The first byte that is not ASCII or is ESC — where the detector's
/// evidence starts — or `None`. `Encoding::ascii_valid_up_to` finds the
/// first non-ASCII byte a word at a time (all-ASCII pages are scanned
/// whole, at several bytes per instruction instead of one); ESC is then
/// searched before it with `memchr`.
pub(crate) fn first_non_ascii_or_esc(bytes: &[u8]) -> Option<usize> {
    let ascii = Encoding::ascii_valid_up_to(bytes);
    memchr::memchr(0x1B, &bytes[..ascii]).or((ascii < bytes.len()).then_some(ascii))
}

/// Whether `bytes` are valid UTF-8 (an incomplete last character is allowed
/// when the input is a prefix).
fn is_utf8(bytes: &[u8], complete: bool) -> bool {
    match std::str::from_utf8(bytes) {
        Ok(_) => true,
        Err(e) => !complete && e.error_len().is_none(),
    }
}

/// Valid UTF-8 with at least one non-ASCII byte.
pub(crate) fn is_non_ascii_utf8(bytes: &[u8], complete: bool) -> bool {
    let ascii = Encoding::ascii_valid_up_to(bytes);
    ascii < bytes.len() && is_utf8(&bytes[ascii..], complete)
}

/// The rightmost label of the URL's host, when it is a domain, in the form
/// chardetng accepts (lower-case ASCII, no dots); `None` otherwise.
pub fn tld_of(url: &str) -> Option<Vec<u8>> {
    let url = spinneret_url::Url::parse(url).ok()?;
    if url.host_kind() != spinneret_url::HostKind::Domain {
        return None;
    }
    let host = url.hostname();
    let host = host.strip_suffix('.').unwrap_or(host);
    let label = host.rsplit('.').next()?;
    let ok = !label.is_empty()
        && label
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    ok.then(|| label.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    #[test]
    fn first_non_ascii_or_esc_is_the_first_such_byte() {
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 64, 70] {
            for pos in 0..len {
                for b in [0x1B, 0x7F, 0x80, 0xC3, 0xFF, 0x00] {
                    let mut v = vec![b'a'; len];
                    v[pos] = b;
                    let want = v.iter().position(|&c| c >= 0x80 || c == 0x1B);
                    assert_eq!(
                        super::first_non_ascii_or_esc(&v),
                        want,
                        "{b:#x} at {pos}/{len}"
                    );
                    // ESC after a non-ASCII byte, and before one.
                    if pos + 1 < len {
                        v[pos + 1] = if b == 0x1B { 0x80 } else { 0x1B };
                        let want = v.iter().position(|&c| c >= 0x80 || c == 0x1B);
                        assert_eq!(super::first_non_ascii_or_esc(&v), want, "{v:?}");
                    }
                }
            }
        }
    }

    use super::*;
    use encoding_rs::*;

    fn browser() -> Sniffer<'static> {
        Sniffer::new(Policy::Browser)
    }

    #[test]
    fn order_bom_http_meta_detector() {
        let page = "<meta charset=gbk>\u{e9}".as_bytes();
        let mut bom = b"\xEF\xBB\xBF".to_vec();
        bom.extend_from_slice(page);
        let d = browser()
            .content_type(b"text/html; charset=big5")
            .determine(&bom);
        assert_eq!(
            (d.encoding, d.step, d.confidence),
            (UTF_8, Step::Bom, Confidence::Certain)
        );
        let d = browser()
            .content_type(b"text/html; charset=big5")
            .determine(page);
        assert_eq!(
            (d.encoding, d.step, d.confidence),
            (BIG5, Step::Http, Confidence::Certain)
        );
        let d = browser()
            .content_type(b"text/html; charset=bogus")
            .determine(page);
        assert_eq!(
            (d.encoding, d.step, d.confidence),
            (GBK, Step::Meta, Confidence::Tentative)
        );
        let d = browser().determine(b"\xFF\xFEa\0");
        assert_eq!((d.encoding, d.step), (UTF_16LE, Step::Bom));
        let d = browser().determine(b"\xFE\xFF\0a");
        assert_eq!((d.encoding, d.step), (UTF_16BE, Step::Bom));
    }

    #[test]
    fn default_follows_the_tld() {
        let d = browser().determine(b"<p>hello");
        assert_eq!((d.encoding, d.step), (WINDOWS_1252, Step::Default));
        let d = browser().url("http://example.ru/").determine(b"<p>hello");
        assert_eq!(d.encoding, WINDOWS_1251);
        let d = browser().url("http://example.jp./").determine(b"<p>hello");
        assert_eq!(d.encoding, SHIFT_JIS);
        // Hosts that are not domains, and nonsense URLs, give no hint.
        let d = browser().url("http://192.168.0.1/").determine(b"x");
        assert_eq!(d.encoding, WINDOWS_1252);
        let d = browser().url("not a url").determine(b"x");
        assert_eq!(d.encoding, WINDOWS_1252);
        assert_eq!(
            tld_of("http://xn--p1ai.xn--p1ai/"),
            Some(b"xn--p1ai".to_vec())
        );
        assert_eq!(tld_of("http://\u{440}\u{444}/"), Some(b"xn--p1ai".to_vec()));
    }

    #[test]
    fn detector_and_fast_paths() {
        let d = browser().determine("<p>caf\u{e9}".as_bytes());
        assert_eq!((d.encoding, d.step), (UTF_8, Step::Detector));
        let (cp1251, _, _) = WINDOWS_1251.encode("<p>Привет, как дела? Всё хорошо, спасибо.");
        let d = browser().determine(&cp1251);
        assert_eq!((d.encoding, d.step), (WINDOWS_1251, Step::Detector));
        let (sjis, _, _) = SHIFT_JIS.encode("<p>日本語のテキストです。これは検出のテストです。");
        assert_eq!(browser().determine(&sjis).encoding, SHIFT_JIS);
    }

    #[test]
    fn crawler_overrides_declared_legacy_with_valid_utf8() {
        let page = "<meta charset=iso-8859-1><p>caf\u{e9}".as_bytes();
        let d = browser().determine(page);
        assert_eq!((d.encoding, d.step), (WINDOWS_1252, Step::Meta));
        let d = Sniffer::new(Policy::Crawler).determine(page);
        assert_eq!(
            (d.encoding, d.step, d.confidence),
            (UTF_8, Step::Utf8Valid, Confidence::Certain)
        );
        assert_eq!(d.declared, Some((WINDOWS_1252, Step::Meta)));
        // Pure ASCII or invalid UTF-8: the declaration stands.
        let d = Sniffer::new(Policy::Crawler).determine(b"<meta charset=iso-8859-1><p>cafe");
        assert_eq!(d.encoding, WINDOWS_1252);
        let d = Sniffer::new(Policy::Crawler).determine(b"<meta charset=iso-8859-1><p>caf\xE9");
        assert_eq!(d.encoding, WINDOWS_1252);
        // HTTP declarations too.
        let d = Sniffer::new(Policy::Crawler)
            .content_type(b"text/html; charset=windows-1251")
            .determine("\u{44f}".as_bytes());
        assert_eq!(
            (d.encoding, d.declared),
            (UTF_8, Some((WINDOWS_1251, Step::Http)))
        );
    }

    #[test]
    fn crawler_labels_extend_the_standard() {
        assert_eq!(crawler_label(b"MacCyrillic"), Some(X_MAC_CYRILLIC));
        assert_eq!(crawler_label(b" euc_kr "), Some(EUC_KR));
        assert_eq!(crawler_label(b"latin1"), Some(WINDOWS_1252));
        assert_eq!(crawler_label(b"nonsense"), None);
        assert_eq!(Encoding::for_label(b"MacCyrillic"), None);
        let page = b"<?xml version='1.0' encoding='MacCyrillic'?><r>\xcf</r>";
        assert_eq!(browser().determine(page).step, Step::Detector);
        let d = Sniffer::new(Policy::Crawler).determine(page);
        assert_eq!((d.encoding, d.step), (X_MAC_CYRILLIC, Step::Xml));
    }

    #[test]
    fn label_edge_cases() {
        // get an encoding trims ASCII whitespace and is case-insensitive.
        assert_eq!(Encoding::for_label(b"\t UTF-8\x0c"), Some(UTF_8));
        assert_eq!(Encoding::for_label(b"utf 8"), None);
        assert_eq!(Encoding::for_label(b"latin1"), Some(WINDOWS_1252));
        assert_eq!(Encoding::for_label(b"ascii"), Some(WINDOWS_1252));
        assert_eq!(Encoding::for_label(b"gb2312"), Some(GBK));
        assert_eq!(Encoding::for_label(b"tis-620"), Some(WINDOWS_874));
        assert_eq!(Encoding::for_label(b"utf-16"), Some(UTF_16LE));
        assert_eq!(Encoding::for_label(b"hz-gb-2312"), Some(REPLACEMENT));
        assert_eq!(Encoding::for_label(b"utf-32"), None);
        // In a meta, x-user-defined and UTF-16 are remapped.
        let d = browser().determine(b"<meta charset=utf-16>");
        assert_eq!(d.encoding, UTF_8);
        let d = browser().determine(b"<meta charset=x-user-defined>");
        assert_eq!(d.encoding, WINDOWS_1252);
        // Over HTTP they are not (the transport layer is authoritative).
        let d = browser()
            .content_type(b"text/html;charset=utf-16be")
            .determine(b"\0a");
        assert_eq!(d.encoding, UTF_16BE);
        let d = browser()
            .content_type(b"text/html;charset=x-user-defined")
            .determine(b"a");
        assert_eq!(d.encoding, X_USER_DEFINED);
    }

    #[test]
    fn bomless_utf16_for_the_crawler() {
        let text = "<html><body>plain text in utf-16 without a byte order mark</body></html>";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        let crawler = Sniffer::new(Policy::Crawler);
        assert_eq!(crawler.determine(&le).encoding, UTF_16LE);
        assert_eq!(crawler.determine(&be).encoding, UTF_16BE);
        assert_ne!(browser().determine(&le).encoding, UTF_16LE);
        assert_eq!(crawler.determine(&[0u8; 10]).encoding, WINDOWS_1252);
    }

    #[test]
    fn prefix_mode_allows_a_cut_character() {
        let bytes = "\u{44f}\u{44f}".as_bytes();
        let cut = &bytes[..3];
        assert_eq!(browser().determine_prefix(cut, false).encoding, UTF_8);
        assert_ne!(browser().determine_prefix(cut, true).encoding, UTF_8);
    }

    #[test]
    fn crawler_reads_symbol_only_pages_as_windows_1252() {
        // Only symbols in windows-1252 (two pounds): no letter evidence.
        let page = b"<p>if they draw I win \xA3825, not bad for a \xA32 bet</p>";
        let d = Sniffer::new(Policy::Crawler).determine(page);
        assert_eq!(
            (d.encoding, d.step),
            (encoding_rs::WINDOWS_1252, Step::Detector)
        );
        // A letter in the windows-1252 reading (0xF3 = ó): the detector decides.
        let page = b"<p>\xA3\xF3d\xBC \xB3\xF3d\xBC</p>";
        let d = Sniffer::new(Policy::Crawler).determine(page);
        assert_eq!(d.encoding, detect_only(page, DetectorInput::Whole, None));
        assert!(is_windows_1252_symbol(0xA3) && is_windows_1252_symbol(0x92));
        assert!(
            !is_windows_1252_symbol(0xAA)
                && !is_windows_1252_symbol(0x81)
                && !is_windows_1252_symbol(0xE9)
        );
    }
}
