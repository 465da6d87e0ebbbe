//! Whole-page tests of the extractor: base URL, anchor texts, encoding
//! changes, SVG, headers, buffer reuse.

use crate::scan::KEEP_LINKS;
use crate::*;
use spinneret_encoding::Change;
use spinneret_url::Url;

#[test]
fn extractor_reuses_its_buffers_and_gives_what_extract_gives() {
    let page = Url::parse("https://example.com/").unwrap();
    let html = "<a href=a1>one</a> <img src=i srcset='x 1x, y 2x'> <a href=a2>two".repeat(50);
    let collect = |x: &mut Extractor, html: &[u8]| {
        let mut v = Vec::new();
        x.extract(html, &page, &Headers::default(), |l| {
            v.push(format!("{} {} {:?}", l.attribute, l.raw, l.text));
        });
        v
    };
    let once = {
        let mut v = Vec::new();
        extract(html.as_bytes(), &page, &Headers::default(), |l| {
            v.push(format!("{} {} {:?}", l.attribute, l.raw, l.text));
        });
        v
    };
    let mut x = Extractor::new();
    assert_eq!(collect(&mut x, html.as_bytes()), once);
    let capacities = |x: &Extractor| {
        let b = &x.buffers;
        let link_texts = b.links.text_capacity();
        (b.links.links.capacity(), b.texts.all.capacity(), link_texts)
    };
    let (links, texts, link_texts) = capacities(&x);
    // Every link's text is a part of the page: nothing is copied.
    assert!(links >= 250 && texts >= 300 && link_texts == 0, "{x:?}");
    // A second page: the same links, no new allocation.
    assert_eq!(collect(&mut x, html.as_bytes()), once);
    assert_eq!(capacities(&x), (links, texts, link_texts));
    // A page whose late <meta> restarts the scan, then a small one.
    let mut late = " ".repeat(2000).into_bytes();
    late.extend_from_slice(b"<meta charset=windows-1251><a href=?q=\xef>\xef</a>");
    assert_eq!(collect(&mut x, &late), ["href ?q=п Some(\"п\")"]);
    assert_eq!(collect(&mut x, b"<a href=z>z</a>"), ["href z Some(\"z\")"]);
    assert_eq!(capacities(&x).0, links);
    // A page with more links than are kept room for: its buffers go.
    let huge = "<a href=x>y</a>".repeat(KEEP_LINKS + 1);
    assert_eq!(collect(&mut x, huge.as_bytes()).len(), KEEP_LINKS + 1);
    assert_eq!(capacities(&x).0, 0);
    assert_eq!(x.buffers.texts.starts.capacity(), 0);
}

struct Got {
    element: String,
    attribute: &'static str,
    kind: LinkKind,
    raw: String,
    href: Result<String, ParseError>,
    text: Option<String>,
    svg: bool,
}

fn run(html: &[u8], page: &str, headers: &Headers<'_>) -> (Vec<Got>, Summary) {
    let page = Url::parse(page).expect("page URL");
    let mut out = Vec::new();
    let s = extract(html, &page, headers, |l| {
        out.push(Got {
            element: l.element.to_owned(),
            attribute: l.attribute,
            kind: l.kind,
            raw: l.raw.to_owned(),
            href: l.target.map(|u| u.href().to_owned()),
            text: l.text.map(str::to_owned),
            svg: l.svg,
        })
    });
    (out, s)
}

fn hrefs(got: &[Got]) -> Vec<String> {
    got.iter()
        .map(|g| g.href.clone().unwrap_or_else(|e| format!("ERR {e:?}")))
        .collect()
}

#[test]
fn base_applies_before_and_after() {
    let (got, s) = run(
        b"<a href=a1>x</a><base href='/dir/'><base href='/other/'><a href=' a2 '>y</a>",
        "https://e.com/p/q.html",
        &Headers::default(),
    );
    assert_eq!(
        hrefs(&got),
        ["https://e.com/dir/a1", "https://e.com/dir/a2"]
    );
    assert_eq!(got[1].raw, "a2");
    assert_eq!(s.base.href(), "https://e.com/dir/");
    // A base that does not parse: the page URL is the base.
    let (got, s) = run(
        b"<base href='http://[bad'><a href=x>",
        "https://e.com/p/q.html",
        &Headers::default(),
    );
    assert_eq!(hrefs(&got), ["https://e.com/p/x"]);
    assert!(s.base_error.is_some());
    // A base without href does not count.
    let (got, _) = run(
        b"<base target=_top><base href=/b/><a href=x>",
        "https://e.com/",
        &Headers::default(),
    );
    assert_eq!(hrefs(&got), ["https://e.com/b/x"]);
    // A base in a template's contents is not in the document.
    let (got, _) = run(
        b"<template><base href=/t/></template><base href=/b/><a href=x>",
        "https://e.com/",
        &Headers::default(),
    );
    assert_eq!(hrefs(&got), ["https://e.com/b/x"]);
}

