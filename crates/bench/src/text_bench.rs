//! `spinneret-bench text`: the readable text of pages (issue 42's
//! "Measure"), quality and speed, against the Python extractors a
//! language-model corpus is built with, every row from the same run.
//!
//! 1. **Quality** on trafilatura's evaluation set ([`eval`]: 990 pages,
//!    each with snippets a main-content extractor must and must not
//!    output): spinneret's main content, extracted and scored in this
//!    process by trafilatura's own rule ([`eval::Counts`]), against
//!    trafilatura, Resiliparse (`main_content=True`), jusText and
//!    readability-lxml scored by the same rule in `python/text_peers.py`
//!    ([`peers`]); whole-page text (spinneret, Resiliparse
//!    `main_content=False`, html-text, inscriptis) is scored too, for its
//!    recall. spinneret's main-content texts are also handed to
//!    `text_peers.py` (`--spinneret-jsonl`) and scored there: the two
//!    scorers must agree, and the table shows whether they do.
//! 2. **Speed** on the same pages, per CPU-second: `extract_page` of each
//!    page's raw bytes with its URL (decoding, the HTML Standard's tree,
//!    metadata, the language detected) for whole-page text, main content
//!    and main content as Markdown; `spinneret_html::parse_bytes` alone
//!    (decoding and the tree: "the tree alone", what every text mode
//!    costs at least); and between the two, the tree and its
//!    `visible_text` without `extract_page`'s metadata and language
//!    detection (what `spinneret tree --format text` does). The pages
//!    are loaded and gunzipped first; a pass extracts every page in order
//!    on this thread and keeps the texts (as the Python side keeps its
//!    results); its time is this thread's CPU time
//!    (`spinneret_testdata::cpu_time`), after one untimed warm-up pass;
//!    the best of `--repeat K` passes (default 1) is kept. The peers'
//!    figures are `text_peers.py`'s: the best of K passes of each
//!    extractor, `time.process_time()` around a pass, the pages as bytes
//!    in memory. pages/CPU-s divides the pages by that time, MB/CPU-s
//!    their raw bytes (10^6). The ratio is the peer's CPU time over
//!    spinneret's for the same kind of text (main content against main
//!    content, whole page against whole page).
//! 3. **WET** ([`wet`]): the whole `spinneret text --format wet` over the
//!    benchmark WARC (`make_warc.py` over the corpus pages, once: the
//!    file `index` and `pipeline` make for `--repeat 1`), whole page and
//!    `--main-content`, `--threads 1` and `2`, as a child process, against
//!    `python/wet_peer.py` (Common Crawl-style WET with FastWARC and
//!    Resiliparse) on the same file; user + system CPU of the child and
//!    wall time.
//!
//! `--quick`: the first 100 pages of the evaluation set (a smoke test:
//! the figures are indicative only; passes and runs are still K).
//! Everything prints as Markdown tables, with the command, the date, the
//! commit and the peers' versions; progress goes to standard error.

mod eval;
mod peers;
mod rust_peers;
mod wet;

use std::hint::black_box;
use std::io::Write;
use std::path::Path;

use spinneret_encoding::{Policy, Sniffer};
use spinneret_html::ParseOptions;
use spinneret_testdata::cpu_time;
use spinneret_text::{Format, Options, Page, extract_page};

use crate::pipeline_bench::child::spinneret_binary;
use crate::pipeline_bench::input::{Volume, ensure_warc};
use crate::table::{Cell, Column, Table};
use eval::{Counts, EvalPage, EvalSet};
use spinneret_testdata::wcxb;

/// The pages `--quick` takes.
const QUICK_PAGES: usize = 100;

/// What an extractor outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// The article or post alone.
    MainContent,
    /// Everything a browser renders as text.
    WholePage,
    /// No text: the document tree only.
    Tree,
}

impl Kind {
    fn label(self) -> &'static str {
        match self {
            Kind::MainContent => "main content",
            Kind::WholePage => "whole page",
            Kind::Tree => "tree only",
        }
    }
}

