//! A spec-exact, streaming, zero-copy HTML5 tokenizer with a tree-builder
//! simulator.
//!
//! ```
//! use spinneret_html::{Token, Tokenizer, TokenizerOptions};
//! let mut tok = Tokenizer::new("<a href=/x>hi &amp; bye</a>", TokenizerOptions::default());
//! let mut seen = Vec::new();
//! while let Some(t) = tok.next_token() {
//!     seen.push(t.to_owned());
//! }
//! assert_eq!(seen.len(), 3);
//! ```
//!
//! The tokenizer follows the HTML Standard's tokenization section state by
//! state. [`Tokenizer`] borrows one complete input and lends tokens that are
//! spans of it; [`StreamTokenizer`] takes chunks of any size and produces the
//! same tokens. Both run the tree-builder simulator by default, which
//! switches the tokenizer into RCDATA, RAWTEXT, script data and PLAINTEXT
//! exactly where a tree builder would, and tracks foreign content so CDATA
//! sections are recognised only inside SVG and MathML.

#![warn(missing_docs)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod acc;
mod byte_scan;
mod char_ref;
mod dom;
mod entities;
mod error;
mod names;
mod namespace;
mod parallel;
mod simulator;
mod stream;
mod token;
mod tokenizer;
mod tree_builder;

pub use dom::{
    Adopted, AttrRef, Descendants, Document, ElementRef, NodeId, NodeKind, NodeRef, PIECE_COST,
    ParallelRender, SOFT_HYPHEN, SerializeOptions, VisibleTextOptions, push_shown,
};
pub use error::{ErrorCode, ParseError};
pub use names::LocalName;
pub use namespace::{AttrNamespace, Namespace};
pub use parallel::{
    ChunkCosts, CutProbe, ParallelOptions, SEQUENTIAL_BELOW, SpeculationProbe, SpeculationStats,
    TREE_SPECULATION_FROM, TreeRejection, TreeSpeculationStats, TreeTimeline, parse_bytes_parallel,
    parse_document_parallel, parse_document_parallel_with_stats, parse_owned_bytes_parallel,
    probe_chunk_costs, probe_cut, probe_tree_speculation,
};
pub use simulator::Simulator;
pub use stream::StreamTokenizer;
pub use token::{Attribute, Attrs, Doctype, Name, OwnedToken, Tag, Token, TokenText};
pub use tokenizer::{Snapshot, TextMode, Tokenizer, TokenizerOptions, tokenize};
pub use tree_builder::{
    BuilderState, ElementName, FragmentContext, InsertionMode, ParseOptions, QuirksMode,
    StreamParser, TagAttrs, TreeAttr, TreeBuilder, TreeError, TreeErrorKind, TreeSink, parse_bytes,
    parse_document, parse_fragment, parse_with_sink,
};
