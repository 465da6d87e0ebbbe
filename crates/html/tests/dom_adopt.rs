//! `Document::adopt_children`: partial trees built apart join one
//! document — the children of another document's root become a node's
//! last children, with their attributes, text (spans of the input,
//! changed text, grown text), names that are not interned, template
//! contents and DOCTYPEs — and the result is the tree that building it in
//! one piece gives.

use spinneret_html::{
    Document, FragmentContext, LocalName, Namespace, NodeId, NodeKind, ParseOptions,
    SerializeOptions, parse_document, parse_fragment,
};

fn body_context() -> FragmentContext {
    FragmentContext {
        ns: Namespace::Html,
        name: "body".into(),
        in_form: false,
    }
}

fn fragment(html: &str) -> Document {
    parse_fragment(html, &body_context(), &ParseOptions::default())
}

/// The `div id=target` of a document parsed from `html`.
fn target(doc: &Document) -> NodeId {
    doc.root()
        .descendants()
        .find(|n| {
            n.as_element()
                .is_some_and(|e| e.attr("id") == Some("target"))
        })
        .expect("a target")
        .id()
}

fn inner(doc: &Document, id: NodeId) -> String {
    doc.node(id).inner_html(SerializeOptions::default())
}

/// Pieces that exercise every kind of text reference and name.
const PIECES: &[&str] = &[
    // Spans of the input; a changed text (character reference) and a
    // changed attribute value; an element and an attribute with names
    // that are not interned.
    "<p class=a>one &amp; two</p><my-widget data-x=\"1&lt;2\">w</my-widget><!--c-->",
    // Template contents; foreign content with adjusted names.
    "<template><td>cell</td><my-widget></my-widget></template><svg viewBox=\"0 0 1 1\"><foreignObject><b>x</b></foreignObject></svg>",
    // Foster-parented text joined out of place (a text node that grows in
    // a string of its own); misnested formatting (clones, detached nodes).
    "<table>a<tr>b</tr>c</table><b>1<i>2</b>3</i>",
];

#[test]
fn adopted_pieces_serialize_as_one_parse() {
    let mut doc = parse_document(
        "<!DOCTYPE html><div id=target><span>first</span></div>",
        &ParseOptions::default(),
    );
    let t = target(&doc);
    let mut expected = inner(&doc, t);
    for piece in PIECES {
        let part = fragment(piece);
        expected.push_str(&part.root().inner_html(SerializeOptions::default()));
        let moved = doc.adopt_children(t, part);
        assert!(!moved.is_empty());
    }
    assert_eq!(inner(&doc, t), expected);
    // The whole document still dumps, and the target's content equals the
    // pieces parsed as one fragment (none of them leaves an element open).
    let joined = fragment(&PIECES.concat());
    let mut one = parse_document(
        "<!DOCTYPE html><div id=target><span>first</span></div>",
        &ParseOptions::default(),
    );
    let ot = target(&one);
    one.adopt_children(ot, joined);
    assert_eq!(inner(&doc, t), inner(&one, ot));
    assert_eq!(doc.dump(), one.dump());
}

#[test]
fn ids_map_by_offset_and_names_are_renumbered() {
    // Both documents have names of their own, in different orders.
    let mut doc = fragment("<x-b></x-b><x-a></x-a>");
    let part = fragment("<x-a k=v></x-a><x-c></x-c>");
    let part_root = part.root().id();
    let part_ids: Vec<(NodeId, String)> = part
        .root()
        .descendants()
        .skip(1)
        .filter_map(|n| Some((n.id(), n.as_element()?.name().to_owned())))
        .collect();
    let root = doc.root().id();
    let moved = doc.adopt_children(root, part);
    assert_eq!(moved.id(part_root), None, "the other root does not move");
    for (id, name) in part_ids {
        let new = moved.id(id).expect("a moved node");
        assert_eq!(doc.node(new).as_element().unwrap().name(), name);
    }
    assert_eq!(
        doc.root().inner_html(SerializeOptions::default()),
        "<x-b></x-b><x-a></x-a><x-a k=\"v\"></x-a><x-c></x-c>"
    );
}

#[test]
fn template_contents_and_doctypes_move() {
    let mut doc = Document::new();
    let part = parse_document(
        "<!DOCTYPE html><template><p>in</p></template>",
        &ParseOptions::default(),
    );
    let root = doc.root().id();
    doc.adopt_children(root, part);
    assert!(matches!(
        doc.root().first_child().unwrap().kind(),
        NodeKind::Doctype { name: "html", .. }
    ));
    let template = doc
        .root()
        .descendants()
        .find_map(|n| n.as_element().filter(|e| e.is_html(LocalName::Template)))
        .expect("the template");
    let contents = template.template_contents().expect("contents");
    assert_eq!(
        contents.inner_html(SerializeOptions::default()),
        "<p>in</p>"
    );
}

#[test]
fn large_pieces_are_relocated_on_the_pool() {
    // Arenas of 2^16 nodes and attributes or more move in parallel passes:
    // an attribute with a changed value, one whose name is not interned.
    let piece = "<a href=x data-note=\"1&amp;2\" title=t>t</a>".repeat(40_000);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut doc = parse_document(
        "<!DOCTYPE html><div id=target><span>first</span></div>",
        &ParseOptions::default(),
    );
    let t = target(&doc);
    let moved = pool.install(|| doc.adopt_children(t, fragment(&piece)));
    assert!(moved.len() >= 1 << 16, "{} nodes", moved.len());
    let whole = parse_document(
        &format!("<!DOCTYPE html><div id=target><span>first</span>{piece}</div>"),
        &ParseOptions::default(),
    );
    assert!(inner(&doc, t) == inner(&whole, target(&whole)));
}

#[test]
fn the_same_input_keeps_its_spans() {
    // Two parses of one input: the text stays spans of it (no copy).
    let input = "<p>shared text</p>";
    let mut doc = fragment(input);
    let before = doc.heap_size();
    let root = doc.root().id();
    doc.adopt_children(root, fragment(input));
    assert_eq!(
        doc.root().inner_html(SerializeOptions::default()),
        "<p>shared text</p><p>shared text</p>"
    );
    // Two more nodes (p and its text) and no copy of the input.
    assert!(doc.heap_size() < before + 2 * input.len() + 512);
}

#[test]
#[should_panic(expected = "cannot have children")]
fn a_text_node_cannot_adopt() {
    let mut doc = fragment("<p>text</p>");
    let text = doc
        .root()
        .descendants()
        .find(|n| n.as_text().is_some())
        .unwrap()
        .id();
    doc.adopt_children(text, fragment("<b>x</b>"));
}
