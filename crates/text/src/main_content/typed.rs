//! Main content by page type: what a reader of each kind of page came
//! for, when it is more than the one article the default method looks
//! for — and what spinneret keeps for each type, and why.
//!
//! The default method ([`select`](super::select)) finds *one* container
//! of prose, which is what an article is. WCXB's ground truth (its pages
//! annotated whole, by type) and the extractors that lead on it
//! (rs-trafilatura's profiles per type, MinerU-HTML's instructions to its
//! model) agree on what the other types' readers came for, and it is
//! spread over the page:
//!
//! | type | kept | left out |
//! | --- | --- | --- |
//! | listing | the intro, every item's title, teaser and date | navigation, newsletter and sign-in blocks |
//! | collection | the count line, every product's name and price, intro and guide text | filters, sorting, cart and compare controls |
//! | service | every section: hero, features, steps, testimonials, pricing, FAQ, contact details | navigation, lone calls to action, cookie and chat boxes |
//! | forum | every post and reply, and plain quotes | log-in bars, user cards, reply/quote/report controls, related threads, quotes the forum marks as quotes of other posts (XenForo's, Invision's: the post quoted is on the page) |
//! | product | name, description, features, specification tables, FAQ | buy box, shipping and promotion banners, related products |
//! | documentation | headings, prose, code blocks, tables, every tab of a tabbed example | the docs navigation, "on this page", previous/next, edit links |
//!
//! So for every type but articles, main content is chosen from two
//! candidates:
//!
//! - the **default** selection (one container and its siblings);
//! - the **broad** one: the body with its boilerplate pruned (navigation,
//!   headers, footers, sidebars, dialogs, hidden blocks, forms, link
//!   lists), where — unlike in an article — *cards* are content: a
//!   link-dense block whose links average [`CONTENT_LINK`] characters or
//!   more (headlines, product names: a menu's links are single words), a
//!   group of three or more repeated siblings, a linked figure; on a
//!   listing or a collection also a short block with a price (a product
//!   card) and the items' dates; and a wrapper that holds most of the
//!   page is never link boilerplate (a news home page is links).
//!
//! The broad one is taken when the default kept less than [`BROAD_OVER`]
//! of it ([`GRID_OVER`] on listings and collections, whose content is the
//! grid that one container rarely holds); otherwise the default
//! container stays, pruned the broad way as well, keeping what either
//! pruning keeps (a forum's posts, a service page's priced plans). A
//! product keeps its default selection, less the other products shown in
//! it (a group of priced cards, "similar items" often without a heading)
//! and its customer reviews: its container is the description, and the
//! rest of a product page is the shop. Headings of
//! related products ("Customers also viewed") cut what follows them, as
//! related-articles headings do in articles.
//!
//! Three rules more, each for one type: on a listing a link-dense block
//! whose longest link is a headline is an item, however short its other
//! links (its tags, its place); on a documentation page a block named as
//! an aside that holds a code block is the reference's example, not a
//! sidebar; and on every page a block named a header that holds the `h1`
//! is the page's own header.
//!
//! An article (and a page nothing marks as another type) keeps the
//! default selection unless it kept next to nothing ([`ARTICLE_SHORT`],
//! [`ARTICLE_OVER`]): a listing the classifier took for an article still
//! gets its items.
//!
//! Measured on WCXB dev (its metric, `tests/wcxb.rs`) and checked on
//! trafilatura's evaluation set (`tests/main_content.rs`), where the
//! pages are mostly articles and no rule was tuned: the F1 of both is in
//! BENCHMARKS.md.

use spinneret_html::{Document, ElementRef, LocalName as L, NodeRef};

use super::{
    Keep, Marks, Selection, VIEW, body_of, kept_chars, kept_in, prune_with, select_in, short_text,
};
use crate::page_type::{PageType, prices_in};
use crate::stats::{Stats, Step, walk};

/// The default selection is replaced by the broad one when it keeps less
/// than this share of the broad one's characters.
const BROAD_OVER: f32 = 0.5;

