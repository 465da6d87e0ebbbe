//! Differential test against Ada (the `ada-url` crate, another WHATWG URL
//! Standard implementation): both parsers must give the same `href`, or both
//! fail, on
//!
//! - every line of every `corpus/urls/*.txt` list, parsed without a base;
//! - every link of `corpus/urls/extracted_links.tsv.gz`, resolved against its
//!   page URL (spinneret parses each page URL once and uses
//!   [`Url::parse_with_base`]; Ada gets the page URL string as its base), and
//!   — when the page has a `<base href>` — also against the document base URL
//!   that HTML derives from it (the `base_href` value parsed against the page
//!   URL; if that fails, the page URL: HTML's "frozen base URL" with the
//!   document's fallback base URL);
//! - a deterministic stream of generated and mutated inputs (a fixed-seed
//!   xorshift generator), parsed with and without a base.
//!
//! Simplifications, the same for both parsers: queries are encoded as UTF-8
//! (HTML would use the document's encoding; the corpus text is already
//! decoded), and CSP's `base-uri` check on `<base>` is not modelled.
//!
//! Ada follows the current standard closely, but not everywhere. A
//! disagreement is accepted only when [`known_difference`] recognises it as
//! one of a few documented *classes* of spec-vs-Ada difference, by a
//! structural rule; there is no list of inputs to skip. Every disagreement is
//! printed (input, base, ours, Ada's; known ones up to a few examples per
//! class), with summary counts, and the test fails on any unexplained one.

use spinneret_testdata::Rng;
use spinneret_url::{HostKind, ParseError, Url};
use std::collections::{BTreeMap, HashMap};

/// How many examples of each known class to print.
const KNOWN_EXAMPLES: usize = 10;
/// How many unexplained disagreements to print in full (all are counted).
const UNEXPLAINED_PRINTED: usize = 2000;

fn ada_href(input: &str, base: Option<&str>) -> Option<String> {
    ada_url::Url::parse(input, base)
        .ok()
        .map(|u| u.href().to_owned())
}

fn ours_href(input: &str, base: Option<&Url>) -> Option<String> {
    match base {
        Some(b) => Url::parse_with_base(input, b)
            .ok()
            .map(|u| u.href().to_owned()),
        None => Url::parse(input).ok().map(|u| u.href().to_owned()),
    }
}

// ---------------------------------------------------------------------------
// The classifier of known spec-vs-Ada differences.
// ---------------------------------------------------------------------------
//
// Every class found is in UTS #46 ToASCII of a non-ASCII domain (an ASCII
// domain is only lowercased, by both). Ada 4.0 agrees with the current
// standard on the two differences one might expect from an older Ada — an
// ASCII host with an invalid `xn--` label (lowercased, no ToASCII) and a
// space before `?`/`#` in an opaque path (`%20`, the 2025 change) — so those
// are deliberately not classes: a difference there would be a bug.

/// Class 1: UTS #46's Bidi rule across labels, which Ada does not apply.
const BIDI_ACROSS_LABELS: &str = "Ada applies RFC 5893's Bidi rule only to labels that themselves contain \
     right-to-left characters; UTS #46 (CheckBidi=true in the domain parser ToASCII) applies it to every \
     label of a Bidi domain name, so e.g. `ا.1a` fails in the standard (label `1a` starts with a \
     European digit) but not in Ada";

/// Class 2: Ada's per-character Unicode property data is older than the
/// Unicode 17 data of its own IDNA mapping table (and of ICU4X, which
/// spinneret's `idna` uses).
const STALE_CHARACTER_DATA: &str = "Ada's Bidi_Class / General_Category data predates Unicode 14-17: \
     characters added since (e.g. Arabic Extended-B U+0870-U+089F, the Unicode 17 combining marks \
     U+1AC1-U+1AEB) are not Bidi AL/R or not marks to Ada, and characters whose properties changed in \
     Unicode 14 (U+1734, U+1171E: now Mc and Bidi L) keep their old values, so UTS #46's Bidi rule and \
     its \"no leading combining mark\" criterion (V6) give other verdicts than in the standard";

