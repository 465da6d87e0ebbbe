//! The BVGraph files (with the `webgraph` feature): read back with
//! webgraph-rs they give the edge list exactly, the transpose its
//! reverse; the properties say `version=0` (big-endian, default codes:
//! what Java WebGraph reads); the ranks file has Common Crawl's header and
//! positions.
#![cfg(feature = "webgraph")]

use dsi_bitstream::prelude::BE;
use lender::Lender;
use webgraph::prelude::*;

use spinneret_graph::ranks::{RankOptions, compress_and_rank, write_ranks};

/// xorshift64*: a fixed sequence, no dependency.
fn rng(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

fn arcs_of(basename: &std::path::Path) -> Vec<(usize, usize)> {
    let graph = BvGraphSeq::with_basename(basename)
        .endianness::<BE>()
        .load()
        .unwrap();
    let mut arcs = Vec::new();
    let mut iter = graph.iter();
    while let Some((node, succ)) = iter.next() {
        for s in succ {
            arcs.push((node, s));
        }
    }
    arcs
}

#[test]
fn the_files_read_back_as_the_edges() {
    let mut state = 7u64;
    let n = 3000u64;
    let mut edges: Vec<(u64, u64)> = (0..30_000)
        .map(|_| (rng(&mut state) % n, rng(&mut state) % n))
        .filter(|(a, b)| a != b)
        .collect();
    edges.sort_unstable();
    edges.dedup();
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("graph");
    let ranks = compress_and_rank(
        &base,
        n + 5, // five vertices without arcs at the end
        &mut edges.iter().map(|&e| Ok(e)),
        &RankOptions::default(),
    )
    .unwrap();
    let expected: Vec<(usize, usize)> = edges
        .iter()
        .map(|&(a, b)| (a as usize, b as usize))
        .collect();
    assert_eq!(arcs_of(&base), expected);
    let mut reversed: Vec<(usize, usize)> = expected.iter().map(|&(a, b)| (b, a)).collect();
    reversed.sort_unstable();
    assert_eq!(arcs_of(&dir.path().join("graph-t")), reversed);
    let properties = std::fs::read_to_string(base.with_extension("properties")).unwrap();
    for line in [
        "graphclass=it.unimi.dsi.webgraph.BVGraph",
        "version=0",
        "endianness=big",
        &format!("nodes={}", n + 5),
        &format!("arcs={}", edges.len()),
    ] {
        assert!(
            properties.lines().any(|l| l == line),
            "{line} in {properties}"
        );
    }
    assert!(dir.path().join("graph.offsets").is_file());
    assert_eq!(ranks.pagerank.len() as u64, n + 5);
    let total: f64 = ranks.pagerank.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "PageRank sums to {total}");
    assert_eq!(ranks.indegree.iter().sum::<u64>(), edges.len() as u64);
    assert_eq!(ranks.outdegree.iter().sum::<u64>(), edges.len() as u64);
}

#[test]
fn edges_out_of_order_are_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    for bad in [vec![(1, 0), (0, 1)], vec![(0, 1), (0, 1)], vec![(0, 9)]] {
        let got = compress_and_rank(
            &dir.path().join("g"),
            3,
            &mut bad.iter().map(|&e| Ok(e)),
            &RankOptions::default(),
        );
        assert!(
            matches!(got, Err(spinneret_graph::GraphError::EdgeOrder(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn the_ranks_file_has_common_crawls_header_and_positions() {
    // 0 → 1, 2 → 1, 1 → 3: node 1 has the most in-links.
    let dir = tempfile::tempdir().unwrap();
    let edges = [(0u64, 1u64), (1, 3), (2, 1)];
    let ranks = compress_and_rank(
        &dir.path().join("g"),
        4,
        &mut edges.iter().map(|&e| Ok(e)),
        &RankOptions::default(),
    )
    .unwrap();
    let names: Vec<(String, Option<u64>)> = ["com.a", "com.b", "com.c", "com.d"]
        .iter()
        .map(|n| (n.to_string(), None))
        .collect();
    let mut out = Vec::new();
    write_ranks(&mut out, &ranks, &names).unwrap();
    let text = String::from_utf8(out).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0],
        "#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev"
    );
    assert_eq!(lines.len(), 5);
    // Harmonic: com.d is reached from 1 (1), 0 and 2 (1/2 each) = 2;
    // com.b from 0 and 2 = 2 (HyperBall estimates them); com.a and com.c
    // from none.
    let top: Vec<&str> = lines[1..3]
        .iter()
        .map(|l| l.rsplit('\t').next().unwrap())
        .collect();
    assert!(top.contains(&"com.b") && top.contains(&"com.d"), "{text}");
    for line in &lines[1..3] {
        let value: f64 = line.split('\t').nth(1).unwrap().parse().unwrap();
        assert!((value - 2.0).abs() < 0.1, "{text}");
    }
    // Equal values (0.0) rank by id.
    assert!(
        lines[3].ends_with("\tcom.a") && lines[4].ends_with("\tcom.c"),
        "{text}"
    );
    assert!(
        lines[3].starts_with("3\t0.0\t") && lines[4].starts_with("4\t0.0\t"),
        "{text}"
    );
    let positions: Vec<u64> = lines[1..]
        .iter()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(positions, [1, 2, 3, 4]);
}
