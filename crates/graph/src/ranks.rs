//! The compressed graph and its ranks, as `process_webgraph.sh` makes
//! them with Java WebGraph and LAW, here with webgraph-rs (the Rust
//! implementation by WebGraph's authors, which Common Crawl has said it will
//! move to):
//!
//! - `BASENAME.graph`, `.offsets`, `.properties`: the BVGraph, big-endian
//!   with the default codes, so the properties say `version=0` and Java
//!   WebGraph reads it; `BASENAME-t.*` its transpose;
//! - PageRank (parallel Gauss–Seidel, as LAW's
//!   `PageRankParallelGaussSeidel`), on the transpose, damping
//!   [`RankOptions::alpha`], uniform preference, run until the L1 norm of
//!   the change is below [`RankOptions::threshold`];
//! - harmonic centrality by HyperBall on the transpose (in-links: the
//!   "negative" centrality Common Crawl ranks by), the graph given as its
//!   transpose for systolic iterations, 2^[`RankOptions::log2m`] registers a
//!   counter, from a fixed seed (the same ranks every run);
//! - the ranks file (`JoinSortRanks`): `#harmonicc_pos #harmonicc_val
//!   #pr_pos #pr_val #host_rev` (and `#n_hosts` for domains), positions
//!   1-based by descending value, ties by node id, rows in harmonic order,
//!   values as Java's `Float.toString` and `Double.toString` print them.
//!
//! Memory: both graphs as adjacency vectors (8 bytes an arc each, and a
//! vector a node), PageRank's two doubles a node, HyperBall's two counters
//! a node (2^log2m registers of about 6 bits each).

use std::io::{self, Write};
use std::path::Path;

use dsi_bitstream::prelude::BE;
use dsi_progress_logger::no_logging;
use rand::SeedableRng;
use webgraph::prelude::*;
use webgraph_algo::distances::hyperball::HyperBallBuilder;
use webgraph_algo::rank::pagerank::PageRank;
use webgraph_algo::rank::preds::L1Norm;

use crate::GraphError;

/// How the ranks are computed.
#[derive(Clone, Copy, Debug)]
pub struct RankOptions {
    /// PageRank's damping factor (0.85, LAW's default).
    pub alpha: f64,
    /// PageRank stops when the L1 norm of an iteration's change is below
    /// this.
    pub threshold: f64,
    /// The base-2 logarithm of HyperBall's registers a counter (Common
    /// Crawl: 10 for host graphs, 12 for domain graphs); the relative
    /// standard deviation of each estimate is about 1.04 / √(2^log2m).
    pub log2m: u32,
    /// HyperBall's hash seed.
    pub seed: u64,
}

impl Default for RankOptions {
    fn default() -> Self {
        RankOptions {
            alpha: 0.85,
            threshold: 1e-10,
            log2m: 10,
            seed: 0,
        }
    }
}

/// A graph's ranks and degrees, by node id.
#[derive(Clone, Debug, Default)]
pub struct Ranks {
    /// PageRank (sums to 1).
    pub pagerank: Vec<f64>,
    /// Harmonic centrality (in-links), estimated.
    pub harmonic: Vec<f32>,
    /// In-degrees.
    pub indegree: Vec<u64>,
    /// Out-degrees.
    pub outdegree: Vec<u64>,
}

