//! Index entries as Common Crawl's cc-index-table: the columns of the
//! Parquet files under `s3://commoncrawl/cc-index/table/cc-main/warc/`,
//! as Arrow record batches ([`schema`], [`CcColumns`]).
//!
//! The schema is the published one, `src/main/resources/schema/
//! cc-index-schema-flat.json` of github.com/commoncrawl/cc-index-table
//! (a Spark `StructType`), column for column: the same names in the same
//! order, Spark's `string` as Arrow `Utf8`, `integer` as `Int32`, `short`
//! as `Int16`, `timestamp` as `Timestamp(Microsecond, "UTC")` (Spark's
//! `TimestampType`: microseconds since the epoch, an instant in UTC), and
//! the same nullability. Its last two fields, `crawl` and `subset`, are the
//! table's partition columns (`crawl=CC-MAIN-…/subset=warc/`): Spark
//! writes them as folder names, not into the files, so they are not
//! columns here either (`examples/spark/cc_index.py` adds them as
//! partitions). The values are those of CC's converter from CDXJ to table
//! (`CCIndex2Table`, `IndexTable`, `WarcUri`, `HostName` in that
//! repository), which this module follows:
//!
//! - `url_surtkey`, `url`: the entry's SURT key and URL.
//! - `url_host_name`: the host as the WHATWG URL parser
//!   (`spinneret_url::Url`) serializes it — lower case, IDNs in punycode,
//!   IPv4 in dotted decimal, IPv6 in brackets — without a final dot (CC:
//!   `java.net.URL`'s host, lower-cased, `IDN.toASCII`, final dot
//!   removed). For `dns:NAME` the name, for `whois://SERVER/NAME` the
//!   name, as CC takes them. The column is not nullable: a URL without a
//!   host (or one that does not parse) has the empty string.
//! - `url_host_tld`, `url_host_2nd_last_part` … `url_host_5th_last_part`:
//!   the host's labels from the right (`co` is the 2nd last part of
//!   `bbc.co.uk`); null beyond the host's labels and for IP addresses.
//! - `url_host_name_reversed`: the labels in reverse order joined by dots
//!   (`uk.co.bbc.www`); null for IP addresses.
//! - `url_host_private_suffix`, `url_host_private_domain`: the longest
//!   Public Suffix List rule, private section included (`blogspot.com`),
//!   and the domain one label below it (`myblog.blogspot.com`) — CC's
//!   `EffectiveTldFinder.getEffectiveTLD(host, false)` and
//!   `getAssignedDomain(host, true, false)` from crawler-commons.
//! - `url_host_registry_suffix`, `url_host_registered_domain`: the same
//!   with the ICANN section only (`com`, `blogspot.com`): CC's
//!   `getEffectiveTLD(host, true)`. As in crawler-commons, there is no
//!   implicit `*` rule: a host under a TLD the list does not know, an IP
//!   address, or a host that is itself a suffix (for the domains) gets
//!   nulls; so does a domain whose label below the suffix is empty or
//!   longer than 63 bytes (crawler-commons' strict mode). The list is the
//!   `psl` crate's; crawler-commons' one quirk not followed: for a host
//!   matching an exception rule (`!www.ck`) it gives the whole host as the
//!   suffix, the `psl` crate (and the list's own algorithm) its parent.
//! - `url_protocol`: the scheme (`https`). `url_port`: the port when the
//!   URL writes one, the scheme's default included (`https://h:443/` has
//!   443, as `java.net.URL.getPort()`), else null. `url_path`: the WHATWG
//!   path (for `dns:`/`mailto:`, the opaque path); `url_query`: the query
//!   without `?`, null when the URL has none (empty when it ends in `?`).
//! - `fetch_time`: the entry's 14-digit timestamp as UTC (a shorter one is
//!   completed with the earliest instant it covers: `2014` is
//!   2014-01-01T00:00:00Z).
//! - `fetch_status`: the HTTP status; the column is not nullable, and CC's
//!   converter writes -1 for a line without one (a `resource` or
//!   `metadata` record here), so does this.
//! - `fetch_redirect`, `content_mime_detected`, `content_charset`,
//!   `content_truncated`: the entry's `redirect`, `mime-detected`,
//!   `charset`, `truncated`, null unless asked for
//!   ([`Fields`](crate::entry::Fields)) and present.
//! - `content_digest`: the payload digest without its `sha1:` (CC writes
//!   the bare base32: `CH7IV3XAD3M7A42JARKRLJ3T5PGGCGXD`); a digest of
//!   another algorithm keeps its label (`sha256:…`).
//! - `content_mime_type`: the entry's media type (`warc/revisit` for a
//!   revisit, as in CC's index).
//! - `content_languages`: always null (no language detection here).
//! - `warc_filename`: as given (CC: the path below `s3://commoncrawl/`).
//! - `warc_record_offset`, `warc_record_length`: the record's file range
//!   ([`Range::File`]). A record replay cannot seek to
//!   ([`Range::Decompressed`]) gets -1 and -1, CC's value for an absent
//!   number, never its decompressed offsets (the schema cannot mark them).
//!   A range beyond `Int32` (a file over 2 GiB) is an error
//!   ([`CcError::TooLarge`]): the schema's `integer` cannot hold it.
//! - `warc_segment`: as given; else the segment of a Common Crawl path
//!   (`crawl-data/CC-MAIN-2017-39/segments/1505818689752.21/warc/…`, CC's
//!   `CCWarcFilenameParser`: [`cc_path_parts`]); else the empty string
//!   (the column is not nullable).
//!
//! Invariants: every batch [`CcColumns::finish`] makes has [`schema`]'s
//! fields; a row is appended whole or not at all; [`CcColumns::bytes`]
//! counts the builders' allocated buffers, so a caller can bound a batch's
//! memory by it.

