//! Visible text: the text a reader sees on the rendered page, roughly as a
//! browser's `innerText` gives it, without any style sheet applied — the
//! input of near-duplicate detection and text extraction.
//!
//! The rules, exactly:
//!
//! 1. **Not rendered, skipped with all their content**: the HTML elements
//!    `head` (so `title` and everything else there), `title`, `script`,
//!    `style`, `template` (its contents are not children anyway),
//!    `noscript` (a browser runs with scripting on, so it never shows
//!    them; with the parser's scripting flag off their content is still
//!    skipped), `iframe`, `noembed`, `noframes`, `frameset`, `frame`,
//!    `embed`, `canvas`, `audio` and `video` (their children are fallback
//!    content that a browser supporting them never shows; `object`'s
//!    fallback is kept), `datalist`, `rp`, `input` (its value is form
//!    state, not document text; `innerText` has none either), `img` (not
//!    even `alt`), and every HTML element with a `hidden` attribute
//!    (`until-found` too); SVG `script`, `style`, `title`, `desc` and
//!    `metadata`; MathML `annotation` and `annotation-xml`.
//! 2. **Form controls**: a `select` shows one option, the first with a
//!    `selected` attribute, else the first (a drop-down's face), by its
//!    `label` attribute when non-empty, else by its text with white space
//!    collapsed; `textarea` shows its text with white space preserved;
//!    `button` and `label` content is ordinary inline text.
//! 3. **A closed `details`** (no `open` attribute) shows only its first
//!    `summary` child.
//! 4. **Blocks**: the HTML elements `address`, `article`, `aside`,
//!    `blockquote`, `body`, `caption`, `center`, `dd`, `details`,
//!    `dialog`, `dir`, `div`, `dl`, `dt`, `fieldset`, `figcaption`,
//!    `figure`, `footer`, `form`, `h1`–`h6`, `header`, `hgroup`, `hr`,
//!    `html`, `legend`, `li`, `listing`, `main`, `menu`, `nav`, `ol`,
//!    `plaintext`, `pre`, `search`, `section`, `summary`, `table`,
//!    `tbody`, `thead`, `tfoot`, `tr`, `ul` and `xmp` start and end a
//!    line; `p` starts and ends a paragraph (one blank line before and
//!    after). Line breaks that meet merge: the largest wins, so there is
//!    never more than one blank line in a row outside preformatted text.
//! 5. **`br`** ends the line: `a<br>b` is two lines, `a<br><br>b` has a
//!    blank line between (more `br`s still give one); a `br` just before
//!    the end of a block adds no line of its own.
//! 6. **Table cells** (`td`, `th`): every cell of a row after its first
//!    starts with a tab (an empty cell keeps its tab, so columns stay
//!    aligned, also at the start of a line; tabs at the end of a line are
//!    dropped). Once the row has text, a cell stays on the row's line: the
//!    line breaks that the previous cell's blocks owed at its end, and
//!    those of blocks at the very start of the cell, are dropped; line
//!    breaks between text inside a cell stay.
//! 7. **White space**: outside preformatted text, every run of ASCII white
//!    space (space, tab, line feed, form feed, carriage return) becomes
//!    one space, and no line starts or ends with one; U+00A0 (no-break
//!    space) is text and kept. U+00AD (soft hyphen) is left out, in
//!    preformatted text too: a browser shows it only where it breaks a
//!    line (`Mit&shy;tel&shy;al&shy;ter` reads `Mittelalter`). Inside
//!    `pre`, `textarea`, `listing`, `xmp` and `plaintext` (and their
//!    descendants) text is kept exactly otherwise.
//! 8. **Ends**: no line break at the start or end of the result, and no
//!    space there unless preformatted text puts it there.
//! 9. **Everything else**: other elements (`span`, `a`, `b`, SVG and
//!    MathML elements, unknown elements…) are inline; comments and
//!    doctypes give nothing. CSS is not applied: content hidden by a style
//!    sheet or a `style` attribute stays.
//!
//! The rules are applied to the node visible text is asked of and its
//! descendants (a skipped node gives `""`); its ancestors are not looked
//! at. The walk follows the node links (no recursion; the only stack is
//! of closed `details` inside one another), so any depth is fine; time is
//! linear in the size of the subtree and its attributes.

use super::{Document, ElementRef, NodeKind, NodeRef};
use crate::names::LocalName as L;
use crate::namespace::Namespace;

