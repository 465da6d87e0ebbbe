//! `spinneret-bench index`: indexing and verifying WARC files, whole
//! process, against the tools archivists use — cdxj-indexer (pywb's
//! indexer), `warcio index`, FastWARC's `index` (the Rust FastWARC behind
//! its Python package), and for verification `warcio check` and FastWARC's
//! `check` — on the same inputs in the same run: the benchmark WARC
//! (`make_warc.py`, the corpus's pages, `--repeat K` copies) and the
//! corpus's real WARC/ARC files.
//!
//! Each row is the best of a few runs of a child process under
//! `/usr/bin/time -v`: wall seconds, CPU seconds (user + system, what
//! "per CPU-second" divides by), peak RSS. Records are counted once, by
//! spinneret's reader (every record of the input, the denominator of
//! every rate); MB are the input's bytes on disk. The ratio column is the
//! peer's CPU time over spinneret's (one thread) on the same job.
//!
//! `spinneret-bench index-memory --repeat K`: peak RSS of `spinneret
//! index --memory 64M` over the benchmark WARC repeated K times (K = 120
//! gives about 5 GB), to show the sort's memory stays bounded whatever the
//! input size.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

use crate::pipeline_bench::child::{Measured, run_measured_exit, spinneret_binary};
use crate::pipeline_bench::input::{ensure_made, ensure_warc};
use crate::python_env::{PythonEnv, Requirement};
use crate::table::{Cell, Column, Table};

const PEERS: [Requirement; 3] = [
    Requirement {
        module: "cdxj_indexer",
        package: "cdxj-indexer",
    },
    Requirement {
        module: "warcio",
        package: "warcio",
    },
    Requirement {
        module: "fastwarc",
        package: "fastwarc",
    },
];

/// One measured job.
struct Job {
    tool: String,
    task: &'static str,
    threads: Option<usize>,
    result: Result<Measured, String>,
}

/// Records and bytes of the inputs, as spinneret's reader counts them.
fn volume(inputs: &[PathBuf]) -> (u64, u64) {
    let mut records = 0u64;
    let mut bytes = 0u64;
    for p in inputs {
        let Ok(file) = std::fs::File::open(p) else {
            continue;
        };
        bytes += file.metadata().map(|m| m.len()).unwrap_or(0);
        let opts = spinneret_warc::Options {
            content: spinneret_warc::Content::Head(1 << 10),
            ..spinneret_warc::Options::default()
        };
        records += spinneret_warc::Reader::from_read(file, opts)
            .filter(Result::is_ok)
            .count() as u64;
    }
    (records, bytes)
}

/// The floor of a check: every record's block read (inflated) and hashed
/// with SHA-1, on this thread; the best of `runs` passes, in seconds.
fn read_and_hash(inputs: &[PathBuf], runs: usize) -> f64 {
    use sha1::{Digest, Sha1};
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let start = std::time::Instant::now();
        let mut n = 0u8;
        for p in inputs {
            let Ok(file) = std::fs::File::open(p) else {
                continue;
            };
            let opts = spinneret_warc::Options {
                content: spinneret_warc::Content::Block,
                max_record_size: 1 << 30,
                ..spinneret_warc::Options::default()
            };
            for rec in spinneret_warc::Reader::from_read(file, opts).flatten() {
                n ^= Sha1::digest(&rec.block[..])[0];
            }
        }
        std::hint::black_box(n);
        best = best.min(start.elapsed().as_secs_f64());
    }
    best
}

/// The best (least CPU, least wall) of `runs` runs.
fn best(
    runs: usize,
    mut once: impl FnMut() -> Result<Measured, String>,
) -> Result<Measured, String> {
    let mut best: Option<Measured> = None;
    for _ in 0..runs {
        let m = once()?;
        best = Some(match best {
            None => m,
            Some(b) => Measured {
                secs: b.secs.min(m.secs),
                stdout: String::new(),
                rss_kib: b.rss_kib.max(m.rss_kib),
                cpu_secs: match (b.cpu_secs, m.cpu_secs) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                },
            },
        });
    }
    best.ok_or_else(|| "no run".to_owned())
}

fn os<'a>(args: &[&'a str]) -> Vec<&'a OsStr> {
    args.iter().map(|a| OsStr::new(*a)).collect()
}

