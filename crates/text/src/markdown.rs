//! Markdown: the visible text of a subtree with its structure marked in
//! CommonMark (and GitHub's tables).
//!
//! What is rendered is what the visible text shows (the same elements
//! skipped: `script`, `style`, `head`, `hidden`…; a closed `details` shows
//! its summary; form controls show nothing), white space collapsed the
//! same way (soft hyphens left out). The structure:
//!
//! - `h1`–`h6`: an ATX heading (`#` to `######`) on one line;
//! - `p`, `div` and the other blocks: paragraphs, separated by a blank
//!   line; `br` a line break (kept as a plain line break, which a
//!   CommonMark renderer shows as a soft one);
//! - `ul`/`ol`/`li`: `- ` and `N. ` items (an `ol`'s `start` and
//!   `reversed` honoured), nested lists indented under their item;
//! - `blockquote`: every line prefixed with `> `, nested quotes too;
//! - `dl`/`dt`/`dd`: a definition list as Pandoc and PHP Markdown Extra
//!   write one, the term on its own line, each definition after `: `;
//! - `pre`: a fenced code block, its text exact, the fence longer than
//!   any run of backticks inside, its info string the `language-*` class
//!   of the `pre` or its `code`; inline `code`: a code span;
//! - `table`: a GitHub table when it is a data table (no table inside,
//!   no list, heading or paragraph in a cell, at most [`TABLE_SCAN`]
//!   nodes): the first row is the header row, `|` in cells escaped, line
//!   breaks in a cell become spaces; any other table (layout) is rendered
//!   as blocks, a row a line;
//! - `hr`: `---`;
//! - with [`Options::links`], `a href` as `[text](url)` and `img` as
//!   `![alt](url)`, URLs resolved against the base URL; else a link is its
//!   text and an image nothing.
//!
//! Text is not escaped inside a line; a line that would start a Markdown
//! block by accident (`#`, `>`, `-`, `+` or `*` and a space, `1.`, a
//! fence, `=`) gets a backslash before its first character.
//!
//! Like every walk of this crate, the rendering follows the node links
//! without recursion (a closed `details`' summary is rendered by a nested
//! call, at most [`MAX_NESTED_SUMMARIES`] deep), in time linear in the
//! subtree.

use spinneret_html::{
    Document, ElementRef, LocalName as L, Namespace, NodeKind, NodeRef, SOFT_HYPHEN,
    VisibleTextOptions, push_shown,
};
use spinneret_url::Url;

use crate::main_content::Selection;
use crate::stats::{Step, walk};

/// How a data table is told from a layout table: a table with more
/// descendants than this is layout.
pub const TABLE_SCAN: usize = 4096;

/// Closed `details` inside closed `details`' summaries deeper than this
/// show nothing.
pub const MAX_NESTED_SUMMARIES: usize = 32;

/// Containers (quotes, list items) deeper than this add no prefix of
/// their own: a line's prefix is bounded, and so the output is linear in
/// the input however deep the nesting.
pub const MAX_PREFIX_DEPTH: usize = 32;

/// Markdown options.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options<'a> {
    /// Links and images with their URLs.
    pub links: bool,
    /// The base URL of relative URLs (the page's document base URL).
    pub base: Option<&'a str>,
    /// What is rendered (`noscript` content or not), as in the visible
    /// text.
    pub view: VisibleTextOptions,
}

