//! Tree speculation chained over several chunks (`parallel/tree_chain.rs`):
//! each chunk's tree built by a worker of its own, checked against the
//! true state at its start — the calling thread's, or the adopted chunk
//! before it — and where a guess is wrong, the chunk before's whole state
//! moved into the calling thread, which parses on.
//!
//! Every document is parsed with explicit cuts and its tree checked equal
//! to the sequential one; the counters say which chunks were adopted, so
//! that a right guess is seen adopted (not silently rebuilt) and a wrong
//! one rejected for its reason, with the chunks after it adopted again
//! from the state taken over: the list of active formatting elements with
//! attribute fingerprints (Noah's Ark), names that are not interned, a
//! customizable `select` whose options follow the cut.

use spinneret_html::{
    ParallelOptions, ParseOptions, SpeculationStats, TreeRejection, TreeSpeculationStats,
    parse_document, parse_document_parallel_with_stats,
};

/// A pool with a thread per chunk, so that every worker runs beside the
/// calling thread (which, in a test, is not one of the pool's).
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn filler(tag: &str) -> String {
    format!("<{tag} class=item><p>Some text &amp; <a href=/x>a link</a>, <i>it</i>.</p><ul><li>one</li><li>two</li></ul></{tag}>\n")
        .repeat(1500)
}

/// Parses `doc` with tree speculation from the first occurrence of each
/// of `marks` (in order); checks the tree and the byte counters; each
/// chunk's fate. Tried up to five times while a worker did not start in
/// time (the test machine's load may cause it).
fn chain(doc: &str, marks: &[&str]) -> Vec<TreeSpeculationStats> {
    let mut cuts = Vec::new();
    let mut from = 0;
    for mark in marks {
        let at = from + doc[from..].find(mark).expect("the mark is there");
        cuts.push(at);
        from = at + 1;
    }
    let parallel = ParallelOptions {
        threads: cuts.len() + 1,
        sequential_below: 0,
        cuts: Some(cuts.clone()),
        tree_speculation: true,
        tree_speculation_from: 0,
    };
    let options = ParseOptions::default();
    let sequential = parse_document(doc, &options).dump();
    let pool = pool(cuts.len() + 1);
    let mut last = Vec::new();
    for _ in 0..5 {
        let (parsed, stats): (_, SpeculationStats) =
            pool.install(|| parse_document_parallel_with_stats(doc, &options, &parallel));
        assert!(
            parsed.dump() == sequential,
            "the sequential tree, cuts {cuts:?}"
        );
        assert_eq!(
            stats.bytes_tokenized + stats.bytes_reused + stats.bytes_adopted(),
            doc.len() as u64,
            "{stats:?}"
        );
        let chunks: Vec<_> = std::iter::once(stats.tree.clone())
            .chain(stats.tree_chain.iter().cloned())
            .collect();
        assert_eq!(chunks.iter().map(|c| c.cut).collect::<Vec<_>>(), cuts);
        let late = chunks
            .iter()
            .any(|c| c.rejection == Some(TreeRejection::NotStarted));
        last = chunks;
        if !late {
            break;
        }
    }
    last
}

/// The fates, `None` for an adopted chunk.
fn fates(chunks: &[TreeSpeculationStats]) -> Vec<Option<TreeRejection>> {
    chunks
        .iter()
        .map(|c| {
            assert_eq!(c.adopted, c.rejection.is_none(), "{c:?}");
            c.rejection
        })
        .collect()
}

/// Whether a worker was late (then the fates are not the document's).
fn late(fates: &[Option<TreeRejection>]) -> bool {
    fates.contains(&Some(TreeRejection::NotStarted))
}

#[test]
fn right_guesses_are_adopted_chunk_after_chunk() {
    let f = filler("div");
    let doc = format!(
        "<!DOCTYPE html><body><main>{f}<section id=a>{f}</section><section id=b>{f}\
         </section><section id=c>{f}</section></main><p>after"
    );
    let chunks = chain(
        &doc,
        &["<section id=a>", "<section id=b>", "<section id=c>"],
    );
    let fates = fates(&chunks);
    if !late(&fates) {
        assert_eq!(fates, [None, None, None], "{chunks:?}");
    }
}