/// Class 3: Ada's normalization data lacks recent canonical combining
/// classes.
const STALE_COMBINING_CLASSES: &str = "Ada's NFC does not know the canonical combining class of marks added \
     in Unicode 16/17 (e.g. U+1AD3), so UTS #46's normalization step leaves a sequence such as \
     U+1AD3 U+094D in input order where NFC puts the lower class (U+094D, ccc 9) first: same code points, \
     other order, other Punycode";

/// Class 4: Ada's Punycode decoder accepts what RFC 3492 rejects.
const PUNYCODE_EMPTY_BASIC: &str = "Ada's Punycode decoder accepts a label `xn---X` (X without `-`): a \
     delimiter with no basic code points before it. RFC 3492 (section 6.2) consumes the last delimiter \
     only when code points were copied before it, so the leading `-` is then read as a digit, which \
     fails; UTS #46 therefore records an error and the standard's domain parser fails";

/// Recognises a *class* of known difference between the standard (which
/// spinneret implements) and Ada, and returns its explanation.
///
/// `base` is the base URL string Ada was given (spinneret parsed the same
/// string); `ours`/`ada` are the two hrefs, `None` for failure. When the
/// parsers already disagree on the base, the base is what is classified.
///
/// Every rule first requires that the difference lies in ToASCII alone:
/// - when one parser fails (spinneret, if it is the one, with
///   `DomainToAscii`), the other's href `S` has a domain, and both parsers
///   parse `S` (whose host is ASCII: no ToASCII runs) to exactly `S`;
/// - when both succeed, both parse both hrefs to themselves, and the two
///   URLs differ in the hostname and nothing else.
///
/// Then, on the host of the parser that succeeded, with its labels
/// Punycode-decoded:
///
/// 4. [`PUNYCODE_EMPTY_BASIC`] (checked first): spinneret fails; the host
///    has a label `xn---X` with no other `-` in X, and with each such label
///    written `xn--X` (the same code points, canonically encoded) spinneret's
///    ToASCII accepts the host, or the rewritten host is itself explained by
///    another class.
/// 2. [`STALE_CHARACTER_DATA`]: no decoded label starts with `xn--`
///    (validity criterion V4, a different matter); the host holds a
///    non-ASCII code point `c` on which the parsers already disagree, in the
///    same direction, in a minimal probe domain (`ca`, `ac` or `اc`): the
///    difference comes from what each parser knows about `c`.
/// 1. [`BIDI_ACROSS_LABELS`]: spinneret fails; none of the above; the host
///    is a Bidi domain name (holds an R, AL or AN character, by Unicode
///    block); spinneret's ToASCII rejects the host, yet accepts every label
///    on its own, or accepts the host once every label without a
///    right-to-left letter is replaced by `a`. Either way the failure lies
///    in labels that Ada does not Bidi-check, and — with the other classes
///    ruled out — in nothing but the Bidi rule (Ada checks UTS #46's other
///    criteria on every label too).
/// 3. [`STALE_COMBINING_CLASSES`]: both succeed; label by label the decoded
///    hosts hold the same code points, in another order.
fn known_difference(
    input: &str,
    base: Option<&str>,
    ours: Option<&str>,
    ada: Option<&str>,
) -> Option<&'static str> {
    if let Some(b) = base {
        let (ours_base, ada_base) = (ours_href(b, None), ada_href(b, None));
        if ours_base != ada_base {
            return known_difference(b, None, ours_base.as_deref(), ada_base.as_deref());
        }
    }
    let reparses = |s: &str| {
        ours_href(s, None).as_deref() == Some(s) && ada_href(s, None).as_deref() == Some(s)
    };
    let domain_of = |s: &str| {
        Url::parse(s)
            .ok()
            .filter(|u| u.host_kind() == HostKind::Domain)
    };
    match (ours, ada) {
        (Some(ours), Some(ada)) => {
            let (o, a) = (domain_of(ours)?, domain_of(ada)?);
            let same_but_host = o.protocol() == a.protocol()
                && o.username() == a.username()
                && o.password() == a.password()
                && o.port() == a.port()
                && o.pathname() == a.pathname()
                && o.query() == a.query()
                && o.fragment() == a.fragment();
            if !(reparses(ours) && reparses(ada) && same_but_host) {
                return None;
            }
            is_reordering(o.hostname(), a.hostname()).then_some(STALE_COMBINING_CLASSES)
        }
        (None, Some(success)) | (Some(success), None) => {
            let ours_ok = ours.is_some();
            if !ours_ok {
                let ours_err = match base {
                    Some(b) => Url::parse(b)
                        .and_then(|b| Url::parse_with_base(input, &b))
                        .err(),
                    None => Url::parse(input).err(),
                };
                if ours_err != Some(ParseError::DomainToAscii) {
                    return None;
                }
            }
            let url = domain_of(success)?;
            if !reparses(success) {
                return None;
            }
            classify_host(url.hostname(), ours_ok)
        }
        _ => None,
    }
}

