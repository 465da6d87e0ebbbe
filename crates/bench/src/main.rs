//! `spinneret-bench`: how fast spinneret is against its peers, on the shared
//! corpus, one subcommand per stage:
//!
//! - `url` ([`url_bench`]): URL parsing and relative resolution, against
//!   ada-url and url.
//! - `tokenize` ([`tokenize_bench`]): the HTML tokenizer, against
//!   html5ever's tokenizer and lol_html.
//! - `encoding` ([`encoding_bench`]): determining and decoding each page's
//!   encoding, against chardetng alone.
//! - `canon` ([`canon_bench`]): every canonicalization profile, against the
//!   Python canonicalizers (w3lib, url-normalize, surt).
//! - `pipeline` ([`pipeline_bench`]): `spinneret links` end to end on a
//!   WARC, in process and as a binary, against lol_html and a Python
//!   pipeline (fastwarc, resiliparse, selectolax).
//! - `tree` ([`tree_bench`]): a full DOM of every corpus page, speed and
//!   memory, against html5ever + RcDom, scraper and lexbor (selectolax).
//! - `hpar` ([`hpar_bench`]): one document parsed on several threads,
//!   against the sequential parser and html5ever, with what became of the
//!   speculation.
//! - `hpar-model` ([`hpar_model`]): tree speculation over 2–16 chunks,
//!   a scheduling model fed with each chunk's measured costs, beside the
//!   measured 2-thread run; `hpar-model instructions`
//!   ([`hpar_model_instructions`]), the same model fed with each step's
//!   instructions, counted by callgrind.
//! - `decode` ([`decode_bench`]): one large document in a legacy
//!   encoding decoded on one thread and in pieces on two.
//! - `hpar-cli` ([`hpar_cli`]): the whole `spinneret tree` process on
//!   one document of 16–64 MB, `--threads 2` against `--threads 1`, per
//!   output format.
//! - `index` ([`index_bench`]): `spinneret index` and `check`, whole
//!   process, against cdxj-indexer, warcio and FastWARC.
//! - `text` ([`text_bench`]): pages' readable text, whole page and main
//!   content: quality on trafilatura's evaluation set and speed per
//!   CPU-second against trafilatura, Resiliparse, jusText,
//!   readability-lxml, html-text and inscriptis, and `spinneret text
//!   --format wet` against a Python WET writer (FastWARC + Resiliparse).
//!
//! A plain binary rather than a `cargo bench` harness: the datasets are large
//! real-web files read from the shared folder, the output is meant to be
//! pasted into the README, and the callgrind scripts need to run exactly
//! one untimed pass of one kernel, which a harness does not allow. This file
//! only reads the arguments. Shared by the benchmarks: the corpus pages
//! ([`pages`]), the timing method and number formats ([`timing`]), the
//! results table and its Markdown ([`table`]), the Python peers' virtual
//! environments ([`python_env`]), and the allocator's byte counters
//! ([`alloc_count`]).
//!
//! ```text
//! spinneret-bench url [DATASET] [--quick]
//! spinneret-bench tokenize [--quick]
//! spinneret-bench encoding [--quick]
//! spinneret-bench canon [--quick]
//! spinneret-bench pipeline [--quick] [--repeat K]
//! spinneret-bench tree [--quick]
//! spinneret-bench hpar [--quick]
//! spinneret-bench hpar-model [instructions] [--quick]
//! spinneret-bench decode [--quick] [--repeat K]
//! spinneret-bench hpar-cli [--quick] [--repeat K]
//! spinneret-bench index [--quick] [--repeat K]
//! spinneret-bench index-memory [--repeat K]
//! spinneret-bench text [--quick] [--repeat K]
//! spinneret-bench kernel <none|spinneret|spinneret-buf|ada|url> <DATASET>   (for callgrind.sh)
//! spinneret-bench kernel tokenize-<none|spinneret|html5ever|lolhtml|lolhtml-ahref> pages
//!                                                  (for callgrind-tokenize.sh)
//! spinneret-bench kernel tree-<none|spinneret|html5ever|scraper> pages
//!                                                  (for callgrind-tree.sh)
//! spinneret-bench kernel hpar-probe FILE K         (for hpar-model instructions)
//! ```
//!
//! The hidden `kernel` mode prints one line, `items=N ok=M` (the tokenizer's
//! adds `pages=… failed=…`), which the callgrind scripts read; `hpar-probe`
//! prints each chunk's outcome, and `hpar-model instructions` reads the
//! profiles callgrind writes.

