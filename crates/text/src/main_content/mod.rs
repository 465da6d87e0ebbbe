//! Main content: which parts of a page are its article or post, and which
//! parts inside them to leave out.
//!
//! # The method
//!
//! The published extractors agree on the signals and differ in how they
//! combine them. Boilerpipe (Kohlschütter et al., WSDM 2010) showed that
//! two shallow features of a text block — its length and its *link
//! density* (the share of its text inside links) — separate content from
//! boilerplate about as well as anything heavier. jusText adds the
//! context: a short block between good ones is good, between bad ones bad.
//! Readability (and DOM Distiller after it) scores *candidate containers*
//! from the paragraphs inside them and takes the best, with its good
//! siblings. Trafilatura first looks for the containers sites declare
//! (`<article>`, `itemprop=articleBody`, `entry-content`…) and falls back
//! to the others when that fails. Here, on `spinneret-html`'s DOM:
//!
//! 1. **Counts** (`stats.rs`): one walk gives every node its visible
//!    characters, link characters, commas and sentence ends.
//! 2. **Boilerplate marks** (`hints.rs`): `nav`, `aside`, `footer`,
//!    ARIA landmarks other than `main`, hidden elements, and `class`/`id`
//!    words of menus, sidebars, comments, share bars, cookie banners,
//!    newsletters, related links and ads. A marked subtree takes no part
//!    in scoring (Readability's *unlikely candidates*).
//! 3. **Candidates** (Readability): every paragraph-like element (`p`,
//!    `pre`, `td`, `blockquote`, `li`, and a `div` or `section` holding
//!    text with no block children) of 25 characters or more scores
//!    `1 + commas + min(chars / 100, 3)`, added whole to its parent, half
//!    to its grandparent and a third of the level to the three ancestors
//!    above. A candidate starts from its tag (a `div` +5, a list −3, a
//!    heading −5) and its class weight (±25), and its total is scaled by
//!    `1 − link density`.
//! 4. **The container** (Trafilatura's idea, scored): a declared article
//!    container that holds at least half of the best candidate's text
//!    wins over it — or the best candidate is inside it, and then the
//!    container is taken whole when its own text is mostly not links.
//!    Otherwise the best candidate is taken, moved up to the ancestor
//!    that holds three other strong candidates when one does
//!    (Readability's alternative candidates: an article split in
//!    sections).
//! 5. **Siblings** (Readability): the chosen element's siblings join it
//!    when their score is at least a fifth of its own (or 10), or when
//!    they are paragraphs of prose: over 80 characters with a link
//!    density under ¼, or shorter with no link and a sentence end.
//! 6. **Pruning** inside what was chosen (Boilerpipe and jusText): the
//!    marked subtrees of step 2, unless one holds most of the chosen text
//!    (a `comment` class on a whole article happens); link lists and
//!    link-dense blocks (density over ½ under 300 characters, over ¾ at
//!    any size); forms that are not the article; and short date, time and
//!    byline lines.
//! 7. **Fallback**: when the result holds under 250 characters while the
//!    page's unmarked body holds more than twice as much, the body with
//!    step 6's pruning is taken instead (Readability's retry with its
//!    filters relaxed, Trafilatura's baseline).
//!
//! Scores are measured on trafilatura's evaluation set (990 pages, the
//! `main_content` test of this crate and `spinneret-bench text`).

/// Maps by node or by class value: foldhash, seeded and fast (SipHash
/// was a tenth of the selection's instructions).
type HashMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;

use spinneret_html::{
    Document, ElementRef, LocalName as L, Namespace, NodeId, NodeKind, NodeRef, VisibleTextOptions,
};

mod typed;

pub use typed::select_for;

use crate::hints::{self, Attrs, Kind, Names, ValueMatch};
use crate::phrases;
use crate::stats::{Stats, Step, walk};