/// Whether spinneret's domain parser accepts `domain`. U+00AD SOFT HYPHEN
/// is mapped to nothing by UTS #46: appending it forces the non-ASCII path
/// (full ToASCII) without changing the domain; the final label `a` keeps the
/// domain from ending in a number (no IPv4 parsing) and is valid in any
/// domain, Bidi or not.
fn ours_accepts_domain(domain: &str) -> bool {
    Url::parse(&format!("http://{domain}.a\u{AD}/")).is_ok()
}

/// Classes 1, 2 and 4, on the host of the parser that succeeded; see
/// [`known_difference`].
fn classify_host(host: &str, ours_ok: bool) -> Option<&'static str> {
    let labels: Vec<Vec<char>> = host.split('.').map(decode_label).collect();
    if !ours_ok && host.split('.').any(is_empty_basic_label) {
        let fixed: Vec<String> = host
            .split('.')
            .map(|l| {
                if is_empty_basic_label(l) {
                    format!("xn--{}", &l[5..])
                } else {
                    l.to_owned()
                }
            })
            .collect();
        let fixed = fixed.join(".");
        let explained = !ours_accepts_domain(host)
            && (ours_accepts_domain(&fixed) || classify_host(&fixed, false).is_some());
        return explained.then_some(PUNYCODE_EMPTY_BASIC);
    }
    let v4 = labels.iter().any(|l| l.starts_with(&['x', 'n', '-', '-']));
    if v4 {
        return None;
    }
    let stale = labels
        .iter()
        .flatten()
        .any(|&c| is_stale_character(c, ours_ok));
    if stale {
        return Some(STALE_CHARACTER_DATA);
    }
    if !ours_ok && is_bidi_across_labels(host, &labels) {
        return Some(BIDI_ACROSS_LABELS);
    }
    None
}

/// A label `xn---X` with no `-` in X: Punycode with a delimiter but no
/// basic code points before it.
fn is_empty_basic_label(label: &str) -> bool {
    label
        .get(..5)
        .is_some_and(|p| p.eq_ignore_ascii_case("xn---"))
        && !label[5..].contains('-')
}

/// Rule of class 1 (after classes 2 and 4 are ruled out); see
/// [`known_difference`].
fn is_bidi_across_labels(host: &str, labels: &[Vec<char>]) -> bool {
    // Only the labels with a right-to-left letter, each other label replaced
    // by `a` (an LTR label that is valid in any domain).
    let reduced: Vec<&str> = host
        .split('.')
        .zip(labels)
        .map(|(raw, chars)| {
            if raw.is_empty() || chars.iter().any(|&c| is_rtl_letter(c)) {
                raw
            } else {
                "a"
            }
        })
        .collect();
    // Or: every label on its own is valid, so what fails spans labels.
    let each_label_valid = host
        .split('.')
        .filter(|l| !l.is_empty())
        .all(ours_accepts_domain);
    labels.iter().flatten().any(|&c| is_rtl(c))
        && (each_label_valid || ours_accepts_domain(&reduced.join(".")))
        && !ours_accepts_domain(host)
}

