//! One pass over a page's decoded text: the tokens in, pending links,
//! anchor texts and the `<base href>` out.
//!
//! [`scan`] drives the tokenizer and hands each token to a [`PageScan`],
//! a small state object with one method per kind of token
//! ([`PageScan::text`], [`PageScan::start_tag`], [`PageScan::end_tag`]),
//! in the shape of html5ever's `TokenSink`. Its state is what the
//! tree-builder simulator does not tell: whether the text is a `<style>`'s
//! CSS or other raw text, whether it is inside an `<a>`, and whether the
//! previous tag left the document in foreign (SVG/MathML) content.
//!
//! A start tag takes two calls. [`PageScan::read_start_tag`], while its
//! token lives, keeps the wanted attributes ([`Attr`]): as ranges of the
//! page text when the tokenizer lends them unchanged
//! ([`TokenText::Input`]), copied otherwise. [`PageScan::start_tag`], once
//! the token is gone and the simulator said whether the element is
//! foreign ([`PageScan::after_tag`], after every tag), handles it.
//!
//! *Changing the encoding while parsing*: a `<meta>` that names an
//! encoding while the confidence is tentative ends the pass early
//! ([`Pass::restart`]); the caller decodes the bytes again and scans once
//! more, with changes off.

use spinneret_encoding::{Change, Confidence, Determination, Encoding, meta_element_encoding};
use spinneret_html::{LocalName, Name, Tag, Token, TokenText, Tokenizer, TokenizerOptions};

use crate::anchor_text::AnchorTexts;
use crate::pending::{Found, Kept, PendingLinks, Qualifiers, Text};
use crate::rules::{self, Attr};

/// The buffers a pass fills, kept from page to page (emptied at the start
/// of each pass).
#[derive(Default)]
pub(crate) struct Buffers {
    pub(crate) links: PendingLinks,
    pub(crate) texts: AnchorTexts,
    tag: TagAttrs,
    style_text: String,
}

/// The most pending links [`Buffers`] keep room for between pages (256 KB;
/// the corpus's pages have at most a few thousand links).
pub(crate) const KEEP_LINKS: usize = 8192;
/// The most text bytes each of [`Buffers`]' strings keeps room for between
/// pages.
const KEEP_TEXT_BYTES: usize = 1 << 20;

impl Buffers {
    /// Frees buffers a huge page grew beyond what ordinary pages need, so
    /// that one such page does not hold its memory for the thread's life.
    pub(crate) fn release_outsized(&mut self) {
        let links = &mut self.links;
        if links.links.capacity() > KEEP_LINKS || links.text_capacity() > KEEP_TEXT_BYTES {
            links.release();
        }
        if self.texts.all.capacity() > KEEP_TEXT_BYTES {
            self.texts.all = String::new();
        }
        if self.texts.starts.capacity() > KEEP_LINKS {
            self.texts.starts.release();
        }
        if self.tag.copies.capacity() > KEEP_TEXT_BYTES {
            self.tag.copies = String::new();
        }
        if self.style_text.capacity() > KEEP_TEXT_BYTES {
            self.style_text = String::new();
        }
    }
}

/// What a pass found besides what it left in the [`Buffers`].
pub(crate) struct Pass {
    /// The first `<base href>` value.
    pub(crate) base_href: Option<Kept>,
    /// What *change the encoding* said, if a `<meta>` triggered it.
    pub(crate) change: Option<Change>,
    /// The encoding changed: decode again and scan again.
    pub(crate) restart: bool,
}

/// A page as one pass reads it: its bytes and their decoding.
#[derive(Clone, Copy)]
pub(crate) struct Page<'a> {
    /// The response body.
    pub(crate) bytes: &'a [u8],
    /// `bytes` decoded with the pass's encoding; the tokenizer reads it.
    pub(crate) text: &'a str,
    /// Whether the decoder lent `text` from `bytes` (it is `bytes` after
    /// any BOM: valid UTF-8, or ASCII in an ASCII-compatible encoding).
    pub(crate) lent: bool,
}