/// The Markdown of `node` and its descendants, without the nodes `skip`
/// picks.
///
/// ```
/// use spinneret_html::{parse_document, ParseOptions};
/// use spinneret_text::markdown::{render, Options};
/// let doc = parse_document("<h2>Steps</h2><ol><li>Mix<li>Bake</ol>", &ParseOptions::default());
/// assert_eq!(render(doc.root(), |_| false, &Options::default()), "## Steps\n\n1. Mix\n2. Bake");
/// ```
pub fn render(
    node: NodeRef<'_>,
    skip: impl Fn(NodeRef<'_>) -> bool,
    options: &Options<'_>,
) -> String {
    let base = options.base.and_then(|b| Url::parse(b).ok());
    let mut w = Writer::new(options.links, options.view, base.as_ref(), 0);
    w.render(node, &skip);
    w.finish()
}

/// The Markdown of a main-content selection: its roots' renderings,
/// separated by a blank line.
pub fn render_selection(doc: &Document, selection: &Selection, options: &Options<'_>) -> String {
    let mut out = String::new();
    for &root in &selection.roots {
        let part = render(doc.node(root), |n| selection.is_dropped(n.id()), options);
        if part.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str(&part);
    }
    out
}

/// An open container whose lines carry a prefix.
#[derive(Clone, Debug)]
enum Container {
    /// `> `.
    Quote,
    /// A list item's continuation indent.
    Item(usize),
}

/// The marker of a definition (`dd`).
const DEFINITION: &str = ": ";

/// An open list.
#[derive(Clone, Copy, Debug)]
struct List {
    ordered: bool,
    next: i64,
    step: i64,
}

/// An inline mark waiting for text: written before the first character
/// inside its element, closed on leaving it only if it was written.
#[derive(Clone, Debug)]
struct Mark {
    open: &'static str,
    close: String,
    written: bool,
}

/// What a table is being rendered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum TableMode {
    /// Not in a data table.
    None,
    /// In a data table, outside its caption.
    Rows {
        /// Rows written so far.
        rows: usize,
        /// Cells of the current row.
        cells: usize,
    },
}

struct Writer<'b> {
    out: String,
    links: bool,
    view: VisibleTextOptions,
    base: Option<&'b Url>,
    /// Nested summary renderings above this one.
    depth: usize,
    /// Line breaks owed before the next text (0–2).
    breaks: u8,
    /// A space owed before the next text.
    space: bool,
    /// Writing the first characters of a line (a block may start here).
    line_start: bool,
    containers: Vec<Container>,
    lists: Vec<List>,
    /// A list item's marker, written before its first text.
    marker: Option<String>,
    /// A heading's `#`s, written before its first text.
    heading: Option<usize>,
    /// Inside a heading (breaks become spaces).
    in_heading: usize,
    marks: Vec<Mark>,
    pre_depth: usize,
    /// The closing fence of the open code block.
    fence: Option<String>,
    table: TableMode,
    /// Layout tables being walked (a data table inside one is rendered
    /// as layout too).
    tables: Vec<bool>,
}