use std::sync::{Arc, OnceLock};

use arrow_array::builder::{
    Int16Builder, Int32Builder, StringBuilder, TimestampMicrosecondBuilder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};
use spinneret_url::{HostKind, Url};

use crate::calendar::{days_from_civil, days_in_month};
use crate::entry::Entry;
use crate::line::Range;

/// The cc-index-table schema (built once).
pub fn schema() -> SchemaRef {
    static SCHEMA: OnceLock<SchemaRef> = OnceLock::new();
    SCHEMA
        .get_or_init(|| {
            let text = |name: &str, nullable: bool| Field::new(name, DataType::Utf8, nullable);
            Arc::new(Schema::new(vec![
                text("url_surtkey", false),
                text("url", false),
                text("url_host_name", false),
                text("url_host_tld", true),
                text("url_host_2nd_last_part", true),
                text("url_host_3rd_last_part", true),
                text("url_host_4th_last_part", true),
                text("url_host_5th_last_part", true),
                text("url_host_registry_suffix", true),
                text("url_host_registered_domain", true),
                text("url_host_private_suffix", true),
                text("url_host_private_domain", true),
                text("url_host_name_reversed", true),
                text("url_protocol", false),
                Field::new("url_port", DataType::Int32, true),
                text("url_path", false),
                text("url_query", true),
                Field::new(
                    "fetch_time",
                    DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
                    false,
                ),
                Field::new("fetch_status", DataType::Int16, false),
                text("fetch_redirect", true),
                text("content_digest", true),
                text("content_mime_type", true),
                text("content_mime_detected", true),
                text("content_charset", true),
                text("content_languages", true),
                text("content_truncated", true),
                text("warc_filename", false),
                Field::new("warc_record_offset", DataType::Int32, false),
                Field::new("warc_record_length", DataType::Int32, false),
                text("warc_segment", false),
            ]))
        })
        .clone()
}

