//! Domain folding against cc-webgraph's own golden cases
//! (`src/test/java/org/commoncrawl/webgraph/TestHostToDomainGraph.java` at
//! 4c615bda: the host lists and the domain vertices it expects, with their
//! host counts), and a property: on random host sets built to hit the
//! ordering traps (hyphens and dots after a shared prefix, names under
//! public suffixes), the domains come out strictly increasing, each
//! host's domain is `domain_of`'s, and the counts add up.

use spinneret_graph::{Aggregation, DomainOptions, GraphError, domain_of, fold_domains};

/// The domain vertex lines and the domain edges.
type Folded = (Vec<String>, Vec<(u64, u64)>);

/// Folds `hosts` (in the given order, ids 0..n−1) with `edges`.
fn fold(
    hosts: &[&str],
    edges: &[(u64, u64)],
    options: &DomainOptions,
) -> Result<Folded, GraphError> {
    let mut vertices = Vec::new();
    let mut out_edges = Vec::new();
    let mut host_items = hosts
        .iter()
        .enumerate()
        .map(|(i, h)| Ok((i as u64, (*h).to_owned())));
    let mut edge_items = edges.iter().map(|&e| Ok(e));
    fold_domains(
        &mut host_items,
        &mut edge_items,
        options,
        &mut |id, name, n| {
            vertices.push(format!("{id}\t{name}\t{n}"));
            Ok(())
        },
        &mut |a, b| {
            out_edges.push((a, b));
            Ok(())
        },
    )?;
    Ok((vertices, out_edges))
}

fn icann() -> DomainOptions {
    DomainOptions::default()
}

fn multipart() -> DomainOptions {
    DomainOptions {
        multipart_suffixes_as_domains: true,
        ..DomainOptions::default()
    }
}

#[test]
fn simple() {
    let hosts = [
        "com.example",
        "com.example.www",
        "com.example.xyz",
        "org.example",
    ];
    let (v, _) = fold(&hosts, &[], &icann()).unwrap();
    assert_eq!(v, ["0\tcom.example\t3", "1\torg.example\t1"]);
}

#[test]
fn names_not_sorted_are_refused() {
    let hosts = [
        "com.example",
        "com.example.xyz",
        "com.example.www",
        "org.example",
    ];
    assert!(matches!(
        fold(&hosts, &[], &icann()),
        Err(GraphError::VertexOrder(_))
    ));
}

const HYPHENATED: [&str; 11] = [
    "ac.e-bike",
    "ac.e-bikes",
    "ac.e-com",
    "ac.e.subdomain",
    "ac.eagle",
    "ac.gov",
    "ac.gov.ascension",
    "ac.gov.ascension-island",
    "ac.gov.ascension.mail",
    "ac.gov.conservation-ascension-island",
    "ac.gov.postoffice",
];

#[test]
fn hyphenated_domains() {
    let (v, _) = fold(&HYPHENATED, &[], &icann()).unwrap();
    assert_eq!(
        v,
        [
            "0\tac.e\t1",
            "1\tac.e-bike\t1",
            "2\tac.e-bikes\t1",
            "3\tac.e-com\t1",
            "4\tac.eagle\t1",
            "5\tac.gov.ascension\t2",
            "6\tac.gov.ascension-island\t1",
            "7\tac.gov.conservation-ascension-island\t1",
            "8\tac.gov.postoffice\t1",
        ]
    );
}

#[test]
fn hyphenated_domains_with_multipart_suffixes() {
    let (v, _) = fold(&HYPHENATED, &[], &multipart()).unwrap();
    assert_eq!(
        v,
        [
            "0\tac.e\t1",
            "1\tac.e-bike\t1",
            "2\tac.e-bikes\t1",
            "3\tac.e-com\t1",
            "4\tac.eagle\t1",
            "5\tac.gov\t1",
            "6\tac.gov.ascension\t2",
            "7\tac.gov.ascension-island\t1",
            "8\tac.gov.conservation-ascension-island\t1",
            "9\tac.gov.postoffice\t1",
        ]
    );
}

#[test]
fn hyphenated_subdomains_only() {
    let hosts = [
        "ac.gov.ascension-island",
        "ac.gov.ascension.mail",
        "ac.gov.conservation-ascension-island",
        "ac.gov.postoffice",
    ];
    let (v, _) = fold(&hosts, &[], &icann()).unwrap();
    assert_eq!(
        v,
        [
            "0\tac.gov.ascension\t1",
            "1\tac.gov.ascension-island\t1",
            "2\tac.gov.conservation-ascension-island\t1",
            "3\tac.gov.postoffice\t1",
        ]
    );
}

#[test]
fn hordaland_is_not_duplicated() {
    // cc-webgraph #3: `no.hordaland` came out twice.
    let hosts = [
        "no.hordaland",
        "no.hordaland-teater",
        "no.hordaland.os",
        "no.hordaland.os.bibliotek",
        "no.hordaland.oygarden",
        "no.hordalandfolkemusikklag",
    ];
    let (v, _) = fold(&hosts, &[], &icann()).unwrap();
    assert_eq!(
        v,
        [
            "0\tno.hordaland\t2",
            "1\tno.hordaland-teater\t1",
            "2\tno.hordaland.os.bibliotek\t1",
            "3\tno.hordalandfolkemusikklag\t1",
        ]
    );
}

