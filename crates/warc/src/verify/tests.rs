//! Each problem of `verify`, from hand-built records read back through the
//! reader (as `spinneret check` reads them), and the damaged copies issue
//! 41 names: a flipped bit in a payload, a truncated member, a wrong
//! Content-Length, two records in one gzip member.

use super::digest::{Encoding, encode};
use super::*;
use crate::container::tests::gz;
use crate::{Content, Options, Reader};

const DATE: &str = "2024-05-01T12:00:00Z";

fn b32(alg: Algorithm, data: &[u8]) -> String {
    format!(
        "{}:{}",
        format!("{alg:?}").to_ascii_lowercase(),
        encode(&alg.hash(data), Encoding::Base32)
    )
}

/// A WARC/1.1 record: the fields given (a `None` value leaves a default
/// field out), then the block.
fn record(kind: &str, fields: &[(&str, Option<&str>)], block: &[u8]) -> Vec<u8> {
    let mut head = String::from("WARC/1.1\r\n");
    let defaults = [
        ("WARC-Type", kind.to_owned()),
        (
            "WARC-Record-ID",
            format!("<urn:uuid:{kind}-{}>", block.len()),
        ),
        ("WARC-Date", DATE.to_owned()),
    ];
    for (name, value) in &defaults {
        match fields.iter().find(|(n, _)| n == name) {
            Some((_, None)) => {}
            Some((_, Some(v))) => head.push_str(&format!("{name}: {v}\r\n")),
            None => head.push_str(&format!("{name}: {value}\r\n")),
        }
    }
    for (name, value) in fields {
        if let (false, Some(v)) = (defaults.iter().any(|(n, _)| n == name), value) {
            head.push_str(&format!("{name}: {v}\r\n"));
        }
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
    let mut out = head.into_bytes();
    out.extend_from_slice(block);
    out.extend_from_slice(b"\r\n\r\n");
    out
}

/// An HTTP response block: the head's extra lines, then the payload.
fn http_block(extra: &str, payload: &[u8]) -> Vec<u8> {
    let mut b = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n{extra}\r\n").into_bytes();
    b.extend_from_slice(payload);
    b
}

/// A response record with correct digests (SHA-1, base32), the block and
/// payload digests given as `Some` overriding them.
fn response(id: &str, payload: &[u8], extra: &str, payload_digest: Option<&str>) -> Vec<u8> {
    let block = http_block(extra, payload);
    let bd = b32(Algorithm::Sha1, &block);
    let pd = payload_digest.map_or_else(|| b32(Algorithm::Sha1, payload), str::to_owned);
    record(
        "response",
        &[
            ("WARC-Record-ID", Some(id)),
            ("WARC-Target-URI", Some("http://example.com/")),
            ("Content-Type", Some("application/http; msgtype=response")),
            ("WARC-Block-Digest", Some(&bd)),
            ("WARC-Payload-Digest", Some(&pd)),
        ],
        &block,
    )
}

fn read(data: &[u8]) -> Vec<Result<Record, RecordError>> {
    let opts = Options {
        content: Content::Block,
        ..Options::default()
    };
    Reader::with_options(data, opts).collect()
}

/// Every problem of a file, as `spinneret check` finds them: the record's
/// own, then the file's, and the reader's errors.
fn check_file(data: &[u8]) -> Vec<Problem> {
    let mut file = FileCheck::new();
    let mut out = Vec::new();
    for r in read(data) {
        match r {
            Ok(rec) => {
                out.extend(check_record(&rec));
                out.extend(file.check(&rec));
            }
            Err(e) => out.push(Problem::from(e)),
        }
    }
    out
}

fn kinds(problems: &[Problem]) -> Vec<&'static str> {
    problems.iter().map(Problem::kind).collect()
}

fn one(data: &[u8]) -> Record {
    let mut recs = read(data);
    assert_eq!(recs.len(), 1, "{recs:?}");
    recs.pop().unwrap().expect("a record")
}

#[test]
fn a_good_record_verifies() {
    let data = response("<urn:uuid:1>", b"<p>hello</p>", "", None);
    let v = verify_record(&one(&data));
    assert_eq!(v.problems, []);
    assert_eq!(v.block, Some(DigestOutcome::Verified));
    assert_eq!(v.payload, Some(DigestOutcome::Verified));
    // Gzip per record, the same; the same record twice is a duplicate id.
    assert_eq!(check_file(&gz(&data)), []);
    assert_eq!(
        kinds(&check_file(&[gz(&data), gz(&data)].concat())),
        ["duplicate-record-id"]
    );
}

