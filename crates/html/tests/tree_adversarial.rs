//! Bad input for the tree builder and the DOM: no panic, time linear in
//! the input, memory proportional to it.
//!
//! Each flood (a million nested `<div>`, a million unclosed `<b>`,
//! adoption-agency and foster-parenting floods, nested templates, 100k
//! attributes, SVG/MathML breakouts, …) is parsed at a hundredth, a tenth
//! and all of its size. The cost of a run is the CPU time of the thread
//! that does it (`spinneret_testdata::cpu_time`), the minimum of 3 runs,
//! so other processes loading the machine do not move it. Linear work
//! gives a full/tenth ratio of about 10 (somewhat more when the working
//! set outgrows the caches), quadratic work about 100: a ratio of
//! [`MAX_RATIO`] or more fails. Below 5 ms of CPU for the full size the
//! ratio is noise and is not checked. Every run has a budget of 60 times
//! the previous size's cost (at least 2 s), so a quadratic flood fails
//! quickly instead of hanging.
//!
//! Memory: the full-size document's [`Document::heap_size`] must be at
//! most [`MAX_BYTES_PER_INPUT_BYTE`] times the input's length (the input
//! itself, which the document keeps, included). The densest floods make a
//! node of every 3 input bytes (`<b>`), so the bound is mostly node slots
//! and the arena's growth slack.
//!
//! Depth: the standard sets no depth limit, and neither does spinneret:
//! the parser keeps every level, and every walk of the DOM (the
//! serializer, the test-format dump, `descendants`, `text_content`, drop)
//! is iterative. [`deep_trees_walk_on_a_small_stack`] checks that on a
//! thread with a 64 KiB stack. (The html5lib dump indents two spaces per
//! level, so its output is quadratic in the depth by its format; it is
//! checked at a depth of 5,000.)
//!
//! A flood found to parse in super-linear time and not fixed yet goes in
//! [`KNOWN_SUPERLINEAR`] with the function responsible: it is measured at
//! a hundredth of its size, printed and counted, not failed. The list is
//! empty: every flood here is checked.
//!
//! [`mutated_corpus_pages`] is a fuzz-style loop: corpus pages with bytes
//! flipped, cut short and spliced with tags, parsed whole and streamed in
//! random chunks — no panic, the same tree.
//!
//! Per-thread CPU clocks are read through POSIX calls that Linux has, so
//! these tests are compiled for Linux only.

#![cfg(target_os = "linux")]

use spinneret_html::{
    Document, FragmentContext, ParseOptions, SerializeOptions, StreamParser, parse_document,
    parse_fragment,
};
use spinneret_testdata::Rng;
use spinneret_testdata::cpu_time::{self, ThreadClock};
use std::hint::black_box;
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

/// A full/tenth CPU-time ratio at or above this fails (linear is ~10).
const MAX_RATIO: f64 = 40.0;

/// The most heap bytes a document may hold per input byte.
const MAX_BYTES_PER_INPUT_BYTE: usize = 40;

/// Floods the tree builder is known to parse in super-linear time, each
/// with what is measured to be quadratic: they are measured at a hundredth
/// of their size, printed and counted, not failed. Each is a bug to fix in
/// the tree builder; removing a line here makes the flood checked.
const KNOWN_SUPERLINEAR: &[(&str, &str)] = &[];

/// A generated input: `build(n)` at full size, `build(n / 10)` and
/// `build(n / 100)` smaller.
struct Flood {
    name: &'static str,
    n: usize,
    build: fn(usize) -> String,
}