/// One of spinneret's in-process kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kernel {
    /// `parse_bytes`: decoding and the tree, no text.
    Tree,
    /// `parse_bytes`, then `Document::visible_text`: the whole page's text
    /// without `extract_page`'s metadata and detected language (what
    /// `spinneret tree --format text` does).
    TreeText,
    /// `parse_bytes`, then `page_type::classify`: what the page type
    /// adds to the tree (one walk, no text).
    TreePageType,
    /// `parse_bytes`, `Document::visible_text`, then
    /// `language::detect` of the text: what language detection adds.
    TreeTextLanguage,
    /// `extract_page`, whole page, plain text.
    WholePage,
    /// `extract_page`, main content, plain text.
    MainContent,
    /// `extract_page`, main content, Markdown (no links).
    MainMarkdown,
}

impl Kernel {
    const ALL: [Kernel; 7] = [
        Kernel::Tree,
        Kernel::TreeText,
        Kernel::TreePageType,
        Kernel::TreeTextLanguage,
        Kernel::WholePage,
        Kernel::MainContent,
        Kernel::MainMarkdown,
    ];

    fn label(self) -> &'static str {
        match self {
            Kernel::Tree => "spinneret tree alone (`spinneret_html::parse_bytes`)",
            Kernel::TreeText => {
                "spinneret tree + visible text (`parse_bytes`, `Document::visible_text`)"
            }
            Kernel::TreePageType => {
                "spinneret tree + page type (`parse_bytes`, `page_type::classify`)"
            }
            Kernel::TreeTextLanguage => {
                "spinneret tree + visible text + language (`parse_bytes`, `visible_text`, `language::detect`)"
            }
            Kernel::WholePage => "spinneret whole-page text (`extract_page`)",
            Kernel::MainContent => "spinneret main content (`extract_page`, `main_content`)",
            Kernel::MainMarkdown => {
                "spinneret main content, Markdown (`extract_page`, `main_content`, `Format::Markdown`)"
            }
        }
    }

    fn kind(self) -> Kind {
        match self {
            Kernel::Tree | Kernel::TreePageType => Kind::Tree,
            Kernel::TreeText | Kernel::TreeTextLanguage | Kernel::WholePage => Kind::WholePage,
            Kernel::MainContent | Kernel::MainMarkdown => Kind::MainContent,
        }
    }

    /// The page's text (empty for [`Kernel::Tree`]).
    fn extract(self, page: &EvalPage) -> String {
        let options = match self {
            Kernel::Tree | Kernel::TreeText | Kernel::TreePageType | Kernel::TreeTextLanguage => {
                // As `extract_page` decodes and parses.
                let sniffer = Sniffer::new(Policy::Crawler).url(&page.url);
                let (doc, _) =
                    spinneret_html::parse_bytes(&page.bytes, &sniffer, &ParseOptions::default());
                return match self {
                    Kernel::TreeText => doc.visible_text(),
                    Kernel::TreeTextLanguage => {
                        let text = doc.visible_text();
                        black_box(spinneret_text::language::detect(&text));
                        text
                    }
                    Kernel::TreePageType => {
                        black_box(spinneret_text::page_type::classify(&doc, Some(&page.url)));
                        String::new()
                    }
                    _ => {
                        black_box(doc.node_count());
                        String::new()
                    }
                };
            }
            Kernel::WholePage => Options::default(),
            Kernel::MainContent => Options {
                main_content: true,
                ..Options::default()
            },
            Kernel::MainMarkdown => Options {
                main_content: true,
                format: Format::Markdown,
                ..Options::default()
            },
        };
        let page = Page {
            url: Some(&page.url),
            ..Page::new(&page.bytes)
        };
        extract_page(&page, &options).text
    }
}

/// One kernel's best pass, and the texts of its first timed pass.
struct Timed {
    kernel: Kernel,
    cpu_s: f64,
    passes: u32,
    texts: Vec<String>,
}

