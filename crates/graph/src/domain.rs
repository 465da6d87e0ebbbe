//! A domain graph from a host graph, as cc-webgraph's `HostToDomainGraph`
//! folds it: each host goes to the domain the Public Suffix List assigns
//! it (crawler-commons' strict `getAssignedDomain`: the ICANN section by
//! default, the private one too with [`Aggregation::PrivateDomain`]), or
//! to itself less a leading `www.` ([`Aggregation::HostWithoutWww`]); a
//! host with no domain (a public suffix itself) is dropped, or with
//! [`DomainOptions::multipart_suffixes_as_domains`] becomes its own
//! domain (`gov.uk`). Vertices are the domains in strict byte order of
//! their reversed names with the number of hosts each; edges are the host
//! edges mapped to domains, self-loops and repeats dropped, sorted
//! numerically.
//!
//! # Design: no streaming order to get wrong
//!
//! The Java tool streams hosts in order and holds a queue of domains not
//! yet safe to write, since a domain's name can sort after a host that
//! follows its first host (`no.hedmark.os.www` is under `no.hedmark`, and
//! `no.hedmark-trafikk` sorts between them); getting that queue right took
//! three fixes (cc-webgraph #3, #33/#34). Here the distinct domains are
//! collected, then sorted: the order is right by construction. Memory: a
//! domain id per host (8 bytes) and each distinct domain's name and
//! table slot (its length + about 40 bytes); the edges go through an
//! [`ExternalSorter`] within [`DomainOptions::memory`].
//!
//! Invariants: domain names strictly increasing; ids 0..n−1; each domain's
//! host count ≥ 1 and their sum the number of hosts kept; edges strictly
//! increasing, no self-loop.

use std::collections::HashMap;
use std::io;
use std::path::PathBuf;

use spinneret_index::cc_columns::assigned_domain;
use spinneret_index::sort::{ExternalSorter, SortOptions, SortStats};

use crate::GraphError;

/// How hosts are folded into domains (`HostToDomainGraph
/// --aggregation-level`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Aggregation {
    /// The registered domain by the PSL's ICANN section (the default).
    #[default]
    RegisteredDomain,
    /// The domain by both of the PSL's sections (`blogspot.com` and
    /// `github.io` are suffixes).
    PrivateDomain,
    /// The host itself, less a leading `www.` when a dot follows.
    HostWithoutWww,
}

/// How a domain graph is folded.
#[derive(Clone, Debug, Default)]
pub struct DomainOptions {
    /// The folding.
    pub aggregation: Aggregation,
    /// A host the PSL gives no domain (a multi-part public suffix such as
    /// `gov.uk`) is its own domain instead of being dropped
    /// (`--multipart-suffixes-as-domains`, Common Crawl's setting since
    /// 2022).
    pub multipart_suffixes_as_domains: bool,
    /// The memory the edges' sort may hold, in bytes (0: 256 MiB).
    pub memory: usize,
    /// Where the sort's runs go.
    pub temp_dir: Option<PathBuf>,
}

/// What a fold saw and wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FoldStats {
    /// Host vertices read.
    pub hosts: u64,
    /// Hosts with no domain, dropped.
    pub hosts_without_domain: u64,
    /// Domain vertices written.
    pub domains: u64,
    /// Host edges read.
    pub host_edges: u64,
    /// Domain edges written.
    pub edges: u64,
    /// The edges' sort.
    pub edge_sort: SortStats,
}

/// The reversed domain name `options` folds the reversed host name
/// `host` into, or `None` when the host is dropped.
///
/// ```
/// use spinneret_graph::{Aggregation, DomainOptions, domain_of};
/// let icann = DomainOptions::default();
/// assert_eq!(domain_of("uk.co.bbc.www", &icann).as_deref(), Some("uk.co.bbc"));
/// assert_eq!(domain_of("uk.gov", &icann), None);
/// let multipart = DomainOptions { multipart_suffixes_as_domains: true, ..DomainOptions::default() };
/// assert_eq!(domain_of("uk.gov", &multipart).as_deref(), Some("uk.gov"));
/// let www = DomainOptions { aggregation: Aggregation::HostWithoutWww, ..DomainOptions::default() };
/// assert_eq!(domain_of("uk.co.bbc.www", &www).as_deref(), Some("uk.co.bbc"));
/// ```
pub fn domain_of(host: &str, options: &DomainOptions) -> Option<String> {
    let forward = reverse(host);
    let domain = match options.aggregation {
        Aggregation::HostWithoutWww => {
            let bare = match forward.strip_prefix("www.") {
                Some(rest) if rest.contains('.') => rest,
                _ => forward.as_str(),
            };
            return Some(reverse(bare));
        }
        Aggregation::RegisteredDomain => assigned_domain(&forward, false),
        Aggregation::PrivateDomain => assigned_domain(&forward, true),
    };
    match domain {
        Some(d) => Some(reverse(d)),
        None if options.multipart_suffixes_as_domains => Some(host.to_owned()),
        None => None,
    }
}

/// `a.b.c` → `c.b.a` (its own inverse).
fn reverse(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, label) in name.rsplit('.').enumerate() {
        if i > 0 {
            out.push('.');
        }
        out.push_str(label);
    }
    out
}

