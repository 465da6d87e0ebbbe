//! The integration tests of spinneret-url in one binary (one link
//! and one build of what they share instead of one per file; CI's
//! build time). Each file is a module, as it was a test crate of its
//! own.

#[path = "differential_ada.rs"]
mod differential_ada;
#[path = "fast_path.rs"]
mod fast_path;
#[path = "host_info.rs"]
mod host_info;
#[path = "properties.rs"]
mod properties;
#[path = "query_encoding.rs"]
mod query_encoding;
#[path = "validation_errors.rs"]
mod validation_errors;
#[path = "wpt.rs"]
mod wpt;