/// A warm-up pass, then `passes` timed passes of `kernel` over the set.
fn time_kernel(kernel: Kernel, set: &EvalSet, passes: u32) -> Timed {
    eprintln!("text: {}…", kernel.label());
    let pass = || -> Vec<String> { set.pages.iter().map(|p| kernel.extract(p)).collect() };
    drop(black_box(pass()));
    let mut best = f64::INFINITY;
    let mut texts = None;
    for _ in 0..passes {
        let start = cpu_time::current_thread();
        let out = black_box(pass());
        let cpu = (cpu_time::current_thread() - start).as_secs_f64();
        best = best.min(cpu);
        if texts.is_none() {
            texts = Some(out);
        }
    }
    Timed {
        kernel,
        cpu_s: best,
        passes,
        texts: texts.unwrap_or_default(),
    }
}

/// Writes `{"url", "text"}` lines, one per page, for `text_peers.py`.
fn write_jsonl(path: &Path, set: &EvalSet, texts: &[String]) -> std::io::Result<()> {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    for (page, text) in set.pages.iter().zip(texts) {
        serde_json::to_writer(
            &mut out,
            &serde_json::json!({"url": page.url, "text": text}),
        )?;
        out.write_all(b"\n")?;
    }
    out.flush()
}

/// How a peer of `text_peers.py` is named in the tables, and what it
/// outputs; `None` for names this benchmark does not know.
fn peer_label(name: &str, version: &str) -> Option<(String, Kind)> {
    let (label, kind) = match name {
        "trafilatura" => (
            format!("trafilatura {version} (`extract`, its defaults)"),
            Kind::MainContent,
        ),
        "trafilatura_fast" => (
            format!("trafilatura {version} (`extract`, `fast=True`)"),
            Kind::MainContent,
        ),
        "resiliparse" => (
            format!("Resiliparse {version} (`extract_plain_text`, `main_content=True`)"),
            Kind::MainContent,
        ),
        "justext" => (
            format!("jusText {version} (all stoplists)"),
            Kind::MainContent,
        ),
        "readability" => (
            format!("readability-lxml {version} (the summary's text)"),
            Kind::MainContent,
        ),
        "readability_html" => (
            format!("readability-lxml {version} (the summary's HTML, as trafilatura scores it)"),
            Kind::MainContent,
        ),
        "spinneret" => (
            "spinneret main content (the same texts, scored by text_peers.py)".to_owned(),
            Kind::MainContent,
        ),
        "html_text" => (
            format!("html-text {version} (`extract_text`)"),
            Kind::WholePage,
        ),
        "inscriptis" => (
            format!("inscriptis {version} (`get_text`)"),
            Kind::WholePage,
        ),
        "resiliparse_full" => (
            format!("Resiliparse {version} (`extract_plain_text`, `main_content=False`)"),
            Kind::WholePage,
        ),
        "spinneret_full" => (
            format!("spinneret {version} Python package (`text`)"),
            Kind::WholePage,
        ),
        _ => return None,
    };
    Some((label, kind))
}

/// The peers in the tables' order; any other the script reports follows.
const PEER_ORDER: [&str; 11] = [
    "spinneret",
    "trafilatura",
    "trafilatura_fast",
    "resiliparse",
    "justext",
    "readability",
    "readability_html",
    "resiliparse_full",
    "html_text",
    "inscriptis",
    "spinneret_full",
];

fn ordered_peers(report: &peers::Report) -> Vec<&peers::Extractor> {
    let mut out: Vec<&peers::Extractor> = PEER_ORDER
        .iter()
        .filter_map(|name| report.get(name))
        .collect();
    out.extend(
        report
            .extractors
            .iter()
            .filter(|e| !PEER_ORDER.contains(&e.name.as_str())),
    );
    out
}

fn label_of(e: &peers::Extractor) -> (String, Kind) {
    peer_label(&e.name, e.version.as_deref().unwrap_or("?"))
        .unwrap_or_else(|| (e.name.clone(), Kind::MainContent))
}

