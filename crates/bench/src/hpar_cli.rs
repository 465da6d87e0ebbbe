//! `spinneret-bench hpar-cli`: what a user sees of parallel parsing — the
//! whole `spinneret tree` process on one large document, `--threads 2`
//! against `--threads 1`, for each output format, and `spinneret text
//! --html` on it (issue 43's whole-process figures).
//!
//! The documents are corpus pages one after another (as `hpar` makes
//! them) of 16, 32 and 64 MB, and well-formed documents of those sizes
//! (`hpar_bench::well_formed_document`, where tree speculation's guess
//! holds), written to the scratch folder; the 64 MB document of pages
//! also of the pages in windows-1251 and in Shift_JIS ([`LEGACY`]). Each
//! run is a child process with its output to `/dev/null`, timed from
//! here (start-up, reading, decoding, parsing, rendering and writing
//! included); `--threads 1` and `--threads 2` alternate, and each keeps
//! its best wall time of the rounds (this machine's noise only adds
//! time), with the CPU time of that run beside it.

use std::ffi::OsStr;
use std::path::Path;

use crate::decode_bench::legacy_document;
use crate::hpar_bench::{made_document, well_formed_document};
use crate::pages::Pages;
use crate::pipeline_bench::child::{run_measured, spinneret_binary};
use crate::table::{Cell, Column, Table};

/// The documents' sizes.
const SIZES_MB: [usize; 3] = [16, 32, 64];

/// The legacy encodings of the largest documents of pages besides UTF-8:
/// the corpus pages in that encoding, repeated
/// (`decode_bench::legacy_document`), which the parse decodes first, in
/// pieces on the pool (`spinneret_encoding::decode_parallel`).
const LEGACY: [&str; 2] = ["windows-1251", "Shift_JIS"];

