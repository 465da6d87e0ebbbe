//! The Rust parsers of the `tree` benchmark, each building a full DOM of one
//! page the way its users call it, and a walk that counts that DOM's nodes.
//!
//! - spinneret: `spinneret_html::parse_document(page,
//!   &ParseOptions::default())` (scripting off, parse errors not kept) into
//!   its arena `Document`, which keeps its own copy of the page.
//! - html5ever + RcDom: `html5ever::parse_document(RcDom::default(),
//!   ParseOpts::default()).one(page)`. `one` takes a `StrTendril`, so the
//!   page is copied into one inside the parse (what a caller holding a `&str`
//!   must do); RcDom keeps the parse errors html5ever reports, as it always
//!   does.
//! - scraper: `Html::parse_document(page)` (html5ever's tree builder into an
//!   `ego_tree::Tree`), built without its `errors` feature, so that it does
//!   not keep parse errors, like spinneret's default options.
//!
//! Node counts of the peers are every node reachable from the document: the document
//! itself, doctypes, elements, text, comments and processing instructions.
//! Both keep a template's contents under a document fragment node of their
//! own, which is walked too and counted (RcDom holds it beside the template
//! element's children, scraper as the element's first child). Nodes the
//! tree builder detached (scraper's arena keeps them) are not counted.
//! spinneret's is `Document::node_count`, its arena's slots: the same
//! nodes, template contents' fragments included, plus the few the adoption
//! agency detached.

use std::hint::black_box;

use html5ever::tendril::TendrilSink;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::{NodeData, RcDom};

/// One full-DOM parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parser {
    /// spinneret's tree builder into its arena DOM.
    Spinneret,
    /// html5ever's tree builder into its reference `RcDom`.
    Html5ever,
    /// scraper's `Html::parse_document` (html5ever into ego-tree).
    Scraper,
}

/// A parsed page, kept alive until its memory is read.
// One per page, moved once: boxing the large variant would only add an
// allocation to spinneret's timed parse.
#[allow(clippy::large_enum_variant)]
pub enum Dom {
    /// spinneret's DOM.
    Arena(spinneret_html::Document),
    /// html5ever's DOM.
    Rc(RcDom),
    /// scraper's DOM.
    Ego(scraper::Html),
}

impl Parser {
    /// Every parser, in the table's order.
    pub const ALL: [Parser; 3] = [Parser::Spinneret, Parser::Html5ever, Parser::Scraper];

    /// The parser's name in the output (keep the versions in step with
    /// Cargo.toml).
    pub fn label(self) -> &'static str {
        match self {
            Parser::Spinneret => "spinneret (arena DOM)",
            Parser::Html5ever => "html5ever 0.40 + RcDom",
            Parser::Scraper => "scraper 0.29 (ego-tree)",
        }
    }

    /// Whether this is spinneret, the reference of the ratios.
    pub fn is_reference(self) -> bool {
        self == Parser::Spinneret
    }

    /// The name `kernel tree-<name> pages` takes.
    pub fn kernel_name(self) -> &'static str {
        match self {
            Parser::Spinneret => "spinneret",
            Parser::Html5ever => "html5ever",
            Parser::Scraper => "scraper",
        }
    }

    /// Parses `page` into a DOM.
    #[inline(never)]
    pub fn parse(self, page: &str) -> Dom {
        match self {
            Parser::Spinneret => Dom::Arena(spinneret_html::parse_document(
                page,
                &spinneret_html::ParseOptions::default(),
            )),
            Parser::Html5ever => {
                Dom::Rc(parse_document(RcDom::default(), ParseOpts::default()).one(page))
            }
            Parser::Scraper => Dom::Ego(scraper::Html::parse_document(page)),
        }
    }

    /// One pass over `pages`: each parsed, then dropped. Returns the number
    /// of pages parsed.
    #[inline(never)]
    pub fn parse_all(self, pages: &[String]) -> usize {
        for page in pages {
            let dom = self.parse(black_box(page.as_str()));
            black_box(&dom);
        }
        pages.len()
    }
}

impl Dom {
    /// How many nodes the DOM holds (see the module doc for what counts).
    pub fn node_count(&self) -> usize {
        match self {
            Dom::Arena(doc) => doc.node_count(),
            Dom::Rc(dom) => rcdom_node_count(dom),
            Dom::Ego(html) => html.tree.root().descendants().count(),
        }
    }
}

/// Every node reachable from the document, template contents included.
fn rcdom_node_count(dom: &RcDom) -> usize {
    let mut count = 0;
    let mut stack = vec![dom.document.clone()];
    while let Some(node) = stack.pop() {
        count += 1;
        stack.extend(node.children.borrow().iter().cloned());
        if let NodeData::Element {
            template_contents, ..
        } = &node.data
        {
            stack.extend(template_contents.borrow().iter().cloned());
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parser_counts_document_doctype_elements_text_and_comments() {
        // #document, doctype, comment, html, head, body, p, "x", b, "y".
        let page = "<!DOCTYPE html><!--c--><p>x<b>y</b>";
        for parser in Parser::ALL {
            assert_eq!(parser.parse(page).node_count(), 10, "{parser:?}");
        }
    }

    #[test]
    fn template_contents_are_counted() {
        // + template, its contents' fragment, i, "z".
        let page = "<!DOCTYPE html><!--c--><p>x<b>y</b><template><i>z</i></template>";
        for parser in Parser::ALL {
            assert_eq!(parser.parse(page).node_count(), 14, "{parser:?}");
        }
    }
}