/// Rule of class 2 for one code point; see [`known_difference`].
fn is_stale_character(c: char, ours_ok: bool) -> bool {
    !c.is_ascii()
        && [format!("{c}a"), format!("a{c}"), format!("\u{627}{c}")]
            .iter()
            .any(|probe| {
                let url = format!("http://{probe}/");
                Url::parse(&url).is_ok() == ours_ok
                    && ada_url::Url::parse(&url, None).is_ok() != ours_ok
            })
}

/// Rule of class 3; see [`known_difference`].
fn is_reordering(ours: &str, ada: &str) -> bool {
    let (o, a): (Vec<&str>, Vec<&str>) = (ours.split('.').collect(), ada.split('.').collect());
    o.len() == a.len()
        && ours != ada
        && o.iter().zip(&a).all(|(o, a)| {
            let (mut o_chars, mut a_chars) = (decode_label(o), decode_label(a));
            o_chars.sort_unstable();
            a_chars.sort_unstable();
            o == a || (!o_chars.is_empty() && o_chars == a_chars)
        })
}

/// A label's code points: Punycode-decoded for an `xn--` label (empty if
/// the Punycode is invalid).
fn decode_label(label: &str) -> Vec<char> {
    match label.get(..4) {
        Some(p) if p.eq_ignore_ascii_case("xn--") => {
            punycode_decode(&label[4..]).unwrap_or_default()
        }
        _ => label.chars().collect(),
    }
}

/// Whether `c` lies in a right-to-left script block (Hebrew, Arabic, Syriac,
/// Thaana, NKo, Samaritan, Mandaic, their presentation forms, and the
/// supplementary RTL ranges): the Bidi_Class R, AL and AN characters a
/// domain can contain after UTS #46 mapping. Block-based, which is enough
/// here because the rule also checks that the failure spans labels.
fn is_rtl(c: char) -> bool {
    matches!(c as u32,
        0x0590..=0x08FF | 0xFB1D..=0xFDFF | 0xFE70..=0xFEFF | 0x10800..=0x10FFF | 0x1E800..=0x1EFFF)
}

/// [`is_rtl`] without the Arabic-Indic and Extended Arabic-Indic digits and
/// the Arabic number signs (Bidi_Class AN and EN): roughly R and AL.
fn is_rtl_letter(c: char) -> bool {
    is_rtl(c)
        && !matches!(c as u32,
            0x0600..=0x0605 | 0x0660..=0x0669 | 0x066B..=0x066C | 0x06DD | 0x06F0..=0x06F9
                | 0x0890..=0x0891 | 0x08E2 | 0x10D30..=0x10D39 | 0x10E60..=0x10E7E)
}