/// Why an entry gets no row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CcError {
    /// The record has no URL (a `warcinfo`, listed with `--records all`):
    /// cc-index's `url` and `url_surtkey` cannot be null.
    #[error("no WARC-Target-URI, which cc-index's url column requires")]
    NoUrl,
    /// The timestamp is not a date and time (`20141399…`).
    #[error("timestamp {0:?} is not a valid date")]
    Timestamp(String),
    /// An offset or length does not fit the schema's 32-bit integer.
    #[error("{column} {value} does not fit cc-index's 32-bit integer")]
    TooLarge {
        /// `warc_record_offset` or `warc_record_length`.
        column: &'static str,
        /// The value.
        value: u64,
    },
}

/// What a Common Crawl WARC path says: its crawl, segment and subset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CcPathParts {
    /// `CC-MAIN-2017-39` (`CC-NEWS-2019-01` for news).
    pub crawl: String,
    /// `1505818689752.21` (news: the file's timestamp and serial).
    pub segment: String,
    /// `warc`, `crawldiagnostics`, `robotstxt`, `wat`, `wet` (news:
    /// `news-warc`).
    pub subset: String,
}

/// The crawl, segment and subset of a Common Crawl path, as CC's
/// `CCWarcFilenameParser` reads them: `crawl-data/CRAWL/segments/SEGMENT/
/// SUBSET/…` (SUBSET one of `crawldiagnostics`, `robotstxt`, `warc`,
/// `wat`, `wet`) or `crawl-data/CC-NEWS/YYYY/MM/CC-NEWS-REST.warc.gz`.
/// CC anchors `crawl-data/` at the start (or after `common-crawl/`); here
/// it may also follow any `/`, so a local mirror's or an `s3://` path
/// reads too.
pub fn cc_path_parts(path: &str) -> Option<CcPathParts> {
    let mut starts = std::iter::once(0).chain(
        path.match_indices("/crawl-data/")
            .map(|(i, _)| i + 1)
            .collect::<Vec<_>>(),
    );
    starts.find_map(|at| parse_cc_path(path.get(at..)?))
}

fn parse_cc_path(rest: &str) -> Option<CcPathParts> {
    let rest = rest.strip_prefix("crawl-data/")?;
    let parts: Vec<&str> = rest.split('/').collect();
    if parts.len() >= 5 && parts[1] == "segments" {
        const SUBSETS: [&str; 5] = ["crawldiagnostics", "robotstxt", "warc", "wat", "wet"];
        let ok = !parts[0].is_empty() && !parts[2].is_empty() && SUBSETS.contains(&parts[3]);
        return ok.then(|| CcPathParts {
            crawl: parts[0].to_owned(),
            segment: parts[2].to_owned(),
            subset: parts[3].to_owned(),
        });
    }
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if parts.len() == 4 && parts[0] == "CC-NEWS" && digits(parts[1]) && digits(parts[2]) {
        let serial = parts[3]
            .strip_prefix("CC-NEWS-")?
            .strip_suffix(".warc.gz")?;
        return (!serial.is_empty()).then(|| CcPathParts {
            crawl: format!("CC-NEWS-{}-{}", parts[1], parts[2]),
            segment: serial.to_owned(),
            subset: "news-warc".to_owned(),
        });
    }
    None
}

/// The microseconds since the epoch of a CDX timestamp (`YYYYMMDDhhmmss`,
/// UTC; missing digits are the earliest the prefix covers).
pub fn fetch_time_micros(timestamp: &str) -> Result<i64, CcError> {
    let bad = || CcError::Timestamp(timestamp.to_owned());
    if timestamp.len() < 4 || timestamp.len() > 14 || !timestamp.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    // Complete to 14 digits: month and day 01, the time 00.
    let mut full = *b"00000101000000";
    full[..timestamp.len()].copy_from_slice(timestamp.as_bytes());
    let n = |from: usize, to: usize| -> i64 {
        full[from..to]
            .iter()
            .fold(0i64, |a, &b| a * 10 + i64::from(b - b'0'))
    };
    let (y, mo, d, h, mi, s) = (n(0, 4), n(4, 6), n(6, 8), n(8, 10), n(10, 12), n(12, 14));
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || s > 59 {
        return Err(bad());
    }
    let days = days_from_civil(y, mo, d);
    Ok(((days * 24 + h) * 60 + mi) * 60_000_000 + s * 1_000_000)
}

