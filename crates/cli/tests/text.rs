//! `spinneret text` through the binary, over the corpus WARC/ARC files
//! and the committed sample: the WET output read back with spinneret's
//! reader (a warcinfo record, then one conversion record per HTML 2xx
//! response in input order, each referring to its response, its length
//! and block digest right, each its own gzip member), indexed by
//! `spinneret index`; the output the same whatever `--threads`, record
//! ids the same on every run; the JSON rows the library's extraction of
//! each record, the Parquet rows the JSON rows; `--format text` of a page
//! the library's text; a damaged record reported and the rest written.
//! (warcio, `warcio check` and cdxj-indexer read the WET files in
//! crates/python/tests/test_text_wet.py.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{Map, Value};
use spinneret_warc::verify::{self, DigestOutcome, Severity};
use spinneret_warc::{Content, Reader, Record, RecordType};

/// A fixed date for the warcinfo record.
const DATE: &str = "2026-12-01T00:00:00Z";

fn corpus_warcs() -> Vec<PathBuf> {
    let root = spinneret_testdata::path("corpus/warc");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir)
            .expect("the corpus folder")
            .flatten()
        {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                stack.push(p);
            } else if [".warc", ".warc.gz", ".arc", ".arc.gz"]
                .iter()
                .any(|x| name.ends_with(x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() >= 30, "the corpus WARCs are missing");
    out
}

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.warc.gz")
}

/// The corpus files and the sample.
fn all_inputs() -> Vec<PathBuf> {
    let mut v = corpus_warcs();
    v.push(sample());
    v
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spinneret-text-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `spinneret ARGS... FILES...`.
fn spinneret(args: &[&str], files: &[PathBuf]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .args(args)
        .args(files)
        .output()
        .expect("run spinneret")
}

/// `spinneret text ARGS FILES`: its output, which must be complete (exit
/// code 0, or 1 for the damaged corpus files).
fn text(args: &[&str], files: &[PathBuf]) -> Vec<u8> {
    let mut all = vec!["text"];
    all.extend_from_slice(args);
    let out = spinneret(&all, files);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: {err}");
    assert!(err.contains("spinneret text: "), "{err}");
    out.stdout
}

/// `--format wet` of `files` written to a file: its bytes.
fn wet(args: &[&str], files: &[PathBuf], dir: &Path, name: &str) -> Vec<u8> {
    let path = dir.join(name);
    let mut all = vec!["--format", "wet", "-o", path.to_str().unwrap()];
    all.extend_from_slice(args);
    assert!(text(&all, files).is_empty(), "the records went to the file");
    std::fs::read(&path).unwrap()
}

/// The test's own reading of which records are pages: HTML responses and
/// resources with a payload and a 2xx status or none.
fn is_page(r: &Record) -> bool {
    r.is_html() && !r.body.is_empty() && r.status().is_none_or(|s| (200..300).contains(&s))
}

/// Every page record of `files`, in order, with its file.
fn pages(files: &[PathBuf]) -> Vec<(String, Record)> {
    let mut out = Vec::new();
    for f in files {
        let data = std::fs::read(f).unwrap();
        for r in Reader::new(&data).flatten() {
            if is_page(&r) {
                out.push((f.display().to_string(), r));
            }
        }
    }
    out
}

/// The library's extraction of a record with `options`.
fn extract(r: &Record, options: &spinneret_text::Options) -> spinneret_text::Extraction {
    let page = spinneret_text::Page {
        bytes: &r.body,
        url: r.target_uri.as_deref(),
        content_type: r.payload_content_type().map(str::as_bytes),
        content_language: r.http.as_ref().and_then(|h| h.header("content-language")),
    };
    spinneret_text::extract_page(&page, options)
}

/// The records of a WET file, read with their blocks.
fn wet_records(bytes: &[u8]) -> Vec<Record> {
    let opts = spinneret_warc::Options {
        content: Content::Block,
        ..spinneret_warc::Options::default()
    };
    Reader::with_options(bytes, opts)
        .map(|r| r.expect("a WET record"))
        .collect()
}

/// The gzip members of `bytes`, each decompressed.
fn gzip_members(mut bytes: &[u8]) -> Vec<Vec<u8>> {
    use std::io::Read;
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let mut d = flate2::bufread::GzDecoder::new(bytes);
        let mut member = Vec::new();
        d.read_to_end(&mut member).expect("a gzip member");
        bytes = d.into_inner();
        out.push(member);
    }
    out
}

