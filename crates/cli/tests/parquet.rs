//! `spinneret links --format parquet`: the rows of the Parquet file are the
//! JSON Lines rows of the same run (with `--unique`, a profile, TSV's
//! choices), each with its record's offset and HTTP status, whatever
//! `--threads` and `--batch`; pages streamed by the writing thread (over
//! their budget, or over the pipeline's `STREAM_PAYLOAD`) included.

#![cfg(feature = "parquet")]

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt16Type, UInt64Type};
use arrow_array::{Array, RecordBatch};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use serde_json::{Map, Value};

const TEXT_COLUMNS: [&str; 10] = [
    "source", "target", "error", "raw", "tag", "attr", "kind", "rel", "text", "record",
];

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sample.warc.gz")
}

/// A path in the temporary folder, unique to this test process.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("spinneret-parquet-{}-{name}", std::process::id()))
}

/// `spinneret links` with `args`: its standard output.
fn run(args: &[&str], inputs: &[&Path]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_spinneret"))
        .arg("links")
        .args(args)
        .args(inputs)
        .output()
        .expect("run spinneret");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The JSON Lines output of `args`, parsed.
fn jsonl_rows(args: &[&str], inputs: &[&Path]) -> Vec<Value> {
    String::from_utf8(run(args, inputs))
        .expect("UTF-8 output")
        .split_terminator('\n')
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect()
}

/// The Parquet output of `args` (written with `-o`): its bytes and its
/// batches.
fn parquet(args: &[&str], inputs: &[&Path], name: &str) -> (Vec<u8>, Vec<RecordBatch>) {
    let path = temp(name);
    let mut all = vec![
        "--format",
        "parquet",
        "-o",
        path.to_str().expect("UTF-8 path"),
    ];
    all.extend_from_slice(args);
    let stdout = run(&all, inputs);
    assert!(stdout.is_empty(), "the rows went to the file");
    let bytes = std::fs::read(&path).expect("the Parquet file");
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).expect("open"))
        .expect("a Parquet file")
        .build()
        .expect("a reader");
    let batches = reader.collect::<Result<Vec<_>, _>>().expect("batches");
    std::fs::remove_file(&path).ok();
    (bytes, batches)
}

/// Each row's text columns as the JSON row `spinneret links` writes, with
/// the row's `offset` and `status`.
fn rows(batches: &[RecordBatch]) -> Vec<(Value, u64, Option<u16>)> {
    let mut out = Vec::new();
    for b in batches {
        let offset = b.column_by_name("offset").expect("offset");
        let offset = offset.as_primitive::<UInt64Type>();
        let status = b.column_by_name("status").expect("status");
        let status = status.as_primitive::<UInt16Type>();
        for i in 0..b.num_rows() {
            let mut row = Map::new();
            for name in TEXT_COLUMNS {
                let c = b.column_by_name(name).expect("a column").as_string::<i32>();
                let v = if c.is_null(i) {
                    Value::Null
                } else {
                    Value::String(c.value(i).to_owned())
                };
                row.insert(name.to_owned(), v);
            }
            let st = (!status.is_null(i)).then(|| status.value(i));
            out.push((Value::Object(row), offset.value(i), st));
        }
    }
    out
}

/// Checks that the Parquet rows of `args` are the JSON rows of `args`.
fn assert_same_rows(args: &[&str], inputs: &[&Path], name: &str) -> usize {
    let (_, batches) = parquet(args, inputs, name);
    let got = rows(&batches);
    let want = jsonl_rows(args, inputs);
    assert_eq!(got.len(), want.len(), "{args:?}");
    for (i, ((row, offset, _), json)) in got.iter().zip(&want).enumerate() {
        assert_eq!(row, json, "{args:?}: row {i}");
        // The record's offset is the `record` field's.
        let record = json["record"].as_str().expect("record");
        assert!(record.ends_with(&format!(":{offset}")), "{record} {offset}");
    }
    got.len()
}