/// A flipped bit in the payload: both digests fail, with the declared and
/// computed values.
#[test]
fn a_flipped_bit_fails_both_digests() {
    let mut data = response("<urn:uuid:1>", b"<p>hello</p>", "", None);
    let at = data.windows(5).position(|w| w == b"hello").unwrap();
    data[at] ^= 0x01;
    let v = verify_record(&one(&data));
    assert_eq!(
        kinds(&v.problems),
        ["block-digest-mismatch", "payload-digest-mismatch"]
    );
    assert!(v.problems.iter().all(|p| p.severity() == Severity::Error));
    assert_eq!(v.block, Some(DigestOutcome::Mismatch));
    let Problem::PayloadDigestMismatch {
        declared,
        computed,
        len,
    } = &v.problems[1]
    else {
        panic!()
    };
    assert_eq!(declared, &b32(Algorithm::Sha1, b"<p>hello</p>"));
    assert_eq!(computed, &b32(Algorithm::Sha1, b"<p>iello</p>"));
    assert_eq!(*len, 12);
    // Through gzip too.
    assert_eq!(
        kinds(&check_file(&gz(&data))),
        ["block-digest-mismatch", "payload-digest-mismatch"]
    );
}

/// Hex and base64 values, SHA-256 and MD5, resource records (payload =
/// block).
#[test]
fn other_algorithms_and_encodings() {
    let block = b"plain text resource";
    let sha256 = format!(
        "sha256:{}",
        encode(&Algorithm::Sha256.hash(block), Encoding::Hex)
    );
    let md5 = format!(
        "MD5:{}",
        encode(&Algorithm::Md5.hash(block), Encoding::Base64)
    );
    let data = record(
        "resource",
        &[
            ("WARC-Block-Digest", Some(&sha256)),
            ("WARC-Payload-Digest", Some(&md5)),
        ],
        block,
    );
    let v = verify_record(&one(&data));
    assert_eq!(v.problems, []);
    assert_eq!(v.payload, Some(DigestOutcome::Verified));
}

/// A payload digest over the de-chunked, or decoded, body is its own
/// verdict, not a plain mismatch.
#[test]
fn payload_digest_over_a_decoded_body() {
    let body = b"<p>hello chunks</p>";
    let chunked = [
        format!("{:x}\r\n", body.len()).as_bytes(),
        body,
        b"\r\n0\r\n\r\n",
    ]
    .concat();
    let pd = b32(Algorithm::Sha1, body);
    let data = response(
        "<urn:uuid:c>",
        &chunked,
        "Transfer-Encoding: chunked\r\n",
        Some(&pd),
    );
    let v = verify_record(&one(&data));
    assert_eq!(kinds(&v.problems), ["payload-digest-over-decoded-body"]);
    assert_eq!(v.problems[0].severity(), Severity::Warning);
    assert!(
        v.problems[0].to_string().contains("de-chunked"),
        "{}",
        v.problems[0]
    );
    assert_eq!(v.payload, Some(DigestOutcome::OverDecoded));

    let gzipped = gz(body);
    let data = response(
        "<urn:uuid:g>",
        &gzipped,
        "Content-Encoding: gzip\r\n",
        Some(&pd),
    );
    let v = verify_record(&one(&data));
    assert!(matches!(
        v.problems[..],
        [Problem::PayloadDigestOverDecoded {
            decoding: Decoding::ContentDecoded,
            ..
        }]
    ));
    // Over neither: a mismatch.
    let other = b32(Algorithm::Sha1, b"something else");
    let data = response(
        "<urn:uuid:g>",
        &gzipped,
        "Content-Encoding: gzip\r\n",
        Some(&other),
    );
    assert_eq!(
        kinds(&check_record(&one(&data))),
        ["payload-digest-mismatch"]
    );
}

#[test]
fn unverifiable_digests() {
    let cases = [
        ("blake3:abcd", Severity::Note),
        ("sha1:not-base32-at-all", Severity::Warning),
        ("3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ", Severity::Warning),
    ];
    for (value, severity) in cases {
        let data = record("resource", &[("WARC-Block-Digest", Some(value))], b"x");
        let v = verify_record(&one(&data));
        assert_eq!(kinds(&v.problems), ["unverifiable-digest"], "{value}");
        assert_eq!(v.problems[0].severity(), severity, "{value}");
        assert_eq!(v.block, Some(DigestOutcome::Unverifiable));
    }
    // A record read without its block cannot be verified.
    let data = response("<urn:uuid:1>", b"<p>x", "", None);
    let rec = Reader::new(&data).next().unwrap().unwrap();
    let v = verify_record(&rec);
    assert!(v.problems.iter().all(|p| matches!(
        p,
        Problem::UnverifiableDigest {
            reason: Unverifiable::BlockNotHeld,
            ..
        }
    )));
    assert_eq!(v.problems.len(), 2);
}