/// Compresses the graph of `nodes` nodes and `edges` (strictly increasing
/// `(from, to)`, as [`crate::HostGraphBuilder`] writes them) into
/// `basename` and its transpose into `basename-t`, and ranks it.
pub fn compress_and_rank(
    basename: &Path,
    nodes: u64,
    edges: &mut dyn Iterator<Item = Result<(u64, u64), GraphError>>,
    options: &RankOptions,
) -> Result<Ranks, GraphError> {
    let n = usize::try_from(nodes).map_err(|_| too_big(nodes))?;
    let mut graph = VecGraph::empty(n);
    let mut transpose = VecGraph::empty(n);
    let mut last: Option<(u64, u64)> = None;
    for edge in edges {
        let (from, to) = edge?;
        if from >= nodes || to >= nodes || last.is_some_and(|l| l >= (from, to)) {
            return Err(GraphError::EdgeOrder(format!(
                "edge {from}\t{to} after {last:?} in a graph of {nodes} nodes"
            )));
        }
        last = Some((from, to));
        // Sources come in order, so each transpose list grows in order.
        graph.add_arc(from as usize, to as usize);
        transpose.add_arc(to as usize, from as usize);
    }
    BvComp::with_basename(basename)
        .comp_graph::<BE>(&graph)
        .map_err(webgraph_error("compressing the graph"))?;
    let mut t_name = basename.as_os_str().to_owned();
    t_name.push("-t");
    BvComp::with_basename(Path::new(&t_name))
        .comp_graph::<BE>(&transpose)
        .map_err(webgraph_error("compressing the transpose"))?;

    let outdegree = (0..n).map(|v| graph.outdegree(v) as u64).collect();
    let indegree = (0..n).map(|v| transpose.outdegree(v) as u64).collect();

    let mut pagerank = PageRank::new(&transpose);
    pagerank.alpha(options.alpha);
    let threshold = L1Norm::try_from(options.threshold)
        .map_err(|e| GraphError::WebGraph(format!("PageRank threshold: {e}")))?;
    pagerank.run(threshold);
    let pagerank = pagerank.rank().to_vec();

    let dcf = transpose.build_dcf();
    let mut hyperball =
        HyperBallBuilder::with_hyper_log_log(&transpose, Some(&graph), &dcf, options.log2m, None)
            .map_err(webgraph_error("HyperBall"))?
            .sum_of_inverse_distances(true)
            .build(no_logging![]);
    let rng = rand::rngs::SmallRng::seed_from_u64(options.seed);
    hyperball
        .run_until_done(rng, no_logging![])
        .map_err(webgraph_error("HyperBall"))?;
    let harmonic = hyperball
        .harmonic_centralities()
        .map_err(webgraph_error("HyperBall"))?
        .to_vec();
    Ok(Ranks {
        pagerank,
        harmonic,
        indegree,
        outdegree,
    })
}

/// A webgraph-rs error (an `anyhow` chain) as a [`GraphError`].
fn webgraph_error<E: std::fmt::Display>(what: &'static str) -> impl FnOnce(E) -> GraphError {
    move |e| GraphError::WebGraph(format!("{what}: {e:#}"))
}

fn too_big(nodes: u64) -> GraphError {
    GraphError::WebGraph(format!("{nodes} nodes do not fit this machine's addresses"))
}

