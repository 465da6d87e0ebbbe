//! The Internet Archive engine's documented exceptions to idempotence,
//! shared by `tests/idempotence.rs` and `fuzz/fuzz_targets/canon.rs`
//! (included by path: the fuzz crate is a workspace of its own).
//!
//! IA's canonicalizer — whose keys the `surt` profile reproduces exactly,
//! because CDX indexes are joined on them — removes per pass one leading
//! `www`/`wwwN` label of the host, and of each query session-id pattern
//! only the last occurrence (`surt::strip_query_session_id`). A second
//! pass over its output may therefore remove one more of each, and sort
//! the query's parameters again; after a `www` label, what is left of the
//! host may be an IPv4 address, normalized as a pass over the shorter text
//! would (`www.0` → `0.0.0.0`).

/// Whether `twice`, the IA engine's second pass over its own output
/// `once`, is `once` with one more `www` label or one more query session
/// id removed (or both), as is or after another pass (`canonicalize`).
pub fn is_one_more_ia_removal(
    once: &str,
    twice: &str,
    mut canonicalize: impl FnMut(&str) -> Option<String>,
) -> bool {
    let www = without_one_www(once);
    let session = without_one_session_id(once);
    let both = www.as_deref().and_then(without_one_session_id);
    [www, session, both]
        .into_iter()
        .flatten()
        .any(|shorter| shorter == twice || canonicalize(&shorter).as_deref() == Some(twice))
}

/// `url` with the leading `www`/`wwwN` label of its host removed, if it has
/// one.
fn without_one_www(url: &str) -> Option<String> {
    let at = url.find("://www")?;
    let rest = &url[at + 6..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let host_on = rest[digits..].strip_prefix('.')?;
    Some(format!("{}://{host_on}", &url[..at]))
}

/// `url` with one more query session id removed, if its query has one,
/// and the rest of the query sorted again (an empty query dropped), as the
/// engine's pass does.
fn without_one_session_id(url: &str) -> Option<String> {
    use spinneret_canon::surt::{alpha_reorder_query, strip_query_session_id};
    let q = url.find('?')?;
    let query = &url[q + 1..];
    let stripped = strip_query_session_id(query);
    if stripped == query {
        return None;
    }
    let sorted = alpha_reorder_query(&stripped);
    Some(if sorted.is_empty() {
        url[..q].to_owned()
    } else {
        format!("{}{sorted}", &url[..=q])
    })
}
