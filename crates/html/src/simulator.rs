//! The tree-builder simulator: just enough of the HTML tree construction
//! stage to switch the tokenizer's text mode where a tree builder would,
//! without building a tree (after lol_html's idea).
//!
//! What it models:
//! - the start tags that switch the tokenizer: `title`/`textarea` → RCDATA;
//!   `style`/`xmp`/`iframe`/`noembed`/`noframes` (and `noscript` with
//!   scripting on) → RAWTEXT; `script` → script data; `plaintext` →
//!   PLAINTEXT — in HTML content only;
//! - foreign content: `svg` and `math` open SVG/MathML subtrees whose
//!   elements are tracked on a stack, with HTML integration points
//!   (`foreignObject`, `desc`, `title` in SVG; `annotation-xml` with an HTML
//!   `encoding` in MathML), MathML text integration points
//!   (`mi`/`mo`/`mn`/`ms`/`mtext`), and the breakout tags that leave foreign
//!   content. Inside it, `<title>` or `<script>` are foreign elements (no text
//!   mode switch), and CDATA sections are recognised.
//!
//! Invariant: the stack is empty in plain HTML content, so a page without
//! SVG or MathML costs one comparison per tag. While it is non-empty it holds
//! the foreign elements and the HTML elements opened inside integration
//! points, so the current node is known.
//!
//! Where it can differ from a full tree builder (cases that need insertion
//! modes or the whole open-elements stack): a start tag a tree builder
//! ignores in its insertion mode (e.g. `<script>` in a frameset document);
//! an end tag inside SVG/MathML that is not open there, which the simulator
//! assumes closes an element opened before the subtree (and the subtree
//! with it) while the tree builder may ignore it (a stray `</span>`, or
//! `</div>` blocked by an integration point); misnested foreign markup that
//! the adoption agency or foster parenting rearranges.
//! `tests/simulator.rs` compares every raw-text element against html5ever's
//! tree builder on the whole corpus (45,394 elements, all agreeing) and
//! keeps a minimal repro of each known difference.

use crate::LocalName;
use crate::TextMode;
use crate::token::{Attrs, Name};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Ns {
    Html,
    Svg,
    MathMl,
}

/// One open element the simulator tracks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Entry {
    ns: Ns,
    /// FNV-1a hash of the ASCII-lower-cased tag name (end tags match names
    /// ASCII case-insensitively in foreign content).
    name: u64,
    html_integration_point: bool,
    mathml_text_integration_point: bool,
}

