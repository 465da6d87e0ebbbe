//! The html5lib tree-construction test format: one line per node, `| `
//! then two spaces per level of depth (see the `#document` sections of
//! html5lib-tests' `.dat` files). Attributes follow their element, sorted
//! by name as the format requires; template contents appear under a
//! `content` line.
//!
//! The walk keeps its own stack (no recursion), so a tree of any depth
//! dumps (the parser keeps every level: the standard sets no depth limit).
//!
//! The format indents every line by its depth, so the dump of a deep tree
//! is quadratic in the input (a page of 100,000 nested `<div>`s, 500 KB,
//! dumps to 10 GB). [`Document::write_dump`] therefore streams it to a
//! writer in pieces of about [`FLUSH_AT`] bytes: its memory stays in
//! proportion to the document, whatever the dump's size.

use super::{Document, NodeKind, NodeRef};
use std::fmt::Write as _;
use std::io;

/// How much dump text [`Document::write_dump`] gathers before writing it.
const FLUSH_AT: usize = 64 * 1024;

impl Document {
    /// The tree in the html5lib test format: the children of the root
    /// (the document node, or the fragment root), each line ending in
    /// `"\n"`. For a document from the web, prefer
    /// [`Document::write_dump`]: this string is quadratic in the depth.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        self.walk_dump(&mut out, |_| Ok(()))
            .expect("appending to a String does not fail");
        out
    }

    /// [`Document::dump`] written to `writer` as it is made, in pieces of
    /// about 64 KiB (each line whole), so that a dump larger than memory
    /// (a deep tree's) can be written.
    pub fn write_dump(&self, writer: &mut impl io::Write) -> io::Result<()> {
        let mut out = String::with_capacity(FLUSH_AT);
        self.walk_dump(&mut out, |out| {
            if out.len() >= FLUSH_AT {
                writer.write_all(out.as_bytes())?;
                out.clear();
            }
            Ok(())
        })?;
        writer.write_all(out.as_bytes())
    }

    /// Appends each node's lines to `out` in document order, calling
    /// `after_node` after each (which may drain `out`).
    fn walk_dump(
        &self,
        out: &mut String,
        mut after_node: impl FnMut(&mut String) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut stack = Vec::new();
        push_children(&mut stack, self.root(), 0);
        while let Some((node, depth)) = stack.pop() {
            dump_node(out, &mut stack, node, depth);
            after_node(out)?;
        }
        Ok(())
    }
}

fn line(out: &mut String, depth: usize) {
    out.push_str("| ");
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Pushes `parent`'s children at `depth`, last first, so that they pop in
/// order.
fn push_children<'d>(stack: &mut Vec<(NodeRef<'d>, usize)>, parent: NodeRef<'d>, depth: usize) {
    let mut child = parent.last_child();
    while let Some(c) = child {
        stack.push((c, depth));
        child = c.prev_sibling();
    }
}

/// Writes `node`'s own lines (with its attributes and the `content` line
/// of a template) and pushes what comes under it.
fn dump_node<'d>(
    out: &mut String,
    stack: &mut Vec<(NodeRef<'d>, usize)>,
    node: NodeRef<'d>,
    depth: usize,
) {
    dump_opening(out, node, depth);
    // The children come after the template contents: push them first.
    push_children(stack, node, depth + 1);
    if let Some(contents) = node.as_element().and_then(|e| e.template_contents()) {
        push_children(stack, contents, depth + 2);
    }
}

/// Appends `node`'s own lines at `depth` (see [`dump_lines`]) and, for a
/// template, its `content` line: what the dump has of it before what
/// comes under it.
pub(super) fn dump_opening(out: &mut String, node: NodeRef<'_>, depth: usize) {
    dump_lines(out, node, depth);
    if node
        .as_element()
        .is_some_and(|e| e.template_contents().is_some())
    {
        line(out, depth + 1);
        out.push_str("content\n");
    }
}