#[test]
fn mandatory_and_malformed_fields() {
    let data = record(
        "resource",
        &[
            ("WARC-Record-ID", None),
            ("WARC-Date", None),
            ("WARC-Type", None),
        ],
        b"x",
    );
    let p = check_record(&one(&data));
    assert_eq!(
        p,
        [
            Problem::MissingField("WARC-Record-ID"),
            Problem::MissingField("WARC-Date"),
            Problem::MissingField("WARC-Type"),
        ]
    );
    assert!(p.iter().all(|p| p.severity() == Severity::Error));
    for (field, value) in [
        ("WARC-Date", "2024-05-01 12:00:00"),
        ("WARC-Date", "2023-02-29T00:00:00Z"),
        ("WARC-Date", "2024-05-01T12:00Z"),
        ("WARC-Date", "2024-05-01T12:00:00+02:00"),
        ("WARC-Record-ID", "urn:uuid:1234"),
        ("WARC-Record-ID", "<urn:uuid:12 34>"),
    ] {
        let data = record("resource", &[(field, Some(value))], b"x");
        let p = check_record(&one(&data));
        assert_eq!(kinds(&p), ["malformed-field"], "{value}");
        assert_eq!(p[0].severity(), Severity::Warning);
    }
    for value in ["2024-02-29T23:59:60Z", "2024-05-01T12:00:00.123456Z", DATE] {
        assert!(is_warc_date(value), "{value}");
    }
    let data = record("novel", &[], b"x");
    assert_eq!(kinds(&check_record(&one(&data))), ["unknown-record-type"]);
    // Missing Content-Length: the reader's error.
    let data = b"WARC/1.1\r\nWARC-Type: resource\r\n\r\nx\r\n\r\n";
    let p = check_file(data);
    assert_eq!(kinds(&p), ["bad-header"]);
    assert_eq!((p[0].severity(), p[0].offset()), (Severity::Error, Some(0)));
}

#[test]
fn http_heads() {
    // A status line without a reason phrase: a warning, digests still fine.
    let block = b"HTTP/1.1 200\r\nContent-Type: text/plain\r\n\r\nok".to_vec();
    let bd = b32(Algorithm::Sha1, &block);
    let pd = b32(Algorithm::Sha1, b"ok");
    let data = record(
        "response",
        &[
            ("Content-Type", Some("application/http;msgtype=response")),
            ("WARC-Target-URI", Some("http://e.com/")),
            ("WARC-Block-Digest", Some(&bd)),
            ("WARC-Payload-Digest", Some(&pd)),
        ],
        &block,
    );
    let v = verify_record(&one(&data));
    assert_eq!(
        v.problems,
        [Problem::HttpSyntax {
            line: 1,
            what: HttpSyntax::NoReasonPhrase
        }]
    );
    assert_eq!(v.payload, Some(DigestOutcome::Verified));
    // A request: its payload after the head; bare LFs warned about.
    let block = b"POST /f HTTP/1.1\nHost: e.com\n\na=1".to_vec();
    let pd = b32(Algorithm::Sha1, b"a=1");
    let data = record(
        "request",
        &[
            ("Content-Type", Some("application/http; msgtype=request")),
            ("WARC-Target-URI", Some("http://e.com/f")),
            ("WARC-Payload-Digest", Some(&pd)),
        ],
        &block,
    );
    let v = verify_record(&one(&data));
    assert_eq!(kinds(&v.problems), ["http-syntax"]);
    assert_eq!(v.payload, Some(DigestOutcome::Verified));
    // A request that declares HTTP and holds none: an error.
    let data = record(
        "request",
        &[("Content-Type", Some("application/http; msgtype=request"))],
        b"not a request",
    );
    let p = check_record(&one(&data));
    assert_eq!(kinds(&p), ["no-http-message"]);
    assert_eq!(p[0].severity(), Severity::Error);
    // A response that declares HTTP and holds none: read as a block, a
    // record without an HTTP head; an error all the same.
    let data = record(
        "response",
        &[("Content-Type", Some("application/http; msgtype=response"))],
        b"not a response",
    );
    assert_eq!(kinds(&check_file(&data)), ["no-http-message"]);
    let data = record(
        "response",
        &[("WARC-Target-URI", Some("https://e.com/"))],
        b"not a response",
    );
    let p = check_file(&data);
    assert!(p[0].to_string().contains("http(s) target"), "{}", p[0]);
}

