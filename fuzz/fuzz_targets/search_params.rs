//! `application/x-www-form-urlencoded` parsing and serialization and the
//! `URLSearchParams` operations: serializing the parsed pairs and parsing
//! that again gives the same pairs; `set`, `append`, `delete` and `sort` keep
//! the list consistent with `get`, `get_all` and `has`.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use spinneret_url::{SearchParams, parse_urlencoded};

/// One `URLSearchParams` method call.
#[derive(Arbitrary, Debug)]
enum Op {
    Append(String, String),
    Set(String, String),
    Delete(String, Option<String>),
    Sort,
}

/// A query string to parse and the operations to apply afterwards.
#[derive(Arbitrary, Debug)]
struct Input {
    init: String,
    bytes: Vec<u8>,
    ops: Vec<Op>,
}

/// The pairs of `params`, owned.
fn pairs(params: &SearchParams) -> Vec<(String, String)> {
    params
        .iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Serializing and re-parsing gives the same pairs.
fn round_trip(params: &SearchParams) {
    let text = params.to_string();
    assert_eq!(
        pairs(&SearchParams::parse(&text)),
        pairs(params),
        "{text:?}"
    );
}

fuzz_target!(|input: Input| {
    // The byte parser never panics, and its pairs survive serialization.
    let from_bytes = SearchParams::from_pairs(parse_urlencoded(&input.bytes));
    round_trip(&from_bytes);

    let mut params = SearchParams::parse(&input.init);
    round_trip(&params);
    for op in &input.ops {
        match op {
            Op::Append(k, v) => {
                let before = params.len();
                params.append(k, v);
                assert_eq!(params.len(), before + 1);
                assert!(params.has(k, Some(v)));
                assert_eq!(params.get_all(k).last(), Some(&v.as_str()));
            }
            Op::Set(k, v) => {
                params.set(k, v);
                assert_eq!(params.get(k), Some(v.as_str()));
                assert_eq!(params.get_all(k), vec![v.as_str()]);
            }
            Op::Delete(k, v) => {
                params.delete(k, v.as_deref());
                assert!(!params.has(k, v.as_deref()));
                if v.is_none() {
                    assert_eq!(params.get(k), None);
                }
            }
            Op::Sort => {
                let mut expected = pairs(&params);
                // The standard's sort is stable and by UTF-16 code units of the name.
                expected.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
                params.sort();
                assert_eq!(pairs(&params), expected);
            }
        }
        assert_eq!(params.len(), params.iter().count());
        assert_eq!(params.is_empty(), params.iter().next().is_none());
        round_trip(&params);
    }
});
