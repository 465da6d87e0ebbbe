//! html5ever 0.40 (with `markup5ever_rcdom`) against html5lib's
//! tree-construction suite: the check that our reader of the `.dat` files
//! (`spinneret_testdata::tree_construction_tests`) and our html5ever dumper
//! (`support/html5ever_tree.rs`) are right, and the list of cases where
//! html5ever itself differs from the suite — the differences the
//! differential tests of our tree builder against html5ever may show.
//!
//! # Method
//!
//! Every test outside `scripted/` (those need a script engine:
//! `document.write`) is parsed by html5ever as a document, or as a fragment
//! in its `#document-fragment` context, in the scripting mode the test names
//! or in both when it names none (a *case* is one test in one mode). The
//! dump must equal the test's `#document` section byte for byte.
//!
//! # Assertions
//!
//! - At least 95% of the cases pass: html5ever is a conformant parser, so a
//!   lower rate means the reader or the dumper is broken.
//! - The failing cases are exactly [`HTML5EVER_FAILURES`]: a change in
//!   either direction (a new failure, or a listed case that now passes) is
//!   shown and fails the test, so the list stays the true one.
//!
//! Run with `cargo test -p spinneret-html --release --test
//! html5ever_conformance -- --nocapture` to see the table per file and the
//! failing cases.

mod support {
    pub mod html5ever_known_failures;
    pub mod html5ever_tree;
}

use spinneret_testdata::{TreeTest, tree_construction_tests};
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use support::html5ever_known_failures::{HTML5EVER_FAILURES, mode_name};
use support::html5ever_tree::{html5ever_document_dump, html5ever_fragment_dump};

/// html5ever's dump of one test in one scripting mode, or the message of
/// its panic.
fn html5ever_dump(test: &TreeTest, scripting: bool) -> Result<String, String> {
    catch_unwind(AssertUnwindSafe(|| match &test.fragment_context {
        Some(context) => html5ever_fragment_dump(&test.data, context, scripting),
        None => html5ever_document_dump(&test.data, scripting),
    }))
    .map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
            .unwrap_or_else(|| "panic".to_owned())
    })
}

/// Passed and failed cases of one file.
#[derive(Default)]
struct FileTally {
    passed: usize,
    failed: usize,
}

#[test]
fn html5ever_passes_the_tree_construction_suite() {
    let tests = tree_construction_tests();
    let scripted = tests.iter().filter(|t| t.scripted).count();
    let mut per_file: BTreeMap<&str, FileTally> = BTreeMap::new();
    let mut failures: BTreeSet<(String, &'static str)> = BTreeSet::new();
    let mut examples = String::new();
    for test in tests.iter().filter(|t| !t.scripted) {
        let tally = per_file.entry(&test.file).or_default();
        for scripting in test.scripting_modes() {
            let dump = html5ever_dump(test, scripting);
            if dump.as_deref() == Ok(test.document.as_str()) {
                tally.passed += 1;
                continue;
            }
            tally.failed += 1;
            let mode = mode_name(scripting);
            if failures.len() < 10 {
                examples.push_str(&format!(
                    "--- {} ({mode}), context {:?}\n#data\n{}\n#expected\n{}#html5ever\n{}\n",
                    test.id(),
                    test.fragment_context,
                    test.data,
                    test.document,
                    dump.unwrap_or_else(|e| format!("PANIC: {e}\n")),
                ));
            }
            failures.insert((test.id(), mode));
        }
    }

    let passed: usize = per_file.values().map(|t| t.passed).sum();
    let failed: usize = per_file.values().map(|t| t.failed).sum();
    let total = passed + failed;
    println!("html5ever 0.40 on html5lib tree-construction (cases = tests x scripting modes)");
    println!("{:<45} {:>7} {:>7}", "file", "passed", "failed");
    for (file, tally) in &per_file {
        println!("{file:<45} {:>7} {:>7}", tally.passed, tally.failed);
    }
    let rate = 100.0 * passed as f64 / total as f64;
    println!("{:<45} {passed:>7} {failed:>7}  ({rate:.2}% passed)", "all");
    println!("scripted/: {scripted} tests not run (they need document.write)");
    println!("html5ever's failing cases:");
    for (id, mode) in &failures {
        println!("    (\"{id}\", \"{mode}\"),");
    }
    println!("first failures in full:\n{examples}");

    assert!(
        per_file.len() > 40,
        "only {} files with tests outside scripted/",
        per_file.len()
    );
    assert!(
        rate >= 95.0,
        "html5ever passes only {rate:.2}% of the cases: the .dat reader or the dumper is broken"
    );
    let known: BTreeSet<(String, &'static str)> = HTML5EVER_FAILURES
        .iter()
        .map(|(id, mode)| ((*id).to_owned(), *mode))
        .collect();
    let new: Vec<_> = failures.difference(&known).collect();
    let fixed: Vec<_> = known.difference(&failures).collect();
    assert!(
        new.is_empty() && fixed.is_empty(),
        "html5ever's failures changed: new {new:?}, no longer failing {fixed:?}"
    );
}

/// The suite README's example, as a check of the dumper that does not
/// depend on the reader.
#[test]
fn dumps_the_readme_example() {
    assert_eq!(
        html5ever_document_dump("<p>One<p>Two", false),
        "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"One\"\n|     <p>\n|       \"Two\"\n"
    );
}

/// Namespaced attributes sorted by their name strings, a doctype with
/// identifiers, template contents, and a fragment in an SVG context.
#[test]
fn dumps_namespaces_doctypes_templates_and_fragments() {
    let dump = html5ever_document_dump(
        "<!DOCTYPE html PUBLIC \"p\" \"s\"><svg xlink:href=a viewbox=b xml:lang=c xmlns:xlink=d z=e>\
         <path/><!--c--></svg>",
        true,
    );
    assert_eq!(
        dump,
        "| <!DOCTYPE html \"p\" \"s\">\n| <html>\n|   <head>\n|   <body>\n\
         |     <svg svg>\n|       viewBox=\"b\"\n|       xlink href=\"a\"\n\
         |       xml lang=\"c\"\n|       xmlns xlink=\"d\"\n|       z=\"e\"\n\
         |       <svg path>\n|       <!-- c -->\n"
    );
    let dump = html5ever_document_dump("<template a=1><p>x</p></template>", false);
    assert_eq!(
        dump,
        "| <html>\n|   <head>\n|     <template>\n|       a=\"1\"\n|       content\n\
         |         <p>\n|           \"x\"\n|   <body>\n"
    );
    assert_eq!(
        html5ever_fragment_dump("<foreignObject><p>x", "svg svg", false),
        "| <svg foreignObject>\n|   <p>\n|     \"x\"\n"
    );
    assert_eq!(
        html5ever_fragment_dump("<noscript><b>x</b></noscript>", "body", true),
        "| <noscript>\n|   \"<b>x</b>\"\n"
    );
}

/// A deep tree (20,000 levels; html5ever's own time grows faster than
/// linearly with the depth, so not more): the dump walks it without
/// recursion, whatever the depth.
#[test]
fn dumps_a_deep_tree() {
    let depth = 20_000;
    let dump = html5ever_document_dump(&"<span>".repeat(depth), false);
    assert_eq!(dump.lines().count(), 3 + depth);
    let last = dump.lines().last().unwrap();
    assert_eq!(last.len(), "| ".len() + 2 * (depth + 1) + "<span>".len());
}
