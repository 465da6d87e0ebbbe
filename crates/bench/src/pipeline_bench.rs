//! End-to-end benchmark of `spinneret links` (issue 5): WARC bytes in, every
//! link out, against a Python crawler stack and lol_html, in the same run.
//!
//! Input: `make_warc.py OUT --repeat K` over the shared corpus (about 183 MiB
//! of HTML per repetition; default K = 3, about 550 MiB; `--quick`: K = 1),
//! written once to `$TMPDIR/spinneret-bench/pipeline-kK.warc.gz` and reused.
//!
//! Kernels (all read the same gzip WARC from memory or disk, decompress it,
//! and see the same HTML records):
//! - `warc read`: `spinneret-warc` alone (decompression, WARC and HTTP heads,
//!   payload decoding) — the floor under every Rust row.
//! - `spinneret`: `spinneret_cli::pipeline::run` in process, JSON Lines to a
//!   counting sink, `--threads 1` and `--threads 2`. Note that `--threads 1`
//!   still has the producer thread reading the WARC beside the one worker.
//!   Everything spinneret does is included: encoding sniffing and decoding,
//!   tokenizing with the tree-builder simulator, every link rule (srcset,
//!   style `url()`, ping, refresh, headers…), base URL, resolution and
//!   output rendering. The peers do less (see below).
//! - `lol_html`: `spinneret-warc` reads the records; each HTML body goes
//!   through an `HtmlRewriter` (default settings: UTF-8, no sniffing) with
//!   one element content handler per [`TARGETS`] pair and one for
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
//! `/usr/bin/time -v` for the `spinneret` binary (JSON Lines to
//! `/dev/null`) and the Python script (whose CPU time includes interpreter
//! start-up); the in-process rows have neither. Those child processes run
//! as many times as the in-process kernels make passes, and each row shows
//! its least wall time and least CPU time (and largest peak RSS).

use std::borrow::Cow;
use std::cell::RefCell;
use std::hint::black_box;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::Parser;
use lol_html::html_content::Element;
use lol_html::{ElementContentHandlers, HtmlRewriter, Selector, Settings};
use spinneret_cli::args::{Cli, Command as CliCommand};
use spinneret_url::Url;
use spinneret_warc::Reader;

use crate::timing::{self, Plan};

/// The link attributes the peers extract (spinneret extracts these and
/// more). `links.py` receives the same list.
pub const TARGETS: &[(&str, &str)] = &[
    ("a", "href"),
    ("area", "href"),
    ("link", "href"),
    ("img", "src"),
    ("script", "src"),
    ("iframe", "src"),
    ("frame", "src"),
    ("embed", "src"),
    ("source", "src"),
    ("audio", "src"),
    ("video", "src"),
    ("track", "src"),
    ("object", "data"),
    ("form", "action"),
];

/// Default repetitions of the corpus: about 550 MiB of HTML.
pub const DEFAULT_REPEAT: u32 = 3;

/// One line of the results table.
struct Row {
    kernel: String,
    threads: String,
    secs: Option<f64>,
    pages: Option<u64>,
    links: Option<u64>,
    rss_kib: Option<u64>,
    /// User + system CPU seconds (child processes measured with
    /// `/usr/bin/time -v`; none for the in-process rows).
    cpu_secs: Option<f64>,
    note: String,
}

/// What the HTML of the input amounts to, as spinneret counts it.
struct Volume {
    html_bytes: u64,
    pages: u64,
}

/// The benchmarks' scratch folder (generated WARCs, Python venvs).
pub(crate) fn bench_dir() -> PathBuf {
    std::env::temp_dir().join("spinneret-bench")
}