#[test]
fn revisits() {
    let data = record("revisit", &[], b"");
    assert_eq!(
        kinds(&check_record(&one(&data))),
        ["revisit-without-profile", "revisit-without-target-uri"]
    );
    let profile = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
    let data = record(
        "revisit",
        &[
            ("WARC-Profile", Some(profile)),
            ("WARC-Refers-To-Target-URI", Some("http://e.com/")),
        ],
        b"",
    );
    let p = check_record(&one(&data));
    assert_eq!(kinds(&p), ["revisit-without-payload-digest"]);
    assert_eq!(p[0].severity(), Severity::Error);
    // A revisit's payload digest names its original's payload: not
    // verified against its own block.
    let data = record(
        "revisit",
        &[
            ("WARC-Profile", Some(profile)),
            ("WARC-Refers-To-Target-URI", Some("http://e.com/")),
            (
                "WARC-Payload-Digest",
                Some("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"),
            ),
        ],
        b"",
    );
    let v = verify_record(&one(&data));
    assert_eq!(
        (v.problems.len(), v.payload),
        (0, Some(DigestOutcome::NotApplicable))
    );
    // WARC-Refers-To where it shall not be.
    let data = record("response", &[("WARC-Refers-To", Some("<urn:x:1>"))], b"");
    assert_eq!(kinds(&check_record(&one(&data))), ["refers-to-not-allowed"]);
    // WARC-Truncated: a note.
    let data = record("resource", &[("WARC-Truncated", Some("length"))], b"x");
    let p = check_record(&one(&data));
    assert_eq!(
        (kinds(&p), p[0].severity()),
        (vec!["truncated"], Severity::Note)
    );
}

/// A revisit against its original earlier in the file: a different payload
/// digest is an error, a different target URI a warning, an original not
/// in the file nothing.
#[test]
fn revisits_against_their_originals() {
    let original = response("<urn:uuid:orig>", b"<p>same</p>", "", None);
    let profile = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
    let revisit = |digest: &str, to: &str, target: &str| {
        record(
            "revisit",
            &[
                ("WARC-Record-ID", Some("<urn:uuid:rev>")),
                ("WARC-Profile", Some(profile)),
                ("WARC-Refers-To", Some(to)),
                ("WARC-Refers-To-Target-URI", Some(target)),
                ("WARC-Refers-To-Date", Some(DATE)),
                ("WARC-Payload-Digest", Some(digest)),
            ],
            b"HTTP/1.1 200 OK\r\n\r\n",
        )
    };
    let same = b32(Algorithm::Sha1, b"<p>same</p>");
    let file = [
        original.clone(),
        revisit(&same, "<urn:uuid:orig>", "http://example.com/"),
    ]
    .concat();
    assert_eq!(check_file(&file), []);
    let other = b32(Algorithm::Sha1, b"<p>other</p>");
    let file = [
        original.clone(),
        revisit(&other, "<urn:uuid:orig>", "http://example.org/"),
    ]
    .concat();
    let p = check_file(&file);
    assert_eq!(
        kinds(&p),
        ["revisit-digest-differs", "revisit-original-differs"]
    );
    assert_eq!(
        (p[0].severity(), p[1].severity()),
        (Severity::Error, Severity::Warning)
    );
    let file = [original, revisit(&other, "<urn:uuid:elsewhere>", "x")].concat();
    assert_eq!(check_file(&file), []);
}

#[test]
fn duplicate_record_ids() {
    let a = response("<urn:uuid:same>", b"one", "", None);
    let b = response("<urn:uuid:same>", b"two", "", None);
    let p = check_file(&[a.clone(), b].concat());
    assert_eq!(
        p,
        [Problem::DuplicateRecordId {
            id: "<urn:uuid:same>".into(),
            first_offset: 0
        }]
    );
    assert_eq!(p[0].severity(), Severity::Warning);
}

