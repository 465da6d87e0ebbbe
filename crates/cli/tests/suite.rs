//! The integration tests of spinneret-cli in one binary (one link
//! and one build of what they share instead of one per file; CI's
//! build time). Each file is a module, as it was a test crate of its
//! own.

#[path = "canon_cli.rs"]
mod canon_cli;
#[path = "canon_eval.rs"]
mod canon_eval;
#[path = "check.rs"]
mod check;
#[path = "common.rs"]
mod common;
#[path = "corpus.rs"]
mod corpus;
#[path = "get.rs"]
mod get;
#[path = "golden.rs"]
mod golden;
#[path = "index.rs"]
mod index;
#[path = "inputs.rs"]
mod inputs;
#[path = "layout.rs"]
mod layout;
#[path = "outputs.rs"]
mod outputs;
#[path = "parquet.rs"]
mod parquet;
#[path = "resume.rs"]
mod resume;
#[path = "streamed.rs"]
mod streamed;
#[path = "text.rs"]
mod text;
#[path = "tree.rs"]
mod tree;