/// The WARC for `repeat`, made by `make_warc.py` unless it exists.
fn ensure_warc(repeat: u32) -> PathBuf {
    let dir = bench_dir();
    std::fs::create_dir_all(&dir).expect("create the bench temp dir");
    let path = dir.join(format!("pipeline-k{repeat}.warc.gz"));
    if path.exists() {
        eprintln!("input: reusing {}", path.display());
        return path;
    }
    let script = spinneret_testdata::path("corpus/make_warc.py");
    let part = dir.join(format!("pipeline-k{repeat}.warc.gz.part"));
    eprintln!("input: making {} (--repeat {repeat})…", path.display());
    let status = Command::new("python3")
        .arg(&script)
        .arg(&part)
        .arg("--repeat")
        .arg(repeat.to_string())
        .stdout(Stdio::null())
        .status()
        .expect("run python3 make_warc.py");
    assert!(status.success(), "make_warc.py failed: {status}");
    std::fs::rename(&part, &path).expect("rename the WARC into place");
    path
}

fn measure_volume(data: &[u8]) -> Volume {
    let mut v = Volume {
        html_bytes: 0,
        pages: 0,
    };
    for rec in Reader::new(data).flatten() {
        if rec.is_html()
            && rec
                .target_uri
                .as_deref()
                .is_some_and(|u| Url::parse(u).is_ok())
        {
            v.html_bytes += rec.body.len() as u64;
            v.pages += 1;
        }
    }
    v
}

// ---------------------------------------------------------------------------
// Kernels.

#[inline(never)]
fn warc_read(data: &[u8]) -> usize {
    let mut bytes = 0usize;
    for rec in Reader::new(data).flatten() {
        bytes += black_box(&rec.body).len();
    }
    bytes
}

/// Counts the bytes and lines written.
#[derive(Default)]
struct Counting {
    bytes: u64,
}