/// What main-content extraction chose: subtrees to render, in document
/// order, and nodes inside them to leave out.
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// The chosen subtrees' roots, in document order (none of them inside
    /// another).
    pub roots: Vec<NodeId>,
    /// By node index: whether the node is left out with its content.
    dropped: Vec<bool>,
    /// The characters left in the roots.
    kept: u32,
}

impl Selection {
    /// Whether `node` is left out (with all its content).
    pub fn is_dropped(&self, node: NodeId) -> bool {
        self.is_dropped_index(node.index())
    }

    /// [`Selection::is_dropped`] by node index.
    fn is_dropped_index(&self, index: usize) -> bool {
        self.dropped.get(index).copied().unwrap_or(false)
    }
}

/// How main content sees the page: `noscript` content shown (the page
/// as a reader that runs no script sees it; some sites have their
/// article only there, with a script that would render it), and
/// elements with the `hidden` attribute too — marked hidden
/// (as `aria-hidden` and `display: none` are), so that pruning keeps one only
/// where it holds most of the page's text: a page whose whole article a
/// script unhides.
pub const VIEW: VisibleTextOptions = VisibleTextOptions {
    noscript: true,
    hidden: true,
};

/// A paragraph shorter than this (in characters that are not white
/// space) does not score (Readability's 25).
const MIN_PARAGRAPH: u32 = 25;

/// Chooses the main content of `doc` (see the module documentation) as
/// for an article ([`select_for`] chooses it for any page type).
pub fn select(doc: &Document) -> Selection {
    let stats = Stats::of(doc.root(), VIEW);
    let body = body_of(doc);
    let marks = Marks::of(body);
    select_in(doc, &stats, body, &marks)
}

/// [`select`] with the counts and marks already made.
fn select_in(doc: &Document, stats: &Stats, body: NodeRef<'_>, marks: &Marks) -> Selection {
    let debug = std::env::var_os("SPINNERET_DEBUG_MAIN").is_some();
    let mut marks = std::borrow::Cow::Borrowed(marks);
    let mut best = attempt(doc, body, stats, &marks, debug);
    // Readability's retry: with the class and id marks off, when the
    // article came out short (a layout wrapper named `sidebar-right`).
    if best.kept < RETRY_BELOW {
        let relaxed = marks.relaxed();
        let again = attempt(doc, body, stats, &relaxed, debug);
        if again.kept > best.kept.saturating_mul(2) {
            best = again;
            marks = std::borrow::Cow::Owned(relaxed);
        }
    }
    // Step 7: too little for what the page holds.
    if best.kept < 250 && best.roots != [body.id()] {
        let mut whole = vec![false; doc.node_count()];
        prune(body, stats, &marks, &mut whole);
        let kept = kept_chars(body, stats, &whole);
        if kept > best.kept.saturating_mul(2) {
            best = Selection {
                roots: vec![body.id()],
                dropped: whole,
                kept,
            };
        }
    }
    best
}

/// An article shorter than this (characters) is chosen again with the
/// class and id marks off.
const RETRY_BELOW: u32 = 500;

/// Steps 3 to 6 with `marks`.
fn attempt(
    doc: &Document,
    body: NodeRef<'_>,
    stats: &Stats,
    marks: &Marks,
    debug: bool,
) -> Selection {
    let scores = score_candidates(body, stats, marks);
    let roots = match best(&scores) {
        Some((top, top_score)) => {
            // Only a short candidate may be a part of its article.
            let top = if stats.get(top).chars < CLIMB_BELOW {
                climb(top, top_score, &scores, body)
            } else {
                top
            };
            let top = prefer_container(top, stats, marks);
            let top = alternative_ancestor(top, top_score, &scores, stats, body);
            with_siblings(top, top_score, &scores, stats, marks)
        }
        None => vec![body.id()],
    };
    let mut dropped = vec![false; doc.node_count()];
    for &root in &roots {
        prune(doc.node(root), stats, marks, &mut dropped);
    }
    let kept = kept_in(doc, &roots, stats, &dropped);
    if debug {
        debug_print(doc, &roots, &dropped, stats, marks, &scores);
    }
    Selection {
        roots,
        dropped,
        kept,
    }
}

