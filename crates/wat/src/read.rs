//! Links read back from a WAT `metadata` record's JSON: what a user with
//! only WAT files (a third of the WARC's size) builds link tables and web
//! graphs from.
//!
//! [`page`] takes the JSON of one record and gives, for a `response`
//! envelope, the page's URL, status and every URL the WAT names, in the
//! order Common Crawl's host-graph job (cc-pyspark's
//! `ExtractHostLinksJob`) reads them:
//! - the HTTP headers (in the byte order of their names) `Location` (with its status, so a caller keeps
//!   redirects), `Content-Location` and `Link` (the `<…>` targets);
//! - `Head.Base`, `Head.Link[].url`, `Head.Scripts[].url`;
//! - `Head.Metas[].content` where it holds a URL, by the rule an HTML
//!   page's links follow ([`spinneret_extract::meta::names_url`]): the
//!   `og:image`, `twitter:url`… properties and names, or any content that
//!   starts with `http://`, `https://` or `//`;
//! - `Links[].url`, and `Links[].href` (CSS targets).
//!
//! URLs are as the WAT has them: unresolved. Other envelopes (requests,
//! warcinfo, metadata) give `None`.
//!
//! Invariant: any bytes give a result; JSON that does not parse is an
//! error with its line and column, never a panic.

use serde_json::Value;
use spinneret_extract::meta::names_url;
use spinneret_url::{ParseError, Url};

/// Why a record's JSON could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The block is not JSON.
    #[error("WAT JSON at line {line}, column {column}: {message}")]
    Json {
        /// The line of the error (1-based).
        line: usize,
        /// The column of the error (1-based).
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The JSON has no `Envelope.WARC-Header-Metadata` (nor an ARC
    /// record's `ARC-Header-Metadata`).
    #[error("WAT JSON without Envelope.WARC-Header-Metadata")]
    NoEnvelope,
}

/// Where in the WAT a URL was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// An HTTP `Location` header.
    Location,
    /// An HTTP `Content-Location` header.
    ContentLocation,
    /// An HTTP `Link` header's target.
    LinkHeader,
    /// `Head.Base`.
    Base,
    /// `Head.Link[]`.
    HeadLink,
    /// `Head.Scripts[]`.
    Script,
    /// `Head.Metas[]` content holding a URL.
    Meta,
    /// `Links[]`: the body's links, with their `path`.
    Body,
}

/// One URL a WAT names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatLink {
    /// Where it was found.
    pub source: Source,
    /// The `path` (`A@/href`, `LINK@/href`…), or the header's or meta's
    /// name.
    pub path: String,
    /// The URL as written (unresolved).
    pub url: String,
    /// The anchor text, when the WAT has one.
    pub text: Option<String>,
    /// The `rel`, when the WAT has one.
    pub rel: Option<String>,
}

/// A `response` (or `resource`) envelope's page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WatPage {
    /// `WARC-Target-URI`.
    pub target_uri: Option<String>,
    /// `WARC-Date` of the response.
    pub date: Option<String>,
    /// The HTTP status (0 when missing).
    pub status: u16,
    /// Whether the WAT read the payload as HTML (it has `HTML-Metadata`).
    pub html: bool,
    /// The URLs, in the order of the module documentation.
    pub links: Vec<WatLink>,
}

impl WatPage {
    /// Each link with its target as a browser resolves it: the headers'
    /// against `url` (the page's URL, parsed), the rest against `Head.Base`
    /// (itself resolved against `url`, and given as a link too); a
    /// `Location` only for a 3xx status.
    pub fn resolved<'p>(
        &'p self,
        url: &'p Url,
    ) -> impl Iterator<Item = (&'p WatLink, Result<Url, ParseError>)> + 'p {
        let base = self
            .links
            .iter()
            .find(|l| l.source == Source::Base)
            .and_then(|l| Url::parse_with_base(l.url.trim(), url).ok())
            .unwrap_or_else(|| url.clone());
        let redirect = (300..400).contains(&self.status);
        self.links.iter().filter_map(move |link| {
            let against = match link.source {
                Source::Location if !redirect => return None,
                Source::Location | Source::ContentLocation | Source::LinkHeader | Source::Base => {
                    url
                }
                Source::HeadLink | Source::Script | Source::Meta | Source::Body => &base,
            };
            Some((link, Url::parse_with_base(link.url.trim(), against)))
        })
    }
}