impl<'b> Writer<'b> {
    fn new(
        links: bool,
        view: VisibleTextOptions,
        base: Option<&'b Url>,
        depth: usize,
    ) -> Writer<'b> {
        Writer {
            out: String::new(),
            links,
            view,
            base,
            depth,
            breaks: 0,
            space: false,
            line_start: true,
            containers: Vec::new(),
            lists: Vec::new(),
            marker: None,
            heading: None,
            in_heading: 0,
            marks: Vec::new(),
            pre_depth: 0,
            fence: None,
            table: TableMode::None,
            tables: Vec::new(),
        }
    }

    fn render(&mut self, start: NodeRef<'_>, skip: &dyn Fn(NodeRef<'_>) -> bool) {
        walk(start, |node, step| match step {
            Step::Enter => !skip(node) && self.enter(node, skip),
            Step::Leave => {
                self.leave(node);
                true
            }
        });
    }

    fn in_data_table(&self) -> bool {
        self.table != TableMode::None
    }

    /// Visits `node` on the way down; `false` when its content is skipped.
    fn enter(&mut self, node: NodeRef<'_>, skip: &dyn Fn(NodeRef<'_>) -> bool) -> bool {
        let e = match node.kind() {
            NodeKind::Text(text) => {
                self.text(text);
                return false;
            }
            NodeKind::Element(e) => e,
            NodeKind::Document | NodeKind::Fragment => return true,
            NodeKind::Doctype { .. } | NodeKind::Comment(_) => return false,
        };
        if self.links
            && e.is_html(L::Img)
            && let Some(url) = e.attr("src").and_then(|s| self.resolve(s))
        {
            let alt = collapse(e.attr("alt").unwrap_or(""));
            self.write_inline(&format!("![{}]({url})", alt.replace(['[', ']'], "")));
            return false;
        }
        if !e.renders_text_with(self.view) {
            return false;
        }
        if e.namespace() != Namespace::Html {
            return true;
        }
        let Some(name) = e.local_name() else {
            return true;
        };
        match name {
            L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6 => {
                self.block(2);
                if self.in_heading == 0 && !self.in_data_table() {
                    self.heading = Some(heading_level(name));
                }
                self.in_heading += 1;
            }
            L::P => self.block(2),
            L::Ul | L::Ol | L::Menu | L::Dir => {
                let ordered = name == L::Ol;
                let reversed = ordered && e.attr("reversed").is_some();
                let start = e
                    .attr("start")
                    .and_then(|s| s.trim().parse::<i64>().ok())
                    .unwrap_or(if reversed {
                        count_items(node) as i64
                    } else {
                        1
                    });
                self.block(if self.lists.is_empty() { 2 } else { 1 });
                self.lists.push(List {
                    ordered,
                    next: start,
                    step: if reversed { -1 } else { 1 },
                });
            }
            L::Li => {
                self.block(1);
                if !self.in_data_table() {
                    let marker = match self.lists.last_mut() {
                        Some(list) if list.ordered => {
                            let n = list.next;
                            list.next += list.step;
                            format!("{n}. ")
                        }
                        _ => "- ".to_owned(),
                    };
                    // A new item ends the previous one's indent.
                    self.containers.push(Container::Item(marker.len()));
                    self.marker = Some(marker);
                }
            }
            L::Blockquote => {
                self.block(2);
                if !self.in_data_table() {
                    self.containers.push(Container::Quote);
                }
            }
            // A definition list as Pandoc and PHP Markdown Extra write
            // one: the term on its line, each definition after `: `.
            L::Dt => self.block(1),
            L::Dd => {
                self.block(1);
                if !self.in_data_table() {
                    self.containers.push(Container::Item(DEFINITION.len()));
                    self.marker = Some(DEFINITION.to_owned());
                }
            }
            L::Pre | L::Listing | L::Xmp | L::Plaintext => {
                self.block(2);
                if self.pre_depth == 0 && !self.in_data_table() && self.in_heading == 0 {
                    let fence = "`".repeat(longest_backtick_run(node).max(2) + 1);
                    let info = code_language(e).unwrap_or_default();
                    self.flush();
                    self.out.push_str(&fence);
                    self.out.push_str(&info);
                    self.newline();
                    self.fence = Some(fence);
                    // Text starts right after the fence line.
                    self.breaks = 0;
                }
                self.pre_depth += 1;
            }
            L::Code if self.pre_depth == 0 => {
                let text = collapse(&node.visible_text_with(self.view, skip));
                if !text.is_empty() {
                    let ticks = "`".repeat(max_run(&text, '`') + 1);
                    let pad = if text.starts_with('`') || text.ends_with('`') {
                        " "
                    } else {
                        ""
                    };
                    self.write_inline(&format!("{ticks}{pad}{text}{pad}{ticks}"));
                }
                return false;
            }
            L::Br => {
                if self.in_heading > 0 || self.in_data_table() {
                    self.space_between();
                } else {
                    self.space = false;
                    if !self.out.is_empty() {
                        self.breaks = self.breaks.max(1);
                    }
                }
            }
            L::Hr => {
                self.block(2);
                if !self.in_data_table() && self.in_heading == 0 {
                    self.flush();
                    self.out.push_str("---");
                    self.line_start = false;
                    self.block(2);
                }
            }
            L::Table => {
                self.block(2);
                let data = !self.in_data_table() && self.in_heading == 0 && is_data_table(node);
                self.tables.push(data);
                if data {
                    self.table = TableMode::Rows { rows: 0, cells: 0 };
                }
            }
            L::Caption => self.block(2),
            L::Tr => {
                if let TableMode::Rows { cells, rows, .. } = &mut self.table {
                    *cells = 0;
                    let first = *rows == 0;
                    self.space = false;
                    if !self.out.is_empty() {
                        // The first row after a caption's text, or after
                        // what came before the table: a blank line.
                        self.breaks = if first { 2 } else { 1 };
                    }
                } else {
                    self.block(1);
                }
            }
            L::Td | L::Th => {
                if let TableMode::Rows { cells, .. } = &mut self.table {
                    *cells += 1;
                    let first = *cells == 1;
                    self.flush();
                    self.out.push_str(if first { "| " } else { " | " });
                    self.line_start = false;
                } else {
                    self.space_between();
                }
            }
            L::A if self.links => {
                if let Some(url) = e.attr("href").and_then(|h| self.resolve(h)) {
                    self.marks.push(Mark {
                        open: "[",
                        close: format!("]({url})"),
                        written: false,
                    });
                } else {
                    self.marks.push(Mark {
                        open: "",
                        close: String::new(),
                        written: false,
                    });
                }
            }
            L::Details if e.attr("open").is_none() => {
                self.block(1);
                if self.depth < MAX_NESTED_SUMMARIES
                    && let Some(summary) = node
                        .children()
                        .find(|c| c.as_element().is_some_and(|s| s.is_html(L::Summary)))
                {
                    let mut inner = Writer::new(self.links, self.view, self.base, self.depth + 1);
                    inner.render(summary, skip);
                    let text = inner.finish();
                    for (i, line) in text.lines().enumerate() {
                        if i > 0 {
                            self.breaks = self.breaks.max(1);
                        }
                        self.write_inline(line);
                    }
                }
                self.block(1);
                return false;
            }
            L::Select | L::Textarea | L::Button | L::Input => return false,
            _ if is_block(name) => self.block(1),
            _ => {}
        }
        true
    }

    /// Visits an entered element on the way up.
    fn leave(&mut self, node: NodeRef<'_>) {
        let Some(e) = node.as_element() else {
            return;
        };
        if e.namespace() != Namespace::Html {
            return;
        }
        let Some(name) = e.local_name() else {
            return;
        };
        match name {
            L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6 => {
                self.in_heading -= 1;
                if self.in_heading == 0 {
                    self.heading = None;
                }
                self.block(2);
            }
            L::P => self.block(2),
            L::Ul | L::Ol | L::Menu | L::Dir => {
                self.lists.pop();
                self.block(if self.lists.is_empty() { 2 } else { 1 });
            }
            L::Li => {
                if !self.in_data_table() {
                    self.marker = None;
                    self.pop_container(|c| matches!(c, Container::Item(_)));
                }
                self.block(1);
            }
            L::Blockquote => {
                if !self.in_data_table() {
                    self.pop_container(|c| matches!(c, Container::Quote));
                }
                self.block(2);
            }
            L::Dt => self.block(1),
            L::Dd => {
                if !self.in_data_table() {
                    self.marker = None;
                    self.pop_container(|c| matches!(c, Container::Item(_)));
                }
                self.block(1);
            }
            L::Pre | L::Listing | L::Xmp | L::Plaintext => {
                self.pre_depth -= 1;
                if self.pre_depth == 0
                    && let Some(fence) = self.fence.take()
                {
                    if !self.out.ends_with('\n') {
                        self.newline();
                    } else {
                        self.write_prefix();
                    }
                    self.out.push_str(&fence);
                    self.line_start = false;
                    self.breaks = 0;
                }
                self.block(2);
            }
            L::Table => {
                if self.tables.pop() == Some(true) {
                    self.table = TableMode::None;
                }
                self.block(2);
            }
            L::Caption => self.block(2),
            L::Tr => {
                if let TableMode::Rows { rows, cells } = &mut self.table
                    && *cells > 0
                {
                    {
                        self.out.push_str(" |");
                        *rows += 1;
                        if *rows == 1 {
                            let n = *cells;
                            self.newline();
                            self.out.push('|');
                            for _ in 0..n {
                                self.out.push_str(" --- |");
                            }
                        }
                        self.line_start = false;
                    }
                }
                self.block(1);
            }
            L::A if self.links => {
                if let Some(mark) = self.marks.pop()
                    && mark.written
                {
                    self.out.push_str(&mark.close);
                }
            }
            _ if is_block(name) => self.block(1),
            _ => {}
        }
    }

    /// `href` resolved, as written when there is no base URL and it is not
    /// absolute; `None` for `javascript:` and empty values.
    fn resolve(&self, href: &str) -> Option<String> {
        let href = href.trim();
        if href.is_empty()
            || href
                .get(..11)
                .is_some_and(|s| s.eq_ignore_ascii_case("javascript:"))
        {
            return None;
        }
        let parsed = match self.base {
            Some(base) => Url::parse_with_base(href, base),
            None => Url::parse(href),
        };
        Some(match parsed {
            Ok(u) => u.href().replace(' ', "%20").replace(')', "%29"),
            Err(_) => href.replace(' ', "%20").replace(')', "%29"),
        })
    }

    fn pop_container(&mut self, is: impl Fn(&Container) -> bool) {
        if let Some(i) = self.containers.iter().rposition(is) {
            self.containers.truncate(i);
        }
    }

    /// A block boundary asking for `n` line breaks (a space inside a
    /// heading or a data table's cell).
    fn block(&mut self, n: u8) {
        if self.in_heading > 0 || self.in_data_table() {
            // A heading is one line; a data table's rows end their lines
            // themselves (`enter` of `tr`).
            self.space_between();
            return;
        }
        self.space = false;
        if self.out.is_empty() {
            return;
        }
        self.breaks = self.breaks.max(n);
    }

    /// A line break, then the containers' prefixes.
    fn newline(&mut self) {
        self.out.push('\n');
        self.write_prefix();
    }

    /// The indent the innermost list item wrote in a line's prefix (which
    /// its marker replaces on its first line).
    fn innermost_indent(&self) -> usize {
        match self.containers.last() {
            Some(Container::Item(n)) if self.containers.len() <= MAX_PREFIX_DEPTH => *n,
            _ => 0,
        }
    }

    fn write_prefix(&mut self) {
        for c in self.containers.iter().take(MAX_PREFIX_DEPTH) {
            match c {
                Container::Quote => self.out.push_str("> "),
                Container::Item(n) => self.out.extend(std::iter::repeat_n(' ', *n)),
            }
        }
        self.line_start = true;
    }

    /// Writes what is owed before the next character.
    fn flush(&mut self) {
        if !self.out.is_empty() && self.breaks > 0 {
            for i in 0..self.breaks {
                if i > 0 {
                    // A blank line inside a quote keeps its `>`.
                    let trimmed = self.out.trim_end_matches(' ').len();
                    self.out.truncate(trimmed);
                }
                self.newline();
            }
            // The marker replaces the innermost item's indent.
            if self.marker.is_some() {
                let indent = self.innermost_indent();
                let keep = self.out.len() - indent;
                self.out.truncate(keep);
            }
        } else if !self.out.is_empty() && self.space {
            self.out.push(' ');
        } else if self.out.is_empty() {
            // The first line: the prefixes of the open containers, the
            // innermost item's indent replaced by its marker.
            self.write_prefix();
            if self.marker.is_some() {
                let keep = self.out.len() - self.innermost_indent();
                self.out.truncate(keep);
            }
        }
        if let Some(marker) = self.marker.take() {
            self.out.push_str(&marker);
            self.line_start = true;
        }
        if let Some(level) = self.heading.take() {
            self.out.extend(std::iter::repeat_n('#', level));
            self.out.push(' ');
            self.line_start = false;
        }
        self.breaks = 0;
        self.space = false;
    }

    /// Inline text already formatted (a code span, an image).
    fn write_inline(&mut self, s: &str) {
        self.flush();
        self.open_marks();
        self.out.push_str(s);
        self.line_start = false;
    }

    fn open_marks(&mut self) {
        for mark in &mut self.marks {
            if !mark.written {
                self.out.push_str(mark.open);
                mark.written = true;
            }
        }
    }

    /// A text node's data.
    fn text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if self.pre_depth > 0 && !self.in_data_table() && self.in_heading == 0 {
            self.flush();
            self.open_marks();
            for (i, line) in text.split('\n').enumerate() {
                if i > 0 {
                    self.newline();
                }
                push_shown(&mut self.out, line);
            }
            self.line_start = false;
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
            self.open_marks();
            if self.line_start && starts_block(word) {
                self.out.push('\\');
            }
            if self.in_data_table() {
                push_shown(&mut self.out, &word.replace('|', "\\|"));
            } else {
                push_shown(&mut self.out, word);
            }
            self.line_start = false;
            self.space = true;
        }
        if text.ends_with(|c: char| !c.is_ascii_whitespace()) {
            self.space = false;
        }
    }

    fn space_between(&mut self) {
        if !self.out.is_empty() && self.breaks == 0 && !self.out.ends_with("| ") {
            self.space = true;
        }
    }

    fn finish(mut self) -> String {
        let end = self.out.trim_end().len();
        self.out.truncate(end);
        let leading = self.out.len() - self.out.trim_start_matches('\n').len();
        self.out.drain(..leading);
        self.out
    }
}