/// What was chosen and dropped, on stderr (`SPINNERET_DEBUG_MAIN=1`).
fn debug_print(
    doc: &Document,
    roots: &[NodeId],
    dropped: &[bool],
    stats: &Stats,
    marks: &Marks,
    scores: &[(NodeRef<'_>, f32)],
) {
    let describe = |n: NodeRef<'_>| {
        let e = n.as_element();
        format!(
            "<{}> class={:?} id={:?} chars={} kind={:?}",
            e.map_or("", |e| e.name()),
            e.and_then(|e| e.attr_known(L::Class)),
            e.and_then(|e| e.attr_known(L::Id)),
            stats.get(n).chars,
            marks.kind(n)
        )
    };
    for &root in roots {
        let n = doc.node(root);
        let score = scores.iter().find(|(x, _)| *x == n).map(|x| x.1);
        eprintln!("root {} score={score:?}", describe(n));
    }
    for n in doc.root().descendants() {
        if dropped[n.id().index()] && stats.get(n).chars > 50 {
            eprintln!("  dropped {}", describe(n));
        }
    }
}

/// The `body` element, else the document element, else the root.
fn body_of(doc: &Document) -> NodeRef<'_> {
    let Some(html) = doc.document_element() else {
        return doc.root();
    };
    html.node()
        .children()
        .find(|c| c.as_element().is_some_and(|e| e.is_html(L::Body)))
        .unwrap_or(html.node())
}

/// What the markup says of each element under the body, by node index
/// (step 2).
#[derive(Clone)]
struct Marks {
    kind: Vec<Kind>,
    weight: Vec<f32>,
    /// Declared containers and date lines, in node order.
    container: Vec<NodeId>,
    dateline: Vec<NodeId>,
    /// Elements named as a consent dialog or an age gate, in node order:
    /// boilerplate even with the class marks relaxed, and however long.
    consent: Vec<NodeId>,
}

impl Marks {
    /// The marks of the elements under `body` ([`Kind::Named`] marks
    /// included: see [`Marks::relaxed`]).
    fn of<'d>(body: NodeRef<'d>) -> Marks {
        let n = body.document().node_count();
        // Pages repeat their class values: each is matched once.
        let mut seen: HashMap<&'d str, ValueMatch> = HashMap::default();
        let mut class_match =
            |value: &'d str| *seen.entry(value).or_insert_with(|| ValueMatch::of(value));
        let mut marks = Marks {
            kind: vec![Kind::Neutral; n],
            weight: vec![0.0; n],
            container: Vec::new(),
            dateline: Vec::new(),
            consent: Vec::new(),
        };
        walk(body, |node, step| {
            if step == Step::Leave {
                return true;
            }
            let Some(e) = node.as_element() else {
                return false;
            };
            if !e.renders_text_with(VIEW) {
                return false;
            }
            let attrs = Attrs::of(e);
            let names = Names::of(&attrs, &mut class_match);
            let i = node.id().index();
            let container = hints::is_container(e, &attrs, &names);
            marks.kind[i] = match hints::kind(e, &attrs, &names) {
                _ if node == body => Kind::Neutral,
                // A declared container is not named boilerplate.
                Kind::Named if container => Kind::Neutral,
                k => k,
            };
            if container {
                marks.container.push(node.id());
            }
            if marks.kind[i] == Kind::NamedStrong && names.is_consent() {
                marks.consent.push(node.id());
            }
            marks.weight[i] = names.weight();
            if names.is_dateline() || e.is_html(L::Time) {
                marks.dateline.push(node.id());
            }
            true
        });
        marks.dateline.sort();
        marks.container.sort();
        // A wrapper around a declared container is not named boilerplate
        // either (`cb-post-wrap cb-sidebar-right` around an `article`).
        for &id in &marks.container {
            for ancestor in body.document().node(id).ancestors().take(CONTAINER_LEVELS) {
                let k = &mut marks.kind[ancestor.id().index()];
                if matches!(*k, Kind::Named | Kind::NamedStrong) {
                    *k = Kind::Neutral;
                }
            }
        }
        let kind = &marks.kind;
        marks
            .consent
            .retain(|id| kind[id.index()] == Kind::NamedStrong);
        marks.consent.sort();
        marks
    }

    /// The marks without the ones by `class` and `id`.
    fn relaxed(&self) -> Marks {
        let mut marks = self.clone();
        for k in &mut marks.kind {
            if matches!(*k, Kind::Named | Kind::NamedStrong) {
                *k = Kind::Neutral;
            }
        }
        for id in &marks.consent {
            marks.kind[id.index()] = Kind::NamedStrong;
        }
        marks
    }

    fn is_consent(&self, node: NodeRef<'_>) -> bool {
        self.consent.binary_search(&node.id()).is_ok()
    }

    fn kind(&self, node: NodeRef<'_>) -> Kind {
        self.kind[node.id().index()]
    }

    fn weight(&self, node: NodeRef<'_>) -> f32 {
        self.weight[node.id().index()]
    }

    fn is_dateline(&self, node: NodeRef<'_>) -> bool {
        self.dateline.binary_search(&node.id()).is_ok()
    }

    fn is_container(&self, node: NodeRef<'_>) -> bool {
        self.container.binary_search(&node.id()).is_ok()
    }
}

