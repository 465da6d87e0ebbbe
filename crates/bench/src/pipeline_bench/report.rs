//! The pipeline benchmark's output: the console table (every column), the
//! targets met or not, and the Markdown table for the README (a subset of
//! the columns).

use super::input::Volume;
use super::{Kernel, Row};
use crate::table::{Cell, Column, Table};
use crate::timing;

/// A column of the pipeline table.
#[derive(Clone, Copy, Debug)]
enum Col {
    Kernel,
    Threads,
    Secs,
    MbPerSec,
    PagesPerSec,
    Pages,
    Links,
    PeakRss,
    MbPerCpuSec,
    /// Time of spinneret in process with one worker / the row's time.
    VsSpinneret1t,
    What,
}

/// The console table's columns and headers.
const CONSOLE: [(Col, &str); 11] = [
    (Col::Kernel, "kernel"),
    (Col::Threads, "threads"),
    (Col::Secs, "s"),
    (Col::MbPerSec, "MB/s"),
    (Col::PagesPerSec, "pages/s"),
    (Col::Pages, "pages"),
    (Col::Links, "links"),
    (Col::PeakRss, "peak RSS"),
    (Col::MbPerCpuSec, "MB/CPU-s"),
    (Col::VsSpinneret1t, "speed vs 1t"),
    (Col::What, "what"),
];

/// The README table's columns and headers.
const README: [(Col, &str); 8] = [
    (Col::Kernel, "kernel"),
    (Col::Threads, "threads"),
    (Col::MbPerSec, "MB/s"),
    (Col::PagesPerSec, "pages/s"),
    (Col::Links, "links"),
    (Col::PeakRss, "peak RSS"),
    (Col::MbPerCpuSec, "MB/CPU-s"),
    (Col::VsSpinneret1t, "vs spinneret 1t"),
];

/// The rows and what they are measured against.
struct Results<'a> {
    rows: &'a [Row],
    vol: &'a Volume,
}

impl Results<'_> {
    /// The row of `kernel` with `threads` workers.
    fn row(&self, kernel: Kernel, threads: usize) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.kernel == kernel && r.threads == Some(threads))
    }

    /// Seconds of spinneret in process with one worker: the reference.
    fn spinneret_1t(&self) -> Option<f64> {
        self.row(Kernel::Spinneret, 1)?.secs
    }

    /// MB of HTML per second of that row's wall time.
    fn rate(&self, kernel: Kernel, threads: usize) -> Option<f64> {
        let secs = self.row(kernel, threads)?.secs?;
        Some(self.vol.mb_per_sec(secs))
    }

    /// MB of HTML per CPU-second of that row.
    fn per_cpu(&self, kernel: Kernel, threads: usize) -> Option<f64> {
        let cpu = self.row(kernel, threads)?.cpu_secs.filter(|&c| c > 0.0)?;
        Some(self.vol.mb_per_sec(cpu))
    }

    fn cell(&self, row: &Row, col: Col) -> Cell {
        let secs = row.secs.filter(|&s| s > 0.0);
        match col {
            Col::Kernel => Cell::text(row.kernel.label()),
            Col::Threads => Cell::count(row.threads.map(|t| t as u64)),
            Col::Secs => row.secs.map_or(Cell::Missing, |s| Cell::Fixed(s, 2)),
            Col::MbPerSec => secs.map_or(Cell::Missing, |s| Cell::Fixed(self.vol.mb_per_sec(s), 1)),
            Col::PagesPerSec => {
                secs.map_or(Cell::Missing, |s| Cell::Rate(self.vol.pages as f64 / s))
            }
            Col::Pages => Cell::count(row.pages),
            Col::Links => Cell::count(row.links),
            Col::PeakRss => row.rss_kib.map_or(Cell::Missing, |k| {
                Cell::Text(format!("{:.0} MiB", k as f64 / 1024.0))
            }),
            Col::MbPerCpuSec => row
                .cpu_secs
                .filter(|&c| c > 0.0)
                .map_or(Cell::Missing, |c| Cell::Fixed(self.vol.mb_per_sec(c), 1)),
            // The reference's time over this row's: above 1 when the row
            // is faster than spinneret with one worker.
            Col::VsSpinneret1t => match (self.spinneret_1t(), secs) {
                (Some(ours), Some(s)) => Cell::Ratio {
                    other: ours,
                    ours: s,
                },
                _ => Cell::Missing,
            },
            Col::What => Cell::text(&row.note),
        }
    }

    fn table(&self, columns: &[(Col, &str)]) -> Table {
        let mut table = Table::new(columns.iter().map(|&(col, header)| match col {
            Col::Kernel | Col::What => Column::left(header),
            _ => Column::right(header),
        }));
        for row in self.rows {
            table.push(
                columns
                    .iter()
                    .map(|&(col, _)| self.cell(row, col))
                    .collect(),
            );
        }
        table
    }
}

fn met(yes: bool) -> &'static str {
    if yes { "met" } else { "NOT met" }
}

/// Prints the console table, the targets, and the README's table.
pub fn print(rows: &[Row], vol: &Volume, quick: bool, repeat: u32) {
    let results = Results { rows, vol };

    println!();
    print!("{}", results.table(&CONSOLE).aligned());
    println!(
        "\nMB/s and pages/s: {} of HTML in {} pages (as spinneret counts them) / the kernel's time.\n\
         speed vs 1t: spinneret --threads 1 time / the kernel's time (above 1: faster).\n\
         Targets: >= 300 MB/s per core; >= 10x the Python pipeline.",
        timing::fmt_bytes(vol.html_bytes as usize),
        vol.pages
    );
    if let Some(one) = results.rate(Kernel::Spinneret, 1) {
        println!(
            "  per core (--threads 1): {one:.1} MB/s: {}",
            met(one >= 300.0)
        );
    }
    // Against the one-process Python pipeline: per worker (the strict
    // reading, since Python could run one process per core), and with both
    // of this machine's cores (the pipeline as one runs each).
    for (kernel, threads, what) in [
        (Kernel::Spinneret, 1, "--threads 1"),
        (Kernel::Spinneret, 2, "--threads 2"),
        (Kernel::SpinneretBinary, 2, "binary, --threads 2"),
    ] {
        if let (Some(ours), Some(py)) = (
            results.rate(kernel, threads),
            results.rate(Kernel::Python, 1),
        ) {
            println!(
                "  vs Python ({what}): {:.1}x: {}",
                ours / py,
                met(ours >= 10.0 * py)
            );
        }
    }
    // By CPU time: the in-process --threads 1 row also has the reader thread
    // on the other core, so MB per CPU-second of the binary is the stricter
    // per-core figure (and the fair one against a one-process Python).
    if let Some(one) = results.per_cpu(Kernel::SpinneretBinary, 1) {
        println!(
            "  per core by CPU time (binary, --threads 1): {one:.1} MB per CPU-second: {}",
            met(one >= 300.0)
        );
        if let Some(py) = results.per_cpu(Kernel::Python, 1) {
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
    print!("{}", results.table(&README).markdown());
}