#[test]
fn rows_equal_the_json_rows() {
    let s = sample();
    assert_eq!(assert_same_rows(&[], &[&s], "plain"), 49);
    let unique = assert_same_rows(&["--unique"], &[&s], "unique");
    assert!(unique < 49, "{unique}");
    assert_same_rows(&["--profile", "aggressive", "--unique"], &[&s], "aggr");
    assert_same_rows(&["--profile", "surt"], &[&s], "surt");
}

#[test]
fn rows_carry_the_records_http_status() {
    let (_, batches) = parquet(&[], &[&sample()], "status");
    let got = rows(&batches);
    assert!(!got.is_empty());
    for (row, _, status) in &got {
        // The sample's pages are HTTP responses (200 and a redirect), but
        // for one `resource` record (a file, no HTTP head).
        let resource = row["source"] == "https://files.example.net/dir/index.html";
        match status {
            Some(s) => assert!(!resource && (200..400).contains(s), "{row}: {s}"),
            None => assert!(resource, "{row}"),
        }
    }
}

#[test]
fn file_does_not_depend_on_threads_or_batches() {
    let s = sample();
    let (one, _) = parquet(&["--threads", "1"], &[&s], "t1");
    let (two, _) = parquet(&["--threads", "2", "--batch", "1"], &[&s], "t2");
    assert_eq!(one, two);
}

#[test]
fn no_links_is_a_file_with_the_schema_and_no_rows() {
    let page = temp("empty.html");
    std::fs::write(&page, "<!doctype html><p>no links").expect("write");
    let (bytes, batches) = parquet(
        &[
            "--html",
            page.to_str().expect("UTF-8"),
            "--url",
            "https://a.example/",
        ],
        &[],
        "empty",
    );
    assert!(bytes.starts_with(b"PAR1") && bytes.ends_with(b"PAR1"));
    assert_eq!(batches.iter().map(RecordBatch::num_rows).sum::<usize>(), 0);
    std::fs::remove_file(page).ok();
}

/// A page of `n` links `<a href=/pI>x</a>`, each twice.
fn page(name: &str, n: usize) -> PathBuf {
    let mut s = String::from("<!doctype html><title>t</title>");
    for i in 0..n {
        let a = format!("<a href=/p{i}>x</a>");
        s.push_str(&a);
        s.push_str(&a);
    }
    let path = temp(name);
    std::fs::write(&path, s).expect("write the page");
    path
}

#[test]
fn streamed_pages_give_the_same_rows() {
    // Over its budget (30,000 links twice in 0.7 MB), and over
    // STREAM_PAYLOAD (400,000 links twice in 9 MB: several streamed
    // batches).
    for (name, n) in [("over-budget.html", 30_000), ("huge.html", 400_000)] {
        let path = page(name, n);
        let html = path.to_str().expect("UTF-8 path");
        let args = ["--html", html, "--url", "https://example.com/"];
        assert_eq!(assert_same_rows(&args, &[], "streamed"), 2 * n);
        let mut unique = args.to_vec();
        unique.push("--unique");
        assert_eq!(assert_same_rows(&unique, &[], "streamed-unique"), n);
        std::fs::remove_file(path).ok();
    }
}

#[test]
fn parquet_to_a_pipe_is_a_whole_file() {
    // Without -o, to an output that is not a terminal.
    let out = run(&["--format", "parquet"], &[&sample()]);
    assert!(out.starts_with(b"PAR1") && out.ends_with(b"PAR1"));
    let path = temp("pipe.parquet");
    std::fs::write(&path, &out).expect("write");
    let reader = ParquetRecordBatchReaderBuilder::try_new(File::open(&path).expect("open"))
        .expect("a Parquet file")
        .build()
        .expect("a reader");
    let rows: usize = reader.map(|b| b.expect("a batch").num_rows()).sum();
    assert_eq!(rows, 49);
    std::fs::remove_file(path).ok();
}
