//! The flags of `spinneret graph`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use spinneret_graph::Aggregation;

use crate::flags::{Threads, parse_size};
use crate::inputs::InputArgs;

/// How hosts fold into domains (`--aggregation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AggregationArg {
    /// The registered domain by the Public Suffix List's ICANN section.
    RegisteredDomain,
    /// The domain by both of the PSL's sections (`github.io` is a suffix).
    PrivateDomain,
    /// The host less a leading `www.`.
    HostWithoutWww,
}

impl From<AggregationArg> for Aggregation {
    fn from(a: AggregationArg) -> Aggregation {
        match a {
            AggregationArg::RegisteredDomain => Aggregation::RegisteredDomain,
            AggregationArg::PrivateDomain => Aggregation::PrivateDomain,
            AggregationArg::HostWithoutWww => Aggregation::HostWithoutWww,
        }
    }
}

/// `spinneret graph`: the host-level web graph of crawl files (or of host
/// pairs), numbered, sorted and written as Common Crawl publishes it, and
/// its domain-level graph.
///
/// Writes into `-o DIR`: `host/vertices.txt.gz` (`id<TAB>reversed host`,
/// in byte order) and `host/edges.txt.gz` (`from<TAB>to`, sorted
/// numerically); the BVGraph `host/graph.{graph,offsets,properties}` and
/// its transpose `host/graph-t.*` (Java WebGraph reads them), `host/ranks.txt.gz`
/// (harmonic centrality and PageRank) and
/// `host/outdegrees-indegrees.txt.gz`; with `--domain`, the same in
/// `domain/`, whose vertices have a third column (hosts per domain).
#[derive(Debug, Clone, Args)]
pub struct GraphArgs {
    /// The crawl files (WARC/ARC, plain, gzip or zstd; folders, `-`, a
    /// manifest).
    #[command(flatten)]
    pub input: InputArgs,

    /// Host pairs instead of (or besides) crawl files, as Common Crawl's
    /// first Spark step (`hostlinks_extract`) writes them: Parquet with
    /// columns `s` and `t` (or `from_host` and `to_host`), or text, plain
    /// or gzip, of `source<TAB>target` reversed host names per line; a
    /// folder is its files (a Spark table's parts: `_SUCCESS`, `.crc` and
    /// hidden files left out). Repeatable; also spelled `--edges` (the
    /// one-machine half of Common Crawl's split: numbering, compression,
    /// ranks).
    #[arg(long, visible_alias = "edges", value_name = "FILE|DIR")]
    pub pairs: Vec<PathBuf>,

    /// The output folder (created; files in it are replaced).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,

    /// Also fold the host graph into the domain graph.
    #[arg(long)]
    pub domain: bool,

    /// How hosts fold into domains.
    #[arg(long, value_enum, default_value_t = AggregationArg::RegisteredDomain)]
    pub aggregation: AggregationArg,

    /// A host the PSL gives no domain (`gov.uk`) is its own domain instead
    /// of being dropped (Common Crawl's setting since 2022).
    #[arg(long)]
    pub multipart_suffixes_as_domains: bool,

    /// Drop a leading `www.` from host names, as Common Crawl's graphs did
    /// until 2025 (since 2026 they keep it, and so does spinneret by
    /// default).
    #[arg(long)]
    pub strip_www: bool,

    /// Keep host names whatever their top-level domain (by default only
    /// those IANA delegates are vertices, as in Common Crawl's graphs).
    #[arg(long)]
    pub any_tld: bool,

    /// Write the text files only: no BVGraph, no ranks (without the
    /// `webgraph` feature, the only way).
    #[arg(long)]
    pub no_ranks: bool,

    /// HyperBall's registers a counter, as a power of two (Common Crawl:
    /// 10 for host graphs, 12 for domain graphs): each harmonic
    /// centrality's relative standard deviation is about 1.04/√(2^N).
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u32).range(4..=18))]
    pub log2m: u32,

    /// PageRank's damping factor.
    #[arg(long, value_name = "ALPHA", default_value_t = 0.85)]
    pub alpha: f64,

    /// The memory the sorts may hold (the vertex table comes on top: the
    /// names' bytes and 8 bytes a host).
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    pub memory: u64,

    /// Where the sorts spill (default: the system's temporary folder).
    #[arg(long, value_name = "DIR")]
    pub temp_dir: Option<PathBuf>,

    /// Write the run's statistics as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// Records larger than this are reported and skipped.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Records per batch handed to the workers.
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,

    /// Stop at the first bad record or unreadable input (exit code 2).
    #[arg(long)]
    pub strict: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<GraphArgs, clap::Error> {
        crate::flags::parse_flags("graph", args)
    }

    #[test]
    fn defaults() {
        let a = parse(&["x.warc.gz", "-o", "out"]).unwrap();
        assert_eq!(a.input.inputs, ["x.warc.gz"]);
        assert_eq!(a.output, PathBuf::from("out"));
        assert_eq!(a.aggregation, AggregationArg::RegisteredDomain);
        assert!(!a.domain && !a.strip_www && !a.any_tld && !a.multipart_suffixes_as_domains);
        assert_eq!(a.memory, 1 << 30);
        assert!(parse(&["x.warc.gz"]).is_err(), "-o is required");
    }
}