impl Document {
    /// The text a reader sees: the visible text of the root (see
    /// [`NodeRef::visible_text`]).
    pub fn visible_text(&self) -> String {
        self.root().visible_text()
    }
}

impl NodeRef<'_> {
    /// The text a reader sees in this node and its descendants: no
    /// script, style, template, `head` or `hidden` content, blocks on
    /// lines of their own, white space collapsed as a browser renders it.
    /// The exact rules are in the module documentation of
    /// `dom/visible_text.rs`.
    ///
    /// ```
    /// use spinneret_html::{parse_document, ParseOptions};
    /// let doc = parse_document(
    ///     "<title>T</title><p>Hello,\n   <b>world</b>!<script>x()</script><p hidden>no",
    ///     &ParseOptions::default(),
    /// );
    /// assert_eq!(doc.visible_text(), "Hello, world!");
    /// ```
    pub fn visible_text(&self) -> String {
        self.visible_text_without(|_| false)
    }

    /// The visible text of this node with the nodes `skip` picks left out,
    /// each with all its content, as if they were not in the tree: the
    /// rendering of a chosen part of a page (main-content extraction
    /// drops navigation and boilerplate this way). `skip` is asked once per
    /// node the walk reaches, never of the descendants of a skipped node.
    ///
    /// ```
    /// use spinneret_html::{parse_document, ParseOptions};
    /// let doc = parse_document("<p>Story <b class=ad>Ad</b>goes on", &ParseOptions::default());
    /// let text = doc.root().visible_text_without(|n| {
    ///     n.as_element().is_some_and(|e| e.attr("class") == Some("ad"))
    /// });
    /// assert_eq!(text, "Story goes on");
    /// ```
    pub fn visible_text_without(&self, skip: impl Fn(NodeRef<'_>) -> bool) -> String {
        self.visible_text_with(VisibleTextOptions::default(), skip)
    }

    /// [`visible_text_without`](Self::visible_text_without) with the
    /// rendering's choices of `options` (`noscript` content shown, as a
    /// browser with scripting disabled shows it).
    ///
    /// ```
    /// use spinneret_html::{parse_document, ParseOptions, VisibleTextOptions};
    /// let doc = parse_document("a<noscript><p>b</p></noscript>", &ParseOptions::default());
    /// assert_eq!(doc.visible_text(), "a");
    /// let shown = VisibleTextOptions { noscript: true, ..VisibleTextOptions::default() };
    /// assert_eq!(doc.root().visible_text_with(shown, |_| false), "a\n\nb");
    /// let doc = parse_document("<p>a<p hidden>b", &ParseOptions::default());
    /// assert_eq!(doc.visible_text(), "a");
    /// let shown = VisibleTextOptions { hidden: true, ..VisibleTextOptions::default() };
    /// assert_eq!(doc.root().visible_text_with(shown, |_| false), "a\n\nb");
    /// ```
    pub fn visible_text_with(
        &self,
        options: VisibleTextOptions,
        skip: impl Fn(NodeRef<'_>) -> bool,
    ) -> String {
        let mut writer = Writer {
            options,
            ..Writer::default()
        };
        walk(&mut writer, *self, &skip);
        writer.finish()
    }
}

/// Renders `start` and everything under it into `writer`, leaving out the
/// nodes `skip` picks (with their content).
pub(super) fn walk(writer: &mut Writer, start: NodeRef<'_>, skip: &impl Fn(NodeRef<'_>) -> bool) {
    // The `summary` children of closed `details` being walked, innermost
    // last: the walk leaves each without visiting its siblings.
    let mut shown_summaries = Vec::new();
    let mut node = start;
    loop {
        let mut entered = !skip(node) && writer.enter(node);
        if entered && let Some(child) = first_visible_child(node, &mut shown_summaries) {
            node = child;
            continue;
        }
        // Leave `node` and the ancestors it ends, up to a next sibling.
        loop {
            if entered {
                writer.leave(node);
            }
            if node == start {
                return;
            }
            let next = if shown_summaries.last() == Some(&node.id()) {
                shown_summaries.pop();
                None
            } else {
                node.next_sibling()
            };
            if let Some(next) = next {
                node = next;
                break;
            }
            match node.parent() {
                Some(parent) => node = parent,
                None => return,
            }
            entered = true;
        }
    }
}