fn quality_row(label: &str, kind: Kind, scored_by: &str, c: Counts, errors: Cell) -> Vec<Cell> {
    vec![
        Cell::text(label),
        Cell::text(kind.label()),
        Cell::text(scored_by),
        Cell::Fixed(c.precision(), 4),
        Cell::Fixed(c.recall(), 4),
        Cell::Fixed(c.f1(), 4),
        Cell::Fixed(c.accuracy(), 4),
        Cell::Count(c.tp),
        Cell::Count(c.fp),
        Cell::Count(c.tn),
        Cell::Count(c.fn_),
        errors,
    ]
}

fn quality_table(set: &EvalSet, ours: &[Timed], report: Option<&peers::Report>) -> Table {
    let mut t = Table::new([
        Column::left(format!("extractor ({} pages)", set.pages.len())),
        Column::left("text"),
        Column::left("scored by"),
        Column::right("precision"),
        Column::right("recall"),
        Column::right("F1"),
        Column::right("accuracy"),
        Column::right("TP"),
        Column::right("FP"),
        Column::right("TN"),
        Column::right("FN"),
        Column::right("errors"),
    ]);
    let mut push_ours = |kernel: Kernel| {
        if let Some(timed) = ours.iter().find(|t| t.kernel == kernel) {
            t.push(quality_row(
                kernel.label(),
                kernel.kind(),
                "this benchmark",
                Counts::of_set(set, &timed.texts),
                Cell::Count(0),
            ));
        }
    };
    push_ours(Kernel::MainContent);
    push_ours(Kernel::MainMarkdown);
    push_ours(Kernel::WholePage);
    push_ours(Kernel::TreeText);
    if let Some(report) = report {
        for e in ordered_peers(report) {
            let (label, kind) = label_of(e);
            let c = Counts {
                tp: e.tp,
                fp: e.fp,
                tn: e.tn,
                fn_: e.fn_,
            };
            t.push(quality_row(
                &label,
                kind,
                "text_peers.py",
                c,
                Cell::Count(e.errors),
            ));
        }
    }
    t
}

fn speed_table(set: &EvalSet, ours: &[Timed], report: Option<&peers::Report>) -> Table {
    let mut t = Table::new([
        Column::left(format!(
            "extractor ({} pages, {:.1} MB)",
            set.pages.len(),
            set.bytes as f64 / 1e6
        )),
        Column::left("text"),
        Column::right("passes"),
        Column::right("CPU s (best pass)"),
        Column::right("pages/CPU-s"),
        Column::right("MB/CPU-s"),
        Column::right("cost / tree alone"),
        Column::right("peer CPU / spinneret CPU"),
    ]);
    let cpu_of = |k: Kernel| ours.iter().find(|t| t.kernel == k).map(|t| t.cpu_s);
    let tree = cpu_of(Kernel::Tree);
    let pages = set.pages.len() as f64;
    let mb = set.bytes as f64 / 1e6;
    let rate = |n: f64, cpu: f64| {
        if cpu > 0.0 {
            Cell::Fixed(n / cpu, 1)
        } else {
            Cell::Missing
        }
    };
    for timed in ours {
        t.push(vec![
            Cell::text(timed.kernel.label()),
            Cell::text(timed.kernel.kind().label()),
            Cell::Count(u64::from(timed.passes)),
            Cell::Fixed(timed.cpu_s, 3),
            rate(pages, timed.cpu_s),
            rate(mb, timed.cpu_s),
            match tree {
                Some(tree) if tree > 0.0 => Cell::Fixed(timed.cpu_s / tree, 2),
                _ => Cell::Missing,
            },
            Cell::Missing,
        ]);
    }
    let Some(report) = report else {
        return t;
    };
    for e in ordered_peers(report) {
        let Some(cpu) = e.cpu_s else {
            continue; // scored, not timed (spinneret's texts from a file)
        };
        let (label, kind) = label_of(e);
        let reference = match kind {
            Kind::WholePage => cpu_of(Kernel::WholePage),
            _ => cpu_of(Kernel::MainContent),
        };
        t.push(vec![
            Cell::text(label),
            Cell::text(kind.label()),
            Cell::Count(e.passes),
            Cell::Fixed(cpu, 3),
            rate(pages, cpu),
            rate(mb, cpu),
            Cell::Missing,
            match reference {
                Some(ours) if ours > 0.0 => Cell::Fixed(cpu / ours, 1),
                _ => Cell::Missing,
            },
        ]);
    }
    t
}