/// A listing's or a collection's default selection is replaced when it
/// keeps less than this share: their content is the grid, which one
/// container rarely holds.
const GRID_OVER: f32 = 0.8;

/// A documentation page's default selection is replaced when it keeps
/// less than this share: a reference page is its sections one after
/// another (a command's synopsis, description, options, examples), of
/// which one container often holds only the longest.
const DOCS_OVER: f32 = 0.7;

/// An article's selection is replaced by the broad one only when it is
/// shorter than this (characters) …
const ARTICLE_SHORT: u32 = 3000;

/// … and keeps less than this share of the broad one's characters.
const ARTICLE_OVER: f32 = 0.2;

/// The main content of `doc`, a page of type `page_type`.
pub fn select_for(doc: &Document, page_type: PageType) -> Selection {
    let stats = Stats::of(doc.root(), VIEW);
    let mut selection = select_typed(doc, page_type, &stats);
    if page_type == PageType::Forum {
        drop_quotes(doc, &mut selection);
        selection.kept = kept_in(doc, &selection.roots, &stats, &selection.dropped);
    }
    selection
}

/// Leaves out a forum's quoted posts: `blockquote`s whose class names a
/// quote (XenForo's `bbCodeBlock--quote`, Invision's `ipsQuote`). The
/// post quoted is on the page already; a reader reads it once.
fn drop_quotes(doc: &Document, selection: &mut Selection) {
    let is_quote = |n: NodeRef<'_>| {
        n.as_element()
            .is_some_and(|e| e.is_html(L::Blockquote) && names_word(e, L::Class, b"quote"))
    };
    for n in doc.root().descendants() {
        if is_quote(n) {
            selection.dropped[n.id().index()] = true;
        }
    }
}

/// Whether `e`'s attribute `name` (its class, its id) holds `word`
/// (ASCII case-insensitive).
fn names_word(e: ElementRef<'_>, name: L, word: &[u8]) -> bool {
    e.attr_known(name).is_some_and(|v| {
        v.as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    })
}