fn floods() -> Vec<Flood> {
    vec![
        Flood {
            name: "a million nested <div>",
            n: 1_000_000,
            build: |n| "<div>".repeat(n),
        },
        Flood {
            name: "selectedcontent + (<option selected>x) × n (a clone per option)",
            n: 200_000,
            build: |n| {
                "<select><button><selectedcontent></button>".to_owned()
                    + &"<option selected>x<b>y</b>".repeat(n)
            },
        },
        Flood {
            name: "selectedcontent, <select> + (<span><option selected>x</option>) × n (deep options)",
            n: 200_000,
            build: |n| {
                "<selectedcontent></selectedcontent><select>".to_owned()
                    + &"<span><option selected>x</option>".repeat(n)
            },
        },
        Flood {
            name: "(<select><button><selectedcontent></button><option>x</select>) × n",
            n: 100_000,
            build: |n| "<select><button><selectedcontent></button><option>x</select>".repeat(n),
        },
        Flood {
            name: "selectedcontent + (<b><option selected>x<p>y</b>) × n (moves between options)",
            n: 100_000,
            build: |n| {
                "<select><button><selectedcontent></button>".to_owned()
                    + &"<b><option selected>x<p>y</b>".repeat(n)
            },
        },
        Flood {
            name: "a million nested <span>",
            n: 1_000_000,
            build: |n| "<span>".repeat(n),
        },
        Flood {
            name: "a million unclosed <b>",
            n: 1_000_000,
            build: |n| "<b>".repeat(n),
        },
        Flood {
            name: "unclosed <b id=i>, all different (Noah's Ark scan)",
            n: 200_000,
            build: |n| (0..n).map(|i| format!("<b id={i}>")).collect(),
        },
        Flood {
            name: "unclosed <b>, then text (reconstruction)",
            n: 300_000,
            build: |n| "<b>".repeat(n) + &"x<p>".repeat(n),
        },
        Flood {
            name: "<b> + <div> × n + </b> × n (adoption agency, deep)",
            n: 300_000,
            build: |n| format!("<b>{}{}", "<div>".repeat(n), "</b>".repeat(n)),
        },
        Flood {
            name: "(<b><div>) × n + </b> × n (adoption agency, repeated)",
            n: 200_000,
            build: |n| "<b><div>".repeat(n) + &"</b>".repeat(n),
        },
        Flood {
            name: "(<b><p>) × n + </b> × n",
            n: 200_000,
            build: |n| "<b><p>".repeat(n) + &"</b>".repeat(n),
        },
        Flood {
            name: "<a> × n",
            n: 300_000,
            build: |n| "<a>".repeat(n),
        },
        Flood {
            name: "(<a><div>) × n",
            n: 200_000,
            build: |n| "<a><div>".repeat(n),
        },
        Flood {
            name: "(<i><b><u>x</i>) × n (misnesting)",
            n: 200_000,
            build: |n| "<i><b><u>x</i>".repeat(n),
        },
        Flood {
            name: "(<i id=k>) × n, then <b> × n (Noah's Ark behind a long list)",
            n: 200_000,
            build: |n| (0..n).map(|i| format!("<i id={i}>")).collect::<String>() + &"<b>".repeat(n),
        },
        Flood {
            name: "(<i id=k>) × n, then (<a></a>) × n",
            n: 200_000,
            build: |n| {
                (0..n).map(|i| format!("<i id={i}>")).collect::<String>() + &"<a></a>".repeat(n)
            },
        },
        Flood {
            name: "(<b id=j>) × 3 for n ids, n × <i id=k>, then <b id=j> for each id (Noah's Ark, interleaved)",
            n: 100_000,
            build: |n| {
                let ids = n / 5;
                let mut s: String = (0..ids).map(|j| format!("<b id={j}>").repeat(3)).collect();
                s.extend((0..n).map(|k| format!("<i id={k}>")));
                s.extend((0..ids).map(|j| format!("<b id={j}>")));
                s
            },
        },
        Flood {
            name: "<b> + (<span><div>) × n + </b> × n (adoption agency removes from a deep stack)",
            n: 200_000,
            build: |n| format!("<b>{}{}", "<span><div>".repeat(n), "</b>".repeat(n)),
        },
        Flood {
            name: "<div> × n + (<li></li>) × n (the li start tag's walk)",
            n: 300_000,
            build: |n| "<div>".repeat(n) + &"<li></li>".repeat(n),
        },
        Flood {
            name: "<div> × n + (<dd></dd>) × n",
            n: 300_000,
            build: |n| "<div>".repeat(n) + &"<dd></dd>".repeat(n),
        },
        Flood {
            name: "<span> × n + (<button></button>) × n (button in scope)",
            n: 300_000,
            build: |n| "<span>".repeat(n) + &"<button></button>".repeat(n),
        },
        Flood {
            name: "<span> × n + </x> × n (any other end tag)",
            n: 300_000,
            build: |n| "<span>".repeat(n) + &"</x>".repeat(n),
        },
        Flood {
            name: "<svg> + <g> × n + </x> × n (foreign end tag)",
            n: 300_000,
            build: |n| format!("<svg>{}{}", "<g>".repeat(n), "</x>".repeat(n)),
        },
        Flood {
            name: "<li><table><td> + <div> × n + </li> × n (li blocked by a cell)",
            n: 200_000,
            build: |n| format!("<li><table><td>{}{}", "<div>".repeat(n), "</li>".repeat(n)),
        },
        Flood {
            name: "<p><table><td> + <span> × n + </p> × n (p blocked by a cell)",
            n: 200_000,
            build: |n| format!("<p><table><td>{}{}", "<span>".repeat(n), "</p>".repeat(n)),
        },
        Flood {
            name: "<h1><table><td> + <div> × n + </h2> × n (heading blocked by a cell)",
            n: 200_000,
            build: |n| format!("<h1><table><td>{}{}", "<div>".repeat(n), "</h2>".repeat(n)),
        },
        Flood {
            name: "<select><table><td> + <span> × n + <option> × n",
            n: 200_000,
            build: |n| {
                format!(
                    "<select><table><td>{}{}",
                    "<span>".repeat(n),
                    "<option>".repeat(n)
                )
            },
        },
        Flood {
            name: "<ruby><table><td> + <span> × n + <rb> × n",
            n: 200_000,
            build: |n| {
                format!(
                    "<ruby><table><td>{}{}",
                    "<span>".repeat(n),
                    "<rb>".repeat(n)
                )
            },
        },
        Flood {
            name: "<x><table><td> + <span> × n + </x> × n (any other end tag, blocked)",
            n: 200_000,
            build: |n| format!("<x><table><td>{}{}", "<span>".repeat(n), "</x>".repeat(n)),
        },
        Flood {
            name: "<div> × n + </body> × n",
            n: 200_000,
            build: |n| format!("{}{}", "<div>".repeat(n), "</body>".repeat(n)),
        },
        Flood {
            name: "<x><div><svg> + <g> × n + </x> × n (foreign end tag, blocked)",
            n: 200_000,
            build: |n| format!("<x><div><svg>{}{}", "<g>".repeat(n), "</x>".repeat(n)),
        },
        Flood {
            name: "<div> × n + (<table></table>) × n (reset the insertion mode)",
            n: 200_000,
            build: |n| format!("{}{}", "<div>".repeat(n), "<table></table>".repeat(n)),
        },
        Flood {
            name: "<form><table><td> + <div> × n + </form> × n",
            n: 200_000,
            build: |n| {
                format!(
                    "<form><table><td>{}{}",
                    "<div>".repeat(n),
                    "</form>".repeat(n)
                )
            },
        },
        Flood {
            name: "<table><tr><td> + <div> × n + (</tbody><td>) × n",
            n: 200_000,
            build: |n| {
                format!(
                    "<table><tr><td>{}{}",
                    "<div>".repeat(n),
                    "</tbody><td>".repeat(n)
                )
            },
        },
        Flood {
            name: "<table> + (text<i>) × n (foster parenting)",
            n: 300_000,
            build: |n| format!("<table>{}", "x<i>".repeat(n)),
        },
        Flood {
            name: "<table> + (<div>text) × n (foster parenting, deep)",
            n: 300_000,
            build: |n| format!("<table>{}", "<div>x".repeat(n)),
        },
        Flood {
            name: "(<table><tr><td>) × n",
            n: 200_000,
            build: |n| "<table><tr><td>".repeat(n),
        },
        Flood {
            name: "(<table>x) × n",
            n: 300_000,
            build: |n| "<table>x".repeat(n),
        },
        Flood {
            name: "<template> × n",
            n: 300_000,
            build: |n| "<template>".repeat(n),
        },
        Flood {
            name: "(<template><tr>) × n",
            n: 200_000,
            build: |n| "<template><tr>".repeat(n),
        },
        Flood {
            name: "one tag with n attributes",
            n: 100_000,
            build: |n| format!("<div {}>", attrs(n, "a")),
        },
        Flood {
            name: "<html> twice with n attributes each (merged)",
            n: 100_000,
            build: |n| format!("<html {}><html {}>", attrs(n, "a"), attrs(n, "b")),
        },
        Flood {
            name: "<b> × 4 with n attributes each (Noah's Ark compare)",
            n: 50_000,
            build: |n| format!("<b {}>", attrs(n, "a")).repeat(4),
        },
        Flood {
            name: "(<svg><p>) × n (breakout)",
            n: 300_000,
            build: |n| "<svg><p>".repeat(n),
        },
        Flood {
            name: "(<math><mi><svg>) × n",
            n: 200_000,
            build: |n| "<math><mi><svg>".repeat(n),
        },
        Flood {
            name: "<svg> + (<g><font color=1>) × n (breakout, deep)",
            n: 200_000,
            build: |n| format!("<svg>{}", "<g><font color=1>".repeat(n)),
        },
        Flood {
            name: "(<svg><foreignObject><div>) × n",
            n: 200_000,
            build: |n| "<svg><foreignObject><div>".repeat(n),
        },
    ]
}

