//! The real WARC/ARC files of the shared corpus: read without panic, records
//! cross-checked against `corpus/urls/warc_url_digest.tsv`, and fault
//! injection (truncation, bit flips) proving that records untouched by the
//! damage are still produced.

use spinneret_testdata::Rng;
use std::collections::HashMap;
use std::path::PathBuf;

use spinneret_warc::ahead::{Ahead, InlinePrefetch, Prefetch, Splitter};
use spinneret_warc::{Container, Options, Reader, Record, RecordError};

const SUBDIRS: [&str; 8] = [
    "dolma",
    "pywb",
    "resiliparse",
    "stormcrawler",
    "ukwa-webarchive-discovery",
    "warcat",
    "warcbench",
    "cdx",
];

fn corpus_files() -> Vec<(String, PathBuf)> {
    let mut out = Vec::new();
    for sub in SUBDIRS {
        if sub == "cdx" {
            continue;
        }
        for suffix in [".warc", ".warc.gz", ".arc", ".arc.gz"] {
            for p in spinneret_testdata::files_with_suffix(&format!("corpus/warc/{sub}"), suffix) {
                let name = format!("{sub}/{}", p.file_name().unwrap().to_string_lossy());
                out.push((name, p));
            }
        }
    }
    out.sort();
    out
}

fn split(reader: Reader<'_>) -> (Vec<Record>, Vec<RecordError>) {
    let mut recs = Vec::new();
    let mut errs = Vec::new();
    for item in reader {
        match item {
            Ok(r) => recs.push(r),
            Err(e) => errs.push(e),
        }
    }
    (recs, errs)
}

fn read_all(data: &[u8]) -> (Vec<Record>, Vec<RecordError>) {
    split(Reader::new(data))
}

/// A reader that returns small reads of varying sizes (1 to 4096 bytes,
/// pseudo-random), to prove the streaming reader does not depend on them.
struct Choppy<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl std::io::Read for Choppy<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let want = match self.rng.next_u64() % 4 {
            0 => 1 + (self.rng.next_u64() % 7) as usize,
            1 => 1 + (self.rng.next_u64() % 300) as usize,
            _ => 1 + (self.rng.next_u64() % 4096) as usize,
        };
        let n = want.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// The streaming reader over `data`, fed by small varying reads.
fn stream_all(data: &[u8], seed: u64) -> (Vec<Record>, Vec<RecordError>) {
    let choppy = Choppy {
        data,
        rng: Rng(seed | 1),
    };
    split(Reader::from_read(
        choppy,
        spinneret_warc::Options::default(),
    ))
}

/// How a reader's prefetch was answered.
#[derive(Default, Clone, Copy, Debug)]
struct Answers {
    output: usize,
    rejected: usize,
    not_done: usize,
}

/// [`InlinePrefetch`], counting its answers.
struct Counted<'c> {
    inner: InlinePrefetch,
    answers: &'c std::cell::Cell<Answers>,
}

impl Prefetch for Counted<'_> {
    fn take(&mut self, start: u64, len: usize) -> Ahead {
        let ahead = self.inner.take(start, len);
        let mut a = self.answers.get();
        match &ahead {
            Ahead::Output(_) => a.output += 1,
            Ahead::Rejected => a.rejected += 1,
            Ahead::NotDone => a.not_done += 1,
        }
        self.answers.set(a);
        ahead
    }
}

/// The streaming reader over `data` with its whole gzip members inflated
/// ahead: the splitter fed in pieces of varying sizes, the reader by small
/// varying reads; with how the prefetch was answered.
fn ahead_all(data: &[u8], seed: u64) -> ((Vec<Record>, Vec<RecordError>), Answers) {
    let opts = Options::default();
    let mut rng = Rng(seed | 1);
    let (mut splitter, mut candidates) = (Splitter::new(&opts), Vec::new());
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.next_u64() % 3 {
            0 => 1 + (rng.next_u64() % 5) as usize,
            _ => 1 + (rng.next_u64() % 70_000) as usize,
        }
        .min(rest.len());
        splitter.push(&rest[..n], &mut candidates);
        rest = &rest[n..];
    }
    splitter.finish(&mut candidates);
    let mut inner = InlinePrefetch::new(&opts);
    inner.add(data, &candidates);
    let answers = std::cell::Cell::new(Answers::default());
    let prefetch = Counted {
        inner,
        answers: &answers,
    };
    let choppy = Choppy { data, rng };
    let read = split(Reader::from_read_ahead(choppy, opts, Box::new(prefetch)));
    (read, answers.get())
}

