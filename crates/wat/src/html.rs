//! `HTML-Metadata`: what a WAT records of an HTML page — its `Head`
//! (`Title`, `Base`, `Metas`, `Link`, `Scripts`) and its `Links`, each
//! with the raw attribute value as `url` and a `path` naming the element
//! and attribute (`A@/href`, `IMG@/src`, `STYLE/#text`…).
//!
//! The rules are those of Common Crawl's generator (`ExtractingParseObserver`
//! in its fork of ia-web-commons), read from the page's tokens:
//! - *Links*, per element (the table in [`element_links`]); on every
//!   element but `title`, the attributes `background`, `data-href` and
//!   `data-uri` first. An `<a href>` is recorded when it closes, with its
//!   text, so an `<img>` inside it comes before it, as in Common Crawl's
//!   files. URLs are the attribute values, character references decoded,
//!   `data:` URLs cut after their comma ([`trim_data_url`]); nothing is
//!   resolved.
//! - *Head*: `<link href>` and `<script src>` wherever they are, every
//!   `<meta>` with at least two of `name`, `rel`, `content`,
//!   `http-equiv`, `property`, the `<html>` element's `lang` and
//!   `xml:lang` as metas named `HTML@/lang` and `HTML@/xml:lang`, the last
//!   `<base href>`, and the title: the last in the `<head>`, else the
//!   first outside it, never one inside `<svg>`.
//! - *Anchor text*: the text inside an open `<a>`, white space collapsed,
//!   a space at a block element's tags and at the end of a spacing
//!   element (the fork's golden case puts one at an `<li>` start tag), trimmed, at most
//!   128 UTF-16 code units (Java's string length, which Common Crawl's cap
//!   counts).
//! - *CSS*: `url(…)` and `@import` targets in a `<style>`'s text, under
//!   the key `href` (what consumers such as cc-pyspark read for it).
//! - *onclick* of `div` and `input`: a `location='…'` assignment or a
//!   `window.open('…'` call.
//!
//! Deliberate differences, each because the browser's reading is the
//! right one for a crawl's pages (and the one every other spinneret tool
//! uses):
//! - Tokens come from the HTML Standard's tokenizer, not htmlparser.org's
//!   lexer: comments, raw text (`script`, `style`, `textarea`, `title`)
//!   and broken attributes are read as a browser reads them; character
//!   references are decoded as a browser decodes them (the fork's jsoup
//!   decoding agrees on all but edge cases), also in `onclick` values,
//!   `area`'s `rel` and `form`'s `target`/`method`, which the fork leaves
//!   raw. A `<style>`'s text is raw text in HTML, so its references are
//!   not decoded (the fork decodes them).
//! - An `<a>` still open at the end of the page is recorded (the fork
//!   drops it); a value-less `href` counts as empty, not absent.
//! - Nested anchors: each one's text is all the text since it opened (the
//!   fork stops filling inner anchors once an outer one holds 128 units).
//! - A `data:,…` URL (comma at index 5) is cut after its comma like any
//!   other (the fork keeps it whole) and `data:x,…` keeps its media type
//!   (the fork writes `data:,`).
//!
//! Invariant: the output is a function of the page's text; any text gives
//! an object (empty when nothing was found); time and memory are linear in
//! the page, however many anchors are open at once (their texts share one
//! buffer, see [`PageMeta`]).

use spinneret_html::{Tag, Token, Tokenizer, TokenizerOptions};

use crate::json::{Object, Value};
use crate::scripted::{css_urls, onclick_urls, trim_data_url};

/// The most UTF-16 code units of an anchor text or a title.
const MAX_TEXT: usize = 128;

/// The `HTML-Metadata` object of a page's decoded text.
pub fn html_metadata(text: &str) -> Object {
    let mut page = PageMeta::default();
    let mut tok = Tokenizer::new(text, TokenizerOptions::default());
    let mut raw = Raw::None;
    while let Some(token) = tok.next_token() {
        match token {
            Token::Text(t) => match std::mem::replace(&mut raw, Raw::None) {
                Raw::Style => page.style(t),
                Raw::Script => {}
                Raw::None => page.text(t),
            },
            Token::StartTag(tag) => {
                raw = page.start_tag(&tag);
            }
            Token::EndTag(tag) => {
                raw = Raw::None;
                page.end_tag(tag.name.as_str());
            }
            Token::Comment(_) | Token::Doctype(_) => raw = Raw::None,
        }
    }
    page.finish()
}

/// Which raw text the next text token is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Raw {
    None,
    Style,
    Script,
}

