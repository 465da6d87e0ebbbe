//! URL parsing benchmarks: spinneret-url against ada-url 4 and url 2.5 on the
//! shared corpus.
//!
//! Why these kernels: a crawler's hot loop is "parse this string and keep its
//! serialization", so every kernel parses and then reads the href. The href's
//! length goes through [`black_box`] so that the work cannot be optimized
//! away, and reading it is part of the kernel because it is not free for
//! every library (ada's href crosses the C++ FFI boundary). Lines that fail to
//! parse are counted like the others: a crawler pays for rejecting them too,
//! and dropping them would give each library a different denominator. How
//! many parsed is printed, since a library that rejects more does less work.
//!
//! The datasets are the URL lists of ada's own benchmarks (`ada_*`) and the
//! absolute links of our real-web corpus, one URL per line, kept byte-exact
//! except the line terminator (URLs with spaces or odd characters are exactly
//! what a parser must handle).
//!
//! The relative benchmark is the crawler's real case: every link of a page
//! resolved against the page URL. Rows are grouped by `page_url` and the page
//! URL is parsed once per page, outside the timing. The `base_href` column is
//! deliberately ignored (almost always empty) so that every link of a page
//! shares one base. `raw_value` is passed as-is: real extraction strips
//! leading and trailing ASCII whitespace from attribute values first, but here
//! the URL parsers themselves are compared on the same bytes. ada's Rust API
//! takes the base as a string, so ada re-parses the base (its own href of the
//! pre-parsed page URL) for every link; that is the cost a Rust caller of
//! ada-url pays, and the output says so.
//!
//! The `kernel` entry point runs one untimed pass of one kernel, so that
//! `callgrind.sh` can count instructions per URL by subtracting a run that
//! only loads the data (library `none`).

use std::collections::HashMap;
use std::hint::black_box;

use crate::table::{Cell, Column, Table};
use crate::timing::{Plan, Timing, fmt_bytes, fmt_ns, fmt_rate, fmt_ratio, measure};

/// The URL lists, `corpus/urls/<name>.txt` in the shared folder.
pub const DATASETS: [&str; 5] = [
    "ada_kasztp",
    "ada_userbait",
    "ada_node_files",
    "ada_isaacs_files",
    "absolute_links",
];

/// The name selecting the relative-resolution benchmark.
pub const RELATIVE: &str = "extracted_links";

const RELATIVE_FILE: &str = "corpus/urls/extracted_links.tsv.gz";
const RELATIVE_HEADER: &str = "page_id\tpage_url\tbase_href\ttag\tattr\traw_value";

/// Whether `name` selects something `url` or `kernel` can run.
pub fn is_dataset(name: &str) -> bool {
    name == RELATIVE || DATASETS.contains(&name)
}

/// The libraries compared, plus `None` for the data-loading-only baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Library {
    /// Loads the data and parses nothing: the baseline callgrind subtracts.
    None,
    /// spinneret-url, a `Url` per input.
    Spinneret,
    /// spinneret-url, every input parsed into one reused `UrlBuf`.
    SpinneretBuf,
    /// ada-url (the C++ library, through its Rust binding).
    Ada,
    /// The `url` crate (servo/rust-url).
    Url,
}

impl Library {
    /// The library the hidden `kernel <lib> <dataset>` subcommand names.
    pub fn from_name(name: &str) -> Option<Library> {
        match name {
            "none" => Some(Library::None),
            "spinneret" => Some(Library::Spinneret),
            "spinneret-buf" => Some(Library::SpinneretBuf),
            "ada" | "ada-url" => Some(Library::Ada),
            "url" => Some(Library::Url),
            _ => None,
        }
    }
}

/// One URL list loaded in memory.
pub struct Dataset {
    /// One of [`DATASETS`].
    pub name: String,
    /// One URL per line, byte-exact except the line terminator.
    pub urls: Vec<String>,
}