/// Appends the dump of `node` and everything under it, `node` at `depth`.
pub(super) fn dump_subtree(out: &mut String, node: NodeRef<'_>, depth: usize) {
    let mut stack = vec![(node, depth)];
    while let Some((node, depth)) = stack.pop() {
        dump_node(out, &mut stack, node, depth);
    }
}

/// Appends `node`'s own lines at `depth`: an element's line and its
/// attributes' (not a template's `content` line), any other node's one
/// line.
fn dump_lines(out: &mut String, node: NodeRef<'_>, depth: usize) {
    line(out, depth);
    match node.kind() {
        NodeKind::Document | NodeKind::Fragment => out.push_str("#fragment\n"),
        NodeKind::Doctype {
            name,
            public_id,
            system_id,
        } => {
            if public_id.is_empty() && system_id.is_empty() {
                let _ = writeln!(out, "<!DOCTYPE {name}>");
            } else {
                let _ = writeln!(out, "<!DOCTYPE {name} \"{public_id}\" \"{system_id}\">");
            }
        }
        NodeKind::Text(t) => {
            out.push('"');
            out.push_str(t);
            out.push_str("\"\n");
        }
        NodeKind::Comment(c) => {
            out.push_str("<!-- ");
            out.push_str(c);
            out.push_str(" -->\n");
        }
        NodeKind::Element(e) => {
            out.push('<');
            out.push_str(e.namespace().designator());
            out.push_str(e.name());
            out.push_str(">\n");
            if e.attrs().len() == 0 {
                return;
            }
            let mut attrs: Vec<(String, &str)> = e
                .attrs()
                .map(|a| {
                    let designator = a
                        .namespace()
                        .prefix()
                        .map_or(String::new(), |p| format!("{p} "));
                    (designator + a.name(), a.value())
                })
                .collect();
            // The format sorts by UTF-16 code units (a name with a
            // character beyond U+FFFF sorts before one with U+FFFD).
            attrs.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            for (name, value) in attrs {
                line(out, depth + 1);
                out.push_str(&name);
                out.push_str("=\"");
                out.push_str(value);
                out.push_str("\"\n");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{ParseOptions, parse_document};
    use std::io;

    /// A writer that keeps what it is given and the size of each write.
    #[derive(Default)]
    struct Pieces {
        bytes: Vec<u8>,
        sizes: Vec<usize>,
    }

    impl io::Write for Pieces {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.bytes.extend_from_slice(buf);
            self.sizes.push(buf.len());
            Ok(buf.len())
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn write_dump_streams_the_same_text_in_bounded_pieces() {
        // 1,500 nested elements with an attribute and text: a dump of
        // about 4.5 MB whose longest line is about 3 KB.
        let depth = 1500;
        let html = "<div class=c>t".repeat(depth);
        let doc = parse_document(&html, &ParseOptions::default());
        let whole = doc.dump();
        let mut pieces = Pieces::default();
        doc.write_dump(&mut pieces).unwrap();
        assert_eq!(pieces.bytes, whole.as_bytes());
        assert!(whole.len() > 40 * super::FLUSH_AT, "{}", whole.len());
        assert!(pieces.sizes.len() > 40, "{} writes", pieces.sizes.len());
        let longest_line = whole.lines().map(str::len).max().unwrap() + 1;
        // A piece is cut after a node: at most one node's lines (here an
        // element, its attribute and its text) past the mark.
        let largest = *pieces.sizes.iter().max().unwrap();
        assert!(largest < super::FLUSH_AT + 3 * longest_line, "{largest}");

        // A small document: one write, the same text.
        let doc = parse_document("<p>a<!--b-->", &ParseOptions::default());
        let mut pieces = Pieces::default();
        doc.write_dump(&mut pieces).unwrap();
        assert_eq!(pieces.bytes, doc.dump().as_bytes());
        assert_eq!(pieces.sizes.len(), 1);
    }
}