/// An `<a>` waiting for its end tag.
struct OpenAnchor {
    /// Its entry (none without `href`: its text is dropped).
    entry: Option<Object>,
    /// Where its text starts in [`PageMeta::anchor_text`].
    start: usize,
}

/// What has been found so far.
#[derive(Default)]
struct PageMeta {
    head: Option<Object>,
    links: Option<Vec<Value>>,
    /// Whether `Links` was made before `Head` (the key order).
    links_first: bool,
    anchors: Vec<OpenAnchor>,
    /// The text since the outermost open anchor started, white space
    /// collapsed: each open anchor's text is its tail, so a text node or
    /// a word break is added once, whatever the number of open anchors
    /// (a page of many unclosed anchors stays linear). Emptied when no
    /// anchor is open.
    anchor_text: String,
    /// The title's text while a `<title>` is open.
    title: Option<Option<String>>,
    in_head: bool,
    in_svg: bool,
    in_pre: bool,
    /// Whether the page text so far ends in white space (true at the
    /// start): a white-space run is collapsed across text nodes.
    after_space: bool,
    started: bool,
}

impl PageMeta {
    fn head(&mut self) -> &mut Object {
        if self.head.is_none() && self.links.is_none() {
            self.links_first = false;
        }
        self.head.get_or_insert_with(Object::new)
    }

    fn link(&mut self, entry: Object) {
        if self.links.is_none() && self.head.is_none() {
            self.links_first = true;
        }
        self.links.get_or_insert_with(Vec::new).push(entry.into());
    }

    fn link_to(&mut self, path: String, url: &str) {
        let mut entry = Object::new();
        entry.put("path", path);
        entry.put("url", trim_data_url(url));
        self.link(entry);
    }

    fn start_tag(&mut self, tag: &Tag<'_>) -> Raw {
        if !self.started {
            self.started = true;
            self.after_space = true;
        }
        let name = tag.name.as_str();
        let upper = name.to_ascii_uppercase();
        if name != "title" {
            for attr in tag.attrs.iter() {
                let a = attr.name.as_str();
                if matches!(a, "background" | "data-href" | "data-uri") {
                    self.link_to(format!("{upper}@/{a}"), attr.value);
                }
            }
        }
        if is_block(name) {
            self.after_space = true;
            self.space_anchors();
        }
        match name {
            "a" => {
                let entry = tag.attr("href").map(|href| {
                    let mut e = Object::new();
                    e.put("path", "A@/href");
                    e.put("url", trim_data_url(href));
                    for key in ["target", "alt", "title", "rel", "hreflang", "type"] {
                        e.put_opt(key, tag.attr(key));
                    }
                    e
                });
                if tag.self_closing {
                    if let Some(e) = entry {
                        self.link(e);
                    }
                } else {
                    self.anchors.push(OpenAnchor {
                        entry,
                        start: self.anchor_text.len(),
                    });
                }
            }
            "title" if !tag.self_closing => self.title = Some(None),
            "head" => self.in_head = true,
            "body" => self.in_head = false,
            "svg" if !tag.self_closing => self.in_svg = true,
            "pre" => self.in_pre = true,
            "style" if !tag.self_closing => return Raw::Style,
            "script" => {
                if let Some(src) = tag.attr("src") {
                    let mut e = Object::new();
                    e.put("path", "SCRIPT@/src");
                    e.put("url", trim_data_url(src));
                    e.put_opt("type", tag.attr("type"));
                    self.head().push_to("Scripts", e);
                }
                if !tag.self_closing {
                    return Raw::Script;
                }
            }
            "link" => {
                if let Some(href) = tag.attr("href") {
                    let mut e = Object::new();
                    e.put("path", "LINK@/href");
                    e.put("url", trim_data_url(href));
                    e.put_opt("rel", tag.attr("rel"));
                    e.put_opt("type", tag.attr("type"));
                    self.head().push_to("Link", e);
                }
            }
            "base" => {
                if let Some(href) = tag.attr("href") {
                    self.head().put("Base", href);
                }
            }
            "meta" => self.meta(tag),
            "html" => {
                for (attr, meta) in [("lang", "HTML@/lang"), ("xml:lang", "HTML@/xml:lang")] {
                    if let Some(v) = tag.attr(attr) {
                        let mut e = Object::new();
                        e.put("name", meta);
                        e.put("content", v);
                        self.head().push_to("Metas", e);
                    }
                }
            }
            "area" => {
                if let Some(href) = tag.attr("href") {
                    let mut e = Object::new();
                    e.put("path", "AREA@/href");
                    e.put("url", trim_data_url(href));
                    e.put_opt("rel", tag.attr("rel"));
                    self.link(e);
                }
            }
            "form" => {
                if let Some(action) = tag.attr("action") {
                    let mut e = Object::new();
                    e.put("path", "FORM@/action");
                    e.put("url", trim_data_url(action));
                    e.put_opt("target", tag.attr("target"));
                    e.put_opt("method", tag.attr("method"));
                    self.link(e);
                }
            }
            "img" => {
                if let Some(src) = tag.attr("src") {
                    let mut e = Object::new();
                    e.put("path", "IMG@/src");
                    e.put("url", trim_data_url(src));
                    e.put_opt("alt", tag.attr("alt"));
                    e.put_opt("title", tag.attr("title"));
                    self.link(e);
                }
                self.attr_links(tag, &upper, &["longdesc"]);
            }
            "input" => {
                self.attr_links(tag, &upper, &["src", "formaction"]);
                self.onclick(tag, &upper);
            }
            "div" => self.onclick(tag, &upper),
            _ => {
                if let Some(attrs) = element_links(name) {
                    self.attr_links(tag, &upper, attrs);
                }
            }
        }
        Raw::None
    }

