//! Parallel parsing of one document (`spinneret_html::parse_document_parallel`)
//! against the sequential parser and html5ever, in the manner of the HPar
//! paper's evaluation.
//!
//! Inputs: the corpus pages of at least 1 MB as they are, and larger
//! documents made the way the paper made its scalability inputs — real
//! pages put one after another (each page's markup as is, so every
//! document has the mix of markup, text, scripts and styles of the web) —
//! at 1, 2, 4, 8 and 16 MB.
//!
//! Tables:
//! - speculation (the paper's Table IV): per document and thread count,
//!   the share of bytes whose tokens came from workers, the chunk starts
//!   whose speculated state (data state) was the true one, and the
//!   boundaries where a worker's state was wrong. Insertion modes are not
//!   speculated: the tree builder runs once, in order.
//! - speed: the best of several passes (see [`crate::timing`]) of the
//!   sequential parser, the parallel one with 2 threads, and html5ever +
//!   RcDom, with the speedup over our own sequential parse (best pass over
//!   best pass, and the median of the ratios of passes run back to back,
//!   which the machine's drift moves less); and the CPU
//!   times of the parallel parse's calling thread and of its other threads
//!   (the worker), from the parse of 11 whose longer thread took the least:
//!   the sequential parse's CPU time (the least of 11) over that longer
//!   thread's is the speedup two free cores give
//!   ("CPU bound": wall time on this shared virtual machine swings by tens
//!   of percent between identical runs, CPU time much less). The worker
//!   runs fewer instructions than the calling thread but, writing what it
//!   hands over, takes as much CPU time, so the calling thread's alone
//!   overstated the bound.
//!
//! Where the time goes: cutting is one `memchr` per chunk; the calling
//! thread's work is the tree builder plus, for the bytes no worker got
//! right, the tokenizer — its share of bytes is the table's "tokenized by
//! the caller" column; workers' tokenizing runs on the other cores.

use std::hint::black_box;

use spinneret_html::{
    ParallelOptions, ParseOptions, TREE_SPECULATION_FROM, Tokenizer, TokenizerOptions,
    parse_document, parse_document_parallel, parse_document_parallel_with_stats, probe_cut,
    probe_tree_speculation,
};

use spinneret_testdata::cpu_time;

use crate::pages::Pages;
use crate::table::{Cell, Column, Table};
use crate::timing::{Plan, measure};
use crate::tree_bench::Parser;

/// The most threads a figure here asks for.
const MOST_THREADS: usize = 5;

/// A rayon pool of `threads` threads (at most [`MOST_THREADS`]), built once.
/// A parallel parse has at most one worker per thread of the pool it runs
/// in besides its own, so a figure "with N threads" — the parser's chunk
/// starts included — is taken inside a pool of N; the speed table's "2
/// threads" is a parse called from outside any pool, as a library user's
/// is, on the global pool (one thread per core: one worker here either
/// way).
fn pool(threads: usize) -> &'static rayon::ThreadPool {
    static POOLS: std::sync::OnceLock<Vec<rayon::ThreadPool>> = std::sync::OnceLock::new();
    let pools = POOLS.get_or_init(|| {
        (0..=MOST_THREADS)
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n.max(1))
                    .build()
                    .expect("a thread pool")
            })
            .collect()
    });
    &pools[threads]
}

