//! Main content by page type: what a reader of each kind of page came
//! for, when it is more than the one article the default method looks for.
//!
//! The default method ([`select`]) finds *one* container of prose, which
//! is what an article is. The other types spread their content: a
//! listing over repeated cards, a collection over a product grid with its
//! intro, a service page over sections (hero, features, pricing, FAQ), a
//! forum over posts, a product page over its description, specifications
//! and FAQ, documentation over headings, code and tables. For them the
//! *broad* selection is the body with its boilerplate pruned (navigation,
//! headers, footers, sidebars, dialogs, link lists — but, for listings,
//! collections and service pages, not the groups of repeated cards that
//! are their content), and it is taken over the default one when the
//! default kept too little of it ([`BROAD_OVER`]): a page whose content
//! is one container keeps its precise selection whatever its type.
//!
//! An article (and a page nothing marks as another type) is never
//! changed here.

use spinneret_html::{Document, NodeRef};

use super::{Marks, Selection, VIEW, body_of, kept_chars, prune_with, select};
use crate::page_type::PageType;
use crate::stats::Stats;

/// The default selection is replaced by the broad one when it keeps less
/// than this share of the broad one's characters.
const BROAD_OVER: f32 = 0.5;

/// An article's selection is replaced by the broad one only when it is
/// shorter than this (characters) …
const ARTICLE_SHORT: u32 = 3000;

/// … and keeps less than this share of the broad one's characters.
const ARTICLE_OVER: f32 = 0.2;

/// The main content of `doc`, a page of type `page_type`.
pub fn select_for(doc: &Document, page_type: PageType) -> Selection {
    let chosen = select(doc);
    let stats = Stats::of(doc.root(), VIEW);
    let body = body_of(doc);
    let marks = Marks::of(body);
    let cards = matches!(
        page_type,
        PageType::Listing | PageType::Collection | PageType::Service
    );
    let mut dropped = vec![false; doc.node_count()];
    prune_with(body, &stats, &marks, &mut dropped, cards);
    let kept = kept_chars(body, &stats, &dropped);
    let over = match page_type {
        // An article's selection only when it kept next to nothing.
        PageType::Article | PageType::Other if chosen.kept >= ARTICLE_SHORT => 0.0,
        PageType::Article | PageType::Other => ARTICLE_OVER,
        _ => BROAD_OVER,
    };
    if std::env::var_os("SPINNERET_DEBUG_MAIN").is_some() {
        eprintln!(
            "page type {page_type}: the default selection keeps {} characters, the broad one {kept} of {}",
            chosen.kept,
            stats.get(body).chars
        );
        for n in body.descendants() {
            if dropped[n.id().index()] && stats.get(n).chars > 20 {
                let e = n.as_element();
                eprintln!(
                    "  broad drops <{}> class={:?} chars={} kind={:?}",
                    e.map_or("", |e| e.name()),
                    e.and_then(|e| e.attr("class")),
                    stats.get(n).chars,
                    marks.kind(n)
                );
            }
        }
    }
    if (chosen.kept as f32) < over * kept as f32 {
        return Selection {
            roots: vec![body.id()],
            dropped,
            kept,
        };
    }
    chosen
}

/// The shortest mean link text of a block of content links (headlines,
/// product names), in characters: a menu's links are words.
const CONTENT_LINK: u32 = 30;

/// Whether a link-dense block is cards, not a menu: its links are
/// headlines or product names ([`CONTENT_LINK`]), or its children a group
/// of repeated cards ([`is_card_group`]).
pub(super) fn is_cards(node: NodeRef<'_>, stats: &Stats) -> bool {
    stats.get(node).mean_link() >= CONTENT_LINK || is_card_group(node, stats)
}

/// Whether `node`'s children are a group of repeated cards: three or more
/// elements of the same tag and first class, most of its children, each
/// with text of its own besides a link.
fn is_card_group(node: NodeRef<'_>, stats: &Stats) -> bool {
    let mut groups: Vec<(&str, &str, u32)> = Vec::new();
    let mut elements = 0u32;
    for child in node.children().take(1000) {
        let Some(e) = child.as_element() else {
            continue;
        };
        elements += 1;
        if stats.get(child).chars < 20 {
            continue;
        }
        let class = e
            .attr("class")
            .and_then(|v| v.split_ascii_whitespace().next())
            .unwrap_or_default();
        match groups
            .iter_mut()
            .find(|(tag, cls, _)| *tag == e.name() && *cls == class)
        {
            Some(g) => g.2 += 1,
            None => groups.push((e.name(), class, 1)),
        }
    }
    let largest = groups.iter().map(|g| g.2).max().unwrap_or(0);
    largest >= 3 && largest * 2 >= elements
}
