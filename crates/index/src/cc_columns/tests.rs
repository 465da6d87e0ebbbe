//! Tests of the cc-index-table columns: the schema, the host, URL and
//! time columns as Common Crawl fills them, and rows refused whole.

use super::*;
use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, Int32Type, TimestampMicrosecondType};
use spinneret_warc::{Container, RecordType};

use crate::entry::{Placement, url_key};

fn entry(url: &str, status: Option<u16>, digest: Option<&str>) -> Entry {
    Entry {
        kind: RecordType::Response,
        listed: true,
        urlkey: url_key(url),
        timestamp: "20171024001432".to_owned(),
        url: Some(url.to_owned()),
        mime: status.map(|_| "text/html".to_owned()),
        status,
        digest: digest.map(str::to_owned),
        placement: Placement {
            offset: 0,
            end: 0,
            stream_offset: 0,
            stored_len: 0,
            container: Container::Gzip,
            starts_member: true,
            ends_member: true,
        },
        seekable: true,
        redirect: None,
        charset: None,
        mime_detected: None,
        truncated: None,
        record_id: None,
        show_record_id: false,
        concurrent_to: None,
        method: None,
        request_body: None,
        request: None,
    }
}

fn host(url: &str) -> (UrlParts, Vec<String>) {
    let u = UrlParts::of(url);
    let labels = u
        .host
        .labels_reversed()
        .iter()
        .map(|s| s.to_string())
        .collect();
    (u, labels)
}

fn text(b: &RecordBatch, column: &str, row: usize) -> Option<String> {
    let a = b.column_by_name(column).unwrap().as_string::<i32>();
    (!a.is_null(row)).then(|| a.value(row).to_owned())
}

#[test]
fn a_batch_has_the_schema_and_nulls_where_absent() {
    let mut c = CcColumns::new();
    let mut full = entry(
        "https://www.bbc.co.uk:8443/news?x=1",
        Some(200),
        Some("sha1:CH7IV3XAD3M7A42JARKRLJ3T5PGGCGXD"),
    );
    full.redirect = Some("https://www.bbc.co.uk/".to_owned());
    full.charset = Some("UTF-8");
    full.mime_detected = Some("text/html");
    full.truncated = Some("length".to_owned());
    c.push(&full, "a.warc.gz", Range::File(397, 24662), Some("seg-1"))
        .unwrap();
    let mut bare = entry("dns:www.example.com", None, None);
    bare.timestamp = "2014".to_owned();
    c.push(&bare, "b.warc.gz", Range::Decompressed(5, 6), None)
        .unwrap();
    assert_eq!(c.len(), 2);
    assert!(c.bytes() > 0);
    let b = c.finish().unwrap();
    assert!(c.is_empty());
    assert_eq!(b.schema(), schema());
    assert_eq!(b.num_columns(), 30);
    assert_eq!(b.num_rows(), 2);

    assert_eq!(
        text(&b, "url_surtkey", 0).unwrap(),
        url_key("https://www.bbc.co.uk:8443/news?x=1")
    );
    assert_eq!(
        text(&b, "content_digest", 0).unwrap(),
        "CH7IV3XAD3M7A42JARKRLJ3T5PGGCGXD"
    );
    assert_eq!(text(&b, "content_mime_type", 0).unwrap(), "text/html");
    assert_eq!(
        text(&b, "fetch_redirect", 0).unwrap(),
        "https://www.bbc.co.uk/"
    );
    assert_eq!(text(&b, "content_charset", 0).unwrap(), "UTF-8");
    assert_eq!(text(&b, "content_mime_detected", 0).unwrap(), "text/html");
    assert_eq!(text(&b, "content_truncated", 0).unwrap(), "length");
    assert_eq!(text(&b, "warc_filename", 0).unwrap(), "a.warc.gz");
    assert_eq!(text(&b, "warc_segment", 0).unwrap(), "seg-1");
    let int32 = |name: &str| b.column_by_name(name).unwrap().as_primitive::<Int32Type>();
    assert_eq!(int32("warc_record_offset").values(), &[397, -1]);
    assert_eq!(int32("warc_record_length").values(), &[24662, -1]);
    let status = b.column_by_name("fetch_status").unwrap();
    assert_eq!(status.as_primitive::<Int16Type>().values(), &[200, -1]);
    assert_eq!(status.null_count(), 0);
    let time = b.column_by_name("fetch_time").unwrap();
    // 2017-10-24T00:14:32Z and 2014-01-01T00:00:00Z.
    assert_eq!(
        time.as_primitive::<TimestampMicrosecondType>().values(),
        &[1_508_804_072_000_000, 1_388_534_400_000_000]
    );

    // The second row: what it lacks is null, or CC's value for none.
    for column in [
        "content_digest",
        "content_mime_type",
        "fetch_redirect",
        "content_charset",
        "content_mime_detected",
        "content_truncated",
        "content_languages",
        "url_query",
    ] {
        assert_eq!(text(&b, column, 1), None, "{column}");
    }
    assert_eq!(text(&b, "content_languages", 0), None);
    assert!(int32("url_port").is_null(1));
    assert_eq!(text(&b, "url_protocol", 1).unwrap(), "dns");
    assert_eq!(text(&b, "url_host_name", 1).unwrap(), "www.example.com");
    assert_eq!(
        text(&b, "url_host_registered_domain", 1).unwrap(),
        "example.com"
    );
    assert_eq!(text(&b, "warc_segment", 1).unwrap(), "");
}

