//! Full-DOM benchmark: every corpus page parsed into a complete tree by
//! spinneret's arena DOM and by its peers — html5ever + RcDom and scraper
//! (ego-tree) in this process and build profile ([`parsers`]), and lexbor
//! through Python's selectolax in a venv ([`python`]) — with each parser's
//! speed, memory and node count in one table.
//!
//! Columns, and how each is measured:
//!
//! - MB/s: input megabytes (10^6 bytes of the pages' UTF-8) per second of
//!   the best pass (see [`crate::timing`]: a warm-up, then at least 3 passes
//!   and 0.5 s). A pass parses every page and drops its DOM before the next.
//!   selectolax times its own passes inside Python the same way.
//! - Ir/B: instructions per input byte come from `callgrind-tree.sh` (not
//!   run here; `—` in this table).
//! - peak heap/B: the bytes the parser holds at its peak while parsing one
//!   page, DOM included, counted by the binary's allocator
//!   ([`crate::alloc_count`]; requested sizes, in an untimed pass of its
//!   own), per input byte: "corpus" is the sum of every page's peak over the
//!   corpus bytes, "worst page" the largest page peak / page bytes (small
//!   pages, whose fixed costs weigh most, usually set it).
//! - B/node: heap bytes the finished DOM keeps (measured after the parse
//!   returns, before the DOM is dropped), summed over pages, over the nodes
//!   summed over pages.
//! - nodes: every node of every page's tree, document nodes included (see
//!   [`parsers`] for what each walk counts).
//! - ratios peer/spinneret: of times, and of bytes per node; above 1 means
//!   spinneret is faster or smaller.
//!
//! selectolax's heap is lexbor's C heap, which the allocator here does not
//! see: `tree.py` reads glibc's bytes in use (`mallinfo2`) before and after
//! each parse instead, which gives its B/node (the heap the parser object
//! holds after the parse, lexbor's pools and selectolax's UTF-8 copy of the
//! text included) but no peak; its notes add how much its passes raised the
//! Python process's peak RSS.
//!
//! The `kernel tree-<parser> pages` entry point makes one untimed pass of
//! one parser (`tree-none` only loads the pages) for `callgrind-tree.sh`.

mod parsers;
mod python;

use std::hint::black_box;

use crate::alloc_count::Counting;
use crate::pages::{MANIFEST, Pages};
use crate::table::{Cell, Column, Table};
use crate::timing::{Plan, Timing, fmt_bytes, measure};

pub use parsers::Parser;

/// What the hidden `kernel tree-<name> pages` subcommand runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Loads the pages and parses nothing: the baseline callgrind subtracts.
    None,
    /// One pass of one parser.
    Parse(Parser),
}

impl Kernel {
    /// The kernel named `tree-<name>`.
    pub fn from_kernel_name(name: &str) -> Option<Kernel> {
        let name = name.strip_prefix("tree-")?;
        if name == "none" {
            return Some(Kernel::None);
        }
        Parser::ALL
            .into_iter()
            .find(|p| p.kernel_name() == name)
            .map(Kernel::Parse)
    }
}

/// One untimed pass of `kernel` (for callgrind): prints the input bytes and
/// the pages parsed, in the callgrind scripts' `items=… ok=…` form.
pub fn run_kernel(kernel: Kernel) {
    let set = Pages::load();
    let parsed = match kernel {
        Kernel::None => black_box(&set.pages).len(),
        Kernel::Parse(parser) => parser.parse_all(&set.pages),
    };
    println!(
        "items={} ok={parsed} pages={} failed=0",
        set.bytes,
        set.pages.len()
    );
}

/// Heap figures of one parser over the corpus.
#[derive(Clone, Copy, Debug, Default)]
struct Memory {
    /// Sum over pages of the peak heap while parsing the page.
    peak_sum: usize,
    /// The largest page peak per page byte, and that page's index.
    worst: (f64, usize),
    /// Sum over pages of the heap the finished DOM keeps.
    live_sum: usize,
    /// Sum over pages of the DOM's nodes.
    nodes: usize,
}

impl Memory {
    /// Bytes the DOMs keep per node.
    fn bytes_per_node(&self) -> f64 {
        self.live_sum as f64 / self.nodes.max(1) as f64
    }
}