fn heading_level(name: L) -> usize {
    match name {
        L::H1 => 1,
        L::H2 => 2,
        L::H3 => 3,
        L::H4 => 4,
        L::H5 => 5,
        _ => 6,
    }
}

/// Block elements that start and end a line (as the visible text has
/// them).
fn is_block(name: L) -> bool {
    matches!(
        name,
        L::Address
            | L::Article
            | L::Aside
            | L::Body
            | L::Center
            | L::Dd
            | L::Details
            | L::Dialog
            | L::Div
            | L::Dl
            | L::Dt
            | L::Fieldset
            | L::Figcaption
            | L::Figure
            | L::Footer
            | L::Form
            | L::Header
            | L::Hgroup
            | L::Html
            | L::Legend
            | L::Main
            | L::Nav
            | L::Search
            | L::Section
            | L::Summary
            | L::Tbody
            | L::Thead
            | L::Tfoot
    )
}

/// Whether a word at a line's start would start a Markdown block.
fn starts_block(word: &str) -> bool {
    let b = word.as_bytes();
    match b.first() {
        Some(b'#' | b'>' | b'=') => true,
        Some(b'-' | b'+' | b'*') => b.len() == 1 || b.iter().all(|&c| c == b[0]),
        Some(b'`' | b'~') => word.starts_with("```") || word.starts_with("~~~"),
        Some(c) if c.is_ascii_digit() => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            digits <= 9 && matches!(b.get(digits), Some(b'.' | b')')) && b.len() == digits + 1
        }
        _ => false,
    }
}

