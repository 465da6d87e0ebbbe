//! One work item to its host pairs: the page's host and the hosts its
//! links point to, named as Common Crawl's graphs name them
//! ([`spinneret_graph::surt_host`]). Pure (no I/O), so items are
//! processed in parallel; the pairs are handed to the graph in input
//! order.
//!
//! Which records give pairs (cc-pyspark's `ExtractHostLinksJob` over a
//! crawl's WATs, its non-200 WARCs and its robots.txt WARCs):
//! - every `response` (and `resource`) record whose target URI has a host
//!   the rules keep: its host is a vertex, whatever its links;
//! - an HTML payload: the host of every link a browser resolves from it
//!   (all kinds: anchors, images, scripts, stylesheets, frames, forms,
//!   media, CSS `url()`s, `<meta>` URLs such as `og:image`…, against the
//!   page's `<base>`);
//! - the HTTP headers: a 3xx `Location`, every `Link` target and every
//!   `Content-Location`, resolved against the page's URL;
//! - a `robots.txt` (its URL's path) with status 200: its `Sitemap:`
//!   lines;
//! - a WAT's `metadata` record (JSON): the page of a `response` envelope,
//!   its host and the hosts of the URLs the WAT names (`wat_pairs`), so
//!   a graph builds from WAT files alone;
//! - every other record type is skipped.
//!
//! Differences from Common Crawl's job, by design: links are resolved as a
//! browser resolves them (a relative link's host is its base's, so `<base
//! href>` to another host gives that edge as Common Crawl's does, and
//! `http:/example.com` has the host `example.com`, which `urlparse` does
//! not find); a link without a host (`mailto:`) gives none, nor does one
//! whose scheme is not two to six letters and digits (`android-app://`
//! names an app: cc-pyspark's rule, `names_a_web_host`).

use std::cell::RefCell;

use spinneret_extract::{Extractor, Headers};
use spinneret_graph::{SurtHostOptions, names_a_web_host, surt_host_into};
use spinneret_url::Url;
use spinneret_warc::{Record, RecordType};

use crate::driver::Job;
use crate::inputs::Item;

/// What one item gave.
#[derive(Debug, Default)]
pub struct Pairs {
    /// The page's host, reversed: a vertex (`None`: no page, or a host the
    /// rules drop).
    pub source: Option<String>,
    /// The distinct hosts its links point to, other than its own.
    pub targets: Vec<String>,
    /// How the item was counted.
    pub class: Class,
}

/// How an item was counted.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub enum Class {
    /// A page (a response record or an HTML file) with a kept host.
    Page,
    /// A response whose target URI is missing, not a URL, or a host the
    /// rules drop (an IP address, a single label).
    NoHost,
    /// Another record type.
    #[default]
    Skipped,
    /// A bad record: the message for stderr.
    Bad(String),
    /// An unreadable input: the message for stderr.
    Unreadable(String),
}

/// The graph's job: each item's host pairs.
pub struct GraphJob {
    /// How hosts are named.
    pub hosts: SurtHostOptions,
}

impl Job for GraphJob {
    type Done = Pairs;

    fn process(&self, item: Item) -> Pairs {
        process(&item, self.hosts)
    }
}

thread_local! {
    /// Each worker thread's extractor: its buffers are kept from page to
    /// page.
    static EXTRACTOR: RefCell<Extractor> = RefCell::new(Extractor::new());
}

/// The pairs of one item.
pub fn process(item: &Item, hosts: SurtHostOptions) -> Pairs {
    match item {
        Item::Unreadable { file, what } => Pairs {
            class: Class::Unreadable(format!("{file}: {what}")),
            ..Pairs::default()
        },
        Item::Bad { file, offset, what } => Pairs {
            class: Class::Bad(match offset {
                Some(o) if !what.starts_with("offset ") => format!("{file}: offset {o}: {what}"),
                _ => format!("{file}: {what}"),
            }),
            ..Pairs::default()
        },
        Item::Page { url, body, .. } => match Url::parse(url) {
            Ok(page) => page_pairs(&page, body, true, &Headers::default(), &[], hosts),
            Err(_) => Pairs {
                class: Class::NoHost,
                ..Pairs::default()
            },
        },
        Item::Record { file, record, .. } => {
            if record.kind == RecordType::Metadata && !record.body.is_empty() {
                return wat_pairs(file, record, hosts);
            }
            if !matches!(record.kind, RecordType::Response | RecordType::Resource) {
                return Pairs::default();
            }
            let Some(Ok(page)) = record.target_uri.as_deref().map(|u| Url::parse(u.trim())) else {
                return Pairs {
                    class: Class::NoHost,
                    ..Pairs::default()
                };
            };
            let h = record.link_headers();
            let headers = Headers {
                content_type: h.content_type,
                location: h.location,
                link: h.link,
            };
            let mut extra = content_locations(record);
            extra.extend(sitemaps(record, &page));
            page_pairs(
                &page,
                &record.body,
                record.is_html(),
                &headers,
                &extra,
                hosts,
            )
        }
    }
}

