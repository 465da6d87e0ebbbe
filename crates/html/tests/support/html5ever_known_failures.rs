//! The html5lib tree-construction cases html5ever 0.40 fails (outside
//! `scripted/`), as tests/html5ever_conformance.rs finds them: where a
//! differential test of our tree builder against html5ever may legitimately
//! differ. Each entry is (`file:line` of the test's `#data` line, scripting
//! mode as [`mode_name`] writes it).

// Each test binary that includes this module uses part of it.
#![allow(dead_code)]

/// The name of a scripting mode in reports and in [`HTML5EVER_FAILURES`].
pub fn mode_name(scripting: bool) -> &'static str {
    if scripting { "script-on" } else { "script-off" }
}

/// html5ever 0.40's failing cases, sorted.
pub const HTML5EVER_FAILURES: &[(&str, &str)] = &[
    // `<input><option>` in a `select` context: the standard's "in body"
    // rule for an `input` start tag ignores the tag when the fragment's
    // context element is a `select` (added with customizable `select`;
    // html5lib-tests expects it since May 2026, html5lib/html5lib-tests
    // pull request 195). html5ever 0.40 inserts it: `| <input>` before
    // `| <option>`.
    ("tests_innerHTML_1.dat:790", "script-off"),
    ("tests_innerHTML_1.dat:790", "script-on"),
];
