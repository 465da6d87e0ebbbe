//! A scheduling model of tree speculation over many chunks, from the costs
//! the real code measures for each (`spinneret_html::probe_chunk_costs`):
//! the speedups 2, 4, 8 and 16 threads would give, which this machine's
//! two cores cannot show, checked against the real 2-thread run.
//!
//! With `k` threads the document is cut where the real code cuts it
//! (`ParallelOptions::tree_cuts`: one cut with 2 threads, `k - 1` with
//! more). Each chunk `i > 0` is probed from its cut to the next: its tree
//! built to its end, from the guess the real code makes at its cut (the
//! probe's doc says how the chained worker's scan differs).
//! The probe times, on one thread: the sequential parse up
//! to the cut and of the chunk from the true state (`rest`), the worker's
//! guess and build, the comparison and, where the guess holds, the
//! adoption; each the least of three probes.
//!
//! The model, one thread per chunk (chunk 0 on the calling thread, every
//! worker starting at time 0):
//!
//! - the calling thread finishes chunk 0 at `F0 = prefix(c1)`;
//! - worker `i`'s tree is ready at `Ri = scan_i + build_i`, `scan_i` the
//!   scan of the chunk's own tags (the chained code's worker composes its
//!   guess from that scan and the next worker's answer; the probe's
//!   outcome is from the same guess, found by a scan to the input's end);
//! - at cut `i` the calling thread, done with chunk `i - 1` at `F(i-1)`,
//!   adopts chunk `i` when its guess holds — `Fi = max(F(i-1), Ri) +
//!   validate_i + adopt_i` — and else parses it itself: `Fi = F(i-1) +
//!   validate_i + own_i` (no pipelined help);
//! - the parse takes `F(k-1)`, against the sequential parse (the probe
//!   of the last chunk: its prefix and rest). A chunk's own sequential
//!   cost is the parse to its end less the parse to its predecessor's.
//!
//! This is the schedule of the chained code (`tree_chain.rs`): the
//! calling thread settles the chunks in input order, adopting chunk
//! `i - 1` as it settles chunk `i`, and parsing a rejected chunk itself
//! from the state taken over. What it leaves out, each of which the real
//! code pays: a worker's start (a pool thread woken: 0.05–5 ms here), the
//! copy of the input the documents share, the move of a rejected chunk's
//! predecessor's state into the calling thread (a pass over its stack and
//! list of active formatting elements), and memory bandwidth shared by
//! more threads. With `k = 2` it is the real code's one speculated chunk:
//! the check is its speedup beside the measured one, paired against the
//! sequential parse as in `hpar`.

use spinneret_html::{
    ChunkCosts, ParallelOptions, ParseOptions, parse_document, parse_document_parallel,
    probe_chunk_costs,
};

use crate::hpar_bench::{documents, paired_passes};
use crate::pages::Pages;
use crate::table::{Cell, Column, Table};
use crate::timing::Plan;

/// The thread counts modelled.
pub(crate) const THREADS: [usize; 4] = [2, 4, 8, 16];

/// Probes of each chunk; the least time of each step is kept.
const PROBES: usize = 3;

pub fn run(plan: Plan, quick: bool) {
    let set = Pages::load();
    let options = ParseOptions::default();
    let docs: Vec<(String, String)> = documents(&set, quick)
        .into_iter()
        .filter(|(_, doc)| doc.len() >= 1_000_000)
        .collect();
    let mut columns = vec![Column::left("document"), Column::right("bytes")];
    for k in THREADS {
        columns.push(Column::right(format!("{k} threads: adopted")));
        columns.push(Column::right(format!("{k} threads: model")));
    }
    columns.push(Column::right("2 threads measured, paired"));
    let mut table = Table::new(columns);
    for (name, doc) in &docs {
        let mut row = vec![
            Cell::text(name.clone()),
            Cell::text(format!("{:.2} MB", doc.len() as f64 / 1e6)),
        ];
        let tree = ParallelOptions {
            tree_speculation: true,
            tree_speculation_from: 0,
            sequential_below: 0,
            ..ParallelOptions::threads(2)
        };
        for k in THREADS {
            let model = model(doc, k, &options);
            row.push(Cell::text(format!("{}/{}", model.adopted, model.chunks)));
            row.push(Cell::text(format!("{:.2}×", model.speedup())));
        }
        let sequential = || drop(std::hint::black_box(parse_document(doc, &options)));
        let speculating = || {
            drop(std::hint::black_box(parse_document_parallel(
                doc, &options, &tree,
            )))
        };
        let (_, _, paired) = paired_passes(plan, sequential, speculating);
        row.push(Cell::text(format!("{paired:.2}×")));
        table.push(row);
    }
    println!(
        "Tree speculation over k chunks, modelled from each chunk's measured costs \
         (one thread per chunk; see hpar_model.rs):\n\n{}",
        table.markdown()
    );
}

