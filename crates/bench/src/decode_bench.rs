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
//! before timing. A last row validates the corpus pages as UTF-8 text,
//! whole and as two halves on the pool: what parallel UTF-8 validation
//! would save ([`utf8_validation_row`]).

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
        table.push(row(label, pages, &bytes, (one, two), 1));
    }
    table.push(utf8_validation_row(&set, mb, rounds, &pool));
    println!("## spinneret-bench decode\n");
    println!(
        "{mb} MB of the corpus pages in each encoding, repeated; decode_with (1 thread) against \
         decode_parallel on a pool of 2, best of {rounds} alternating rounds. UTF-8 is not \
         decoded, only validated: `String::from_utf8` of the page's buffer (what a parse of \
         owned bytes runs) against the two halves validated at once on the pool (what \
         parallel validation would run before an unchecked conversion).\n"
    );
    print!("{}", table.markdown());
}

/// The UTF-8 row: the corpus pages as UTF-8 text (each decoded as the
/// bench's page set has it) one after another, `mb` MB of them, validated
/// whole by `String::from_utf8` (the parse of an owned page validates its
/// buffer so, `parse_owned_bytes_parallel`) and as two halves, cut at a
/// character boundary, validated at once on `pool` (`std::str::from_utf8`
/// each). Parallel validation is not in the library: turning the two
/// verdicts into one `String` needs `String::from_utf8_unchecked`, an
/// `unsafe` this row is the measurement against.
fn utf8_validation_row(
    set: &Pages,
    mb: usize,
    rounds: usize,
    pool: &rayon::ThreadPool,
) -> Vec<Cell> {
    let bytes = crate::hpar_bench::made_document(set, mb * 1_000_000).into_bytes();
    let pages = set.pages.len();
    let mut half = bytes.len() / 2;
    while half < bytes.len() && (bytes[half] & 0xC0) == 0x80 {
        half += 1;
    }
    let (head, tail) = bytes.split_at(half);
    let whole_valid = std::str::from_utf8(&bytes).is_ok();
    let halves_valid = std::str::from_utf8(head).is_ok() && std::str::from_utf8(tail).is_ok();
    assert_eq!(
        whole_valid, halves_valid,
        "UTF-8: the halves' verdict is the whole's"
    );
    let (mut one, mut two) = (f64::MAX, f64::MAX);
    for _ in 0..rounds.max(1) {
        let buffer = bytes.clone();
        let t = Instant::now();
        black_box(String::from_utf8(black_box(buffer)).is_ok());
        one = one.min(t.elapsed().as_secs_f64());
        let t = pool.install(|| {
            let t = Instant::now();
            let (a, b) = rayon::join(
                || std::str::from_utf8(black_box(head)).is_ok(),
                || std::str::from_utf8(black_box(tail)).is_ok(),
            );
            black_box(a && b);
            t.elapsed().as_secs_f64()
        });
        two = two.min(t);
    }
    row("UTF-8 (validation)", pages, &bytes, (one, two), 2)
}

/// A row of the table: the document's encoding, pages and bytes, and its
/// best times on one thread and on two (seconds; milliseconds shown with
/// `decimals` places).
fn row(
    label: &str,
    pages: usize,
    bytes: &[u8],
    (one, two): (f64, f64),
    decimals: usize,
) -> Vec<Cell> {
    let non_ascii = bytes.iter().filter(|b| !b.is_ascii()).count();
    vec![
        Cell::text(label),
        Cell::Count(pages as u64),
        Cell::text(format!(
            "{:.1} %",
            100.0 * non_ascii as f64 / bytes.len() as f64
        )),
        Cell::Fixed(bytes.len() as f64 / 1e6, 1),
        Cell::Fixed(one * 1e3, decimals),
        Cell::Fixed(two * 1e3, decimals),
        Cell::text(format!("{:.2}×", one / two)),
    ]
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