/// The host columns of one URL.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HostParts {
    /// `url_host_name` (empty when the URL has none).
    pub name: String,
    /// Whether the host is an IP address (no labels, no suffixes).
    pub ip: bool,
    /// `url_host_registry_suffix`.
    pub registry_suffix: Option<String>,
    /// `url_host_registered_domain`.
    pub registered_domain: Option<String>,
    /// `url_host_private_suffix`.
    pub private_suffix: Option<String>,
    /// `url_host_private_domain`.
    pub private_domain: Option<String>,
}

impl HostParts {
    /// Of a host name as CC takes it (lower case, punycode), or of an IP
    /// address.
    fn of_name(name: &str, ip: bool) -> HostParts {
        let name = name.strip_suffix('.').unwrap_or(name).to_owned();
        if ip || name.is_empty() {
            return HostParts {
                name,
                ip,
                ..HostParts::default()
            };
        }
        let mut h = HostParts {
            name,
            ..HostParts::default()
        };
        if let Some(private) = known_suffix(h.name.as_bytes()) {
            h.private_suffix = Some(tail(&h.name, private).to_owned());
            h.private_domain = domain_below(&h.name, private).map(str::to_owned);
            if let Some(icann) = icann_suffix(h.name.as_bytes()) {
                h.registry_suffix = Some(tail(&h.name, icann).to_owned());
                h.registered_domain = if icann == private {
                    h.private_domain.clone()
                } else {
                    domain_below(&h.name, icann).map(str::to_owned)
                };
            }
        }
        h
    }

    /// The labels from the right (`[uk, co, bbc, www]`), as Java's
    /// `String.split("\\.")` then reversed: trailing empty labels dropped.
    /// Empty for an IP address or no host.
    pub fn labels_reversed(&self) -> Vec<&str> {
        if self.ip || self.name.is_empty() {
            return Vec::new();
        }
        let mut labels: Vec<&str> = self.name.split('.').collect();
        while labels.last() == Some(&"") {
            labels.pop();
        }
        labels.reverse();
        labels
    }
}

/// The domain crawler-commons' strict `EffectiveTldFinder.getAssignedDomain`
/// assigns `host` (lower case, punycode, no trailing dot): the label below
/// its longest public suffix, by the PSL's ICANN section, or by both
/// sections with `private`; none when the host is a suffix itself, its
/// suffix is unknown, or a label is empty.
///
/// ```
/// use spinneret_index::cc_columns::assigned_domain;
/// assert_eq!(assigned_domain("www.bbc.co.uk", false), Some("bbc.co.uk"));
/// assert_eq!(assigned_domain("a.b.blogspot.com", false), Some("blogspot.com"));
/// assert_eq!(assigned_domain("a.b.blogspot.com", true), Some("b.blogspot.com"));
/// assert_eq!(assigned_domain("co.uk", false), None);
/// ```
pub fn assigned_domain(host: &str, private: bool) -> Option<&str> {
    let suffix = if private {
        known_suffix(host.as_bytes())?
    } else {
        icann_suffix(host.as_bytes())?
    };
    domain_below(host, suffix)
}

/// `len` bytes at the end of `host`.
fn tail(host: &str, len: usize) -> &str {
    &host[host.len() - len..]
}

/// The length of the longest known rule (either section) matching `host`.
fn known_suffix(host: &[u8]) -> Option<usize> {
    let s = psl::suffix(host)?;
    s.typ().map(|_| s.as_bytes().len())
}