/// Two records in one gzip member: an error, once per member; a whole-file
/// gzip of three records is one.
#[test]
fn one_record_per_gzip_member() {
    let recs: Vec<Vec<u8>> = (0..3)
        .map(|i| response(&format!("<urn:uuid:{i}>"), b"<p>x", "", None))
        .collect();
    let shared = [gz(&recs[..2].concat()), gz(&recs[2])].concat();
    let p = check_file(&shared);
    assert_eq!(p, [Problem::SharedMember { offset: 0 }]);
    assert_eq!(p[0].severity(), Severity::Error);
    assert_eq!(kinds(&check_file(&gz(&recs.concat()))), ["shared-member"]);
    // One per member, and a plain file: nothing.
    let per_record: Vec<u8> = recs.iter().flat_map(|r| gz(r)).collect();
    assert_eq!(check_file(&per_record), []);
    assert_eq!(check_file(&recs.concat()), []);
}

/// A truncated member and a wrong Content-Length are the reader's errors,
/// at their offsets; the records after them are still checked.
#[test]
fn damaged_framing() {
    let recs: Vec<Vec<u8>> = (0..3)
        .map(|i| response(&format!("<urn:uuid:{i}>"), b"<p>some page text", "", None))
        .collect();
    let members: Vec<Vec<u8>> = recs.iter().map(|r| gz(r)).collect();
    // The second member cut in the middle.
    let cut = &members[1][..members[1].len() / 2];
    let file = [members[0].clone(), cut.to_vec(), members[2].clone()].concat();
    let p = check_file(&file);
    assert_eq!(kinds(&p), ["corrupt-member"], "{p:?}");
    assert_eq!(p[0].offset(), Some(members[0].len() as u64));
    assert_eq!(p[0].severity(), Severity::Error);
    // The last member cut: the file ends inside it.
    let file = [members[0].clone(), cut.to_vec()].concat();
    let p = check_file(&file);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].severity(), Severity::Error);
    // A wrong Content-Length (one byte short) in a plain file.
    let text = String::from_utf8(recs[1].clone()).unwrap();
    let cl = text.split("Content-Length: ").nth(1).unwrap();
    let n: usize = cl[..cl.find('\r').unwrap()].parse().unwrap();
    let wrong = text.replace(
        &format!("Content-Length: {n}\r"),
        &format!("Content-Length: {}\r", n - 1),
    );
    let file = [recs[0].clone(), wrong.into_bytes(), recs[2].clone()].concat();
    let p = check_file(&file);
    assert_eq!(kinds(&p), ["bad-boundary"], "{p:?}");
    assert_eq!(p[0].offset(), Some(recs[0].len() as u64));
}

#[test]
fn kinds_are_distinct_and_messages_name_the_field() {
    let samples = [
        Problem::MissingField("WARC-Date"),
        Problem::RevisitWithoutProfile,
        Problem::SharedMember { offset: 7 },
        Problem::Reader(RecordError::Garbage { offset: 3, len: 2 }),
        Problem::UnverifiableDigest {
            field: DigestField::Payload,
            value: "x:y".into(),
            reason: Unverifiable::UnknownAlgorithm("x".into()),
        },
    ];
    let names: std::collections::HashSet<_> = samples.iter().map(Problem::kind).collect();
    assert_eq!(names.len(), samples.len());
    assert!(samples[0].to_string().contains("WARC-Date"));
    assert!(samples[2].to_string().contains("offset 7"));
    assert!(samples[4].to_string().contains("WARC-Payload-Digest"));
    assert_eq!(samples[3].offset(), Some(3));
    assert_eq!(samples[0].offset(), None);
    assert!(is_bracketed_uri("<urn:uuid:1d673b2a-c593-402e>"));
    assert!(!is_bracketed_uri("<>"));
    assert!(!is_bracketed_uri("<:x>"));
}

/// No input makes the checks panic: every prefix and a few corruptions of
/// a small file.
#[test]
fn never_panics() {
    let recs = [
        response(
            "<urn:uuid:1>",
            b"<p>x",
            "Transfer-Encoding: chunked\r\n",
            None,
        ),
        record(
            "revisit",
            &[("WARC-Refers-To", Some("<urn:uuid:1>"))],
            b"HTTP/1.1",
        ),
        record(
            "request",
            &[("Content-Type", Some("application/http"))],
            b"GET",
        ),
    ]
    .concat();
    for data in [recs.clone(), gz(&recs)] {
        for n in 0..data.len() {
            let _ = check_file(&data[..n]);
            let mut d = data.clone();
            d[n] ^= 0x5a;
            let _ = check_file(&d);
        }
    }
}