/// `n` distinct attributes `{prefix}{i}=v`.
fn attrs(n: usize, prefix: &str) -> String {
    (0..n).map(|i| format!("{prefix}{i}=v ")).collect()
}

fn parse(input: &str) -> Document {
    parse_document(input, &ParseOptions::default())
}

#[test]
fn floods_parse_in_linear_time_and_proportional_memory() {
    let mut problems = Vec::new();
    let mut known = Vec::new();
    // For reproducing one flood by hand: its name's substring, and a
    // divisor of the sizes.
    let only = std::env::var("TREE_FLOOD").unwrap_or_default();
    let divisor: usize = std::env::var("TREE_FLOOD_DIVISOR").map_or(1, |d| d.parse().unwrap());
    for mut flood in floods() {
        if !flood.name.contains(&only) {
            continue;
        }
        flood.n /= divisor;
        if let Some((_, why)) = KNOWN_SUPERLINEAR.iter().find(|(n, _)| *n == flood.name) {
            flood.n /= 100;
            match scaling(&flood) {
                Ok(ratio) => known.push(format!(
                    "{} (n = {}): ratio {ratio:.1}: {why}",
                    flood.name, flood.n
                )),
                Err(e) => known.push(format!("{e}: {why}")),
            }
            continue;
        }
        if let Err(e) = scaling(&flood).and_then(|ratio| {
            if ratio >= MAX_RATIO {
                Err(format!(
                    "{}: super-linear: full/tenth CPU-time ratio {ratio:.1}",
                    flood.name
                ))
            } else {
                Ok(())
            }
        }) {
            problems.push(e);
            continue;
        }
        let input = (flood.build)(flood.n);
        let doc = parse(&input);
        let per_byte = doc.heap_size() as f64 / input.len() as f64;
        println!(
            "{:<60} {} nodes, {:.1} heap bytes per input byte",
            flood.name,
            doc.node_count(),
            per_byte
        );
        if doc.heap_size() > MAX_BYTES_PER_INPUT_BYTE * input.len() {
            problems.push(format!(
                "{}: {} heap bytes for {} input bytes ({per_byte:.1} per byte)",
                flood.name,
                doc.heap_size(),
                input.len()
            ));
        }
    }
    println!(
        "{} floods known to be super-linear (measured at 1/100 of their size):",
        known.len()
    );
    for k in &known {
        println!("  KNOWN SUPER-LINEAR: {k}");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Measures `flood` at n/100, n/10 and n: the full/tenth CPU-time ratio
/// (0 when the full size costs under 5 ms, which is all noise), or an
/// error when a run goes over its budget.
fn scaling(flood: &Flood) -> Result<f64, String> {
    let sizes = [flood.n / 100, flood.n / 10, flood.n];
    let mut costs: Vec<Duration> = Vec::new();
    for &size in &sizes {
        let budget = costs.last().map_or(Duration::from_secs(60), |t| {
            (*t * 60).max(Duration::from_secs(2))
        });
        let input: Arc<str> = (flood.build)(size).into();
        match min_cpu_time_within(&input, budget) {
            Some(t) => costs.push(t),
            None => {
                return Err(format!(
                    "{}: super-linear: a run at n = {size} did not finish within {budget:.3?} \
                     of CPU time (costs so far: {costs:.3?})",
                    flood.name
                ));
            }
        }
    }
    let ratio = costs[2].as_secs_f64() / costs[1].as_secs_f64().max(1e-9);
    println!(
        "{:<60} CPU 1/100 {:>10.3?}  1/10 {:>10.3?}  full {:>10.3?}  ratio {ratio:.1}",
        flood.name, costs[0], costs[1], costs[2]
    );
    if costs[2] < Duration::from_millis(5) {
        return Ok(0.0);
    }
    Ok(ratio)
}

/// How often the watcher reads the worker's CPU clock.
const POLL: Duration = Duration::from_millis(20);

/// The least CPU time of 3 parses (and drops) of `input` on a worker
/// thread, or `None` when one run goes over `budget`.
fn min_cpu_time_within(input: &Arc<str>, budget: Duration) -> Option<Duration> {
    const RUNS: usize = 3;
    let (tx, rx) = mpsc::channel();
    let input = Arc::clone(input);
    let worker = thread::spawn(move || {
        for _ in 0..RUNS {
            let start = cpu_time::current_thread();
            drop(black_box(parse(&input)));
            if tx.send(cpu_time::current_thread() - start).is_err() {
                return;
            }
        }
    });
    let clock = ThreadClock::of(&worker);
    let mut best: Option<Duration> = None;
    let mut spent_before = Duration::ZERO;
    let mut done = 0;
    while done < RUNS {
        match rx.recv_timeout(POLL) {
            Ok(t) => {
                best = Some(best.map_or(t, |b| b.min(t)));
                spent_before += t;
                done += 1;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Some(now) = clock.as_ref().and_then(ThreadClock::now)
                    && now.saturating_sub(spent_before) > budget
                {
                    // Over budget: leave the run to itself (a thread
                    // cannot be stopped) and report it.
                    return None;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
        }
    }
    worker.join().ok()?;
    best
}

/// Runs `f` on a thread with a 64 KiB stack: a recursive walk of a deep
/// tree would overflow it.
fn on_small_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    thread::scope(|s| {
        thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn_scoped(s, f)
            .expect("a thread")
            .join()
            .expect("no stack overflow or panic")
    })
}

#[test]
fn deep_trees_walk_on_a_small_stack() {
    const DEPTH: usize = 1_000_000;
    // (Nested divs parse in linear time too: see the floods.)
    let input = "<span>".repeat(DEPTH) + "x";
    let doc = parse(&input);
    let deepest = doc.root().descendants().find(|n| n.as_text().is_some());
    let deepest = deepest.expect("the text");
    // Every level is kept: html, body, then the spans.
    assert_eq!(deepest.ancestors().count(), DEPTH + 3);
    on_small_stack(|| {
        let html = doc.root().outer_html(SerializeOptions::default());
        let want = format!(
            "<html><head></head><body>{}x{}</body></html>",
            "<span>".repeat(DEPTH),
            "</span>".repeat(DEPTH)
        );
        assert!(html == want, "the serialization of the deep tree differs");
        let body = doc.document_element().unwrap().node().last_child().unwrap();
        assert_eq!(body.text_content().as_deref(), Some("x"));
        assert_eq!(doc.root().descendants().count(), DEPTH + 4);
    });
    // Dropping the document on the small stack: its nodes are a flat arena.
    on_small_stack(move || drop(doc));

    // The dump's output is quadratic in depth (its indentation), so a
    // smaller depth; still far deeper than a 64 KiB stack could recurse.
    const DUMP_DEPTH: usize = 5_000;
    let doc = parse(&("<div>".repeat(DUMP_DEPTH) + "<template>x"));
    on_small_stack(|| {
        let dump = doc.dump();
        let last = dump.lines().last().unwrap();
        assert_eq!(last.trim_start_matches(['|', ' ']), "\"x\"");
        assert_eq!(last.len(), "| ".len() + 2 * (DUMP_DEPTH + 4) + 3);
    });
}

/// The corpus pages (every `step`-th) with their bytes.
fn corpus_pages(step: usize) -> Vec<(String, Vec<u8>)> {
    spinneret_testdata::corpus_page_paths()
        .into_iter()
        .step_by(step)
        .map(|path| {
            let bytes = spinneret_testdata::read(&format!("corpus/{path}"));
            (path, bytes)
        })
        .collect()
}

/// Tags that change the tree builder's state most.
const SPLICES: &[&str] = &[
    "<table>",
    "</table>",
    "<tr>",
    "<td>",
    "<b>",
    "</b>",
    "<a href=x>",
    "</a>",
    "<p>",
    "</p>",
    "<svg>",
    "</svg>",
    "<math>",
    "<mi>",
    "<template>",
    "</template>",
    "<select>",
    "<option>",
    "<frameset>",
    "<script>",
    "</script>",
    "<style>",
    "<textarea>",
    "<plaintext>",
    "<!--",
    "-->",
    "<![CDATA[",
    "]]>",
    "<foreignObject>",
    "<noscript>",
    "<html x=1>",
    "<body y=2>",
    "<head>",
    "</body>",
    "</html>",
    "<li>",
    "<dd>",
    "<h1>",
    "</h2>",
    "<form>",
    "</form>",
    "<image src=i>",
    "<isindex>",
    "<caption>",
    "<colgroup>",
    "<col>",
    "&amp;",
    "&#0;",
    "\0",
];

/// `page` mutated: bytes flipped, cut short, tags spliced in, slices of
/// another page spliced in.
fn mutate(page: &[u8], other: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = page.to_vec();
    for _ in 0..1 + rng.below(8) {
        if out.is_empty() {
            break;
        }
        match rng.below(4) {
            0 => {
                let i = rng.below(out.len());
                out[i] ^= 1 << rng.below(8);
            }
            1 => {
                let cut = rng.below(out.len());
                out.truncate(cut);
            }
            2 => {
                let at = rng.below(out.len() + 1);
                let tag = rng.pick(SPLICES).as_bytes();
                out.splice(at..at, tag.iter().copied());
            }
            _ => {
                if other.is_empty() {
                    continue;
                }
                let from = rng.below(other.len());
                let len = rng.below((other.len() - from).min(4096) + 1);
                let at = rng.below(out.len() + 1);
                out.splice(at..at, other[from..from + len].iter().copied());
            }
        }
    }
    out
}

/// `text` fed to a [`StreamParser`] in random chunks (cut on character
/// boundaries).
fn streamed(text: &str, options: &ParseOptions, rng: &mut Rng) -> Document {
    let mut parser = StreamParser::new(options);
    let mut at = 0;
    while at < text.len() {
        let scale = 1 << (1 + rng.below(12));
        let mut end = (at + 1 + rng.below(scale)).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        parser.feed(&text[at..end]);
        at = end;
    }
    parser.finish()
}

#[test]
fn mutated_corpus_pages() {
    let pages = corpus_pages(7);
    assert!(pages.len() >= 200, "{} pages", pages.len());
    let mut rng = Rng(0x5eed_0ff5);
    let contexts: Vec<FragmentContext> = ["td", "svg path", "math mi", "template", "select"]
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    let mut differ = Vec::new();
    for (i, (path, bytes)) in pages.iter().enumerate() {
        let other = &pages[(i + 1) % pages.len()].1;
        let mutated = mutate(bytes, other, &mut rng);
        let text = String::from_utf8_lossy(&mutated);
        let options = ParseOptions {
            scripting: rng.below(2) == 0,
            report_errors: rng.below(2) == 0,
        };
        let whole = parse_document(&text, &options);
        let dump = whole.dump();
        let _ = whole.root().outer_html(SerializeOptions::default());
        if streamed(&text, &options, &mut rng).dump() != dump {
            differ.push(path.clone());
        }
        let context = &contexts[rng.below(contexts.len())];
        let mut cut = text.len().min(8192);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let cut = &text[..cut];
        let _ = parse_fragment(cut, context, &options).dump();
    }
    println!(
        "{} mutated pages parsed whole, streamed and as fragments",
        pages.len()
    );
    assert!(
        differ.is_empty(),
        "streamed trees differ from whole ones: {differ:?}"
    );
}