impl Dataset {
    /// Reads `corpus/urls/<name>.txt` from the shared folder.
    pub fn load(name: &str) -> Dataset {
        Dataset {
            name: name.to_string(),
            urls: spinneret_testdata::lines(&format!("corpus/urls/{name}.txt")),
        }
    }

    fn bytes(&self) -> usize {
        self.urls.iter().map(String::len).sum()
    }
}

// ---------------------------------------------------------------------------
// Kernels. Each is `#[inline(never)]` so that it shows up under its own name
// in profiles; each returns how many inputs succeeded.

#[inline(never)]
fn parse_spinneret(urls: &[String]) -> usize {
    let mut ok = 0;
    for s in urls {
        if let Ok(u) = spinneret_url::Url::parse(black_box(s)) {
            black_box(u.href().len());
            ok += 1;
        }
    }
    ok
}

#[inline(never)]
fn parse_spinneret_buf(urls: &[String]) -> usize {
    let mut ok = 0;
    let mut buf = spinneret_url::UrlBuf::new();
    for s in urls {
        if buf.parse(black_box(s)).is_ok() {
            black_box(buf.href().len());
            ok += 1;
        }
    }
    ok
}

#[inline(never)]
fn parse_ada(urls: &[String]) -> usize {
    let mut ok = 0;
    for s in urls {
        if let Ok(u) = ada_url::Url::parse(black_box(s.as_str()), None) {
            black_box(u.href().len());
            ok += 1;
        }
    }
    ok
}

#[inline(never)]
fn parse_url(urls: &[String]) -> usize {
    let mut ok = 0;
    for s in urls {
        if let Ok(u) = url::Url::parse(black_box(s)) {
            black_box(u.as_str().len());
            ok += 1;
        }
    }
    ok
}

#[inline(never)]
fn can_parse_spinneret(urls: &[String]) -> usize {
    urls.iter()
        .filter(|s| spinneret_url::Url::can_parse(black_box(s), None))
        .count()
}

#[inline(never)]
fn can_parse_ada(urls: &[String]) -> usize {
    urls.iter()
        .filter(|s| ada_url::Url::can_parse(black_box(s), None))
        .count()
}

fn parse_pass(lib: Library, urls: &[String]) -> usize {
    match lib {
        Library::None => black_box(urls).len(),
        Library::Spinneret => parse_spinneret(urls),
        Library::SpinneretBuf => parse_spinneret_buf(urls),
        Library::Ada => parse_ada(urls),
        Library::Url => parse_url(urls),
    }
}

// ---------------------------------------------------------------------------
// Relative resolution.

/// The links of one page.
struct Page {
    raws: Vec<String>,
}

/// The extracted links grouped by page, with each library's parsed base.
pub struct RelativeSet {
    pages: Vec<Page>,
    spinneret_bases: Vec<spinneret_url::Url>,
    /// ada's href of the page URL: its Rust API takes the base as a string.
    ada_bases: Vec<String>,
    url_bases: Vec<url::Url>,
    links: usize,
    skipped_rows: usize,
}