    /// One `{path, url}` entry per attribute of `attrs` the tag has.
    fn attr_links(&mut self, tag: &Tag<'_>, upper: &str, attrs: &[&str]) {
        for attr in attrs {
            if let Some(v) = tag.attr(attr) {
                self.link_to(format!("{upper}@/{attr}"), v);
            }
        }
    }

    fn onclick(&mut self, tag: &Tag<'_>, upper: &str) {
        if let Some(v) = tag.attr("onclick") {
            for url in onclick_urls(v) {
                self.link_to(format!("{upper}@/onclick"), url);
            }
        }
    }

    fn meta(&mut self, tag: &Tag<'_>) {
        let mut e = Object::new();
        let mut n = 0;
        for key in ["name", "rel", "content", "http-equiv", "property"] {
            if let Some(v) = tag.attr(key) {
                n += 1;
                let og_image = key == "content" && tag.attr("property") == Some("og:image");
                e.put(key, if og_image { trim_data_url(v) } else { v.into() });
            }
        }
        // A meta with one attribute (`itemprop`'s, a lone name) says
        // nothing: the fork drops it.
        if n >= 2 {
            self.head().push_to("Metas", e);
        }
    }

    fn end_tag(&mut self, name: &str) {
        if let Some(title) = self.title.take() {
            self.end_title(title);
        }
        match name {
            "a" => {
                if let Some(anchor) = self.anchors.pop() {
                    self.close_anchor(anchor);
                }
            }
            "head" => self.in_head = false,
            "svg" => self.in_svg = false,
            "pre" => self.in_pre = false,
            _ => {}
        }
        if is_block(name) {
            self.after_space = true;
        }
        if is_block(name) || is_spacing(name) {
            self.space_anchors();
        }
    }

    /// A word break in every open anchor's text.
    fn space_anchors(&mut self) {
        let t = &mut self.anchor_text;
        if !self.anchors.is_empty() && !t.is_empty() && !t.ends_with(' ') {
            t.push(' ');
        }
    }

    /// A `</title>` (or whatever tag ended it): the title is kept unless
    /// inside SVG, and a title in the head replaces one found before.
    fn end_title(&mut self, title: Option<String>) {
        if self.in_svg {
            return;
        }
        let in_head = self.in_head;
        let head = self.head();
        if in_head || head.get("Title").is_none() {
            match title {
                Some(t) => head.put("Title", t),
                None => head.remove("Title"),
            }
        }
    }

    /// Records a closed anchor, with its text: the tail of
    /// [`PageMeta::anchor_text`] from its start, trimmed, at most
    /// [`MAX_TEXT`] UTF-16 units.
    fn close_anchor(&mut self, anchor: OpenAnchor) {
        if let Some(mut entry) = anchor.entry {
            let tail = self.anchor_text[anchor.start..].trim_start_matches(|c: char| c <= ' ');
            let mut units = 0;
            let end = tail
                .char_indices()
                .find(|&(_, c)| {
                    units += c.len_utf16();
                    units > MAX_TEXT
                })
                .map_or(tail.len(), |(i, _)| i);
            let text = tail[..end].trim_end_matches(|c: char| c <= ' ');
            if !text.is_empty() {
                entry.put("text", text);
            }
            self.link(entry);
        }
        if self.anchors.is_empty() {
            self.anchor_text.clear();
        }
    }

