//! A large document's dump or HTML rendered on several threads: the
//! rendering cut into pieces in document order, each piece rendered into
//! its own buffer on rayon's current pool, the buffers written in order.
//!
//! Why the bytes are the sequential rendering's: both renderings are a
//! walk of the tree in document order in which a node contributes text
//! before what is under it (its *opening*: the dump's lines, the start
//! tag) and, in HTML, after it (its *closing*: the end tag), and what a
//! node contributes depends only on the node, its depth (the dump's
//! indentation) and its parent (raw text in HTML). The cut is a sequence of
//! [`Unit`]s in that order — a whole subtree, an element's opening, an
//! element's closing — that covers the walk exactly once: an element is
//! either inside one subtree unit or *expanded* (its opening, then the
//! units of what is under it in the walk's order, then its closing). Each
//! unit renders what the walk renders for it; the pieces are consecutive
//! runs of units; so the buffers, concatenated in order, are the walk's
//! output. A template's contents come under it as the walk has them: in
//! the dump its `content` line is part of the opening and the contents
//! (two levels deeper) come before the element's own children; in HTML
//! the contents stand for the children. A void element is never expanded
//! in HTML (the walk writes its start tag alone).
//!
//! Balance: what a subtree costs is estimated without walking it. The
//! parser creates nodes in document order but for a few moves (foster
//! parenting, the adoption agency), so a subtree's nodes are about the
//! arena indices from its root to its next sibling's; a subtree of at most
//! [`SMALL`] nodes is walked for its text's length (a `<script>` of
//! 100 KB is two nodes); in the dump every line is indented by its depth,
//! which the estimate counts. An estimate only balances the pieces: a
//! wrong one costs time, never bytes.
//!
//! Memory: at most [`WINDOW_PER_THREAD`] pieces per thread are rendered
//! before they are written, each of about [`PIECE_COST`] units (tens to
//! hundreds of kilobytes), and the buffers are reused; a deep tree's dump
//! stays bounded because every element of the dump may be expanded and an
//! opening's cost grows with its depth.

use std::io;
use std::ops::Range;

use rayon::prelude::*;

use super::dump::{dump_opening, dump_subtree};
use super::serialize::{end_tag, is_void, serialize_into, start_tag};
use super::visible_text::{Role, is_closed_details, role};
use super::{Document, ElementRef, NodeRef, SerializeOptions, VisibleTextOptions};

/// How a document is rendered on several threads
/// ([`Document::write_dump_parallel`], [`Document::write_html_parallel`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParallelRender {
    /// Threads to render on (rayon's current pool runs the pieces); 1
    /// renders sequentially.
    pub threads: usize,
    /// The estimated work of one piece, in units of about one node (the
    /// default [`PIECE_COST`]); smaller pieces balance better and cost
    /// more to hand out. Tests set it small to cut small documents.
    pub piece_cost: usize,
}

impl ParallelRender {
    /// Rendering on `threads` threads with the default piece size.
    pub fn threads(threads: usize) -> ParallelRender {
        ParallelRender {
            threads,
            piece_cost: PIECE_COST,
        }
    }

    /// Rendering on every thread of rayon's current pool (the global
    /// one: a thread per core, unless the caller installs another).
    pub fn current_pool() -> ParallelRender {
        ParallelRender::threads(rayon::current_num_threads())
    }
}

/// The default estimated work of a piece: about 4,096 nodes (roughly
/// 100–200 KB of dump or HTML from a web page), small enough to stay in a
/// core's cache, large enough that handing it out costs nothing.
pub const PIECE_COST: usize = 4096;

/// Pieces rendered per thread before they are written.
pub(super) const WINDOW_PER_THREAD: usize = 4;

/// A subtree of at most this many nodes (by its arena span) is walked for
/// its cost.
const SMALL: usize = 8;

/// Bytes of text that count as one unit of work.
const TEXT_BYTES_PER_UNIT: usize = 32;

/// The dump indents a line by its depth: each this many levels count as
/// one more unit per line.
const DEPTH_PER_UNIT: usize = 16;

/// Which rendering a cut is for.
#[derive(Clone, Copy)]
pub(super) enum Format {
    Dump,
    Html,
    /// The visible text (`dom/text_pieces.rs` renders and joins it).
    Text(VisibleTextOptions),
}

/// The renderings whose pieces are written as they are.
#[derive(Clone, Copy)]
enum Markup {
    Dump,
    Html(SerializeOptions),
}

