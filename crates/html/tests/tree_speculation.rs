//! Tree speculation (`parallel/tree_speculation.rs`): a worker builds the
//! tree of the input after a cut from a guessed context; the calling
//! thread adopts it only where the guess is the true state.
//!
//! Every document here is parsed with the tree speculated from the cut,
//! and its tree checked equal to the sequential one: documents whose
//! guess is right (their trees must really be adopted, not rebuilt), and
//! documents built so that the guess is wrong in each way it can be — an
//! element closed by an implied end tag, a `p` open in button scope, a
//! table without its implied `tbody`, a template, foreign content across
//! the cut, a formatting element open across it, an open `select`, a chunk
//! that adds attributes to `body` or foster-parents into a table from
//! before the cut.

use spinneret_html::{
    ParallelOptions, ParseOptions, SpeculationStats, TreeRejection, parse_document,
    parse_document_parallel_with_stats,
};

/// A pool of two threads, so that the worker runs beside the calling
/// thread (which, in a test, is not one of the pool's).
fn pool() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
}

/// Parses `doc` with the tree speculated from the first occurrence of
/// `at` in `doc` after `after` bytes; checks the tree is the
/// sequential one and returns what became of the speculation.
fn speculate(doc: &str, at: &str, after: usize) -> SpeculationStats {
    let cut = after + doc[after..].find(at).expect("the cut's text is there");
    let parallel = ParallelOptions {
        threads: 2,
        sequential_below: 0,
        cuts: Some(vec![cut]),
        tree_speculation: true,
        tree_speculation_from: 0,
    };
    let options = ParseOptions::default();
    let (parsed, stats) =
        pool().install(|| parse_document_parallel_with_stats(doc, &options, &parallel));
    assert!(
        parsed.dump() == parse_document(doc, &options).dump(),
        "the sequential tree, cut before {at:?} at {cut}"
    );
    assert_eq!(stats.tree.cut, cut);
    assert_eq!(
        stats.bytes_tokenized + stats.bytes_reused + stats.bytes_adopted(),
        doc.len() as u64
    );
    stats
}

/// Filler that keeps the calling thread busy long enough for the worker to
/// start (a pool thread wakes in well under a millisecond).
fn filler() -> String {
    "<div class=item><p>Some text &amp; <a href=/x>a link</a>, <b>bold</b>.</p><ul><li>one</li><li>two</li></ul></div>\n"
        .repeat(2000)
}

/// Filler of inline content only (no element that closes a `p`).
fn inline() -> String {
    "<span>text <b>x</b> <a href=/y>y</a></span>\n".repeat(3000)
}

/// The rejection, where the worker started in time (else it is
/// `NotStarted`, which the test machine's load may cause).
fn rejection(stats: &SpeculationStats) -> Option<TreeRejection> {
    stats
        .tree
        .rejection
        .filter(|r| *r != TreeRejection::NotStarted)
}

/// Speculates `doc` cut before `at` (after the filler) up to five times,
/// until the worker starts in time; what became of the last try.
fn speculate_started(doc: &str, at: &str, after: usize) -> SpeculationStats {
    let mut stats = speculate(doc, at, after);
    for _ in 0..4 {
        if stats.tree.rejection != Some(TreeRejection::NotStarted) {
            break;
        }
        stats = speculate(doc, at, after);
    }
    stats
}

#[test]
fn right_guesses_are_adopted() {
    let f = filler();
    let cases = [
        // Nested blocks closed by end tags the chunk holds.
        format!(
            "<!DOCTYPE html><html><body><div id=page><main>{f}<section>{f}</section></main></div></body></html>"
        ),
        // A table cell: the mode the guessed stack implies is in cell, and
        // the cell's marker is in the list of active formatting elements.
        format!(
            "<!DOCTYPE html><table><tbody><tr><td>{f}<div>x</div>{f}</td></tr></tbody></table><p>after"
        ),
        // Inline SVG across the cut: the guessed elements are SVG ones.
        format!(
            "<!DOCTYPE html><body>{f}<svg><g><div>not svg</div><rect/></g><text>t</text></svg>{f}"
        ),
        // A form around the page: the form element pointer is guessed.
        format!("<!DOCTYPE html><body><form action=/>{f}<div><input name=q></div>{f}</form>"),
        // Quirks mode (no DOCTYPE), and comments after the end.
        format!("<html><body>{f}<div><table><p>x</table></div>{f}</body></html><!-- end -->"),
    ];
    for doc in &cases {
        // Cut before a tag in the middle (in the SVG one, inside the `svg`).
        let (at, after) = match doc.find("<svg>") {
            Some(svg) => ("<g>", svg),
            None => ("<div", doc.len() / 2),
        };
        let stats = speculate_started(doc, at, after);
        assert!(
            stats.tree.adopted || stats.tree.rejection == Some(TreeRejection::NotStarted),
            "{:?} at {}: {:?}",
            &doc[..40],
            stats.tree.cut,
            stats.tree
        );
    }
}