/// How many `li` children a list has (a reversed list counts down from it).
fn count_items(list: NodeRef<'_>) -> usize {
    list.children()
        .filter(|c| c.as_element().is_some_and(|e| e.is_html(L::Li)))
        .count()
}

/// The longest run of backticks in a subtree's text.
fn longest_backtick_run(node: NodeRef<'_>) -> usize {
    node.descendants()
        .filter_map(|n| n.as_text())
        .map(|t| max_run(t, '`'))
        .max()
        .unwrap_or(0)
}

fn max_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        if ch == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// A code block's language: `language-X` or `lang-X` in the class of the
/// `pre` or of its first `code` child.
fn code_language(pre: ElementRef<'_>) -> Option<String> {
    let from = |e: ElementRef<'_>| {
        e.attr("class")?.split_ascii_whitespace().find_map(|c| {
            let lang = c
                .strip_prefix("language-")
                .or_else(|| c.strip_prefix("lang-"))?;
            (!lang.is_empty()
                && lang
                    .chars()
                    .all(|ch| ch.is_ascii_alphanumeric() || "+#-_.".contains(ch)))
            .then(|| lang.to_owned())
        })
    };
    from(pre).or_else(|| {
        pre.node()
            .children()
            .filter_map(|c| c.as_element())
            .find(|c| c.is_html(L::Code))
            .and_then(from)
    })
}

/// Whether a table is a data table (see the module documentation).
fn is_data_table(table: NodeRef<'_>) -> bool {
    let mut rows = 0;
    for (i, n) in table.descendants().enumerate() {
        if i >= TABLE_SCAN {
            return false;
        }
        let Some(e) = n.as_element() else { continue };
        if e.namespace() != Namespace::Html {
            continue;
        }
        match e.local_name() {
            Some(
                L::Table
                | L::Ul
                | L::Ol
                | L::P
                | L::H1
                | L::H2
                | L::H3
                | L::H4
                | L::H5
                | L::H6
                | L::Blockquote
                | L::Pre
                | L::Div,
            ) => return false,
            Some(L::Tr) => rows += 1,
            _ => {}
        }
    }
    rows > 0
}

/// White space runs to one space, trimmed.
fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
