//! The host graph as `hostlinks_to_graph.py` numbers it: distinct names
//! in byte order, ids 0..n−1, edges sorted numerically, self-loops left
//! out after numbering, names with a TLD IANA does not delegate left out;
//! and the same files whatever the memory budget or the order of the
//! pairs.

use spinneret_graph::{BuildOptions, BuildStats, GraphError, HostGraphBuilder};

type Graph = (Vec<String>, Vec<(u64, u64)>, BuildStats);

fn build(pairs: &[(&str, &str)], options: BuildOptions) -> Result<Graph, GraphError> {
    let mut b = HostGraphBuilder::new(options);
    for (s, t) in pairs {
        b.add_pair(s, t)?;
    }
    let mut vertices = Vec::new();
    let mut edges = Vec::new();
    let stats = b.finish(
        &mut |id, name| {
            vertices.push(format!("{id}\t{name}"));
            Ok(())
        },
        &mut |a, b| {
            edges.push((a, b));
            Ok(())
        },
    )?;
    Ok((vertices, edges, stats))
}

#[test]
fn vertices_in_byte_order_edges_numeric_self_loops_after_numbering() {
    let pairs = [
        ("org.example", "com.example.www"),
        ("com.example.www", "com.example"),
        ("com.example.www", "com.example"),
        ("com.example", "com.example"), // a page without links
        ("com.example-shop", "com.example-shop"), // only a vertex
        ("com.example", "local.intranet"), // not an IANA TLD
        ("org.example", "com.example.www"),
        ("com.example.www", "org.example"),
    ];
    let (v, e, stats) = build(&pairs, BuildOptions::default()).unwrap();
    assert_eq!(
        v,
        [
            "0\tcom.example",
            "1\tcom.example-shop",
            "2\tcom.example.www",
            "3\torg.example",
        ]
    );
    assert_eq!(e, [(2, 0), (2, 3), (3, 2)]);
    assert_eq!(stats.pairs_in, 8);
    assert_eq!(stats.distinct_pairs, 6);
    assert_eq!(stats.invalid_names, 1);
    assert_eq!(stats.dropped_pairs, 1);
    assert_eq!(stats.self_loops, 2);
    assert_eq!(stats.edges, 3);

    let unvalidated = BuildOptions {
        validate_tld: false,
        ..BuildOptions::default()
    };
    let (v, _, _) = build(&pairs, unvalidated).unwrap();
    assert_eq!(v.last().map(String::as_str), Some("4\torg.example"));
    assert_eq!(v[3], "3\tlocal.intranet");
}

#[test]
fn names_a_host_name_cannot_hold_are_refused() {
    for bad in [
        "com.Example",
        "com.example\tx",
        "com.example\n",
        "",
        "com.ex ample",
    ] {
        let mut b = HostGraphBuilder::new(BuildOptions::default());
        assert!(
            matches!(b.add_pair("com.example", bad), Err(GraphError::HostName(_))),
            "{bad:?}"
        );
    }
}

fn as_strs(p: &[(String, String)]) -> Vec<(&str, &str)> {
    p.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

/// xorshift64*: a fixed sequence, no dependency.
fn rng(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

#[test]
fn the_same_graph_whatever_the_memory_and_the_order() {
    let mut state = 42u64;
    let tlds = ["com", "org", "de", "uk.co", "nope"];
    let hosts: Vec<String> = (0..400)
        .map(|i| {
            let t = tlds[(rng(&mut state) % tlds.len() as u64) as usize];
            format!("{t}.host{}-{i}", rng(&mut state) % 50)
        })
        .collect();
    let mut pairs: Vec<(String, String)> = (0..20_000)
        .map(|_| {
            let a = &hosts[(rng(&mut state) % hosts.len() as u64) as usize];
            let b = &hosts[(rng(&mut state) % hosts.len() as u64) as usize];
            (a.clone(), b.clone())
        })
        .collect();
    let ample = build(&as_strs(&pairs), BuildOptions::default()).unwrap();
    let tight_options = BuildOptions {
        memory: 128 * 1024,
        ..BuildOptions::default()
    };
    let tight = build(&as_strs(&pairs), tight_options.clone()).unwrap();
    assert!(tight.2.pair_sort.runs > 1, "the tight budget spilled runs");
    assert_eq!(ample.0, tight.0);
    assert_eq!(ample.1, tight.1);
    pairs.reverse();
    let reversed = build(&as_strs(&pairs), tight_options).unwrap();
    assert_eq!(ample.0, reversed.0);
    assert_eq!(ample.1, reversed.1);
    for w in ample.1.windows(2) {
        assert!(w[0] < w[1], "edges strictly increasing");
    }
    for w in ample.0.windows(2) {
        let a = w[0].split('\t').nth(1).unwrap();
        let b = w[1].split('\t').nth(1).unwrap();
        assert!(a < b, "vertices strictly increasing");
    }
    let n = ample.0.len() as u64;
    assert!(ample.1.iter().all(|&(a, b)| a != b && a < n && b < n));
}
