//! Encoding benchmark: the whole determine + decode step of
//! spinneret-encoding on every page of `corpus/pages.tsv`, against
//! chardetng alone on the whole page, in the same run.
//!
//! Why per page: a crawler's latency budget is per document, and the cost
//! depends on which step decides (a BOM or `<meta>` costs a prescan of 1 KiB;
//! the detector costs a scan of its window). Each page is timed on its own
//! (`Instant` around one call; pages take microseconds, far above the
//! clock's resolution), in `reps` passes over the corpus, keeping each
//! page's fastest time — the least disturbed on a shared machine, as in
//! `timing`. Reported: median and p99 of those per-page times, and MB/s =
//! total input bytes / sum of per-page times.
//!
//! Kernels (each produces the decoded text, except the `guess only` rows):
//! - spinneret Crawler / Browser: `Sniffer::decode` with the page's
//!   `Content-Type` (when the corpus has one) and URL (TLD hint).
//! - chardetng whole page: `EncodingDetector` fed every byte, `guess(tld,
//!   true)`, then `Encoding::decode` — the detector-only approach.
//! - chardetng guess only, fed the first non-ASCII byte + N KiB vs the whole
//!   page: the speed side of the window choice (accuracy: the corpus test
//!   `detector_window_accuracy`).

use std::hint::black_box;
use std::time::Instant;

use spinneret_encoding::determine::{DetectorInput, detect_only, tld_of};
use spinneret_encoding::{Encoding, Policy, Sniffer, decode_with};

use crate::table::{Cell, Column, Table};
use crate::timing::Plan;

/// The page list in the shared folder.
const MANIFEST: &str = "corpus/pages.tsv";

struct Page {
    bytes: Vec<u8>,
    url: String,
    content_type: String,
    true_encoding: Option<&'static Encoding>,
}

fn load() -> Vec<Page> {
    let tsv = spinneret_testdata::read_to_string(MANIFEST);
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect("column");
    let (path, url, ct, te) = (
        col("path"),
        col("url"),
        col("http_content_type"),
        col("true_encoding"),
    );
    lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            Page {
                bytes: spinneret_testdata::read(&format!("corpus/{}", f[path])),
                url: f[url].to_string(),
                content_type: f[ct].to_string(),
                true_encoding: Encoding::for_label(f[te].as_bytes()).filter(|_| !f[te].is_empty()),
            }
        })
        .collect()
}

fn sniffer(policy: Policy, page: &Page) -> Sniffer<'_> {
    let mut s = Sniffer::new(policy);
    if !page.content_type.is_empty() {
        s = s.content_type(page.content_type.as_bytes());
    }
    if !page.url.is_empty() {
        s = s.url(&page.url);
    }
    s
}

/// Per-page best times in ns over `reps` passes.
fn per_page(pages: &[Page], reps: u32, mut kernel: impl FnMut(&Page) -> usize) -> Vec<u64> {
    let mut best = vec![u64::MAX; pages.len()];
    for _ in 0..reps {
        for (i, p) in pages.iter().enumerate() {
            let t = Instant::now();
            black_box(kernel(black_box(p)));
            best[i] = best[i].min(t.elapsed().as_nanos() as u64);
        }
    }
    best
}

/// The columns of both tables; the first one's header is `first`.
fn table(first: &str) -> Table {
    Table::new([
        Column::left(first),
        Column::right("pages"),
        Column::right("median µs"),
        Column::right("p99 µs"),
        Column::right("MB/s"),
    ])
}

/// Appends the row of `name`: median and p99 of the per-page `times` (ns)
/// and MB/s over the sum of them.
fn push_row(table: &mut Table, name: &str, pages: &[&Page], times: &[u64]) {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    let pct = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize] as f64 / 1000.0;
    let bytes: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let total: u64 = times.iter().sum();
    let mbs = bytes as f64 / (total.max(1) as f64 / 1e9) / 1e6;
    table.push(vec![
        Cell::text(name),
        Cell::Count(pages.len() as u64),
        Cell::Fixed(pct(0.5), 1),
        Cell::Fixed(pct(0.99), 1),
        Cell::Fixed(mbs, 0),
    ]);
}