/// A modelled parse: its cost, the sequential one's, the chunks adopted
/// (costs in seconds, or in instructions for `hpar_model_instructions`).
pub(crate) struct Model {
    pub(crate) parallel: f64,
    pub(crate) sequential: f64,
    /// Chunks speculated, and adopted.
    pub(crate) chunks: usize,
    pub(crate) adopted: usize,
}

impl Model {
    pub(crate) fn speedup(&self) -> f64 {
        self.sequential / self.parallel.max(1e-9)
    }
}

/// One chunk's steps as the schedule needs them (the fields of
/// [`ChunkCosts`], in any unit).
pub(crate) struct Steps {
    pub(crate) prefix: f64,
    pub(crate) rest: f64,
    pub(crate) chunk_scan: f64,
    pub(crate) build: f64,
    pub(crate) validate: f64,
    /// Where the chunk's tree is adopted.
    pub(crate) adopt: Option<f64>,
}

impl From<&ChunkCosts> for Steps {
    fn from(c: &ChunkCosts) -> Steps {
        Steps {
            prefix: c.prefix.as_secs_f64(),
            rest: c.rest.as_secs_f64(),
            chunk_scan: c.chunk_scan.as_secs_f64(),
            build: c.build.as_secs_f64(),
            validate: c.validate.as_secs_f64(),
            adopt: c.adopt.map(|a| a.as_secs_f64()),
        }
    }
}

/// Where the real code cuts `doc` for `k` threads, and each chunk's end.
pub(crate) fn chunks_for(doc: &str, k: usize) -> Vec<(usize, usize)> {
    let cuts = ParallelOptions {
        tree_speculation: true,
        tree_speculation_from: 0,
        sequential_below: 0,
        ..ParallelOptions::threads(k)
    }
    .tree_cuts(doc);
    let ends = cuts
        .iter()
        .skip(1)
        .copied()
        .chain(std::iter::once(doc.len()));
    cuts.iter().copied().zip(ends).collect()
}

/// The model (module doc) of `doc` cut into `k` chunks, from their times.
fn model(doc: &str, k: usize, options: &ParseOptions) -> Model {
    let chunks: Vec<Steps> = chunks_for(doc, k)
        .into_iter()
        .filter_map(|(cut, end)| least_costs(doc, cut, end, options))
        .map(|costs| Steps::from(&costs))
        .collect();
    schedule(&chunks)
}

/// The schedule of the module doc over chunks in input order.
pub(crate) fn schedule(chunks: &[Steps]) -> Model {
    let Some(first) = chunks.first() else {
        // No cut: one chunk, the sequential parse.
        return Model {
            parallel: 1.0,
            sequential: 1.0,
            chunks: 0,
            adopted: 0,
        };
    };
    // Chunk i's sequential cost: the parse to its end less the parse to
    // its predecessor's (a prefix parse whose cut fell inside a token
    // runs past the cut: its `rest` alone would miss those bytes).
    let mut done = first.prefix;
    let mut parsed = first.prefix;
    let mut adopted = 0;
    for chunk in chunks {
        let to_end = chunk.prefix + chunk.rest;
        let own = (to_end - parsed).max(0.0);
        parsed = parsed.max(to_end);
        done = match chunk.adopt {
            Some(adopt) => {
                adopted += 1;
                done.max(chunk.chunk_scan + chunk.build) + chunk.validate + adopt
            }
            None => done + chunk.validate + own,
        };
    }
    Model {
        parallel: done,
        sequential: parsed,
        chunks: chunks.len(),
        adopted,
    }
}

/// [`probe_chunk_costs`] [`PROBES`] times: the least time of each step
/// (the outcome does not change between probes).
fn least_costs(input: &str, cut: usize, end: usize, options: &ParseOptions) -> Option<ChunkCosts> {
    let mut least = probe_chunk_costs(input, cut, end, options)?;
    for _ in 1..PROBES {
        let costs = probe_chunk_costs(input, cut, end, options)?;
        least.prefix = least.prefix.min(costs.prefix);
        least.rest = least.rest.min(costs.rest);
        least.guess = least.guess.min(costs.guess);
        least.chunk_scan = least.chunk_scan.min(costs.chunk_scan);
        least.build = least.build.min(costs.build);
        least.validate = least.validate.min(costs.validate);
        least.adopt = least.adopt.zip(costs.adopt).map(|(a, b)| a.min(b));
    }
    Some(least)
}