    fn text(&mut self, t: &str) {
        if !self.started {
            self.started = true;
            self.after_space = true;
        }
        if self.title.is_none() && self.anchors.is_empty() {
            // Only the white-space state matters.
            if let Some(last) = t.chars().next_back() {
                let pre = self.in_pre;
                self.after_space = is_space(normalize_char(last, pre));
            }
            return;
        }
        let mut norm = String::with_capacity(t.len().min(4 * MAX_TEXT));
        let mut units = 0;
        for c in t.chars() {
            let c = normalize_char(c, self.in_pre);
            let space = is_space(c);
            if space && self.after_space && !self.in_pre {
                continue;
            }
            self.after_space = space;
            if units + c.len_utf16() <= MAX_TEXT {
                norm.push(c);
                units += c.len_utf16();
            }
        }
        if let Some(title) = &mut self.title {
            let cut = norm.trim_matches(|c: char| c <= ' ');
            *title = (!cut.is_empty()).then(|| cut.to_owned());
            return;
        }
        let log = &mut self.anchor_text;
        let mut t = norm.as_str();
        if (log.is_empty() || log.ends_with(' ')) && t.starts_with(' ') {
            t = &t[1..];
        }
        log.push_str(t);
    }

    fn style(&mut self, css: &str) {
        for href in css_urls(css) {
            let mut e = Object::new();
            e.put("path", "STYLE/#text");
            e.put("href", trim_data_url(href));
            self.link(e);
        }
    }

    fn finish(mut self) -> Object {
        if let Some(title) = self.title.take() {
            self.end_title(title);
        }
        // Anchors left open, innermost first (as their end tags would
        // have closed them).
        while let Some(anchor) = self.anchors.pop() {
            self.close_anchor(anchor);
        }
        let mut out = Object::new();
        let head = self.head.map(Value::Object);
        let links = self.links.map(Value::Array);
        if self.links_first {
            out.put_opt("Links", links);
            out.put_opt("Head", head);
        } else {
            out.put_opt("Head", head);
            out.put_opt("Links", links);
        }
        out
    }
}

/// A text character as the fork reads it outside `<pre>`: C0 controls,
/// DEL and NO-BREAK SPACE are spaces.
fn normalize_char(c: char, pre: bool) -> char {
    if !pre && (c < ' ' || c == '\u{7f}' || c == '\u{a0}') {
        ' '
    } else {
        c
    }
}

/// Java's `Character.isWhitespace`: Unicode spaces other than the
/// no-break ones, and the ASCII separators.
fn is_space(c: char) -> bool {
    c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{2007}' | '\u{202f}' | '\u{85}')
}

/// The attributes that are links on elements without special handling.
fn element_links(name: &str) -> Option<&'static [&'static str]> {
    Some(match name {
        "iframe" | "frame" | "embed" | "audio" | "track" | "source" => &["src"],
        "video" => &["src", "poster"],
        "object" => &["codebase", "cdata", "data"],
        "applet" => &["codebase", "cdata"],
        "q" | "blockquote" | "del" | "ins" => &["cite"],
        "button" => &["formaction"],
        "menuitem" => &["icon"],
        _ => return None,
    })
}

/// Block elements: their tags break the page text (and so white space
/// before and after them collapses).
fn is_block(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "article"
            | "aside"
            | "blockquote"
            | "body"
            | "br"
            | "button"
            | "canvas"
            | "caption"
            | "center"
            | "col"
            | "colgroup"
            | "dd"
            | "div"
            | "dl"
            | "dt"
            | "embed"
            | "fieldset"
            | "figcaption"
            | "figure"
            | "footer"
            | "form"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "header"
            | "hgroup"
            | "hr"
            | "li"
            | "map"
            | "noframes"
            | "noscript"
            | "object"
            | "ol"
            | "output"
            | "p"
            | "pre"
            | "progress"
            | "section"
            | "table"
            | "tbody"
            | "textarea"
            | "tfoot"
            | "th"
            | "thead"
            | "title"
            | "tr"
            | "ul"
            | "video"
    )
}