/// The pairs of a page at `page`: its HTML links when `html`, its header
/// links, and the `extra` URLs (resolved against the page).
fn page_pairs(
    page: &Url,
    body: &[u8],
    html: bool,
    headers: &Headers<'_>,
    extra: &[&str],
    hosts: SurtHostOptions,
) -> Pairs {
    let mut source = String::new();
    if !names_a_web_host(page) || !surt_host_into(page.hostname(), hosts, &mut source) {
        return Pairs {
            class: Class::NoHost,
            ..Pairs::default()
        };
    }
    let mut targets: Vec<String> = Vec::new();
    let mut name = String::new();
    let mut add = |url: &Url, targets: &mut Vec<String>| {
        if names_a_web_host(url)
            && surt_host_into(url.hostname(), hosts, &mut name)
            && name != source
        {
            targets.push(name.clone());
        }
    };
    let mut extractor = EXTRACTOR.with_borrow_mut(std::mem::take);
    let body = if html { body } else { b"" };
    let headers = if html {
        headers.clone()
    } else {
        Headers {
            content_type: Vec::new(),
            ..headers.clone()
        }
    };
    extractor.extract(body, page, &headers, |l| {
        if let Ok(target) = &l.target {
            add(target, &mut targets);
        }
    });
    EXTRACTOR.set(extractor);
    for raw in extra {
        if let Ok(url) = Url::parse_with_base(raw.trim(), page) {
            add(&url, &mut targets);
        }
    }
    targets.sort_unstable();
    targets.dedup();
    Pairs {
        source: Some(source),
        targets,
        class: Class::Page,
    }
}

/// The pairs of a WAT record (a `metadata` record of JSON): the page's
/// host and the hosts of the URLs its JSON names
/// ([`spinneret_wat::read::page`]: headers, `Head`, `Links`), each
/// resolved as a browser resolves it — headers against the page's URL, the
/// rest against `Head.Base` (itself resolved against the page, and a
/// target too, as Common Crawl's job counts it). A `Location` counts for a
/// 3xx status only.
fn wat_pairs(file: &str, record: &Record, hosts: SurtHostOptions) -> Pairs {
    let page = match spinneret_wat::read::page(&record.body) {
        Ok(Some(page)) => page,
        Ok(None) => return Pairs::default(),
        Err(e) => {
            return Pairs {
                class: Class::Bad(format!("{file}: offset {}: {e}", record.offset)),
                ..Pairs::default()
            };
        }
    };
    let Some(Ok(url)) = page.target_uri.as_deref().map(|u| Url::parse(u.trim())) else {
        return Pairs {
            class: Class::NoHost,
            ..Pairs::default()
        };
    };
    let mut source = String::new();
    if !names_a_web_host(&url) || !surt_host_into(url.hostname(), hosts, &mut source) {
        return Pairs {
            class: Class::NoHost,
            ..Pairs::default()
        };
    }
    let mut targets = Vec::new();
    let mut name = String::new();
    for (_, target) in page.resolved(&url) {
        if let Ok(target) = target
            && names_a_web_host(&target)
            && surt_host_into(target.hostname(), hosts, &mut name)
            && name != source
        {
            targets.push(name.clone());
        }
    }
    targets.sort_unstable();
    targets.dedup();
    Pairs {
        source: Some(source),
        targets,
        class: Class::Page,
    }
}

/// Every `Content-Location` of the record's HTTP head.
fn content_locations(record: &Record) -> Vec<&str> {
    record.http.as_ref().map_or_else(Vec::new, |http| {
        http.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case("content-location"))
            .map(|(_, v)| v.as_str())
            .collect()
    })
}

/// The `Sitemap:` URLs of a robots.txt fetched with status 200.
fn sitemaps<'r>(record: &'r Record, page: &Url) -> Vec<&'r str> {
    if page.pathname() != "/robots.txt" || record.status() != Some(200) {
        return Vec::new();
    }
    record
        .body
        .split(|&b| b == b'\n')
        .filter_map(|line| {
            let line = std::str::from_utf8(line).ok()?.trim();
            let (key, value) = line.split_once(':')?;
            key.trim()
                .eq_ignore_ascii_case("sitemap")
                .then(|| value.split_whitespace().next())
                .flatten()
        })
        .collect()
}
