//! A request joined to its response, as cdxj-indexer joins them: two
//! adjacent records of one file, a `response` and a `request` in either
//! order, with the same `WARC-Target-URI`, the second's
//! `WARC-Concurrent-To` naming the first's `WARC-Record-ID`. For a POST
//! or PUT (with `post_append`), the request body is folded into both
//! keys (`surt(url + "?__wb_method=post&" + query)`), the response gains
//! `method` and `requestBody`, so a replay tells two POSTs to one URL
//! apart.

use crate::entry::{Entry, url_key};
use crate::post_query::method_query;
use spinneret_warc::RecordType;

/// The request and the response of `a` then `b`, when they are a pair.
fn pair<'e>(a: &'e mut Entry, b: &'e mut Entry) -> Option<(&'e mut Entry, &'e mut Entry)> {
    if a.url != b.url || b.concurrent_to.is_none() || b.concurrent_to != a.record_id {
        return None;
    }
    match (a.kind, b.kind) {
        (RecordType::Response, RecordType::Request) => Some((b, a)),
        (RecordType::Request, RecordType::Response) => Some((a, b)),
        _ => None,
    }
}

/// Joins `a` and `b` (adjacent, in this order) when they are a request
/// and its response: with `post_append`, a POST or PUT's body goes into
/// both keys. Whether they were a pair.
pub fn join(a: &mut Entry, b: &mut Entry, post_append: bool) -> bool {
    let Some((req, resp)) = pair(a, b) else {
        return false;
    };
    let (Some(head), Some(url)) = (&req.request, &req.url) else {
        // A request without an HTTP head joins nothing (as cdxj-indexer);
        // nor does one without a URL (which `Entry::of` never makes).
        return true;
    };
    let method = head.method.to_ascii_uppercase();
    if post_append && (method == "POST" || method == "PUT") {
        let q = method_query(
            &head.method,
            head.header("content-type"),
            head.header("content-length"),
            &head.body,
            url,
        );
        let key = url_key(&format!("{url}{}", q.append));
        resp.method = Some(method);
        resp.request_body = Some(q.query);
        resp.urlkey = key.clone();
        req.urlkey = key;
    }
    true
}
