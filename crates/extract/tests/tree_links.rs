//! The streaming link extractor against a walk of our own tree
//! (`spinneret_html::parse_document`) on every corpus page: every link the
//! tree has, the extractor has.
//!
//! # Method
//!
//! For every page of `corpus/pages.tsv`:
//!
//! - **extractor**: [`extract`] with the page URL and no headers; its links
//!   as a set of (kind, raw value).
//! - **tree**: the page decoded with the encoding the extractor settled on
//!   (after any *change the encoding* restart), parsed by
//!   `parse_document` (scripting off, as the extractor's tokenizer), walked
//!   in tree order with template contents at the template's place. Each
//!   element gets the extractor's own rule table
//!   ([`rules::element_links`]): HTML and SVG elements by name (SVG ones
//!   with `svg` set), MathML elements for their `style` attribute only;
//!   an HTML `style` element's text through [`rules::style_text_links`].
//!   `xlink:href` is the attribute in the XLink namespace on foreign
//!   elements and the attribute of that name elsewhere, as the tokenizer
//!   names it. The document base is the first HTML `base` element with an
//!   `href` in tree order (not in template contents), parsed against the page URL (the page URL when
//!   it fails), and must equal the extractor's.
//!
//! Sets, not multisets: the adoption agency and *reconstruct the active
//! formatting elements* clone a formatting element with its attributes, so
//! the tree can hold one source link several times.
//!
//! Every link only one side has is printed. A link the tree has and the
//! extractor lacks fails the test (the extractor must see what a browser's
//! DOM holds). A link only the extractor has is allowed and counted: the
//! extractor reads every start tag of the source, including those the tree
//! builder drops (a nested `<form>`, a `<frame>` outside a frameset, a
//! second `<body>`'s attributes the first already has); on the corpus
//! there are none, as such values appear elsewhere in the tree too. The
//! base URLs must be equal.
//!
//! Run with `cargo test -p spinneret-extract --release --test tree_links
//! -- --nocapture` to see the report.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use spinneret_encoding::decode_with;
use spinneret_extract::{Headers, LinkKind, extract, rules};
use spinneret_html::{
    AttrNamespace, ElementRef, Namespace, NodeKind, NodeRef, ParseOptions, parse_document,
};
use spinneret_url::Url;

/// One link as compared: its kind and raw value.
type Key = (LinkKind, String);

/// The links of our tree of one page.
struct TreeLinks {
    links: BTreeSet<Key>,
    /// The first HTML `base` element's `href`, in tree order, outside
    /// template contents.
    base_href: Option<String>,
}

/// The value of the attribute the extractor's rules call `name` on `e`.
fn rule_attr<'d>(e: &ElementRef<'d>, name: &str) -> Option<&'d str> {
    let foreign = e.namespace() != Namespace::Html;
    e.attrs().find_map(|a| {
        let same = match (a.namespace(), name.strip_prefix("xlink:")) {
            (AttrNamespace::XLink, Some(local)) => foreign && a.name() == local,
            (AttrNamespace::None, _) => a.name() == name,
            _ => false,
        };
        same.then(|| a.value())
    })
}

/// The concatenated text children of `node`.
fn child_text(node: NodeRef<'_>) -> String {
    node.children().filter_map(|c| c.as_text()).collect()
}

/// Every link of the tree of `text`, by the extractor's rules.
fn tree_links(text: &str) -> TreeLinks {
    let doc = parse_document(text, &ParseOptions::default());
    let mut out = TreeLinks {
        links: BTreeSet::new(),
        base_href: None,
    };
    // (node, whether it is in a template's contents, which are not in the
    // document: their `base` sets no base URL).
    let mut todo = vec![(doc.root(), false)];
    while let Some((node, inert)) = todo.pop() {
        if let NodeKind::Element(e) = node.kind() {
            let lookup = |n: &str| rule_attr(&e, n);
            let mut push = |_: &'static str, kind: LinkKind, v: Cow<'_, str>| {
                out.links.insert((kind, v.into_owned()));
            };
            match e.namespace() {
                Namespace::Html => {
                    rules::element_links(e.name(), false, lookup, &mut push);
                    match e.name() {
                        "style" => rules::style_text_links(&child_text(node), &mut push),
                        "base" if !inert && out.base_href.is_none() => {
                            out.base_href = e.attr("href").map(str::to_owned);
                        }
                        _ => {}
                    }
                }
                Namespace::Svg => rules::element_links(e.name(), true, lookup, &mut push),
                // MathML: only `style` attributes count (no element name
                // the SVG rules know is empty).
                Namespace::MathMl => rules::element_links("", true, lookup, &mut push),
            }
            if let Some(contents) = e.template_contents() {
                todo.push((contents, true));
            }
        }
        let children: Vec<NodeRef<'_>> = node.children().collect();
        todo.extend(children.into_iter().rev().map(|c| (c, inert)));
    }
    out
}

