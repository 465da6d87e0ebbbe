//! The HTML Standard's fragment serialization algorithm (*serializing
//! HTML fragments*): a node's inner HTML (its children) and outer HTML
//! (the node itself).
//!
//! Walks the tree with an explicit stack, so any depth serializes.

use super::{ElementRef, NodeKind, NodeRef};
use crate::names::LocalName;
use crate::namespace::{AttrNamespace, Namespace};

/// Elements whose contents are not serialized and which have no end tag.
pub(crate) fn is_void(e: &ElementRef<'_>) -> bool {
    use LocalName as L;
    e.namespace() == Namespace::Html
        && matches!(
            e.local_name(),
            Some(
                L::Area
                    | L::Base
                    | L::Basefont
                    | L::Bgsound
                    | L::Br
                    | L::Col
                    | L::Embed
                    | L::Frame
                    | L::Hr
                    | L::Img
                    | L::Input
                    | L::Keygen
                    | L::Link
                    | L::Meta
                    | L::Param
                    | L::Source
                    | L::Track
                    | L::Wbr
            )
        )
}

/// Elements whose text children are serialized as they are.
fn is_raw_text_parent(e: &ElementRef<'_>, scripting: bool) -> bool {
    use LocalName as L;
    e.namespace() == Namespace::Html
        && match e.local_name() {
            Some(
                L::Style | L::Script | L::Xmp | L::Iframe | L::Noembed | L::Noframes | L::Plaintext,
            ) => true,
            Some(L::Noscript) => scripting,
            _ => false,
        }
}

/// How to serialize.
#[derive(Clone, Copy, Debug, Default)]
pub struct SerializeOptions {
    /// The scripting flag of the document: with it, `noscript` contents
    /// are serialized as raw text.
    pub scripting: bool,
}

impl<'d> NodeRef<'d> {
    /// The node's children serialized as HTML (the DOM's `innerHTML`;
    /// for a template element, its contents).
    pub fn inner_html(&self, options: SerializeOptions) -> String {
        let mut out = String::new();
        let parent = match self.as_element().and_then(|e| e.template_contents()) {
            Some(contents) => contents,
            None => *self,
        };
        for child in parent.children() {
            serialize_into(&mut out, child, options);
        }
        out
    }

    /// The node serialized as HTML (the DOM's `outerHTML`); for the
    /// document or a fragment, its children.
    pub fn outer_html(&self, options: SerializeOptions) -> String {
        let mut out = String::new();
        match self.kind() {
            NodeKind::Document | NodeKind::Fragment => {
                for child in self.children() {
                    serialize_into(&mut out, child, options);
                }
            }
            _ => serialize_into(&mut out, *self, options),
        }
        out
    }
}

/// Appends `e`'s start tag, with its attributes.
pub(super) fn start_tag(out: &mut String, e: &ElementRef<'_>) {
    out.push('<');
    out.push_str(e.name());
    for a in e.attrs() {
        out.push(' ');
        match (a.namespace(), a.name()) {
            (AttrNamespace::None, name) => out.push_str(name),
            (AttrNamespace::Xmlns, "xmlns") => out.push_str("xmlns"),
            (ns, name) => {
                out.push_str(ns.prefix().unwrap_or_default());
                out.push(':');
                out.push_str(name);
            }
        }
        out.push_str("=\"");
        escape(out, a.value(), true);
        out.push('"');
    }
    out.push('>');
}

/// Appends `e`'s end tag.
pub(super) fn end_tag(out: &mut String, e: &ElementRef<'_>) {
    out.push_str("</");
    out.push_str(e.name());
    out.push('>');
}

/// Appends `node` and its subtree, serialized, to `out`.
pub(super) fn serialize_into(out: &mut String, node: NodeRef<'_>, options: SerializeOptions) {
    // Each stack entry is a node to open, or an element to close.
    enum Work<'d> {
        Open(NodeRef<'d>),
        Close(ElementRef<'d>),
    }
    let mut stack = vec![Work::Open(node)];
    while let Some(work) = stack.pop() {
        let node = match work {
            Work::Close(e) => {
                end_tag(out, &e);
                continue;
            }
            Work::Open(node) => node,
        };
        match node.kind() {
            NodeKind::Document | NodeKind::Fragment => {}
            NodeKind::Doctype { name, .. } => {
                out.push_str("<!DOCTYPE ");
                out.push_str(name);
                out.push('>');
            }
            NodeKind::Comment(c) => {
                out.push_str("<!--");
                out.push_str(c);
                out.push_str("-->");
            }
            NodeKind::Text(t) => {
                let raw = node
                    .parent()
                    .and_then(|p| p.as_element())
                    .is_some_and(|p| is_raw_text_parent(&p, options.scripting));
                if raw {
                    out.push_str(t);
                } else {
                    escape(out, t, false);
                }
            }
            NodeKind::Element(e) => {
                start_tag(out, &e);
                if is_void(&e) {
                    continue;
                }
                stack.push(Work::Close(e));
                let children = match e.template_contents() {
                    Some(contents) => contents,
                    None => node,
                };
                let first = stack.len();
                stack.extend(children.children().map(Work::Open));
                stack[first..].reverse();
            }
        }
    }
}

/// *Escaping a string*: `&`, no-break space and `"` (in attribute mode)
/// or `<` and `>` (otherwise; in attribute mode too, as the standard has
/// escaped them since 2025). A byte scan: every character it replaces is
/// ASCII but the no-break space, whose UTF-8 form starts with 0xC2, so
/// each cut falls on a character boundary.
fn escape(out: &mut String, s: &str, attribute_mode: bool) {
    let bytes = s.as_bytes();
    let mut last = 0;
    let mut i = 0;
    while i < bytes.len() {
        let (rep, len) = match bytes[i] {
            b'&' => ("&amp;", 1),
            b'<' => ("&lt;", 1),
            b'>' => ("&gt;", 1),
            b'"' if attribute_mode => ("&quot;", 1),
            0xC2 if bytes.get(i + 1) == Some(&0xA0) => ("&nbsp;", 2),
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        i += len;
        last = i;
    }
    out.push_str(&s[last..]);
}
