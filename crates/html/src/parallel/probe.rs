//! What a chunk's tree builder would have to guess at a cut, and whether
//! the guess holds: the insertion-mode and tree-state half of the HPar
//! paper's Table IV, measured (by `spinneret-bench hpar`) before any tree
//! is built speculatively.
//!
//! A chunk that begins at a cut knows nothing of the document before it.
//! To build its part of the tree it needs the tree builder's state there;
//! the guess probed here is the one the chunk can make from its own bytes:
//!
//! - the insertion mode is *in body*;
//! - the stack of open elements is `html`, `body`, then the elements that
//!   the chunk's *unmatched* end tags close — the end tags that close no
//!   element the chunk itself opened — innermost last: in a document whose
//!   end tags are all written, those are exactly the elements open at the
//!   cut (an element whose end tag is implied — an `li` closed by the next
//!   `<li>` — is missed, and a stray end tag adds one). Inside an `svg` or `math` element the guessed elements are
//!   foreign (SVG or MathML), back to HTML inside an SVG `foreignObject`,
//!   `desc` or `title`;
//! - the list of active formatting elements holds no element (a chunk
//!   cannot know their attributes, which the tree builder reads when it
//!   reconstructs or counts them).
//!
//! [`probe_cut`] parses the input up to the cut sequentially and compares
//! the true state with the guess, field by field. It costs a parse of the
//! input up to the cut plus a tokenization of the rest: a measurement, not
//! part of a parse.

use crate::dom::DomSink;
use crate::names::LocalName;
use crate::namespace::Namespace;
use crate::simulator::{Simulator, is_void};
use crate::token::Token;
use crate::tokenizer::{Core, Step, TextMode, TokenizerOptions};
use crate::tree_builder::{
    InsertionMode, ParseOptions, TreeBuilder, after_token, process_token, tokenizer_options,
};

/// What became of the guesses a chunk starting at a cut would make (see
/// the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutProbe {
    /// The sequential tokenizer has a token boundary at the cut, in the
    /// data state (the tokenizer state a chunk guesses).
    pub boundary: bool,
    /// The insertion mode there is *in body*.
    pub in_body: bool,
    /// The stack of open elements there is the guessed one: `html`,
    /// `body` and the elements the chunk's unmatched end tags close.
    pub open_elements: bool,
    /// The list of active formatting elements holds no element there.
    pub no_formatting_elements: bool,
}

impl CutProbe {
    /// Whether every guess holds: a chunk built from the guessed state
    /// would start from the true one.
    pub fn holds(&self) -> bool {
        self.boundary && self.in_body && self.open_elements && self.no_formatting_elements
    }
}

/// Probes the guesses a chunk beginning at `cut` (a byte offset on a
/// character boundary) would make about the tokenizer and the tree
/// builder; all fields are false when `cut` is no token boundary of the
/// sequential tokenizer in the data state.
///
/// ```
/// use spinneret_html::{probe_cut, ParseOptions};
/// let page = "<html><body><div><ul><li>a</li><li>b</li></ul></div></body></html>";
/// let cut = page.find("<li>b").unwrap();
/// let probe = probe_cut(page, cut, &ParseOptions::default());
/// assert!(probe.holds());
/// // Inside an <a>, the list of active formatting elements is not empty.
/// let page = "<body><p><a href=x>one <span>two</span></a></p>";
/// let probe = probe_cut(page, page.find("<span>").unwrap(), &ParseOptions::default());
/// assert!(probe.boundary && probe.open_elements && !probe.no_formatting_elements);
/// ```
pub fn probe_cut(input: &str, cut: usize, options: &ParseOptions) -> CutProbe {
    let mut builder = TreeBuilder::new(
        DomSink::new(input.to_owned(), false),
        options.scripting,
        false,
    );
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    while core.pos < cut {
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(&mut builder, token, input, 0),
            Step::End | Step::NeedMore => break,
        }
        after_token(&mut builder, &mut core);
    }
    if core.pos != cut || core.boundary_mode() != TextMode::Data {
        return CutProbe::default();
    }
    let state = builder.state();
    let open: Vec<(Namespace, String)> = state
        .open
        .iter()
        .filter(|o| !o.is_hole())
        .map(|o| {
            let name = builder.key_name(o.info.key).unwrap_or_default();
            (o.info.ns, name.to_ascii_lowercase())
        })
        .collect();
    CutProbe {
        boundary: true,
        in_body: state.mode == InsertionMode::InBody,
        open_elements: open == guess_open_elements(input, cut, options.scripting),
        no_formatting_elements: state.formatting_element_count() == 0,
    }
}

/// The stack of open elements a chunk beginning at `cut` guesses from its
/// unmatched end tags (module doc), bottom first, names lower-cased.
fn guess_open_elements(input: &str, cut: usize, scripting: bool) -> Vec<(Namespace, String)> {
    let mut core = Core::new(&TokenizerOptions {
        initial_state: TextMode::Data,
        last_start_tag: None,
        report_errors: false,
        simulate_tree_builder: false,
        scripting,
    });
    core.driven = true;
    core.pos = cut;
    // The tokenizer's text modes follow a tree-builder simulator, as a
    // speculating worker's do.
    let mut sim = Simulator::new(scripting);
    // The elements the chunk opened and has not closed, and the end tags
    // that closed none of them, in order.
    let mut opened: Vec<String> = Vec::new();
    let mut unmatched: Vec<String> = Vec::new();
    loop {
        let foreign = sim.in_foreign_content();
        let switch = match core.step_driven(input, true) {
            Step::Token(Token::StartTag(t)) => {
                let local = t.name.local();
                let stays_open = if foreign {
                    !t.self_closing
                } else {
                    !is_void(local)
                };
                if stays_open {
                    opened.push(t.name.as_str().to_ascii_lowercase());
                }
                let switch = sim.acts_on(false, local).then(|| {
                    let mode = sim.start_tag(t.name, &t.attrs, t.self_closing);
                    mode.zip(local)
                });
                switch.flatten()
            }
            Step::Token(Token::EndTag(t)) => {
                let name = t.name.as_str().to_ascii_lowercase();
                if sim.acts_on(true, t.name.local()) {
                    sim.end_tag(t.name);
                }
                if let Some(i) = opened.iter().rposition(|n| *n == name) {
                    opened.truncate(i);
                } else if !matches!(
                    t.name.local(),
                    // These end tags close no element on the stack in
                    // body (`</br>` is a `<br>`).
                    Some(LocalName::Html | LocalName::Body | LocalName::Head | LocalName::Br)
                ) {
                    unmatched.push(name);
                }
                None
            }
            Step::Token(_) => None,
            Step::End | Step::NeedMore => break,
        };
        if let Some((mode, tag)) = switch {
            core.switch_text_mode(mode, tag);
        }
        core.cdata_allowed = sim.in_foreign_content();
    }
    let mut guess = vec![
        (Namespace::Html, "html".to_owned()),
        (Namespace::Html, "body".to_owned()),
    ];
    let mut ns = Namespace::Html;
    for name in unmatched.into_iter().rev() {
        let this = match (ns, name.as_str()) {
            (Namespace::Html, "svg") => Namespace::Svg,
            (Namespace::Html, "math") => Namespace::MathMl,
            (ns, _) => ns,
        };
        ns = match (this, name.as_str()) {
            (Namespace::Svg, "foreignobject" | "desc" | "title") => Namespace::Html,
            _ => this,
        };
        guess.push((this, name));
    }
    guess
}