#[test]
fn hedmark_comes_out_sorted() {
    // cc-webgraph #33/#34: `no.hedmark` came out after `no.hedmark-trafikk`.
    let a = [
        "no.hedland",
        "no.hedmark-folkemusikklag",
        "no.hedmark-trafikk",
        "no.hedmark.m",
        "no.hedmark.os.www",
        "no.hedmark.www",
        "no.hedmarktrafikk",
    ];
    let (v, _) = fold(&a, &[], &icann()).unwrap();
    assert_eq!(
        v,
        [
            "0\tno.hedland\t1",
            "1\tno.hedmark\t2",
            "2\tno.hedmark-folkemusikklag\t1",
            "3\tno.hedmark-trafikk\t1",
            "4\tno.hedmark.os.www\t1",
            "5\tno.hedmarktrafikk\t1",
        ]
    );
    let b = [
        "no.hedland",
        "no.hedmark-folkemusikklag",
        "no.hedmark-trafikk",
        "no.hedmark.os.www",
        "no.hedmark.www",
        "no.hedmarktrafikk",
    ];
    let (v, _) = fold(&b, &[], &icann()).unwrap();
    assert_eq!(
        v,
        [
            "0\tno.hedland\t1",
            "1\tno.hedmark\t1",
            "2\tno.hedmark-folkemusikklag\t1",
            "3\tno.hedmark-trafikk\t1",
            "4\tno.hedmark.os.www\t1",
            "5\tno.hedmarktrafikk\t1",
        ]
    );
}

#[test]
fn edges_are_mapped_deduplicated_and_sorted() {
    // 0 com.a, 1 com.a.www, 2 com.b, 3 com.b.x, 4 uk.co (no domain)
    let hosts = ["com.a", "com.a.www", "com.b", "com.b.x", "uk.co"];
    let edges = [(0, 1), (0, 2), (1, 3), (3, 0), (2, 4), (4, 0), (1, 2)];
    let (v, e) = fold(&hosts, &edges, &icann()).unwrap();
    assert_eq!(v, ["0\tcom.a\t2", "1\tcom.b\t2"]);
    assert_eq!(e, [(0, 1), (1, 0)]);
}

#[test]
fn private_domains_and_hosts_without_www() {
    let private = DomainOptions {
        aggregation: Aggregation::PrivateDomain,
        ..DomainOptions::default()
    };
    assert_eq!(
        domain_of("com.blogspot.a.b", &icann()).as_deref(),
        Some("com.blogspot")
    );
    assert_eq!(
        domain_of("com.blogspot.a.b", &private).as_deref(),
        Some("com.blogspot.a")
    );
    let www = DomainOptions {
        aggregation: Aggregation::HostWithoutWww,
        ..DomainOptions::default()
    };
    assert_eq!(
        domain_of("com.example.www", &www).as_deref(),
        Some("com.example")
    );
    assert_eq!(domain_of("com.www", &www).as_deref(), Some("com.www"));
    assert_eq!(
        domain_of("com.example.a", &www).as_deref(),
        Some("com.example.a")
    );
}

/// xorshift64*: a fixed sequence, no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[(self.next() % items.len() as u64) as usize]
    }
}

#[test]
fn random_host_sets_fold_into_strictly_increasing_domains() {
    // Labels that share prefixes with hyphens and dots after them, under
    // suffixes of one, two and three labels (some of them public
    // suffixes with names below: no.hedmark.os, no.hordaland.os, ac.gov).
    let tops = [
        "no",
        "ac",
        "ac.gov",
        "uk.co",
        "com",
        "no.hedmark",
        "no.hordaland",
        "jp.tokyo",
    ];
    let labels = [
        "hedmark",
        "hedmark-trafikk",
        "hedmarktrafikk",
        "os",
        "www",
        "m",
        "e",
        "e-bike",
        "eagle",
        "ascension",
        "ascension-island",
        "a",
        "a-b",
        "a0",
        "gov",
        "co",
        "b",
    ];
    let mut rng = Rng(0x5eed_cafe_f00d_d00d);
    for round in 0..300 {
        let mut hosts: Vec<String> = (0..(rng.next() % 40 + 1))
            .map(|_| {
                let mut h = rng.pick(&tops).to_owned();
                for _ in 0..(rng.next() % 3 + 1) {
                    h.push('.');
                    h.push_str(rng.pick(&labels));
                }
                h
            })
            .collect();
        hosts.sort();
        hosts.dedup();
        let refs: Vec<&str> = hosts.iter().map(String::as_str).collect();
        for options in [icann(), multipart()] {
            let (v, _) = fold(&refs, &[], &options).unwrap();
            let names: Vec<&str> = v.iter().map(|l| l.split('\t').nth(1).unwrap()).collect();
            for w in names.windows(2) {
                assert!(w[0] < w[1], "round {round}: {} then {}", w[0], w[1]);
            }
            let total: u64 = v
                .iter()
                .map(|l| l.split('\t').nth(2).unwrap().parse::<u64>().unwrap())
                .sum();
            let kept = refs
                .iter()
                .filter(|h| domain_of(h, &options).is_some())
                .count() as u64;
            assert_eq!(total, kept, "round {round}");
            for h in &refs {
                if let Some(d) = domain_of(h, &options) {
                    assert!(
                        names.binary_search(&d.as_str()).is_ok(),
                        "round {round}: {h} -> {d}"
                    );
                }
            }
        }
    }
}