impl Write for Counting {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn links_args(warc: &Path, threads: usize) -> spinneret_cli::args::LinksArgs {
    let cli = Cli::try_parse_from([
        "spinneret".as_ref(),
        "links".as_ref(),
        warc.as_os_str(),
        "--threads".as_ref(),
        threads.to_string().as_ref(),
    ])
    .expect("valid links arguments");
    match cli.command {
        CliCommand::Links(a) => a,
        other => unreachable!("parsed `links`, got {other:?}"),
    }
}

/// (pages, links) of one in-process run.
fn spinneret_in_process(warc: &Path, threads: usize) -> (u64, u64) {
    let args = links_args(warc, threads);
    let mut out = Counting::default();
    let r = spinneret_cli::pipeline::run(&args, &mut out, &mut io::sink(), false)
        .expect("spinneret links run");
    black_box(out.bytes);
    (r.stats.html_pages, r.stats.links_written)
}

/// (pages, links) of lol_html over every HTML record.
#[inline(never)]
fn lolhtml(data: &[u8], selectors: &[(Selector, &'static str)], base: &Selector) -> (u64, u64) {
    let mut pages = 0u64;
    let mut links = 0u64;
    let raw: RefCell<Vec<String>> = RefCell::new(Vec::new());
    let base_href: RefCell<Option<String>> = RefCell::new(None);
    for rec in Reader::new(data).flatten() {
        if !rec.is_html() {
            continue;
        }
        let Some(page) = rec.target_uri.as_deref().and_then(|u| Url::parse(u).ok()) else {
            continue;
        };
        pages += 1;
        raw.borrow_mut().clear();
        *base_href.borrow_mut() = None;
        let mut settings = Settings::new();
        for (sel, attr) in selectors {
            let raw = &raw;
            let h = ElementContentHandlers::default().element(move |el: &mut Element<'_, '_>| {
                if let Some(v) = el.get_attribute(attr) {
                    raw.borrow_mut().push(v);
                }
                Ok(())
            });
            settings = settings.append_element_content_handler((Cow::Borrowed(sel), h));
        }
        let base_h = ElementContentHandlers::default().element(|el: &mut Element<'_, '_>| {
            let mut b = base_href.borrow_mut();
            if b.is_none() {
                *b = el.get_attribute("href");
            }
            Ok(())
        });
        settings = settings.append_element_content_handler((Cow::Borrowed(base), base_h));
        let mut rewriter = HtmlRewriter::new(settings, |chunk: &[u8]| {
            black_box(chunk);
        });
        if rewriter.write(&rec.body).is_ok() {
            let _ = rewriter.end();
        }
        let base_url = base_href
            .borrow()
            .as_deref()
            .and_then(|b| Url::parse_with_base(b.trim(), &page).ok());
        let base_url = base_url.as_ref().unwrap_or(&page);
        for v in raw.borrow().iter() {
            let _ = black_box(Url::parse_with_base(v, base_url));
            links += 1;
        }
    }
    (pages, links)
}

// ---------------------------------------------------------------------------
// Child processes: the binary and Python, with peak RSS.

/// Runs `cmd` under `/usr/bin/time -v` when present; returns wall seconds,
/// stdout and peak RSS in KiB.
/// What [`run_measured`] saw of one run.
struct Measured {
    /// Wall seconds.
    secs: f64,
    stdout: String,
    /// Peak RSS in KiB.
    rss_kib: Option<u64>,
    /// User + system CPU seconds.
    cpu_secs: Option<f64>,
}

/// Runs `program` under `/usr/bin/time -v` (when present). With
/// `keep_stdout` false the output goes to `/dev/null` (as with `> file` on
/// a fast disk) instead of being collected here, where growing a buffer of
/// hundreds of MB would be timed as if the program were slow.
fn run_measured(
    program: &Path,
    args: &[&std::ffi::OsStr],
    keep_stdout: bool,
) -> Result<Measured, String> {
    let gnu_time = Path::new("/usr/bin/time");
    let mut cmd = if gnu_time.exists() {
        let mut c = Command::new(gnu_time);
        c.arg("-v").arg(program);
        c
    } else {
        Command::new(program)
    };
    cmd.args(args).stdin(Stdio::null());
    if !keep_stdout {
        cmd.stdout(Stdio::null());
    }
    let start = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", program.display()))?;
    let secs = start.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = stderr.lines().rev().take(3).collect();
        return Err(format!(
            "{}: {} ({})",
            program.display(),
            out.status,
            tail.join(" | ")
        ));
    }
    let field = |name: &str| {
        stderr
            .lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(str::trim)
    };
    let rss_kib = field("Maximum resident set size (kbytes):").and_then(|v| v.parse().ok());
    let cpu_secs = match (
        field("User time (seconds):").and_then(|v| v.parse::<f64>().ok()),
        field("System time (seconds):").and_then(|v| v.parse::<f64>().ok()),
    ) {
        (Some(u), Some(s)) => Some(u + s),
        _ => None,
    };
    Ok(Measured {
        secs,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        rss_kib,
        cpu_secs,
    })
}

/// The built `spinneret` binary next to this one.
fn spinneret_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.parent()?.join("spinneret");
    p.exists().then_some(p)
}

/// The venv's python with fastwarc and an HTML parser, or why not.
fn python_env() -> Result<PathBuf, String> {
    use crate::python_venv::{has, pip_install};
    let py = crate::python_venv::python("venv")?;
    if !has(&py, "fastwarc, resiliparse, selectolax")
        && !pip_install(&py, &["fastwarc", "resiliparse", "selectolax"])
    {
        // Each on its own: whatever installs.
        for p in ["fastwarc", "resiliparse", "selectolax"] {
            pip_install(&py, &[p]);
        }
    }
    if !has(&py, "fastwarc") {
        return Err("fastwarc could not be installed from PyPI".into());
    }
    if !has(&py, "selectolax") && !has(&py, "resiliparse") {
        return Err("neither selectolax nor resiliparse could be installed".into());
    }
    Ok(py)
}

fn python_row(py: &Path, warc: &Path) -> Result<Row, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/links.py");
    let targets: Vec<String> = TARGETS.iter().map(|(t, a)| format!("{t}:{a}")).collect();
    let targets = targets.join(",");
    let run = run_measured(
        py,
        &[script.as_os_str(), warc.as_os_str(), targets.as_ref()],
        true,
    )?;
    let line = run.stdout.lines().last().unwrap_or_default();
    let field = |name: &str| -> Option<&str> {
        let key = format!("\"{name}\": ");
        let at = line.find(&key)? + key.len();
        let rest = &line[at..];
        let end = rest.find([',', '}']).unwrap_or(rest.len());
        Some(rest[..end].trim().trim_matches('"'))
    };
    let parser = field("parser").unwrap_or("?").to_owned();
    let decoder = field("decoder").unwrap_or("?").to_owned();
    Ok(Row {
        kernel: "python".into(),
        threads: "1".into(),
        secs: field("seconds").and_then(|s| s.parse().ok()),
        pages: field("pages").and_then(|s| s.parse().ok()),
        links: field("links").and_then(|s| s.parse().ok()),
        rss_kib: run.rss_kib,
        cpu_secs: run.cpu_secs,
        note: format!("fastwarc + {decoder} decode + {parser} DOM + urljoin"),
    })
}