/// Runs the benchmark and prints its tables.
pub fn run(plan: Plan, quick: bool) {
    let set = Pages::load();
    let docs = documents(&set, quick);
    let options = ParseOptions::default();

    let mut spec = Table::new([
        Column::left("document"),
        Column::right("bytes"),
        Column::right("threads"),
        Column::right("chunk starts right"),
        Column::right("bytes from workers (most of 3 parses)"),
        Column::right("tokenized by the caller"),
        Column::right("wrong states met"),
    ]);
    for (name, doc) in &docs {
        for threads in [2, 4] {
            let parallel = ParallelOptions {
                threads,
                sequential_below: 0,
                cuts: None,
                tree_speculation: false,
                tree_speculation_from: 0,
            };
            // How much a worker contributes depends on when its pool
            // thread starts (on this machine, sometimes only after a short
            // parse): the parse, of three, that took the most from workers.
            let (stats, (right, starts)) = pool(threads).install(|| {
                let stats = (0..3)
                    .map(|_| parse_document_parallel_with_stats(doc, &options, &parallel).1)
                    .max_by_key(|stats| stats.bytes_reused)
                    .expect("three parses");
                (stats, chunk_starts_right(doc, threads))
            });
            spec.push(vec![
                Cell::text(name.clone()),
                Cell::text(format!("{:.2} MB", doc.len() as f64 / 1e6)),
                Cell::text(threads.to_string()),
                Cell::text(format!("{right}/{starts}")),
                Cell::text(format!("{:.1}%", 100.0 * stats.reused_share())),
                Cell::text(format!(
                    "{:.1}%",
                    100.0 * stats.bytes_tokenized as f64 / doc.len().max(1) as f64
                )),
                Cell::text(stats.mispredictions.to_string()),
            ]);
        }
    }
    println!("Speculation (2 and 4 threads):\n\n{}", spec.markdown());
    println!(
        "Tree-state speculation (cuts at 1/2, 1/3, 2/3, 1/4, 2/4, 3/4):\n\n{}",
        tree_state_table(&set, &docs, &options, quick).markdown()
    );
    println!(
        "Tree speculation, its upper bound (the parser's cuts with 3, 4 and 5 threads):\n\n{}",
        tree_speculation_table(&set, &docs, &options, quick).markdown()
    );

    let mut speed = Table::new([
        Column::left("document"),
        Column::right("bytes"),
        Column::right("sequential ms"),
        Column::right("2 threads ms"),
        Column::right("speedup"),
        Column::right("paired speedup"),
        Column::right("caller CPU ms"),
        Column::right("worker CPU ms"),
        Column::right("CPU bound"),
        Column::right("html5ever ms"),
        Column::right("2 threads vs html5ever"),
        Column::right("tree spec. ms"),
        Column::right("tree spec. paired"),
        Column::left("tree speculated from the cut"),
    ]);
    let mut adopted = 0usize;
    // No threshold: the small documents show where it should lie.
    let two = ParallelOptions {
        threads: 2,
        sequential_below: 0,
        cuts: None,
        tree_speculation: false,
        tree_speculation_from: 0,
    };
    for (name, doc) in &docs {
        let sequential = || drop(black_box(parse_document(black_box(doc), &options)));
        let parallel = || {
            drop(black_box(parse_document_parallel(
                black_box(doc),
                &options,
                &two,
            )))
        };
        let (seq, par, paired) = paired_passes(plan, sequential, parallel);
        // CPU times, which waiting is not: the parallel parse's critical
        // path when the cores are really free, whatever else the machine
        // runs. Of 11 parses, the one whose longer thread took the least:
        // its calling thread's time and its other threads' (the process's
        // less the calling thread's: the worker, and whatever the pool's
        // threads spend looking for work). (The least of each apart would
        // pair the calling thread of one parse with the idle worker of
        // another, one whose job started too late to help.)
        let cpu = |f: &dyn Fn()| {
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            (0..11)
                .map(|_| {
                    let (process, thread) = (cpu_time::process(), cpu_time::current_thread());
                    f();
                    let own = cpu_time::current_thread() - thread;
                    let others = (cpu_time::process() - process).saturating_sub(own);
                    (ms(own), ms(others))
                })
                .min_by(|a, b| a.0.max(a.1).total_cmp(&b.0.max(b.1)))
                .unwrap_or_default()
        };
        let (seq_cpu, _) = cpu(&sequential);
        let (par_cpu, worker_cpu) = cpu(&parallel);
        let h5e = measure(plan, 1, || {
            black_box(Parser::Html5ever.parse(black_box(doc)));
            1
        });
        // The second half's tree built by the worker from a guessed
        // context (`parallel/tree_speculation.rs`): what became of it (on
        // one parse: whether the worker started in time varies), and its
        // speed against the sequential parse, paired likewise.
        let tree = ParallelOptions {
            tree_speculation: true,
            tree_speculation_from: TREE_SPECULATION_FROM,
            ..two.clone()
        };
        let outcome = pool(2)
            .install(|| parse_document_parallel_with_stats(doc, &options, &tree))
            .1
            .tree;
        adopted += usize::from(outcome.adopted);
        let outcome = match outcome.rejection {
            _ if outcome.adopted => format!("adopted (depth {})", outcome.guessed_depth),
            Some(why) => format!("rebuilt: {why:?} (depth {})", outcome.guessed_depth),
            None => "not speculated: fewer tags than TREE_SPECULATION_FROM".into(),
        };
        let speculating = || {
            drop(black_box(parse_document_parallel(
                black_box(doc),
                &options,
                &tree,
            )))
        };
        let (_, tree_ns, tree_paired) = paired_passes(plan, sequential, speculating);
        let ms = |t: f64| format!("{:.2}", t / 1e6);
        speed.push(vec![
            Cell::text(name.clone()),
            Cell::text(format!("{:.2} MB", doc.len() as f64 / 1e6)),
            Cell::text(ms(seq)),
            Cell::text(ms(par)),
            Cell::text(format!("{:.2}×", seq / par)),
            Cell::text(format!("{paired:.2}×")),
            Cell::text(format!("{par_cpu:.2}")),
            Cell::text(format!("{worker_cpu:.2}")),
            Cell::text(format!("{:.2}×", seq_cpu / par_cpu.max(worker_cpu))),
            Cell::text(ms(h5e.ns_per_item)),
            Cell::text(format!("{:.2}×", h5e.ns_per_item / par)),
            Cell::text(ms(tree_ns)),
            Cell::text(format!("{tree_paired:.2}×")),
            Cell::text(outcome),
        ]);
    }
    println!("Speed (best pass):\n\n{}", speed.markdown());
    println!(
        "Tree speculation: the worker's tree adopted on {adopted} of {} documents.",
        docs.len()
    );
}