fn name_hash(name: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in name.bytes() {
        h ^= b.to_ascii_lowercase() as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

/// The simulator's state (part of a tokenizer [`crate::Snapshot`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Simulator {
    scripting: bool,
    stack: Vec<Entry>,
}

/// Start tags that break out of foreign content.
pub(crate) fn is_breakout(name: Option<LocalName>) -> bool {
    use LocalName as L;
    matches!(
        name,
        Some(
            L::B | L::Big
                | L::Blockquote
                | L::Body
                | L::Br
                | L::Center
                | L::Code
                | L::Dd
                | L::Div
                | L::Dl
                | L::Dt
                | L::Em
                | L::Embed
                | L::H1
                | L::H2
                | L::H3
                | L::H4
                | L::H5
                | L::H6
                | L::Head
                | L::Hr
                | L::I
                | L::Img
                | L::Li
                | L::Listing
                | L::Menu
                | L::Meta
                | L::Nobr
                | L::Ol
                | L::P
                | L::Pre
                | L::Ruby
                | L::S
                | L::Small
                | L::Span
                | L::Strong
                | L::Strike
                | L::Sub
                | L::Sup
                | L::Table
                | L::Tt
                | L::U
                | L::Ul
                | L::Var
        )
    )
}

/// Start tags [`Simulator::html_start_tag`] acts on in plain HTML content:
/// the text-mode switches and the roots of foreign content.
fn matters_in_html(name: LocalName) -> bool {
    use LocalName as L;
    matches!(
        name,
        L::Svg
            | L::Math
            | L::Title
            | L::Textarea
            | L::Style
            | L::Xmp
            | L::Iframe
            | L::Noembed
            | L::Noframes
            | L::Noscript
            | L::Script
            | L::Plaintext
    )
}

/// HTML void elements: never on the stack.
pub(crate) fn is_void(name: Option<LocalName>) -> bool {
    use LocalName as L;
    matches!(
        name,
        Some(
            L::Area
                | L::Base
                | L::Br
                | L::Col
                | L::Embed
                | L::Hr
                | L::Img
                | L::Input
                | L::Link
                | L::Meta
                | L::Source
                | L::Track
                | L::Wbr
                | L::Param
                | L::Keygen
                | L::Basefont
                | L::Bgsound
                | L::Frame
        )
    )
}

impl Simulator {
    /// A simulator for a document's start, with the scripting flag.
    pub fn new(scripting: bool) -> Simulator {
        Simulator {
            scripting,
            stack: Vec::new(),
        }
    }

    /// Whether the adjusted current node is not an HTML element (CDATA
    /// sections are recognised only then).
    pub fn in_foreign_content(&self) -> bool {
        self.stack.last().is_some_and(|e| e.ns != Ns::Html)
    }

    /// Whether the tree builder would use the rules for foreign content for
    /// a start tag `name` (the tree construction dispatcher).
    fn foreign_rules_for_start(&self, name: Option<LocalName>) -> bool {
        let Some(top) = self.stack.last() else {
            return false;
        };
        if top.ns == Ns::Html {
            return false;
        }
        if top.mathml_text_integration_point
            && !matches!(name, Some(LocalName::Mglyph | LocalName::Malignmark))
        {
            return false;
        }
        if top.ns == Ns::MathMl
            && top.name == name_hash("annotation-xml")
            && name == Some(LocalName::Svg)
        {
            return false;
        }
        !top.html_integration_point
    }

    /// Whether a start (`end` false) or end tag named `known` (`None`: not
    /// interned) can change anything: [`Simulator::start_tag`] and
    /// [`Simulator::end_tag`] return at once when it cannot, so a caller may
    /// skip building their arguments.
    #[inline]
    pub fn acts_on(&self, end: bool, known: Option<LocalName>) -> bool {
        !self.stack.is_empty() || (!end && known.is_some_and(matters_in_html))
    }

    /// Reacts to a start tag; returns the text mode to switch to, if any.
    #[inline]
    pub fn start_tag(
        &mut self,
        name: Name<'_>,
        attrs: &Attrs<'_>,
        self_closing: bool,
    ) -> Option<TextMode> {
        if self.stack.is_empty() && !name.local().is_some_and(matters_in_html) {
            // Plain HTML content (the common case): nothing to do.
            return None;
        }
        self.start_tag_that_matters(name, attrs, self_closing)
    }

    fn start_tag_that_matters(
        &mut self,
        name: Name<'_>,
        attrs: &Attrs<'_>,
        self_closing: bool,
    ) -> Option<TextMode> {
        let local = name.local();
        if self.foreign_rules_for_start(local) {
            let font_breakout = local == Some(LocalName::Font)
                && attrs
                    .iter()
                    .any(|a| matches!(a.name.as_str(), "color" | "face" | "size"));
            if is_breakout(local) || font_breakout {
                // Pop until an HTML element or an integration point, then
                // reprocess as HTML.
                while let Some(top) = self.stack.last() {
                    if top.ns == Ns::Html
                        || top.html_integration_point
                        || top.mathml_text_integration_point
                    {
                        break;
                    }
                    self.stack.pop();
                }
                return self.html_start_tag(local, name, self_closing);
            }
            let ns = self.stack.last().expect("in foreign content").ns;
            if !self_closing {
                self.push_foreign(ns, name.as_str(), attrs);
            }
            return None;
        }
        self.html_start_tag(local, name, self_closing)
    }

    fn push_foreign(&mut self, ns: Ns, name: &str, attrs: &Attrs<'_>) {
        let lower = name.to_ascii_lowercase();
        let html_integration_point = match ns {
            Ns::Svg => matches!(lower.as_str(), "foreignobject" | "desc" | "title"),
            Ns::MathMl => {
                lower == "annotation-xml"
                    && attrs.iter().any(|a| {
                        a.name.as_str() == "encoding"
                            && (a.value.eq_ignore_ascii_case("text/html")
                                || a.value.eq_ignore_ascii_case("application/xhtml+xml"))
                    })
            }
            Ns::Html => false,
        };
        self.stack.push(Entry {
            ns,
            name: name_hash(&lower),
            html_integration_point,
            mathml_text_integration_point: ns == Ns::MathMl
                && matches!(lower.as_str(), "mi" | "mo" | "mn" | "ms" | "mtext"),
        });
    }

    fn html_start_tag(
        &mut self,
        local: Option<LocalName>,
        name: Name<'_>,
        self_closing: bool,
    ) -> Option<TextMode> {
        use LocalName as L;
        let mode = match local {
            Some(L::Svg) | Some(L::Math) => {
                if !self_closing {
                    let ns = if local == Some(L::Svg) {
                        Ns::Svg
                    } else {
                        Ns::MathMl
                    };
                    self.stack.push(Entry {
                        ns,
                        name: name_hash(name.as_str()),
                        html_integration_point: false,
                        mathml_text_integration_point: false,
                    });
                }
                return None;
            }
            Some(L::Title | L::Textarea) => Some(TextMode::Rcdata),
            Some(L::Style | L::Xmp | L::Iframe | L::Noembed | L::Noframes) => {
                Some(TextMode::Rawtext)
            }
            Some(L::Noscript) if self.scripting => Some(TextMode::Rawtext),
            Some(L::Script) => Some(TextMode::ScriptData),
            Some(L::Plaintext) => Some(TextMode::Plaintext),
            _ => None,
        };
        // Inside a foreign subtree's integration point, HTML elements are
        // tracked so the current node stays known.
        if !self.stack.is_empty() && !is_void(local) {
            self.stack.push(Entry {
                ns: Ns::Html,
                name: name_hash(name.as_str()),
                html_integration_point: false,
                mathml_text_integration_point: false,
            });
        }
        mode
    }

    /// Reacts to an end tag.
    #[inline]
    pub fn end_tag(&mut self, name: Name<'_>) {
        if !self.stack.is_empty() {
            self.end_tag_in_foreign_content(name);
        }
    }

    fn end_tag_in_foreign_content(&mut self, name: Name<'_>) {
        let h = name_hash(name.as_str());
        let local = name.local();
        let top = *self.stack.last().expect("non-empty");
        if top.ns != Ns::Html && matches!(local, Some(LocalName::Br | LocalName::P)) {
            // </br> and </p> in foreign content break out like start tags.
            while let Some(t) = self.stack.last() {
                if t.ns == Ns::Html || t.html_integration_point || t.mathml_text_integration_point {
                    break;
                }
                self.stack.pop();
            }
            return;
        }
        // Walk down: the nearest element with this name closes, with
        // everything above it. An integration point below the current node
        // stops the walk: the end tag belongs to its HTML content and is
        // ignored there.
        let last = self.stack.len() - 1;
        for i in (0..=last).rev() {
            let e = self.stack[i];
            if e.name == h {
                self.stack.truncate(i);
                return;
            }
            if i != last && (e.html_integration_point || e.mathml_text_integration_point) {
                return;
            }
        }
        // Not open in the tracked part. `</body>` and `</html>` never pop
        // elements in a tree builder; any other end tag is assumed to close
        // something opened before the foreign subtree, and the subtree with
        // it.
        if !matches!(local, Some(LocalName::Body | LocalName::Html)) {
            self.stack.clear();
        }
    }
}