/// Runs every job over `inputs` (`runs` times each).
fn jobs(bin: &Path, env: Option<&PythonEnv>, inputs: &[PathBuf], runs: usize) -> Vec<Job> {
    let files: Vec<&OsStr> = inputs.iter().map(|p| p.as_os_str()).collect();
    let mut out = Vec::new();
    for (task, sub, extra) in [
        ("index (CDXJ, sorted)", "index", &[][..]),
        ("index (CDXJ, unsorted)", "index", &["--no-sort"][..]),
        ("index --skim (CDXJ, sorted)", "index", &["--skim"][..]),
        (
            "index --skim (CDXJ, unsorted)",
            "index",
            &["--skim", "--no-sort"][..],
        ),
        ("check", "check", &["--quiet"][..]),
    ] {
        for threads in [1usize, 2] {
            let t = threads.to_string();
            let mut args = os(&[sub, "--threads", &t]);
            args.extend(os(extra));
            args.extend(&files);
            // 1: damage reported (index) or a failed verdict (check).
            let result = best(runs, || run_measured_exit(bin, &args, false, &[0, 1]));
            out.push(Job {
                tool: "spinneret".to_owned(),
                task,
                threads: Some(threads),
                result,
            });
        }
    }
    let Some(env) = env else {
        return out;
    };
    let python = env.python();
    let bin_dir = python.parent().unwrap_or(Path::new("."));
    let peer = |module_args: &[&str]| -> Result<Measured, String> {
        let mut args = os(module_args);
        args.extend(&files);
        run_measured_exit(python, &args, false, &[0, 1])
    };
    let fastwarc = bin_dir.join("fastwarc");
    let fast = |sub: &str, extra: &[&str]| -> Result<Measured, String> {
        let mut args = os(&[sub]);
        args.extend(os(extra));
        args.extend(&files);
        run_measured_exit(&fastwarc, &args, false, &[0, 1])
    };
    // FastWARC's `check` takes one file: a loop of it over the inputs (its
    // start-up per file is its real cost there), with `-p` to verify
    // payload digests as spinneret does (by default it checks block digests
    // only, which the benchmark WARC does not carry).
    let fast_check = || -> Result<Measured, String> {
        let script = format!(
            "for f; do {} check -q -p \"$f\" || test $? = 1 || exit 2; done",
            fastwarc.display()
        );
        let mut args = os(&["-c", &script, "sh"]);
        args.extend(&files);
        run_measured_exit(Path::new("/bin/sh"), &args, false, &[0])
    };
    let mut push = |tool: &str, task: &'static str, result| {
        out.push(Job {
            tool: tool.to_owned(),
            task,
            threads: Some(1),
            result,
        });
    };
    push(
        "cdxj-indexer -s",
        "index (CDXJ, sorted)",
        best(runs, || peer(&["-m", "cdxj_indexer.main", "-s"])),
    );
    push(
        "cdxj-indexer",
        "index (CDXJ, unsorted)",
        best(runs, || peer(&["-m", "cdxj_indexer.main"])),
    );
    push(
        "warcio index",
        "index (CDXJ, unsorted)",
        best(runs, || {
            peer(&[
                "-m",
                "warcio.cli",
                "index",
                "-f",
                "warc-target-uri,mime,http:status,warc-payload-digest,length,offset,filename",
            ])
        }),
    );
    push(
        "fastwarc index",
        "index (CDXJ, unsorted)",
        best(runs, || {
            fast(
                "index",
                &[
                    "-f",
                    "warc-target-uri,http:content-type,http:status,warc-payload-digest,length,offset,filename",
                ],
            )
        }),
    );
    push(
        "warcio check",
        "check",
        best(runs, || peer(&["-m", "warcio.cli", "check"])),
    );
    push("fastwarc check -p", "check", best(runs, fast_check));
    out
}

