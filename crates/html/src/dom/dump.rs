//! The html5lib tree-construction test format: one line per node, `| `
//! then two spaces per level of depth (see the `#document` sections of
//! html5lib-tests' `.dat` files). Attributes follow their element, sorted
//! by name as the format requires; template contents appear under a
//! `content` line.

use super::{Document, NodeKind, NodeRef};
use std::fmt::Write;

impl Document {
    /// The tree in the html5lib test format: the children of the root
    /// (the document node, or the fragment root), each line ending in
    /// `"\n"`.
    pub fn dump(&self) -> String {
        let mut out = String::new();
        for child in self.root().children() {
            dump_node(&mut out, child, 0);
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

fn dump_node(out: &mut String, node: NodeRef<'_>, depth: usize) {
    // Iterative over siblings' subtrees would need an explicit stack; the
    // recursion depth is the tree's depth, which the tree builder bounds.
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
            if let Some(contents) = e.template_contents() {
                line(out, depth + 1);
                out.push_str("content\n");
                for child in contents.children() {
                    dump_node(out, child, depth + 2);
                }
            }
        }
    }
    for child in node.children() {
        dump_node(out, child, depth + 1);
    }
}