/// The best of several runs of one child-process row, as the in-process
/// rows take the best pass: the least wall time and, separately, the least
/// CPU time (this machine's noise only ever adds time: page zeroing in the
/// kernel, other tenants), with the largest peak RSS. The first failure
/// fails the row.
fn best_run(runs: impl Iterator<Item = Result<Row, String>>) -> Result<Row, String> {
    let mut best: Option<Row> = None;
    for run in runs {
        let run = run?;
        best = Some(match best {
            None => run,
            Some(b) => {
                let min = |x: Option<f64>, y: Option<f64>| match (x, y) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                };
                let (cpu_secs, rss_kib) =
                    (min(b.cpu_secs, run.cpu_secs), b.rss_kib.max(run.rss_kib));
                let faster = run.secs.zip(b.secs).is_some_and(|(r, b)| r < b);
                Row {
                    cpu_secs,
                    rss_kib,
                    ..if faster { run } else { b }
                }
            }
        });
    }
    best.ok_or_else(|| "no run".to_string())
}

// ---------------------------------------------------------------------------
// Entry point.

fn best_of(plan: Plan, mut pass: impl FnMut() -> (u64, u64)) -> (f64, u64, u64) {
    let mut last = (0, 0);
    let t = timing::measure(plan, 1, || {
        last = pass();
        last.1 as usize
    });
    (t.ns_per_item / 1e9, last.0, last.1)
}

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
    let warc = ensure_warc(repeat);
    let data = std::fs::read(&warc).expect("read the WARC");
    let vol = measure_volume(&data);
    println!(
        "pipeline: {} (--repeat {repeat}): {} compressed, {} pages, {} of HTML; {} pass(es) per in-process kernel, best shown",
        warc.display(),
        timing::fmt_bytes(data.len()),
        vol.pages,
        timing::fmt_bytes(vol.html_bytes as usize),
        plan.max_reps,
    );

    let mut rows = Vec::new();

    let (secs, _, _) = best_of(plan, || (0, warc_read(&data) as u64));
    rows.push(Row {
        kernel: "warc read (floor)".into(),
        threads: "1".into(),
        secs: Some(secs),
        pages: None,
        links: None,
        rss_kib: None,
        cpu_secs: None,
        note: "spinneret-warc: gunzip, heads, payloads".into(),
    });

    for threads in [1usize, 2] {
        let (secs, pages, links) = best_of(plan, || spinneret_in_process(&warc, threads));
        rows.push(Row {
            kernel: "spinneret".into(),
            threads: threads.to_string(),
            secs: Some(secs),
            pages: Some(pages),
            links: Some(links),
            rss_kib: None,
            cpu_secs: None,
            note: "in process, JSON Lines to a counting sink".into(),
        });
    }

    match spinneret_binary() {
        Some(bin) => {
            for threads in [1usize, 2] {
                let t = threads.to_string();
                let runs = (0..plan.max_reps).map(|_| {
                    let run = run_measured(
                        &bin,
                        &["links".as_ref(), warc.as_os_str(), "--threads".as_ref(), t.as_ref(), "--stats".as_ref(), "/dev/null".as_ref()],
                        false,
                    )?;
                    Ok(Row {
                        kernel: "spinneret (binary)".into(),
                        threads: t.clone(),
                        secs: Some(run.secs),
                        pages: None,
                        links: None,
                        rss_kib: run.rss_kib,
                        cpu_secs: run.cpu_secs,
                        note: format!(
                            "best of {} runs, wall time incl. start-up, JSON Lines to /dev/null",
                            plan.max_reps
                        ),
                    })
                });
                rows.push(match best_run(runs) {
                    Ok(row) => row,
                    Err(e) => failed_row("spinneret (binary)", &t, e),
                });
            }
        }
        None => rows.push(failed_row(
            "spinneret (binary)",
            "-",
            "target/release/spinneret not found: run `cargo build --release -p spinneret-cli` first".into(),
        )),
    }

    let selectors: Vec<(Selector, &'static str)> = TARGETS
        .iter()
        .map(|(t, a)| (format!("{t}[{a}]").parse().expect("a valid selector"), *a))
        .collect();
    let base: Selector = "base[href]".parse().expect("a valid selector");
    let (secs, pages, links) = best_of(plan, || lolhtml(&data, &selectors, &base));
    rows.push(Row {
        kernel: "lol_html".into(),
        threads: "1".into(),
        secs: Some(secs),
        pages: Some(pages),
        links: Some(links),
        rss_kib: None,
        cpu_secs: None,
        note: format!(
            "{} tag/attr pairs + base, UTF-8, spinneret-url resolution",
            TARGETS.len()
        ),
    });
    drop(data);

    let python =
        python_env().and_then(|py| best_run((0..plan.max_reps).map(|_| python_row(&py, &warc))));
    rows.push(match python {
        Ok(mut r) => {
            r.note = format!("{}; best of {} runs", r.note, plan.max_reps);
            r
        }
        Err(e) => failed_row("python", "1", format!("not run: {e}")),
    });

    print_table(&rows, &vol, quick, repeat);
}