/// Times `sequential` and `parallel` in alternation, a pass of each per
/// round, as long as [`measure`] would time one of them: their best passes
/// (ns), and the median over rounds of the one's time over the other's.
/// (This machine's speed drifts by tens of percent within seconds; two
/// passes run back to back meet the same speed, so their ratio holds
/// still where best passes taken a second apart do not.)
pub(crate) fn paired_passes(
    plan: Plan,
    sequential: impl Fn(),
    parallel: impl Fn(),
) -> (f64, f64, f64) {
    let time = |f: &dyn Fn()| {
        let start = std::time::Instant::now();
        f();
        start.elapsed()
    };
    if plan.warm_up {
        sequential();
        parallel();
    }
    let (mut best_seq, mut best_par) = (f64::INFINITY, f64::INFINITY);
    let mut ratios = Vec::new();
    let mut total = std::time::Duration::ZERO;
    while ratios.len() < plan.max_reps as usize
        && (ratios.len() < plan.min_reps as usize || total < plan.min_total)
    {
        let (seq, par) = (time(&sequential), time(&parallel));
        total += seq.max(par);
        let (seq, par) = (seq.as_nanos() as f64, par.as_nanos() as f64);
        best_seq = best_seq.min(seq);
        best_par = best_par.min(par);
        ratios.push(seq / par.max(1.0));
    }
    ratios.sort_by(f64::total_cmp);
    (best_seq, best_par, ratios[ratios.len() / 2])
}