impl RelativeSet {
    /// Loads the TSV and parses each page URL once with each library.
    ///
    /// A page whose URL fails to parse with any of the three libraries is
    /// skipped with all its rows, so that all three do the same work.
    pub fn load() -> RelativeSet {
        let text = spinneret_testdata::read_to_string(RELATIVE_FILE);
        // Split on '\n' only: `str::lines` would also eat a '\r' that belongs
        // to the last field.
        let mut lines = text.split('\n');
        let header = lines.next().unwrap_or_default();
        assert_eq!(
            header.trim_end_matches('\r'),
            RELATIVE_HEADER,
            "unexpected header in {RELATIVE_FILE}"
        );

        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut grouped: Vec<(&str, Vec<String>)> = Vec::new();
        for (n, line) in lines.enumerate() {
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.splitn(6, '\t').collect();
            assert_eq!(
                fields.len(),
                6,
                "{RELATIVE_FILE} line {}: expected 6 fields",
                n + 2
            );
            let (page_url, raw) = (fields[1], fields[5]);
            let i = *index.entry(page_url).or_insert_with(|| {
                grouped.push((page_url, Vec::new()));
                grouped.len() - 1
            });
            grouped[i].1.push(raw.to_string());
        }

        let mut set = RelativeSet {
            pages: Vec::new(),
            spinneret_bases: Vec::new(),
            ada_bases: Vec::new(),
            url_bases: Vec::new(),
            links: 0,
            skipped_rows: 0,
        };
        for (page_url, raws) in grouped {
            let parsed = (
                spinneret_url::Url::parse(page_url),
                ada_url::Url::parse(page_url, None),
                url::Url::parse(page_url),
            );
            match parsed {
                (Ok(s), Ok(a), Ok(u)) => {
                    set.links += raws.len();
                    set.spinneret_bases.push(s);
                    set.ada_bases.push(a.href().to_string());
                    set.url_bases.push(u);
                    set.pages.push(Page { raws });
                }
                _ => set.skipped_rows += raws.len(),
            }
        }
        set
    }
}

#[inline(never)]
fn resolve_spinneret(set: &RelativeSet) -> usize {
    let mut ok = 0;
    for (base, page) in set.spinneret_bases.iter().zip(&set.pages) {
        for raw in &page.raws {
            if let Ok(u) = spinneret_url::Url::parse_with_base(black_box(raw), base) {
                black_box(u.href().len());
                ok += 1;
            }
        }
    }
    ok
}

#[inline(never)]
fn resolve_spinneret_buf(set: &RelativeSet) -> usize {
    let mut ok = 0;
    let mut buf = spinneret_url::UrlBuf::new();
    for (base, page) in set.spinneret_bases.iter().zip(&set.pages) {
        for raw in &page.raws {
            if buf.parse_with_base(black_box(raw), base).is_ok() {
                black_box(buf.href().len());
                ok += 1;
            }
        }
    }
    ok
}

#[inline(never)]
fn resolve_ada(set: &RelativeSet) -> usize {
    let mut ok = 0;
    for (base, page) in set.ada_bases.iter().zip(&set.pages) {
        for raw in &page.raws {
            if let Ok(u) = ada_url::Url::parse(black_box(raw.as_str()), Some(base.as_str())) {
                black_box(u.href().len());
                ok += 1;
            }
        }
    }
    ok
}

#[inline(never)]
fn resolve_url(set: &RelativeSet) -> usize {
    let mut ok = 0;
    for (base, page) in set.url_bases.iter().zip(&set.pages) {
        for raw in &page.raws {
            if let Ok(u) = base.join(black_box(raw)) {
                black_box(u.as_str().len());
                ok += 1;
            }
        }
    }
    ok
}

fn resolve_pass(lib: Library, set: &RelativeSet) -> usize {
    match lib {
        Library::None => black_box(set).links,
        Library::Spinneret => resolve_spinneret(set),
        Library::SpinneretBuf => resolve_spinneret_buf(set),
        Library::Ada => resolve_ada(set),
        Library::Url => resolve_url(set),
    }
}

// ---------------------------------------------------------------------------
// Entry points.

/// One untimed pass of one kernel (for callgrind). Prints the item count and
/// how many succeeded; with `Library::None` only the data is loaded.
pub fn run_kernel(lib: Library, dataset: &str) {
    let (items, ok) = if dataset == RELATIVE {
        let set = RelativeSet::load();
        (set.links, resolve_pass(lib, &set))
    } else {
        let data = Dataset::load(dataset);
        (data.urls.len(), parse_pass(lib, &data.urls))
    };
    println!("items={items} ok={ok}");
}