/// Parses each page with the allocator counting, keeping the DOM until its
/// heap is read; then counts its nodes (not counted) and drops it.
fn measure_memory(parser: Parser, set: &Pages) -> Memory {
    let mut memory = Memory::default();
    for (i, page) in set.pages.iter().enumerate() {
        let counting = Counting::start();
        let dom = parser.parse(page);
        let usage = counting.usage();
        drop(counting);
        memory.nodes += dom.node_count();
        drop(dom);
        memory.peak_sum += usage.peak;
        memory.live_sum += usage.live;
        if !page.is_empty() {
            let per_byte = usage.peak as f64 / page.len() as f64;
            if per_byte > memory.worst.0 {
                memory.worst = (per_byte, i);
            }
        }
    }
    memory
}

/// One row of the table.
struct Row {
    label: String,
    /// Whether this is spinneret's row, the reference of the ratios.
    reference: bool,
    /// Best pass, ns per input byte.
    ns_per_byte: Option<f64>,
    /// Sum of page peaks per corpus byte, and the largest page peak per
    /// page byte (the Rust parsers).
    peak_per_byte: Option<(f64, f64)>,
    /// Heap the finished DOMs keep per node.
    bytes_per_node: Option<f64>,
    /// Nodes over the corpus.
    nodes: Option<usize>,
    notes: String,
}

/// Times and measures one Rust parser.
fn rust_row(parser: Parser, set: &Pages, plan: Plan) -> Row {
    eprintln!("tree: {}…", parser.label());
    let timing: Timing = measure(plan, set.bytes, || parser.parse_all(&set.pages));
    let memory = measure_memory(parser, set);
    Row {
        label: parser.label().to_owned(),
        reference: parser.is_reference(),
        ns_per_byte: Some(timing.ns_per_item),
        peak_per_byte: Some((memory.peak_sum as f64 / set.bytes as f64, memory.worst.0)),
        bytes_per_node: Some(memory.bytes_per_node()),
        nodes: Some(memory.nodes),
        notes: format!(
            "{} passes; worst page {} ({})",
            timing.reps,
            set.paths[memory.worst.1],
            fmt_bytes(set.pages[memory.worst.1].len())
        ),
    }
}

/// The selectolax row, or a row saying why it was not run.
fn lexbor_row(set: &Pages, plan: Plan) -> Row {
    eprintln!("tree: selectolax (lexbor), in Python…");
    let report = python::env().and_then(|env| python::run(&env, plan));
    match report {
        Ok(r) => {
            let same_text = if r.bytes == set.bytes as u64 && r.pages == set.pages.len() as u64 {
                String::new()
            } else {
                format!(
                    "; READ {} pages, {} bytes (not the same text!)",
                    r.pages, r.bytes
                )
            };
            let held = match (r.dom_heap_bytes, r.dom_heap_min_bytes, r.nodes) {
                (Some(heap), Some(min), Some(nodes)) => {
                    let fixed = min.saturating_mul(r.pages);
                    format!(
                        "; B/node: C heap held after the parse (mallinfo2), {:.2} B per input \
                         byte; {} of it per document up front (the least page's), without \
                         which {:.1} B/node",
                        heap as f64 / set.bytes as f64,
                        fmt_bytes(usize::try_from(min).unwrap_or(usize::MAX)),
                        heap.saturating_sub(fixed) as f64 / nodes.max(1) as f64
                    )
                }
                _ => String::new(),
            };
            Row {
                label: format!("selectolax {} (lexbor)", r.version),
                reference: false,
                ns_per_byte: Some(r.seconds * 1e9 / set.bytes as f64),
                peak_per_byte: None,
                bytes_per_node: r
                    .dom_heap_bytes
                    .zip(r.nodes)
                    .map(|(heap, nodes)| heap as f64 / nodes.max(1) as f64),
                nodes: r.nodes.and_then(|n| usize::try_from(n).ok()),
                notes: format!(
                    "{} passes; peak RSS +{} over the passes{held}; template contents not walked{same_text}",
                    r.passes,
                    fmt_bytes(usize::try_from(r.rss_increase_kib * 1024).unwrap_or(usize::MAX)),
                ),
            }
        }
        Err(e) => Row {
            label: "selectolax (lexbor)".to_owned(),
            reference: false,
            ns_per_byte: None,
            peak_per_byte: None,
            bytes_per_node: None,
            nodes: None,
            notes: format!("not run: {e}"),
        },
    }
}

