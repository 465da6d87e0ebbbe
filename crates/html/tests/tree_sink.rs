//! The [`TreeSink`] boundary: a user's own tree, built by the tree builder
//! through the trait alone, must come out the same as the default DOM.
//! The sink here is deliberately naive (owned strings, a vector of nodes
//! with child lists) so it shares no code with `Document`.

use spinneret_html::{
    AttrNamespace, ElementName, Namespace, ParseOptions, QuirksMode, TagAttrs, TokenText, TreeSink,
    parse_document, parse_with_sink,
};
use spinneret_testdata::tree_construction_tests;

#[derive(Clone, Debug)]
enum Data {
    Root,
    Doctype(String, String, String),
    Element(
        Namespace,
        String,
        Vec<(AttrNamespace, String, String)>,
        Option<usize>,
    ),
    Text(String),
    Comment(String),
    Fragment,
}

#[derive(Debug)]
struct Node {
    data: Data,
    parent: Option<usize>,
    children: Vec<usize>,
}

#[derive(Default)]
struct SimpleTree {
    nodes: Vec<Node>,
    quirks: Option<QuirksMode>,
}

impl SimpleTree {
    fn new() -> SimpleTree {
        SimpleTree {
            nodes: vec![Node {
                data: Data::Root,
                parent: None,
                children: Vec::new(),
            }],
            quirks: None,
        }
    }

    fn add(&mut self, data: Data) -> usize {
        self.nodes.push(Node {
            data,
            parent: None,
            children: Vec::new(),
        });
        self.nodes.len() - 1
    }

    fn attrs(attrs: &TagAttrs<'_>) -> Vec<(AttrNamespace, String, String)> {
        attrs
            .iter()
            .map(|a| {
                (
                    a.ns,
                    a.name.as_str().to_owned(),
                    a.value.as_str().to_owned(),
                )
            })
            .collect()
    }

    fn dump(&self) -> String {
        let mut out = String::new();
        let mut stack: Vec<(usize, usize)> = self.nodes[0]
            .children
            .iter()
            .rev()
            .map(|&c| (c, 0))
            .collect();
        while let Some((id, depth)) = stack.pop() {
            let pad = format!("| {}", "  ".repeat(depth));
            match &self.nodes[id].data {
                Data::Doctype(n, p, s) if p.is_empty() && s.is_empty() => {
                    out += &format!("{pad}<!DOCTYPE {n}>\n")
                }
                Data::Doctype(n, p, s) => out += &format!("{pad}<!DOCTYPE {n} \"{p}\" \"{s}\">\n"),
                Data::Text(t) => out += &format!("{pad}\"{t}\"\n"),
                Data::Comment(c) => out += &format!("{pad}<!-- {c} -->\n"),
                Data::Element(ns, name, attrs, contents) => {
                    out += &format!("{pad}<{}{name}>\n", ns.designator());
                    let mut sorted: Vec<String> = attrs
                        .iter()
                        .map(|(ns, n, v)| {
                            let prefix = ns.prefix().map_or(String::new(), |p| format!("{p} "));
                            format!("{prefix}{n}=\"{v}\"")
                        })
                        .collect();
                    sorted.sort();
                    for a in sorted {
                        out += &format!("| {}{a}\n", "  ".repeat(depth + 1));
                    }
                    let children = &self.nodes[id].children;
                    stack.extend(children.iter().rev().map(|&c| (c, depth + 1)));
                    if let Some(f) = contents {
                        out += &format!("| {}content\n", "  ".repeat(depth + 1));
                        // Template contents come before the (empty) children.
                        stack.extend(
                            self.nodes[*f]
                                .children
                                .iter()
                                .rev()
                                .map(|&c| (c, depth + 2)),
                        );
                    }
                }
                Data::Root | Data::Fragment => {}
            }
        }
        out
    }
}

impl TreeSink for SimpleTree {
    type Handle = usize;

    fn document(&self) -> usize {
        0
    }

    fn create_element(&mut self, name: ElementName<'_>, attrs: TagAttrs<'_>) -> usize {
        let contents = (name.ns == Namespace::Html && name.local.as_str() == "template")
            .then(|| self.add(Data::Fragment));
        let attrs = SimpleTree::attrs(&attrs);
        self.add(Data::Element(
            name.ns,
            name.local.as_str().to_owned(),
            attrs,
            contents,
        ))
    }

