//! The parallel parser builds exactly the sequential parser's tree: on
//! every corpus page with 2, 3, 4 and 8 threads; on every html5lib
//! tree-construction document with a cut forced at every character
//! boundary (and two cuts on the short ones); on generated documents made
//! to defeat speculation. And it never tokenizes a byte twice on the
//! calling thread, whatever the input (a work counter, not a clock).

use spinneret_encoding::{Policy, Sniffer};
use spinneret_html::{
    ParallelOptions, ParseOptions, SpeculationStats, parse_bytes, parse_bytes_parallel,
    parse_document, parse_document_parallel_with_stats,
};
use spinneret_testdata::{corpus_pages_text, tree_construction_tests};

/// `threads` threads, whatever the document's size.
fn threads(threads: usize) -> ParallelOptions {
    ParallelOptions {
        threads,
        sequential_below: 0,
        cuts: None,
        tree_speculation: false,
        tree_speculation_from: 0,
    }
}

/// `parallel`, with the tree of the last chunk built by a worker from a
/// guessed context.
fn tree(parallel: ParallelOptions) -> ParallelOptions {
    ParallelOptions {
        tree_speculation: true,
        tree_speculation_from: 0,
        ..parallel
    }
}

/// A rayon pool of `n` threads. A parse has at most one worker per pool
/// thread besides its own, so the tests that want `n` threads run inside
/// a pool of `n`.
fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
}

fn cut_at(cuts: Vec<usize>) -> ParallelOptions {
    ParallelOptions {
        threads: cuts.len() + 2,
        sequential_below: 0,
        cuts: Some(cuts),
        tree_speculation: false,
        tree_speculation_from: 0,
    }
}