/// Choices of the visible text's rendering that a browser's settings
/// make.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct VisibleTextOptions {
    /// Show `noscript` content (a browser with scripting disabled, or a
    /// reader that runs no script); it is skipped by default (rule 1).
    /// Only a document parsed with scripting off has that content as
    /// elements: parsed with scripting on, it is one raw text node, shown
    /// as it is.
    pub noscript: bool,
    /// Show elements with the `hidden` attribute (a reader of the whole
    /// document rather than of the first screen: collapsed sections and
    /// tab panels a click would show); skipped by default (rule 1).
    pub hidden: bool,
}

impl ElementRef<'_> {
    /// Whether the element's content can be part of the visible text:
    /// `false` for the elements the visible text skips with all their
    /// content (`script`, `style`, `head`, `template`, `hidden`
    /// elements…: rule 1 of the module documentation of
    /// `dom/visible_text.rs`). A closed `details` renders (its summary).
    ///
    /// ```
    /// use spinneret_html::{parse_document, ParseOptions};
    /// let doc = parse_document("<p>a<script>s</script><b hidden>h</b>", &ParseOptions::default());
    /// let shown: Vec<_> = doc.root().descendants().filter_map(|n| n.as_element())
    ///     .filter(|e| e.renders_text()).map(|e| e.name()).collect();
    /// assert_eq!(shown, ["html", "body", "p"]);
    /// ```
    pub fn renders_text(&self) -> bool {
        role(*self, VisibleTextOptions::default()) != Role::Skip
    }

    /// [`renders_text`](Self::renders_text) under `options`.
    pub fn renders_text_with(&self, options: VisibleTextOptions) -> bool {
        role(*self, options) != Role::Skip
    }
}

/// What an element is to the layout.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// Not rendered: skipped with its content.
    Skip,
    /// A block: a line of its own.
    Block,
    /// A paragraph: a blank line before and after.
    Paragraph,
    /// A block whose text is kept exactly.
    PreBlock,
    /// Inline text kept exactly (`textarea`).
    PreInline,
    /// A line break.
    Br,
    /// A table cell.
    Cell,
    /// A `select`: one option's text.
    Select,
    /// Anything else.
    Inline,
}

pub(super) fn role(e: ElementRef<'_>, options: VisibleTextOptions) -> Role {
    match e.namespace() {
        Namespace::Svg => {
            return match e.name() {
                "script" | "style" | "title" | "desc" | "metadata" => Role::Skip,
                _ => Role::Inline,
            };
        }
        Namespace::MathMl => {
            return match e.name() {
                "annotation" | "annotation-xml" => Role::Skip,
                _ => Role::Inline,
            };
        }
        Namespace::Html => {}
    }
    if !options.hidden && e.attr_known(L::Hidden).is_some() {
        return Role::Skip;
    }
    let Some(name) = e.local_name() else {
        return Role::Inline;
    };
    if name == L::Noscript && options.noscript {
        return Role::Inline;
    }
    match name {
        L::Head
        | L::Title
        | L::Script
        | L::Style
        | L::Template
        | L::Noscript
        | L::Iframe
        | L::Noembed
        | L::Noframes
        | L::Frameset
        | L::Frame
        | L::Embed
        | L::Canvas
        | L::Audio
        | L::Video
        | L::Datalist
        | L::Rp
        | L::Input
        | L::Img => Role::Skip,
        L::P => Role::Paragraph,
        L::Pre | L::Listing | L::Xmp | L::Plaintext => Role::PreBlock,
        L::Textarea => Role::PreInline,
        L::Br => Role::Br,
        L::Td | L::Th => Role::Cell,
        L::Select => Role::Select,
        L::Address
        | L::Article
        | L::Aside
        | L::Blockquote
        | L::Body
        | L::Caption
        | L::Center
        | L::Dd
        | L::Details
        | L::Dialog
        | L::Dir
        | L::Div
        | L::Dl
        | L::Dt
        | L::Fieldset
        | L::Figcaption
        | L::Figure
        | L::Footer
        | L::Form
        | L::H1
        | L::H2
        | L::H3
        | L::H4
        | L::H5
        | L::H6
        | L::Header
        | L::Hgroup
        | L::Hr
        | L::Html
        | L::Legend
        | L::Li
        | L::Main
        | L::Menu
        | L::Nav
        | L::Ol
        | L::Search
        | L::Section
        | L::Summary
        | L::Table
        | L::Tbody
        | L::Thead
        | L::Tfoot
        | L::Tr
        | L::Ul => Role::Block,
        _ => Role::Inline,
    }
}