/// The corpus pages of 1 MB or more; documents made of pages one after
/// another (cut at the size), from 16 KB (where the sequential threshold
/// lies) to 16 MB; and
/// two hostile documents of 1 MB where every speculation fails (a comment,
/// a script across the whole document). With `quick`, the largest page,
/// the 1 MB document and the hostile ones.
pub(crate) fn documents(set: &Pages, quick: bool) -> Vec<(String, String)> {
    let mut pages: Vec<(String, String)> = set
        .pages
        .iter()
        .zip(&set.paths)
        .filter(|(page, _)| page.len() >= 1_000_000)
        .map(|(page, path)| (path.clone(), page.clone()))
        .collect();
    pages.sort_by_key(|(_, page)| page.len());
    if quick {
        pages.drain(..pages.len().saturating_sub(1));
    }
    let made = |bytes: usize| made_document(set, bytes);
    let sizes: &[usize] = if quick {
        &[1_000_000]
    } else {
        &[
            16_000, 32_000, 64_000, 128_000, 256_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000,
            16_000_000,
        ]
    };
    let mut docs = pages;
    for &bytes in sizes {
        let label = if bytes >= 1_000_000 {
            format!("{} MB of pages", bytes / 1_000_000)
        } else {
            format!("{} KB of pages", bytes / 1_000)
        };
        docs.push((label, made(bytes)));
    }
    for mb in if quick { &[1][..] } else { &[1, 4, 16][..] } {
        let label = format!("{mb} MB, well-formed");
        docs.push((label, well_formed_document(mb * 1_000_000)));
    }
    let mb = made(1_000_000);
    docs.push((
        "hostile: a comment across all".into(),
        format!("<!--{mb}-->"),
    ));
    docs.push((
        "hostile: a script across all".into(),
        format!("<script>{}</script>", mb.replace("</", "<\\/")),
    ));
    docs
}

/// A well-formed document of about `bytes` bytes: one page of many posts,
/// each a `div` with a heading, a paragraph of inline markup, a list, a
/// table with its `tbody` and a form, every end tag written — the kind of
/// document where a chunk's own end tags tell the tree builder's state at
/// a cut (tree speculation's guess holds), unlike pages one after another.
pub(crate) fn well_formed_document(bytes: usize) -> String {
    use std::fmt::Write;
    let mut doc = String::with_capacity(bytes + 4096);
    doc.push_str(
        "<!DOCTYPE html><html><head><title>Archive</title></head><body><div id=page><main>\n",
    );
    let mut i = 0usize;
    while doc.len() < bytes {
        let _ = writeln!(
            doc,
            "<div class=post id=p{i}><h2><a href=\"/posts/{i}\">Post {i}</a></h2>\
             <p>Some text with <b>bold</b>, <i>italic</i> &amp; <a href=\"/tag/{tag}\">a tag</a>.</p>\
             <ul><li>one</li><li>two</li></ul>\
             <table><tbody><tr><td>{i}</td><td>cell</td></tr></tbody></table>\
             <form action=/c><input name=q value={i}></form></div>",
            tag = i % 97
        );
        i += 1;
    }
    doc.push_str("</main></div></body></html>\n");
    doc
}

/// Corpus pages one after another up to `bytes`, cut at a character
/// boundary (the HPar paper's way of making large inputs).
pub(crate) fn made_document(set: &Pages, bytes: usize) -> String {
    let mut doc = String::with_capacity(bytes + (1 << 20));
    'fill: loop {
        for page in &set.pages {
            if doc.len() >= bytes {
                break 'fill;
            }
            doc.push_str(page);
        }
    }
    let mut end = bytes;
    while !doc.is_char_boundary(end) {
        end -= 1;
    }
    doc.truncate(end);
    doc
}

/// The insertion-mode and tree-state half of the paper's Table IV: at
/// cuts at 1/2, 1/3, 2/3, 1/4, 2/4 and 3/4 of each document, how often
/// what a chunk would guess there holds (`spinneret_html::probe_cut`: a
/// data-state token boundary, the *in body* mode, the open elements that
/// the chunk's unmatched end tags close, no active formatting element),
/// for three ways of cutting: the parser's (`ParallelOptions::chunk_starts`
/// with 3, 4 and 5 threads: just before a `div` tag within a chunk's length, else
/// before a tag), just before any tag (HPar's smart cut, the parser's rule
/// before), and just before a `div` tag however far it is.
fn tree_state_table(
    set: &Pages,
    docs: &[(String, String)],
    options: &ParseOptions,
    quick: bool,
) -> Table {
    let mut table = Table::new([
        Column::left("documents"),
        Column::left("cut before"),
        Column::right("cuts"),
        Column::right("data-state boundary"),
        Column::right("in body"),
        Column::right("open elements guessed"),
        Column::right("no formatting element"),
        Column::right("all hold"),
    ]);
    let groups = document_groups(set, docs, quick);
    let rules: [(&str, CutRule); 3] = [
        ("the parser's cut", parser_cuts),
        ("any tag", |doc| even_cuts(doc, tag_cut)),
        ("a div tag, however far", |doc| even_cuts(doc, div_cut)),
    ];
    for (name, group) in &groups {
        for (label, cuts) in rules {
            let mut counts = [0usize; 6];
            for doc in group {
                for at in cuts(doc) {
                    probe(doc, at, options, &mut counts);
                }
            }
            table.push(tree_state_row(name, label, counts));
        }
    }
    table
}