fn wet_table(jobs: &[wet::Job], volume: &Volume) -> Table {
    let mut t = Table::new([
        Column::left("tool"),
        Column::left("text"),
        Column::right("threads"),
        Column::right("wall s"),
        Column::right("CPU s"),
        Column::right("conversion records"),
        Column::right("records/CPU-s"),
        Column::right("MB of HTML/CPU-s"),
        Column::right("MB of HTML/s (wall)"),
        Column::right("output MB"),
        Column::right("peak RSS MB"),
        Column::right("CPU vs spinneret ×1 (same text)"),
    ]);
    let ours_cpu = |main_content: bool| {
        jobs.iter()
            .find(|j| {
                j.label.starts_with("spinneret")
                    && j.main_content == main_content
                    && j.threads == Some(1)
            })
            .and_then(|j| j.result.as_ref().ok())
            .and_then(|m| m.cpu_secs)
    };
    let html_mb = volume.html_bytes as f64 / 1e6;
    for j in jobs {
        let text = if j.main_content {
            Kind::MainContent.label()
        } else {
            Kind::WholePage.label()
        };
        match &j.result {
            Ok(m) => {
                let per_cpu = |n: f64| {
                    m.cpu_secs
                        .filter(|&c| c > 0.0)
                        .map_or(Cell::Missing, |c| Cell::Fixed(n / c, 1))
                };
                t.push(vec![
                    Cell::text(&j.label),
                    Cell::text(text),
                    Cell::count(j.threads.map(|n| n as u64)),
                    Cell::Fixed(m.secs, 2),
                    m.cpu_secs.map_or(Cell::Missing, |c| Cell::Fixed(c, 2)),
                    Cell::count(j.records),
                    j.records.map_or(Cell::Missing, |r| per_cpu(r as f64)),
                    per_cpu(html_mb),
                    Cell::Fixed(html_mb / m.secs.max(1e-9), 1),
                    j.output_bytes
                        .map_or(Cell::Missing, |b| Cell::Fixed(b as f64 / 1e6, 1)),
                    m.rss_kib
                        .map_or(Cell::Missing, |k| Cell::Fixed(k as f64 / 1024.0, 0)),
                    match (m.cpu_secs, ours_cpu(j.main_content)) {
                        (Some(c), Some(o)) if o > 0.0 => Cell::Fixed(c / o, 2),
                        _ => Cell::Missing,
                    },
                ]);
            }
            Err(e) => {
                let mut row = vec![
                    Cell::text(format!("{} (failed: {e})", j.label)),
                    Cell::text(text),
                    Cell::count(j.threads.map(|n| n as u64)),
                ];
                row.extend((0..9).map(|_| Cell::Missing));
                t.push(row);
            }
        }
    }
    t
}

