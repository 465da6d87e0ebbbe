//! End-to-end benchmark of `spinneret links`: WARC bytes in, every link
//! out, against a Python crawler stack and lol_html, in the same run. It
//! answers whether the pipeline meets its targets (at least 300 MB/s of
//! HTML per core, at least 10× the Python pipeline).
//!
//! Input ([`input`]): `make_warc.py OUT --repeat K` over the shared corpus
//! (about 183 MiB of HTML per repetition; default K = 3, about 550 MiB;
//! `--quick`: K = 1), written once to
//! `$TMPDIR/spinneret-bench/pipeline-kK.warc.gz` and reused.
//!
//! Kernels ([`Kernel`]; all read the same gzip WARC from memory or disk,
//! decompress it, and see the same HTML records):
//! - `warc read`: `spinneret-warc` alone (decompression, WARC and HTTP heads,
//!   payload decoding) — the floor under every Rust row.
//! - `spinneret`: `spinneret_cli::pipeline::run` in process, JSON Lines to a
//!   counting sink, `--threads 1` and `--threads 2`. Note that `--threads 1`
//!   still has the producer thread reading the WARC beside the one worker.
//!   Everything spinneret does is included: encoding sniffing and decoding,
//!   tokenizing with the tree-builder simulator, every link rule (srcset,
//!   style `url()`, ping, refresh, headers…), base URL, resolution and
//!   output rendering. The peers do less (see below).
//! - `spinneret (binary)`: the `spinneret` binary built next to this one, as
//!   a child process (see below), `--threads 1` and `--threads 2`.
//! - `lol_html`: `spinneret-warc` reads the records; each HTML body goes
//!   through an `HtmlRewriter` (default settings: UTF-8, no sniffing) with
//!   one element content handler per [`kernels::TARGETS`] pair and one for
//!   `base[href]`; raw values are buffered and resolved at the end with
//!   `spinneret-url` against the first base (as spinneret does), one thread.
//! - `python`: `python/links.py` in a venv under the temp dir (fastwarc,
//!   resiliparse's encoding detection and decoding, selectolax's lexbor DOM,
//!   `urllib.parse.urljoin`), one process, timed by the script around its
//!   loop. If the venv cannot be made the row says why and the run goes on.
//!
//! MB/s and pages/s divide the HTML payload bytes and pages that spinneret
//! sees (decoded payloads of HTML `response`/`resource` records) by each
//! kernel's time, so ratios are time ratios; the `pages` column shows how
//! many pages each kernel itself processed. Peak RSS and CPU time (user +
//! system, shown as MB of HTML per CPU-second) are measured with
//! `/usr/bin/time -v` ([`child`]) for the `spinneret` binary (JSON Lines to
//! `/dev/null`) and the Python script (whose CPU time includes interpreter
//! start-up); the in-process rows have neither. Those child processes run
//! as many times as the in-process kernels make passes, and each row shows
//! its least wall time and least CPU time (and largest peak RSS).
//!
//! Files: [`input`] makes and measures the WARC, [`kernels`] holds the
//! in-process kernels, [`child`] times child processes, [`python`] runs the
//! Python peer, and [`report`] prints the table and the targets.

pub(crate) mod child;
pub(crate) mod input;
mod kernels;
mod python;
mod report;

use std::time::Duration;

use crate::timing::{self, Plan};

/// Default repetitions of the corpus: about 550 MiB of HTML.
pub const DEFAULT_REPEAT: u32 = 3;

/// What a row measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// `spinneret-warc` reading every record: the floor.
    WarcRead,
    /// `spinneret links` in this process.
    Spinneret,
    /// The `spinneret` binary as a child process.
    SpinneretBinary,
    /// lol_html with one handler per link attribute.
    LolHtml,
    /// `python/links.py` as a child process.
    Python,
}

impl Kernel {
    /// The row's name in the table.
    pub fn label(self) -> &'static str {
        match self {
            Kernel::WarcRead => "warc read (floor)",
            Kernel::Spinneret => "spinneret",
            Kernel::SpinneretBinary => "spinneret (binary)",
            Kernel::LolHtml => "lol_html",
            Kernel::Python => "python",
        }
    }
}

/// One line of the results table.
#[derive(Clone, Debug)]
pub struct Row {
    /// What was measured.
    pub kernel: Kernel,
    /// Extraction workers (`--threads`); none when there are none to name
    /// (the binary was not found).
    pub threads: Option<usize>,
    /// Seconds of the best run.
    pub secs: Option<f64>,
    /// HTML pages the kernel itself processed.
    pub pages: Option<u64>,
    /// Links the kernel produced.
    pub links: Option<u64>,
    /// Peak resident set size in KiB (child processes only).
    pub rss_kib: Option<u64>,
    /// User + system CPU seconds (child processes measured with
    /// `/usr/bin/time -v`; none for the in-process rows).
    pub cpu_secs: Option<f64>,
    /// What the kernel does, or why it did not run.
    pub note: String,
}