/// Whether `node` is an HTML `details` without `open`.
pub(super) fn is_closed_details(node: NodeRef<'_>) -> bool {
    node.as_element()
        .is_some_and(|e| e.is_html(L::Details) && e.attr("open").is_none())
}

fn is_summary(node: NodeRef<'_>) -> bool {
    node.as_element().is_some_and(|e| e.is_html(L::Summary))
}

/// The first child the walk visits: of a closed `details`, its first
/// `summary` only (pushed on `shown_summaries`).
fn first_visible_child<'d>(
    node: NodeRef<'d>,
    shown_summaries: &mut Vec<super::NodeId>,
) -> Option<NodeRef<'d>> {
    if is_closed_details(node) {
        let summary = node.children().find(|c| is_summary(*c))?;
        shown_summaries.push(summary.id());
        Some(summary)
    } else {
        node.first_child()
    }
}

/// Whether a `td`/`th` comes before `cell` in its row.
fn has_previous_cell(cell: NodeRef<'_>) -> bool {
    std::iter::successors(cell.prev_sibling(), |n| n.prev_sibling()).any(|n| {
        n.as_element()
            .is_some_and(|e| e.is_html(L::Td) || e.is_html(L::Th))
    })
}

/// The text a `select` shows: its selected option's (or first option's)
/// label.
fn select_label(select: NodeRef<'_>) -> Option<String> {
    let is_option = |n: &NodeRef<'_>| n.as_element().is_some_and(|e| e.is_html(L::Option));
    let mut options = select.descendants().filter(is_option);
    let first = options.clone().next()?;
    let shown = options
        .find(|o| o.as_element().is_some_and(|e| e.attr("selected").is_some()))
        .unwrap_or(first);
    match shown.as_element().and_then(|e| e.attr("label")) {
        Some(label) if !label.is_empty() => Some(label.to_owned()),
        _ => shown.text_content(),
    }
}

/// U+00AD SOFT HYPHEN: a browser shows it only where it breaks a line,
/// so the visible text (and `spinneret-text`'s Markdown) leaves it out.
pub const SOFT_HYPHEN: char = '\u{ad}';

/// Appends `text` as it is shown: without its soft hyphens.
pub fn push_shown(out: &mut String, text: &str) {
    if text.contains(SOFT_HYPHEN) {
        out.extend(text.chars().filter(|&c| c != SOFT_HYPHEN));
    } else {
        out.push_str(text);
    }
}

/// The output being written, with the separators owed before the next
/// character.
#[derive(Default)]
pub(super) struct Writer {
    pub(super) out: String,
    /// Line breaks owed before the next text (0–2).
    pub(super) breaks: u8,
    /// A space owed before the next text.
    pub(super) space: bool,
    /// Tabs owed before the next text on this line (table cells).
    pub(super) tabs: usize,
    /// Nothing written since the current row started.
    pub(super) row_empty: bool,
    /// At the start of a cell that continues its row's line: block
    /// boundaries here add no line break.
    pub(super) cell_start: bool,
    /// How many preformatted elements the walk is inside.
    pub(super) pre_depth: usize,
    pub(super) options: VisibleTextOptions,
    /// Rendering a piece of a document from a guessed start (see
    /// `dom/render_pieces.rs`): what the guess leaves open.
    pub(super) guess: Option<Guess>,
}

/// What a [`Writer`] that renders a piece of the walk from a guessed state
/// learns about its start: the piece begins where something has been
/// written already, just before the entry of a block, with `breaks` owed
/// as if 0 or 1 were owed before that block and [`Guess::alt_breaks`]
/// as if 2 were (the only part of the state there that is not known:
/// the block's entry sets the rest); its first separator's line breaks
/// are left for the join to write.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Guess {
    /// `breaks` under the other hypothesis, until the first text.
    pub(super) alt_breaks: u8,
    /// The first text has been written (everything since is exact).
    pub(super) started: bool,
    /// The line breaks owed at the first text, under each hypothesis.
    pub(super) first_breaks: [u8; 2],
    /// A separator counted line breaks the piece had not written itself,
    /// or a cell read the state of a row begun before the piece: the
    /// piece must be rendered again from its true start.
    pub(super) unsure: bool,
    /// `row_empty` has been set in the piece.
    pub(super) row_known: bool,
}