/// RFC 3492 Punycode decoder (the part after `xn--`).
fn punycode_decode(input: &str) -> Option<Vec<char>> {
    const BASE: u32 = 36;
    const TMIN: u32 = 1;
    const TMAX: u32 = 26;
    fn adapt(delta: u32, num_points: u32, first: bool) -> u32 {
        let mut delta = if first { delta / 700 } else { delta / 2 };
        delta += delta / num_points;
        let mut k = 0;
        while delta > ((BASE - TMIN) * TMAX) / 2 {
            delta /= BASE - TMIN;
            k += BASE;
        }
        k + (BASE - TMIN + 1) * delta / (delta + 38)
    }
    let (basic, extended) = match input.rfind('-') {
        Some(i) => (&input[..i], &input[i + 1..]),
        None => ("", input),
    };
    if !input.is_ascii() {
        return None;
    }
    let mut out: Vec<char> = basic.chars().collect();
    let (mut n, mut i, mut bias) = (128u32, 0u32, 72u32);
    let mut digits = extended.bytes();
    let mut next = digits.next();
    while next.is_some() {
        let old_i = i;
        let mut w = 1u32;
        let mut k = BASE;
        loop {
            let c = next?;
            next = digits.next();
            let digit = match c {
                b'a'..=b'z' => c - b'a',
                b'A'..=b'Z' => c - b'A',
                b'0'..=b'9' => c - b'0' + 26,
                _ => return None,
            } as u32;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = if k <= bias {
                TMIN
            } else if k >= bias + TMAX {
                TMAX
            } else {
                k - bias
            };
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let len = out.len() as u32 + 1;
        bias = adapt(i - old_i, len, old_i == 0);
        n = n.checked_add(i / len)?;
        i %= len;
        out.insert(i as usize, char::from_u32(n)?);
        i += 1;
    }
    Some(out)
}

// ---------------------------------------------------------------------------
// Comparison and reporting.
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Stats {
    total: usize,
    agree: usize,
    known: BTreeMap<&'static str, usize>,
    unexplained: usize,
    /// Cases not compared because the two parsers' document base URLs
    /// already differ (that difference is itself a compared case).
    skipped_base_differs: usize,
}

impl Stats {
    /// Compares one case: `ours` is spinneret's result, Ada parses `input`
    /// against the `base` string.
    fn compare(&mut self, what: &str, input: &str, base: Option<&str>, ours: Option<String>) {
        let ada = ada_href(input, base);
        self.total += 1;
        if ours == ada {
            self.agree += 1;
            return;
        }
        match known_difference(input, base, ours.as_deref(), ada.as_deref()) {
            Some(class) => {
                let count = self.known.entry(class).or_default();
                *count += 1;
                if *count <= KNOWN_EXAMPLES {
                    println!(
                        "known difference ({what}): input={input:?} base={base:?}\n  ours={ours:?}\n  ada ={ada:?}\n  \
                         class: {}",
                        short(class)
                    );
                }
            }
            None => {
                self.unexplained += 1;
                if self.unexplained <= UNEXPLAINED_PRINTED {
                    println!(
                        "UNEXPLAINED ({what}): input={input:?} base={base:?}\n  ours={ours:?}\n  ada ={ada:?}"
                    );
                }
            }
        }
    }

    fn finish(&self, name: &str) {
        println!("== {name} ==");
        println!("total cases:             {}", self.total);
        println!("agree:                   {}", self.agree);
        for (class, n) in &self.known {
            println!("known difference:        {n}  [{}]", short(class));
        }
        if self.skipped_base_differs > 0 {
            println!("skipped (base differs):  {}", self.skipped_base_differs);
        }
        println!("unexplained:             {}", self.unexplained);
        assert_eq!(
            self.unexplained, 0,
            "{name}: {} disagreements with Ada are not explained by a known spec-vs-Ada difference (printed above)",
            self.unexplained
        );
    }
}

fn short(class: &str) -> &str {
    class.split(';').next().unwrap_or(class)
}

// ---------------------------------------------------------------------------
// The corpus.
// ---------------------------------------------------------------------------

#[test]
fn corpus_url_lists_agree_with_ada() {
    let mut stats = Stats::default();
    let files = spinneret_testdata::files_with_suffix("corpus/urls", ".txt");
    assert!(
        files.len() >= 6,
        "expected the corpus URL lists, found {files:?}"
    );
    for file in files {
        let name = file
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        let what = format!("corpus/urls/{name}");
        for line in spinneret_testdata::lines(&what) {
            stats.compare(&what, &line, None, ours_href(&line, None));
        }
    }
    assert!(
        stats.total > 200_000,
        "only {} URLs in the lists",
        stats.total
    );
    stats.finish("corpus/urls/*.txt, no base");
}

#[test]
fn extracted_links_resolve_like_ada() {
    const WHAT: &str = "extracted_links";
    let text = spinneret_testdata::read_to_string("corpus/urls/extracted_links.tsv.gz");
    let mut rows = text.lines();
    let header = rows.next().expect("a header line");
    assert_eq!(
        header.split('\t').collect::<Vec<_>>(),
        [
            "page_id",
            "page_url",
            "base_href",
            "tag",
            "attr",
            "raw_value"
        ]
    );

    let mut stats = Stats::default();
    let mut against_page = 0usize;
    let mut against_base_href = 0usize;
    // Per page URL: spinneret's parse (once per page; also compared once).
    let mut pages: HashMap<&str, Option<Url>> = HashMap::new();
    // Per (page URL, base href): both parsers' document base URLs.
    let mut doc_bases: HashMap<(&str, &str), (Option<Url>, String)> = HashMap::new();
    for row in rows {
        let fields: Vec<&str> = row.split('\t').collect();
        assert_eq!(fields.len(), 6, "malformed row {row:?}");
        let (page_url, base_href, raw) = (fields[1], fields[2], fields[5]);

        let page = pages
            .entry(page_url)
            .or_insert_with(|| {
                let parsed = Url::parse(page_url).ok();
                stats.compare(
                    "page URL",
                    page_url,
                    None,
                    parsed.as_ref().map(|u| u.href().to_owned()),
                );
                parsed
            })
            .clone();

        // A base URL that does not parse makes resolution fail (as with
        // `new URL(input, base)`, and Ada's parse with a base).
        let ours = page.as_ref().and_then(|p| ours_href(raw, Some(p)));
        stats.compare(WHAT, raw, Some(page_url), ours);
        against_page += 1;

        if base_href.is_empty() {
            continue;
        }
        let (ours_base, ada_base) = doc_bases
            .entry((page_url, base_href))
            .or_insert_with(|| {
                // HTML: parse the <base href> value against the fallback base
                // URL (the document URL); on failure, use the fallback.
                let ours_parsed = page
                    .as_ref()
                    .and_then(|p| Url::parse_with_base(base_href, p).ok());
                stats.compare(
                    "<base href>",
                    base_href,
                    Some(page_url),
                    ours_parsed.as_ref().map(|u| u.href().to_owned()),
                );
                let ours_base = ours_parsed.or_else(|| page.clone());
                let ada_base =
                    ada_href(base_href, Some(page_url)).unwrap_or_else(|| page_url.to_owned());
                (ours_base, ada_base)
            })
            .clone();
        if ours_base.as_ref().map(|u| u.href().to_owned()) != ada_href(&ada_base, None) {
            // The base difference itself was compared (and reported) above.
            stats.skipped_base_differs += 1;
            continue;
        }
        let ours = ours_base.as_ref().and_then(|b| ours_href(raw, Some(b)));
        stats.compare("extracted_links, <base href>", raw, Some(&ada_base), ours);
        against_base_href += 1;
    }
    println!(
        "links resolved against the page URL: {against_page}; against the <base href> base: {against_base_href}"
    );
    assert!(against_page > 300_000 && against_base_href > 10_000);
    stats.finish("extracted_links.tsv.gz");
}

// ---------------------------------------------------------------------------
// Generated and mutated inputs.
// ---------------------------------------------------------------------------

/// Pieces that exercise the parser's decisions: delimiters, dot segments,
/// percent-encodings, IPv4/IPv6 forms, ports, IDNA mappings and validity
/// (ignored, mapped, disallowed, joiners, Bidi, full-width dots), Windows
/// drive letters.
const PIECES: &[&str] = &[
    ":",
    "/",
    "\\",
    "?",
    "#",
    "@",
    "[",
    "]",
    "%",
    ".",
    "%2e",
    "%2E",
    "..",
    " ",
    "\t",
    "\n",
    "é",
    "ß",
    "\u{FF0E}",
    "\u{3002}",
    "xn--",
    "0x",
    "1",
    "a",
    "A",
    "|",
    "%00",
    "\u{0}",
    "\u{1F}",
    "\u{7F}",
    "::",
    "%zz",
    "%41",
    "%ff",
    "%c3%a9",
    "ﬀ",
    "\u{200D}",
    "\u{200C}",
    "\u{AD}",
    "１",
    "~",
    "^",
    "<",
    "'",
    "{",
    "255",
    "256",
    "0",
    "09",
    "-",
    "_",
    "\u{301}",
    "\u{5D0}",
    "\u{627}",
    "\u{661}",
    "ab",
    "localhost",
    "LOCALHOST",
    "%6c",
    "4294967295",
    "0xffffffff",
    "077",
    "\u{FFFD}",
    "\u{10FFFF}",
    "\u{1F600}",
    "\u{2488}",
    "\u{24B6}",
    "\u{FDFD}",
    "\u{E000}",
    "\u{FEFF}",
    "ℌ",
    "Ⅸ",
    "\u{115F}",
    "\u{180B}",
    "xn--zca",
    "xn--nxa",
    "xn--ls8h",
    "xn--8i7caa",
    "xn--mgb",
    "c:",
    "C|",
    "8080",
    "65535",
    "65536",
    "00000000000000000080",
    "[::1]",
    "[1:2::3]",
    "::ffff:1.2.3.4",
    "1.2.3.4",
];

const SCHEMES: &[&str] = &[
    "http:",
    "https:",
    "file:",
    "ws:",
    "wss:",
    "ftp:",
    "sc:",
    "",
    "",
    "HTTP:",
    "blob:",
    "mailto:",
    "javascript:",
    "data:",
];

const BASES: &[&str] = &[
    "http://example.com/a/b?c#d",
    "https://u:p@h.example:81/?",
    "file:///C:/dir/f",
    "file://host/share/x",
    "sc://h/p/q",
    "sc:opaque?q",
    "about:blank",
    "http://[::1]:8080/x/../y/",
];

/// A URL-like string: scheme, slashes, then random pieces.
fn generated(rng: &mut Rng) -> String {
    let mut s = String::from(rng.pick(SCHEMES));
    for _ in 0..rng.below(4) {
        s.push(rng.pick(&['/', '\\']));
    }
    for _ in 0..1 + rng.below(8) {
        s.push_str(rng.pick(PIECES));
    }
    s
}

/// A URL of a special scheme whose host exercises UTS #46: labels built
/// from ASCII runs, `xn--` prefixes, random code points and characters with
/// interesting IDNA properties, joined by the four label separators.
fn generated_host(rng: &mut Rng) -> String {
    const SPECIAL: &[&str] = &[
        "http://", "https://", "ws://", "ftp://", "file://", "HTTP://",
    ];
    const SEPARATORS: &[&str] = &[".", ".", "\u{3002}", "\u{FF0E}", "%2e"];
    const CHARS: &[char] = &[
        'é',
        'ß',
        'ς',
        'Ⅸ',
        'ﬀ',
        '①',
        'Ａ',
        '\u{627}',
        '\u{5D0}',
        '\u{661}',
        '\u{6F1}',
        '\u{300}',
        '\u{94D}',
        '\u{200C}',
        '\u{200D}',
        '\u{AD}',
        '\u{FE0F}',
        '\u{873}',
        '\u{1734}',
        '\u{1AD3}',
        '\u{10D40}',
        '😀',
    ];
    const ASCII: &[u8] = b"abcxyz0189-";
    let mut s = String::from(rng.pick(SPECIAL));
    for label in 0..1 + rng.below(3) {
        if label > 0 {
            s.push_str(rng.pick(SEPARATORS));
        }
        for _ in 0..1 + rng.below(3) {
            match rng.below(5) {
                0 => s.push_str("xn--"),
                1 => s.push(rng.pick(CHARS)),
                2 => {
                    s.push(char::from_u32(0xA0 + rng.below(0x3_0000) as u32).unwrap_or('\u{FFFD}'))
                }
                _ => {
                    for _ in 0..1 + rng.below(6) {
                        s.push(char::from(rng.pick(ASCII)));
                    }
                }
            }
        }
    }
    if rng.below(2) == 0 {
        s.push_str("/p?q#f");
    }
    s
}

/// A corpus URL with one to three edits at character boundaries.
fn mutated(rng: &mut Rng, seeds: &[String]) -> String {
    let mut s = seeds[rng.below(seeds.len())].clone();
    for _ in 0..1 + rng.below(3) {
        let i = char_boundary(&s, rng.below(s.len() + 1));
        let j = next_char_boundary(&s, i);
        match rng.below(3) {
            0 => s.insert_str(i, rng.pick(PIECES)),
            1 => s.replace_range(i..j, ""),
            _ => s.replace_range(i..j, rng.pick(PIECES)),
        }
    }
    if rng.below(4) == 0 {
        // Drop the scheme: a relative reference.
        if let Some(i) = s.find(':') {
            s.replace_range(..=i, "");
        }
    }
    s
}

fn char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn next_char_boundary(s: &str, i: usize) -> usize {
    s[i..].chars().next().map_or(i, |c| i + c.len_utf8())
}

/// Three million inputs, in turn from [`generated`] (URL-like strings),
/// [`generated_host`] (hosts that exercise UTS #46) and [`mutated`] (corpus
/// URLs with edits), each parsed with no base or against one of [`BASES`].
/// Fixed seed: the same inputs on every run.
#[test]
fn generated_and_mutated_inputs_agree_with_ada() {
    const ROUNDS: usize = 3_000_000;
    let mut seeds: Vec<String> = Vec::new();
    for file in spinneret_testdata::files_with_suffix("corpus/urls", ".txt") {
        let name = file
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .into_owned();
        seeds.extend(
            spinneret_testdata::lines(&format!("corpus/urls/{name}"))
                .into_iter()
                .step_by(25),
        );
    }
    let bases: Vec<Url> = BASES
        .iter()
        .map(|b| Url::parse(b).expect("test base parses"))
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut stats = Stats::default();
    for round in 0..ROUNDS {
        let input = match round % 3 {
            0 => generated(&mut rng),
            1 => generated_host(&mut rng),
            _ => mutated(&mut rng, &seeds),
        };
        match rng.below(BASES.len() + 1) {
            k if k == BASES.len() => {
                stats.compare("generated", &input, None, ours_href(&input, None))
            }
            k => stats.compare(
                "generated",
                &input,
                Some(BASES[k]),
                ours_href(&input, Some(&bases[k])),
            ),
        }
    }
    stats.finish("generated and mutated inputs");
}

// ---------------------------------------------------------------------------
// The classifier itself.
// ---------------------------------------------------------------------------

#[test]
fn classifier_recognises_classes_precisely() {
    let classify = |input: &str, base: Option<&str>| {
        let ours = match base {
            Some(b) => Url::parse(b).ok().and_then(|b| ours_href(input, Some(&b))),
            None => ours_href(input, None),
        };
        known_difference(
            input,
            base,
            ours.as_deref(),
            ada_href(input, base).as_deref(),
        )
    };
    // The class, in the input and in the base.
    assert_eq!(
        classify("http://\u{627}.1a/", None),
        Some(BIDI_ACROSS_LABELS)
    );
    assert_eq!(
        classify("https://-.\u{5D0}/x?y", None),
        Some(BIDI_ACROSS_LABELS)
    );
    assert_eq!(
        classify("/path", Some("http://1a.\u{627}/")),
        Some(BIDI_ACROSS_LABELS)
    );
    assert_eq!(
        classify("http://\u{627}\u{873}.com/", None),
        Some(STALE_CHARACTER_DATA)
    );
    assert_eq!(
        classify("http://a.\u{1AD3}b/", None),
        Some(STALE_CHARACTER_DATA)
    );
    assert_eq!(
        classify("http://\u{5D0}\u{1734}/", None),
        Some(STALE_CHARACTER_DATA)
    );
    assert_eq!(
        classify("x", Some("http://\u{627}\u{873}/")),
        Some(STALE_CHARACTER_DATA)
    );
    assert_eq!(
        classify("http://abz\u{1AD3}\u{94D}.com/", None),
        Some(STALE_COMBINING_CLASSES)
    );
    assert_eq!(
        classify("http://xn---xxzb8z.\u{E9}/", None),
        Some(PUNYCODE_EMPTY_BASIC)
    );
    // Not a class: made-up disagreements, the reverse of a class, and a
    // label that decodes to "xn--é" (UTS #46 validity criterion V4).
    assert_eq!(
        known_difference("http://a/", None, Some("http://a/"), Some("http://b/")),
        None
    );
    assert_eq!(
        known_difference("http://a/", None, None, Some("http://a/")),
        None
    );
    assert_eq!(
        known_difference("http://\u{627}.1a/", None, Some("http://xn--mgb.1a/"), None),
        None
    );
    let v4 = "http://xn--xn---epa.\u{E9}/";
    assert_eq!(
        known_difference(v4, None, Some("http://xn--xn---epa.xn--9ca/"), None),
        None
    );
    assert_eq!(punycode_decode("mgb"), Some(vec!['\u{627}']));
    assert_eq!(
        punycode_decode("fa-hia").map(String::from_iter).as_deref(),
        Some("faß")
    );
}