/// The three libraries' timings on one dataset.
struct Row {
    dataset: String,
    /// Whether this is the relative-resolution benchmark.
    relative: bool,
    spinneret: Timing,
    /// spinneret parsing into one reused `UrlBuf`.
    spinneret_buf: Timing,
    ada: Timing,
    url: Timing,
}

/// spinneret's and ada's `can_parse` timings on one dataset.
struct CanParseRow {
    dataset: String,
    spinneret: Timing,
    ada: Timing,
}

/// Runs the benchmarks (all, or the one dataset selected) and prints the
/// results, then markdown tables for the README.
pub fn run(selected: Option<&str>, plan: Plan, quick: bool) {
    let wanted = |name: &str| selected.is_none_or(|s| s == name);
    let unit_note = if quick {
        "--quick: a warm-up and ONE timed pass per kernel; numbers are indicative only"
    } else {
        "best pass after a warm-up, repeating for >= 0.5 s and >= 3 passes"
    };
    println!("spinneret-bench url: parse + read href ({unit_note})");
    println!("ratios are time ratios peer/spinneret: above 1.00 means spinneret is faster");
    println!();

    let datasets: Vec<Dataset> = DATASETS
        .iter()
        .filter(|d| wanted(d))
        .map(|d| Dataset::load(d))
        .collect();

    let mut rows = Vec::new();
    let mut can_rows = Vec::new();
    if !datasets.is_empty() {
        println!("== Url::parse(input) + href, no base ==");
        for data in &datasets {
            let n = data.urls.len();
            println!(
                "{} ({} URLs, {}; failing lines included)",
                data.name,
                n,
                fmt_bytes(data.bytes())
            );
            let row = Row {
                dataset: data.name.clone(),
                relative: false,
                spinneret: measure(plan, n, || parse_spinneret(&data.urls)),
                spinneret_buf: measure(plan, n, || parse_spinneret_buf(&data.urls)),
                ada: measure(plan, n, || parse_ada(&data.urls)),
                url: measure(plan, n, || parse_url(&data.urls)),
            };
            print_row(&row, "URL", n);
            rows.push(row);
        }
        println!();

        println!("== can_parse(input, None) ==");
        println!(
            "{:<18} {:>12} {:>12} {:>14} {:>8} {:>8}",
            "dataset", "spinneret ns", "ada-url ns", "ada/spinneret", "true(s)", "true(a)"
        );
        for data in &datasets {
            let n = data.urls.len();
            let row = CanParseRow {
                dataset: data.name.clone(),
                spinneret: measure(plan, n, || can_parse_spinneret(&data.urls)),
                ada: measure(plan, n, || can_parse_ada(&data.urls)),
            };
            println!(
                "{:<18} {:>12} {:>12} {:>14} {:>8} {:>8}",
                row.dataset,
                fmt_ns(row.spinneret.ns_per_item),
                fmt_ns(row.ada.ns_per_item),
                fmt_ratio(row.ada.ns_per_item, row.spinneret.ns_per_item),
                row.spinneret.result,
                row.ada.result,
            );
            can_rows.push(row);
        }
        println!();
    }
    drop(datasets);

    if wanted(RELATIVE) {
        let set = RelativeSet::load();
        let n = set.links;
        println!("== relative resolution: {RELATIVE_FILE} ==");
        println!(
            "{} links on {} pages ({} rows skipped: page_url did not parse); raw_value passed as-is",
            n,
            set.pages.len(),
            set.skipped_rows
        );
        println!(
            "spinneret: Url::parse_with_base(raw, &base); url: base.join(raw); both with the page URL parsed once per page"
        );
        println!(
            "ada-url: Url::parse(raw, Some(base_href)); its Rust API takes the base as a string, so ada re-parses the base for every link"
        );
        let row = Row {
            dataset: format!("{RELATIVE} (relative)"),
            relative: true,
            spinneret: measure(plan, n, || resolve_spinneret(&set)),
            spinneret_buf: measure(plan, n, || resolve_spinneret_buf(&set)),
            ada: measure(plan, n, || resolve_ada(&set)),
            url: measure(plan, n, || resolve_url(&set)),
        };
        print_row(&row, "link", n);
        rows.push(row);
        println!();
    }

    print_markdown(&rows, &can_rows, quick);
}