/// Positions 1.. of the nodes by descending `value`, ties by node id.
fn positions<T: PartialOrd + Copy>(values: &[T]) -> Vec<u64> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| {
        values[b]
            .partial_cmp(&values[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut pos = vec![0u64; values.len()];
    for (i, &v) in order.iter().enumerate() {
        pos[v] = i as u64 + 1;
    }
    pos
}

/// Writes the ranks file: a header, then a row a node in harmonic order;
/// `names` gives each node's reversed name and, for a domain graph, its
/// number of hosts.
pub fn write_ranks(
    out: &mut dyn Write,
    ranks: &Ranks,
    names: &[(String, Option<u64>)],
) -> io::Result<()> {
    let domains = names.first().is_some_and(|(_, n)| n.is_some());
    out.write_all(b"#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev")?;
    out.write_all(if domains { b"\t#n_hosts\n" } else { b"\n" })?;
    let hc_pos = positions(&ranks.harmonic);
    let pr_pos = positions(&ranks.pagerank);
    let mut by_hc: Vec<usize> = (0..names.len()).collect();
    by_hc.sort_by_key(|&v| hc_pos[v]);
    for v in by_hc {
        let (name, hosts) = &names[v];
        write!(
            out,
            "{}\t{}\t{}\t{}\t{}",
            hc_pos[v],
            java_float(ranks.harmonic[v]),
            pr_pos[v],
            java_double(ranks.pagerank[v]),
            name
        )?;
        match hosts {
            Some(n) => writeln!(out, "\t{n}")?,
            None => writeln!(out)?,
        }
    }
    Ok(())
}

/// Writes the degrees file (`#outdegree #indegree #host_rev`), in node
/// order.
pub fn write_degrees(
    out: &mut dyn Write,
    ranks: &Ranks,
    names: &[(String, Option<u64>)],
) -> io::Result<()> {
    out.write_all(b"#outdegree\t#indegree\t#host_rev\n")?;
    for (v, (name, _)) in names.iter().enumerate() {
        writeln!(
            out,
            "{}\t{}\t{}",
            ranks.outdegree[v], ranks.indegree[v], name
        )?;
    }
    Ok(())
}

/// `v` as Java's `Double.toString` prints it (the shortest decimal that
/// reads back, plain between 10⁻³ and 10⁷, else `d.dddE±n`).
pub fn java_double(v: f64) -> String {
    java_layout(
        v.is_nan(),
        v.is_infinite(),
        v.is_sign_negative(),
        v == 0.0,
        &format!("{:e}", v.abs()),
    )
}

/// `v` as Java's `Float.toString` prints it.
pub fn java_float(v: f32) -> String {
    java_layout(
        v.is_nan(),
        v.is_infinite(),
        v.is_sign_negative(),
        v == 0.0,
        &format!("{:e}", v.abs()),
    )
}

/// Java's layout of a shortest decimal given as Rust's `{:e}` (`1.25e-4`).
fn java_layout(nan: bool, infinite: bool, negative: bool, zero: bool, sci: &str) -> String {
    if nan {
        return "NaN".to_owned();
    }
    let sign = if negative { "-" } else { "" };
    if infinite {
        return format!("{sign}Infinity");
    }
    if zero {
        return format!("{sign}0.0");
    }
    let (mantissa, exp) = sci.split_once('e').unwrap_or((sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if (-3..7).contains(&exp) {
        // Plain: the point after digit exp+1 (or zeros before).
        let mut s = String::from(sign);
        if exp < 0 {
            s.push_str("0.");
            for _ in 0..(-exp - 1) {
                s.push('0');
            }
            s.push_str(&digits);
        } else {
            let int_len = exp as usize + 1;
            let padded = format!("{digits:0<int_len$}");
            let (int, frac) = padded.split_at(int_len);
            s.push_str(int);
            s.push('.');
            s.push_str(if frac.is_empty() { "0" } else { frac });
        }
        s
    } else {
        let (first, rest) = digits.split_at(1);
        let rest = if rest.is_empty() { "0" } else { rest };
        format!("{sign}{first}.{rest}E{exp}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_java_prints_them() {
        for (v, java) in [
            (0.0, "0.0"),
            (1.0, "1.0"),
            (123.0, "123.0"),
            (0.012750407517909759, "0.012750407517909759"),
            (0.001, "0.001"),
            (0.0001, "1.0E-4"),
            (1.25e-8, "1.25E-8"),
            (1234567.0, "1234567.0"),
            (1e7, "1.0E7"),
            (24993276.0, "2.4993276E7"),
            (-2.5, "-2.5"),
        ] {
            assert_eq!(java_double(v), java, "{v}");
        }
        assert_eq!(java_float(2.4993276e7), "2.4993276E7");
        assert_eq!(java_float(0.5), "0.5");
        assert_eq!(java_float(3.3333333), "3.3333333");
    }

    #[test]
    fn positions_by_descending_value_ties_by_id() {
        assert_eq!(positions(&[1.0, 3.0, 3.0, 0.5]), [3, 1, 2, 4]);
    }
}