/// The output of a short command, trimmed (empty when it fails).
fn command_output(program: &str, args: &[&str]) -> String {
    std::process::Command::new(program)
        .args(args)
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// A ratio as `12.3×`, or `-`.
fn times(x: Option<f64>) -> String {
    x.map_or("-".to_owned(), |x| format!("{x:.1}×"))
}

/// `spinneret-bench text`.
pub fn run(quick: bool, repeat: Option<u32>) {
    let passes = repeat.unwrap_or(1);
    let limit = quick.then_some(QUICK_PAGES);
    let runs = passes as usize;
    let command: Vec<String> = std::env::args().skip(1).collect();
    let date = command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    let commit = command_output(
        "git",
        &[
            "-C",
            env!("CARGO_MANIFEST_DIR"),
            "describe",
            "--always",
            "--dirty",
        ],
    );

    let set = EvalSet::load(limit);
    eprintln!(
        "text: {} pages, {} bytes, from {}",
        set.pages.len(),
        set.bytes,
        eval::DIR
    );
    let ours: Vec<Timed> = Kernel::ALL
        .into_iter()
        .map(|k| time_kernel(k, &set, passes))
        .collect();

    let env = match peers::env() {
        Ok(env) => Some(env),
        Err(e) => {
            eprintln!("text: no Python peers: {e}");
            None
        }
    };
    let jsonl = crate::scratch_dir().join("text-spinneret-main.jsonl");
    let main_texts = ours
        .iter()
        .find(|t| t.kernel == Kernel::MainContent)
        .map_or(&[][..], |t| &t.texts[..]);
    let report = env.as_ref().and_then(|env| {
        std::fs::create_dir_all(crate::scratch_dir())
            .and_then(|()| write_jsonl(&jsonl, &set, main_texts))
            .map_err(|e| format!("{}: {e}", jsonl.display()))
            .and_then(|()| peers::run(env, passes, limit, &jsonl))
            .inspect_err(|e| eprintln!("text: the peers did not run: {e}"))
            .ok()
    });

    let bin = spinneret_binary();
    let bin = match bin {
        Some(b) if wet::has_text(&b) => Some(b),
        Some(b) => {
            eprintln!(
                "text: {} has no `text` subcommand: build the CLI (cargo build --release -p spinneret-cli)",
                b.display()
            );
            None
        }
        None => {
            eprintln!("text: build the CLI first: cargo build --release -p spinneret-cli");
            None
        }
    };
    let warc = ensure_warc(1);
    let volume = std::fs::read(&warc).map(|data| Volume::of(&data));
    let wet_jobs = wet::jobs(bin.as_deref(), env.as_ref(), &warc, runs.max(1));

    // The report.
    println!("## spinneret-bench text\n");
    println!(
        "`spinneret-bench {}`, {date}, commit {commit}; spinneret: best of {passes} timed pass(es) \
         after a warm-up, this thread's CPU time; Python peers: best of {passes} pass(es), \
         `time.process_time()`{}{}.\n",
        command.join(" "),
        report
            .as_ref()
            .and_then(|r| r.python.as_deref())
            .map_or(String::new(), |v| format!(", Python {v}")),
        if quick {
            " (--quick: the first 100 pages, indicative only)"
        } else {
            ""
        },
    );
    if let Some(r) = &report {
        if r.pages != set.pages.len() as u64 || r.bytes != set.bytes as u64 {
            println!(
                "**The peers read {} pages, {} bytes; this benchmark {} pages, {} bytes: not the same input!**\n",
                r.pages,
                r.bytes,
                set.pages.len(),
                set.bytes
            );
        }
        for (name, why) in &r.skipped {
            println!("- text_peers.py skipped `{name}`: {why}");
        }
        if !r.skipped.is_empty() {
            println!();
        }
    } else {
        println!("**The Python peers did not run** (see standard error).\n");
    }

    println!(
        "### Quality: trafilatura's evaluation set ({}), trafilatura's scoring rule\n",
        eval::DIR
    );
    print!("{}", quality_table(&set, &ours, report.as_ref()).markdown());
    println!();
    println!("### Speed: the same pages, per CPU-second (one thread)\n");
    print!("{}", speed_table(&set, &ours, report.as_ref()).markdown());
    println!();

    // The issue's targets.
    let ours_counts = |k: Kernel| {
        ours.iter()
            .find(|t| t.kernel == k)
            .map(|t| Counts::of_set(&set, &t.texts))
    };
    let ours_cpu = |k: Kernel| ours.iter().find(|t| t.kernel == k).map(|t| t.cpu_s);
    let peer = |name: &str| report.as_ref().and_then(|r| r.get(name));
    let main = ours_counts(Kernel::MainContent).unwrap_or_default();
    println!("Against the issue's targets:\n");
    if let Some(t) = peer("trafilatura") {
        let theirs = Counts {
            tp: t.tp,
            fp: t.fp,
            tn: t.tn,
            fn_: t.fn_,
        };
        println!(
            "- Main-content F1: spinneret {:.4}, trafilatura {:.4} (target: above trafilatura's): {}.",
            main.f1(),
            theirs.f1(),
            if main.f1() > theirs.f1() {
                "met"
            } else {
                "not met"
            }
        );
    }
    let speedup = |name: &str| {
        let theirs = peer(name)?.cpu_s?;
        let ours = ours_cpu(Kernel::MainContent)?;
        (ours > 0.0).then(|| theirs / ours)
    };
    println!(
        "- Main content per CPU-second: {} trafilatura's (target ≥ 50×), {} Resiliparse's (target ≥ 2×).",
        times(speedup("trafilatura")),
        times(speedup("resiliparse"))
    );
    let cost = ours_cpu(Kernel::WholePage)
        .zip(ours_cpu(Kernel::Tree))
        .filter(|&(_, tree)| tree > 0.0)
        .map(|(page, tree)| page / tree);
    println!(
        "- Whole-page text: {} the CPU cost of the tree alone (target ≤ 1.3×).",
        cost.map_or("-".to_owned(), |c| format!("{c:.2}×"))
    );
    if let Some(s) = peer("spinneret") {
        let theirs = Counts {
            tp: s.tp,
            fp: s.fp,
            tn: s.tn,
            fn_: s.fn_,
        };
        println!(
            "- Scoring check: text_peers.py's counts of spinneret's main-content texts are {} this benchmark's.",
            if theirs == main {
                "identical to"
            } else {
                "NOT the same as"
            }
        );
    }
    println!();

    match &volume {
        Ok(v) => println!(
            "### WET: the whole `spinneret text --format wet` against Python (FastWARC + Resiliparse)\n\n\
             {} ({:.1} MB gzip, made by the corpus's make_warc.py): {} HTML records, {:.1} MB of HTML \
             (decoded payloads, as spinneret-warc counts them). Child processes under /usr/bin/time -v, \
             best of {} run(s); CPU = user + system.\n",
            warc.display(),
            std::fs::metadata(&warc).map_or(0.0, |m| m.len() as f64 / 1e6),
            v.pages,
            v.html_bytes as f64 / 1e6,
            runs.max(1),
        ),
        Err(e) => println!("### WET\n\n{}: {e}\n", warc.display()),
    }
    if let Ok(v) = &volume {
        print!("{}", wet_table(&wet_jobs, v).markdown());
        println!();
    }
    if let Some(peer) = wet_jobs.iter().find(|j| j.inner_cpu_s.is_some()) {
        let ours = wet_jobs
            .iter()
            .find(|j| j.label.starts_with("spinneret") && !j.main_content && j.threads == Some(1))
            .and_then(|j| j.result.as_ref().ok())
            .and_then(|m| m.cpu_secs);
        let theirs = peer.result.as_ref().ok().and_then(|m| m.cpu_secs);
        println!(
            "- WET per CPU-second, whole process: spinneret (1 thread) {} wet_peer.py's; the script's \
             own loop (without interpreter start-up and imports) took {:.2} CPU s.",
            times(
                theirs
                    .zip(ours)
                    .filter(|&(_, o)| o > 0.0)
                    .map(|(t, o)| t / o)
            ),
            peer.inner_cpu_s.unwrap_or(0.0),
        );
    }
}

/// `spinneret-bench text kernels [--repeat K]`: spinneret's kernels alone
/// (no peers, no WET) on trafilatura's set, best of K passes (default 3):
/// what whole-page text and main content cost beside the tree alone, and
/// what each step adds.
pub fn run_kernels(repeat: Option<u32>) {
    let passes = repeat.unwrap_or(3);
    let set = EvalSet::load(None);
    let ours: Vec<Timed> = Kernel::ALL
        .into_iter()
        .map(|k| time_kernel(k, &set, passes))
        .collect();
    let date = command_output("date", &["-u", "+%Y-%m-%d %H:%M UTC"]);
    println!(
        "`spinneret-bench text kernels --repeat {passes}`, {date}: best of {passes} passes \
         after a warm-up, this thread's CPU time.\n"
    );
    print!("{}", speed_table(&set, &ours, None).markdown());
}

/// `spinneret-bench text quality [DUMP.jsonl]`: spinneret's main content
/// on both sets, scored in this process, in a second: trafilatura's set
/// by its snippet rule, WCXB dev by its metric, overall and by page
/// type. With `DUMP.jsonl`, one line per WCXB page (`id`, `page_type`,
/// `f1`, `p`, `r`, `text`), for `python/wcxb_peers.py --spinneret-jsonl`
/// and for reading what was kept. The figures a change is judged by while
/// it is made; `spinneret-bench text` is the full run with the peers.
/// Then spinneret beside the Rust peer dom_smoothie, timed
/// ([`rust_peers`]).
pub fn run_quality(dump: Option<&str>) {
    let options = Options {
        main_content: true,
        ..Options::default()
    };
    let set = EvalSet::load(None);
    let texts: Vec<String> = set
        .pages
        .iter()
        .map(|p| {
            let page = Page {
                url: Some(&p.url),
                ..Page::new(&p.bytes)
            };
            extract_page(&page, &options).text
        })
        .collect();
    let c = Counts::of_set(&set, &texts);
    println!(
        "trafilatura set ({} pages): precision {:.4} recall {:.4} F1 {:.4}\n",
        set.pages.len(),
        c.precision(),
        c.recall(),
        c.f1()
    );
    let pages = wcxb::load(None);
    let mut out = dump.map(|path| {
        std::io::BufWriter::new(
            std::fs::File::create(path).unwrap_or_else(|e| panic!("{path}: {e}")),
        )
    });
    let mut scores = Vec::with_capacity(pages.len());
    let mut guessed = Vec::with_capacity(pages.len());
    for p in &pages {
        let page = Page {
            url: (!p.url.is_empty()).then_some(p.url.as_str()),
            ..Page::new(&p.bytes)
        };
        let extraction = extract_page(&page, &options);
        let s = wcxb::Score::of(p, &extraction.text);
        if let Some(w) = &mut out {
            let line = serde_json::json!({
                "id": p.id, "page_type": p.page_type, "guessed": extraction.page_type.as_str(),
                "f1": s.f1, "p": s.p, "r": s.r, "text": extraction.text,
            });
            let _ = writeln!(w, "{line}");
        }
        scores.push(s);
        guessed.push(extraction.page_type);
    }
    // The page-type classifier against WCXB's labels.
    println!("| labelled \\ classified | {} |", wcxb::TYPES.join(" | "));
    println!("| --- |{}", " ---: |".repeat(wcxb::TYPES.len()));
    let mut right = 0;
    for t in wcxb::TYPES {
        let row: Vec<String> = wcxb::TYPES
            .iter()
            .map(|g| {
                let n = pages
                    .iter()
                    .zip(&guessed)
                    .filter(|(p, x)| p.page_type == t && x.as_str() == *g)
                    .count();
                if t == *g {
                    right += n;
                }
                n.to_string()
            })
            .collect();
        println!("| {t} | {} |", row.join(" | "));
    }
    println!(
        "\npage type accuracy: {right} of {} ({:.1} %)\n",
        pages.len(),
        100.0 * right as f64 / pages.len() as f64
    );
    println!("| WCXB dev | pages | P | R | F1 | with | without |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (t, n, s) in wcxb::by_type(&pages, &scores) {
        println!(
            "| {t} | {n} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            s.p, s.r, s.f1, s.with, s.without
        );
    }
    rust_peers::run(&set, &pages, 3);
}