/// Inline elements whose end separates words in anchor text.
fn is_spacing(name: &str) -> bool {
    matches!(
        name,
        "address"
            | "cite"
            | "details"
            | "datalist"
            | "iframe"
            | "img"
            | "input"
            | "label"
            | "legend"
            | "optgroup"
            | "q"
            | "select"
            | "summary"
            | "tbody"
            | "td"
            | "time"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(html: &str) -> serde_json::Value {
        let mut s = String::new();
        html_metadata(html).write(&mut s);
        serde_json::from_str(&s).unwrap()
    }

    #[test]
    fn anchor_recorded_at_its_end_after_its_image() {
        let j = json(r#"<a href="/n?a=1&amp;b=2" title=t><img src=i.png alt="x">Next</a>"#);
        let links = j["Links"].as_array().unwrap();
        assert_eq!(links[0]["path"], "IMG@/src");
        assert_eq!(links[0]["alt"], "x");
        assert_eq!(links[1]["path"], "A@/href");
        assert_eq!(links[1]["url"], "/n?a=1&b=2");
        assert_eq!(links[1]["text"], "Next");
        assert_eq!(links[1]["title"], "t");
    }

    #[test]
    fn anchor_text_collapses_and_spaces_blocks() {
        let j = json(
            "<a href=x>Anchor&#xa0;text\twith <ul><li>white space<li><b>char</b>acter entities and<li>HTML block elements</ul></a>",
        );
        assert_eq!(
            j["Links"][0]["text"],
            "Anchor text with white space character entities and HTML block elements"
        );
    }

    #[test]
    fn anchor_text_is_capped_in_utf16_units() {
        let long = "😀".repeat(100);
        let j = json(&format!("<a href=x>{long}</a>"));
        let text = j["Links"][0]["text"].as_str().unwrap();
        assert_eq!(text.encode_utf16().count(), 128);
    }

    #[test]
    fn head_items_and_metas() {
        let j = json(
            r#"<html lang=en><head><title>T</title><meta charset=utf-8><meta name=robots content="index,follow"><meta itemprop=x content=y>
            <link rel=icon href=f.ico><script src=a.js type=text/javascript></script><base href="/b/"></head>
            <body><svg><title>No</title></svg><title>Late</title><link href=late.css></body>"#,
        );
        let head = &j["Head"];
        assert_eq!(head["Title"], "T");
        assert_eq!(head["Base"], "/b/");
        assert_eq!(
            head["Metas"],
            serde_json::json!([{"name":"HTML@/lang","content":"en"},{"name":"robots","content":"index,follow"}])
        );
        assert_eq!(head["Link"].as_array().unwrap().len(), 2);
        assert_eq!(head["Scripts"][0]["url"], "a.js");
        assert!(j.get("Links").is_none());
    }

    #[test]
    fn global_attributes_come_first_and_style_urls_use_href() {
        let j = json(
            r#"<body background=bg.png><div data-href="/d" onclick="location.href='/go'"></div><style>a{background:url("x.png")} @import 'y.css';</style>"#,
        );
        let links = j["Links"].as_array().unwrap();
        let got: Vec<(String, String)> = links
            .iter()
            .map(|l| {
                let u = l.get("url").or_else(|| l.get("href")).unwrap();
                (
                    l["path"].as_str().unwrap().to_owned(),
                    u.as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let want = [
            ("BODY@/background", "bg.png"),
            ("DIV@/data-href", "/d"),
            ("DIV@/onclick", "/go"),
            ("STYLE/#text", "x.png"),
            ("STYLE/#text", "y.css"),
        ];
        assert_eq!(
            got,
            want.map(|(p, u)| (p.to_owned(), u.to_owned())).to_vec()
        );
    }

    #[test]
    fn nothing_found_is_an_empty_object() {
        assert_eq!(json("plain text"), serde_json::json!({}));
        assert_eq!(json(""), serde_json::json!({}));
    }

    #[test]
    fn many_open_anchors_stay_linear() {
        // 20,000 unclosed anchors, each with a word and a block: every
        // text node and word break is added once, not once per open
        // anchor (which would be 4e8 appends here).
        let page = "<a href=x>w<div></div>".repeat(20_000);
        let j = json(&page);
        let links = j["Links"].as_array().unwrap();
        assert_eq!(links.len(), 20_000);
        // The innermost has its own word; the outermost the first 128
        // units of all of them.
        assert_eq!(links[0]["text"], "w");
        let outer = links[19_999]["text"].as_str().unwrap();
        assert_eq!(outer.encode_utf16().count(), 127);
        assert!(outer.starts_with("w w w"));
    }

    #[test]
    fn unclosed_and_nested_anchors() {
        let j = json("<a href=o>out <a href=i>in</a> tail");
        let links = j["Links"].as_array().unwrap();
        assert_eq!(links[0]["url"], "i");
        assert_eq!(links[0]["text"], "in");
        assert_eq!(links[1]["url"], "o");
        assert_eq!(links[1]["text"], "out in tail");
    }
}
