//! `spinneret-graph`: host- and domain-level web graphs as Common Crawl
//! builds them, from host pairs to the files it publishes.
//!
//! The pipeline, as cc-webgraph runs it (`../shared/docs/webgraph-wat.md`
//! gives the sources):
//!
//! 1. each page's links give host pairs: its host and each target's, named
//!    by [`surt_host`] (cc-pyspark's `get_surt_host`: lower case, IP
//!    addresses and single labels dropped, IDNA, reversed —
//!    `com.example.www`); the CLI's `graph` makes them from crawl files;
//! 2. [`HostGraphBuilder`] numbers the distinct host names in byte order
//!    and writes the edges sorted numerically, self-loops left out after
//!    numbering (`hostlinks_to_graph.py`), within a memory budget;
//! 3. [`fold_domains`] folds the host graph into the domain graph by the
//!    Public Suffix List (`HostToDomainGraph`);
//! 4. [`files`] reads and writes Common Crawl's text formats
//!    (`vertices.txt.gz`: `id<TAB>name[<TAB>hosts]`, `edges.txt.gz`:
//!    `from<TAB>to`);
//! 5. with the `webgraph` feature, `ranks` compresses the graph and its
//!    transpose into BVGraph files Java WebGraph reads and computes
//!    PageRank and harmonic centrality (webgraph-rs), and writes the ranks
//!    file.
//!
//! Where spinneret's browser-exact URL parsing finds a different host than
//! Python's `urlparse` would (`http:/example.com`, a backslash, a tab in
//! the host), spinneret's stands: the hosts are those a browser would
//! connect to.
//!
//! Errors are [`GraphError`]; nothing here panics on any input.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod build;
mod domain;
pub mod files;
mod host;
#[cfg(feature = "webgraph")]
pub mod ranks;

pub use build::{BuildOptions, BuildStats, HostGraphBuilder};
pub use domain::{Aggregation, DomainOptions, FoldStats, domain_of, fold_domains};
pub use host::{
    SurtHostOptions, has_iana_tld, names_a_web_host, surt_host, surt_host_into, url_surt_host,
};

/// What can go wrong building a graph.
#[derive(Debug, thiserror::Error)]
pub enum GraphError {
    /// A host name that [`surt_host`] could not have made (a tab, a
    /// newline, upper case, a byte outside `[a-z0-9._-]`).
    #[error("not a reversed host name: {0:?}")]
    HostName(String),
    /// The external sort failed (its temporary files).
    #[error("sort: {0}")]
    Sort(#[from] spinneret_index::sort::SortError),
    /// Writing the output failed.
    #[error("output: {0}")]
    Output(#[source] std::io::Error),
    /// Reading an input or a temporary file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// A vertex file out of order (ids not 0..n−1, names not strictly
    /// increasing).
    #[error("vertices out of order: {0}")]
    VertexOrder(String),
    /// Edges not strictly increasing, or an end that is not a vertex.
    #[error("edges out of order: {0}")]
    EdgeOrder(String),
    /// webgraph-rs failed (compressing, ranking).
    #[error("webgraph: {0}")]
    WebGraph(String),
    /// A line of a vertex or edge file that is not `id<TAB>…`.
    #[error("{file}: line {line}: {what}")]
    Format {
        /// The file.
        file: String,
        /// Its 1-based line number.
        line: u64,
        /// What is wrong.
        what: String,
    },
}
