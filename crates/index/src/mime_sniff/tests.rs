//! Tests of `mime_sniff`: each signature family, feeds, JSON, the
//! declared type's role, and the 1,445-byte bound.
use super::*;

/// `detects! { declared; input => want, ... }`: [`detect`] gives `want`.
macro_rules! detects {
    ($declared:expr; $($input:expr => $want:expr),+ $(,)?) => {$(
        let (declared, input): (Option<&str>, &[u8]) = ($declared, $input);
        let shown = input.escape_ascii().to_string();
        assert_eq!(detect(declared, input), $want, "{declared:?} {shown}");
    )+};
}

/// `sniffs! { scriptable; input => want, ... }`: [`sniff_unknown`] gives
/// `Some(want)`.
macro_rules! sniffs {
    ($scriptable:expr; $($input:expr => $want:expr),+ $(,)?) => {$(
        let input: &[u8] = $input;
        let shown = input.escape_ascii().to_string();
        assert_eq!(sniff_unknown(input, $scriptable), Some($want), "{shown}");
    )+};
}

#[test]
fn pattern_matching_algorithm() {
    let (ws, none, mask) = (Ignored::Whitespace, Ignored::None, &[FF, DF]);
    assert_eq!(pattern_match(b" \t<p>", b"<P", mask, ws), Some(4));
    assert_eq!(pattern_match(b"<p>", b"<P", mask, none), Some(2));
    assert_eq!(pattern_match(b" <p>", b"<P", mask, none), None);
    // Ignored bytes leave too few bytes, or run to the end.
    assert_eq!(pattern_match(b" <", b"<P", mask, ws), None);
    assert_eq!(pattern_match(b"    ", b"<P", mask, ws), None);
    assert_eq!(pattern_match(b"<", b"<P", mask, ws), None);
    // A zero mask byte matches anything.
    let wave = b"RIFF\xFF\x00\x01\x02WAVE";
    let pattern = b"RIFF\0\0\0\0WAVE";
    assert_eq!(pattern_match(wave, pattern, RIFF_MASK, ws), Some(12));
}

#[test]
fn html_tags() {
    let tags = "<!DOCTYPE html>|<!doctype HTML>|<html>|<HtMl lang=en>|<head>|<script>x|\
        <IFRAME src=x>|<h1>|<div>|<font face=x>|<table>|<a href=x>|<style>|<title>|<b>|\
        <body>|<br>|<p>|<P>|<!-- c -->|\n\t \x0C\r<p>x";
    for tag in tags.split('|').map(str::as_bytes) {
        detects! { None; tag => TEXT_HTML }
        sniffs! { true; tag => TEXT_HTML }
        sniffs! { false; tag => TEXT_PLAIN }
    }
    // No tag-terminating byte (SP or ">") after the name, or not a tag
    // of the table, or not at the start.
    detects! { None;
        b"<html\n>" => TEXT_PLAIN, b"<html" => TEXT_PLAIN, b"<html/>" => TEXT_PLAIN,
        b"<abbr>" => TEXT_PLAIN, b"<bold>" => TEXT_PLAIN, b"<h2>" => TEXT_PLAIN,
        b"<!---->" => TEXT_PLAIN, b"x<p>" => TEXT_PLAIN,
        // VT is no whitespace byte (and a binary data byte).
        b"\x0B<p>" => OCTET_STREAM,
    }
    // A label does not make HTML text; XHTML refines HTML.
    detects! { Some("text/plain"); b"<html>" => TEXT_HTML }
    detects! { Some("application/xhtml+xml"); b"<!DOCTYPE html><html>" => XHTML }
}

#[test]
fn xml_pdf_postscript() {
    detects! { None;
        b"<?xml version=\"1.0\"?><urlset xmlns=\"x\">" => APPLICATION_XML,
        b"\n <?xml version=\"1.0\"?>\n<!-- c --><root/>" => APPLICATION_XML,
        b"\xEF\xBB\xBF<?xml version=\"1.0\"?><root/>" => APPLICATION_XML,
        b"<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\">" => SVG,
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\">" => SVG,
        b"<?xml version=\"1.0\"?><!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \
          \"x.dtd\"><html xmlns=\"http://www.w3.org/1999/xhtml\">" => XHTML,
        b"<?xml version=\"1.0\"?><rdf:RDF \
          xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">" => RDF,
        b"%PDF-1.7\n%\xE2\xE3\xCF\xD3\n1 0 obj" => APPLICATION_PDF,
        b" %PDF-1.7" => TEXT_PLAIN,
        b"%!PS-Adobe-3.0\n%%Title: x" => POSTSCRIPT,
    }
    detects! { Some("text/html"); b"%PDF-1.4\n" => APPLICATION_PDF }
    sniffs! { true;
        b"<?xml version=\"1.0\"?><svg>" => APPLICATION_XML,
        b"\xEF\xBB\xBF<?xml version=\"1.0\"?>" => TEXT_PLAIN,
    }
}