/// How a document is made.
#[derive(Clone, Copy)]
enum Made {
    /// Corpus pages one after another: all of them in UTF-8, or those in
    /// the encoding labelled.
    Pages(Option<&'static str>),
    /// `hpar_bench::well_formed_document`.
    WellFormed,
}

impl Made {
    fn file_name(self, mb: usize) -> String {
        match self {
            Made::Pages(None) => format!("pages-{mb}mb.html"),
            Made::Pages(Some(label)) => format!("pages-{mb}mb-{}.html", label.to_lowercase()),
            Made::WellFormed => format!("posts-{mb}mb.html"),
        }
    }
}

/// Runs the benchmark: `rounds` alternating rounds per row.
pub fn run(rounds: usize, quick: bool) {
    let Some(bin) = spinneret_binary() else {
        eprintln!("hpar-cli: build the CLI first: cargo build --release -p spinneret-cli");
        return;
    };
    let set = Pages::load();
    let sizes: &[usize] = if quick { &SIZES_MB[..1] } else { &SIZES_MB };
    let dir = crate::scratch_dir();
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("hpar-cli: {}: {e}", dir.display());
        return;
    }
    let mut table = Table::new([
        Column::left("document"),
        Column::left("command"),
        Column::right("--threads 1 s"),
        Column::right("CPU s"),
        Column::right("--threads 2 s"),
        Column::right("CPU s"),
        Column::right("speedup"),
        Column::right("paired"),
    ]);
    let largest = *sizes.last().expect("a size");
    let documents = sizes.iter().flat_map(|&mb| {
        let mut documents = vec![
            (format!("{mb} MB of pages"), mb, Made::Pages(None)),
            (format!("{mb} MB, well-formed"), mb, Made::WellFormed),
        ];
        if mb == largest {
            for label in LEGACY {
                let name = format!("{mb} MB of pages, {label}");
                documents.push((name, mb, Made::Pages(Some(label))));
            }
        }
        documents
    });
    for (name, mb, made) in documents {
        let path = dir.join(made.file_name(mb));
        let doc = match made {
            Made::WellFormed => well_formed_document(mb * 1_000_000).into_bytes(),
            Made::Pages(None) => made_document(&set, mb * 1_000_000).into_bytes(),
            Made::Pages(Some(label)) => match legacy_document(&set, label, mb * 1_000_000) {
                Some((bytes, _)) => bytes,
                None => continue,
            },
        };
        if let Err(e) = std::fs::write(&path, doc) {
            eprintln!("hpar-cli: {}: {e}", path.display());
            return;
        }
        let file = path.display().to_string();
        let commands: [(&str, Vec<&str>); 5] = [
            (
                "tree --format dump",
                vec!["tree", &file, "--format", "dump", "--max-size", "1G"],
            ),
            (
                "tree --format html",
                vec!["tree", &file, "--format", "html", "--max-size", "1G"],
            ),
            (
                "tree --format text",
                vec!["tree", &file, "--format", "text", "--max-size", "1G"],
            ),
            (
                "text --html (whole page, JSON Lines)",
                vec!["text", "--html", &file, "--max-record-size", "1G"],
            ),
            (
                "tree --format dump --tree-speculation",
                vec![
                    "tree",
                    &file,
                    "--format",
                    "dump",
                    "--max-size",
                    "1G",
                    "--tree-speculation",
                ],
            ),
        ];
        for (label, command) in &commands {
            let args = |threads: &'static str| -> Vec<String> {
                let mut args: Vec<String> = command.iter().map(|a| a.to_string()).collect();
                args.extend(["--threads".to_string(), threads.to_string()]);
                args
            };
            let (one, two, paired) = match alternate(&bin, &args("1"), &args("2"), rounds) {
                Ok(runs) => runs,
                Err(e) => {
                    eprintln!("hpar-cli: {e}");
                    continue;
                }
            };
            table.push(vec![
                Cell::text(name.clone()),
                Cell::text(label.to_string()),
                Cell::text(format!("{:.3}", one.0)),
                Cell::text(one.1.map_or("—".into(), |c| format!("{c:.3}"))),
                Cell::text(format!("{:.3}", two.0)),
                Cell::text(two.1.map_or("—".into(), |c| format!("{c:.3}"))),
                Cell::text(format!("{:.2}×", one.0 / two.0)),
                Cell::text(format!("{paired:.2}×")),
            ]);
        }
    }
    println!("## spinneret-bench hpar-cli\n");
    println!(
        "Whole process, output to /dev/null; best wall time of {rounds} alternating rounds, \
         and the CPU time (user + system) of that run; paired: the median, over the rounds, \
         of the round's --threads 1 time over its --threads 2 time.\n"
    );
    print!("{}", table.markdown());
}

/// Runs `a` and `b` alternately `rounds` times: the best wall time of
/// each, with that run's CPU seconds, and the median over the rounds of
/// `a`'s time over `b`'s (two runs back to back meet about the same
/// machine, which on a shared host moves by a factor of two within an
/// hour; the best times may come from different moments).
#[allow(clippy::type_complexity)]
fn alternate(
    bin: &Path,
    a: &[String],
    b: &[String],
    rounds: usize,
) -> Result<((f64, Option<f64>), (f64, Option<f64>), f64), String> {
    let run = |args: &[String]| {
        let args: Vec<&OsStr> = args.iter().map(OsStr::new).collect();
        run_measured(bin, &args, false).map(|m| (m.secs, m.cpu_secs))
    };
    let better = |best: Option<(f64, Option<f64>)>, run: (f64, Option<f64>)| match best {
        Some(b) if b.0 <= run.0 => Some(b),
        _ => Some(run),
    };
    let (mut best_a, mut best_b) = (None, None);
    let mut ratios = Vec::with_capacity(rounds.max(1));
    for _ in 0..rounds.max(1) {
        let (run_a, run_b) = (run(a)?, run(b)?);
        ratios.push(run_a.0 / run_b.0);
        best_a = better(best_a, run_a);
        best_b = better(best_b, run_b);
    }
    ratios.sort_by(f64::total_cmp);
    let paired = ratios[ratios.len() / 2];
    Ok((
        best_a.expect("one round"),
        best_b.expect("one round"),
        paired,
    ))
}