fn print_row(row: &Row, unit: &str, n: usize) {
    let lines = [
        ("spinneret", &row.spinneret, String::new()),
        (
            "UrlBuf",
            &row.spinneret_buf,
            format!(
                "ada/UrlBuf {}",
                fmt_ratio(row.ada.ns_per_item, row.spinneret_buf.ns_per_item)
            ),
        ),
        (
            "ada-url",
            &row.ada,
            format!(
                "ada/spinneret {}",
                fmt_ratio(row.ada.ns_per_item, row.spinneret.ns_per_item)
            ),
        ),
        (
            "url",
            &row.url,
            format!(
                "url/spinneret {}",
                fmt_ratio(row.url.ns_per_item, row.spinneret.ns_per_item)
            ),
        ),
    ];
    for (name, t, ratio) in lines {
        println!(
            "  {:<10} {:>8} ns/{unit} {:>9} {unit}s/s  {:<19} ok {:>7}/{n}  ({} passes)",
            name,
            fmt_ns(t.ns_per_item),
            fmt_rate(t.items_per_sec()),
            ratio,
            t.result,
            t.reps,
        );
    }
}

fn print_markdown(rows: &[Row], can_rows: &[CanParseRow], quick: bool) {
    let mut table = Table::new([
        Column::left("dataset"),
        Column::right("spinneret ns/URL"),
        Column::right("UrlBuf ns/URL"),
        Column::right("ada-url ns/URL"),
        Column::right("url ns/URL"),
        Column::right("ada/spinneret"),
        Column::right("ada/UrlBuf"),
        Column::right("url/spinneret"),
    ]);
    for r in rows {
        let ours = r.spinneret.ns_per_item;
        table.push(vec![
            Cell::text(&r.dataset),
            Cell::Ns(ours),
            Cell::Ns(r.spinneret_buf.ns_per_item),
            Cell::Ns(r.ada.ns_per_item),
            Cell::Ns(r.url.ns_per_item),
            Cell::Ratio {
                other: r.ada.ns_per_item,
                ours,
            },
            Cell::Ratio {
                other: r.ada.ns_per_item,
                ours: r.spinneret_buf.ns_per_item,
            },
            Cell::Ratio {
                other: r.url.ns_per_item,
                ours,
            },
        ]);
    }
    println!("== markdown for README.md (ratios above 1 mean spinneret is faster) ==");
    if quick {
        println!("<!-- --quick run: single timed pass, do not publish -->");
    }
    print!("{}", table.markdown());
    if !can_rows.is_empty() {
        println!();
        print_markdown_can_parse(can_rows);
    }
    if rows.iter().any(|r| r.relative) {
        println!();
        println!(
            "Relative: every link of a page resolved against its page URL, parsed once per page; \
             ada-url's Rust API takes the base as a string, so ada re-parses it for every link."
        );
    }
}

fn print_markdown_can_parse(rows: &[CanParseRow]) {
    let mut table = Table::new([
        Column::left("dataset"),
        Column::right("spinneret can_parse ns/URL"),
        Column::right("ada-url can_parse ns/URL"),
        Column::right("ada/spinneret"),
    ]);
    for r in rows {
        table.push(vec![
            Cell::text(&r.dataset),
            Cell::Ns(r.spinneret.ns_per_item),
            Cell::Ns(r.ada.ns_per_item),
            Cell::Ratio {
                other: r.ada.ns_per_item,
                ours: r.spinneret.ns_per_item,
            },
        ]);
    }
    print!("{}", table.markdown());
}