#[test]
fn wet_holds_one_conversion_record_per_page() {
    let dir = tmp("wet");
    let files = all_inputs();
    let bytes = wet(&["--date", DATE], &files, &dir, "all.warc.wet.gz");
    let want = pages(&files);
    assert!(want.len() > 100, "{} pages", want.len());
    let got = wet_records(&bytes);
    assert_eq!(got.len(), want.len() + 1);
    let info = &got[0];
    assert_eq!(info.kind, RecordType::Warcinfo);
    assert_eq!(info.version, "WARC/1.0");
    assert_eq!(info.date.as_deref(), Some(DATE));
    assert_eq!(info.header("WARC-Filename"), Some("all.warc.wet.gz"));
    assert_eq!(
        info.content_type.as_deref(),
        Some("application/warc-fields")
    );
    let fields = String::from_utf8(info.block.to_vec()).unwrap();
    for f in [
        "Software-Info: spinneret ",
        "Extracted-Date: Tue, 01 Dec 2026 00:00:00 GMT\r\n",
        "format: WARC File Format 1.0\r\n",
        "conformsTo: ",
        "extraction: whole page, plain text\r\n",
    ] {
        assert!(fields.contains(f), "{f:?} in {fields}");
    }
    // A conversion record's id is a function of its response's, one to
    // one (the corpus holds some responses twice: pywb's example.warc and
    // example.warc.gz); none is the warcinfo's.
    let mut by_response = std::collections::HashMap::new();
    let mut responses = std::collections::HashMap::new();
    for rec in &got[1..] {
        let (id, of) = (rec.record_id.clone(), rec.header("WARC-Refers-To"));
        assert_ne!(id, got[0].record_id);
        if let Some(of) = of {
            assert_eq!(by_response.entry(of).or_insert(id.clone()), &id);
            assert_eq!(*responses.entry(id).or_insert(of), of);
        }
    }
    for (i, rec) in got.iter().enumerate() {
        assert!(rec.starts_member && rec.ends_member, "record {i}");
        let v = verify::verify_record(rec);
        let errors: Vec<_> = v
            .problems
            .iter()
            .filter(|p| p.severity() != Severity::Note)
            .collect();
        assert!(errors.is_empty(), "record {i}: {errors:?}");
        if i > 0 {
            assert_eq!(v.block, Some(DigestOutcome::Verified), "record {i}");
        }
        assert_eq!(rec.block_len, rec.block.len() as u64);
    }
    for ((file, page), conv) in want.iter().zip(&got[1..]) {
        let at = format!("{file} at {}", page.offset);
        assert_eq!(conv.kind, RecordType::Conversion, "{at}");
        assert_eq!(
            conv.header("WARC-Refers-To"),
            page.record_id.as_deref(),
            "{at}"
        );
        assert_eq!(conv.target_uri, page.target_uri, "{at}");
        assert_eq!(conv.date, page.date, "{at}");
        assert_eq!(conv.content_type.as_deref(), Some("text/plain"));
        let id = conv.record_id.as_deref().unwrap();
        assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'), "{id}");
        assert_eq!(&id[24..25], "5", "a version-5 UUID: {id}");
        // The block: the title on its line, the text, a line feed.
        let ex = extract(page, &spinneret_text::Options::default());
        let mut block = String::new();
        if let Some(t) = ex.title.as_deref().filter(|t| !t.is_empty()) {
            block = format!("{t}\n");
        }
        if !ex.text.is_empty() {
            block.push_str(&ex.text);
            block.push('\n');
        }
        assert_eq!(&conv.block[..], block.as_bytes(), "{at}");
        assert_eq!(
            conv.header("WARC-Identified-Content-Language"),
            ex.language.map(|l| l.code),
            "{at}"
        );
        assert_eq!(
            conv.header("Spinneret-Page-Type"),
            Some(ex.page_type.as_str()),
            "{at}"
        );
    }
    // The headers in Common Crawl's order (and ours, an extension field,
    // before the content's).
    let first = String::from_utf8(gzip_members(&bytes)[1].clone()).unwrap();
    let names: Vec<&str> = first
        .split("\r\n\r\n")
        .next()
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(':').next().unwrap())
        .collect();
    let mut order = vec![
        "WARC-Type",
        "WARC-Target-URI",
        "WARC-Date",
        "WARC-Record-ID",
        "WARC-Refers-To",
        "WARC-Block-Digest",
        "WARC-Identified-Content-Language",
        "Spinneret-Page-Type",
        "Content-Type",
        "Content-Length",
    ];
    if !first.contains("WARC-Identified-Content-Language") {
        order.retain(|n| *n != "WARC-Identified-Content-Language");
    }
    assert_eq!(names, order);
    // One record a gzip member, every member a whole record.
    let members = gzip_members(&bytes);
    assert_eq!(members.len(), got.len());
    for m in &members {
        assert!(m.starts_with(b"WARC/1.0\r\n") && m.ends_with(b"\r\n\r\n"));
        assert_eq!(wet_records(m).len(), 1);
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn wet_is_plain_without_gzip_and_the_same_records() {
    let dir = tmp("plain");
    let s = [sample()];
    let gz = wet(&["--date", DATE], &s, &dir, "s.wet.gz");
    let plain = wet(&["--date", DATE], &s, &dir, "s.wet");
    assert_eq!(&gz[..2], &[0x1f, 0x8b]);
    assert!(plain.starts_with(b"WARC/1.0\r\nWARC-Type: warcinfo\r\n"));
    assert_eq!(
        gzip_members(&gz)[1..].concat(),
        plain[wet_records(&plain)[1].offset as usize..]
    );
    // To standard output: gzip unless --no-gzip.
    let out = text(&["--format", "wet", "--date", DATE], &s);
    assert_eq!(&out[..2], &[0x1f, 0x8b]);
    let out = text(&["--format", "wet", "--no-gzip", "--date", DATE], &s);
    assert_eq!(wet_records(&out).len(), wet_records(&plain).len());
    // A plain file: records at their stream offsets.
    assert!(
        wet_records(&plain)
            .iter()
            .all(|r| r.stream_offset == r.offset)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn index_lists_every_record_of_a_wet_file() {
    let dir = tmp("index");
    let bytes = wet(&["--date", DATE], &[sample()], &dir, "s.warc.wet.gz");
    let path = dir.join("s.warc.wet.gz");
    let records = wet_records(&bytes);
    let run = |args: &[&str], code: i32| {
        let mut all = vec!["index", "--no-sort"];
        all.extend_from_slice(args);
        let out = spinneret(&all, std::slice::from_ref(&path));
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        (String::from_utf8(out.stdout).unwrap(), err)
    };
    // By default (cdxj-indexer's types: response, revisit, resource,
    // metadata) a WET file gives no line; `--records conversion` one per
    // conversion record. `--records all` gives those lines and the
    // warcinfo record's, which has no WARC-Target-URI: keyed `-`, without
    // a `url`, as cdxj-indexer writes it.
    assert_eq!(run(&[], 0).0, "");
    let (conversions, _) = run(&["--records", "conversion"], 0);
    let (all, err) = run(&["--records", "all"], 0);
    assert!(!err.contains("bad record"), "{err}");
    let (warcinfo, rest) = all.split_once('\n').unwrap();
    assert_eq!(rest, conversions);
    let (key, body) = warcinfo.split_once(' ').unwrap();
    assert_eq!(key, "-");
    let json: Value = serde_json::from_str(body.split_once(' ').unwrap().1).unwrap();
    assert_eq!(json.get("url"), None, "{warcinfo}");
    assert_eq!(json.get("digest"), None, "{warcinfo}");
    assert_eq!(json["mime"], "application/warc-fields", "{warcinfo}");
    assert_eq!(json["offset"], "0", "{warcinfo}");
    let lines: Vec<&str> = conversions.lines().collect();
    assert_eq!(lines.len(), records.len() - 1);
    for (line, rec) in lines.iter().zip(&records[1..]) {
        let json: Value = serde_json::from_str(line.splitn(3, ' ').nth(2).unwrap()).unwrap();
        assert_eq!(json["offset"], rec.offset.to_string(), "{line}");
        assert_eq!(json.get("offset-kind"), None, "seekable: {line}");
        assert_eq!(json["url"].as_str(), rec.target_uri.as_deref(), "{line}");
        assert_eq!(json["mime"], "text/plain", "{line}");
        assert_eq!(json["filename"], "s.warc.wet.gz", "{line}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn output_does_not_depend_on_threads_and_ids_on_the_run() {
    let dir = tmp("threads");
    let files = all_inputs();
    // The same file name (its warcinfo's WARC-Filename) in two folders.
    let (d1, d3) = (dir.join("1"), dir.join("3"));
    std::fs::create_dir_all(&d1).unwrap();
    std::fs::create_dir_all(&d3).unwrap();
    let one = wet(&["--date", DATE, "--threads", "1"], &files, &d1, "t.wet.gz");
    let three = wet(&["--date", DATE, "--threads", "3"], &files, &d3, "t.wet.gz");
    assert!(one == three, "--threads changed the WET file");
    let j1 = text(&["--threads", "1", "--main-content"], &files);
    let j3 = text(&["--threads", "3", "--main-content"], &files);
    assert!(j1 == j3, "--threads changed the JSON lines");
    // Another run, another date: the same conversion records, byte for
    // byte (their ids included), after another warcinfo.
    let now = wet(&[], &files, &dir, "now.wet.gz");
    let after = |b: &[u8]| wet_records(b)[1].offset as usize;
    assert!(now[after(&now)..] == one[after(&one)..]);
    assert_ne!(wet_records(&now)[0].date.as_deref(), Some(DATE));
    // Another extraction of the same records: other ids.
    let main = wet(
        &["--date", DATE, "--main-content"],
        &[sample()],
        &dir,
        "m.wet.gz",
    );
    let whole = wet(&["--date", DATE], &[sample()], &dir, "w.wet.gz");
    let ids = |b: &[u8]| -> Vec<Option<String>> {
        wet_records(b).into_iter().map(|r| r.record_id).collect()
    };
    let (m, w) = (ids(&main), ids(&whole));
    assert_eq!(m.len(), w.len());
    assert!(m.iter().zip(&w).all(|(a, b)| a != b));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The schema's field names, in order.
fn schema_fields() -> Vec<String> {
    spinneret_columns::text::schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

/// JSON lines, parsed, each checked to have the schema's keys in order.
fn json_rows(out: &[u8]) -> Vec<Map<String, Value>> {
    let fields = schema_fields();
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| {
            let row: Map<String, Value> = serde_json::from_str(l).unwrap();
            let mut keys: Vec<&String> = row.keys().collect();
            let mut want: Vec<&String> = fields.iter().collect();
            keys.sort();
            want.sort();
            assert_eq!(keys, want, "{l}");
            // In the schema's order: each key after the one before.
            let at: Vec<usize> = fields
                .iter()
                .map(|f| l.find(&format!("\"{f}\":")).unwrap())
                .collect();
            assert!(at.windows(2).all(|w| w[0] < w[1]), "{l}");
            row
        })
        .collect()
}

#[test]
fn json_rows_are_the_librarys_extraction() {
    let files = all_inputs();
    let want = pages(&files);
    for args in [&[][..], &["--main-content", "--markdown", "--links"][..]] {
        let rows = json_rows(&text(args, &files));
        assert_eq!(rows.len(), want.len(), "{args:?}");
        let options = spinneret_text::Options {
            main_content: !args.is_empty(),
            format: if args.is_empty() {
                spinneret_text::Format::Text
            } else {
                spinneret_text::Format::Markdown
            },
            links: !args.is_empty(),
            ..spinneret_text::Options::default()
        };
        for (row, (file, page)) in rows.iter().zip(&want) {
            let at = format!("{file} at {}", page.offset);
            let ex = extract(page, &options);
            let s = |v: Option<&str>| v.map_or(Value::Null, |s| Value::String(s.to_owned()));
            assert_eq!(row["text"], ex.text.as_str(), "{at}");
            assert_eq!(row["file"], file.as_str(), "{at}");
            assert_eq!(row["offset"], page.offset, "{at}");
            assert_eq!(row["record_id"], s(page.record_id.as_deref()), "{at}");
            assert_eq!(row["url"], s(page.target_uri.as_deref()), "{at}");
            assert_eq!(row["date"], s(page.date.as_deref()), "{at}");
            assert_eq!(
                row["status"],
                page.status().map_or(Value::Null, Value::from)
            );
            assert_eq!(row["content_type"], s(page.payload_content_type()), "{at}");
            assert_eq!(row["encoding"], ex.encoding, "{at}");
            assert_eq!(row["title"], s(ex.title.as_deref()), "{at}");
            assert_eq!(row["html_lang"], s(ex.html_lang.as_deref()), "{at}");
            assert_eq!(row["canonical"], s(ex.canonical.as_deref()), "{at}");
            assert_eq!(row["published"], s(ex.published.as_deref()), "{at}");
            assert_eq!(row["page_type"], ex.page_type.as_str(), "{at}");
            let lang = ex.language;
            assert_eq!(row["language"], s(lang.map(|l| l.code)), "{at}");
            assert_eq!(
                row["language_confidence"].as_f64().map(|c| c as f32),
                lang.map(|l| l.confidence as f32),
                "{at}"
            );
        }
    }
}

#[cfg(feature = "parquet")]
#[test]
fn parquet_rows_are_the_json_rows() {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float32Type, UInt16Type, UInt64Type};
    use arrow_array::{Array, RecordBatch};
    use arrow_schema::DataType;
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    let dir = tmp("parquet");
    let files = all_inputs();
    let path = dir.join("t.parquet");
    let out = text(
        &["--format", "parquet", "-o", path.to_str().unwrap()],
        &files,
    );
    assert!(out.is_empty());
    let reader = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&path).unwrap())
        .unwrap()
        .build()
        .unwrap();
    let batches: Vec<RecordBatch> = reader.map(Result::unwrap).collect();
    let mut got = Vec::new();
    for b in &batches {
        assert_eq!(
            b.schema().fields(),
            spinneret_columns::text::schema().fields()
        );
        for i in 0..b.num_rows() {
            let mut row = Map::new();
            for (f, col) in b.schema().fields().iter().zip(b.columns()) {
                let v = if col.is_null(i) {
                    Value::Null
                } else {
                    match f.data_type() {
                        DataType::Utf8 => Value::from(col.as_string::<i32>().value(i)),
                        DataType::UInt64 => Value::from(col.as_primitive::<UInt64Type>().value(i)),
                        DataType::UInt16 => Value::from(col.as_primitive::<UInt16Type>().value(i)),
                        DataType::Float32 => {
                            Value::from(f64::from(col.as_primitive::<Float32Type>().value(i)))
                        }
                        other => panic!("a column of {other}"),
                    }
                };
                row.insert(f.name().clone(), v);
            }
            got.push(row);
        }
    }
    let mut want = json_rows(&text(&[], &files));
    // The JSON confidence is the 32-bit value's shortest form.
    for rows in [&mut got, &mut want] {
        for r in rows.iter_mut() {
            if let Some(c) = r["language_confidence"].as_f64() {
                r.insert("language_confidence".into(), Value::from(c as f32));
            }
        }
    }
    assert_eq!(got.len(), want.len());
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        assert_eq!(g, w, "row {i}");
    }
    // The same file whatever the threads.
    let path3 = dir.join("t3.parquet");
    text(
        &[
            "--format",
            "parquet",
            "--threads",
            "3",
            "-o",
            path3.to_str().unwrap(),
        ],
        &files,
    );
    assert!(std::fs::read(&path).unwrap() == std::fs::read(&path3).unwrap());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn text_of_an_html_page_is_the_librarys_text() {
    let dir = tmp("html");
    let page = dir.join("p.html");
    let html = "<!doctype html><html lang=en><title>Rain</title><nav><a href=/>Home</a></nav>\
        <article><h1>Rain in the valley</h1><p>It rained all day in the valley, and the river \
        rose by a metre, which the <a href=/farm>farmers</a> had feared since spring.</p>\
        <ul><li>one<li>two</ul></article><footer>(c) 2026</footer>";
    std::fs::write(&page, html).unwrap();
    let url = "https://example.com/rain";
    let p = page.to_str().unwrap();
    for (args, main_content, markdown, links) in [
        (&["--format", "text"][..], false, false, false),
        (
            &["--format", "text", "--main-content"][..],
            true,
            false,
            false,
        ),
        (&["--format", "markdown", "--links"][..], false, true, true),
        (
            &["--format", "text", "--markdown", "--main-content"][..],
            true,
            true,
            false,
        ),
    ] {
        let mut all = args.to_vec();
        all.extend_from_slice(&["--html", p, "--url", url]);
        let out = String::from_utf8(text(&all, &[])).unwrap();
        let options = spinneret_text::Options {
            main_content,
            format: if markdown {
                spinneret_text::Format::Markdown
            } else {
                spinneret_text::Format::Text
            },
            links,
            ..spinneret_text::Options::default()
        };
        let want = spinneret_text::extract_page(
            &spinneret_text::Page {
                url: Some(url),
                ..spinneret_text::Page::new(html.as_bytes())
            },
            &options,
        );
        assert!(!want.text.is_empty());
        assert_eq!(out, format!("{}\n", want.text), "{args:?}");
    }
    // Without a URL; and its JSON row has none.
    let out = String::from_utf8(text(&["--format", "text", "--html", p], &[])).unwrap();
    let want = spinneret_text::extract_page(
        &spinneret_text::Page::new(html.as_bytes()),
        &spinneret_text::Options::default(),
    );
    assert_eq!(out, format!("{}\n", want.text));
    let rows = json_rows(&text(&["--html", p], &[]));
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["url"], Value::Null);
    assert_eq!(rows[0]["file"], p);
    assert_eq!(rows[0]["offset"], 0);
    // In WET, a file: URL.
    let w = text(&["--format", "wet", "--no-gzip", "--html", p], &[]);
    let recs = wet_records(&w);
    assert_eq!(recs.len(), 2);
    let target = recs[1].target_uri.as_deref().unwrap();
    assert!(
        target.starts_with("file:///") && target.ends_with("/p.html"),
        "{target}"
    );
    assert_eq!(recs[1].header("WARC-Refers-To"), None);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn pages_of_text_are_separated_by_form_feed_lines() {
    let files = [sample()];
    let want = pages(&files);
    assert!(want.len() >= 3);
    let out = String::from_utf8(text(&["--format", "text"], &files)).unwrap();
    let got: Vec<&str> = out.split("\n\x0c\n").collect();
    assert_eq!(got.len(), want.len());
    for (i, ((_, page), t)) in want.iter().zip(&got).enumerate() {
        let ex = extract(page, &spinneret_text::Options::default());
        let last = i + 1 == got.len();
        let t = if last {
            t.strip_suffix('\n').unwrap()
        } else {
            t
        };
        assert_eq!(*t, ex.text, "page {i}");
    }
}

#[test]
fn every_status_with_any_status() {
    let files = [sample()];
    let all: Vec<Record> = {
        let data = std::fs::read(&files[0]).unwrap();
        Reader::new(&data)
            .flatten()
            .filter(|r| r.is_html() && !r.body.is_empty())
            .collect()
    };
    let rows = json_rows(&text(&["--any-status"], &files));
    assert_eq!(rows.len(), all.len());
    assert!(all.len() > pages(&files).len(), "the sample has a redirect");
}

#[test]
fn a_damaged_record_is_reported_and_the_rest_written() {
    let dir = tmp("damaged");
    let src_path = spinneret_testdata::path("corpus/warc/pywb/iana.warc.gz");
    let src = std::fs::read(&src_path).unwrap();
    let good = pages(std::slice::from_ref(&src_path));
    assert!(good.len() > 10);
    // Flip bytes inside the tenth page's gzip member.
    let hit = &good[9].1;
    let at = hit.offset as usize + 40;
    let mut bad = src.clone();
    for b in &mut bad[at..at + 16] {
        *b ^= 0x5a;
    }
    let path = dir.join("iana.warc.gz");
    std::fs::write(&path, &bad).unwrap();
    let out = spinneret(
        &["text", "--format", "wet", "--no-gzip", "--date", DATE],
        std::slice::from_ref(&path),
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "bad record: {}: offset {}",
            path.display(),
            hit.offset
        )),
        "{err}"
    );
    let got: Vec<Option<String>> = wet_records(&out.stdout)[1..]
        .iter()
        .map(|r| r.header("WARC-Refers-To").map(str::to_owned))
        .collect();
    let want: Vec<Option<String>> = good
        .iter()
        .filter(|(_, r)| r.offset != hit.offset)
        .map(|(_, r)| r.record_id.clone())
        .collect();
    assert_eq!(got, want, "every other page written, none wrong");
    // --strict stops at it.
    let strict = spinneret(&["text", "--strict"], std::slice::from_ref(&path));
    assert_eq!(strict.status.code(), Some(2));
    assert_eq!(json_rows(&strict.stdout).len(), 9);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn flags_that_mean_nothing_together_are_usage_errors() {
    let s = [sample()];
    for args in [
        &["text", "--links"][..],
        &["text", "--no-gzip"][..],
        &["text", "--format", "text", "--date", DATE][..],
        &["text", "--format", "wet", "--date", "yesterday"][..],
        &["text", "--url", "https://a.example/"][..],
    ] {
        let out = spinneret(args, &s);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
    }
    let out = spinneret(&["text", "--help"], &[]);
    let help = String::from_utf8(out.stdout).unwrap();
    for what in [
        "2xx",
        "--any-status",
        "form feed",
        "--no-gzip",
        "gzip member",
    ] {
        assert!(help.contains(what), "{what} in --help");
    }
}