fn table(title: &str, jobs: &[Job], records: u64, bytes: u64) -> String {
    let mut t = Table::new([
        Column::left("task"),
        Column::left("tool"),
        Column::right("threads"),
        Column::right("wall s"),
        Column::right("CPU s"),
        Column::right("records/CPU-s"),
        Column::right("MB/CPU-s"),
        Column::right("MB/s (wall)"),
        Column::right("peak RSS MB"),
        Column::right("CPU vs spinneret ×1"),
    ]);
    for j in jobs {
        let ours = jobs
            .iter()
            .find(|o| o.tool == "spinneret" && o.task == j.task && o.threads == Some(1))
            .and_then(|o| o.result.as_ref().ok())
            .and_then(|m| m.cpu_secs);
        match &j.result {
            Ok(m) => {
                let cpu = m.cpu_secs;
                let per_cpu = |n: f64| cpu.filter(|&c| c > 0.0).map(|c| n / c);
                t.push(vec![
                    Cell::text(j.task),
                    Cell::text(&j.tool),
                    Cell::count(j.threads.map(|n| n as u64)),
                    Cell::Fixed(m.secs, 2),
                    cpu.map_or(Cell::Missing, |c| Cell::Fixed(c, 2)),
                    per_cpu(records as f64).map_or(Cell::Missing, |v| Cell::Fixed(v, 0)),
                    per_cpu(bytes as f64 / 1e6).map_or(Cell::Missing, |v| Cell::Fixed(v, 1)),
                    Cell::Fixed(bytes as f64 / 1e6 / m.secs.max(1e-9), 1),
                    m.rss_kib
                        .map_or(Cell::Missing, |k| Cell::Fixed(k as f64 / 1024.0, 0)),
                    match (cpu, ours) {
                        (Some(c), Some(o)) if o > 0.0 => Cell::Fixed(c / o, 2),
                        _ => Cell::Missing,
                    },
                ]);
            }
            Err(e) => {
                let mut row = vec![
                    Cell::text(j.task),
                    Cell::text(format!("{} (failed: {e})", j.tool)),
                ];
                row.extend((0..8).map(|_| Cell::Missing));
                t.push(row);
            }
        }
    }
    format!(
        "### {title}\n\n{records} records, {:.1} MB\n\n{}\n",
        bytes as f64 / 1e6,
        t.markdown()
    )
}