impl<'a> Page<'a> {
    /// The bytes that decode to `text[..offset]` with `encoding`: when the
    /// text was lent, the BOM and the first `offset` bytes after it;
    /// otherwise the bytes are decoded again up to `offset` bytes of text.
    fn consumed(self, encoding: &'static Encoding, offset: usize) -> &'a [u8] {
        let offset = offset.min(self.text.len());
        if self.lent {
            let bom = self.bytes.len() - self.text.len();
            return &self.bytes[..bom + offset];
        }
        let mut decoder = encoding.new_decoder_without_bom_handling();
        let mut out = vec![0u8; offset];
        let (_, read, _, _) = decoder.decode_to_utf8(self.bytes, &mut out, false);
        &self.bytes[..read]
    }
}

/// Scans `page` with `det`'s encoding. With `may_change`, a `<meta>`
/// naming an encoding while `det` is tentative changes `det` and may end
/// the pass early.
pub(crate) fn scan(
    page: Page<'_>,
    det: &mut Determination,
    may_change: bool,
    buffers: &mut Buffers,
) -> Pass {
    buffers.links.clear_for(page.text);
    buffers.texts.clear();
    buffers.style_text.clear();
    let mut sink = PageScan {
        page,
        det,
        may_change,
        buffers,
        raw: None,
        in_anchor: false,
        maybe_foreign: false,
        foreign: false,
        template_depth: 0,
        base_href: None,
        change: None,
    };
    let mut tok = Tokenizer::new(page.text, TokenizerOptions::default());
    while let Some(token) = tok.next_token() {
        let tag = match token {
            Token::Text(t) => {
                sink.text(t);
                continue;
            }
            Token::Comment(_) | Token::Doctype(_) => continue,
            Token::StartTag(tag) => Some(sink.read_start_tag(&tag)),
            Token::EndTag(tag) => {
                sink.end_tag(tag.name.local());
                None
            }
        };
        // The state after the tag: whether the adjusted current node is
        // foreign (the simulator is asked only once an <svg>/<math> was
        // seen).
        let foreign = sink.maybe_foreign && tok.in_foreign_content();
        let foreign_before = sink.after_tag(foreign);
        if let Some(element) = tag
            && sink.start_tag(element, foreign_before, tok.offset()) == Flow::Restart
        {
            return sink.pass(true);
        }
        // Text matters only as anchor text (a `<style>`'s is RAWTEXT,
        // which is never skipped).
        tok.skip_data_text(!sink.in_anchor);
    }
    sink.finish();
    sink.pass(false)
}

/// Which raw-text element's text the next text token is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum RawText {
    Style,
    /// `script`, `xmp`, `iframe`, `noembed`, `noframes`: not anchor text.
    Hidden,
}

/// Whether the pass goes on after a tag.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Flow {
    Continue,
    /// The encoding changed: stop and scan again.
    Restart,
}

/// A start tag, read: its name (the attributes are in
/// [`TagAttrs`]).
struct Element {
    local: Option<LocalName>,
    /// Whether an attribute can hold a link.
    has_link_attribute: bool,
}

/// Where a kept attribute value is: a range of the page text, or of
/// [`TagAttrs::copies`].
#[derive(Clone, Copy)]
struct Span {
    start: usize,
    end: usize,
    copied: bool,
}

/// The wanted attributes of the current start tag, and its name when it
/// is not interned. Emptied at each start tag.
#[derive(Default)]
struct TagAttrs {
    values: Vec<(Attr, Span)>,
    /// The values (and name) the tokenizer changed, copied.
    copies: String,
    /// The tag name, when not a [`LocalName`].
    other_name: Option<Span>,
}

impl TagAttrs {
    fn clear(&mut self) {
        self.values.clear();
        self.copies.clear();
        self.other_name = None;
    }

    /// Where `t` is, copying it unless it is a span of the page text.
    fn keep(&mut self, t: TokenText<'_>) -> Span {
        match t.input_range() {
            Some(r) => Span {
                start: r.start,
                end: r.end,
                copied: false,
            },
            None => self.copy(t.as_str()),
        }
    }

    fn copy(&mut self, s: &str) -> Span {
        let start = self.copies.len();
        self.copies.push_str(s);
        Span {
            start,
            end: self.copies.len(),
            copied: true,
        }
    }

    fn text<'a>(&'a self, page_text: &'a str, s: Span) -> &'a str {
        let src = if s.copied { &self.copies } else { page_text };
        &src[s.start..s.end]
    }

    /// The value of attribute `a`.
    fn get<'a>(&'a self, page_text: &'a str, a: Attr) -> Option<&'a str> {
        let &(_, s) = self.values.iter().find(|(k, _)| *k == a)?;
        Some(self.text(page_text, s))
    }
}