impl Writer {
    /// Visits `node` on the way down; `false` when its content is skipped.
    pub(super) fn enter(&mut self, node: NodeRef<'_>) -> bool {
        let element = match node.kind() {
            NodeKind::Text(text) => {
                self.text(text);
                return false;
            }
            NodeKind::Element(e) => e,
            NodeKind::Document | NodeKind::Fragment => return true,
            NodeKind::Doctype { .. } | NodeKind::Comment(_) => return false,
        };
        match role(element, self.options) {
            Role::Skip => return false,
            Role::Inline => {}
            Role::Block => self.block(1),
            Role::Paragraph => self.block(2),
            Role::PreBlock => {
                self.block(1);
                self.pre_depth += 1;
            }
            Role::PreInline => self.pre_depth += 1,
            Role::Br => {
                self.space = false;
                self.tabs = 0;
                if !self.is_empty() {
                    self.breaks = (self.breaks + 1).min(2);
                    if let Some(g) = &mut self.guess {
                        g.alt_breaks = (g.alt_breaks + 1).min(2);
                    }
                }
            }
            Role::Cell => {
                if has_previous_cell(node) {
                    if let Some(g) = &mut self.guess
                        && !g.row_known
                    {
                        g.unsure = true;
                    }
                    if !self.row_empty {
                        // The row's line goes on: what the previous cell
                        // owed (its blocks' ends) is not a new line.
                        self.breaks = 0;
                        if let Some(g) = &mut self.guess {
                            g.alt_breaks = 0;
                        }
                        self.cell_start = true;
                    }
                    self.space = false;
                    self.tabs += 1;
                }
            }
            Role::Select => {
                if let Some(label) = select_label(node) {
                    // The label is shown as one line of text whatever the
                    // white space around it.
                    let saved = std::mem::take(&mut self.pre_depth);
                    self.text(&label);
                    self.pre_depth = saved;
                }
                return false;
            }
        }
        if element.is_html(L::Tr) {
            self.row_empty = true;
            self.cell_start = false;
            if let Some(g) = &mut self.guess {
                g.row_known = true;
            }
        }
        true
    }

    /// Whether nothing has been written: a writer of a guessed piece
    /// starts where something has.
    fn is_empty(&self) -> bool {
        self.out.is_empty() && self.guess.is_none()
    }

    /// Visits an entered node on the way up.
    pub(super) fn leave(&mut self, node: NodeRef<'_>) {
        let Some(element) = node.as_element() else {
            return;
        };
        match role(element, self.options) {
            Role::Block => self.block(1),
            Role::Paragraph => self.block(2),
            Role::PreBlock => {
                self.pre_depth -= 1;
                self.block(1);
            }
            Role::PreInline => self.pre_depth -= 1,
            // An empty cell's start ends with it: the row's end is a line
            // break again.
            Role::Cell => self.cell_start = false,
            _ => {}
        }
    }

    /// A block boundary asking for `n` line breaks.
    fn block(&mut self, n: u8) {
        self.space = false;
        if self.is_empty() || self.cell_start {
            return;
        }
        self.tabs = 0;
        self.breaks = self.breaks.max(n);
        if let Some(g) = &mut self.guess {
            g.alt_breaks = g.alt_breaks.max(n);
        }
    }

    /// Writes what is owed before the next character.
    fn flush(&mut self) {
        if !self.is_empty() {
            match &mut self.guess {
                // The first text of a guessed piece: its line breaks are
                // the join's to write.
                Some(g) if !g.started => {
                    g.started = true;
                    g.first_breaks = [self.breaks, g.alt_breaks];
                }
                guess => {
                    let have = self
                        .out
                        .bytes()
                        .rev()
                        .take(2)
                        .take_while(|&b| b == b'\n')
                        .count();
                    // Fewer than two bytes, all line breaks: the count
                    // would go on into what came before the piece.
                    if let Some(g) = guess
                        && self.out.len() < 2
                        && have == self.out.len()
                    {
                        g.unsure = true;
                    }
                    let owed = usize::from(self.breaks).saturating_sub(have);
                    self.out.extend(std::iter::repeat_n('\n', owed));
                }
            }
            if self.breaks == 0 && self.space && self.tabs == 0 {
                self.out.push(' ');
            }
        }
        self.out.extend(std::iter::repeat_n('\t', self.tabs));
        self.breaks = 0;
        self.space = false;
        self.tabs = 0;
        self.row_empty = false;
        self.cell_start = false;
        if let Some(g) = &mut self.guess {
            g.row_known = true;
        }
    }