/// How far up a declared container clears named marks.
const CONTAINER_LEVELS: usize = 32;

fn html_name(node: NodeRef<'_>) -> Option<L> {
    let e = node.as_element()?;
    (e.namespace() == Namespace::Html)
        .then(|| e.local_name())
        .flatten()
}

/// Whether an element is a block for the layout (a paragraph-like
/// element's children must not be).
fn is_block(name: L) -> bool {
    matches!(
        name,
        L::Address
            | L::Article
            | L::Aside
            | L::Blockquote
            | L::Dd
            | L::Div
            | L::Dl
            | L::Dt
            | L::Fieldset
            | L::Figure
            | L::Footer
            | L::Form
            | L::H1
            | L::H2
            | L::H3
            | L::H4
            | L::H5
            | L::H6
            | L::Header
            | L::Hr
            | L::Li
            | L::Main
            | L::Nav
            | L::Ol
            | L::P
            | L::Pre
            | L::Section
            | L::Table
            | L::Ul
    )
}

/// Whether `node` scores as a paragraph (step 3).
fn is_paragraph(node: NodeRef<'_>) -> bool {
    match html_name(node) {
        Some(L::P | L::Pre | L::Td | L::Blockquote | L::Li | L::Dd) => true,
        Some(L::Div | L::Section | L::Article) => {
            !node.children().any(|c| html_name(c).is_some_and(is_block))
        }
        _ => false,
    }
}

/// A candidate's starting score from its tag (Readability's).
fn tag_score(node: NodeRef<'_>) -> f32 {
    match html_name(node) {
        Some(L::Div | L::Article | L::Main | L::Section) => 5.0,
        Some(L::Pre | L::Td | L::Blockquote) => 3.0,
        Some(L::Address | L::Ol | L::Ul | L::Dl | L::Dd | L::Dt | L::Li | L::Form) => -3.0,
        Some(L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6 | L::Th) => -5.0,
        _ => 0.0,
    }
}