/// Start tags that leave foreign content (the ones this crate cares about).
fn breaks_out(name: Option<LocalName>) -> bool {
    use LocalName as L;
    matches!(
        name,
        Some(L::Img | L::Embed | L::Blockquote | L::Meta | L::Body | L::Head)
    )
}

/// The state of one pass between tokens.
struct PageScan<'a> {
    /// The page: the text the tokenizer reads, and the bytes for *change
    /// the encoding*.
    page: Page<'a>,
    det: &'a mut Determination,
    may_change: bool,
    buffers: &'a mut Buffers,
    /// Which raw text the next text token is, if any.
    raw: Option<RawText>,
    /// Whether the text goes to the last anchor text.
    in_anchor: bool,
    /// Whether an `<svg>`/`<math>` start tag was seen (only then can the
    /// document be in foreign content).
    maybe_foreign: bool,
    /// Whether the adjusted current node is foreign after the last tag.
    foreign: bool,
    /// How many HTML `template` elements are open (start tags less end
    /// tags): a `base` in a template's contents is not in the document and
    /// sets no base URL.
    template_depth: u32,
    base_href: Option<Kept>,
    change: Option<Change>,
}

impl<'a> PageScan<'a> {
    /// A run of characters: a `<style>`'s CSS, hidden raw text, or
    /// (inside an `<a>`) anchor text.
    fn text(&mut self, t: &str) {
        match self.raw {
            Some(RawText::Style) => self.buffers.style_text.push_str(t),
            Some(RawText::Hidden) => {}
            None => {
                if self.in_anchor {
                    self.buffers.texts.push(t);
                }
            }
        }
    }

    /// An end tag: `</a>` ends the anchor text; `</template>` closes a
    /// template (one not open is ignored by the tree builder).
    fn end_tag(&mut self, name: Option<LocalName>) {
        match name {
            Some(LocalName::A) => self.in_anchor = false,
            Some(LocalName::Template) => {
                self.template_depth = self.template_depth.saturating_sub(1);
            }
            _ => {}
        }
    }

    /// Reads a start tag while its token lives: the name and the wanted
    /// attributes (the tokenizer's scratch text copied).
    fn read_start_tag(&mut self, tag: &Tag<'_>) -> Element {
        let attrs = &mut self.buffers.tag;
        attrs.clear();
        let mut has_link_attribute = false;
        for (a, v) in tag.attrs.select_text(Attr::from_local) {
            has_link_attribute |= a.can_hold_link();
            let span = attrs.keep(v);
            attrs.values.push((a, span));
        }
        let local = match tag.name {
            Name::Known(n) => Some(n),
            Name::Other(s) => {
                // Needed only by the rules, which run only then.
                if has_link_attribute {
                    attrs.other_name = Some(attrs.copy(s));
                }
                None
            }
        };
        if matches!(local, Some(LocalName::Svg | LocalName::Math)) {
            self.maybe_foreign = true;
        }
        Element {
            local,
            has_link_attribute,
        }
    }

    /// After any tag: the simulator's word on foreign content; the end of
    /// a `<style>`'s text. Returns whether the adjusted current node was
    /// foreign before the tag.
    fn after_tag(&mut self, foreign: bool) -> bool {
        let before = std::mem::replace(&mut self.foreign, foreign);
        self.flush_style_text();
        self.raw = None;
        before
    }

    /// A start tag, after [`PageScan::read_start_tag`] and
    /// [`PageScan::after_tag`] (which said whether the document was in
    /// foreign content before it: `foreign_before`); `offset` is where the
    /// next token starts.
    fn start_tag(&mut self, element: Element, foreign_before: bool, offset: usize) -> Flow {
        use LocalName as L;
        let local = element.local;
        // The element's namespace: SVG when the tree builder used the rules
        // for foreign content and kept it there.
        let svg = foreign_before && self.foreign && !breaks_out(local);
        // "in body", a start tag whose tag name is "image": change the
        // token's tag name to "img" and reprocess it — so an HTML `<image
        // src>` is an image, as the tree has it.
        let local = if !svg && local == Some(L::Image) {
            Some(L::Img)
        } else {
            local
        };
        if !svg {
            match local {
                Some(L::Style) => self.raw = Some(RawText::Style),
                Some(L::Script | L::Xmp | L::Iframe | L::Noembed | L::Noframes) => {
                    self.raw = Some(RawText::Hidden);
                }
                Some(L::A) => self.in_anchor = false,
                Some(L::Template) => self.template_depth += 1,
                // The document base URL: the first `base` element with an
                // `href` in the document (not in template contents).
                Some(L::Base) => {
                    if self.base_href.is_none()
                        && self.template_depth == 0
                        && let Some(h) = self.buffers.tag.get(self.page.text, Attr::Href)
                    {
                        self.base_href = self.buffers.links.keep_text(h);
                    }
                }
                Some(L::Meta)
                    if self.may_change
                        && self.det.confidence == Confidence::Tentative
                        && self.meta_changes_encoding(offset) =>
                {
                    return Flow::Restart;
                }
                _ => {}
            }
        }
        if element.has_link_attribute {
            // Every rule reads at least one attribute that can hold a link.
            self.push_links(local, svg);
        }
        Flow::Continue
    }