#[test]
fn images() {
    let images: [(&[u8], &str); 8] = [
        (b"\x89PNG\r\n\x1A\n\0\0\0\rIHDR", "image/png"),
        (b"GIF87a\x01\0\x01\0\x80\0\0", "image/gif"),
        (b"GIF89a\x01\0\x01\0\x80\0\0", "image/gif"),
        (b"\xFF\xD8\xFF\xE0\0\x10JFIF\0", "image/jpeg"),
        (b"RIFF\x24\0\0\0WEBPVP8 \x18\0\0\0", "image/webp"),
        (b"BM\x36\0\0\0\0\0\0\0\x36\0\0\0", "image/bmp"),
        (b"\0\0\x01\0\x01\0\x10\x10", ICO),
        (b"\0\0\x02\0\x01\0\x20\x20", ICO),
    ];
    for (image, want) in images {
        detects! { None; image => want }
        detects! { Some("text/html; charset=utf-8"); image => want }
        sniffs! { true; image => want }
    }
    // A signature in bytes that are all text is text (beyond the
    // standard).
    detects! { None; b"BMW is a car maker" => TEXT_PLAIN, b"GIF89a is" => TEXT_PLAIN }
    sniffs! { true; b"BMW is a car maker" => "image/bmp" }
}

#[test]
fn audio_video() {
    detects! { None;
        b"OggS\0\x02\0\0\0\0" => "application/ogg", b"ID3\x04\0\0\0\0\0\x23" => "audio/mpeg",
        b"RIFF\x24\0\0\0WAVEfmt " => "audio/vnd.wave", b"MThd\0\0\0\x06\0\x01" => "audio/midi",
        b"RIFF\x24\0\0\0AVI LIST" => "video/x-msvideo", b"FORM\0\0\0\x24AIFF" => "audio/x-aiff",
        b"\0\0\0\x14ftypmp42\0\0\0\0mp42" => "video/mp4",
        b"\0\0\0\x1Cftypisom\0\0\x02\0isomiso2mp41" => "video/mp4",
        // Box size past the bytes, not a multiple of 4; no mp4 brand.
        b"\0\0\0\x40ftypisom\0\0\x02\0isomiso2mp41" => OCTET_STREAM,
        b"\0\0\0\x1Dftypisom\0\0\x02\0isomiso2mp41\0" => OCTET_STREAM,
        b"\0\0\0\x18ftypqt  \0\0\x02\0qt  qt  " => OCTET_STREAM,
        // The minor version (bytes 12 to 15) is no brand.
        b"\0\0\0\x18ftypisommp42isomiso2" => OCTET_STREAM,
        b"\x1A\x45\xDF\xA3\x9F\x42\x86\x81\x01\x42\xF7\x81\x01\x42\xF2\x81\x04\
          \x42\xF3\x81\x08\x42\x82\x84webm\x42\x87" => "video/webm",
        b"\x1A\x45\xDF\xA3\xA3\x42\x86\x81\x01\x42\x82\x88matroska\x42\x87" => OCTET_STREAM,
        // MP3 without ID3 is not implemented.
        b"\xFF\xFB\x90\x64\0\0\0\0\0\0" => OCTET_STREAM,
    }
}

#[test]
fn fonts_and_archives() {
    let mut eot = [0u8; 40];
    eot[..4].copy_from_slice(&[0x40, 0x10, 0, 0]);
    eot[34..36].copy_from_slice(b"LP");
    detects! { None;
        &eot => "application/vnd.ms-fontobject",
        b"\0\x01\0\0\0\x0E\0\x80" => "application/x-font-ttf",
        b"OTTO\0\x0B\0\x80\0\x03" => "application/x-font-otf",
        b"ttcf\0\x01\0" => "font/collection", b"wOFF\0\x01\0\0" => "font/woff",
        b"wOF2\0\x01\0\0\0\0" => "font/woff2",
        b"0123456789012345678901234567890123LP" => TEXT_PLAIN,
    }
    // The standard's unknown-type rules do not sniff fonts.
    sniffs! { true; &eot => OCTET_STREAM }
    let zip = b"PK\x03\x04\x14\0\0\0\x08\0";
    detects! { None;
        b"\x1F\x8B\x08\0\0\0\0\0\0\x03" => "application/gzip",
        zip => ZIP,
        b"Rar!\x1A\x07\0\xCF\x90\x73" => "application/x-rar-compressed",
    }
    let docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
    detects! { Some("text/html"); zip => ZIP }
    detects! { Some("application/EPUB+zip; x=y"); zip => "application/epub+zip" }
    detects! { Some(docx); zip => docx }
}