/// A part of the walk, rendered on its own.
#[derive(Clone, Copy)]
pub(super) enum Unit<'d> {
    /// A node and everything under it, the node at `depth`.
    Subtree { node: NodeRef<'d>, depth: usize },
    /// An expanded element's opening.
    Open {
        element: ElementRef<'d>,
        depth: usize,
    },
    /// An expanded element's closing.
    Close(ElementRef<'d>),
}

impl Document {
    /// [`Document::write_dump`] on `parallel.threads` threads of rayon's
    /// current pool: the same bytes, written in pieces of tens to hundreds
    /// of kilobytes (see `dom/render_pieces.rs`). Sequential for one
    /// thread or a document too small to cut.
    pub fn write_dump_parallel(
        &self,
        writer: &mut impl io::Write,
        parallel: &ParallelRender,
    ) -> io::Result<()> {
        // On one thread, the sequential dump streams already.
        let cut = (parallel.threads >= 2)
            .then(|| self.cut(Format::Dump, parallel))
            .flatten();
        match cut {
            Some((units, pieces)) => write_pieces(writer, &units, &pieces, Markup::Dump, parallel),
            None => self.write_dump(writer),
        }
    }

    /// The document serialized as HTML (the root's
    /// [`outer_html`](NodeRef::outer_html)) written to `writer`, on
    /// `parallel.threads` threads of rayon's current pool as
    /// [`Document::write_dump_parallel`] does: the same bytes. On one
    /// thread too, a large document is written in pieces, one buffer
    /// reused, rather than made whole first.
    pub fn write_html_parallel(
        &self,
        writer: &mut impl io::Write,
        options: SerializeOptions,
        parallel: &ParallelRender,
    ) -> io::Result<()> {
        match self.cut(Format::Html, parallel) {
            Some((units, pieces)) => {
                write_pieces(writer, &units, &pieces, Markup::Html(options), parallel)
            }
            None => writer.write_all(self.root().outer_html(options).as_bytes()),
        }
    }

    /// The cut of the root's walk into units, and the pieces (runs of
    /// units) to render; `None` for a document of fewer than two pieces'
    /// worth of nodes.
    #[allow(clippy::type_complexity)]
    pub(super) fn cut(
        &self,
        format: Format,
        parallel: &ParallelRender,
    ) -> Option<(Vec<Unit<'_>>, Vec<Range<usize>>)> {
        let piece_cost = parallel.piece_cost.max(1);
        if self.node_count() < 2 * piece_cost {
            return None;
        }
        let (units, costs) = cut_units(self.root(), format, piece_cost);
        let mut pieces = Vec::new();
        let (mut start, mut cost) = (0, 0);
        for (i, c) in costs.iter().enumerate() {
            // A piece of visible text begins only at a block's entry.
            if cost >= piece_cost && can_begin(units[i], format) {
                pieces.push(start..i);
                (start, cost) = (i, 0);
            }
            cost += c;
        }
        if start < units.len() {
            pieces.push(start..units.len());
        }
        (pieces.len() >= 2).then_some((units, pieces))
    }
}

/// One level of the cut's walk: the children still to cut of an expanded
/// node (or of a template's contents), and what closes the level.
struct Level<'d> {
    next: Option<NodeRef<'d>>,
    depth: usize,
    /// The arena index where the last of these children's subtrees is
    /// estimated to end.
    end: usize,
    /// The element whose closing follows (HTML), if any.
    close: Option<ElementRef<'d>>,
}

