//! Pathological inputs: no panic, sensible tokens, and linear time.
//!
//! Each generated input (a 10 MB attribute value, 100k attributes on one
//! tag, a million `<`, a million nested `<svg><math>`, a 50 MB unterminated
//! comment or script, a million `&` or `&amp`, a 10 MB tag name, a million
//! nested `<!--`, …) is tokenized at full size, at a tenth and at a
//! hundredth of it, with error reporting off and on. The cost of a run is
//! the CPU time of the thread that does it (`spinneret_testdata::cpu_time`),
//! not wall-clock time, so other processes loading the machine do not move
//! it. Linear work gives a full/tenth cost ratio of about 10 (more when
//! the working set grows past the caches), a quadratic pass about 100; a
//! ratio of 60 or more, in each of up to three measurements, fails. Costs
//! are minima of 3 runs, and when the full-size run costs under 5 ms of CPU
//! the ratio is not checked — that is all noise, and a quadratic pass over
//! megabytes takes seconds. The hundredth is there so that a quadratic case
//! fails fast instead of hanging: every run has a budget of 60 times the
//! previous size's CPU time (see [`scaling`]).
//!
//! The full-size tokens are then checked for sense (one start tag with as
//! many attributes as distinct names, all the text back, the expected
//! errors).
//!
//! [`streaming_is_linear_time`] feeds the longest single tokens (the 50 MB
//! comment and script, the 10 MB attribute value and tag name) to
//! [`StreamTokenizer`] in 64 KiB chunks: a token that spans many chunks
//! must not be rescanned from its start on every chunk.
//!
//! Per-thread CPU clocks are read through POSIX calls that Linux has, so
//! these tests are compiled for Linux only.

#![cfg(target_os = "linux")]

use spinneret_html::{ErrorCode, StreamTokenizer, Token, Tokenizer, TokenizerOptions};
use spinneret_testdata::cpu_time::{self, ThreadClock};
use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

const MB: usize = 1_000_000;