/// [`select_for`] before the type's last cuts.
fn select_typed(doc: &Document, page_type: PageType, stats: &Stats) -> Selection {
    let body = body_of(doc);
    let marks = Marks::of(body);
    let chosen = select_in(doc, stats, body, &marks);
    let mut dropped = vec![false; doc.node_count()];
    let keep = Keep {
        cards: true,
        grid: matches!(page_type, PageType::Listing | PageType::Collection),
        headlines: page_type == PageType::Listing,
        code: page_type == PageType::Documentation,
    };
    prune_with(body, stats, &marks, &mut dropped, keep);
    let kept = kept_chars(body, stats, &dropped);
    let over = match page_type {
        // An article's selection only when it kept next to nothing.
        PageType::Article | PageType::Other if chosen.kept >= ARTICLE_SHORT => 0.0,
        PageType::Article | PageType::Other => ARTICLE_OVER,
        PageType::Listing | PageType::Collection => GRID_OVER,
        PageType::Documentation => DOCS_OVER,
        _ => BROAD_OVER,
    };
    if std::env::var_os("SPINNERET_DEBUG_MAIN").is_some() {
        eprintln!(
            "page type {page_type}: the default selection keeps {} characters, the broad one {kept} of {}",
            chosen.kept,
            stats.get(body).chars
        );
        for &root in &chosen.roots {
            let n = doc.node(root);
            let e = n.as_element();
            eprintln!(
                "  default root <{}> class={:?} id={:?} chars={}",
                e.map_or("", |e| e.name()),
                e.and_then(|e| e.attr("class")),
                e.and_then(|e| e.attr("id")),
                stats.get(n).chars
            );
        }
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
    // (A product whose default container is a customer review, the
    // longest prose of many shops' pages, has its description elsewhere.)
    let review_chosen = page_type == PageType::Product
        && chosen.roots.iter().any(|&r| {
            doc.node(r)
                .ancestors()
                .take_while(|&a| a != body)
                .any(is_reviews)
                || is_reviews(doc.node(r))
        });
    if review_chosen || (chosen.kept as f32) < over * kept as f32 {
        return Selection {
            roots: vec![body.id()],
            dropped,
            kept,
        };
    }
    // (A product's container is its description: what it prunes stays
    // out, and so do the other products it shows.)
    if page_type == PageType::Product {
        let mut chosen = chosen;
        for &root in &chosen.roots {
            drop_other_products(doc.node(root), stats, &mut chosen.dropped);
        }
        chosen.kept = kept_in(doc, &chosen.roots, stats, &chosen.dropped);
        return chosen;
    }
    if matches!(page_type, PageType::Article | PageType::Other) {
        return chosen;
    }
    // The default container, pruned as the broad selection is too (cards
    // kept; a grid's dates too): what either pruning keeps stays (the
    // default may have been chosen with the class marks off).
    let mut dropped = vec![false; doc.node_count()];
    for &root in &chosen.roots {
        prune_with(doc.node(root), stats, &marks, &mut dropped, keep);
    }
    // (But a consent dialog stays out: the default may have been chosen
    // with the class marks off, and its settings are long prose.)
    for n in doc.root().descendants() {
        let i = n.id().index();
        if dropped[i] && !chosen.is_dropped_index(i) && !marks.is_consent(n) {
            dropped[i] = false;
        }
    }
    let kept = kept_in(doc, &chosen.roots, stats, &dropped);
    Selection {
        roots: chosen.roots,
        dropped,
        kept,
    }
}

/// The shortest mean link text of a block of content links (headlines,
/// product names), in characters: a menu's links are words.
const CONTENT_LINK: u32 = 30;

/// Whether a link-dense block is cards, not a menu: its links are
/// headlines or product names ([`CONTENT_LINK`]; on a listing its longest
/// link is enough: an item's title beside its tag and place links), its
/// children a group of repeated cards ([`is_card_group`]), or — on a
/// `grid` page — it is a product's card (a short block with a price).
pub(super) fn is_cards(node: NodeRef<'_>, stats: &Stats, keep: Keep) -> bool {
    stats.get(node).mean_link() >= CONTENT_LINK
        || keep.headlines && stats.get(node).longest_link() >= CONTENT_LINK
        || is_card_group(node, stats)
        || keep.grid && stats.get(node).chars < 300 && prices_in(&short_text(node)) > 0
}

/// Leaves out, under `root` (a product's page), the groups of product
/// cards: "similar items", "customers also bought" and the like, which a
/// product page shows without a heading often enough that the related
/// headings ([`crate::phrases`]) miss them: a card group
/// ([`is_card_group`]) three or more of whose cards show a price, and
/// that holds less than half of the text; and its customer reviews
/// ([`is_reviews`]).
fn drop_other_products(root: NodeRef<'_>, stats: &Stats, dropped: &mut [bool]) {
    let total = stats.get(root).chars;
    walk(root, |node, step| {
        if step == Step::Leave || dropped[node.id().index()] || node.as_element().is_none() {
            return false;
        }
        // (Never most of the page: that is the product itself, or its
        // options.)
        if node == root || stats.get(node).chars * 2 > total {
            return true;
        }
        if is_reviews(node) {
            dropped[node.id().index()] = true;
            return false;
        }
        if !is_card_group(node, stats) {
            return true;
        }
        let priced = node
            .children()
            .filter(|c| c.as_element().is_some() && prices_in(&short_text(*c)) > 0)
            .take(3)
            .count();
        if priced < 3 {
            return true;
        }
        dropped[node.id().index()] = true;
        false
    });
}

/// Whether `node` is a product's customer reviews (a class or id naming
/// reviews, or schema.org's `review` and `aggregateRating` properties).
fn is_reviews(node: NodeRef<'_>) -> bool {
    let Some(e) = node.as_element() else {
        return false;
    };
    names_word(e, L::Class, b"review")
        || names_word(e, L::Id, b"review")
        || e.attr("itemprop")
            .is_some_and(|p| matches!(p.trim(), "review" | "aggregateRating"))
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