/// The length of the longest ICANN rule matching `host`: when a private
/// rule wins, the ICANN one is shorter and matches the private suffix
/// less its first label.
fn icann_suffix(host: &[u8]) -> Option<usize> {
    let mut name = host;
    loop {
        let s = psl::suffix(name)?;
        match s.typ()? {
            psl::Type::Icann => return Some(s.as_bytes().len()),
            psl::Type::Private => {
                let b = s.as_bytes();
                let dot = b.iter().position(|&c| c == b'.')?;
                name = &name[name.len() - (b.len() - dot - 1)..];
            }
        }
    }
}

/// The domain one label below the suffix of `suffix_len` bytes at the end
/// of `host`, as crawler-commons' strict `getAssignedDomain`: none when the
/// host is the suffix, when a label before it is empty, or when the label
/// is longer than 63 bytes.
fn domain_below(host: &str, suffix_len: usize) -> Option<&str> {
    if suffix_len >= host.len() {
        return None;
    }
    let before = host.get(..host.len() - suffix_len - 1)?;
    if host.as_bytes()[before.len()] != b'.' || before.split('.').any(str::is_empty) {
        return None;
    }
    let start = before.rfind('.').map_or(0, |d| d + 1);
    (before.len() - start <= 63).then(|| &host[start..])
}

/// The URL columns of one URL.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UrlParts {
    /// The host columns.
    pub host: HostParts,
    /// `url_protocol`.
    pub protocol: String,
    /// `url_port`.
    pub port: Option<i32>,
    /// `url_path`.
    pub path: String,
    /// `url_query`.
    pub query: Option<String>,
}

impl UrlParts {
    /// The columns of `raw` (a record's target URI).
    pub fn of(raw: &str) -> UrlParts {
        let Ok(url) = Url::parse(raw) else {
            // CC's parsers fail too: no host; the scheme as written.
            return UrlParts {
                protocol: scheme_as_written(raw).to_ascii_lowercase(),
                ..UrlParts::default()
            };
        };
        let host = match url.scheme() {
            // `dns:www.example.com`: the name queried.
            "dns" if !url.has_host() => name_host(url.pathname()),
            // `whois://whois.iana.org/example.com`: the name looked up.
            "whois" => match url.pathname().trim_start_matches('/') {
                "" => url_host(&url),
                name => name_host(name),
            },
            _ => url_host(&url),
        };
        UrlParts {
            host,
            protocol: url.scheme().to_owned(),
            port: url
                .port_number()
                .or_else(|| explicit_default_port(raw, &url))
                .map(i32::from),
            path: url.pathname().to_owned(),
            query: url.query().map(str::to_owned),
        }
    }
}

/// The host columns of a parsed URL's host.
fn url_host(url: &Url) -> HostParts {
    match url.host_kind() {
        HostKind::None | HostKind::Empty => HostParts::default(),
        HostKind::Ipv4 | HostKind::Ipv6 => HostParts::of_name(url.hostname(), true),
        HostKind::Domain => HostParts::of_name(url.hostname(), false),
        // A non-special URL's host, as written: lower-cased as CC does.
        HostKind::Opaque => HostParts::of_name(&url.hostname().to_ascii_lowercase(), false),
    }
}

/// The host columns of a bare name (`dns:`, `whois:`): read as an HTTP
/// URL's host is (IDNA, IPv4 forms), or lower-cased as written when it is
/// not one.
fn name_host(name: &str) -> HostParts {
    match Url::parse(&format!("http://{name}/")) {
        Ok(u) if u.pathname() == "/" && u.query().is_none() && u.port().is_empty() => url_host(&u),
        _ => HostParts::of_name(&name.to_ascii_lowercase(), false),
    }
}

/// The scheme at the start of `raw`, if it has one (`[A-Za-z][A-Za-z0-9+.-]*:`).
fn scheme_as_written(raw: &str) -> &str {
    let raw = raw.trim();
    let end = raw
        .find(|c: char| !(c.is_ascii_alphanumeric() || "+-.".contains(c)))
        .unwrap_or(raw.len());
    let ok = raw.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && raw.as_bytes().get(end) == Some(&b':');
    if ok { &raw[..end] } else { "" }
}