/// A generated input: `build(n)` is the full input, `build(n / 10)` and
/// `build(n / 100)` the smaller ones; `check(input, n, tokenizer)` looks at
/// the full input's tokens (errors reported).
struct Case {
    name: &'static str,
    n: usize,
    build: fn(usize) -> String,
    check: fn(&str, usize, &mut Tokenizer<'_>) -> Result<(), String>,
}

/// All text of the remaining tokens, and how many other tokens there were.
fn drain_text(tokenizer: &mut Tokenizer<'_>) -> (String, usize) {
    let mut text = String::new();
    let mut others = 0;
    while let Some(t) = tokenizer.next_token() {
        match t {
            Token::Text(s) => text.push_str(s),
            _ => others += 1,
        }
    }
    (text, others)
}

/// How many errors of each code.
fn error_counts(tokenizer: &Tokenizer<'_>) -> BTreeMap<&'static str, usize> {
    let mut counts = BTreeMap::new();
    for e in tokenizer.errors() {
        *counts.entry(e.code.spec_name()).or_insert(0) += 1;
    }
    counts
}

fn expect_errors(tokenizer: &Tokenizer<'_>, want: &[(ErrorCode, usize)]) -> Result<(), String> {
    let got = error_counts(tokenizer);
    let want: BTreeMap<&str, usize> = want
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| (c.spec_name(), *n))
        .collect();
    if got == want {
        Ok(())
    } else {
        Err(format!("errors: want {want:?}, got {got:?}"))
    }
}

/// A `Debug` rendering cut to a readable length (tokens here can be huge).
fn short(v: &impl std::fmt::Debug) -> String {
    let s = format!("{v:?}");
    if s.len() <= 200 {
        return s;
    }
    let mut end = 200;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// "want …, got …" for a token that is not the expected one.
fn unexpected(what: &str, got: Option<Token<'_>>) -> String {
    format!("want {what}, got {}", short(&got.map(|t| t.to_owned())))
}

fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok { Ok(()) } else { Err(what()) }
}

/// The next token must be the end.
fn expect_end(tokenizer: &mut Tokenizer<'_>) -> Result<(), String> {
    match tokenizer.next_token() {
        None => Ok(()),
        Some(t) => Err(format!("unexpected extra token {}", short(&t.to_owned()))),
    }
}

/// A string of `len` bytes made of `unit` repeated.
fn repeat_to(unit: &str, len: usize) -> String {
    unit.repeat(len / unit.len())
}

/// An attribute value of plain bytes.
fn check_plain_value(input: &str, _n: usize, tok: &mut Tokenizer<'_>) -> Result<(), String> {
    let want = &input["<a href=\"".len()..input.len() - "\">".len()];
    match tok.next_token() {
        Some(Token::StartTag(t)) => {
            ensure(t.name == "a" && t.attrs.len() == 1, || {
                format!("tag {:?} with {} attrs", t.name, t.attrs.len())
            })?;
            ensure(t.attr("href") == Some(want), || "href value differs".into())?;
        }
        other => return Err(unexpected("a start tag", other)),
    }
    expect_end(tok)?;
    expect_errors(tok, &[])
}

#[test]
fn pathological_inputs_tokenize_in_linear_time() {
    let cases = [
        Case {
            name: "10 MB attribute value",
            n: 10 * MB,
            build: |n| format!("<a href=\"{}\">", repeat_to("abcdefgh/", n)),
            check: check_plain_value,
        },
        Case {
            name: "10 MB attribute value with &amp;",
            n: 10 * MB,
            build: |n| format!("<a href=\"{}\">", repeat_to("x=1&amp;y=2&#x41;", n)),
            check: |input, _, tok| {
                let raw = &input["<a href=\"".len()..input.len() - 2];
                let want = raw.replace("&amp;", "&").replace("&#x41;", "A");
                match tok.next_token() {
                    Some(Token::StartTag(t)) => {
                        ensure(t.attrs.len() == 1, || format!("{} attrs", t.attrs.len()))?;
                        ensure(t.attr("href") == Some(want.as_str()), || {
                            "href value differs".into()
                        })?;
                    }
                    other => return Err(unexpected("a start tag", other)),
                }
                expect_end(tok)?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "100k distinct attributes",
            n: 100_000,
            build: |n| {
                let mut s = String::from("<div");
                for i in 0..n {
                    s.push_str(&format!(" a{i}=v{i}"));
                }
                s.push('>');
                s
            },
            check: |_, n, tok| {
                match tok.next_token() {
                    Some(Token::StartTag(t)) => {
                        ensure(t.attrs.len() == n, || {
                            format!("{} attrs, want {n}", t.attrs.len())
                        })?;
                        let last = format!("a{}", n - 1);
                        let last_value = format!("v{}", n - 1);
                        ensure(t.attr(&last) == Some(last_value.as_str()), || {
                            format!("{last} = {:?}", t.attr(&last))
                        })?;
                    }
                    other => return Err(unexpected("a start tag", other)),
                }
                expect_end(tok)?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "100k attributes, half duplicates",
            n: 100_000,
            build: |n| {
                let mut s = String::from("<div");
                for i in 0..n {
                    s.push_str(&format!(" a{}={i}", i % (n / 2)));
                }
                s.push('>');
                s
            },
            check: |_, n, tok| {
                let distinct = n / 2;
                match tok.next_token() {
                    Some(Token::StartTag(t)) => {
                        ensure(t.attrs.len() == distinct, || {
                            format!("{} attrs, want {distinct}", t.attrs.len())
                        })?;
                        // The first of duplicates wins.
                        ensure(t.attr("a0") == Some("0"), || {
                            format!("a0 = {:?}, want \"0\"", t.attr("a0"))
                        })?;
                        let last = format!("a{}", distinct - 1);
                        let last_value = format!("{}", distinct - 1);
                        ensure(t.attr(&last) == Some(last_value.as_str()), || {
                            format!("{last} = {:?}", t.attr(&last))
                        })?;
                    }
                    other => return Err(unexpected("a start tag", other)),
                }
                expect_end(tok)?;
                expect_errors(tok, &[(ErrorCode::DuplicateAttribute, n - distinct)])
            },
        },
        Case {
            name: "1M '<'",
            n: MB,
            build: |n| "<".repeat(n),
            check: |input, n, tok| {
                let (text, others) = drain_text(tok);
                ensure(others == 0, || format!("{others} non-text tokens"))?;
                ensure(text == input, || "text differs from the input".into())?;
                expect_errors(
                    tok,
                    &[
                        (ErrorCode::InvalidFirstCharacterOfTagName, n - 1),
                        (ErrorCode::EofBeforeTagName, 1),
                    ],
                )
            },
        },
        Case {
            name: "1M nested <svg><math>",
            n: MB,
            build: |n| "<svg><math>".repeat(n),
            check: |_, n, tok| {
                let mut i = 0;
                while let Some(t) = tok.next_token() {
                    let want = if i % 2 == 0 { "svg" } else { "math" };
                    match t {
                        Token::StartTag(t) if t.name == want => {}
                        other => {
                            return Err(format!(
                                "token {i}: want <{want}>, got {}",
                                short(&other.to_owned())
                            ));
                        }
                    }
                    i += 1;
                }
                ensure(i == 2 * n, || format!("{i} tokens, want {}", 2 * n))?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "50 MB unterminated comment",
            n: 50 * MB,
            build: |n| format!("<!--{}", repeat_to("a-b--c <!d- ", n)),
            check: |input, _, tok| {
                match tok.next_token() {
                    Some(Token::Comment(c)) => ensure(c == &input[4..], || {
                        format!("comment of {} bytes, want {}", c.len(), input.len() - 4)
                    })?,
                    other => return Err(unexpected("a comment", other)),
                }
                expect_end(tok)?;
                expect_errors(tok, &[(ErrorCode::EofInComment, 1)])
            },
        },
        Case {
            name: "50 MB unterminated script",
            n: 50 * MB,
            build: |n| {
                format!(
                    "<script>{}",
                    repeat_to("if (a < b) { c = '</scrip' + \"</\"; }\n", n)
                )
            },
            check: |input, _, tok| {
                match tok.next_token() {
                    Some(Token::StartTag(t)) if t.name == "script" => {}
                    other => return Err(unexpected("<script>", other)),
                }
                let (text, others) = drain_text(tok);
                ensure(others == 0, || format!("{others} non-text tokens"))?;
                ensure(text == input["<script>".len()..], || {
                    format!("script text of {} bytes differs", text.len())
                })?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "50 MB unterminated escaped script (<!--)",
            n: 50 * MB,
            build: |n| {
                format!(
                    "<script><!--{}",
                    repeat_to("x<script>y</script>z -- <!-- ", n)
                )
            },
            check: |input, _, tok| {
                match tok.next_token() {
                    Some(Token::StartTag(t)) if t.name == "script" => {}
                    other => return Err(unexpected("<script>", other)),
                }
                let (text, others) = drain_text(tok);
                ensure(others == 0, || format!("{others} non-text tokens"))?;
                ensure(text == input["<script>".len()..], || {
                    format!("script text of {} bytes differs", text.len())
                })?;
                expect_errors(tok, &[(ErrorCode::EofInScriptHtmlCommentLikeText, 1)])
            },
        },
        Case {
            name: "1M '&'",
            n: MB,
            build: |n| "&".repeat(n),
            check: |input, _, tok| {
                let (text, others) = drain_text(tok);
                ensure(others == 0, || format!("{others} non-text tokens"))?;
                ensure(text == input, || "text differs from the input".into())?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "1M '&amp' without ';'",
            n: MB,
            build: |n| "&amp".repeat(n),
            check: |_, n, tok| {
                let (text, others) = drain_text(tok);
                ensure(others == 0, || format!("{others} non-text tokens"))?;
                ensure(text == "&".repeat(n), || "want one '&' per '&amp'".into())?;
                expect_errors(
                    tok,
                    &[(ErrorCode::MissingSemicolonAfterCharacterReference, n)],
                )
            },
        },
        Case {
            name: "1M '&amp' without ';' in an attribute value",
            n: MB,
            build: |n| format!("<a title=\"{}\">", "&amp".repeat(n)),
            check: |_, n, tok| {
                let want = "&".repeat(n);
                match tok.next_token() {
                    Some(Token::StartTag(t)) => {
                        ensure(t.attr("title") == Some(want.as_str()), || {
                            "want one '&' per '&amp'".into()
                        })?;
                    }
                    other => return Err(unexpected("a start tag", other)),
                }
                expect_end(tok)?;
                expect_errors(
                    tok,
                    &[(ErrorCode::MissingSemicolonAfterCharacterReference, n)],
                )
            },
        },
        Case {
            name: "'&' then 10 MB of letters",
            n: 10 * MB,
            build: |n| format!("&{}", "a".repeat(n)),
            check: |input, _, tok| {
                let (text, others) = drain_text(tok);
                ensure(others == 0, || format!("{others} non-text tokens"))?;
                ensure(text == input, || "text differs from the input".into())?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "10 MB tag name, mixed case, start and end",
            n: 10 * MB,
            build: |n| {
                let name = repeat_to("aBcD", n);
                format!("<{name}></{name}>")
            },
            check: |input, _, tok| {
                let name = input[1..input.find('>').unwrap()].to_ascii_lowercase();
                match tok.next_token() {
                    Some(Token::StartTag(t)) => ensure(t.name == name.as_str(), || {
                        format!("start tag name of {} bytes differs", t.name.as_str().len())
                    })?,
                    other => return Err(unexpected("a start tag", other)),
                }
                match tok.next_token() {
                    Some(Token::EndTag(t)) => ensure(t.name == name.as_str(), || {
                        format!("end tag name of {} bytes differs", t.name.as_str().len())
                    })?,
                    other => return Err(unexpected("an end tag", other)),
                }
                expect_end(tok)?;
                expect_errors(tok, &[])
            },
        },
        Case {
            name: "10 MB unterminated tag name",
            n: 10 * MB,
            build: |n| format!("<{}", "x".repeat(n)),
            check: |_, _, tok| {
                expect_end(tok)?;
                expect_errors(tok, &[(ErrorCode::EofInTag, 1)])
            },
        },
        Case {
            name: "1M nested '<!--'",
            n: MB,
            build: |n| "<!--".repeat(n),
            check: |input, n, tok| {
                // The final "--" ends the comment (then EOF), as in
                // html5lib's "<!--<!-->" → "<!".
                let want = &input[4..input.len() - 2];
                match tok.next_token() {
                    Some(Token::Comment(c)) => ensure(c == want, || {
                        format!("comment of {} bytes, want {}", c.len(), want.len())
                    })?,
                    other => return Err(unexpected("a comment", other)),
                }
                expect_end(tok)?;
                expect_errors(
                    tok,
                    &[
                        (ErrorCode::NestedComment, n - 2),
                        (ErrorCode::EofInComment, 1),
                    ],
                )
            },
        },
    ];

    let mut problems = Vec::new();
    for case in &cases {
        let mut largest = case.n;
        for report_errors in [false, true] {
            let options = TokenizerOptions {
                report_errors,
                ..TokenizerOptions::default()
            };
            let label = format!(
                "{} (errors {})",
                case.name,
                if report_errors { "on" } else { "off" }
            );
            let outcome = scaling(&label, case.n, case.build, &options, tokenize_count);
            problems.extend(outcome.problem);
            largest = largest.min(outcome.largest);
        }
        if largest == 0 {
            continue;
        }
        // The sense check, at full size unless a smaller size was the
        // largest to finish within its CPU-time budget.
        let input = (case.build)(largest);
        let mut tokenizer = Tokenizer::new(
            &input,
            TokenizerOptions {
                report_errors: true,
                ..TokenizerOptions::default()
            },
        );
        if let Err(e) = (case.check)(&input, largest, &mut tokenizer) {
            let at = if largest == case.n {
                String::new()
            } else {
                format!(" (checked at n = {largest})")
            };
            println!("  FAIL {}{at}: {e}", case.name);
            problems.push(format!("{}{at}: {e}", case.name));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// What [`scaling`] found for one family of inputs.
struct Scaling {
    /// A super-linear cost or a run that overran its budget.
    problem: Option<String>,
    /// The largest `n` all of whose runs finished within budget (0 if
    /// none).
    largest: usize,
}

/// Measures `run` on `build(n / 100)`, `build(n / 10)` and `build(n)` (the
/// minimum CPU time of 3 runs each) and checks that the full size costs
/// less than 60 times the tenth in at least one of up to three measurements
/// (when it costs over 5 ms). Each run happens in a worker thread under a
/// CPU-time budget — 60 times the previous size's cost, at least 2 s (60 s
/// for the first size) — so that a quadratic case fails in seconds of CPU
/// instead of hanging the suite (an overrunning run is left to itself).
fn scaling(
    label: &str,
    n: usize,
    build: fn(usize) -> String,
    options: &TokenizerOptions,
    run: fn(&str, &TokenizerOptions) -> usize,
) -> Scaling {
    let sizes = [n / 100, n / 10, n];
    let mut costs: Vec<Duration> = Vec::new();
    let mut largest = 0;
    let mut problem = None;
    for &size in &sizes {
        let budget = costs.last().map_or(Duration::from_secs(60), |t| {
            (*t * 60).max(Duration::from_secs(2))
        });
        let input: Arc<str> = build(size).into();
        match min_cpu_time_within(&input, options, run, budget) {
            Some(t) => {
                costs.push(t);
                largest = size;
            }
            None => {
                problem = Some(format!(
                    "{label}: super-linear: a run at n = {size} did not finish within \
                     {budget:.3?} of CPU time (costs so far, from n = {}: {costs:.3?})",
                    sizes[0]
                ));
                break;
            }
        }
    }
    let show = |i: usize| costs.get(i).map_or("—".to_owned(), |t| format!("{t:.3?}"));
    let ratio = match (costs.get(1), costs.get(2)) {
        (Some(tenth), Some(full)) => {
            Some((full.as_secs_f64() / tenth.as_secs_f64().max(1e-9), *full))
        }
        _ => None,
    };
    println!(
        "{label:<62} CPU 1/100 {:>10}  1/10 {:>10}  full {:>10}  ratio {}",
        show(0),
        show(1),
        show(2),
        ratio.map_or("—".to_owned(), |(r, _)| format!("{r:.1}"))
    );
    if let Some((r, full)) = ratio
        && full > Duration::from_millis(5)
        && r >= 60.0
    {
        // Linear work with a working set that grows past the caches (a
        // 100k-entry hash map, megabytes of attributes) can cost more per
        // byte at full size, more so when other processes share the caches;
        // a quadratic algorithm shows ~100 every time. Measure the pair up
        // to twice more and fail only if every measurement stays at 60 or
        // above.
        let again = |size: usize| {
            let input: Arc<str> = build(size).into();
            min_cpu_time_within(&input, options, run, Duration::from_secs(120))
        };
        let mut worst_case_is_linear = false;
        let mut ratios = vec![format!("{r:.1}")];
        for _ in 0..2 {
            if worst_case_is_linear {
                break;
            }
            let retry = match (again(n / 10), again(n)) {
                (Some(tenth), Some(full)) => full.as_secs_f64() / tenth.as_secs_f64().max(1e-9),
                _ => f64::INFINITY,
            };
            ratios.push(format!("{retry:.1}"));
            worst_case_is_linear = retry < 60.0;
        }
        println!("  (full/tenth ratios measured: {})", ratios.join(", "));
        if !worst_case_is_linear {
            problem = Some(format!(
                "{label}: super-linear, full/tenth ratios {}",
                ratios.join(", ")
            ));
        }
    }
    if let Some(p) = &problem {
        println!("  FAIL {p}");
    }
    Scaling { problem, largest }
}

/// How often the watcher looks at the worker's CPU clock. Only the
/// worker's CPU time decides whether a run is over budget; this is how
/// soon that is noticed.
const POLL: Duration = Duration::from_millis(20);

/// The minimum CPU time of 3 runs of `run` over `input`, done in a worker
/// thread; `None` when a run consumes more than `budget` of CPU time (or
/// panics).
fn min_cpu_time_within(
    input: &Arc<str>,
    options: &TokenizerOptions,
    run: fn(&str, &TokenizerOptions) -> usize,
    budget: Duration,
) -> Option<Duration> {
    const RUNS: usize = 3;
    let (tx, rx) = mpsc::channel();
    let (input, options) = (Arc::clone(input), options.clone());
    let worker = thread::spawn(move || {
        for _ in 0..RUNS {
            let start = cpu_time::current_thread();
            black_box(run(&input, &options));
            if tx.send(cpu_time::current_thread() - start).is_err() {
                return;
            }
        }
    });
    let clock = ThreadClock::of(&worker);
    let mut best: Option<Duration> = None;
    // The worker's CPU time when its current run started (approximately:
    // the runs before it, reported, plus thread start-up).
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
                // No clock: the worker has ended; its last reports are on
                // the way.
                if let Some(now) = clock.as_ref().and_then(ThreadClock::now)
                    && now.saturating_sub(spent_before) > budget
                {
                    // Over budget: leave the run to itself (a thread cannot
                    // be stopped) and report it.
                    return None;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
        }
    }
    worker.join().ok()?;
    best
}

/// Tokenizes `input` to the end, counting tokens.
fn tokenize_count(input: &str, options: &TokenizerOptions) -> usize {
    let mut tokenizer = Tokenizer::new(black_box(input), options.clone());
    let mut count = 0;
    while let Some(t) = tokenizer.next_token() {
        black_box(&t);
        count += 1;
    }
    black_box(tokenizer.errors().len());
    count
}

/// Streams `input` in 64 KiB chunks; the number of tokens and of text bytes.
fn stream_count(input: &str, options: &TokenizerOptions) -> (usize, usize) {
    const CHUNK: usize = 64 * 1024;
    let mut stream = StreamTokenizer::new(options.clone());
    let mut tokens = 0;
    let mut bytes = 0;
    let mut sink = |t: Token<'_>| {
        tokens += 1;
        bytes += match t {
            Token::Comment(s) | Token::Text(s) => s.len(),
            Token::StartTag(t) | Token::EndTag(t) => {
                t.name.as_str().len() + t.attrs.iter().map(|a| a.value.len()).sum::<usize>()
            }
            Token::Doctype(_) => 0,
        };
    };
    let mut pos = 0;
    while pos < input.len() {
        let mut end = (pos + CHUNK).min(input.len());
        while !input.is_char_boundary(end) {
            end += 1;
        }
        stream.feed(black_box(&input[pos..end]), &mut sink);
        pos = end;
    }
    stream.finish(&mut sink);
    (tokens, bytes)
}

#[test]
fn streaming_is_linear_time() {
    struct StreamCase {
        name: &'static str,
        n: usize,
        build: fn(usize) -> String,
        /// Tokens and text bytes (comment/text data, tag names and attribute
        /// values) the full input gives.
        want: fn(&str) -> (usize, usize),
    }
    let cases = [
        StreamCase {
            name: "50 MB unterminated comment",
            n: 50 * MB,
            build: |n| format!("<!--{}", repeat_to("a-b--c <!d- ", n)),
            want: |input| (1, input.len() - 4),
        },
        StreamCase {
            name: "50 MB unterminated script",
            n: 50 * MB,
            build: |n| {
                format!(
                    "<script>{}",
                    repeat_to("if (a < b) { c = '</scrip'; }\n", n)
                )
            },
            want: |input| (usize::MAX, input.len() - "<script>".len() + "script".len()),
        },
        StreamCase {
            name: "10 MB attribute value",
            n: 10 * MB,
            build: |n| format!("<a href=\"{}\">", repeat_to("abcdefgh/", n)),
            want: |input| (1, input.len() - "<a href=\"\">".len() + 1),
        },
        StreamCase {
            name: "10 MB tag name",
            n: 10 * MB,
            build: |n| format!("<{}>", repeat_to("aBcD", n)),
            want: |input| (1, input.len() - 2),
        },
    ];
    let options = TokenizerOptions::default();
    let mut problems = Vec::new();
    for case in &cases {
        let label = format!("streamed in 64 KiB chunks: {}", case.name);
        let outcome = scaling(&label, case.n, case.build, &options, |input, options| {
            stream_count(input, options).1
        });
        problems.extend(outcome.problem);
        if outcome.largest == 0 {
            continue;
        }
        let input = (case.build)(outcome.largest);
        let (tokens, bytes) = stream_count(&input, &options);
        let (want_tokens, want_bytes) = (case.want)(&input);
        // usize::MAX: any number of tokens (text may come in several runs).
        if (want_tokens != usize::MAX && tokens != want_tokens) || bytes != want_bytes {
            problems.push(format!(
                "{} (n = {}): {tokens} tokens with {bytes} text bytes, want {} with {want_bytes}",
                case.name,
                outcome.largest,
                if want_tokens == usize::MAX {
                    "any number".to_owned()
                } else {
                    want_tokens.to_string()
                }
            ));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