/// With whole gzip members inflated ahead (`Reader::from_read_ahead`), the
/// reader yields exactly the records and errors of the slice reader on
/// every corpus file; on a gzip file without damage, every member the
/// reader inflates in one call comes from the prefetch.
#[test]
fn inflating_ahead_equals_slice_on_the_corpus() {
    let mut gzip_files = 0;
    for (i, (name, path)) in corpus_files().iter().enumerate() {
        let data = std::fs::read(path).unwrap();
        let slice = read_all(&data);
        let (ahead, answers) = ahead_all(&data, 0x2545_F491_4F6C_DD1D ^ i as u64);
        assert_eq!(slice.1, ahead.1, "{name}: errors differ");
        assert_eq!(slice.0, ahead.0, "{name}: records differ");
        let gzip = Reader::new(&data).container() == Container::Gzip;
        if gzip && slice.1.is_empty() {
            gzip_files += 1;
            assert_eq!(answers.not_done, 0, "{name}: {answers:?}");
            assert!(answers.output > 0, "{name}: {answers:?}");
        }
    }
    assert!(gzip_files >= 10, "only {gzip_files} clean gzip files");
}

/// `Reader::from_read` yields exactly the records and errors of the slice
/// reader on every corpus file, whatever the sizes of the underlying reads.
#[test]
fn streaming_equals_slice_on_the_corpus() {
    let files = corpus_files();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    for (i, (name, path)) in files.iter().enumerate() {
        let data = std::fs::read(path).unwrap();
        let slice = read_all(&data);
        let stream = stream_all(&data, 0x51_7CC1_B727_220A ^ i as u64);
        assert_eq!(slice.1, stream.1, "{name}: errors differ");
        assert_eq!(
            slice.0.len(),
            stream.0.len(),
            "{name}: record counts differ"
        );
        for (a, b) in slice.0.iter().zip(&stream.0) {
            assert_eq!(a, b, "{name}: record at {} differs", a.offset);
        }
    }
}

#[test]
fn every_corpus_file_reads() {
    let files = corpus_files();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    let mut total = 0;
    for (name, path) in &files {
        let data = std::fs::read(path).unwrap();
        let (recs, errs) = read_all(&data);
        let mut by_type: HashMap<&str, usize> = HashMap::new();
        for r in &recs {
            *by_type.entry(r.kind.name()).or_default() += 1;
        }
        let html = recs.iter().filter(|r| r.is_html()).count();
        let mut types: Vec<_> = by_type.into_iter().collect();
        types.sort();
        println!(
            "{name}: {} records {types:?}, {html} html, {} errors{}",
            recs.len(),
            errs.len(),
            errs.first()
                .map(|e| format!(" (first: {e})"))
                .unwrap_or_default()
        );
        total += recs.len();
    }
    println!("{} files, {total} records", files.len());
}

/// `warc_url_digest.tsv` lists every record of the real WARCs (as another
/// tool read them). Two properties, for every file:
///
/// - every record this reader produces is in the table, at the same offset,
///   with the same type, URI, date, payload digest and status;
/// - every record of the table this reader does not produce is accounted
///   for: a reported error lies at or before it with no produced record in
///   between. This reader is stricter than the table's tool on malformed
///   files (a Content-Length that misses the record boundary, `-1` ARC
///   lengths, a header block cut off at EOF, a clipped gzip member): it
///   reports those records as bad instead of guessing, but it never drops
///   one silently. The differences are printed.
#[test]
fn records_match_the_digest_table() {
    let lines = spinneret_testdata::lines("corpus/urls/warc_url_digest.tsv");
    let mut expected: HashMap<String, Vec<Vec<String>>> = HashMap::new();
    for line in lines.iter().skip(1).filter(|l| !l.is_empty()) {
        let cols: Vec<String> = line.split('\t').map(str::to_string).collect();
        let file = cols[1].trim_start_matches("warc/real/").to_string();
        expected.entry(file).or_default().push(cols);
    }
    let files: HashMap<String, PathBuf> = corpus_files().into_iter().collect();
    let (mut matched, mut reported, mut wrong, mut silent) = (0, 0, Vec::new(), Vec::new());
    let mut names: Vec<_> = expected.keys().cloned().collect();
    names.sort();
    for name in names {
        let Some(path) = files.get(&name) else {
            println!("{name}: listed in the table but not in the corpus; skipped");
            continue;
        };
        let rows = &expected[&name];
        let data = std::fs::read(path).unwrap();
        let (recs, errs) = read_all(&data);
        // The streaming reader must see the same file the same way.
        assert_eq!(
            stream_all(&data, 7),
            (recs.clone(), errs.clone()),
            "{name}: streaming differs"
        );
        let fields = |rec: &Record| {
            let mut got = [
                rec.offset.to_string(),
                rec.kind.name().to_string(),
                rec.target_uri.clone().unwrap_or_default(),
                rec.date.clone().unwrap_or_default(),
                rec.payload_digest.clone().unwrap_or_default(),
                rec.status().map(|s| s.to_string()).unwrap_or_default(),
            ];
            // The table gives a status only for http(s) targets (file://
            // responses of warcbench carry HTTP heads too).
            if !got[2].starts_with("http") {
                got[5].clear();
            }
            got
        };
        let want = |row: &Vec<String>| {
            [&row[2], &row[3], &row[4], &row[5], &row[6], &row[10]].map(|s| s.to_string())
        };
        // Every produced record is a table record, field for field.
        for rec in &recs {
            let got = fields(rec);
            match rows.iter().find(|row| row[2] == got[0]) {
                Some(row) if want(row) == got => matched += 1,
                Some(row) => wrong.push(format!("{name}: got {got:?}, table {:?}", want(row))),
                None => wrong.push(format!("{name}: got {got:?}, not in the table")),
            }
        }
        // Every table record not produced is covered by an error.
        for row in rows {
            let offset: u64 = row[2].parse().expect("offset column");
            if recs.iter().any(|r| r.offset == offset) {
                continue;
            }
            let covered = errs.iter().any(|e| {
                e.offset() <= offset
                    && !recs
                        .iter()
                        .any(|r| r.offset > e.offset() && r.offset < offset)
            });
            if covered {
                reported += 1;
                println!(
                    "REPORTED {name}: table record at {offset} ({} {}) came out as an error",
                    row[3], row[4]
                );
            } else {
                silent.push(format!(
                    "{name}: table record at {offset} ({} {}) missing, no error",
                    row[3], row[4]
                ));
            }
        }
    }
    for m in wrong.iter().chain(&silent) {
        println!("MISMATCH {m}");
    }
    println!(
        "{matched} records identical to the table, {reported} reported as bad, {} wrong, {} silently missing",
        wrong.len(),
        silent.len()
    );
    assert!(
        wrong.is_empty() && silent.is_empty(),
        "{wrong:#?}\n{silent:#?}"
    );
}

