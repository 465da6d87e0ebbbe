//! Text statistics of every node of a document, in one walk: how much
//! visible text a subtree holds, how much of it is link text, and its
//! punctuation — the shallow text features main-content extraction
//! scores with (Kohlschütter et al. 2010: text and link density).
//!
//! Counts are of characters that are not white space, so that markup's
//! indentation weighs nothing; text the visible text skips (`script`,
//! `style`, `hidden`…, see [`ElementRef::renders_text`]) is not counted.
//! Also here: the one tree walk the crate uses ([`walk`]), iterative, so
//! that any depth is fine.

use spinneret_html::{LocalName as L, NodeKind, NodeRef, VisibleTextOptions};

/// One node's counts (its own text and all its descendants').
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Counts {
    /// Characters of visible text, white space not counted.
    pub chars: u32,
    /// Of those, characters inside an `a` element.
    pub link_chars: u32,
    /// Commas (`,`, `،`, `、`, `，`): Readability's sign of prose.
    pub commas: u32,
    /// Sentence ends (`.`, `!`, `?`, `。`, `！`, `？`).
    pub stops: u32,
    /// Words (runs of characters between white space).
    pub words: u32,
    /// `a` elements with text.
    pub links: u32,
    /// The characters of the longest of those links.
    pub longest_link: u32,
}

impl Counts {
    /// The share of the text that is link text (0 for no text).
    pub fn link_density(&self) -> f32 {
        if self.chars == 0 {
            0.0
        } else {
            self.link_chars as f32 / self.chars as f32
        }
    }

    /// The mean characters of a link's text (0 for no link text; a node
    /// inside a link, whose text is link text without an `a` of its own,
    /// is one link).
    pub fn mean_link(&self) -> u32 {
        self.link_chars / self.links.max(1)
    }

    /// The characters of the longest link (as [`Counts::mean_link`], a
    /// node inside a link is one link).
    pub fn longest_link(&self) -> u32 {
        if self.links == 0 {
            self.link_chars
        } else {
            self.longest_link
        }
    }

    fn add(&mut self, other: &Counts) {
        self.chars = self.chars.saturating_add(other.chars);
        self.link_chars = self.link_chars.saturating_add(other.link_chars);
        self.commas = self.commas.saturating_add(other.commas);
        self.stops = self.stops.saturating_add(other.stops);
        self.words = self.words.saturating_add(other.words);
        self.links = self.links.saturating_add(other.links);
        self.longest_link = self.longest_link.max(other.longest_link);
    }
}

/// The counts of every node, by [`NodeId::index`](spinneret_html::NodeId::index).
pub(crate) struct Stats {
    counts: Vec<Counts>,
    /// By node index: the node's position in document order (1-based; 0
    /// for a node the walk did not reach) and one past its last
    /// descendant's, so that containment is two comparisons.
    span: Vec<(u32, u32)>,
}

impl Stats {
    /// Counts every node under `root` (others stay zero), its elements
    /// rendered as `view` has them.
    pub fn of(root: NodeRef<'_>, view: VisibleTextOptions) -> Stats {
        let n = root.document().node_count();
        let mut counts = vec![Counts::default(); n];
        let mut span = vec![(0u32, 0u32); n];
        let mut position = 0u32;
        // How many `a` elements the walk is inside.
        let mut in_link = 0usize;
        walk(root, |node, step| {
            if step == Step::Leave {
                let link = node.as_element().is_some_and(|e| e.is_html(L::A));
                in_link -= usize::from(link);
                let mut sum = Counts::default();
                for child in node.children() {
                    sum.add(&counts[child.id().index()]);
                }
                if link && sum.chars > 0 {
                    sum.links += 1;
                    sum.longest_link = sum.longest_link.max(sum.chars);
                }
                counts[node.id().index()] = sum;
                span[node.id().index()].1 = position + 1;
                return true;
            }
            position += 1;
            span[node.id().index()] = (position, position + 1);
            match node.kind() {
                NodeKind::Text(text) => {
                    let mut c = count_text(text);
                    if in_link > 0 {
                        c.link_chars = c.chars;
                    }
                    counts[node.id().index()] = c;
                    false
                }
                NodeKind::Element(e) => {
                    if !e.renders_text_with(view) {
                        return false;
                    }
                    if e.is_html(L::A) {
                        in_link += 1;
                    }
                    true
                }
                NodeKind::Document | NodeKind::Fragment => true,
                _ => false,
            }
        });
        Stats { counts, span }
    }