/// Every candidate's final score, by node (step 3).
fn score_candidates<'d>(
    body: NodeRef<'d>,
    stats: &Stats,
    marks: &Marks,
) -> Vec<(NodeRef<'d>, f32)> {
    let mut raw: HashMap<NodeId, f32> = HashMap::default();
    let mut order: Vec<NodeRef<'d>> = Vec::new();
    walk(body, |node, step| {
        if step == Step::Leave {
            return true;
        }
        if node.as_element().is_none() || marks.kind(node) != Kind::Neutral {
            return false;
        }
        if !is_paragraph(node) {
            return true;
        }
        let c = stats.get(node);
        if c.chars >= MIN_PARAGRAPH {
            let score = 1.0 + c.commas as f32 + (c.chars / 100).min(3) as f32;
            for (level, ancestor) in node.ancestors().take(5).enumerate() {
                if ancestor.as_element().is_none() {
                    break;
                }
                let entry = raw.entry(ancestor.id()).or_insert_with(|| {
                    order.push(ancestor);
                    tag_score(ancestor) + marks.weight(ancestor)
                });
                let divider = match level {
                    0 => 1.0,
                    1 => 2.0,
                    n => n as f32 * 3.0,
                };
                *entry += score / divider;
                if ancestor == body {
                    break;
                }
            }
        }
        // A paragraph's own children (a list in a list item) score too.
        true
    });
    order
        .into_iter()
        .map(|n| {
            let density = stats.get(n).link_density();
            (n, raw[&n.id()] * (1.0 - density))
        })
        .collect()
}

/// The best candidate (the first of equal ones).
fn best<'d>(scores: &[(NodeRef<'d>, f32)]) -> Option<(NodeRef<'d>, f32)> {
    let mut top: Option<(NodeRef<'d>, f32)> = None;
    for &(n, s) in scores {
        if top.is_none_or(|(_, t)| s > t) {
            top = Some((n, s));
        }
    }
    top.filter(|&(_, s)| s > 0.0)
}

/// A candidate with fewer characters than this climbs ([`climb`]).
const CLIMB_BELOW: u32 = 1000;

/// Readability's climb: up from `top` through scored ancestors while
/// their score stays above a third of the last, to the first that
/// scores higher (the article's wrapper, when `top` is one of its parts).
fn climb<'d>(
    top: NodeRef<'d>,
    top_score: f32,
    scores: &[(NodeRef<'d>, f32)],
    body: NodeRef<'d>,
) -> NodeRef<'d> {
    let by_node: HashMap<NodeId, f32> = scores.iter().map(|&(n, s)| (n.id(), s)).collect();
    let mut last = top_score;
    for ancestor in top.ancestors().take(ALTERNATIVE_LEVELS) {
        if ancestor == body {
            break;
        }
        let Some(&score) = by_node.get(&ancestor.id()) else {
            continue;
        };
        if score < last / 3.0 {
            break;
        }
        if score > last {
            return ancestor;
        }
        last = score;
    }
    top
}

/// Step 4: a declared article container around or instead of `top`.
fn prefer_container<'d>(top: NodeRef<'d>, stats: &Stats, marks: &Marks) -> NodeRef<'d> {
    let top_chars = stats.get(top).chars;
    // The container around the candidate, innermost first.
    for ancestor in top.ancestors() {
        if marks.is_container(ancestor) && marks.kind(ancestor) == Kind::Neutral {
            let c = stats.get(ancestor);
            if c.link_density() < 0.35 && c.chars <= top_chars.saturating_mul(3) {
                return ancestor;
            }
            break;
        }
    }
    if marks.is_container(top) {
        return top;
    }
    // A container elsewhere holding as much text: the candidate may be a
    // comment thread or a teaser list.
    let mut best: Option<(NodeRef<'d>, u32)> = None;
    for &id in &marks.container {
        let node = top.document().node(id);
        if marks.kind(node) != Kind::Neutral || stats.is_within(node, top) {
            continue;
        }
        let c = stats.get(node);
        if c.link_density() < 0.35
            && c.chars * 2 >= top_chars
            && best.is_none_or(|(_, b)| c.chars > b)
        {
            best = Some((node, c.chars));
        }
    }
    best.map_or(top, |(n, _)| n)
}