#[test]
fn wrong_guesses_are_rejected_and_the_rest_parsed_again() {
    let f = filler();
    let i = inline();
    let rows = "<tr><td>x</td></tr>".repeat(5000);
    let shapes = "<rect/><text>t</text>".repeat(5000);
    // (document, where to cut, why the guess is wrong)
    let cases: Vec<(String, &str, TreeRejection)> = vec![
        // An element whose end tag is implied (the `li` the next `<li>`
        // closes) is open at the cut, and the guess misses it.
        (
            format!("<ul><li>{f}<li>second</ul>"),
            "<li>second",
            TreeRejection::OpenElements,
        ),
        // A `p` in button scope: the chunk's first `<div>` closes it.
        (
            format!("<p>{i}<div>block</div>"),
            "<div>block",
            TreeRejection::OpenElements,
        ),
        // A table whose `tbody` is implied.
        (
            format!("<table><tr><td>{f}<div>x</div></td></tr></table>"),
            "<div>x",
            TreeRejection::OpenElements,
        ),
        // A template: its contents and modes cannot be guessed.
        (
            format!("<template>{f}<div>in template</div></template>"),
            "<div>in template",
            TreeRejection::Unguessable,
        ),
        // Foreign content whose elements the chunk never closes: the
        // tokenizer's CDATA flag (on in foreign content) already differs.
        (
            format!("<svg><g>{shapes}<circle/><circle/>"),
            "<circle/>",
            TreeRejection::Tokenizer,
        ),
        // A formatting element open across the cut (misnested after it).
        (
            format!("<b>{f}<div>x</b>y</div>"),
            "<div>x",
            TreeRejection::Formatting,
        ),
        // An open `select`: which option is selected is not known.
        (
            format!("{f}<select><option>a<option selected>b<div>c</div></select>"),
            "<div>c",
            TreeRejection::Unguessable,
        ),
        // The chunk adds attributes to `body`, a node from before the cut.
        (
            format!("<body>{f}<div>x</div><body class=late>"),
            "<div>x",
            TreeRejection::ReachedContext,
        ),
        // Text foster-parented before a table from before the cut.
        (
            format!("<table><tbody>{rows}<tr><td>a</td></tr>stray text</tbody></table>"),
            "<tr><td>a",
            TreeRejection::ReachedContext,
        ),
        // The cut inside a comment: the tokenizer is not where the guess is.
        (
            format!("<!-- {f} <div>in comment --><p>x"),
            "<div>in comment",
            TreeRejection::Tokenizer,
        ),
        // In a table body, the mode is not the guessed one where the
        // chunk's end tags do not say so (a `</table>` only: in table).
        (
            format!("<table><tbody>{rows}<tr><td>b</td></tr></table>"),
            "<tr><td>b",
            TreeRejection::Mode,
        ),
    ];
    for (doc, at, why) in &cases {
        let stats = speculate_started(doc, at, 0);
        assert!(!stats.tree.adopted, "{at:?}: {:?}", stats.tree);
        if let Some(r) = rejection(&stats) {
            assert_eq!(r, *why, "{at:?}: {:?}", stats.tree);
        }
    }
}

#[test]
fn cuts_everywhere_in_a_small_page() {
    // Every position of a page with most of the tree builder's cases: the
    // adopted trees and the rejected ones alike give the sequential tree.
    let page = "<!DOCTYPE html><html><head><title>t</title></head><body>\
        <div id=a><p>one <b>two</b> <i>three</i></p><table><tbody><tr><td>c<td>d</tr></tbody></table>\
        <ul><li>x</li><li>y</ul><form><input></form><svg><g><rect/></g></svg>\
        <select><option>o</select><template><td>t</template><pre>\nq</pre></div>\
        <div><a href=x>link</a><!-- c --></div></body></html>";
    let mut adopted = 0;
    for cut in (1..page.len()).filter(|&c| page.is_char_boundary(c)) {
        let stats = speculate(page, &page[cut..], cut);
        adopted += usize::from(stats.tree.adopted);
    }
    println!("small page: {adopted} cuts adopted");
}

#[test]
fn a_worker_that_gives_up_is_seen_before_the_cut() {
    // A stray `</option>` after the cut (the tree builder ignores it) puts
    // an `option` in the guess, which the worker refuses at once; its part
    // after the cut is short, the calling thread's before it long. Either
    // the calling thread sees the refusal on its way to the cut and parses
    // on from there with pipelined workers, or it comes to the cut first
    // (the worker started late) and learns it there — never both, and the
    // tree is the sequential one whichever it was.
    let f = filler();
    let doc = format!("<!DOCTYPE html><body><main>{f}{f}{f}{f}<div>late</div></option></main>");
    let after = doc.len() - 200;
    for _ in 0..5 {
        let stats = speculate(&doc, "<div>late", after);
        let timeline = stats.tree.timeline;
        if stats.tree.rejection == Some(TreeRejection::NotStarted) {
            continue;
        }
        assert_eq!(stats.tree.rejection, Some(TreeRejection::Unguessable));
        assert!(
            timeline.given_up.is_some() != timeline.reached_cut.is_some(),
            "{timeline:?}"
        );
        assert!(!stats.tree.adopted);
    }
}