    /// A text node's data.
    fn text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if self.pre_depth > 0 {
            self.flush();
            push_shown(&mut self.out, text);
            return;
        }
        for word in text.split(|c: char| c.is_ascii_whitespace()) {
            if word.is_empty() {
                self.space_between();
                continue;
            }
            if word.chars().all(|c| c == SOFT_HYPHEN) {
                continue;
            }
            self.flush();
            push_shown(&mut self.out, word);
            // A split point follows every word but the last; it is a
            // white space character, owed as a space.
            self.space = true;
        }
        // The last piece had no white space after it.
        if text.ends_with(|c: char| !c.is_ascii_whitespace()) {
            self.space = false;
        }
    }

    /// White space in collapsible text: a space, unless at a line's start.
    fn space_between(&mut self) {
        if !self.is_empty() && self.breaks == 0 && !self.cell_start {
            self.space = true;
        }
    }

    /// The result, without the line breaks preformatted text may leave at
    /// its ends.
    pub(super) fn finish(mut self) -> String {
        self.out.truncate(self.out.trim_end_matches('\n').len());
        let leading = self.out.len() - self.out.trim_start_matches('\n').len();
        self.out.drain(..leading);
        self.out
    }
}

#[cfg(test)]
mod tests {
    use crate::{FragmentContext, ParseOptions, parse_document, parse_fragment};

    fn text(html: &str) -> String {
        parse_document(html, &ParseOptions::default()).visible_text()
    }

    #[test]
    fn skips_head_script_style_template_noscript() {
        let html = "<head><title>T</title><style>p{}</style><meta name=x content=y></head>\
                    <body>a<script>s()</script><style>b{}</style><template>t</template>\
                    <noscript>n</noscript>b";
        assert_eq!(text(html), "ab");
        let scripted = parse_document(
            "a<noscript><p>n</p></noscript>b",
            &ParseOptions {
                scripting: true,
                ..ParseOptions::default()
            },
        );
        assert_eq!(scripted.visible_text(), "ab");
    }

    #[test]
    fn skips_hidden_and_unrendered() {
        assert_eq!(text("a<span hidden>x</span>b"), "ab");
        assert_eq!(text("a<div hidden=until-found>x</div>b"), "ab");
        assert_eq!(
            text("a<iframe>x</iframe><video>v</video><canvas>c</canvas>b"),
            "ab"
        );
        assert_eq!(text("a<img alt=pic>b<datalist><option>o</datalist>"), "ab");
        assert_eq!(
            text("<ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>"),
            "漢kan"
        );
        assert_eq!(
            text("<svg><title>t</title><desc>d</desc><text>drawn</text></svg>"),
            "drawn"
        );
        assert_eq!(
            text("<math><semantics><mi>x</mi><annotation>x</annotation></semantics></math>"),
            "x"
        );
    }

    #[test]
    fn form_controls() {
        assert_eq!(text("a <input value=v type=text> b"), "a b");
        assert_eq!(text("<select><option>One<option>Two</select>"), "One");
        assert_eq!(
            text("x <select><option>One<option selected>  Two \n too </select> y"),
            "x Two too y"
        );
        assert_eq!(text("<select><option label=L>Long</select>"), "L");
        assert_eq!(text("<select></select>z"), "z");
        assert_eq!(
            text("<textarea>  two\n  lines</textarea>"),
            "  two\n  lines"
        );
        assert_eq!(text("<button> Go </button>"), "Go");
    }

    #[test]
    fn closed_details_show_their_summary() {
        assert_eq!(text("<details><p>x<summary>S</summary>more</details>"), "S");
        assert_eq!(
            text("<details open><summary>S</summary>more</details>"),
            "S\nmore"
        );
        assert_eq!(
            text(
                "<details><summary>A<details><summary>B</summary>x</details>C</summary>\
                 y<summary>z</summary></details>after"
            ),
            "A\nB\nC\nafter"
        );
    }