/// The units of `root`'s walk (the root itself is not rendered, only what
/// is under it) and each unit's estimated cost: a subtree costing more
/// than `piece_cost` is expanded where the format allows.
fn cut_units<'d>(
    root: NodeRef<'d>,
    format: Format,
    piece_cost: usize,
) -> (Vec<Unit<'d>>, Vec<usize>) {
    let mut units = Vec::new();
    let mut costs = Vec::new();
    let mut levels = vec![Level {
        next: root.first_child(),
        depth: 0,
        end: root.document().node_count(),
        close: None,
    }];
    while let Some(level) = levels.last_mut() {
        let Some(node) = level.next else {
            let close = level.close;
            levels.pop();
            if let Some(element) = close {
                units.push(Unit::Close(element));
                costs.push(1);
            }
            continue;
        };
        level.next = node.next_sibling();
        let depth = level.depth;
        let end = match level.next {
            Some(next) => next.id().index(),
            None => level.end,
        };
        let span = subtree_span(node, end);
        let end = node.id().index() + span;
        let cost = subtree_cost(node, span, depth, format);
        let expand = cost > piece_cost
            && node.as_element().is_some_and(|e| match format {
                Format::Dump => true,
                Format::Html => !is_void(&e),
                Format::Text(options) => text_expands(e, options),
            });
        let Some(element) = node.as_element().filter(|_| expand) else {
            units.push(Unit::Subtree { node, depth });
            costs.push(cost);
            continue;
        };
        units.push(Unit::Open { element, depth });
        costs.push(1 + element.attrs().len() + line_cost(depth, format));
        let contents = element.template_contents();
        match format {
            Format::Dump => {
                // The element's own children come after its contents.
                levels.push(Level {
                    next: node.first_child(),
                    depth: depth + 1,
                    end,
                    close: None,
                });
                if let Some(contents) = contents {
                    levels.push(Level {
                        next: contents.first_child(),
                        depth: depth + 2,
                        end,
                        close: None,
                    });
                }
            }
            Format::Html | Format::Text(_) => levels.push(Level {
                next: contents.unwrap_or(node).first_child(),
                depth: depth + 1,
                end,
                close: Some(element),
            }),
        }
    }
    (units, costs)
}

/// About how many arena indices `node`'s subtree spans: from the node to
/// its last descendant in tree order (the last one the parser created
/// in it, but for moves), found within [`SPAN_DEPTH`] levels; past them,
/// to `end`, where its next sibling (or its parent's estimated end) is.
/// The next sibling alone would not do: a comment after `</html>` is the
/// next sibling of an `html` element that gets all the nodes of the
/// pages that follow it.
fn subtree_span(node: NodeRef<'_>, end: usize) -> usize {
    let start = node.id().index();
    let mut last = node;
    for _ in 0..SPAN_DEPTH {
        let under = match last.as_element().and_then(|e| e.template_contents()) {
            // A template's contents come before its children in the
            // dump; its last descendant is the later of the two.
            Some(contents) => [last.last_child(), contents.last_child()]
                .into_iter()
                .flatten()
                .max_by_key(|n| n.id().index()),
            None => last.last_child(),
        };
        match under {
            Some(child) => last = child,
            None => return (last.id().index() + 1).saturating_sub(start).max(1),
        }
    }
    end.max(last.id().index() + 1).saturating_sub(start).max(1)
}

/// How deep [`subtree_span`] looks for a subtree's last descendant.
const SPAN_DEPTH: usize = 64;

/// The extra cost of a line at `depth`: the dump's indentation.
fn line_cost(depth: usize, format: Format) -> usize {
    match format {
        Format::Dump => depth / DEPTH_PER_UNIT,
        Format::Html | Format::Text(_) => 0,
    }
}

/// Whether the visible text may cut through `e` (its opening, what is
/// under it, its closing as units of their own): an element the walk
/// enters and whose children it walks one after another with nothing
/// but the writer's state between them — not a table or its parts (a
/// row's state), not preformatted, not a closed `details` (its summary
/// alone), not a `select` (its label), not skipped.
fn text_expands(e: ElementRef<'_>, options: VisibleTextOptions) -> bool {
    matches!(
        role(e, options),
        Role::Block | Role::Paragraph | Role::Inline
    ) && !is_table_part(e)
        && !is_closed_details(e.node())
}

/// Whether a piece may begin at `unit`: any unit but in the visible text,
/// where only the entry of a block does (a block's entry sets the writer's
/// whole state but the line breaks owed; see `dom/text_pieces.rs`).
fn can_begin(unit: Unit<'_>, format: Format) -> bool {
    let Format::Text(options) = format else {
        return true;
    };
    let element = match unit {
        Unit::Subtree { node, .. } => node.as_element(),
        Unit::Open { element, .. } => Some(element),
        Unit::Close(_) => None,
    };
    element.is_some_and(|e| {
        matches!(role(e, options), Role::Block | Role::Paragraph) && !is_table_part(e)
    })
}

/// A table and the elements that live in one.
fn is_table_part(e: ElementRef<'_>) -> bool {
    use crate::names::LocalName as L;
    e.namespace() == crate::namespace::Namespace::Html
        && matches!(
            e.local_name(),
            Some(
                L::Table
                    | L::Caption
                    | L::Colgroup
                    | L::Col
                    | L::Tbody
                    | L::Thead
                    | L::Tfoot
                    | L::Tr
                    | L::Td
                    | L::Th
            )
        )
}

