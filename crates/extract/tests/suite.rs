//! The integration tests of spinneret-extract in one binary (one link
//! and one build of what they share instead of one per file; CI's
//! build time). Each file is a module, as it was a test crate of its
//! own: the tests that measure memory or CPU time
//! (`memory.rs`) stay binaries of their own, alone in their
//! process.

#[path = "differential.rs"]
mod differential;
#[path = "fuzz_regressions.rs"]
mod fuzz_regressions;
#[path = "golden.rs"]
mod golden;
#[path = "html5lib_encoding.rs"]
mod html5lib_encoding;
#[path = "tree_links.rs"]
mod tree_links;
