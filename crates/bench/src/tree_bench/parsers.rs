//! The Rust parsers of the `tree` benchmark, each building a full DOM of one
//! page the way its users call it, and a walk that counts that DOM's nodes.
//!
//! - html5ever + RcDom: `html5ever::parse_document(RcDom::default(),
//!   ParseOpts::default()).one(page)`. `one` takes a `StrTendril`, so the
//!   page is copied into one inside the parse (what a caller holding a `&str`
//!   must do); RcDom keeps the parse errors html5ever reports, as it always
//!   does.
//! - scraper: `Html::parse_document(page)` (html5ever's tree builder into an
//!   `ego_tree::Tree`), built without its `errors` feature, so that it does
//!   not keep parse errors, like spinneret's default options.
//!
//! Node counts are every node reachable from the document: the document
//! itself, doctypes, elements, text, comments and processing instructions.
//! Both keep a template's contents under a document fragment node of their
//! own, which is walked too and counted (RcDom holds it beside the template
//! element's children, scraper as the element's first child). Nodes the
//! tree builder detached (scraper's arena keeps them) are not counted.

use std::hint::black_box;

use html5ever::tendril::TendrilSink;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::{NodeData, RcDom};

/// One full-DOM parser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parser {
    /// html5ever's tree builder into its reference `RcDom`.
    Html5ever,
    /// scraper's `Html::parse_document` (html5ever into ego-tree).
    Scraper,
}

/// A parsed page, kept alive until its memory is read.
pub enum Dom {
    /// html5ever's DOM.
    Rc(RcDom),
    /// scraper's DOM.
    Ego(scraper::Html),
}

impl Parser {
    /// Every parser, in the table's order.
    pub const ALL: [Parser; 2] = [Parser::Html5ever, Parser::Scraper];

    /// The parser's name in the output (keep the versions in step with
    /// Cargo.toml).
    pub fn label(self) -> &'static str {
        match self {
            Parser::Html5ever => "html5ever 0.40 + RcDom",
            Parser::Scraper => "scraper 0.29 (ego-tree)",
        }
    }

    /// Whether this is spinneret, the reference of the ratios (none yet: the
    /// arena DOM is being written).
    pub fn is_reference(self) -> bool {
        false
    }

    /// The name `kernel tree-<name> pages` takes.
    pub fn kernel_name(self) -> &'static str {
        match self {
            Parser::Html5ever => "html5ever",
            Parser::Scraper => "scraper",
        }
    }

    /// Parses `page` into a DOM.
    #[inline(never)]
    pub fn parse(self, page: &str) -> Dom {
        match self {
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
    fn both_walks_count_document_doctype_elements_text_and_comments() {
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