/// The estimated cost of rendering `node`'s subtree, which spans about
/// `span` arena indices, at `depth`.
fn subtree_cost(node: NodeRef<'_>, span: usize, depth: usize, format: Format) -> usize {
    let text_cost = |n: NodeRef<'_>| n.as_text().map_or(0, |t| t.len() / TEXT_BYTES_PER_UNIT);
    // (A template's contents are not its descendants: its span counts
    // them.)
    let template = node
        .as_element()
        .is_some_and(|e| e.template_contents().is_some());
    let base = if span <= SMALL && !template {
        let walked = std::iter::once(node).chain(node.descendants().take(SMALL));
        walked.map(|n| 1 + text_cost(n)).sum()
    } else {
        span
    };
    base * (1 + line_cost(depth, format))
}

/// Renders one unit, appending to `out`.
fn render(out: &mut String, unit: Unit<'_>, markup: Markup) {
    match (unit, markup) {
        (Unit::Subtree { node, depth }, Markup::Dump) => dump_subtree(out, node, depth),
        (Unit::Subtree { node, .. }, Markup::Html(options)) => serialize_into(out, node, options),
        (Unit::Open { element, depth }, Markup::Dump) => dump_opening(out, element.node(), depth),
        (Unit::Open { element, .. }, Markup::Html(_)) => start_tag(out, &element),
        (Unit::Close(_), Markup::Dump) => {}
        (Unit::Close(element), Markup::Html(_)) => end_tag(out, &element),
    }
}