/// How far a chunk's tree built from the context it guesses would agree
/// with the sequential tree (`spinneret_html::probe_tree_speculation`):
/// at the parser's cuts, how often its tree operations are the sequential
/// ones from the cut to the end of the document — the most that
/// validation by logged reads could accept — and how many of the bytes
/// after the cuts come before the first operation that differs (what a
/// speculation that stops at its first wrong guess would keep).
fn tree_speculation_table(
    set: &Pages,
    docs: &[(String, String)],
    options: &ParseOptions,
    quick: bool,
) -> Table {
    let mut table = Table::new([
        Column::left("documents"),
        Column::right("cuts"),
        Column::right("data-state boundary"),
        Column::right("same operations to the end"),
        Column::right("bytes before the first difference"),
    ]);
    let groups = document_groups(set, docs, quick);
    for (name, group) in &groups {
        let (mut cuts, mut boundaries, mut same) = (0, 0, 0);
        let (mut after, mut agreeing) = (0usize, 0usize);
        for doc in group {
            for at in parser_cuts(doc) {
                let p = probe_tree_speculation(doc, at, options);
                cuts += 1;
                boundaries += usize::from(p.boundary);
                same += usize::from(p.same_operations);
                after += doc.len() - at;
                agreeing += p.agreeing_bytes;
            }
        }
        let share = |n: usize, of: usize| 100.0 * n as f64 / of.max(1) as f64;
        table.push(vec![
            Cell::text(name.clone()),
            Cell::text(cuts.to_string()),
            Cell::text(format!("{boundaries} ({:.0} %)", share(boundaries, cuts))),
            Cell::text(format!("{same} ({:.0} %)", share(same, cuts))),
            Cell::text(format!("{:.0} %", share(agreeing, after))),
        ]);
    }
    table
}

/// The documents the tree-state tables group: the large corpus pages,
/// the corpus pages of 1 MB or more, the documents made of pages, and the
/// hostile ones.
fn document_groups<'d>(
    set: &'d Pages,
    docs: &'d [(String, String)],
    quick: bool,
) -> Vec<(String, Vec<&'d str>)> {
    let large: Vec<&str> = set
        .pages
        .iter()
        .map(String::as_str)
        .filter(|p| p.len() >= 200_000)
        .take(if quick { 10 } else { usize::MAX })
        .collect();
    let of = |pick: &dyn Fn(&str) -> bool| -> Vec<&str> {
        docs.iter()
            .filter(|(name, d)| d.len() >= 1_000_000 && pick(name))
            .map(|(_, d)| d.as_str())
            .collect()
    };
    let huge = of(&|name| name.starts_with("pages/"));
    let made = of(&|name| name.ends_with("MB of pages"));
    let hostile = of(&|name| name.starts_with("hostile"));
    vec![
        (
            format!("corpus pages of 200 KB or more ({})", large.len()),
            large,
        ),
        (
            format!("corpus pages of 1 MB or more ({})", huge.len()),
            huge,
        ),
        (format!("made of pages, 1-16 MB ({})", made.len()), made),
        (format!("hostile ({})", hostile.len()), hostile),
    ]
}

/// Counts a cut at `at` in `counts`, and which of its guesses hold.
fn probe(doc: &str, at: usize, options: &ParseOptions, counts: &mut [usize; 6]) {
    let p = probe_cut(doc, at, options);
    let hits = [
        true,
        p.boundary,
        p.in_body,
        p.open_elements,
        p.no_formatting_elements,
        p.holds(),
    ];
    for (count, hit) in counts.iter_mut().zip(hits) {
        *count += usize::from(hit);
    }
}