#[test]
fn anchor_text_collapsed_and_capped() {
    let (got, _) = run(
        b"<a href=1>  Hello \n\t <b>bold</b>&amp;  more <script>no()</script> end </a> after <a href=2>",
        "https://e.com/",
        &Headers::default(),
    );
    assert_eq!(got[0].text.as_deref(), Some("Hello bold& more end"));
    assert_eq!(got[1].text.as_deref(), Some(""));
    let long = format!("<a href=x>{}</a>", "ab ".repeat(200));
    let (got, _) = run(long.as_bytes(), "https://e.com/", &Headers::default());
    let t = got[0].text.as_deref().unwrap();
    assert_eq!(t.chars().count(), ANCHOR_TEXT_MAX);
    assert!(t.starts_with("ab ab"));
    // A new <a> closes the previous one's text.
    let (got, _) = run(
        b"<a href=1>one<a href=2>two</a>",
        "https://e.com/",
        &Headers::default(),
    );
    assert_eq!(got[0].text.as_deref(), Some("one"));
    assert_eq!(got[1].text.as_deref(), Some("two"));
}

#[test]
fn late_meta_charset_re_decodes() {
    // ASCII for > 1024 bytes, then a <meta> for windows-1251 and Cyrillic
    // bytes in a link's query: the tentative default (windows-1252 for
    // .com) gives way, the page is decoded again.
    let mut html = b"<html><head><title>t</title>".to_vec();
    html.extend(std::iter::repeat_n(b' ', 1100));
    html.extend_from_slice(
        b"<meta charset=windows-1251></head><a href='/s?q=\xcf\xf0'>\xcf\xf0</a>",
    );
    let (got, s) = run(&html, "https://e.com/", &Headers::default());
    assert!(s.restarted);
    // The bytes before the <meta> are ASCII: the same in both encodings.
    assert!(matches!(s.encoding_change, Some(Change::SwitchInPlace(_))));
    assert_eq!(s.encoding.encoding.name(), "windows-1251");
    assert_eq!(got[0].raw, "/s?q=Пр");
    assert_eq!(got[0].text.as_deref(), Some("Пр"));
    assert_eq!(hrefs(&got), ["https://e.com/s?q=%CF%F0"]);
    // Non-ASCII before the <meta>: Reparse.
    let mut html2 = b"<html><head><title>\xc0\xe1\xe2</title>".to_vec();
    html2.extend(std::iter::repeat_n(b' ', 1100));
    html2.extend_from_slice(b"<meta charset=koi8-r></head><a href='/s?q=\xcf\xf0'>\xcf\xf0</a>");
    let (got2, s2) = run(&html2, "https://e.com/", &Headers::default());
    assert!(s2.restarted, "{:?}", s2.initial_encoding);
    assert!(matches!(s2.encoding_change, Some(Change::Reparse(_))));
    assert_eq!(hrefs(&got2), ["https://e.com/s?q=%CF%F0"]);
    // The same <meta> with an HTTP charset: certain, never restarted.
    let h = Headers {
        content_type: vec![b"text/html; charset=utf-8"],
        ..Headers::default()
    };
    let (_, s) = run(&html, "https://e.com/", &h);
    assert!(!s.restarted && s.encoding_change.is_none());
    // An ASCII-only page whose late <meta> agrees on ASCII: switch in place.
    let mut ascii = b"<p>".to_vec();
    ascii.extend(std::iter::repeat_n(b' ', 1100));
    ascii.extend_from_slice(
        b"<meta http-equiv=Content-Type content='text/html; charset=iso-8859-2'><a href=x>",
    );
    let (_, s) = run(&ascii, "https://e.com/", &Headers::default());
    assert!(matches!(s.encoding_change, Some(Change::SwitchInPlace(_))));
    assert!(s.restarted);
}