#[test]
fn host_parts_of_a_url_with_port_and_query() {
    let (u, labels) = host("https://www.bbc.co.uk:8443/news?x=1");
    assert_eq!(u.host.name, "www.bbc.co.uk");
    assert_eq!(labels, ["uk", "co", "bbc", "www"]);
    assert_eq!(u.host.registry_suffix.as_deref(), Some("co.uk"));
    assert_eq!(u.host.registered_domain.as_deref(), Some("bbc.co.uk"));
    assert_eq!(u.host.private_suffix.as_deref(), Some("co.uk"));
    assert_eq!(u.host.private_domain.as_deref(), Some("bbc.co.uk"));
    assert_eq!(u.protocol, "https");
    assert_eq!(u.port, Some(8443));
    assert_eq!(u.path, "/news");
    assert_eq!(u.query.as_deref(), Some("x=1"));

    // The batch's columns of it.
    let mut c = CcColumns::new();
    let e = entry("https://www.bbc.co.uk:8443/news?x=1", Some(200), None);
    c.push(&e, "f", Range::File(0, 1), None).unwrap();
    let b = c.finish().unwrap();
    let want = [
        ("url_host_tld", Some("uk")),
        ("url_host_2nd_last_part", Some("co")),
        ("url_host_3rd_last_part", Some("bbc")),
        ("url_host_4th_last_part", Some("www")),
        ("url_host_5th_last_part", None),
        ("url_host_name_reversed", Some("uk.co.bbc.www")),
        ("url_host_registry_suffix", Some("co.uk")),
        ("url_host_registered_domain", Some("bbc.co.uk")),
    ];
    for (column, value) in want {
        assert_eq!(text(&b, column, 0).as_deref(), value, "{column}");
    }
}

#[test]
fn ip_hosts_have_no_parts_and_no_suffixes() {
    for (url, name) in [
        ("http://192.168.0.1/x", "192.168.0.1"),
        ("http://0x7f.1/", "127.0.0.1"),
        ("http://[2001:DB8:0:0::1]:8080/", "[2001:db8::1]"),
    ] {
        let (u, labels) = host(url);
        assert_eq!(u.host.name, name);
        assert!(u.host.ip && labels.is_empty(), "{url}");
        assert_eq!(u.host.registry_suffix, None);
        assert_eq!(u.host.private_domain, None);
    }
    let mut c = CcColumns::new();
    c.push(
        &entry("http://192.168.0.1/x", Some(200), None),
        "f",
        Range::File(0, 1),
        None,
    )
    .unwrap();
    let b = c.finish().unwrap();
    assert_eq!(text(&b, "url_host_tld", 0), None);
    assert_eq!(text(&b, "url_host_name_reversed", 0), None);
}