/// The port `raw` writes when the parser dropped it as the scheme's
/// default (`https://h:443/`): `java.net.URL.getPort()` keeps it.
fn explicit_default_port(raw: &str, url: &Url) -> Option<u16> {
    let default = url.scheme_type().default_port()?;
    let raw = raw.trim();
    let after = &raw[raw.find("://")? + 3..];
    let end = after.find(['/', '?', '#', '\\']).unwrap_or(after.len());
    let authority = &after[..end];
    let host_port = authority.rsplit('@').next()?;
    let port_at = match host_port.rfind(']') {
        Some(b) => b + 1,
        None => 0,
    };
    let (_, port) = host_port[port_at..].rsplit_once(':')?;
    let digits = port.trim_start_matches('0');
    let n: u16 = if digits.is_empty() && !port.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    (n == default).then_some(n)
}

/// The builders of a batch being filled.
pub struct CcColumns {
    text: [StringBuilder; TEXT_COLUMNS],
    port: Int32Builder,
    fetch_time: TimestampMicrosecondBuilder,
    fetch_status: Int16Builder,
    offset: Int32Builder,
    length: Int32Builder,
    rows: usize,
}

/// The string columns, in [`CcColumns::text`]'s order.
const TEXT_COLUMNS: usize = 25;
const SURTKEY: usize = 0;
const URL: usize = 1;
const HOST_NAME: usize = 2;
/// `url_host_tld` … `url_host_5th_last_part`: 3..8.
const HOST_PARTS: usize = 3;
const REGISTRY_SUFFIX: usize = 8;
const REGISTERED_DOMAIN: usize = 9;
const PRIVATE_SUFFIX: usize = 10;
const PRIVATE_DOMAIN: usize = 11;
const HOST_REVERSED: usize = 12;
const PROTOCOL: usize = 13;
const PATH: usize = 14;
const QUERY: usize = 15;
const REDIRECT: usize = 16;
const DIGEST: usize = 17;
const MIME: usize = 18;
const MIME_DETECTED: usize = 19;
const CHARSET: usize = 20;
const LANGUAGES: usize = 21;
const TRUNCATED: usize = 22;
const FILENAME: usize = 23;
const SEGMENT: usize = 24;

impl Default for CcColumns {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for CcColumns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CcColumns")
            .field("rows", &self.rows)
            .field("bytes", &self.bytes())
            .finish_non_exhaustive()
    }
}

impl CcColumns {
    /// No rows.
    pub fn new() -> Self {
        CcColumns {
            text: std::array::from_fn(|_| StringBuilder::new()),
            port: Int32Builder::new(),
            fetch_time: TimestampMicrosecondBuilder::new().with_timezone("UTC"),
            fetch_status: Int16Builder::new(),
            offset: Int32Builder::new(),
            length: Int32Builder::new(),
            rows: 0,
        }
    }

