//! The html5lib tree-construction test format: one line per node, `| `
//! then two spaces per level of depth (see the `#document` sections of
//! html5lib-tests' `.dat` files). Attributes follow their element, sorted
//! by name as the format requires; template contents appear under a
//! `content` line.
//!
//! The walk keeps its own stack (no recursion), so a tree of any depth
//! dumps (the parser keeps every level: the standard sets no depth limit).

use super::{Document, NodeKind, NodeRef};
use std::fmt::Write;

impl Document {
    /// The tree in the html5lib test format: the children of the root
    /// (the document node, or the fragment root), each line ending in
    /// `"\n"`.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        let mut stack = Vec::new();
        push_children(&mut stack, self.root(), 0);
        while let Some((node, depth)) = stack.pop() {
            dump_node(&mut out, &mut stack, node, depth);
        }
        out
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
            let _ = writeln!(out, "\"{t}\"");
        }
        NodeKind::Comment(c) => {
            let _ = writeln!(out, "<!-- {c} -->");
        }
        NodeKind::Element(e) => {
            let _ = writeln!(out, "<{}{}>", e.namespace().designator(), e.name());
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
                let _ = writeln!(out, "{name}=\"{value}\"");
            }
            // The children come after the template contents: push them
            // first.
            push_children(stack, node, depth + 1);
            if let Some(contents) = e.template_contents() {
                line(out, depth + 1);
                out.push_str("content\n");
                push_children(stack, contents, depth + 2);
            }
            return;
        }
    }
    push_children(stack, node, depth + 1);
}