#[test]
fn idn_hosts_are_in_punycode() {
    let (u, labels) = host("http://www.Bücher.de./a");
    assert_eq!(u.host.name, "www.xn--bcher-kva.de");
    assert_eq!(labels, ["de", "xn--bcher-kva", "www"]);
    assert_eq!(
        u.host.registered_domain.as_deref(),
        Some("xn--bcher-kva.de")
    );
    // An IDN top-level domain (中国, in the list's ICANN section).
    let (u, labels) = host("http://www.例子.中国/");
    assert_eq!(u.host.name, "www.xn--fsqu00a.xn--fiqs8s");
    assert_eq!(labels[0], "xn--fiqs8s");
    assert_eq!(u.host.registry_suffix.as_deref(), Some("xn--fiqs8s"));
    assert_eq!(
        u.host.registered_domain.as_deref(),
        Some("xn--fsqu00a.xn--fiqs8s")
    );
}

#[test]
fn private_suffixes_are_the_private_sections() {
    let (u, _) = host("https://myblog.blogspot.com/2020/");
    assert_eq!(u.host.private_suffix.as_deref(), Some("blogspot.com"));
    assert_eq!(
        u.host.private_domain.as_deref(),
        Some("myblog.blogspot.com")
    );
    assert_eq!(u.host.registry_suffix.as_deref(), Some("com"));
    assert_eq!(u.host.registered_domain.as_deref(), Some("blogspot.com"));
    // The suffix itself: no private domain.
    let (u, _) = host("https://blogspot.com/");
    assert_eq!(u.host.private_suffix.as_deref(), Some("blogspot.com"));
    assert_eq!(u.host.private_domain, None);
    assert_eq!(u.host.registered_domain.as_deref(), Some("blogspot.com"));
    // A registry suffix alone: nothing registered.
    let (u, _) = host("http://co.uk/");
    assert_eq!(u.host.registry_suffix.as_deref(), Some("co.uk"));
    assert_eq!(u.host.registered_domain, None);
    // A TLD the list does not know: labels, no suffix (no implicit `*`).
    let (u, labels) = host("http://printer.intranet/");
    assert_eq!(labels, ["intranet", "printer"]);
    assert_eq!(u.host.private_suffix, None);
    assert_eq!(u.host.registered_domain, None);
}

#[test]
fn ports_schemes_and_bare_names_as_cc_reads_them() {
    assert_eq!(UrlParts::of("https://h.example:443/").port, Some(443));
    assert_eq!(UrlParts::of("https://u:p@h.example:0443/").port, Some(443));
    assert_eq!(UrlParts::of("https://h.example/").port, None);
    assert_eq!(UrlParts::of("https://[::1]:443/").port, Some(443));
    assert_eq!(
        UrlParts::of("http://h.example?q").query.as_deref(),
        Some("q")
    );
    assert_eq!(
        UrlParts::of("http://h.example/?").query.as_deref(),
        Some("")
    );
    let w = UrlParts::of("whois://whois.iana.org/example.com");
    assert_eq!(w.host.name, "example.com");
    let d = UrlParts::of("dns:WWW.Example.com");
    assert_eq!(
        (d.host.name.as_str(), d.path.as_str()),
        ("www.example.com", "WWW.Example.com")
    );
    let bad = UrlParts::of("HTTP://exa mple.com/");
    assert_eq!(
        (bad.protocol.as_str(), bad.host.name.as_str()),
        ("http", "")
    );
    let none = UrlParts::of("urn:x-a:b");
    assert_eq!((none.host.name.as_str(), none.path.as_str()), ("", "x-a:b"));
}