/// The page of a WAT `metadata` record's JSON: `None` unless its
/// envelope is a `response`'s or a `resource`'s.
pub fn page(json: &[u8]) -> Result<Option<WatPage>, ReadError> {
    let v: Value = serde_json::from_slice(json).map_err(|e| ReadError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let env = &v["Envelope"];
    let http = &env["Payload-Metadata"]["HTTP-Response-Metadata"];
    let mut page = if let Some(warc) = env.get("WARC-Header-Metadata") {
        if !matches!(first_str(&warc["WARC-Type"]), Some("response" | "resource")) {
            return Ok(None);
        }
        WatPage {
            target_uri: first_str(&warc["WARC-Target-URI"]).map(unbracket),
            date: first_str(&warc["WARC-Date"]).map(str::to_owned),
            ..WatPage::default()
        }
    } else if let Some(arc) = env.get("ARC-Header-Metadata") {
        // An ARC record: a capture, unless it is the file's `filedesc:`
        // header record.
        let uri = first_str(&arc["Target-URI"]).unwrap_or("");
        if uri.trim().to_ascii_lowercase().starts_with("filedesc:") {
            return Ok(None);
        }
        WatPage {
            target_uri: first_str(&arc["Target-URI"]).map(unbracket),
            date: first_str(&arc["Date"]).map(str::to_owned),
            ..WatPage::default()
        }
    } else {
        return Err(ReadError::NoEnvelope);
    };
    page.status = first_str(&http["Response-Message"]["Status"])
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let links = &mut page.links;
    let mut add = |source, path: &str, url: &str, entry: Option<&Value>| {
        let field = |k: &str| entry.and_then(|e| first_str(&e[k])).map(str::to_owned);
        links.push(WatLink {
            source,
            path: path.to_owned(),
            url: url.to_owned(),
            text: field("text"),
            rel: field("rel"),
        });
    };
    if let Some(headers) = http["Headers"].as_object() {
        for (name, value) in headers {
            let source = match name.to_ascii_lowercase().as_str() {
                "location" => Source::Location,
                "content-location" => Source::ContentLocation,
                "link" => Source::LinkHeader,
                _ => continue,
            };
            for v in values(value) {
                if source == Source::LinkHeader {
                    for target in link_header_targets(v) {
                        add(source, name, target, None);
                    }
                } else {
                    add(source, name, v.trim(), None);
                }
            }
        }
    }
    let html = &http["HTML-Metadata"];
    page.html = html.is_object();
    let head = &html["Head"];
    if let Some(base) = first_str(&head["Base"]) {
        add(Source::Base, "BASE@/href", base, None);
    }
    for (key, source) in [("Link", Source::HeadLink), ("Scripts", Source::Script)] {
        for e in head[key].as_array().into_iter().flatten() {
            if let Some(url) = first_str(&e["url"]) {
                let path = first_str(&e["path"]).unwrap_or(key);
                add(source, path, url, Some(e));
            }
        }
    }
    for m in head["Metas"].as_array().into_iter().flatten() {
        let Some(content) = first_str(&m["content"]) else {
            continue;
        };
        let property = first_str(&m["property"]);
        let name = first_str(&m["name"]);
        if names_url(name, property, content) {
            let label = property.or(name).unwrap_or("META");
            add(Source::Meta, label, content, Some(m));
        }
    }
    for e in html["Links"].as_array().into_iter().flatten() {
        let path = first_str(&e["path"]).unwrap_or("");
        if let Some(url) = first_str(&e["url"]) {
            add(Source::Body, path, url, Some(e));
        }
        if let Some(href) = first_str(&e["href"]) {
            add(Source::Body, path, href, Some(e));
        }
    }
    Ok(Some(page))
}

/// A target URI without the angle brackets some writers put around it
/// (WARC 1.1's grammar has them).
fn unbracket(uri: &str) -> String {
    let t = uri.trim();
    t.strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(t)
        .to_owned()
}

/// A string, or an array's first string (a repeated header).
fn first_str(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) => Some(s),
        Value::Array(a) => a.iter().find_map(Value::as_str),
        _ => None,
    }
}

/// Every string of a value or array.
fn values(v: &Value) -> Vec<&str> {
    match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// The `<…>` targets of a `Link` header value.
fn link_header_targets(v: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = v;
    while let Some(open) = rest.find('<') {
        let Some(close) = rest[open + 1..].find('>') else {
            break;
        };
        out.push(rest[open + 1..open + 1 + close].trim());
        rest = &rest[open + 1 + close + 1..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_response_gives_its_links_in_order() {
        let json = br#"{"Container":{},"Envelope":{"Payload-Metadata":{"HTTP-Response-Metadata":{
            "Response-Message":{"Status":"301"},
            "Headers":{"Location":"/moved","Link":["<https://c.example/s.css>; rel=preload","<a>, <b>"]},
            "HTML-Metadata":{"Head":{"Base":"https://b.example/","Metas":[
                {"property":"og:image","content":"https://i.example/x.png"},
                {"name":"description","content":"not a url"},
                {"name":"x","content":"//p.example/"}],
              "Link":[{"path":"LINK@/href","url":"l.css","rel":"stylesheet"}]},
              "Links":[{"path":"A@/href","url":"/a","text":"A"},{"path":"STYLE/#text","href":"bg.png"}]}}},
            "WARC-Header-Metadata":{"WARC-Type":"response","WARC-Target-URI":"http://p.example/"}}}"#;
        let p = page(json).unwrap().unwrap();
        assert_eq!(p.target_uri.as_deref(), Some("http://p.example/"));
        assert_eq!(p.status, 301);
        let got: Vec<(Source, &str)> = p.links.iter().map(|l| (l.source, l.url.as_str())).collect();
        assert_eq!(
            got,
            [
                (Source::LinkHeader, "https://c.example/s.css"),
                (Source::LinkHeader, "a"),
                (Source::LinkHeader, "b"),
                (Source::Location, "/moved"),
                (Source::Base, "https://b.example/"),
                (Source::HeadLink, "l.css"),
                (Source::Meta, "https://i.example/x.png"),
                (Source::Meta, "//p.example/"),
                (Source::Body, "/a"),
                (Source::Body, "bg.png"),
            ]
        );
        assert_eq!(p.links[8].text.as_deref(), Some("A"));
        assert_eq!(p.links[5].rel.as_deref(), Some("stylesheet"));
    }

    #[test]
    fn other_envelopes_and_bad_json() {
        let req = br#"{"Envelope":{"WARC-Header-Metadata":{"WARC-Type":"request"}}}"#;
        assert_eq!(page(req).unwrap(), None);
        assert!(matches!(
            page(b"{\"Envelope\":{}}"),
            Err(ReadError::NoEnvelope)
        ));
        assert!(matches!(
            page(b"{\"Envelope\":\n[1,"),
            Err(ReadError::Json { line: 2, .. })
        ));
    }
}