    /// Appends the row of `e`, found in `filename` at `range`, of WARC
    /// segment `segment` (else the segment of a Common Crawl `filename`).
    /// Nothing is appended when it fails.
    pub fn push(
        &mut self,
        e: &Entry,
        filename: &str,
        range: Range,
        segment: Option<&str>,
    ) -> Result<(), CcError> {
        let url = e.url.as_deref().ok_or(CcError::NoUrl)?;
        let fetch_time = fetch_time_micros(&e.timestamp)?;
        let (offset, length) = match range {
            Range::File(o, l) => (
                int32("warc_record_offset", o)?,
                int32("warc_record_length", l)?,
            ),
            Range::Decompressed(..) => (-1, -1),
        };
        let u = UrlParts::of(url);
        let h = &u.host;
        let t = &mut self.text;
        t[SURTKEY].append_value(&e.urlkey);
        t[URL].append_value(url);
        t[HOST_NAME].append_value(&h.name);
        let labels = h.labels_reversed();
        for i in 0..5 {
            t[HOST_PARTS + i].append_option(labels.get(i));
        }
        t[REGISTRY_SUFFIX].append_option(h.registry_suffix.as_deref());
        t[REGISTERED_DOMAIN].append_option(h.registered_domain.as_deref());
        t[PRIVATE_SUFFIX].append_option(h.private_suffix.as_deref());
        t[PRIVATE_DOMAIN].append_option(h.private_domain.as_deref());
        t[HOST_REVERSED].append_option((!labels.is_empty()).then(|| labels.join(".")));
        t[PROTOCOL].append_value(&u.protocol);
        t[PATH].append_value(&u.path);
        t[QUERY].append_option(u.query.as_deref());
        t[REDIRECT].append_option(e.redirect.as_deref());
        t[DIGEST].append_option(e.digest.as_deref().map(bare_digest));
        t[MIME].append_option(e.mime.as_deref());
        t[MIME_DETECTED].append_option(e.mime_detected);
        t[CHARSET].append_option(e.charset);
        t[LANGUAGES].append_null();
        t[TRUNCATED].append_option(e.truncated.as_deref());
        t[FILENAME].append_value(filename);
        match segment {
            Some(s) => t[SEGMENT].append_value(s),
            None => match cc_path_parts(filename) {
                Some(p) => t[SEGMENT].append_value(p.segment),
                None => t[SEGMENT].append_value(""),
            },
        }
        self.port.append_option(u.port);
        self.fetch_time.append_value(fetch_time);
        self.fetch_status
            .append_value(e.status.and_then(|s| i16::try_from(s).ok()).unwrap_or(-1));
        self.offset.append_value(offset);
        self.length.append_value(length);
        self.rows += 1;
        Ok(())
    }

    /// The rows appended since the last [`finish`](Self::finish).
    pub fn len(&self) -> usize {
        self.rows
    }

    /// Whether no row was appended since the last [`finish`](Self::finish).
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The bytes the builders hold: their allocated buffers (values,
    /// offsets, validity), spare capacity included.
    pub fn bytes(&self) -> usize {
        let text: usize = self
            .text
            .iter()
            .map(|b| b.values_capacity() + b.offsets_capacity() * 4 + b.validity_capacity())
            .sum();
        text + (self.port.capacity() + self.offset.capacity() + self.length.capacity()) * 5
            + self.fetch_time.capacity() * 8
            + self.fetch_status.capacity() * 2
    }

    /// The rows so far as a batch of [`schema`]; the builders start empty
    /// again.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        self.rows = 0;
        let t: Vec<ArrayRef> = self
            .text
            .iter_mut()
            .map(|b| Arc::new(b.finish()) as ArrayRef)
            .collect();
        // url_surtkey … url_protocol, url_port, url_path, url_query,
        // fetch_time, fetch_status, fetch_redirect … warc_filename,
        // warc_record_offset, warc_record_length, warc_segment.
        let mut columns = t[SURTKEY..=PROTOCOL].to_vec();
        columns.push(Arc::new(self.port.finish()));
        columns.extend_from_slice(&t[PATH..=QUERY]);
        columns.push(Arc::new(self.fetch_time.finish()));
        columns.push(Arc::new(self.fetch_status.finish()));
        columns.extend_from_slice(&t[REDIRECT..=FILENAME]);
        columns.push(Arc::new(self.offset.finish()));
        columns.push(Arc::new(self.length.finish()));
        columns.push(t[SEGMENT].clone());
        RecordBatch::try_new(schema(), columns)
    }
}

/// `v` as the schema's 32-bit integer.
fn int32(column: &'static str, v: u64) -> Result<i32, CcError> {
    i32::try_from(v).map_err(|_| CcError::TooLarge { column, value: v })
}

/// A payload digest as CC writes it: a SHA-1's base32 without `sha1:`.
fn bare_digest(d: &str) -> &str {
    match d.split_once(':') {
        Some((alg, rest)) if alg.eq_ignore_ascii_case("sha1") => rest,
        _ => d,
    }
}

#[cfg(test)]
mod tests;