#[test]
fn timestamps_are_utc_instants() {
    assert_eq!(fetch_time_micros("19700101000000"), Ok(0));
    assert_eq!(fetch_time_micros("20000229235959"), Ok(951_868_799_000_000));
    assert_eq!(fetch_time_micros("196912"), Ok(-2_678_400_000_000));
    for bad in [
        "20010229000000",
        "20141301000000",
        "20140101240000",
        "201",
        "2014x1",
    ] {
        assert!(fetch_time_micros(bad).is_err(), "{bad}");
    }
}

#[test]
fn rows_that_do_not_fit_are_refused_whole() {
    let mut c = CcColumns::new();
    let e = entry("http://a.example/", Some(200), None);
    let err = c.push(&e, "f", Range::File(1 << 31, 5), None).unwrap_err();
    assert!(matches!(
        err,
        CcError::TooLarge {
            column: "warc_record_offset",
            ..
        }
    ));
    let mut late = e.clone();
    late.timestamp = "20141399".to_owned();
    assert!(c.push(&late, "f", Range::File(0, 5), None).is_err());
    let mut warcinfo = e.clone();
    (warcinfo.kind, warcinfo.url, warcinfo.urlkey) = (RecordType::Warcinfo, None, "-".to_owned());
    let err = c.push(&warcinfo, "f", Range::File(0, 5), None).unwrap_err();
    assert!(matches!(err, CcError::NoUrl));
    c.push(&e, "f", Range::File(0, 5), None).unwrap();
    assert_eq!(c.finish().unwrap().num_rows(), 1);
}

#[test]
fn common_crawl_paths_name_their_segment() {
    let p = cc_path_parts(
        "crawl-data/CC-MAIN-2017-39/segments/1505818689752.21/warc/CC-MAIN-20170923160736-20170923180736-00256.warc.gz",
    )
    .unwrap();
    assert_eq!(
        (p.crawl.as_str(), p.segment.as_str(), p.subset.as_str()),
        ("CC-MAIN-2017-39", "1505818689752.21", "warc")
    );
    let p = cc_path_parts(
        "s3://commoncrawl/crawl-data/CC-MAIN-2024-10/segments/17.5/robotstxt/x.warc.gz",
    )
    .unwrap();
    assert_eq!(p.subset, "robotstxt");
    let n =
        cc_path_parts("crawl-data/CC-NEWS/2019/01/CC-NEWS-20190101042830-00057.warc.gz").unwrap();
    assert_eq!(
        (n.crawl.as_str(), n.segment.as_str(), n.subset.as_str()),
        ("CC-NEWS-2019-01", "20190101042830-00057", "news-warc")
    );
    assert_eq!(cc_path_parts("example.warc.gz"), None);
    assert_eq!(
        cc_path_parts("crawl-data/C/segments/S/other/x.warc.gz"),
        None
    );
    // The segment column takes it from the file name when not given.
    let mut c = CcColumns::new();
    let e = entry("http://a.example/", Some(200), None);
    c.push(
        &e,
        "crawl-data/C/segments/S1/warc/x.warc.gz",
        Range::File(0, 5),
        None,
    )
    .unwrap();
    assert_eq!(text(&c.finish().unwrap(), "warc_segment", 0).unwrap(), "S1");
}

#[test]
fn bytes_count_the_buffers_and_start_again() {
    let mut c = CcColumns::new();
    let e = entry(
        &format!("http://a.example/{}", "x".repeat(10_000)),
        Some(200),
        None,
    );
    for _ in 0..10 {
        c.push(&e, "f", Range::File(0, 5), None).unwrap();
    }
    // The URL is held twice (url, url_path), the key once.
    assert!(c.bytes() >= 3 * 10 * 10_000, "{}", c.bytes());
    c.finish().unwrap();
    assert!(c.bytes() < 10_000, "{}", c.bytes());
}