/// Parses in parallel, checks the work counters, returns the dump.
fn parallel_dump(
    input: &str,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> (String, SpeculationStats) {
    let (doc, stats) = parse_document_parallel_with_stats(input, options, parallel);
    // Every byte is covered once: by a reused step, by the calling
    // thread's own tokenizer or by an adopted tree, never two of them and
    // never twice.
    assert_eq!(
        stats.bytes_reused + stats.bytes_tokenized + stats.bytes_adopted(),
        input.len() as u64,
        "{stats:?}"
    );
    (doc.dump(), stats)
}

#[test]
fn corpus_pages_with_2_3_4_and_8_threads() {
    let options = ParseOptions::default();
    let mut reused = 0u64;
    let mut bytes = 0u64;
    let (mut adopted, mut speculated) = (0usize, 0usize);
    let (mut chain_adopted, mut chain_chunks) = (0usize, 0usize);
    let mut rejections = std::collections::BTreeMap::new();
    let pools: Vec<_> = [2, 3, 4, 8].into_iter().map(|n| (n, pool(n))).collect();
    for (path, page) in corpus_pages_text() {
        let sequential = parse_document(&page, &options).dump();
        for (n, pool) in &pools {
            let (n, parallel) = (*n, threads(*n));
            let (dump, stats) = pool.install(|| parallel_dump(&page, &options, &parallel));
            assert!(dump == sequential, "{path}: {n} threads");
            reused += stats.bytes_reused;
            bytes += page.len() as u64;
        }
        // With the second half's tree built from a guess.
        let (dump, stats) = pools[0]
            .1
            .install(|| parallel_dump(&page, &options, &tree(threads(2))));
        assert!(dump == sequential, "{path}: tree speculation");
        // Chained over three chunks.
        let (dump, chained) = pools[2]
            .1
            .install(|| parallel_dump(&page, &options, &tree(threads(4))));
        assert!(dump == sequential, "{path}: tree speculation, 4 threads");
        chain_adopted += chained.trees_adopted();
        chain_chunks += usize::from(chained.tree.cut > 0) + chained.tree_chain.len();
        speculated += usize::from(stats.tree.cut > 0);
        adopted += usize::from(stats.tree.adopted);
        *rejections
            .entry(format!("{:?}", stats.tree.rejection))
            .or_insert(0) += 1;
    }
    println!("corpus: speculated trees: {rejections:?}");
    println!(
        "corpus: {:.1}% of the bytes tokenized by workers; {adopted} of {speculated} speculated trees adopted",
        100.0 * reused as f64 / bytes as f64
    );
    println!(
        "corpus: 4 threads, chained: {chain_adopted} of {chain_chunks} speculated trees adopted"
    );
}

#[test]
fn html5lib_documents_cut_at_every_boundary() {
    let mut parses = 0usize;
    let mut adopted = 0usize;
    let mut failures = Vec::new();
    for test in tree_construction_tests() {
        if test.fragment_context.is_some() {
            continue;
        }
        let data = &test.data;
        for scripting in test.scripting_modes() {
            let options = ParseOptions {
                scripting,
                report_errors: false,
            };
            let sequential = parse_document(data, &options).dump();
            let boundaries: Vec<usize> = (1..data.len())
                .filter(|&c| data.is_char_boundary(c))
                .collect();
            let mut check = |cuts: Vec<usize>, tree_speculation: bool| {
                parses += 1;
                let parallel = ParallelOptions {
                    tree_speculation,
                    ..cut_at(cuts.clone())
                };
                let (dump, stats) = parallel_dump(data, &options, &parallel);
                adopted += stats.trees_adopted();
                if dump != sequential && failures.len() < 10 {
                    let how = if tree_speculation { " (tree)" } else { "" };
                    failures.push(format!("{} cut at {cuts:?}{how}:\n{dump}", test.id()));
                }
            };
            for &c in &boundaries {
                check(vec![c], false);
                check(vec![c], true);
            }
            // Two cuts on the short documents, every pair.
            if data.len() <= 24 {
                for (i, &a) in boundaries.iter().enumerate() {
                    for &b in &boundaries[i + 1..] {
                        check(vec![a, b], false);
                        // Two trees, chained.
                        check(vec![a, b], true);
                    }
                }
            }
        }
    }
    println!("html5lib: {parses} parallel parses, {adopted} speculated trees adopted");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Documents whose chunks mostly start in the wrong state: a comment or
/// a script across every cut, `<plaintext>` in the middle, tables and
/// formatting elements misnested across cuts, foreign content with CDATA.
fn hostile_documents() -> Vec<(&'static str, String)> {
    let filler = "<p class=x>text &amp; more <b>bold</b></p>\n".repeat(400);
    vec![
        (
            "comment across every cut",
            format!("<!--{filler}-->{filler}"),
        ),
        (
            "script across every cut",
            format!("<script>{}</script><p>after", filler.replace("</", "<\\/")),
        ),
        (
            "style across every cut",
            format!("<style>{filler}</style>{filler}"),
        ),
        (
            "textarea across every cut",
            format!("<textarea>{filler}</textarea>{filler}"),
        ),
        (
            "plaintext in the middle",
            format!("{filler}<plaintext>{filler}"),
        ),
        (
            "tables and formatting misnested",
            "<table><tr><td><b><i>a</table>c</b>d</i><table>x<tr>y<td><a>z</a><p>q</td>"
                .repeat(300),
        ),
        (
            "svg with CDATA",
            "<svg><![CDATA[<p>x</p>]]><desc><p>y</svg><p><![CDATA[z]]>".repeat(400),
        ),
        (
            "unclosed comment at the end",
            format!("{filler}<!-- {filler}"),
        ),
        (
            "alternating table contexts",
            "<table><tr><td>a</td></tr></table><select><option>b<table><td>c</select>".repeat(400),
        ),
        (
            "template contents",
            "<template><tr><td>a</template><p>b".repeat(500),
        ),
    ]
}

#[test]
fn hostile_documents_build_the_sequential_tree() {
    let options = ParseOptions::default();
    let pools: Vec<_> = [2, 3, 4, 8].into_iter().map(|n| (n, pool(n))).collect();
    for (name, doc) in hostile_documents() {
        let sequential = parse_document(&doc, &options).dump();
        for (n, pool) in &pools {
            let (n, parallel) = (*n, threads(*n));
            let (dump, stats) = pool.install(|| parallel_dump(&doc, &options, &parallel));
            assert!(dump == sequential, "{name}: {n} threads");
            println!(
                "{name:<34} {n} threads: {:.1}% reused, {} mispredictions",
                100.0 * stats.reused_share(),
                stats.mispredictions
            );
        }
        // And cut every 997 bytes.
        let cuts: Vec<usize> = (1..doc.len() / 997)
            .map(|i| i * 997)
            .filter(|&c| doc.is_char_boundary(c))
            .collect();
        let (dump, _) = parallel_dump(&doc, &options, &cut_at(cuts.clone()));
        assert!(dump == sequential, "{name}: cut every 997 bytes");
        // With the tree speculated from each of those cuts.
        for &cut in &cuts {
            let (dump, _) = parallel_dump(&doc, &options, &tree(cut_at(vec![cut])));
            assert!(dump == sequential, "{name}: tree speculated from {cut}");
        }
    }
}

#[test]
fn owned_bytes_give_the_same_document() {
    // Every corpus page, as bytes (the encodings the pages have), and made
    // inputs for each way the bytes are not moved, each parsed from bytes
    // lent and given away equal to the sequential parse: a byte order mark,
    // another encoding, bytes that are not UTF-8, a `<meta>` that changes
    // the encoding after the prescan.
    let mut inputs: Vec<(String, Vec<u8>)> = spinneret_testdata::corpus_page_paths()
        .into_iter()
        .map(|path| {
            let bytes = spinneret_testdata::read(&format!("corpus/{path}"));
            (path, bytes)
        })
        .collect();
    let body = "<div><p>caf\u{e9} <b>x</b></p></div>".repeat(8000);
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(body.as_bytes());
    let mut latin = b"<meta charset=windows-1252><p>caf\xe9".to_vec();
    latin.extend_from_slice(body.as_bytes());
    let mut broken = body.as_bytes().to_vec();
    broken.extend_from_slice(b"<p>\xff\xfe\xc3");
    let mut late = b"<title>caf\xc3\xa9</title>".to_vec();
    late.extend_from_slice("<!-- padding -->".repeat(200).as_bytes());
    late.extend_from_slice(b"<meta charset=windows-1252>");
    late.extend_from_slice(body.as_bytes());
    for (name, bytes) in [
        ("bom", bom),
        ("latin", latin),
        ("broken", broken),
        ("late", late),
    ] {
        inputs.push((name.to_owned(), bytes));
    }
    inputs.push(("small".to_owned(), b"<p>caf\xc3\xa9".to_vec()));
    assert!(inputs.len() > 100, "{} inputs", inputs.len());
    let sniffer = Sniffer::new(Policy::Crawler);
    let options = ParseOptions::default();
    let pool = pool(4);
    for (name, bytes) in &inputs {
        let (want, want_det) = parse_bytes(bytes, &sniffer, &options);
        let want = want.dump();
        // (Trees chained over three chunks at 4 threads.)
        for parallel in [threads(1), threads(2), tree(threads(2)), tree(threads(4))] {
            // From bytes lent (decoded in pieces on the pool where the
            // encoding is a legacy one) and from bytes given away.
            let lent = pool.install(|| parse_bytes_parallel(bytes, &sniffer, &options, &parallel));
            let owned = pool.install(|| {
                spinneret_html::parse_owned_bytes_parallel(
                    bytes.clone(),
                    &sniffer,
                    &options,
                    &parallel,
                )
            });
            for (how, (got, got_det)) in [("lent", lent), ("owned", owned)] {
                assert_eq!(got_det.encoding, want_det.encoding, "{name} {how}");
                assert_eq!(got_det.confidence, want_det.confidence, "{name} {how}");
                assert!(got.dump() == want, "{name} {how}: {parallel:?}");
            }
        }
    }
}

#[test]
fn a_late_meta_that_changes_the_encoding() {
    // The `<meta>` comes after the prescan window, so the encoding is
    // changed while parsing: the bytes are decoded again and parsed again.
    let mut page = b"<html><head><title>caf\xc3\xa9</title>".to_vec();
    page.extend_from_slice("<!-- padding -->".repeat(200).as_bytes());
    page.extend_from_slice(b"<meta charset=windows-1252></head><body>");
    page.extend_from_slice("<p>caf\u{e9} &eacute; <b>x</b></p>".repeat(2000).as_bytes());
    let sniffer = Sniffer::new(Policy::Browser);
    let options = ParseOptions::default();
    let (sequential, det) = parse_bytes(&page, &sniffer, &options);
    for n in [2, 4] {
        for parallel in [threads(n), tree(threads(n))] {
            let (doc, pdet) =
                pool(n).install(|| parse_bytes_parallel(&page, &sniffer, &options, &parallel));
            assert_eq!(pdet.encoding, det.encoding);
            assert!(doc.dump() == sequential.dump(), "{n} threads: {parallel:?}");
        }
    }
    // A `<meta>` in the speculated half, while the encoding is tentative:
    // the worker stops; the calling thread meets it and decides.
    let mut late = b"<html><head><title>caf\xc3\xa9</title></head><body>".to_vec();
    late.extend_from_slice(
        "<div><p>caf\u{e9} <b>x</b></p></div>"
            .repeat(4000)
            .as_bytes(),
    );
    // The same with a `<meta>` that keeps the encoding (the parse goes on)
    // and one that changes it (parsed again), in the middle of a chain too.
    let mut keeps = late.clone();
    late.extend_from_slice(b"<meta charset=windows-1252><p>\xe9");
    keeps.extend_from_slice(b"<meta charset=utf-8><p>\xc3\xa9");
    keeps.extend_from_slice("<div><p>more <i>text</i></p></div>".repeat(4000).as_bytes());
    for page in [&late, &keeps] {
        let (sequential, det) = parse_bytes(page, &sniffer, &options);
        for n in [2, 4] {
            let (doc, pdet) = pool(n)
                .install(|| parse_bytes_parallel(page, &sniffer, &options, &tree(threads(n))));
            assert_eq!(pdet.encoding, det.encoding);
            assert_eq!(pdet.confidence, det.confidence);
            assert!(
                doc.dump() == sequential.dump(),
                "a <meta> after the cut, {n} threads"
            );
        }
    }
}

#[test]
fn short_inputs_and_error_reporting_run_sequentially() {
    let (doc, stats) = parse_document_parallel_with_stats(
        "<p>x",
        &ParseOptions::default(),
        &ParallelOptions::threads(4),
    );
    assert_eq!(stats.chunks, 0);
    assert_eq!(
        doc.dump(),
        parse_document("<p>x", &ParseOptions::default()).dump()
    );
    let options = ParseOptions {
        report_errors: true,
        ..ParseOptions::default()
    };
    let page = "<p>x</div>".repeat(100_000);
    let (doc, stats) =
        parse_document_parallel_with_stats(&page, &options, &ParallelOptions::threads(4));
    assert_eq!(stats.chunks, 0);
    assert_eq!(
        doc.errors().len(),
        parse_document(&page, &options).errors().len()
    );
}

/// The probe of a chunk's guesses (HPar's Table IV, insertion modes and
/// tree state) compares the true state at a cut with what the chunk's own
/// bytes suggest, field by field.
#[test]
fn cut_probes_compare_the_true_state_with_the_guess() {
    use spinneret_html::{CutProbe, probe_cut};
    let probe = |page: &str, before: &str| {
        let cut = page.find(before).expect("the cut's text is in the page");
        probe_cut(page, cut, &ParseOptions::default())
    };
    let all = CutProbe {
        boundary: true,
        in_body: true,
        open_elements: true,
        no_formatting_elements: true,
    };
    // Every element open at the cut is closed after it.
    let page = "<!DOCTYPE html><body><main><ul><li>a</li><li>b</ul></main><p>c</p>";
    assert_eq!(probe(page, "<li>b"), all);
    assert!(probe(page, "<li>b").holds());
    // An element closed by an implied end tag is missed: the second <li>
    // closes the first, which no end tag names.
    let page = "<!DOCTYPE html><body><main><ul><li>a<li>b</ul></main><p>c</p>";
    assert_eq!(
        probe(page, "<li>b"),
        CutProbe {
            open_elements: false,
            ..all
        }
    );
    // SVG elements are guessed in the SVG namespace, and HTML again in a
    // foreignObject.
    let page = "<body><svg><g><foreignObject><div><b></b>x</div></foreignObject></g></svg>";
    assert!(probe(page, "<b>").holds());
    // At the document's start: the initial mode, no open elements.
    let start = CutProbe {
        in_body: false,
        open_elements: false,
        ..all
    };
    assert_eq!(probe(page, "<body>"), start);
    // No end tag closes the open <div>: the guess misses it.
    let page = "<body><div><p>a</p><p>b";
    assert_eq!(
        probe(page, "<p>b"),
        CutProbe {
            open_elements: false,
            ..all
        }
    );
    // Inside an <a>: a formatting element, whose attributes a chunk cannot know.
    let page = "<body><a href=x>one <span>two</span></a>";
    let inside_a = probe(page, "<span>");
    assert_eq!(
        inside_a,
        CutProbe {
            no_formatting_elements: false,
            ..all
        }
    );
    // In a table row the mode is not in body (and the implied <tbody>
    // is missed).
    let page = "<body><table><tr><td>a</td><td>b</td></tr></table>";
    let in_row = CutProbe {
        in_body: false,
        open_elements: false,
        ..all
    };
    assert_eq!(probe(page, "<td>b"), in_row);
    let page = "<body><table><tbody><tr><td><b>a</b></td></tr></tbody></table>";
    assert_eq!(
        probe(page, "<b>"),
        CutProbe {
            in_body: false,
            ..all
        }
    );
    // Inside a comment or a script there is no token boundary.
    let page = "<body><!-- <p>x --><script>if (a <b) {}</script>";
    assert_eq!(probe(page, "<p>x"), CutProbe::default());
    assert_eq!(probe(page, "<b)"), CutProbe::default());
}

/// The upper bound of tree-level speculation: a chunk's tree built from
/// the context it guesses makes the sequential tree builder's operations,
/// naming the context's elements by depth (or as `html` and `body` where
/// the tree builder takes them as such), or it does not.
#[test]
fn tree_speculation_probes_compare_operations_with_the_sequential_ones() {
    use spinneret_html::probe_tree_speculation;
    let probe = |page: &str, before: &str| {
        let cut = page.find(before).expect("the cut's text is in the page");
        (
            probe_tree_speculation(page, cut, &ParseOptions::default()),
            page.len() - cut,
        )
    };
    // A balanced chunk.
    let page = "<body><div><p>one</p><div>two <b>2</b></div></div><p>three";
    let (p, rest) = probe(page, "<div>two");
    assert!(p.boundary && p.same_operations && p.agreeing_bytes == rest);
    // <div>, <b> and <p> created and appended, three texts appended.
    assert_eq!(p.operations, 9, "{p:?}");
    // The guess misses the open <div> no end tag closes, but the chunk
    // only appends to the current node, whatever it is: the same.
    let (p, _) = probe("<body><div><p>a</p><p>b <i>c</i>", "<p>b");
    assert!(p.same_operations, "{p:?}");
    // A comment after </body> goes to the html element, and a second
    // <body> tag's attributes to the body element, as such: the same.
    let (p, _) = probe("<body><main><div>a</div></main></body><!--c-->", "<div>");
    assert!(p.same_operations, "{p:?}");
    let (p, _) = probe("<body><main><div>a</div><body class=x></main>", "<div>");
    assert!(p.same_operations, "{p:?}");
    // In a table the guessed mode is wrong from the first token.
    let page = "<table><tr><td>a</td></tr><tr><td>b</td></tr></table>";
    let (p, _) = probe(page, "<tr><td>b");
    assert!(p.boundary && !p.same_operations);
    assert_eq!(p.agreeing_bytes, 0);
    // The adoption agency moves elements from before the cut: what they
    // hold is not the chunk's to know. The text before it agrees.
    let page = "<body><b><p>a<i>x</i> y</b>b</p>";
    let (p, _) = probe(page, "<i>x");
    assert!(!p.same_operations, "{p:?}");
    assert_eq!(p.agreeing_bytes, "<i>x</i> y".len(), "{p:?}");
    // No token boundary inside a comment: nothing is built.
    let (p, _) = probe("<body><!-- <p>x --><p>y", "<p>x");
    assert_eq!(p, Default::default());
}

/// The probe runs on every html5lib document at every byte (a cut that
/// is no token boundary, or no character boundary, builds nothing), and
/// its figures are consistent: the bytes that agree are at most those
/// after the cut, all of them exactly when the operations are the same.
#[test]
fn tree_speculation_probes_take_any_cut() {
    use spinneret_html::probe_tree_speculation;
    let (mut probes, mut same) = (0usize, 0usize);
    for test in tree_construction_tests() {
        if test.fragment_context.is_some() {
            continue;
        }
        let data = &test.data;
        let options = ParseOptions::default();
        for cut in 0..=data.len() + 1 {
            let p = probe_tree_speculation(data, cut, &options);
            probes += 1;
            if !p.boundary {
                assert_eq!(p, Default::default(), "{} at {cut}", test.id());
                continue;
            }
            let after = data.len() - cut;
            assert!(p.agreeing_bytes <= after, "{} at {cut}: {p:?}", test.id());
            if p.same_operations {
                same += 1;
                assert_eq!(p.agreeing_bytes, after, "{} at {cut}: {p:?}", test.id());
            }
        }
    }
    println!("html5lib: {probes} probes, {same} with the same operations");
    assert!(same > 0);
}

/// Many threads on a document of a few times the threshold: one worker
/// per `sequential_below` bytes at most, not one per thread. (In a pool
/// of 64 threads, so that the pool does not bound them first.)
#[test]
fn workers_are_bounded_by_the_document_size() {
    let page = "<div><p>some text <a href=x>a link</a></p></div>\n".repeat(33_000); // 1.62 MB
    let starts = |threads, sequential_below| {
        ParallelOptions {
            threads,
            sequential_below,
            cuts: None,
            tree_speculation: false,
            tree_speculation_from: 0,
        }
        .chunk_starts(&page)
        .len()
    };
    let per_size = page.len() / spinneret_html::SEQUENTIAL_BELOW;
    assert!((2..63).contains(&per_size), "{per_size}");
    pool(64).install(|| {
        assert_eq!(starts(64, spinneret_html::SEQUENTIAL_BELOW), per_size);
        assert_eq!(starts(64, page.len() / 4), 4);
        assert_eq!(starts(3, spinneret_html::SEQUENTIAL_BELOW), 2);
        assert_eq!(starts(2, spinneret_html::SEQUENTIAL_BELOW), 1);
        assert_eq!(starts(64, page.len() + 1), 0);
        // No threshold: a worker per thread (the tests' setting).
        assert_eq!(starts(64, 0), 63);
        let (doc, stats) = parse_document_parallel_with_stats(
            &page,
            &ParseOptions::default(),
            &ParallelOptions::threads(64),
        );
        assert_eq!(stats.chunks, per_size);
        assert!(doc.dump() == parse_document(&page, &ParseOptions::default()).dump());
    });
}

/// Workers are jobs on rayon's current pool, and a parse has at most one
/// per pool thread besides the calling one: more would only queue. Called
/// from outside any pool, every thread of the global pool can run one.
#[test]
fn workers_are_bounded_by_the_pool() {
    let page = "<div><p>some text <a href=x>a link</a></p></div>\n".repeat(20_000);
    let options = ParseOptions::default();
    let sequential = parse_document(&page, &options).dump();
    let chunks = |parallel: &ParallelOptions| {
        let (doc, stats) = parse_document_parallel_with_stats(&page, &options, parallel);
        assert!(doc.dump() == sequential, "{parallel:?}");
        assert_eq!(
            stats.chunks,
            parallel.chunk_starts(&page).len(),
            "{parallel:?}"
        );
        stats.chunks
    };
    // The caller is the pool's only thread: no worker could run.
    assert_eq!(pool(1).install(|| chunks(&threads(4))), 0);
    assert_eq!(pool(3).install(|| chunks(&threads(64))), 2);
    assert_eq!(pool(8).install(|| chunks(&threads(3))), 2);
    let global = rayon::current_num_threads();
    assert_eq!(chunks(&threads(64)), global.min(63));
    // Explicit cuts are the test's or the experimenter's: not bounded.
    let cuts = (1..4).map(|i| page.len() / 4 * i).collect();
    assert_eq!(pool(2).install(|| chunks(&cut_at(cuts))), 4);
}

/// A page that begins with one long token (a script of megabytes): no
/// worker begins where the calling thread does (the first starts a
/// `HEAD` into the input), so the calling thread tokenizes the script
/// itself instead of waiting for a worker to. Counted, not timed.
#[test]
fn a_long_first_token_is_not_waited_for() {
    let page = format!(
        "<script>{}</script><p>after",
        "if (a < 2 && b > 1) { c = '<b>'; }\n".repeat(60_000)
    );
    let options = ParseOptions::default();
    let (doc, stats) = parse_document_parallel_with_stats(
        &page,
        &options,
        &ParallelOptions {
            threads: 2,
            sequential_below: 0,
            cuts: None,
            tree_speculation: false,
            tree_speculation_from: 0,
        },
    );
    assert!(doc.dump() == parse_document(&page, &options).dump());
    assert_eq!(stats.waits, 0, "{stats:?}");
    let script = page.find("</script>").unwrap() - "<script>".len();
    assert!(stats.bytes_tokenized as usize >= script, "{stats:?}");
}

/// A parse called on the only thread of a rayon pool, with chunks cut
/// where the test says (explicit cuts are not bounded by the pool): its
/// workers (jobs on the pool the caller is on) cannot start before the
/// parse ends, so the calling thread must never wait for them. It
/// tokenizes everything itself, waits for nothing, and the jobs, run at
/// the scope's end, find themselves passed and return.
#[test]
fn workers_that_cannot_start_are_not_waited_for() {
    let page = "<div><p>some text <a href=x>a link</a></p></div>\n".repeat(20_000);
    let options = ParseOptions::default();
    let sequential = parse_document(&page, &options).dump();
    let cuts = (1..4).map(|i| page.len() / 4 * i).collect();
    let (doc, stats) =
        pool(1).install(|| parse_document_parallel_with_stats(&page, &options, &cut_at(cuts)));
    assert!(doc.dump() == sequential);
    assert_eq!(stats.chunks, 4, "{stats:?}");
    assert_eq!(stats.waits, 0, "{stats:?}");
    assert_eq!(stats.tokens_reused, 0, "{stats:?}");
    assert_eq!(stats.bytes_tokenized as usize, page.len(), "{stats:?}");
}

/// Workers whose pool thread is busy when the parse begins and free a
/// little later: they start after the calling thread has passed their
/// chunk's start, begin again ahead of it and say where. Whenever they
/// start, the tree is the sequential one and the call returns. (How much
/// they contribute depends on timing, so it is printed, not asserted.)
#[test]
fn workers_that_start_late_give_the_sequential_tree() {
    let page = "<div><p>some <b>text</b> <a href=x>a link</a></p></div>\n".repeat(60_000);
    let options = ParseOptions::default();
    let sequential = parse_document(&page, &options).dump();
    // Two threads: one runs the parse, the other is busy until released.
    let pool = pool(2);
    for delay_us in [0, 200, 1_000, 3_000] {
        let (release, blocked) = std::sync::mpsc::channel::<()>();
        pool.spawn(move || {
            let _ = blocked.recv();
        });
        let releaser = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_micros(delay_us));
            let _ = release.send(());
        });
        let (doc, stats) =
            pool.install(|| parse_document_parallel_with_stats(&page, &options, &threads(3)));
        releaser.join().unwrap();
        assert!(doc.dump() == sequential, "pool busy for {delay_us} µs");
        println!(
            "busy {delay_us} µs: {:.1}% reused, {} waits",
            100.0 * stats.reused_share(),
            stats.waits
        );
    }
}