    /// Whether `node` is `ancestor` or inside it (both reached by the walk).
    pub fn is_within(&self, node: NodeRef<'_>, ancestor: NodeRef<'_>) -> bool {
        let (at, _) = self.span[node.id().index()];
        let (start, end) = self.span[ancestor.id().index()];
        at != 0 && start <= at && at < end
    }

    /// The counts of `node`.
    pub fn get(&self, node: NodeRef<'_>) -> Counts {
        self.counts[node.id().index()]
    }
}

/// The counts of one text node's data, in one pass over its bytes: a
/// character is counted at its first byte (not a UTF-8 continuation
/// byte); white space is ASCII white space and the no-break spaces of
/// the Unicode `Zs` class that pages use between words (U+00A0, U+2000
/// to U+200A, U+202F, U+205F, U+3000), punctuation is matched by its
/// bytes.
fn count_text(text: &str) -> Counts {
    let mut c = Counts::default();
    let mut in_word = false;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let (space, len) = if b < 0x80 {
            match b {
                b',' => c.commas += 1,
                b'.' | b'!' | b'?' => c.stops += 1,
                _ => {}
            }
            (
                matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'\x0b'),
                1,
            )
        } else {
            let len = match b {
                0xF0.. => 4,
                0xE0.. => 3,
                _ => 2,
            };
            let ch = &bytes[i..(i + len).min(bytes.len())];
            match ch {
                // 、 。 ， ！ ？ ،
                [0xE3, 0x80, 0x81] | [0xEF, 0xBC, 0x8C] | [0xD8, 0x8C] => c.commas += 1,
                [0xE3, 0x80, 0x82] | [0xEF, 0xBC, 0x81] | [0xEF, 0xBC, 0x9F] => c.stops += 1,
                _ => {}
            }
            let space = matches!(
                ch,
                [0xC2, 0xA0]
                    | [0xE3, 0x80, 0x80]
                    | [0xE2, 0x80, 0x80..=0x8A | 0xAF]
                    | [0xE2, 0x81, 0x9F]
            );
            (space, len)
        };
        i += len;
        if space {
            in_word = false;
            continue;
        }
        if !in_word {
            c.words += 1;
            in_word = true;
        }
        c.chars += 1;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::count_text;

    #[test]
    fn counts_characters_words_and_punctuation() {
        let c = count_text("  Hello, world.\u{a0}Ça va? 你好，世界。 ");
        assert_eq!((c.words, c.commas, c.stops), (5, 2, 3));
        assert_eq!(
            c.chars as usize,
            "Hello,world.Çava?你好，世界。".chars().count()
        );
        let c = count_text("");
        assert_eq!((c.chars, c.words), (0, 0));
        let c = count_text("a\u{3000}b\u{2009}c\u{200b}d");
        assert_eq!((c.chars, c.words), (5, 3));
    }
}

/// A step of [`walk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// On the way down: the visitor returns whether to go into the
    /// node's children (and leave it later).
    Enter,
    /// On the way up, after the children (the return value is ignored).
    Leave,
}

/// Walks the subtree of `start` in document order, calling `visit` on
/// the way down ([`Step::Enter`]: return `false` to leave the node's
/// children out; it is then not left either) and on the way up
/// ([`Step::Leave`]). No recursion.
pub(crate) fn walk<'d>(start: NodeRef<'d>, mut visit: impl FnMut(NodeRef<'d>, Step) -> bool) {
    let mut node = start;
    loop {
        let entered = visit(node, Step::Enter);
        if entered && let Some(child) = node.first_child() {
            node = child;
            continue;
        }
        if entered {
            visit(node, Step::Leave);
        }
        // Up to the next sibling, leaving every ancestor passed.
        loop {
            if node == start {
                return;
            }
            if let Some(next) = node.next_sibling() {
                node = next;
                break;
            }
            match node.parent() {
                Some(parent) => {
                    node = parent;
                    visit(node, Step::Leave);
                }
                None => return,
            }
        }
    }
}
