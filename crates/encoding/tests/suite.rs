//! The integration tests of spinneret-encoding in one binary (one link
//! and one build of what they share instead of one per file; CI's
//! build time). Each file is a module, as it was a test crate of its
//! own.

#[path = "corpus.rs"]
mod corpus;
#[path = "html5lib_encoding.rs"]
mod html5lib_encoding;
#[path = "parallel.rs"]
mod parallel;
#[path = "robustness.rs"]
mod robustness;
#[path = "wpt_percent_encoding.rs"]
mod wpt_percent_encoding;