fn failed_row(kernel: &str, threads: &str, note: String) -> Row {
    Row {
        kernel: kernel.into(),
        threads: threads.into(),
        secs: None,
        pages: None,
        links: None,
        rss_kib: None,
        cpu_secs: None,
        note,
    }
}

fn print_table(rows: &[Row], vol: &Volume, quick: bool, repeat: u32) {
    let base = rows
        .iter()
        .find(|r| r.kernel == "spinneret" && r.threads == "1")
        .and_then(|r| r.secs);
    let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    let table: Vec<[String; 11]> = rows
        .iter()
        .map(|r| {
            let (mbs, pps, ratio) = match r.secs {
                Some(s) if s > 0.0 => (
                    format!("{:.1}", vol.html_bytes as f64 / 1e6 / s),
                    timing::fmt_rate(vol.pages as f64 / s),
                    base.map_or("-".into(), |b| format!("{:.2}", b / s)),
                ),
                _ => ("-".into(), "-".into(), "-".into()),
            };
            [
                r.kernel.clone(),
                r.threads.clone(),
                r.secs.map_or("-".into(), |s| format!("{s:.2}")),
                mbs,
                pps,
                opt(r.pages),
                opt(r.links),
                r.rss_kib
                    .map_or("-".into(), |k| format!("{:.0} MiB", k as f64 / 1024.0)),
                r.cpu_secs.filter(|&c| c > 0.0).map_or("-".into(), |c| {
                    format!("{:.1}", vol.html_bytes as f64 / 1e6 / c)
                }),
                ratio,
                r.note.clone(),
            ]
        })
        .collect();
    let head = [
        "kernel",
        "threads",
        "s",
        "MB/s",
        "pages/s",
        "pages",
        "links",
        "peak RSS",
        "MB/CPU-s",
        "speed vs 1t",
        "what",
    ];
    let mut widths = head.map(str::len);
    for row in &table {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.chars().count());
        }
    }
    println!();
    let line = |cells: &[&str]| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(widths).enumerate() {
            if i == 0 || i == cells.len() - 1 {
                s += &format!("{c:<w$}  ");
            } else {
                s += &format!("{c:>w$}  ");
            }
        }
        println!("{}", s.trim_end());
    };
    line(&head);
    for row in &table {
        line(&row.each_ref().map(String::as_str));
    }
    println!(
        "\nMB/s and pages/s: {} of HTML in {} pages (as spinneret counts them) / the kernel's time.\n\
         speed vs 1t: spinneret --threads 1 time / the kernel's time (above 1: faster).\n\
         Targets: >= 300 MB/s per core; >= 10x the Python pipeline.",
        timing::fmt_bytes(vol.html_bytes as usize),
        vol.pages
    );
    let rate = |kernel: &str, threads: &str| {
        rows.iter()
            .find(|r| r.kernel == kernel && r.threads == threads)
            .and_then(|r| r.secs)
            .map(|s| vol.html_bytes as f64 / 1e6 / s)
    };
    if let Some(one) = rate("spinneret", "1") {
        println!(
            "  per core (--threads 1): {one:.1} MB/s: {}",
            if one >= 300.0 { "met" } else { "NOT met" }
        );
    }
    // Against the one-process Python pipeline: per worker (the strict
    // reading, since Python could run one process per core), and with both
    // of this machine's cores (the pipeline as one runs each).
    for (kernel, threads, what) in [
        ("spinneret", "1", "--threads 1"),
        ("spinneret", "2", "--threads 2"),
        ("spinneret (binary)", "2", "binary, --threads 2"),
    ] {
        if let (Some(ours), Some(py)) = (rate(kernel, threads), rate("python", "1")) {
            println!(
                "  vs Python ({what}): {:.1}x: {}",
                ours / py,
                if ours >= 10.0 * py { "met" } else { "NOT met" }
            );
        }
    }
    // By CPU time: the in-process --threads 1 row also has the reader thread
    // on the other core, so MB per CPU-second of the binary is the stricter
    // per-core figure (and the fair one against a one-process Python).
    let per_cpu = |kernel: &str, threads: &str| {
        rows.iter()
            .find(|r| r.kernel == kernel && r.threads == threads)
            .and_then(|r| r.cpu_secs)
            .filter(|&c| c > 0.0)
            .map(|c| vol.html_bytes as f64 / 1e6 / c)
    };
    if let Some(one) = per_cpu("spinneret (binary)", "1") {
        println!(
            "  per core by CPU time (binary, --threads 1): {one:.1} MB per CPU-second: {}",
            if one >= 300.0 { "met" } else { "NOT met" }
        );
        if let Some(py) = per_cpu("python", "1") {
            println!(
                "  vs Python by CPU time (binary --threads 1; Python incl. start-up): {:.1}x",
                one / py
            );
        }
    }

    println!(
        "\nMarkdown (README){}:\n",
        if quick {
            " — --quick: one pass, indicative only"
        } else {
            ""
        }
    );
    println!(
        "Input: `make_warc.py --repeat {repeat}` ({} pages, {} of HTML).\n",
        vol.pages,
        timing::fmt_bytes(vol.html_bytes as usize)
    );
    println!(
        "| kernel | threads | MB/s | pages/s | links | peak RSS | MB/CPU-s | vs spinneret 1t |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    for row in &table {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            row[0], row[1], row[3], row[4], row[6], row[7], row[8], row[9]
        );
    }
}