/// One corpus page's comparison.
#[derive(Default)]
struct PageResult {
    path: String,
    /// Links the extractor delivered (with repeats).
    delivered: usize,
    extractor: usize,
    tree: usize,
    /// (side, key): the links only one side has.
    differences: Vec<(&'static str, Key)>,
    /// The base URLs, when they differ: (extractor's, tree's).
    base_mismatch: Option<(String, String)>,
}

/// Both sides of one page: the extractor's links, the tree's, the two
/// base URLs (extractor's, tree's), and how many links the extractor
/// delivered.
struct Sides {
    extractor: BTreeSet<Key>,
    tree: BTreeSet<Key>,
    bases: (String, String),
    delivered: usize,
}

fn sides(bytes: &[u8], page: &Url) -> Sides {
    let mut extractor = BTreeSet::new();
    let summary = extract(bytes, page, &Headers::default(), |l| {
        extractor.insert((l.kind, l.raw.to_owned()));
    });
    let text = decode_with(bytes, summary.encoding.encoding).0;
    let tree = tree_links(&text);
    // The extractor's rule: the first base href parsed against the page
    // URL; the page URL when it fails.
    let tree_base = tree
        .base_href
        .and_then(|h| Url::options().base_url(Some(page)).parse(&h).ok())
        .unwrap_or_else(|| page.clone());
    Sides {
        extractor,
        tree: tree.links,
        bases: (summary.base.href().to_owned(), tree_base.href().to_owned()),
        delivered: summary.links,
    }
}

fn compare(path: &str, url: &str) -> PageResult {
    let bytes = spinneret_testdata::read(&format!("corpus/{path}"));
    let page = Url::parse(url).unwrap_or_else(|_| Url::parse("https://invalid.example/").unwrap());
    let s = sides(&bytes, &page);
    let mut result = PageResult {
        path: path.to_owned(),
        delivered: s.delivered,
        extractor: s.extractor.len(),
        tree: s.tree.len(),
        ..PageResult::default()
    };
    for k in s.tree.difference(&s.extractor) {
        result.differences.push(("tree only", k.clone()));
    }
    for k in s.extractor.difference(&s.tree) {
        result.differences.push(("extractor only", k.clone()));
    }
    if s.bases.0 != s.bases.1 {
        result.base_mismatch = Some(s.bases);
    }
    result
}

/// The harness sees links where the tree builder puts them: an HTML
/// `<image>` (renamed `img`), SVG `xlink:href`, template contents, MathML
/// `style`, `<style>` text, foster-parented table content; and the base.
#[test]
fn the_tree_walk_finds_links_where_the_tree_builder_puts_them() {
    let page = Url::parse("https://e.com/d/p").unwrap();
    let html = "<template><base href=/t/></template><base href=/b/><p><image src=i1></p>\
                <svg><image xlink:href=i2></image><a href=a1></a></svg>\
                <template><a href=a2></a></template>\
                <math><mi style='background:url(s1)'></mi></math>\
                <style>p { background: url(s2) }</style>\
                <table><tr><td><a href=a3></a></td><img src=i3></table>";
    let s = sides(html.as_bytes(), &page);
    let want: BTreeSet<Key> = [
        (LinkKind::Image, "i1"),
        (LinkKind::Image, "i2"),
        (LinkKind::Hyperlink, "a1"),
        (LinkKind::Hyperlink, "a2"),
        (LinkKind::Style, "s1"),
        (LinkKind::Style, "s2"),
        (LinkKind::Hyperlink, "a3"),
        (LinkKind::Image, "i3"),
    ]
    .into_iter()
    .map(|(k, v)| (k, v.to_owned()))
    .collect();
    assert_eq!(s.tree, want);
    assert_eq!(s.extractor, want);
    assert_eq!(s.bases.1, "https://e.com/b/");
    assert_eq!(s.bases.0, s.bases.1);
}

#[test]
fn every_tree_link_is_extracted_on_the_corpus() {
    let tsv = spinneret_testdata::read_to_string("corpus/pages.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).expect("column");
    let (pcol, ucol) = (col("path"), col("url"));
    let rows: Vec<(String, String)> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[pcol].to_owned(), f[ucol].to_owned())
        })
        .collect();
    let slots: Vec<Mutex<PageResult>> = rows.iter().map(|_| Mutex::default()).collect();
    let next = AtomicUsize::new(0);
    // Two threads: the CI machine is shared.
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((path, url)) = rows.get(i) else {
                        break;
                    };
                    *slots[i].lock().expect("no poisoned lock") = compare(path, url);
                }
            });
        }
    });
    let results: Vec<PageResult> = slots
        .into_iter()
        .map(|m| m.into_inner().expect("no poisoned lock"))
        .collect();
    let (mut delivered, mut extractor, mut tree) = (0, 0, 0);
    let mut by_side: BTreeMap<&str, usize> = BTreeMap::new();
    let mut base_mismatches = 0;
    for r in &results {
        delivered += r.delivered;
        extractor += r.extractor;
        tree += r.tree;
        for (side, (kind, raw)) in &r.differences {
            *by_side.entry(side).or_default() += 1;
            let raw: String = raw.chars().take(120).collect();
            eprintln!("{}: {side}: {kind:?} {raw:?}", r.path);
        }
        if let Some((ours, theirs)) = &r.base_mismatch {
            base_mismatches += 1;
            eprintln!(
                "{}: base URL differs: extractor {ours}, tree {theirs}",
                r.path
            );
        }
    }
    eprintln!(
        "pages {}, links delivered by the extractor {delivered}; distinct per page: \
         extractor {extractor}, tree {tree}; differences: {by_side:?}",
        results.len()
    );
    eprintln!("base URL mismatches: {base_mismatches}");
    let tree_only = by_side.get("tree only").copied().unwrap_or(0);
    assert_eq!(tree_only, 0, "links the tree has and the extractor lacks");
    assert_eq!(base_mismatches, 0, "base URL mismatches");
}