    fn create_comment(&mut self, text: TokenText<'_>) -> usize {
        self.add(Data::Comment(text.as_str().to_owned()))
    }

    fn append_doctype(&mut self, name: &str, public_id: &str, system_id: &str) {
        let d = self.add(Data::Doctype(
            name.into(),
            public_id.into(),
            system_id.into(),
        ));
        self.append(0, d);
    }

    fn append(&mut self, parent: usize, child: usize) {
        self.nodes[child].parent = Some(parent);
        self.nodes[parent].children.push(child);
    }

    fn append_text(&mut self, parent: usize, text: TokenText<'_>) {
        if parent == 0 {
            return;
        }
        if let Some(&last) = self.nodes[parent].children.last()
            && let Data::Text(t) = &mut self.nodes[last].data
        {
            t.push_str(text.as_str());
            return;
        }
        let t = self.add(Data::Text(text.as_str().to_owned()));
        self.append(parent, t);
    }

    fn insert_before(&mut self, sibling: usize, child: usize) {
        let parent = self.nodes[sibling].parent.expect("a sibling in the tree");
        let i = self.nodes[parent]
            .children
            .iter()
            .position(|&c| c == sibling)
            .unwrap();
        self.nodes[parent].children.insert(i, child);
        self.nodes[child].parent = Some(parent);
    }

    fn insert_text_before(&mut self, sibling: usize, text: TokenText<'_>) {
        let parent = self.nodes[sibling].parent.expect("a sibling in the tree");
        let i = self.nodes[parent]
            .children
            .iter()
            .position(|&c| c == sibling)
            .unwrap();
        let before = i.checked_sub(1).map(|j| self.nodes[parent].children[j]);
        if let Some(before) = before
            && let Data::Text(t) = &mut self.nodes[before].data
        {
            t.push_str(text.as_str());
            return;
        }
        let t = self.add(Data::Text(text.as_str().to_owned()));
        self.insert_before(sibling, t);
    }

    fn has_parent(&self, node: usize) -> bool {
        self.nodes[node].parent.is_some()
    }

    fn detach(&mut self, node: usize) {
        if let Some(parent) = self.nodes[node].parent.take() {
            self.nodes[parent].children.retain(|&c| c != node);
        }
    }

    fn reparent_children(&mut self, from: usize, to: usize) {
        for child in std::mem::take(&mut self.nodes[from].children) {
            self.nodes[child].parent = None;
            self.append(to, child);
        }
    }

    fn template_contents(&mut self, template: usize) -> usize {
        match &self.nodes[template].data {
            Data::Element(_, _, _, Some(f)) => *f,
            _ => panic!("not a template"),
        }
    }

    fn add_attrs_if_missing(&mut self, element: usize, attrs: TagAttrs<'_>) {
        let new = SimpleTree::attrs(&attrs);
        if let Data::Element(_, _, have, _) = &mut self.nodes[element].data {
            for a in new {
                if !have.iter().any(|h| h.0 == a.0 && h.1 == a.1) {
                    have.push(a);
                }
            }
        }
    }

    fn clone_element(&mut self, element: usize) -> usize {
        let data = self.nodes[element].data.clone();
        self.add(data)
    }

    fn same_attributes(&self, a: usize, b: usize) -> bool {
        match (&self.nodes[a].data, &self.nodes[b].data) {
            (Data::Element(_, _, x, _), Data::Element(_, _, y, _)) => {
                x.len() == y.len() && x.iter().all(|a| y.contains(a))
            }
            _ => false,
        }
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.quirks = Some(mode);
    }
}

#[test]
fn a_users_sink_builds_the_same_tree_as_the_dom() {
    let mut cases = 0;
    for test in tree_construction_tests() {
        if test.scripted || test.fragment_context.is_some() {
            continue;
        }
        for scripting in test.scripting_modes() {
            let options = ParseOptions {
                scripting,
                report_errors: false,
            };
            let (tree, _) = parse_with_sink(&test.data, SimpleTree::new(), &options);
            let doc = parse_document(&test.data, &options);
            assert_eq!(tree.dump(), doc.dump(), "{}", test.id());
            assert_eq!(
                tree.quirks.unwrap_or_default(),
                doc.quirks_mode(),
                "{}",
                test.id()
            );
            cases += 1;
        }
    }
    assert!(cases > 2500, "the suite was read: {cases} cases");
}