/// Runs the benchmark (`Plan::QUICK`: one timed pass).
pub fn run(plan: Plan) {
    let pages = load();
    let reps = if plan.max_reps == 1 { 1 } else { 5 };
    // Warm-up.
    if plan.warm_up {
        per_page(&pages, 1, |p| {
            sniffer(Policy::Crawler, p).decode(&p.bytes).text.len()
        });
    }
    let all: Vec<&Page> = pages.iter().collect();
    println!(
        "encoding: {} pages, {:.1} MB; per-page best of {reps} passes\n",
        pages.len(),
        pages.iter().map(|p| p.bytes.len()).sum::<usize>() as f64 / 1e6
    );
    let mut kernels = table("kernel");
    let crawler = per_page(&pages, reps, |p| {
        sniffer(Policy::Crawler, p).decode(&p.bytes).text.len()
    });
    push_row(
        &mut kernels,
        "spinneret Crawler (determine+decode)",
        &all,
        &crawler,
    );
    let browser = per_page(&pages, reps, |p| {
        sniffer(Policy::Browser, p).decode(&p.bytes).text.len()
    });
    push_row(
        &mut kernels,
        "spinneret Browser (determine+decode)",
        &all,
        &browser,
    );
    let tlds: Vec<Option<Vec<u8>>> = pages.iter().map(|p| tld_of(&p.url)).collect();
    let mut idx = 0usize;
    let chardetng = per_page(&pages, reps, |p| {
        let i = idx % pages.len();
        idx += 1;
        let e = detect_only(&p.bytes, DetectorInput::Whole, tlds[i].as_deref());
        decode_with(&p.bytes, e).0.len()
    });
    push_row(
        &mut kernels,
        "chardetng whole page + decode",
        &all,
        &chardetng,
    );
    for (name, input) in [
        (
            "chardetng guess only, non-ASCII + 1 KiB",
            DetectorInput::AfterFirstNonAscii(1024),
        ),
        (
            "chardetng guess only, non-ASCII + 4 KiB",
            DetectorInput::AfterFirstNonAscii(4096),
        ),
        (
            "chardetng guess only, non-ASCII + 8 KiB",
            DetectorInput::AfterFirstNonAscii(8192),
        ),
        (
            "chardetng guess only, until stable, at most + 8 KiB (default)",
            DetectorInput::UntilStable(8192),
        ),
        (
            "chardetng guess only, non-ASCII + 16 KiB",
            DetectorInput::AfterFirstNonAscii(16384),
        ),
        (
            "chardetng guess only, non-ASCII + 64 KiB",
            DetectorInput::AfterFirstNonAscii(65536),
        ),
        ("chardetng guess only, whole page", DetectorInput::Whole),
    ] {
        let t = per_page(&pages, reps, |p| {
            detect_only(&p.bytes, input, None).name().len()
        });
        push_row(&mut kernels, name, &all, &t);
    }
    print!("{}", kernels.markdown());

    println!("\nspinneret Crawler by deciding step:\n");
    let mut by_step = table("step");
    let steps: Vec<&str> = pages
        .iter()
        .map(|p| {
            sniffer(Policy::Crawler, p)
                .determine(&p.bytes)
                .step
                .as_str()
        })
        .collect();
    let mut names: Vec<&str> = steps.clone();
    names.sort_unstable();
    names.dedup();
    for name in names {
        let sel: Vec<usize> = (0..pages.len()).filter(|&i| steps[i] == name).collect();
        let ps: Vec<&Page> = sel.iter().map(|&i| &pages[i]).collect();
        let ts: Vec<u64> = sel.iter().map(|&i| crawler[i]).collect();
        push_row(&mut by_step, name, &ps, &ts);
    }
    print!("{}", by_step.markdown());

    // Accuracy on the labelled pages (same text as the label's decoding).
    let labelled: Vec<&Page> = pages.iter().filter(|p| p.true_encoding.is_some()).collect();
    let correct = |f: &dyn Fn(&Page) -> &'static Encoding| {
        labelled
            .iter()
            .filter(|p| {
                let Some(label) = p.true_encoding else {
                    return false;
                };
                decode_with(&p.bytes, f(p)).0 == decode_with(&p.bytes, label).0
            })
            .count()
    };
    let n = labelled.len();
    let c = correct(&|p| sniffer(Policy::Crawler, p).determine(&p.bytes).encoding);
    let b = correct(&|p| sniffer(Policy::Browser, p).determine(&p.bytes).encoding);
    let d = correct(&|p| detect_only(&p.bytes, DetectorInput::Whole, tld_of(&p.url).as_deref()));
    println!("\naccuracy on {n} labelled in-scope pages (same text as the label):");
    println!(
        "  spinneret Crawler {c} ({:.1}%), Browser {b} ({:.1}%), chardetng alone {d} ({:.1}%)",
        100.0 * c as f64 / n as f64,
        100.0 * b as f64 / n as f64,
        100.0 * d as f64 / n as f64
    );
}