impl Row {
    /// A row with only its kernel, threads and note.
    fn empty(kernel: Kernel, threads: Option<usize>, note: String) -> Row {
        Row {
            kernel,
            threads,
            secs: None,
            pages: None,
            links: None,
            rss_kib: None,
            cpu_secs: None,
            note,
        }
    }

    /// An in-process row: its best pass's time and counts.
    fn in_process(kernel: Kernel, threads: usize, best: BestPass, note: String) -> Row {
        Row {
            secs: Some(best.secs),
            pages: Some(best.pages),
            links: Some(best.links),
            ..Row::empty(kernel, Some(threads), note)
        }
    }
}

/// The best pass of an in-process kernel, and what its last pass counted.
struct BestPass {
    secs: f64,
    pages: u64,
    links: u64,
}

/// Times `pass`, which returns (pages, links), according to `plan`.
fn best_pass(plan: Plan, mut pass: impl FnMut() -> (u64, u64)) -> BestPass {
    let mut last = (0, 0);
    let t = timing::measure(plan, 1, || {
        last = pass();
        last.1 as usize
    });
    BestPass {
        secs: t.ns_per_item / 1e9,
        pages: last.0,
        links: last.1,
    }
}

/// Runs every kernel on the WARC of `repeat` repetitions (default
/// [`DEFAULT_REPEAT`]; `--quick`: 1) and prints the table.
pub fn run(quick: bool, repeat: Option<u32>) {
    let repeat = repeat.unwrap_or(if quick { 1 } else { DEFAULT_REPEAT });
    // Whole passes take seconds: best of five without a warm-up (the first
    // pass warms the page cache), or one pass with --quick. Every kernel,
    // peers included, gets the same number of tries: on this shared machine
    // slow stretches last seconds, long enough to spoil three passes in a
    // row (the in-process row measured 493 to 656 MB/s across best-of-3
    // runs of one build), and noise only ever adds time.
    let plan = Plan {
        min_total: Duration::ZERO,
        min_reps: if quick { 1 } else { 5 },
        max_reps: if quick { 1 } else { 5 },
        warm_up: false,
    };
    let warc = input::ensure_warc(repeat);
    let data = std::fs::read(&warc).expect("read the WARC");
    let vol = input::Volume::of(&data);
    println!(
        "pipeline: {} (--repeat {repeat}): {} compressed, {} pages, {} of HTML; {} pass(es) per in-process kernel, best shown",
        warc.display(),
        timing::fmt_bytes(data.len()),
        vol.pages,
        timing::fmt_bytes(vol.html_bytes as usize),
        plan.max_reps,
    );

    let mut rows = Vec::new();

    let floor = best_pass(plan, || (0, kernels::warc_read(&data) as u64));
    rows.push(Row {
        secs: Some(floor.secs),
        ..Row::empty(
            Kernel::WarcRead,
            Some(1),
            "spinneret-warc: gunzip, heads, payloads".into(),
        )
    });

    for threads in [1usize, 2] {
        let best = best_pass(plan, || kernels::spinneret_in_process(&warc, threads));
        rows.push(Row::in_process(
            Kernel::Spinneret,
            threads,
            best,
            "in process, JSON Lines to a counting sink".into(),
        ));
    }

    match child::spinneret_binary() {
        Some(bin) => {
            for threads in [1usize, 2] {
                let runs = (0..plan.max_reps).map(|_| child::binary_row(&bin, &warc, threads));
                rows.push(match child::best_run(runs) {
                    Ok(mut row) => {
                        row.note = format!(
                            "best of {} runs, wall time incl. start-up, JSON Lines to /dev/null",
                            plan.max_reps
                        );
                        row
                    }
                    Err(e) => Row::empty(Kernel::SpinneretBinary, Some(threads), e),
                });
            }
        }
        None => rows.push(Row::empty(
            Kernel::SpinneretBinary,
            None,
            "target/release/spinneret not found: run `cargo build --release -p spinneret-cli` first".into(),
        )),
    }

    let selectors = kernels::LolHtmlSelectors::new();
    let best = best_pass(plan, || kernels::lolhtml(&data, &selectors));
    rows.push(Row::in_process(
        Kernel::LolHtml,
        1,
        best,
        format!(
            "{} tag/attr pairs + base, UTF-8, spinneret-url resolution",
            kernels::TARGETS.len()
        ),
    ));
    drop(data);

    let python = python::env()
        .and_then(|env| child::best_run((0..plan.max_reps).map(|_| python::row(&env, &warc))));
    rows.push(match python {
        Ok(mut r) => {
            r.note = format!("{}; best of {} runs", r.note, plan.max_reps);
            r
        }
        Err(e) => Row::empty(Kernel::Python, Some(1), format!("not run: {e}")),
    });

    report::print(&rows, &vol, quick, repeat);
}