// Only the counting allocator (alloc_count) has unsafe code: implementing
// `GlobalAlloc` requires it.
#![deny(unsafe_code)]
#![deny(clippy::undocumented_unsafe_blocks)]

mod alloc_count;
mod canon_bench;
mod decode_bench;
mod encoding_bench;
mod hpar_bench;
mod hpar_cli;
mod hpar_model;
mod hpar_model_instructions;
mod index_bench;
mod pages;
mod pipeline_bench;
mod python_env;
mod table;
mod text_bench;
mod timing;
mod tokenize_bench;
mod tree_bench;
mod url_bench;

use std::path::PathBuf;
use std::process::ExitCode;

/// The allocator the `spinneret` binary ships with, so that the in-process
/// pipeline rows measure what users run; every kernel of every benchmark
/// runs under it alike. Its byte counters are off (one relaxed load per
/// call) except while the `tree` benchmark measures a parse's heap.
#[global_allocator]
static GLOBAL: alloc_count::CountingAlloc<spinneret_cli::allocator::MiMalloc> =
    alloc_count::CountingAlloc::new(spinneret_cli::allocator::MiMalloc);

use timing::Plan;
use url_bench::Library;

fn usage() -> ExitCode {
    eprintln!(
        "usage: spinneret-bench url [DATASET] [--quick]\n\
         \x20      spinneret-bench tokenize [--quick]\n\
         \x20      spinneret-bench encoding [--quick]\n\
         \x20      spinneret-bench pipeline [--quick] [--repeat K]\n\
         \x20      spinneret-bench canon [--quick]\n\
         \x20      spinneret-bench tree [--quick]\n\
         \x20      spinneret-bench hpar [--quick]\n\
         \x20      spinneret-bench hpar-model [instructions] [--quick]\n\
         \x20      spinneret-bench decode [--quick] [--repeat K]\n\
         \x20      spinneret-bench hpar-cli [--quick] [--repeat K]\n\
         \x20      spinneret-bench index [--quick] [--repeat K]\n\
         \x20      spinneret-bench index-memory [--repeat K]\n\
         \x20      spinneret-bench text [--quick] [--repeat K]\n\
         \x20      spinneret-bench text quality [DUMP.jsonl]\n\
         \x20      spinneret-bench text kernels [--repeat K]\n\
         \n\
         text: quality (precision/recall/F1 on trafilatura's 990-page evaluation set) and\n\
         speed (pages and MB per CPU-second) of spinneret's whole-page text, main content\n\
         and the tree alone against trafilatura, Resiliparse, jusText, readability-lxml,\n\
         html-text and inscriptis (in a temp venv), best of K passes (default 1); then\n\
         `spinneret text --format wet` (1 and 2 threads, --main-content) against a Python\n\
         WET writer (FastWARC + Resiliparse) on the benchmark WARC, best of K runs.\n\
         text quality: spinneret's main content on trafilatura's set and on WCXB dev (by\n\
         page type), scored in process; DUMP.jsonl gets each WCXB page's text and scores;\n\
         then spinneret and dom_smoothie on both sets, one thread, with pages per CPU-second.\n\
         text kernels: spinneret's kernels alone (tree, visible text, page type, language,\n\
         whole page, main content) on trafilatura's set, best of K passes (default 3).\n\
         index: `spinneret index` and `check` (1 and 2 threads) against cdxj-indexer,\n\
         warcio index/check and FastWARC index/check (in a temp venv), whole process,\n\
         on the benchmark WARC (K copies of the corpus, default 1) and the corpus WARCs.\n\
         index-memory: peak RSS of `index --memory 64M` on K copies (default 120, ~5 GB).\n\
         url: times parse + href for spinneret-url, ada-url and url on the shared\n\
         corpus, then can_parse, then relative resolution over extracted_links.tsv.gz.\n\
         tokenize: times spinneret-html, html5ever's tokenizer and lol_html over\n\
         every page of corpus/pages.tsv (input MB/s).\n\
         encoding: per-page determine+decode time of spinneret-encoding against\n\
         chardetng alone, on every page of corpus/pages.tsv.\n\
         pipeline: `spinneret links` end to end (1 and 2 threads) on a WARC of the\n\
         corpus repeated K times (default 3; --quick: 1), against lol_html and a\n\
         Python pipeline (fastwarc + resiliparse + selectolax, in a temp venv).\n\
         canon: ns/URL of every canonicalization profile on absolute_links.txt, against\n\
         Python w3lib canonicalize_url, url-normalize and surt (in a temp venv).\n\
         tree: a full DOM of every page of corpus/pages.tsv: MB/s, peak heap per input\n\
         byte, bytes per node, against html5ever + RcDom, scraper and selectolax\n\
         (lexbor, in a temp venv).\n\
         \n\
         DATASET   run only this one: {} or {}\n\
         --quick   one timed pass per kernel, after a warm-up except in pipeline\n\
         \x20         (a CI smoke test; the numbers are indicative only)\n\
         --repeat  pipeline, index: copies of the corpus in the WARC; text: timed passes\n\
         \x20         and runs",
        url_bench::DATASETS.join(", "),
        url_bench::RELATIVE,
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    spinneret_cli::allocator::keep_freed_memory();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let mut repeat = None;
    let mut positional: Vec<&str> = Vec::new();
    let mut it = args.iter().map(String::as_str);
    while let Some(a) = it.next() {
        match a {
            "--quick" => {}
            "--repeat" => match it.next().and_then(|k| k.parse::<u32>().ok()) {
                Some(k) if k > 0 => repeat = Some(k),
                _ => return usage(),
            },
            _ => positional.push(a),
        }
    }

    let plan = if quick { Plan::QUICK } else { Plan::THOROUGH };
    match positional.as_slice() {
        ["url"] => url_bench::run(None, plan, quick),
        ["url", dataset] if url_bench::is_dataset(dataset) => {
            url_bench::run(Some(dataset), plan, quick)
        }
        ["tokenize"] => tokenize_bench::run(plan, quick),
        ["encoding"] => encoding_bench::run(plan),
        ["canon"] => canon_bench::run(plan, quick),
        ["pipeline"] => pipeline_bench::run(quick, repeat),
        ["index"] => index_bench::run(quick, repeat),
        ["index-memory"] => index_bench::run_memory(repeat),
        ["text"] => text_bench::run(quick, repeat),
        ["text", "quality"] => text_bench::run_quality(None),
        ["text", "kernels"] => text_bench::run_kernels(repeat),
        ["text", "quality", dump] => text_bench::run_quality(Some(dump)),
        ["tree"] => tree_bench::run(plan, quick),
        ["hpar"] => hpar_bench::run(plan, quick),
        ["hpar-model"] => hpar_model::run(plan, quick),
        ["hpar-model", "instructions"] => hpar_model_instructions::run(quick),
        ["hpar-cli"] => hpar_cli::run(repeat.unwrap_or(5) as usize, quick),
        ["decode"] => decode_bench::run(repeat.unwrap_or(7) as usize, quick),
        // `--repeat` belongs to `pipeline`, `index`, `text`, `decode` and `hpar-cli` alone.
        _ if repeat.is_some() => return usage(),
        // Hidden: one untimed pass, for callgrind-tokenize.sh.
        ["kernel", kernel, tokenize_bench::PAGES] if kernel.starts_with("tokenize-") => {
            match tokenize_bench::Kernel::from_kernel_name(kernel) {
                Some(kernel) => tokenize_bench::run_kernel(kernel),
                None => return usage(),
            }
        }
        // Hidden: one untimed pass, for callgrind-tree.sh.
        ["kernel", kernel, tokenize_bench::PAGES] if kernel.starts_with("tree-") => {
            match tree_bench::Kernel::from_kernel_name(kernel) {
                Some(kernel) => tree_bench::run_kernel(kernel),
                None => return usage(),
            }
        }
        // Hidden: one probe of each chunk, for `hpar-model instructions`.
        ["kernel", "hpar-probe", file, k] => return hpar_model_instructions::run_probe(file, k),
        // Hidden: one untimed pass, for callgrind.sh.
        ["kernel", lib, dataset] if url_bench::is_dataset(dataset) => {
            match Library::from_name(lib) {
                Some(lib) => url_bench::run_kernel(lib, dataset),
                None => return usage(),
            }
        }
        _ => return usage(),
    }
    ExitCode::SUCCESS
}

/// The benchmarks' scratch folder, `$TMPDIR/spinneret-bench`: generated
/// WARCs, the Python venvs, Python's output for comparison.
fn scratch_dir() -> PathBuf {
    std::env::temp_dir().join("spinneret-bench")
}