#[test]
fn text_and_binary() {
    detects! { None;
        b"\xFE\xFF\0h\0i" => TEXT_PLAIN, b"\xFF\xFEh\0i\0" => TEXT_PLAIN,
        b"\xEF\xBB\xBFhello" => TEXT_PLAIN, b"\xEF\xBB\xBF<!DOCTYPE html>" => TEXT_HTML,
        b"Hello, world.\n" => TEXT_PLAIN, b"caf\xE9 cr\xC3\xA8me \x1B[0m" => TEXT_PLAIN,
        b"\x7FELF\x02\x01\x01\0\0\0" => OCTET_STREAM, b"MZ\x90\0\x03\0" => OCTET_STREAM,
    }
    sniffs! { true; b"\xEF\xBB\xBF<!DOCTYPE html>" => TEXT_PLAIN }
    // The label fills in what the content leaves open, within its kind.
    detects! { Some("image/tiff"); b"II*\0\x08\0" => "image/tiff", b"Not found" => TEXT_PLAIN }
    detects! { Some("text/html"); b"MZ\x90\0\x03\0" => OCTET_STREAM }
    detects! { Some("text/html"); b"\xFF\xFEh\0i\0" => TEXT_HTML } // UTF-16
    detects! { Some("TEXT/CSS ; charset=UTF-8"); b"body { margin: 0 }" => "text/css" }
    detects! { Some("text/javascript"); b"var x = 1;" => "application/javascript" }
    detects! { Some("application/x-msdownload"); b"MZ\x90\0\x03\0" => OCTET_STREAM }
    detects! { Some("text/plain"); b"\0\x01\x02" => OCTET_STREAM }
}

#[test]
fn feeds() {
    let rss = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\"><channel>";
    let atom = b"<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">";
    let rdf = b"<?xml version=\"1.0\"?>\n<rdf:RDF\n \
        xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"\n \
        xmlns=\"http://purl.org/rss/1.0/\">";
    let rdf_reversed = b"<rdf:RDF xmlns=\"http://purl.org/rss/1.0/\" \
        xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">";
    let page = b"<!DOCTYPE html>\n<html><head>\
        <link rel=\"alternate\" type=\"application/rss+xml\" href=\"/rss\">";
    // No label, or labels the feeds rules (now) ignore.
    for declared in ["", "text/html", "text/xml", "text/plain"].map(Some) {
        detects! { declared;
            rss => RSS, atom => ATOM, rdf => RSS, rdf_reversed => RSS,
            b"\xEF\xBB\xBF <rss version=\"2.0\">" => RSS,
            b"<!-- generator --><?xml-stylesheet href=\"x\"?>\n<rss>" => RSS,
            b"<!DOCTYPE rss SYSTEM \"x\"><rss>" => RSS,
            page => TEXT_HTML,
        }
    }
    let rdf_without_rdf_namespace = b"<rdf:RDF xmlns=\"http://purl.org/rss/1.0/\">";
    assert_eq!(mislabeled_feed(rdf_without_rdf_namespace), None);
    assert_eq!(mislabeled_feed(b"<!-- unterminated <rss>"), None);
    assert_eq!(mislabeled_feed(b"text <rss>"), None);
    assert_eq!(mislabeled_feed(b"<"), None);
    assert_eq!(mislabeled_feed(b"<!DOCTYPE x>"), None);
}