/// Runs every parser and prints the table, aligned, then in Markdown.
pub fn run(plan: Plan, quick: bool) {
    let how = if quick {
        "--quick: a warm-up and ONE timed pass per parser; numbers are indicative only"
    } else {
        "best pass after a warm-up, repeating for >= 0.5 s and >= 3 passes"
    };
    println!("spinneret-bench tree: a full DOM of every corpus page, input MB/s ({how})");
    let set = Pages::load();
    println!(
        "{MANIFEST}: {} pages, {} ({} bytes of UTF-8; {} pages not valid UTF-8, decoded lossily)",
        set.pages.len(),
        fmt_bytes(set.bytes),
        set.bytes,
        set.lossy
    );

    let mut rows: Vec<Row> = Parser::ALL
        .into_iter()
        .map(|p| rust_row(p, &set, plan))
        .collect();
    rows.push(lexbor_row(&set, plan));

    let table = table(&rows, &set);
    println!();
    print!("{}", table.aligned());
    println!();
    println!(
        "peak heap/B: heap bytes requested at the peak of each page's parse (DOM included) per input \
         byte; corpus = sum of page peaks / corpus bytes, worst page = max of page peak / page bytes. \
         B/node: heap the finished DOMs keep / their nodes. Ir/B: run callgrind-tree.sh."
    );
    println!();
    println!("== markdown for README.md (ratios above 1 mean spinneret is faster or smaller) ==");
    if quick {
        println!("<!-- --quick run: single timed pass, do not publish -->");
    }
    print!("{}", table.markdown());
}

/// The results table; ratios are against the spinneret row (`-` without
/// one).
fn table(rows: &[Row], set: &Pages) -> Table {
    let reference = rows.iter().find(|r| r.reference);
    let ours_ns = reference.and_then(|r| r.ns_per_byte);
    let ours_node = reference.and_then(|r| r.bytes_per_node);
    let mut table = Table::new([
        Column::left(format!(
            "full DOM ({} pages, {})",
            set.pages.len(),
            fmt_bytes(set.bytes)
        )),
        Column::right("MB/s"),
        Column::right("Ir/B"),
        Column::right("peak heap/B (corpus)"),
        Column::right("peak heap/B (worst page)"),
        Column::right("B/node"),
        Column::right("nodes"),
        Column::right("time peer/spinneret"),
        Column::right("B/node peer/spinneret"),
        Column::left("notes"),
    ]);
    let ratio = |other: Option<f64>, ours: Option<f64>| match (other, ours) {
        (Some(other), Some(ours)) => Cell::Ratio { other, ours },
        _ => Cell::Missing,
    };
    for row in rows {
        table.push(vec![
            Cell::text(&row.label),
            row.ns_per_byte
                .map_or(Cell::Missing, |ns| Cell::Fixed(1e3 / ns, 1)),
            Cell::text("—"),
            row.peak_per_byte
                .map_or(Cell::Missing, |(corpus, _)| Cell::Fixed(corpus, 2)),
            row.peak_per_byte
                .map_or(Cell::Missing, |(_, worst)| Cell::Fixed(worst, 1)),
            row.bytes_per_node
                .map_or(Cell::Missing, |b| Cell::Fixed(b, 1)),
            Cell::count(row.nodes.map(|n| n as u64)),
            ratio(row.ns_per_byte, ours_ns),
            ratio(row.bytes_per_node, ours_node),
            Cell::text(&row.notes),
        ]);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernel_names() {
        assert_eq!(
            Kernel::from_kernel_name("tree-scraper"),
            Some(Kernel::Parse(Parser::Scraper))
        );
        assert_eq!(Kernel::from_kernel_name("tree-none"), Some(Kernel::None));
        assert_eq!(Kernel::from_kernel_name("scraper"), None);
    }
}