fn tree_state_row(name: &str, rule: &str, [cuts, hits @ ..]: [usize; 6]) -> Vec<Cell> {
    let mut row = vec![
        Cell::text(name.to_owned()),
        Cell::text(rule.to_owned()),
        Cell::text(cuts.to_string()),
    ];
    row.extend(hits.iter().map(|h| {
        let share = 100.0 * *h as f64 / cuts.max(1) as f64;
        Cell::text(format!("{h} ({share:.0} %)"))
    }));
    row
}

/// Where the cuts of a rule fall in a document.
type CutRule = fn(&str) -> Vec<usize>;

/// The parser's cuts with 3, 4 and 5 threads (at 1/2; 1/3, 2/3; 1/4, 2/4,
/// 3/4 of the document).
fn parser_cuts(doc: &str) -> Vec<usize> {
    let mut cuts = Vec::new();
    for threads in 3..=5 {
        let options = ParallelOptions {
            threads,
            sequential_below: 0,
            cuts: None,
            tree_speculation: false,
            tree_speculation_from: 0,
        };
        // The first chunk starts at 0.
        let starts = pool(threads).install(|| options.chunk_starts(doc));
        cuts.extend(starts.into_iter().skip(1));
    }
    cuts
}

/// The cuts `cut` makes from 1/2, 1/3, 2/3, 1/4, 2/4 and 3/4 of `doc`.
fn even_cuts(doc: &str, cut: fn(&str, usize) -> usize) -> Vec<usize> {
    [(1, 2), (1, 3), (2, 3), (1, 4), (2, 4), (3, 4)]
        .into_iter()
        .map(|(k, n)| cut(doc, doc.len() / n * k))
        .filter(|&at| at < doc.len())
        .collect()
}

/// HPar's smart cut: the first `<` at or after `at` that starts a tag (a
/// letter, or `/` and a letter, after it).
fn tag_cut(doc: &str, at: usize) -> usize {
    first_of(doc, at, |rest| {
        let b = rest.as_bytes();
        match b.get(1) {
            Some(c) if c.is_ascii_alphabetic() => true,
            Some(b'/') => b.get(2).is_some_and(u8::is_ascii_alphabetic),
            _ => false,
        }
    })
}

/// The first `<div` or `</div` tag at or after `at`.
fn div_cut(doc: &str, at: usize) -> usize {
    first_of(doc, at, |rest| {
        let name = rest.strip_prefix("</").or_else(|| rest.strip_prefix('<'));
        name.is_some_and(|n| {
            n.len() > 3
                && n.as_bytes()[..3].eq_ignore_ascii_case(b"div")
                && matches!(
                    n.as_bytes()[3],
                    b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0C' | b'/'
                )
        })
    })
}

/// The first `<` at or after `at` (rounded up to a character boundary)
/// where `starts` holds of the text from it; the end when none does.
fn first_of(doc: &str, at: usize, starts: impl Fn(&str) -> bool) -> usize {
    let mut at = at.min(doc.len());
    while !doc.is_char_boundary(at) {
        at += 1;
    }
    doc[at..]
        .match_indices('<')
        .map(|(i, _)| at + i)
        .find(|&p| starts(&doc[p..]))
        .unwrap_or(doc.len())
}

/// How many of the chunk starts a parse with `threads` threads makes are
/// token boundaries of the sequential tokenizer in the data state (the
/// state a worker speculates), out of how many starts.
fn chunk_starts_right(doc: &str, threads: usize) -> (usize, usize) {
    let starts = ParallelOptions::threads(threads).chunk_starts(doc);
    // The sequential tokenizer (its simulator switching text modes as the
    // tree builder would) and its boundaries in the data state.
    let mut tok = Tokenizer::new(doc, TokenizerOptions::default());
    let mut right = 0;
    let mut next = starts.iter().peekable();
    loop {
        let at = tok.offset();
        while next.peek().is_some_and(|&&s| s < at) {
            next.next();
        }
        if next.peek() == Some(&&at)
            && tok.snapshot().text_mode() == spinneret_html::TextMode::Data
            && !tok.in_foreign_content()
        {
            right += 1;
            next.next();
        }
        if tok.next_token().is_none() {
            break;
        }
    }
    (right, starts.len())
}
