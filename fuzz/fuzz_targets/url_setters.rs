//! Every URL setter on a parsed URL, in a fuzzer-chosen order with
//! fuzzer-chosen values: after each one the URL passes `check_invariants`
//! and its serialization re-parses to itself.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use spinneret_url::{SearchParams, Url};

/// One setter call of the URL standard's API (`set_href` included).
#[derive(Arbitrary, Debug)]
enum Setter {
    Href(String),
    Protocol(String),
    Username(String),
    Password(String),
    Host(String),
    Hostname(String),
    Port(String),
    Pathname(String),
    Search(String),
    Hash(String),
    SearchParams(Vec<(String, String)>),
}

/// A URL to start from and the setters to apply to it.
#[derive(Arbitrary, Debug)]
struct Input {
    url: String,
    setters: Vec<Setter>,
}

fuzz_target!(|input: Input| {
    let Ok(mut url) = Url::parse(&input.url) else {
        return;
    };
    for setter in &input.setters {
        let before = url.href().to_owned();
        match setter {
            Setter::Href(v) => {
                if url.set_href(v).is_err() {
                    assert_eq!(url.href(), before, "a failed set_href changed the URL");
                }
            }
            Setter::Protocol(v) => url.set_protocol(v),
            Setter::Username(v) => url.set_username(v),
            Setter::Password(v) => url.set_password(v),
            Setter::Host(v) => url.set_host(v),
            Setter::Hostname(v) => url.set_hostname(v),
            Setter::Port(v) => url.set_port(v),
            Setter::Pathname(v) => url.set_pathname(v),
            Setter::Search(v) => url.set_search(v),
            Setter::Hash(v) => url.set_hash(v),
            Setter::SearchParams(pairs) => {
                let params =
                    SearchParams::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
                url.set_search_params(&params);
            }
        }
        url.check_invariants()
            .unwrap_or_else(|e| panic!("after {setter:?} on {before:?}: {e}"));
        let again = Url::parse(url.href()).unwrap_or_else(|e| {
            panic!(
                "after {setter:?} on {before:?}: {:?} does not re-parse: {e:?}",
                url.href()
            )
        });
        assert_eq!(again.href(), url.href(), "after {setter:?} on {before:?}");
    }
});
