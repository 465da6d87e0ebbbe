//! html5ever 0.40's tree (through `markup5ever_rcdom`) as an html5lib
//! tree-construction dump: the reference side of the html5lib conformance
//! check of html5ever itself (tests/html5ever_conformance.rs) and of the
//! differential tests of our tree builder.
//!
//! # The dump format (the suite's `tree-construction/README.md`)
//!
//! One line per node, `"| "` then two spaces per ancestor below the root,
//! each line ending in `"\n"`:
//!
//! - element: `<` tag name string `>`, the tag name string being the local
//!   name prefixed by `"svg "` or `"math "` for those namespaces; its
//!   attributes follow one level deeper as `name="value"`, sorted by their
//!   attribute name string (UTF-16 code unit order), which is the local
//!   name prefixed by `"xlink "`, `"xml "` or `"xmlns "` for those
//!   namespaces;
//! - text: the text in double quotes, nothing escaped;
//! - comment: `<!-- data -->`;
//! - doctype: `<!DOCTYPE name>`, or `<!DOCTYPE name "public" "system">`
//!   when either identifier is non-empty;
//! - processing instruction: `<?target data>`;
//! - a `template`'s contents: a `content` line one level below the element
//!   (after its attributes), the contents' children below it.
//!
//! A document dump lists the document's children at depth 0; a fragment
//! dump lists the children of the `html` element html5ever makes the root
//! of a fragment (the context element is not in the tree).

// Each test binary that includes this module uses part of it.
#![allow(dead_code)]

use html5ever::tendril::TendrilSink;
use html5ever::{LocalName, Namespace, ParseOpts, QualName, ns, parse_document, parse_fragment};
use markup5ever_rcdom::{Handle, NodeData, RcDom};
use std::fmt::Write as _;

/// html5ever's options for one scripting mode (everything else default).
fn parse_opts(scripting: bool) -> ParseOpts {
    let mut opts = ParseOpts::default();
    opts.tree_builder.scripting_enabled = scripting;
    opts
}

/// The html5lib dump of the document html5ever builds from `input` with the
/// scripting flag `scripting`.
pub fn html5ever_document_dump(input: &str, scripting: bool) -> String {
    let dom = parse_document(RcDom::default(), parse_opts(scripting)).one(input);
    let mut out = String::new();
    dump_children(&dom.document, 0, &mut out);
    out
}

/// The html5lib dump of the fragment html5ever builds from `input` in the
/// context element `context`, written as in a `.dat` file's
/// `#document-fragment` line (`"td"`, `"svg path"`, `"math mi"`), with the
/// scripting flag `scripting`.
pub fn html5ever_fragment_dump(input: &str, context: &str, scripting: bool) -> String {
    let dom = parse_fragment(
        RcDom::default(),
        parse_opts(scripting),
        context_name(context),
        Vec::new(),
        scripting,
    )
    .one(input);
    let mut out = String::new();
    // The document's only child is the `html` element that stands for the
    // fragment's root; the fragment is its children.
    let document_children = dom.document.children.borrow();
    let root = document_children
        .first()
        .expect("html5ever gives a fragment a root element");
    dump_children(root, 0, &mut out);
    out
}

/// The qualified name of a context element written as in a `.dat` file:
/// `"svg "` and `"math "` select those namespaces, anything else is HTML.
pub fn context_name(context: &str) -> QualName {
    let (ns, local) = if let Some(local) = context.strip_prefix("svg ") {
        (ns!(svg), local)
    } else if let Some(local) = context.strip_prefix("math ") {
        (ns!(mathml), local)
    } else {
        (ns!(html), context)
    };
    QualName::new(None, ns, LocalName::from(local))
}

/// Dumps the subtrees of the children of `parent`, the children at `depth`,
/// in document order. Iterative (an explicit stack), so that the deep trees
/// of real pages cannot overflow a test thread's stack.
fn dump_children(parent: &Handle, depth: usize, out: &mut String) {
    let mut pending: Vec<(Handle, usize)> = Vec::new();
    push_children(parent, depth, &mut pending);
    while let Some((node, depth)) = pending.pop() {
        dump_node(&node, depth, out);
        // Popped first, hence dumped first: the template contents (below
        // the `content` line), then the node's own children.
        push_children(&node, depth + 1, &mut pending);
        if let NodeData::Element {
            template_contents, ..
        } = &node.data
            && let Some(contents) = template_contents.borrow().as_ref()
        {
            push_children(contents, depth + 2, &mut pending);
        }
    }
}

/// Pushes the children of `parent` at `depth` so that the first child is
/// popped first.
fn push_children(parent: &Handle, depth: usize, pending: &mut Vec<(Handle, usize)>) {
    let children = parent.children.borrow();
    pending.extend(children.iter().rev().map(|c| (c.clone(), depth)));
}

/// Starts a line at `depth`: `"| "` and two spaces per level.
fn line_start(depth: usize, out: &mut String) {
    out.push_str("| ");
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// Dumps the line of `node` at `depth`; for an element, also its attribute
/// lines and, for a template, the `content` line (not the subtrees).
fn dump_node(node: &Handle, depth: usize, out: &mut String) {
    line_start(depth, out);
    match &node.data {
        NodeData::Document => unreachable!("a document is never a child"),
        NodeData::Doctype {
            name,
            public_id,
            system_id,
        } => {
            out.push_str("<!DOCTYPE ");
            out.push_str(name);
            if !public_id.is_empty() || !system_id.is_empty() {
                let _ = write!(out, " \"{public_id}\" \"{system_id}\"");
            }
            out.push_str(">\n");
        }
        NodeData::Text { contents } => {
            let _ = writeln!(out, "\"{}\"", contents.borrow());
        }
        NodeData::Comment { contents } => {
            let _ = writeln!(out, "<!-- {contents} -->");
        }
        NodeData::ProcessingInstruction { target, contents } => {
            let _ = writeln!(out, "<?{target} {contents}>");
        }
        NodeData::Element {
            name,
            attrs,
            template_contents,
            ..
        } => {
            let _ = writeln!(out, "<{}{}>", element_prefix(&name.ns), name.local);
            let mut attrs: Vec<(String, String)> = attrs
                .borrow()
                .iter()
                .map(|a| {
                    let name = format!("{}{}", attribute_prefix(&a.name.ns), a.name.local);
                    (name, a.value.to_string())
                })
                .collect();
            attrs.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
            for (name, value) in &attrs {
                line_start(depth + 1, out);
                let _ = writeln!(out, "{name}=\"{value}\"");
            }
            if template_contents.borrow().is_some() {
                line_start(depth + 1, out);
                out.push_str("content\n");
            }
        }
    }
}

/// The namespace designator of an element's tag name string.
fn element_prefix(ns: &Namespace) -> &'static str {
    if *ns == ns!(svg) {
        "svg "
    } else if *ns == ns!(mathml) {
        "math "
    } else {
        assert!(*ns == ns!(html), "element in namespace {ns:?}");
        ""
    }
}

/// The namespace designator of an attribute name string.
fn attribute_prefix(ns: &Namespace) -> &'static str {
    if *ns == ns!(xlink) {
        "xlink "
    } else if *ns == ns!(xml) {
        "xml "
    } else if *ns == ns!(xmlns) {
        "xmlns "
    } else {
        assert!(*ns == ns!(), "attribute in namespace {ns:?}");
        ""
    }
}