/// Folds a host graph: `hosts` gives the host vertices (id, reversed
/// name) in id order, ids 0..n−1 and names strictly increasing (as
/// [`crate::HostGraphBuilder`] writes them); `host_edges` the host edges.
/// The domains go to `vertex` (id, reversed name, number of hosts) in id
/// order, then the edges to `edge` in numeric order.
pub fn fold_domains(
    hosts: &mut dyn Iterator<Item = Result<(u64, String), GraphError>>,
    host_edges: &mut dyn Iterator<Item = Result<(u64, u64), GraphError>>,
    options: &DomainOptions,
    vertex: &mut dyn FnMut(u64, &str, u64) -> io::Result<()>,
    edge: &mut dyn FnMut(u64, u64) -> io::Result<()>,
) -> Result<FoldStats, GraphError> {
    let mut stats = FoldStats::default();
    // Each host's domain, by a provisional number (first seen).
    let mut provisional: HashMap<String, u64> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut host_domain: Vec<u64> = Vec::new();
    let mut last: Option<String> = None;
    for item in hosts {
        let (id, name) = item?;
        if id != stats.hosts {
            return Err(GraphError::VertexOrder(format!(
                "host id {id} where {} was due",
                stats.hosts
            )));
        }
        if last.as_deref().is_some_and(|l| l >= name.as_str()) {
            return Err(GraphError::VertexOrder(format!(
                "host {name} after {}",
                last.unwrap_or_default()
            )));
        }
        stats.hosts += 1;
        match domain_of(&name, options) {
            Some(domain) => {
                let next = names.len() as u64;
                let n = *provisional.entry(domain).or_insert_with_key(|d| {
                    names.push(d.clone());
                    next
                });
                host_domain.push(n);
            }
            None => {
                stats.hosts_without_domain += 1;
                host_domain.push(u64::MAX);
            }
        }
        last = Some(name);
    }
    drop(provisional);
    // The domains in byte order: provisional number → final id.
    let mut order: Vec<u64> = (0..names.len() as u64).collect();
    order.sort_unstable_by(|&a, &b| names[a as usize].cmp(&names[b as usize]));
    let mut final_id = vec![0u64; names.len()];
    for (id, &p) in order.iter().enumerate() {
        final_id[p as usize] = id as u64;
    }
    for d in host_domain.iter_mut().filter(|d| **d != u64::MAX) {
        *d = final_id[*d as usize];
    }
    let mut counts = vec![0u64; names.len()];
    for &d in host_domain.iter().filter(|d| **d != u64::MAX) {
        counts[d as usize] += 1;
    }
    for (id, &p) in order.iter().enumerate() {
        vertex(id as u64, &names[p as usize], counts[id]).map_err(GraphError::Output)?;
    }
    stats.domains = names.len() as u64;
    drop(names);

    // The edges, mapped, through a sort of fixed-width hex keys (byte
    // order is numeric order).
    let memory = if options.memory == 0 {
        256 * 1024 * 1024
    } else {
        options.memory
    };
    let mut sorter = ExternalSorter::new(SortOptions {
        memory: memory.max(64 * 1024),
        temp_dir: options.temp_dir.clone(),
    });
    let mut key = [0u8; 33];
    for item in host_edges {
        let (from, to) = item?;
        stats.host_edges += 1;
        let domain = |h: u64| {
            host_domain
                .get(h as usize)
                .copied()
                .filter(|&d| d != u64::MAX)
        };
        let (Some(a), Some(b)) = (domain(from), domain(to)) else {
            continue;
        };
        if a == b {
            continue;
        }
        hex_key(&mut key, a, b);
        sorter.push(&key).map_err(GraphError::Sort)?;
    }
    let mut last = None;
    let mut edges = 0u64;
    stats.edge_sort = sorter
        .finish(&mut |line| {
            let pair = parse_key(line);
            if last == Some(pair) {
                return Ok(());
            }
            last = Some(pair);
            edges += 1;
            edge(pair.0, pair.1)
        })
        .map_err(|e| match e {
            spinneret_index::sort::SortError::Sink(io) => GraphError::Output(io),
            e => GraphError::Sort(e),
        })?;
    stats.edges = edges;
    Ok(stats)
}

/// `from` and `to` as 16 hex digits each around a tab.
fn hex_key(key: &mut [u8; 33], from: u64, to: u64) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for i in 0..16 {
        key[i] = HEX[((from >> (60 - 4 * i)) & 15) as usize];
        key[17 + i] = HEX[((to >> (60 - 4 * i)) & 15) as usize];
    }
    key[16] = b'\t';
}

fn parse_key(line: &[u8]) -> (u64, u64) {
    let hex = |s: &[u8]| {
        s.iter().fold(0u64, |n, &c| {
            let v = match c {
                b'0'..=b'9' => c - b'0',
                _ => c - b'a' + 10,
            };
            (n << 4) | u64::from(v)
        })
    };
    (hex(&line[..16]), hex(&line[17..33]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_as_numbers() {
        let mut a = [0u8; 33];
        let mut b = [0u8; 33];
        hex_key(&mut a, 9, u64::MAX);
        hex_key(&mut b, 10, 0);
        assert!(a < b);
        assert_eq!(parse_key(&a), (9, u64::MAX));
        assert_eq!(parse_key(&b), (10, 0));
    }

    #[test]
    fn names_reverse_both_ways() {
        assert_eq!(reverse("com.example.www"), "www.example.com");
        assert_eq!(reverse(&reverse("a.b.c")), "a.b.c");
    }
}