/// Readability's alternative candidates: an ancestor of `top` (among
/// its nearest [`ALTERNATIVE_LEVELS`]) that holds at least three other
/// candidates scoring ¾ of `top` or more.
fn alternative_ancestor<'d>(
    top: NodeRef<'d>,
    top_score: f32,
    scores: &[(NodeRef<'d>, f32)],
    stats: &Stats,
    body: NodeRef<'d>,
) -> NodeRef<'d> {
    let strong: Vec<NodeRef<'d>> = scores
        .iter()
        .filter(|&&(n, s)| n != top && s >= top_score * 0.75 && !stats.is_within(n, top))
        .map(|&(n, _)| n)
        .collect();
    if strong.len() < 3 {
        return top;
    }
    for ancestor in top.ancestors().take(ALTERNATIVE_LEVELS) {
        if ancestor == body {
            break;
        }
        let inside = strong
            .iter()
            .filter(|n| stats.is_within(**n, ancestor))
            .count();
        if inside >= 3 {
            return ancestor;
        }
    }
    top
}

/// How far up [`alternative_ancestor`] looks.
const ALTERNATIVE_LEVELS: usize = 8;

/// Step 5: `top` and the siblings that join it, in document order.
fn with_siblings<'d>(
    top: NodeRef<'d>,
    top_score: f32,
    scores: &[(NodeRef<'d>, f32)],
    stats: &Stats,
    marks: &Marks,
) -> Vec<NodeId> {
    let Some(parent) = top.parent().filter(|p| p.as_element().is_some()) else {
        return vec![top.id()];
    };
    let threshold = (top_score * 0.2).max(10.0);
    let top_class = top.as_element().and_then(|e| e.attr_known(L::Class));
    let by_node: HashMap<NodeId, f32> = scores.iter().map(|&(n, s)| (n.id(), s)).collect();
    let mut roots = Vec::new();
    for sibling in parent.children() {
        if sibling == top {
            roots.push(sibling.id());
            continue;
        }
        let Some(e) = sibling.as_element() else {
            continue;
        };
        if !e.renders_text_with(VIEW) || marks.kind(sibling) != Kind::Neutral {
            continue;
        }
        let bonus = match (top_class, e.attr_known(L::Class)) {
            (Some(a), Some(b)) if !a.is_empty() && a == b => top_score * 0.2,
            _ => 0.0,
        };
        let score = by_node.get(&sibling.id()).copied();
        let c = stats.get(sibling);
        let joins = match score {
            Some(s) if s + bonus >= threshold => true,
            _ if is_prose_block(e) => {
                let density = c.link_density();
                (c.chars > 80 && density < 0.25)
                    || (c.chars > 0 && c.link_chars == 0 && c.stops > 0)
            }
            _ => false,
        };
        if joins {
            roots.push(sibling.id());
        }
    }
    roots
}

/// Elements that hold running text as siblings of an article (Readability
/// looks at `p`; headings and quotes between paragraphs belong too).
fn is_prose_block(e: ElementRef<'_>) -> bool {
    matches!(
        e.local_name(),
        Some(L::P | L::Blockquote | L::Pre | L::Ul | L::Ol | L::H2 | L::H3 | L::H4 | L::Figure)
    ) && e.namespace() == Namespace::Html
}

/// Step 6: marks what to leave out inside `root`.
fn prune(root: NodeRef<'_>, stats: &Stats, marks: &Marks, dropped: &mut [bool]) {
    prune_with(root, stats, marks, dropped, Keep::default());
}

/// What [`prune_with`] keeps that [`prune`] leaves out.
#[derive(Clone, Copy, Debug, Default)]
struct Keep {
    /// Cards (a listing's items, a grid's products: [`typed::is_cards`]),
    /// however many links they hold.
    cards: bool,
    /// A grid's (a listing's, a collection's): its items' short date
    /// lines, and the short blocks that hold a price (product cards).
    grid: bool,
    /// A listing's: a block whose longest link is a headline
    /// ([`typed::is_cards`]) is an item, however short its other links
    /// (its tags, its place, its date).
    headlines: bool,
    /// A documentation page's: a block named as boilerplate (`aside`,
    /// `sidebar`…) that holds a code block is content.
    code: bool,
}

/// [`prune`], keeping what `keep` says.
fn prune_with(root: NodeRef<'_>, stats: &Stats, marks: &Marks, dropped: &mut [bool], keep: Keep) {
    let total = stats.get(root).chars.max(1);
    walk(root, |node, step| {
        if step == Step::Leave {
            return true;
        }
        let Some(e) = node.as_element() else {
            return false;
        };
        if node == root {
            return true;
        }
        // Left out with a related-articles heading before it.
        if dropped[node.id().index()] || !e.renders_text_with(VIEW) {
            return false;
        }
        if leave_out(node, total, stats, marks, keep) {
            dropped[node.id().index()] = true;
            return false;
        }
        if is_heading(node) && stats.get(node).chars <= 60 {
            if phrases::is_related_heading(&short_text(node)) {
                cut_from(node, root, stats, dropped);
                return false;
            }
        } else if matches!(html_name(node), Some(L::P | L::Li | L::Div))
            && (1..200).contains(&stats.get(node).chars)
            && stats.get(node).link_density() >= 0.4
            && phrases::is_see_also(&short_text(node))
        {
            dropped[node.id().index()] = true;
            return false;
        }
        true
    });
}

/// Whether `node` holds an element `name` among its first 200
/// descendants (a header's title, an aside's example come early; the
/// bound keeps nested blocks linear).
fn holds(node: NodeRef<'_>, name: L) -> bool {
    node.descendants()
        .take(200)
        .any(|d| html_name(d) == Some(name))
}

fn is_heading(node: NodeRef<'_>) -> bool {
    matches!(
        html_name(node),
        Some(L::H1 | L::H2 | L::H3 | L::H4 | L::H5 | L::H6)
    )
}

/// The text of a small element: its first text nodes (at most 64 nodes
/// looked at, so that nested elements stay linear).
fn short_text(node: NodeRef<'_>) -> String {
    let mut text = String::new();
    for n in node.descendants().take(64) {
        if let Some(t) = n.as_text() {
            text.push_str(t);
            text.push(' ');
        }
    }
    text
}

/// Leaves out a related-articles `heading` and everything after it in its
/// parent — or in its wrapper's parent, when the heading is all its
/// wrapper holds — up to `root`'s level.
fn cut_from(heading: NodeRef<'_>, root: NodeRef<'_>, stats: &Stats, dropped: &mut [bool]) {
    let mut from = heading;
    while let Some(parent) = from.parent() {
        if parent == root || stats.get(parent).chars != stats.get(from).chars {
            break;
        }
        from = parent;
    }
    dropped[from.id().index()] = true;
    let mut after = std::iter::successors(from.next_sibling(), |n| n.next_sibling());
    // The related links come first; a block of prose after them (a
    // product's feature sections after its "You may also like" row) is
    // the page's again, and ends the cut.
    let first = after.next();
    for next in first
        .into_iter()
        .chain(after.take_while(|&n| !is_prose_section(n, stats)))
    {
        dropped[next.id().index()] = true;
    }
}

/// Whether `node` is a section of prose: 200 characters or more, almost
/// none of them in links.
fn is_prose_section(node: NodeRef<'_>, stats: &Stats) -> bool {
    let c = stats.get(node);
    c.chars >= 200 && c.link_density() < 0.1
}

/// Whether `node` (inside a chosen root holding `total` characters) is
/// boilerplate to leave out.
fn leave_out(node: NodeRef<'_>, total: u32, stats: &Stats, marks: &Marks, keep: Keep) -> bool {
    let cards = keep.cards;
    let c = stats.get(node);
    let most = c.chars.saturating_mul(2) > total;
    match marks.kind(node) {
        // Hidden, unless it holds most of the text: a page that hides its
        // whole content until a script shows it (an inline
        // `display: none` taken off on load).
        Kind::Hidden if !most => return true,
        // (A block named a header that holds the page's `h1` is the
        // article's own header: its title and standfirst.)
        // (Nor, on a documentation page, one that holds a code block: the
        // reference's examples beside its prose; nor a heading there:
        // rustdoc's `h4.code-header` is a method's signature.)
        Kind::Named
            if !(most
                || holds(node, L::H1)
                || keep.code && (holds(node, L::Pre) || is_heading(node))) =>
        {
            return true;
        }
        // (A consent dialog is never the page's content, however long its
        // settings run.)
        Kind::NamedStrong if !most || marks.is_consent(node) => {
            return true;
        }
        Kind::Boilerplate if !most || html_name(node).is_some_and(|n| matches!(n, L::Nav)) => {
            return true;
        }
        _ => {}
    }
    let name = html_name(node);
    if name == Some(L::Form) && !most {
        return true;
    }
    // Captions and figures' credits are not the article's text (the
    // evaluation set's "without" has them; Trafilatura leaves images out).
    // (A grid's product card may be a linked `figure`.)
    if matches!(name, Some(L::Figcaption))
        || name == Some(L::Figure) && !most && !(cards && c.links > 0)
    {
        return true;
    }
    let density = c.link_density();
    let listy = matches!(
        name,
        Some(
            L::Ul
                | L::Ol
                | L::Dl
                | L::Table
                | L::Div
                | L::Section
                | L::Header
                | L::Menu
                | L::Figure
        )
    );
    if listy
        && c.chars > 0
        && ((density > 0.5 && c.chars < 300) || density > 0.75)
        && !(cards && (most || typed::is_cards(node, stats, keep)))
    {
        return true;
    }
    if matches!(name, Some(L::P | L::Li | L::Span)) && density > 0.9 && c.chars < 60 && c.words <= 6
    {
        // A lone "Read more" or "Next article" link.
        return is_navigation_link(node);
    }
    if c.chars < 100 && marks.is_dateline(node) && !keep.grid {
        return true;
    }
    false
}

/// Whether a link-only paragraph points inside the site (a navigation
/// link) rather than out (a cited source, which is content).
fn is_navigation_link(node: NodeRef<'_>) -> bool {
    // A few nodes are enough to tell (and keep nested inline elements
    // linear).
    node.descendants().take(32).any(|n| {
        n.as_element().is_some_and(|e| {
            e.is_html(L::A)
                && e.attr_known(L::Href).is_some_and(|h| {
                    let h = h.trim();
                    h.starts_with('/') && !h.starts_with("//")
                        || h.starts_with('#')
                        || h.starts_with('?')
                })
        })
    }) && !node
        .descendants()
        .take(32)
        .any(|n| matches!(n.kind(), NodeKind::Text(t) if t.contains("://")))
}

/// The characters left in `root` once the dropped nodes are out.
/// [`kept_chars`] summed over `roots`.
fn kept_in(doc: &Document, roots: &[NodeId], stats: &Stats, dropped: &[bool]) -> u32 {
    roots
        .iter()
        .map(|&r| kept_chars(doc.node(r), stats, dropped))
        .sum()
}

fn kept_chars(root: NodeRef<'_>, stats: &Stats, dropped: &[bool]) -> u32 {
    let mut gone = 0u32;
    walk(root, |node, step| {
        if step == Step::Leave {
            return true;
        }
        if node != root && dropped[node.id().index()] {
            gone = gone.saturating_add(stats.get(node).chars);
            return false;
        }
        node.as_element().is_some()
    });
    stats.get(root).chars.saturating_sub(gone)
}
