//! A document rendered in pieces on several threads
//! (`Document::write_dump_parallel`, `Document::write_html_parallel`,
//! `Document::write_visible_text_parallel`) gives exactly the sequential
//! dump, serialization and visible text: on every corpus
//! page, with the default pieces and with small ones (hundreds of pieces a
//! page), and on every html5lib tree-construction document and fragment
//! with pieces of one to a few nodes, where every element that can be
//! expanded is.

use spinneret_html::{
    Document, FragmentContext, ParallelRender, ParseOptions, SerializeOptions, VisibleTextOptions,
    parse_document, parse_fragment,
};
use spinneret_testdata::{corpus_pages_text, tree_construction_tests};

/// Whether `doc`'s dump and visible text in pieces of `piece_cost` on two
/// threads, and its HTML on one and two, are the sequential ones.
fn same_in_pieces(doc: &Document, piece_cost: usize, scripting: bool) -> Result<(), String> {
    let parallel = ParallelRender {
        threads: 2,
        piece_cost,
    };
    let mut dump = Vec::new();
    doc.write_dump_parallel(&mut dump, &parallel).unwrap();
    if dump != doc.dump().as_bytes() {
        return Err(format!("dump, pieces of {piece_cost}"));
    }
    let options = SerializeOptions { scripting };
    let whole = doc.root().outer_html(options);
    for threads in [1, 2] {
        let parallel = ParallelRender {
            threads,
            ..parallel
        };
        let mut html = Vec::new();
        doc.write_html_parallel(&mut html, options, &parallel)
            .unwrap();
        if html != whole.as_bytes() {
            return Err(format!("HTML, {threads} threads, pieces of {piece_cost}"));
        }
    }
    for (noscript, hidden) in [(false, false), (true, false), (false, true)] {
        let options = VisibleTextOptions { noscript, hidden };
        let mut text = Vec::new();
        doc.write_visible_text_parallel(&mut text, options, &parallel)
            .unwrap();
        let whole = doc.root().visible_text_with(options, |_| false);
        if text != whole.as_bytes() {
            return Err(format!(
                "visible text, noscript {noscript}, hidden {hidden}, pieces of {piece_cost}"
            ));
        }
        if doc.visible_text_parallel(options, &parallel) != whole {
            return Err(format!(
                "visible text as a string, noscript {noscript}, hidden {hidden}, pieces of {piece_cost}"
            ));
        }
    }
    Ok(())
}

fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

#[test]
fn corpus_pages_render_the_same_in_pieces() {
    let options = ParseOptions::default();
    let pool = pool();
    let mut failures = Vec::new();
    for (path, page) in corpus_pages_text() {
        let doc = parse_document(&page, &options);
        for piece_cost in [spinneret_html::PIECE_COST, 64, 5] {
            if let Err(e) = pool.install(|| same_in_pieces(&doc, piece_cost, false)) {
                failures.push(format!("{path}: {e}"));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} differ: {failures:#?}",
        failures.len()
    );
}

#[test]
fn html5lib_documents_render_the_same_in_pieces() {
    let pool = pool();
    let mut failures = Vec::new();
    let mut checked = 0usize;
    for test in tree_construction_tests() {
        for scripting in test.scripting_modes() {
            let options = ParseOptions {
                scripting,
                report_errors: false,
            };
            let doc = match &test.fragment_context {
                Some(context) => {
                    let context: FragmentContext = context.parse().unwrap();
                    parse_fragment(&test.data, &context, &options)
                }
                None => parse_document(&test.data, &options),
            };
            for piece_cost in [1, 2, 3] {
                checked += 1;
                if let Err(e) = pool.install(|| same_in_pieces(&doc, piece_cost, scripting)) {
                    failures.push(format!("{}:{}: {e}", test.file, test.line));
                }
            }
        }
    }
    assert!(checked > 3000, "{checked}");
    assert!(
        failures.is_empty(),
        "{} differ: {failures:#?}",
        failures.len()
    );
}
