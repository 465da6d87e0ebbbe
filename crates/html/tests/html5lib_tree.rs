//! html5lib-tests' tree-construction suite, read whole: every `.dat` file
//! under `tree-construction/`, each test as a document or a fragment, in
//! the scripting mode(s) it names (both when it names none). The tests in
//! `scripted/` need `document.write`, which spinneret does not run: they
//! are counted apart and printed, never silently dropped.
//!
//! Every test also runs streamed ([`StreamParser`]) in chunks of one
//! character and of pseudo-random sizes: the tree must be the same.

use spinneret_html::{FragmentContext, ParseOptions, StreamParser, parse_document, parse_fragment};
use spinneret_testdata::{TreeTest, tree_construction_tests};
use std::collections::BTreeMap;

fn run(test: &TreeTest, scripting: bool) -> String {
    let options = ParseOptions {
        scripting,
        report_errors: false,
    };
    match &test.fragment_context {
        Some(context) => {
            let context: FragmentContext = context.parse().unwrap();
            parse_fragment(&test.data, &context, &options).dump()
        }
        None => parse_document(&test.data, &options).dump(),
    }
}

#[test]
fn tree_construction_suite() {
    let tests = tree_construction_tests();
    let mut per_file: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut scripted = 0;
    for test in &tests {
        if test.scripted {
            scripted += 1;
            continue;
        }
        for scripting in test.scripting_modes() {
            // A panic is a failure of this case; the others still run.
            let got = std::panic::catch_unwind(|| run(test, scripting))
                .unwrap_or_else(|_| "(panicked)\n".to_owned());
            let entry = per_file.entry(&test.file).or_default();
            if got == test.document {
                entry.0 += 1;
            } else {
                entry.1 += 1;
                failures.push((test, scripting, got));
            }
        }
    }
    let (passed, failed) = per_file
        .values()
        .fold((0, 0), |(p, f), &(a, b)| (p + a, f + b));
    for (file, (p, f)) in &per_file {
        if *f > 0 {
            println!("{file}: {p} passed, {f} failed");
        }
    }
    for (test, scripting, got) in failures.iter().take(40) {
        println!(
            "--- FAIL {} (scripting {}){}\n#data\n{}\n#expected\n{}#got\n{}",
            test.id(),
            if *scripting { "on" } else { "off" },
            test.fragment_context
                .as_ref()
                .map_or(String::new(), |c| format!(" fragment {c}")),
            test.data,
            test.document,
            got
        );
    }
    println!(
        "tree construction: {passed} passed, {failed} failed; scripted/: {scripted} tests not run (they need document.write)"
    );
    assert_eq!(failed, 0, "{failed} tree-construction cases fail");
}

/// The tree and the parse errors, each with its kind and position.
fn tree_and_errors(doc: &spinneret_html::Document) -> String {
    let mut out = doc.dump();
    for e in doc.errors() {
        out.push_str(&format!(
            "{:?} at {} ({}:{})\n",
            e.kind, e.offset, e.line, e.col
        ));
    }
    for e in doc.tokenizer_errors() {
        out.push_str(&format!("{e:?}\n"));
    }
    out
}

#[test]
fn streamed_in_chunks_builds_the_same_tree_and_errors() {
    let mut differ = Vec::new();
    let mut cases = 0;
    for test in tree_construction_tests() {
        if test.scripted || test.fragment_context.is_some() {
            continue;
        }
        for scripting in test.scripting_modes() {
            let options = ParseOptions {
                scripting,
                report_errors: true,
            };
            let whole = tree_and_errors(&parse_document(&test.data, &options));
            for chunking in spinneret_testdata::text_chunkings(&test.data, test.line as u64) {
                cases += 1;
                let mut parser = StreamParser::new(&options);
                for piece in &chunking.pieces {
                    parser.feed(piece);
                }
                let streamed = tree_and_errors(&parser.finish());
                if streamed != whole {
                    differ.push(format!(
                        "{} ({}):\n{streamed}\nwhole:\n{whole}",
                        test.id(),
                        chunking.name
                    ));
                }
            }
        }
    }
    for d in differ.iter().take(10) {
        println!("{d}");
    }
    println!("streamed: {cases} chunked parses, {} differ", differ.len());
    assert!(differ.is_empty());
}
