//! Differential: our URL parser against Ada (`ada-url`, another
//! implementation of the WHATWG URL Standard) on inputs both accept, with
//! and without a base: the `href`s must be equal.
//!
//! Input: a base and an input separated by the first newline; with no
//! newline, the whole input is parsed without a base.
//!
//! The one accepted class of difference is the one `crates/url/tests/
//! differential_ada.rs` documents: every known spec-vs-Ada difference is in
//! UTS #46 ToASCII of a non-ASCII domain (Ada's older Unicode character data
//! and its narrower Bidi rule). So a difference is tolerated only when
//! either host is an IDNA (`xn--`) host; anything else fails.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spinneret_url::Url;

/// Whether `href`'s host has an IDNA label.
fn has_idna_host(href: &str) -> bool {
    Url::parse(href).is_ok_and(|u| u.hostname().contains("xn--"))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (base, input) = match text.split_once('\n') {
        Some((base, input)) => (Some(base), input),
        None => (None, text),
    };
    let ours = match base {
        Some(base) => match Url::parse(base) {
            Ok(base) => Url::parse_with_base(input, &base),
            Err(e) => Err(e),
        },
        None => Url::parse(input),
    };
    let Ok(ours) = ours else { return };
    let Ok(theirs) = ada_url::Url::parse(input, base) else {
        return;
    };
    let (ours, theirs) = (ours.href(), theirs.href());
    if ours != theirs && !has_idna_host(ours) && !has_idna_host(theirs) {
        panic!("input {input:?} base {base:?}: ours {ours:?}, Ada {theirs:?}");
    }
});