/// Renders the pieces on the pool, a window of them at a time, and writes
/// each window's buffers in order.
fn write_pieces(
    writer: &mut impl io::Write,
    units: &[Unit<'_>],
    pieces: &[Range<usize>],
    markup: Markup,
    parallel: &ParallelRender,
) -> io::Result<()> {
    // `piece`'s units rendered into `out`, emptied first.
    let render_piece = |out: &mut String, piece: &Range<usize>| {
        out.clear();
        for &unit in &units[piece.clone()] {
            render(out, unit, markup);
        }
    };
    if parallel.threads < 2 {
        let mut out = String::new();
        for piece in pieces {
            render_piece(&mut out, piece);
            writer.write_all(out.as_bytes())?;
        }
        return Ok(());
    }
    let window = WINDOW_PER_THREAD * parallel.threads;
    let mut buffers = vec![String::new(); window.min(pieces.len())];
    for group in pieces.chunks(window) {
        group
            .par_iter()
            .zip(buffers.par_iter_mut())
            .with_max_len(1)
            .for_each(|(piece, out)| render_piece(out, piece));
        for out in &buffers[..group.len()] {
            writer.write_all(out.as_bytes())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::ParallelRender;
    use crate::{ParseOptions, SerializeOptions, parse_document};
    use std::sync::atomic::Ordering;

    /// Both renderings of `html` in pieces of `piece_cost`, against the
    /// sequential ones.
    fn same_in_pieces(html: &str, piece_cost: usize) {
        let options = ParseOptions::default();
        let doc = parse_document(html, &options);
        for threads in [1, 2] {
            let parallel = ParallelRender {
                threads,
                piece_cost,
            };
            let mut dump = Vec::new();
            doc.write_dump_parallel(&mut dump, &parallel).unwrap();
            assert_eq!(String::from_utf8(dump).unwrap(), doc.dump(), "{html:?}");
            let serialize = SerializeOptions::default();
            let mut out = Vec::new();
            doc.write_html_parallel(&mut out, serialize, &parallel)
                .unwrap();
            let html_out = String::from_utf8(out).unwrap();
            assert_eq!(html_out, doc.root().outer_html(serialize), "{html:?}");
            let mut text = Vec::new();
            doc.write_visible_text_parallel(&mut text, Default::default(), &parallel)
                .unwrap();
            let text = String::from_utf8(text).unwrap();
            assert_eq!(text, doc.visible_text(), "{html:?}, pieces of {piece_cost}");
        }
        let parallel = ParallelRender {
            threads: 2,
            piece_cost,
        };
        // Cut: the document has at least two pieces' worth of nodes.
        if doc.node_count() >= 2 * piece_cost {
            let (_, pieces) = doc.cut(super::Format::Dump, &parallel).unwrap();
            assert!(pieces.len() >= 2, "{html:?}");
        }
    }

    #[test]
    fn pieces_give_the_sequential_bytes() {
        let cases = [
            "<p>a<b>b<i>c</b>d</i>e<table><tr><td>x</table>f".repeat(40),
            "<template><p>in<template>deeper</template></p>out</template>tail<br><img src=x>"
                .repeat(30),
            "<svg><g><rect/></g><foreignObject><p>x</p></foreignObject></svg><math><mi>y"
                .repeat(20),
            "<script>if (a < b && c) {}</script><style>p>q{}</style><pre>\n\nx</pre>&amp;&nbsp;\""
                .repeat(25),
            "<table>foster<tr>me<td>cell</table>".repeat(30),
            "<div class=a id=b>".repeat(300),
            "<!DOCTYPE html><!--c--><select><option>1<option selected>2</select>".repeat(30),
        ];
        // The visible text's state across blocks: cut into many pieces.
        let text_cases = [
            "<div>a</div>  b <p>c</p><div><br></div><br>d<pre>\n\ne\n</pre><div> </div>".repeat(30),
            "<pre>\n\n</pre><div>\n</div><p></p><textarea>\n</textarea><div>x</div>".repeat(20),
            "<table><tr><td>a<td><div>b</div><td></table><div>c</div><td>d".repeat(20),
            "<details><summary>s</summary><div>hid</div></details><details open><div>o</div></details>"
                .repeat(20),
            "<div hidden><p>no</p></div><span><div>in span</div> tail </span>&shy;<p>&shy;</p>"
                .repeat(20),
            "<ul><li>one<li><p>two</p><li>three</ul><hr><h1> T </h1>".repeat(20),
        ];
        for html in cases.iter().chain(&text_cases) {
            for piece_cost in [1, 2, 3, 7, 16, 50] {
                same_in_pieces(html, piece_cost);
            }
        }
        for html in &text_cases {
            let doc = parse_document(html, &ParseOptions::default());
            let text = super::Format::Text(Default::default());
            let parallel = ParallelRender {
                threads: 2,
                piece_cost: 2,
            };
            let (_, pieces) = doc.cut(text, &parallel).unwrap();
            assert!(pieces.len() >= 10, "{html:?}: {} pieces", pieces.len());
        }
    }

    #[test]
    fn a_piece_whose_guess_is_not_enough_is_rendered_again() {
        // The piece's first text is one line break (the `pre`'s, its
        // first dropped by the parser); the next text's separator counts
        // the line breaks before it, into the piece before.
        let html = "<div><pre>\n\n</pre>y</div>".repeat(30);
        let again = || super::super::text_pieces::RENDERED_AGAIN.load(Ordering::Relaxed);
        let before = again();
        same_in_pieces(&html, 2);
        assert!(again() > before);
    }

    #[test]
    fn templates_are_expanded() {
        let html = "<template><p>in<template>deeper</template></p>out</template>".repeat(30);
        let doc = parse_document(&html, &ParseOptions::default());
        let parallel = ParallelRender {
            threads: 2,
            piece_cost: 2,
        };
        for format in [super::Format::Dump, super::Format::Html] {
            let (units, _) = doc.cut(format, &parallel).unwrap();
            let templates = units.iter().filter(|u| {
                matches!(u, super::Unit::Open { element, .. } if element.template_contents().is_some())
            });
            assert!(templates.count() >= 30);
        }
        same_in_pieces(&html, 2);
    }

    #[test]
    fn a_deep_dump_is_cut_into_bounded_pieces() {
        // 3,000 nested elements: every opening is its own unit, and the
        // openings deeper than the piece's cost are a piece each.
        let html = "<div>t".repeat(3000);
        let doc = parse_document(&html, &ParseOptions::default());
        let parallel = ParallelRender {
            threads: 2,
            piece_cost: 64,
        };
        let (units, pieces) = doc.cut(super::Format::Dump, &parallel).unwrap();
        assert!(units.len() > 3000, "{}", units.len());
        assert!(pieces.len() > 100, "{}", pieces.len());
        let mut dump = Vec::new();
        doc.write_dump_parallel(&mut dump, &parallel).unwrap();
        assert_eq!(String::from_utf8(dump).unwrap(), doc.dump());
    }

    #[test]
    fn small_documents_are_not_cut() {
        let doc = parse_document("<p>a", &ParseOptions::default());
        assert!(
            doc.cut(super::Format::Dump, &ParallelRender::threads(2))
                .is_none()
        );
        let doc = parse_document(&"<p>a".repeat(10_000), &ParseOptions::default());
        assert!(
            doc.cut(super::Format::Dump, &ParallelRender::threads(2))
                .is_some()
        );
    }
}