#[test]
fn json() {
    detects! { None;
        b"{\"a\": [1, -2.5e-3, 0, 1E+9, true, false, null, \"x\\u00e9\\n\\\"\"]}" => JSON,
        b" \r\n[{\"id\":1},{\"id\":2}]\n" => JSON, b"\xEF\xBB\xBF{}" => JSON, b"[]" => JSON,
        b"[Home] [About]" => TEXT_PLAIN, b"[1] Introduction" => TEXT_PLAIN,
        b"{\"a\":" => TEXT_PLAIN, b"{\"a\" 1}" => TEXT_PLAIN, b"{a: 1}" => TEXT_PLAIN,
        b"[01]" => TEXT_PLAIN, b"[1.]" => TEXT_PLAIN, b"[1e]" => TEXT_PLAIN,
        b"[\"\\x\"]" => TEXT_PLAIN, b"[\"a\tb\"]" => TEXT_PLAIN, b"[\"\\u12G4\"]" => TEXT_PLAIN,
        b"[1,]" => TEXT_PLAIN, b"{\"a\":1]" => TEXT_PLAIN, b"[1}" => TEXT_PLAIN,
    }
    // JSONP under a JSON label: the label, as for any text.
    detects! { Some("application/json"); b"cb({\"a\":1})" => JSON }
    // Longer than the resource header: a valid prefix is enough.
    let mut long = b"[".to_vec();
    while long.len() < 3000 {
        long.extend_from_slice(b"{\"key\": \"value\\u00e9\", \"n\": -12.5e3, \"t\": true},");
    }
    for cut in RESOURCE_HEADER_LEN - 60..RESOURCE_HEADER_LEN {
        assert!(looks_like_json(&long[..cut], true), "{cut}");
        assert!(!looks_like_json(&long[..cut], false), "{cut}");
    }
    detects! { None; &long => JSON, &long[..RESOURCE_HEADER_LEN] => TEXT_PLAIN }
    // More than 128 levels.
    let deep = [b'['; 200];
    detects! { None; &[b'['; 2000] => TEXT_PLAIN }
    assert!(looks_like_json(&deep[..128], true) && !looks_like_json(&deep[..129], true));
}

#[test]
fn empty_input() {
    assert_eq!(sniff_unknown(b"", true), None);
    detects! { None; b"" => OCTET_STREAM }
    detects! { Some("text/html; charset=utf-8"); b"" => TEXT_HTML }
    detects! { Some(" IMAGE/X-ICON "); b"" => ICO }
    detects! { Some("text/plain, image/png"); b"" => "image/png" }
    for garbage in "|garbage|text /html|/html|*/*|unknown/unknown|é/x".split('|') {
        detects! { Some(garbage); b"" => OCTET_STREAM }
    }
}

#[test]
fn only_the_resource_header_counts() {
    const TEN_MB: usize = 10 << 20;
    let heads: [&[u8]; 4] = [b"Text", b"<p>", b"\x89PNG\r\n\x1A\n", b"[1,"];
    for head in heads {
        let mut a = vec![b' '; TEN_MB];
        a[..head.len()].copy_from_slice(head);
        let mut b = a.clone();
        // Past the header: binary bytes in one, markup in the other.
        a[RESOURCE_HEADER_LEN..].fill(0);
        for (i, x) in b[RESOURCE_HEADER_LEN..].iter_mut().enumerate() {
            *x = b"<rss>"[i % 5];
        }
        assert_eq!(detect(None, &a), detect(None, &b));
        assert_eq!(sniff_unknown(&a, true), sniff_unknown(&b, true));
    }
    let mut text = vec![b'a'; TEN_MB];
    text[RESOURCE_HEADER_LEN] = 0;
    detects! { None; &text => TEXT_PLAIN }
}

#[test]
fn never_panics() {
    // Prefixes of awkward inputs, and random bytes from an alphabet of
    // the bytes the rules look for.
    let samples: [&[u8]; 4] = [
        b"<?xml version=\"1.0\"?><rdf:RDF xmlns=\"http://purl.org/rss/1.0/\"",
        b"\x1A\x45\xDF\xA3\x42\x82\x01\x42\x82\x80\0\0",
        b"\0\0\0\x10ftypmp4",
        b"{\"a\":[\"\\u12",
    ];
    let alphabet = b"<>!-?/ \n\"\\[]{}:,.0123456789eEtrsfdxmlRDF\0\x1A\xFF";
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for round in 0..3000 {
        let bytes: Vec<u8> = if round < 256 {
            let sample = samples[round % 4];
            sample[..(round / 4).min(sample.len())].to_vec()
        } else {
            (0..round % 48)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    alphabet[seed as usize % alphabet.len()]
                })
                .collect()
        };
        for declared in [None, Some("text/html"), Some(";;/"), Some("image/png")] {
            let _ = detect(declared, &bytes);
        }
        let _ = sniff_unknown(&bytes, true);
    }
}