    /// *Change the encoding* for a `<meta>` naming one; whether the pass
    /// must restart.
    fn meta_changes_encoding(&mut self, offset: usize) -> bool {
        let attrs = &self.buffers.tag;
        let get = |a| attrs.get(self.page.text, a).map(str::as_bytes);
        let Some(enc) =
            meta_element_encoding(get(Attr::Charset), get(Attr::HttpEquiv), get(Attr::Content))
        else {
            return false;
        };
        let bytes = self.page.consumed(self.det.encoding, offset);
        let change = self.det.change_the_encoding(enc, bytes);
        self.change = Some(change);
        matches!(change, Change::SwitchInPlace(_) | Change::Reparse(_))
    }

    /// The links of the current start tag, by the rule table.
    fn push_links(&mut self, local: Option<LocalName>, svg: bool) {
        use LocalName as L;
        let Buffers {
            links, texts, tag, ..
        } = &mut *self.buffers;
        let page_text = self.page.text;
        let name = match (local, tag.other_name) {
            (Some(n), _) => n.as_str(),
            (None, Some(s)) => tag.text(page_text, s),
            (None, None) => "",
        };
        let is_anchor = !svg && local == Some(L::A);
        let is_linkish = !svg && matches!(local, Some(L::A | L::Area | L::Link));
        let in_anchor = &mut self.in_anchor;
        let get = |a| tag.get(page_text, a);
        // A name the tokenizer does not intern is kept once per tag, not
        // once per link.
        let mut element = local.map(Text::Name);
        rules::links_of(name, svg, get, |attribute, kind, v| {
            let main = is_linkish && attribute == Attr::Href;
            let text = if is_anchor && main {
                *in_anchor = true;
                Some(texts.begin())
            } else {
                None
            };
            let mut keep = |a| get(a).and_then(|v| links.keep_text(v));
            let qualifiers = if main {
                Qualifiers {
                    rel: keep(Attr::Rel),
                    hreflang: keep(Attr::Hreflang),
                    as_: if local == Some(L::Link) {
                        keep(Attr::As)
                    } else {
                        None
                    },
                }
            } else {
                Qualifiers::default()
            };
            let element = match element {
                Some(e) => e,
                None => match links.keep_text(name) {
                    Some(k) => *element.insert(Text::Kept(k)),
                    None => return,
                },
            };
            let Some(raw) = links.keep_text(&v) else {
                return;
            };
            links.push(Found {
                element,
                attribute: Some(attribute),
                svg,
                kind,
                raw,
                qualifiers,
                text,
            });
        });
    }

    /// The `url()`s of a `<style>` element's text, when it ended (at the
    /// next tag or the end of the page). The check is inline: it runs after
    /// every tag, and a `<style>` ends at a handful.
    #[inline]
    fn flush_style_text(&mut self) {
        if self.raw == Some(RawText::Style) {
            self.style_text_links();
        }
    }

    /// [`PageScan::flush_style_text`]'s work, out of line.
    #[inline(never)]
    fn style_text_links(&mut self) {
        let Buffers {
            links, style_text, ..
        } = &mut *self.buffers;
        rules::style_text_links(style_text, |_, kind, v| {
            if let Some(raw) = links.keep_text(&v) {
                links.push(Found {
                    element: Text::Name(LocalName::Style),
                    attribute: None,
                    svg: false,
                    kind,
                    raw,
                    qualifiers: Qualifiers::default(),
                    text: None,
                });
            }
        });
        style_text.clear();
    }

    /// The end of the page.
    fn finish(&mut self) {
        self.flush_style_text();
    }

    fn pass(self, restart: bool) -> Pass {
        Pass {
            base_href: self.base_href,
            change: self.change,
            restart,
        }
    }
}