    #[test]
    fn blocks_and_paragraphs() {
        assert_eq!(text("<div>a</div><div>b</div>"), "a\nb");
        assert_eq!(text("a<p>b</p>c"), "a\n\nb\n\nc");
        assert_eq!(text("<p>a</p><p>b</p>"), "a\n\nb");
        assert_eq!(text("<ul><li>a<li>b</ul><h1>T</h1>"), "a\nb\nT");
        assert_eq!(text("<p><div><p>a</p></div></p>"), "a");
        assert_eq!(text("<section><article>a</article></section>z"), "a\nz");
        assert_eq!(text("a<hr>b"), "a\nb");
        assert_eq!(text("<blockquote>q</blockquote><span>s</span>"), "q\ns");
    }

    #[test]
    fn line_breaks() {
        assert_eq!(text("a<br>b"), "a\nb");
        assert_eq!(text("a<br><br>b"), "a\n\nb");
        assert_eq!(text("a<br><br><br><br>b"), "a\n\nb");
        assert_eq!(text("<div>a<br></div><div>b</div>"), "a\nb");
        assert_eq!(text("<br>a<br>"), "a");
    }

    #[test]
    fn table_cells_and_rows() {
        assert_eq!(
            text("<table><tr><td>a<td>b<tr><td>c<td>d</table>"),
            "a\tb\nc\td"
        );
        assert_eq!(text("<table><tr><td><td>b<td></table>"), "\tb");
        assert_eq!(
            text("<table><tr><td>a<td></tr><tr><td>b<td><td>c</table>"),
            "a\nb\t\tc"
        );
        assert_eq!(
            text("<table><tr><td>a<td><table><tr><td>x<td>y</table></table>"),
            "a\tx\ty"
        );
        assert_eq!(
            text("<table><tr><th><p>h</p><th><div>x</div></table>"),
            "h\tx"
        );
        assert_eq!(text("<table><tr><td><p>a</p><p>b</p></table>"), "a\n\nb");
    }

    #[test]
    fn white_space_collapses() {
        assert_eq!(text("  a \n\t b  "), "a b");
        assert_eq!(text("a <b> b </b> c"), "a b c");
        assert_eq!(text("<div>  a  </div>  <div>  b  </div>"), "a\nb");
        assert_eq!(text("a&nbsp;&nbsp;b"), "a\u{a0}\u{a0}b");
        assert_eq!(text("a\u{c}\rb"), "a b");
        assert_eq!(text("a<!-- c -->b"), "ab");
        assert_eq!(text(""), "");
    }

    #[test]
    fn soft_hyphens_are_not_shown() {
        assert_eq!(text("Mit&shy;tel&shy;al&shy;ter"), "Mittelalter");
        assert_eq!(text("a &shy; b"), "a b");
        assert_eq!(text("<pre>x\u{ad}y</pre>"), "xy");
    }

    #[test]
    fn preformatted_text_is_kept() {
        assert_eq!(text("<pre>\n a  b\n\n\n c</pre>"), " a  b\n\n\n c");
        assert_eq!(text("x<pre><b> y </b></pre>z"), "x\n y \nz");
        assert_eq!(text("<listing>  l</listing><xmp> <x> </xmp>"), "  l\n <x> ");
        assert_eq!(text("<pre>a\n</pre><p>b"), "a\n\nb");
        assert_eq!(text("<pre>\n\n a \n\n</pre>"), " a ");
    }

    #[test]
    fn nodes_and_fragments() {
        let doc = parse_document(
            "<p>a<b hidden>x</b><i> b </i></p>",
            &ParseOptions::default(),
        );
        let p = doc
            .root()
            .descendants()
            .find(|n| n.as_element().is_some_and(|e| e.name() == "p"));
        assert_eq!(p.unwrap().visible_text(), "a b");
        let b = doc
            .root()
            .descendants()
            .find(|n| n.as_element().is_some_and(|e| e.name() == "b"));
        assert_eq!(b.unwrap().visible_text(), "");
        let context: FragmentContext = "td".parse().unwrap();
        let frag = parse_fragment("x<p>y", &context, &ParseOptions::default());
        assert_eq!(frag.visible_text(), "x\n\ny");
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 1_000_000;
        let html = format!("{}deep{}", "<div>".repeat(depth), "</div>".repeat(depth));
        assert_eq!(text(&html), "deep");
        let html = format!("{}x", "<span>".repeat(depth));
        assert_eq!(text(&html), "x");
    }
}
