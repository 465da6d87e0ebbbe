//! `spinneret-bench decode`: one large document in a legacy encoding
//! decoded on one thread (`decode_with`, encoding_rs's *decode*) and in
//! pieces on a pool of two (`decode_parallel`), the stage a parallel
//! parse of such a document runs before it parses (issue 43).
//!
//! The documents are real pages: the corpus pages the sniffer (Crawler
//! policy, from the bytes alone) decodes as each encoding, their raw bytes
//! one after another, repeated up to 64 MB (16 MB with `--quick`), behind
//! a `<meta charset>` ([`legacy_document`]). Each decoding is timed on its
//! own, the two alternating, best of `rounds`; the texts are checked equal
//! before timing.

use std::hint::black_box;
use std::time::Instant;

use spinneret_encoding::{Encoding, Policy, Sniffer, decode_parallel, decode_with};

use crate::pages::Pages;
use crate::table::{Cell, Column, Table};

/// Runs the benchmark: `rounds` alternating rounds per encoding.
pub fn run(rounds: usize, quick: bool) {
    let set = Pages::load();
    let mb = if quick { 16 } else { 64 };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads");
    let mut table = Table::new([
        Column::left("encoding"),
        Column::right("pages"),
        Column::right("non-ASCII bytes"),
        Column::right("MB"),
        Column::right("1 thread ms"),
        Column::right("2 threads ms"),
        Column::right("speedup"),
    ]);
    for label in LABELS {
        let encoding = Encoding::for_label(label.as_bytes()).expect("an encoding's label");
        let Some((bytes, pages)) = legacy_document(&set, label, mb * 1_000_000) else {
            eprintln!("decode: no corpus page in {label}");
            continue;
        };
        let non_ascii = bytes.iter().filter(|b| !b.is_ascii()).count();
        let whole = decode_with(&bytes, encoding);
        let pieces = pool.install(|| decode_parallel(&bytes, encoding, 2));
        assert!(whole == pieces, "{label}: pieces differ from the whole");
        drop((whole, pieces));
        let (mut one, mut two) = (f64::MAX, f64::MAX);
        for _ in 0..rounds.max(1) {
            let t = Instant::now();
            black_box(decode_with(black_box(&bytes), encoding));
            one = one.min(t.elapsed().as_secs_f64());
            let t = pool.install(|| {
                let t = Instant::now();
                black_box(decode_parallel(black_box(&bytes), encoding, 2));
                t.elapsed().as_secs_f64()
            });
            two = two.min(t);
        }
        table.push(vec![
            Cell::text(label),
            Cell::Count(pages as u64),
            Cell::text(format!(
                "{:.1} %",
                100.0 * non_ascii as f64 / bytes.len() as f64
            )),
            Cell::Fixed(bytes.len() as f64 / 1e6, 1),
            Cell::Fixed(one * 1e3, 1),
            Cell::Fixed(two * 1e3, 1),
            Cell::text(format!("{:.2}×", one / two)),
        ]);
    }
    println!("## spinneret-bench decode\n");
    println!(
        "{mb} MB of the corpus pages in each encoding, repeated; decode_with (1 thread) against \
         decode_parallel on a pool of 2, best of {rounds} alternating rounds.\n"
    );
    print!("{}", table.markdown());
}

/// The legacy encodings measured, by label.
const LABELS: [&str; 7] = [
    "windows-1252",
    "windows-1251",
    "Shift_JIS",
    "EUC-JP",
    "GBK",
    "Big5",
    "EUC-KR",
];

/// A document of about `len` bytes in the encoding `label` names: the
/// raw bytes of the corpus pages the sniffer decodes as it (Crawler
/// policy, from the bytes), one after another and repeated, behind a
/// `<meta charset>` that makes the encoding certain; with how many pages
/// it repeats. `None` where no page is in that encoding.
pub(crate) fn legacy_document(set: &Pages, label: &str, len: usize) -> Option<(Vec<u8>, usize)> {
    let encoding = Encoding::for_label(label.as_bytes())?;
    let sniffer = Sniffer::new(Policy::Crawler);
    let pages: Vec<Vec<u8>> = set
        .paths
        .iter()
        .map(|path| spinneret_testdata::read(&format!("corpus/{path}")))
        .filter(|raw| sniffer.determine(raw).encoding == encoding)
        .collect();
    if pages.is_empty() {
        return None;
    }
    let mut doc = format!("<meta charset={label}>").into_bytes();
    'fill: loop {
        for page in &pages {
            if doc.len() >= len {
                break 'fill;
            }
            doc.extend_from_slice(page);
        }
    }
    doc.truncate(len);
    Some((doc, pages.len()))
}