#[test]
fn windows_1251_query_encoding() {
    let html = b"<meta charset=windows-1251><a href='?q=\xcf\xf0\xe8\xe2\xe5\xf2&x=\xe2\x82\xac'>";
    let (got, s) = run(html, "https://e.ru/search", &Headers::default());
    assert_eq!(s.encoding.encoding.name(), "windows-1251");
    // Привет in windows-1251; "в‚¬" is mappable too; the path stays UTF-8.
    assert_eq!(
        hrefs(&got),
        ["https://e.ru/search?q=%CF%F0%E8%E2%E5%F2&x=%E2%82%AC"]
    );
    // A character windows-1251 lacks becomes &#NNN; percent-encoded.
    let html = b"<meta charset=windows-1251><a href='/\xcf?q=&#x4E2D;'>";
    let (got, _) = run(html, "https://e.ru/", &Headers::default());
    assert_eq!(hrefs(&got), ["https://e.ru/%D0%9F?q=%26%2320013%3B"]);
}

#[test]
fn svg_links() {
    let (got, _) = run(
        b"<svg><a href=/s1 xlink:href=/s2><image href=/i1></image><use xlink:href='#icon'/></a>\
          <foreignObject><a href=/html>h</a></foreignObject></svg><a href=/after>",
        "https://e.com/",
        &Headers::default(),
    );
    let v: Vec<_> = got
        .iter()
        .map(|g| {
            (
                g.element.as_str(),
                g.attribute,
                g.svg,
                g.kind,
                g.href.clone().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        v,
        [
            (
                "a",
                "href",
                true,
                LinkKind::Hyperlink,
                "https://e.com/s1".to_owned()
            ),
            (
                "a",
                "xlink:href",
                true,
                LinkKind::Hyperlink,
                "https://e.com/s2".to_owned()
            ),
            (
                "image",
                "href",
                true,
                LinkKind::Image,
                "https://e.com/i1".to_owned()
            ),
            (
                "use",
                "xlink:href",
                true,
                LinkKind::Embed,
                "https://e.com/#icon".to_owned()
            ),
            (
                "a",
                "href",
                false,
                LinkKind::Hyperlink,
                "https://e.com/html".to_owned()
            ),
            (
                "a",
                "href",
                false,
                LinkKind::Hyperlink,
                "https://e.com/after".to_owned()
            ),
        ]
    );
    // An <img> breaks out of SVG: an HTML image.
    let (got, _) = run(b"<svg><img src=/x>", "https://e.com/", &Headers::default());
    assert!(!got[0].svg && got[0].kind == LinkKind::Image);
    // An HTML-only element name inside SVG is an SVG element: no link.
    let (got, _) = run(
        b"<svg><iframe src=/x></iframe></svg>",
        "https://e.com/",
        &Headers::default(),
    );
    assert!(got.is_empty());
    // The tree builder renames an HTML <image> to <img>: an image link.
    let (got, _) = run(
        b"<p><image src=/i1></p><svg><image href=/i2></svg>",
        "https://e.com/",
        &Headers::default(),
    );
    let got: Vec<_> = got
        .iter()
        .map(|l| (l.element.as_str(), l.svg, l.kind))
        .collect();
    assert_eq!(
        got,
        [
            ("img", false, LinkKind::Image),
            ("image", true, LinkKind::Image)
        ]
    );
}

#[test]
fn headers_and_failures() {
    let h = Headers {
        location: Some(" /moved "),
        link: vec!["</s.css>; rel=preload, <https://x:99999/>; rel=nofollow"],
        ..Headers::default()
    };
    let (got, s) = run(
        b"<base href=/base/><a href='http://[::1'>",
        "https://e.com/a/b",
        &h,
    );
    assert_eq!(got[0].kind, LinkKind::Redirect);
    assert_eq!(got[0].href.as_deref(), Ok("https://e.com/moved"));
    assert_eq!(got[1].kind, LinkKind::Header);
    assert_eq!(got[1].href.as_deref(), Ok("https://e.com/s.css"));
    assert_eq!(got[2].href, Err(ParseError::PortOutOfRange));
    assert!(got[3].href.is_err());
    assert_eq!(got[3].element, "a");
    assert_eq!(s.links, 4);
    assert_eq!(s.failures, 2);
    assert_eq!(s.by_kind.get(LinkKind::Hyperlink), 1);
    assert_eq!(s.failures_by_kind.get(LinkKind::Header), 1);
}

#[test]
fn total_on_odd_input() {
    for html in [
        &b""[..],
        b"<",
        b"<a href",
        b"\xff\xfe<\x00a\x00",
        b"<style>url(",
        b"<svg><a href=x/>",
        b"<meta charset=utf-16>",
    ] {
        let _ = run(html, "https://e.com/", &Headers::default());
    }
}

/// Texts the links name in the page (lent by the tokenizer) and texts kept
/// as copies (values with character references, `<style>` CSS, names the
/// tokenizer lowercased), interleaved on one page, in UTF-8 and in a
/// legacy encoding (decoded into a text of its own): each link reads back
/// its own texts.
#[test]
fn texts_named_in_the_page_and_copied_ones_interleave() {
    let html = "<A HREF='/a&amp;b' REL=NoFollow HREFLANG=de>one</A>\
                <My-El STYLE='background:url(/b&#103;)'>\
                <a href=/plain rel=x>two</a>\
                <style>p{background:url(/css)}</style>\
                <base href=/b&#97;se/><img src=/i srcset='/s1 1x, /s&#50; 2x'>";
    let check = |got: &[Got], s: &Summary| {
        let rows: Vec<String> = got
            .iter()
            .map(|g| format!("{} {} {} {:?}", g.element, g.attribute, g.raw, g.text))
            .collect();
        assert_eq!(
            rows,
            [
                "a href /a&b Some(\"one\")",
                "my-el style /bg None",
                "a href /plain Some(\"two\")",
                "style #text /css None",
                "img src /i None",
                "img srcset /s1 None",
                "img srcset /s2 None",
            ]
        );
        assert_eq!(s.base.href(), "https://e.com/base/");
        assert_eq!(got[0].href.as_deref(), Ok("https://e.com/a&b"));
    };
    let (got, s) = run(html.as_bytes(), "https://e.com/", &Headers::default());
    check(&got, &s);
    let page = Url::parse("https://e.com/").unwrap();
    let mut x = Extractor::new();
    let mut rels = Vec::new();
    x.extract(html.as_bytes(), &page, &Headers::default(), |l| {
        rels.push((l.rel.map(str::to_owned), l.hreflang.map(str::to_owned)));
    });
    assert_eq!(rels[0], (Some("NoFollow".into()), Some("de".into())));
    assert_eq!(rels[2], (Some("x".into()), None));
    // The same page in windows-1252 with one non-ASCII byte: the decoded
    // text is the decoder's own string, not the page's bytes.
    let mut legacy = html.replace("two", "tw\u{e9}").into_bytes();
    let at = legacy
        .windows(2)
        .position(|w| w == "\u{e9}".as_bytes())
        .unwrap();
    legacy.splice(at..at + 2, [0xE9]);
    let ct: &[u8] = b"text/html; charset=windows-1252";
    let headers = Headers {
        content_type: vec![ct],
        ..Headers::default()
    };
    let (got, _) = run(&legacy, "https://e.com/", &headers);
    assert_eq!(got[2].text.as_deref(), Some("tw\u{e9}"));
    assert_eq!(got[6].raw, "/s2");
}

/// `<meta>` elements naming a URL are links of kind `meta` (the rule of
/// [`crate::meta`]); a refresh stays a refresh; other metas are not links.
#[test]
fn metas_naming_urls() {
    let html = br#"<head>
        <meta property="og:image" content=" /img/card.png ">
        <meta name="twitter:image" content="https://cdn.e.com/t.png">
        <meta name="msapplication-TileImage" content="tile.png">
        <meta name="author" content="//people.e.com/me">
        <meta name="description" content="A page on e.com">
        <meta property="og:title" content="Card">
        <meta property="OG:IMAGE" content="case.png">
        <meta http-equiv="refresh" content="5; url=/next">
        <meta http-equiv="refresh" content="https://e.com/not-a-refresh-url">
        <meta property="og:url">
        <base href="/b/"></head>"#;
    let (got, s) = run(html, "https://e.com/p", &Headers::default());
    let metas: Vec<(LinkKind, &str, &str)> = got
        .iter()
        .map(|g| (g.kind, g.attribute, g.href.as_deref().unwrap_or("ERR")))
        .collect();
    assert_eq!(
        metas,
        [
            (LinkKind::Meta, "content", "https://e.com/img/card.png"),
            (LinkKind::Meta, "content", "https://cdn.e.com/t.png"),
            (LinkKind::Meta, "content", "https://e.com/b/tile.png"),
            (LinkKind::Meta, "content", "https://people.e.com/me"),
            (LinkKind::Refresh, "content", "https://e.com/next"),
        ]
    );
    assert!(got.iter().all(|g| g.element == "meta"));
    assert_eq!(s.by_kind.get(LinkKind::Meta), 4);
}
