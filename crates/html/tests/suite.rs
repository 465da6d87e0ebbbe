//! The integration tests of spinneret-html in one binary (one link
//! and one build of what they share instead of one per file; CI's
//! build time). Each file is a module, as it was a test crate of its
//! own: the tests that measure memory or CPU time
//! (`adversarial.rs`, `tree_adversarial.rs`) stay binaries of their own, alone in their
//! process.

// Two test files include the same support modules, each its own copy (as
// when they were test crates of their own).
#![allow(clippy::duplicate_mod)]

#[path = "dom_adopt.rs"]
mod dom_adopt;
#[path = "fast_paths.rs"]
mod fast_paths;
#[path = "html5ever_conformance.rs"]
mod html5ever_conformance;
#[path = "html5ever_differential.rs"]
mod html5ever_differential;
#[path = "html5lib_serializer.rs"]
mod html5lib_serializer;
#[path = "html5lib_tokenizer.rs"]
mod html5lib_tokenizer;
#[path = "html5lib_tree.rs"]
mod html5lib_tree;
#[path = "huge_input.rs"]
mod huge_input;
#[path = "parallel.rs"]
mod parallel;
#[path = "render_pieces.rs"]
mod render_pieces;
#[path = "selectedcontent.rs"]
mod selectedcontent;
#[path = "simulator.rs"]
mod simulator;
#[path = "streaming.rs"]
mod streaming;
#[path = "tree_chain.rs"]
mod tree_chain;
#[path = "tree_sink.rs"]
mod tree_sink;
#[path = "tree_speculation.rs"]
mod tree_speculation;
#[path = "visible_text.rs"]
mod visible_text;