#[test]
fn a_wrong_guess_mid_chain_hands_its_state_to_the_calling_thread() {
    let f = filler("div");
    // Chunk 2 starts with three equal `b` elements, a custom element and
    // an open `select` (whose `selectedcontent` it has) left by chunk 1:
    // its guess cannot be right, so chunk 1's state is taken over and the
    // calling thread parses chunk 2, where a fourth equal `b` drops the
    // first (Noah's Ark, by fingerprints taken again), `</x-card>` closes
    // the custom element by its renumbered name, and the options fill the
    // `selectedcontent` chunk 1 made. Chunk 3 is adopted again.
    let doc = format!(
        "<!DOCTYPE html><body>{f}<div id=one>{f}</div><b class=x><b class=x><b class=x><x-card>\
         <div id=two>{f}</div><b class=x>bold</b></x-card></b></b></b>{f}\
         <select><button><selectedcontent></selectedcontent></button><div id=three>x</div>\
         <option>first<option selected>second</select>{f}<div id=four>{f}</div>"
    );
    let chunks = chain(
        &doc,
        &[
            "<div id=one>",
            "<div id=two>",
            "<div id=three>",
            "<div id=four>",
        ],
    );
    let fates = fates(&chunks);
    println!("mid-chain take-over: {fates:?}");
    if !late(&fates) {
        assert_eq!(
            fates,
            [
                None,
                Some(TreeRejection::Formatting),
                Some(TreeRejection::Unguessable),
                None
            ],
            "{chunks:?}"
        );
    }
    let dump = parse_document(&doc, &ParseOptions::default()).dump();
    assert!(dump.contains("<selectedcontent>\n"), "{}", &dump[..200]);
}

#[test]
fn every_kind_of_wrong_guess_in_the_middle_of_a_chain() {
    let f = filler("div");
    let rows = "<tr><td>x</td></tr>".repeat(3000);
    let inline = "<span>text <b>x</b> <a href=/y>y</a></span>\n".repeat(2000);
    // (middle chunk's start and end, the mark of its cut, why it is wrong)
    let cases: Vec<(String, &str, TreeRejection)> = vec![
        (
            format!("<ul><li>{f}<li>second</ul>"),
            "<li>second",
            TreeRejection::OpenElements,
        ),
        (
            format!("<p>{inline}<div>block</div>"),
            "<div>block",
            TreeRejection::OpenElements,
        ),
        (
            format!("<template>{f}<div>in template</div></template>"),
            "<div>in template",
            TreeRejection::Unguessable,
        ),
        (
            // Foreign content the chunk leaves by a breakout (`<p>`), no
            // end tag: the guess has no `svg`, the tokenizer's CDATA flag
            // is on.
            format!(
                "<svg><g>{}<circle/><p>html again</p>",
                "<rect/>".repeat(3000)
            ),
            "<circle/>",
            TreeRejection::Tokenizer,
        ),
        (
            format!("<b>{f}<div>x</b>y</div>"),
            "<div>x",
            TreeRejection::Formatting,
        ),
        (
            format!("<table><tbody>{rows}<tr><td>a</td></tr>stray</tbody></table>"),
            "<tr><td>a",
            TreeRejection::ReachedContext,
        ),
        (
            format!("<table><tbody>{rows}<tr><td>b</td></tr></table>"),
            "<tr><td>b",
            TreeRejection::Mode,
        ),
    ];
    let (mut adopted, mut checked) = (0, 0);
    for (middle, mark, why) in &cases {
        let doc = format!(
            "<!DOCTYPE html><body>{f}<div id=first>{f}</div>{middle}<div id=last>{f}</div>"
        );
        let chunks = chain(&doc, &["<div id=first>", mark, "<div id=last>"]);
        let fates = fates(&chunks);
        if !late(&fates) {
            // (The first chunk's guess, from the end tags of all the rest,
            // may be wrong too where the middle misnests them.)
            assert_eq!(fates[1..], [Some(*why), None], "{mark:?}: {chunks:?}");
            adopted += usize::from(fates[0].is_none());
            checked += 1;
        }
    }
    // The first chunk's guess holds where the middle is well nested.
    assert!(
        adopted + 1 >= checked,
        "{adopted} of {checked} first chunks adopted"
    );
}

#[test]
fn default_cuts_chain_on_more_threads() {
    let f = filler("article");
    let doc = format!("<!DOCTYPE html><body><main>{f}{f}{f}{f}</main>");
    for threads in [3, 4, 8] {
        let parallel = ParallelOptions {
            threads,
            sequential_below: 0,
            cuts: None,
            tree_speculation: true,
            tree_speculation_from: 0,
        };
        let options = ParseOptions::default();
        let (parsed, stats) =
            pool(threads).install(|| parse_document_parallel_with_stats(&doc, &options, &parallel));
        assert!(parsed.dump() == parse_document(&doc, &options).dump());
        assert_eq!(stats.tree_chain.len(), threads - 2, "{threads} threads");
        assert_eq!(
            stats.bytes_tokenized + stats.bytes_adopted(),
            doc.len() as u64
        );
    }
}