type Key = (u64, &'static str, Option<String>, Option<String>, Vec<u8>);

fn key(r: &Record) -> Key {
    (
        r.offset,
        r.kind.name(),
        r.target_uri.clone(),
        r.payload_digest.clone(),
        r.body.to_vec(),
    )
}

/// Truncated and bit-flipped copies at random offsets: every record of the
/// clean run whose byte span (its offset to the next distinct offset) does
/// not contain the damage is still produced, identical.
#[test]
fn fault_injection_keeps_untouched_records() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut runs = 0;
    let mut lost = Vec::new();
    let mut diverged = Vec::new();
    for (name, path) in corpus_files() {
        let data = std::fs::read(&path).unwrap();
        let (clean, _) = read_all(&data);
        // Distinct record offsets give each record's span.
        let mut starts: Vec<u64> = clean.iter().map(|r| r.offset).collect();
        starts.dedup();
        let span = |off: u64| -> (u64, u64) {
            let i = starts.partition_point(|&s| s <= off);
            let end = starts.get(i).copied().unwrap_or(data.len() as u64);
            (off, end)
        };
        let n = if data.len() > 200_000 { 12 } else { 30 };
        for round in 0..n {
            let at = (rng.next_u64() % data.len() as u64) as usize;
            let mut damaged = data.clone();
            let truncate = round % 3 == 0;
            if truncate {
                damaged.truncate(at);
            } else {
                damaged[at] ^= 1 << (rng.next_u64() % 8);
            }
            let (got, errs) = read_all(&damaged);
            // Damage is where streaming could diverge: it must not.
            let streamed = stream_all(&damaged, rng.next_u64());
            let (ahead, _) = ahead_all(&damaged, rng.next_u64());
            let clean_read = (got.clone(), errs);
            if streamed != clean_read || ahead != clean_read {
                diverged.push(format!(
                    "{name}: streaming or inflating ahead differs after {} at {at}",
                    if truncate { "truncation" } else { "bit flip" }
                ));
            }
            runs += 1;
            let got: std::collections::HashSet<Key> = got.iter().map(key).collect();
            for r in &clean {
                let (s, e) = span(r.offset);
                let touched = if truncate {
                    e > at as u64
                } else {
                    (s..e).contains(&(at as u64))
                };
                if !touched && !got.contains(&key(r)) {
                    lost.push(format!(
                        "{name}: {} at {} lost after {} at {at}",
                        r.kind.name(),
                        r.offset,
                        if truncate { "truncation" } else { "bit flip" }
                    ));
                }
            }
        }
    }
    for l in lost.iter().take(30) {
        println!("LOST {l}");
    }
    println!(
        "{runs} damaged copies, {} untouched records lost",
        lost.len()
    );
    assert!(lost.is_empty());
    assert!(diverged.is_empty(), "{diverged:#?}");
}