/// The corpus's WARC files that every peer reads through: no ARC (FastWARC
/// reads none), and not `pywb/example.warc`, at whose damaged record
/// FastWARC's `index` stops.
fn corpus_files() -> Vec<PathBuf> {
    let root = spinneret_testdata::path("corpus/warc");
    let mut files: Vec<PathBuf> = walk(&root)
        .into_iter()
        .filter(|p| {
            let n = p.file_name().and_then(OsStr::to_str).unwrap_or("");
            [".warc", ".warc.gz"].iter().any(|e| n.ends_with(e)) && n != "example.warc"
        })
        .collect();
    files.sort();
    files
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(walk(&p));
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// `spinneret-bench index`.
pub fn run(quick: bool, repeat: Option<u32>) {
    let Some(bin) = spinneret_binary() else {
        eprintln!("index: build the CLI first: cargo build --release -p spinneret-cli");
        return;
    };
    let env = PythonEnv::open("index").inspect(|e| e.install_missing(&PEERS));
    let env = match env {
        Ok(e) => Some(e),
        Err(e) => {
            eprintln!("index: no Python peers: {e}");
            None
        }
    };
    let runs = if quick { 1 } else { 3 };
    let warc = ensure_warc(repeat.unwrap_or(1));
    let date = std::process::Command::new("date")
        .arg("-u")
        .arg("+%Y-%m-%d %H:%M UTC")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    println!("spinneret-bench index, {date}, best of {runs} runs each\n");
    let cc_like = ensure_cc_like(repeat.unwrap_or(1));
    for (title, inputs) in [
        (
            format!("The benchmark WARC ({})", warc.display()),
            vec![warc.clone()],
        ),
        (
            format!(
                "A WARC laid out as Common Crawl's (request, response, metadata per page; {})",
                cc_like.display()
            ),
            vec![cc_like.clone()],
        ),
        (
            "The corpus's WARC files (no ARC, not pywb/example.warc: see corpus_files)".to_owned(),
            corpus_files(),
        ),
    ] {
        let (records, bytes) = volume(&inputs);
        let jobs = jobs(&bin, env.as_ref(), &inputs, runs);
        println!("{}", table(&title, &jobs, records, bytes));
        println!("{}", skim_ratios(&jobs));
        let floor = read_and_hash(&inputs, runs);
        let check = jobs
            .iter()
            .find(|j| j.tool == "spinneret" && j.task == "check" && j.threads == Some(1))
            .and_then(|j| j.result.as_ref().ok())
            .and_then(|m| m.cpu_secs);
        println!(
            "Floor of check (in process, one thread: every block inflated and SHA-1 hashed): {floor:.3} s; \
             spinneret check --threads 1 CPU: {}; ratio {}\n",
            check.map_or("-".to_owned(), |c| format!("{c:.3} s")),
            check.map_or("-".to_owned(), |c| format!("{:.2}", c / floor)),
        );
    }
}

/// The skim's CPU time against the peers' on the same lines: cdxj-indexer
/// sorted against `--skim`, the unsorted indexers against `--skim
/// --no-sort` (one thread).
fn skim_ratios(jobs: &[Job]) -> String {
    let cpu = |tool: &str, task: &str| {
        jobs.iter()
            .find(|j| j.tool == tool && j.task == task && j.threads == Some(1))
            .and_then(|j| j.result.as_ref().ok())
            .and_then(|m| m.cpu_secs)
    };
    let mut out = String::from("Skim (one thread), peer CPU over ours:");
    for (peer, task, ours) in [
        (
            "cdxj-indexer -s",
            "index (CDXJ, sorted)",
            "index --skim (CDXJ, sorted)",
        ),
        (
            "cdxj-indexer",
            "index (CDXJ, unsorted)",
            "index --skim (CDXJ, unsorted)",
        ),
        (
            "warcio index",
            "index (CDXJ, unsorted)",
            "index --skim (CDXJ, unsorted)",
        ),
        (
            "fastwarc index",
            "index (CDXJ, unsorted)",
            "index --skim (CDXJ, unsorted)",
        ),
        (
            "spinneret",
            "index (CDXJ, sorted)",
            "index --skim (CDXJ, sorted)",
        ),
    ] {
        if let (Some(p), Some(o)) = (cpu(peer, task), cpu("spinneret", ours)) {
            out.push_str(&format!(" {peer} {:.2}x;", p / o));
        }
    }
    out.push('\n');
    out
}

/// The Common Crawl-like WARC (`crates/bench/python/cc_like_warc.py`, the
/// corpus's pages at their real sizes), made once in the scratch folder.
fn ensure_cc_like(repeat: u32) -> PathBuf {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("python/cc_like_warc.py");
    let corpus = spinneret_testdata::path("corpus");
    let corpus = corpus.to_string_lossy();
    ensure_made(
        &format!("cc-like-k{repeat}.warc.gz"),
        &script,
        &["--repeat", &repeat.to_string(), "--corpus", &corpus],
    )
}

/// `spinneret-bench index-memory`: peak RSS of a bounded-memory index of a
/// large WARC.
pub fn run_memory(repeat: Option<u32>) {
    let Some(bin) = spinneret_binary() else {
        eprintln!("index-memory: build the CLI first: cargo build --release -p spinneret-cli");
        return;
    };
    let warc = ensure_warc(repeat.unwrap_or(120));
    let (records, bytes) = volume(std::slice::from_ref(&warc));
    let mut t = Table::new([
        Column::left("command"),
        Column::right("wall s"),
        Column::right("CPU s"),
        Column::right("peak RSS MB"),
    ]);
    for (label, args) in [
        (
            "index --memory 64M --threads 2",
            vec!["index", "--memory", "64M", "--threads", "2"],
        ),
        (
            "index --memory 64M --threads 1",
            vec!["index", "--memory", "64M", "--threads", "1"],
        ),
        (
            "index --no-sort --threads 2",
            vec!["index", "--no-sort", "--threads", "2"],
        ),
    ] {
        let mut a = os(&args);
        a.push(warc.as_os_str());
        match run_measured_exit(&bin, &a, false, &[0]) {
            Ok(m) => t.push(vec![
                Cell::text(label),
                Cell::Fixed(m.secs, 1),
                m.cpu_secs.map_or(Cell::Missing, |c| Cell::Fixed(c, 1)),
                m.rss_kib
                    .map_or(Cell::Missing, |k| Cell::Fixed(k as f64 / 1024.0, 0)),
            ]),
            Err(e) => t.push(vec![
                Cell::text(format!("{label} (failed: {e})")),
                Cell::Missing,
                Cell::Missing,
                Cell::Missing,
            ]),
        }
    }
    println!(
        "### Bounded memory: {} ({records} records, {:.2} GB)\n\n{}",
        warc.display(),
        bytes as f64 / 1e9,
        t.markdown()
    );
}
