//! Streaming and resumption give exactly the tokens of a whole-input run.
//!
//! Over every page of the real-web corpus (`corpus/pages.tsv`, read as UTF-8
//! with invalid sequences replaced):
//!
//! - [`stream_chunks_match_whole_input`]: [`StreamTokenizer`] fed chunks of
//!   1, 7, 64 and 4096 bytes yields the same [`OwnedToken`] sequence as
//!   [`Tokenizer`] over the whole string — identical, not merely equal after
//!   coalescing text. A chunk end inside a character moves forward to the
//!   next character boundary. (1-byte chunks run on every page: a feed call
//!   per character over the 190 MB costs only a few seconds in release.);
//! - [`stream_errors_match_whole_input`]: with error reporting on, 64-byte
//!   chunks give the same tokens and the same errors (code, line, column and
//!   byte offset);
//! - [`snapshots_resume_anywhere`]: at 16 token boundaries per page, chosen
//!   by a fixed-seed xorshift, `Tokenizer::from_snapshot` over the rest of
//!   the input yields exactly the remaining tokens. The run that records the
//!   snapshots calls `offset()` and `snapshot()` before every `next_token()`
//!   and must itself give the reference tokens.
//!
//! And over the inputs of the html5lib tokenizer suite, in each of their
//! initial states, without the simulator:
//! [`html5lib_inputs_stream_and_resume`] feeds each input one character at a
//! time and resumes from a snapshot at every token boundary. (Tests with
//! `doubleEscaped` are left to `html5lib_tokenizer.rs`.)

use serde_json::Value;
use spinneret_html::{
    OwnedToken, StreamTokenizer, Tag, TextMode, Token, Tokenizer, TokenizerOptions,
};
use spinneret_testdata::Rng;
use std::fmt::Debug;
use std::sync::LazyLock;
use std::time::Instant;

/// A corpus page: its path (for messages) and its text.
struct Page {
    path: String,
    text: String,
}

static PAGES: LazyLock<Vec<Page>> = LazyLock::new(|| {
    let start = Instant::now();
    let tsv = spinneret_testdata::read_to_string("corpus/pages.tsv");
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = header
        .iter()
        .position(|h| *h == "path")
        .expect("a path column");
    let pages: Vec<Page> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let path = l.split('\t').nth(col).expect("path field").to_owned();
            let bytes = spinneret_testdata::read(&format!("corpus/{path}"));
            let text = String::from_utf8_lossy(&bytes).into_owned();
            Page { path, text }
        })
        .collect();
    assert!(pages.len() > 2000, "corpus has {} pages", pages.len());
    eprintln!(
        "loaded {} pages, {} MB, in {:.1?}",
        pages.len(),
        pages.iter().map(|p| p.text.len()).sum::<usize>() / 1_000_000,
        start.elapsed()
    );
    pages
});

/// `s` in chunks of `size` bytes, each end moved forward to a character
/// boundary.
fn chunks(s: &str, size: usize) -> impl Iterator<Item = &str> {
    let mut pos = 0;
    std::iter::from_fn(move || {
        if pos >= s.len() {
            return None;
        }
        let mut end = (pos + size).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        let chunk = &s[pos..end];
        pos = end;
        Some(chunk)
    })
}

/// Whether a tag equals an owned tag's parts, without allocating.
fn same_tag(t: &Tag<'_>, name: &str, attrs: &[(String, String)], self_closing: bool) -> bool {
    t.name.as_str() == name
        && t.self_closing == self_closing
        && t.attrs.len() == attrs.len()
        && t.attrs
            .iter()
            .zip(attrs)
            .all(|(a, (n, v))| a.name.as_str() == n && a.value == v)
}

/// `token.to_owned() == *owned`, without allocating.
fn same(token: &Token<'_>, owned: &OwnedToken) -> bool {
    match (token, owned) {
        (Token::Text(a), OwnedToken::Text(b)) | (Token::Comment(a), OwnedToken::Comment(b)) => {
            a == b
        }
        (
            Token::Doctype(d),
            OwnedToken::Doctype {
                name,
                public_id,
                system_id,
                force_quirks,
            },
        ) => {
            d.name == name.as_deref()
                && d.public_id == public_id.as_deref()
                && d.system_id == system_id.as_deref()
                && d.force_quirks == *force_quirks
        }
        (
            Token::StartTag(t),
            OwnedToken::StartTag {
                name,
                attrs,
                self_closing,
            },
        )
        | (
            Token::EndTag(t),
            OwnedToken::EndTag {
                name,
                attrs,
                self_closing,
            },
        ) => same_tag(t, name, attrs, *self_closing),
        _ => false,
    }
}

/// A `Debug` rendering cut to a readable length.
fn short(v: &impl Debug) -> String {
    let s = format!("{v:?}");
    if s.len() <= 240 {
        return s;
    }
    let mut end = 240;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &s[..end], s.len())
}

/// Compares tokens as they come with a reference sequence; keeps the first
/// difference.
struct Checker<'r> {
    want: &'r [OwnedToken],
    seen: usize,
    first_diff: Option<String>,
}

impl<'r> Checker<'r> {
    fn new(want: &'r [OwnedToken]) -> Self {
        Checker {
            want,
            seen: 0,
            first_diff: None,
        }
    }

    fn check(&mut self, token: Token<'_>) {
        let i = self.seen;
        self.seen += 1;
        if self.first_diff.is_some() {
            return;
        }
        match self.want.get(i) {
            Some(w) if same(&token, w) => {}
            Some(w) => {
                self.first_diff = Some(format!(
                    "token {i}: want {}, got {}",
                    short(w),
                    short(&token.to_owned())
                ));
            }
            None => {
                self.first_diff = Some(format!(
                    "token {i}: want the end ({} tokens), got {}",
                    self.want.len(),
                    short(&token.to_owned())
                ));
            }
        }
    }

    /// The first difference, including a missing tail.
    fn finish(self) -> Option<String> {
        self.first_diff.or_else(|| {
            (self.seen < self.want.len()).then(|| {
                format!(
                    "ended after {} tokens, want {}; next wanted: {}",
                    self.seen,
                    self.want.len(),
                    short(&self.want[self.seen])
                )
            })
        })
    }
}

/// The tokens of a whole-input run.
fn whole_run(text: &str, options: &TokenizerOptions) -> Vec<OwnedToken> {
    let mut tokenizer = Tokenizer::new(text, options.clone());
    let mut out = Vec::new();
    while let Some(t) = tokenizer.next_token() {
        out.push(t.to_owned());
    }
    out
}

/// Streams `text` in chunks of `size` bytes; the first difference from
/// `want`, if any.
fn stream_diff(
    text: &str,
    size: usize,
    options: &TokenizerOptions,
    want: &[OwnedToken],
) -> Option<String> {
    let mut stream = StreamTokenizer::new(options.clone());
    let mut checker = Checker::new(want);
    for chunk in chunks(text, size) {
        stream.feed(chunk, |t| checker.check(t));
    }
    stream.finish(|t| checker.check(t));
    checker.finish()
}

/// Prints failures (the first 40 in full) and fails when there are any.
fn report(what: &str, runs: usize, failures: &[String]) {
    println!("{what}: {}/{runs} runs identical", runs - failures.len());
    for f in failures.iter().take(40) {
        println!("  FAIL {f}");
    }
    if failures.len() > 40 {
        println!("  … and {} more", failures.len() - 40);
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {runs} runs differ",
        failures.len()
    );
}

#[test]
fn stream_chunks_match_whole_input() {
    let start = Instant::now();
    let options = TokenizerOptions::default();
    let mut runs = 0;
    let mut failures = Vec::new();
    for page in PAGES.iter() {
        let want = whole_run(&page.text, &options);
        for size in [1, 7, 64, 4096] {
            runs += 1;
            if let Some(diff) = stream_diff(&page.text, size, &options, &want) {
                failures.push(format!("{} in {size}-byte chunks: {diff}", page.path));
            }
        }
    }
    println!("stream_chunks_match_whole_input: {:.1?}", start.elapsed());
    report("streamed chunks vs whole input", runs, &failures);
}

#[test]
fn stream_errors_match_whole_input() {
    let start = Instant::now();
    let options = TokenizerOptions {
        report_errors: true,
        ..TokenizerOptions::default()
    };
    let mut runs = 0;
    let mut total_errors = 0;
    let mut failures = Vec::new();
    for page in PAGES.iter() {
        runs += 1;
        let mut tokenizer = Tokenizer::new(&page.text, options.clone());
        let mut want = Vec::new();
        while let Some(t) = tokenizer.next_token() {
            want.push(t.to_owned());
        }
        let want_errors = tokenizer.errors().to_vec();
        total_errors += want_errors.len();

        let mut stream = StreamTokenizer::new(options.clone());
        let mut checker = Checker::new(&want);
        for chunk in chunks(&page.text, 64) {
            stream.feed(chunk, |t| checker.check(t));
        }
        stream.finish(|t| checker.check(t));
        let mut diffs = Vec::new();
        if let Some(d) = checker.finish() {
            diffs.push(d);
        }
        let got_errors = stream.errors();
        if got_errors != want_errors.as_slice() {
            let i = want_errors
                .iter()
                .zip(got_errors)
                .position(|(a, b)| a != b)
                .unwrap_or(want_errors.len().min(got_errors.len()));
            diffs.push(format!(
                "errors: {} whole vs {} streamed; first difference at {i}: want {:?}, got {:?}",
                want_errors.len(),
                got_errors.len(),
                want_errors.get(i),
                got_errors.get(i)
            ));
        }
        if !diffs.is_empty() {
            failures.push(format!(
                "{} in 64-byte chunks with errors: {}",
                page.path,
                diffs.join("; ")
            ));
        }
    }
    println!(
        "stream_errors_match_whole_input: {total_errors} errors over the corpus, {:.1?}",
        start.elapsed()
    );
    report("streamed errors vs whole input", runs, &failures);
}

#[test]
fn snapshots_resume_anywhere() {
    const CUTS: usize = 16;
    let start = Instant::now();
    let options = TokenizerOptions::default();
    let mut rng = Rng(0x5EED_CAFE_F00D_D00D);
    let mut runs = 0;
    let mut failures = Vec::new();
    for page in PAGES.iter() {
        let text = page.text.as_str();
        let want = whole_run(text, &options);
        // Boundaries 0..=len: before each token, and before the final None.
        let mut picks: Vec<usize> = (0..CUTS).map(|_| rng.below(want.len() + 1)).collect();
        picks.sort_unstable();
        picks.dedup();

        // The recording run: offset() and snapshot() before every call.
        let mut tokenizer = Tokenizer::new(text, options.clone());
        let mut checker = Checker::new(&want);
        let mut cuts = Vec::with_capacity(picks.len());
        let mut last_offset = 0;
        let mut boundary_problem = None;
        let mut i = 0;
        loop {
            let offset = tokenizer.offset();
            let snapshot = tokenizer.snapshot();
            if boundary_problem.is_none()
                && (offset < last_offset || offset > text.len() || !text.is_char_boundary(offset))
            {
                boundary_problem = Some(format!(
                    "offset() before token {i} is {offset} (previous {last_offset}, input {} bytes, char boundary: {})",
                    text.len(),
                    text.is_char_boundary(offset)
                ));
            }
            last_offset = offset;
            if picks.binary_search(&i).is_ok() {
                cuts.push((i, offset, snapshot));
            }
            match tokenizer.next_token() {
                Some(t) => checker.check(t),
                None => break,
            }
            i += 1;
        }
        if let Some(d) = checker.finish() {
            failures.push(format!(
                "{}: calling offset()/snapshot() changed the tokens: {d}",
                page.path
            ));
            continue;
        }
        if let Some(p) = boundary_problem {
            failures.push(format!("{}: {p}", page.path));
            continue;
        }
        for (i, offset, snapshot) in &cuts {
            runs += 1;
            let mut resumed = Tokenizer::from_snapshot(&text[*offset..], snapshot, options.clone());
            if resumed.snapshot() != *snapshot {
                failures.push(format!(
                    "{}: resumed before token {i} (byte {offset}): its snapshot() differs from the one it was made from",
                    page.path
                ));
                continue;
            }
            let mut checker = Checker::new(&want[*i..]);
            while let Some(t) = resumed.next_token() {
                checker.check(t);
            }
            if let Some(d) = checker.finish() {
                failures.push(format!(
                    "{}: resumed before token {i} (byte {offset}), counting from there: {d}",
                    page.path
                ));
            }
        }
    }
    println!("snapshots_resume_anywhere: {:.1?}", start.elapsed());
    report("resumed from snapshots vs whole input", runs, &failures);
}

/// html5lib's names of the initial states.
fn text_mode(name: &str) -> TextMode {
    match name {
        "Data state" => TextMode::Data,
        "PLAINTEXT state" => TextMode::Plaintext,
        "RCDATA state" => TextMode::Rcdata,
        "RAWTEXT state" => TextMode::Rawtext,
        "Script data state" => TextMode::ScriptData,
        "CDATA section state" => TextMode::CdataSection,
        other => panic!("unknown initial state {other:?}"),
    }
}

#[test]
fn html5lib_inputs_stream_and_resume() {
    let mut runs = 0;
    let mut failures = Vec::new();
    for path in spinneret_testdata::files_with_suffix("testdata/html5lib/tokenizer", ".test") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable");
        let data: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let tests = data
            .as_object()
            .expect("object")
            .values()
            .filter_map(Value::as_array)
            .flatten();
        for test in tests {
            if test.get("doubleEscaped").and_then(Value::as_bool) == Some(true) {
                continue;
            }
            let input = test["input"].as_str().expect("input");
            let description = test["description"].as_str().unwrap_or_default();
            let states: Vec<&str> = test
                .get("initialStates")
                .and_then(Value::as_array)
                .map(|s| s.iter().filter_map(Value::as_str).collect())
                .unwrap_or_else(|| vec!["Data state"]);
            for state in states {
                runs += 1;
                let options = TokenizerOptions {
                    initial_state: text_mode(state),
                    last_start_tag: test
                        .get("lastStartTag")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    report_errors: true,
                    simulate_tree_builder: false,
                    ..TokenizerOptions::default()
                };
                let at = format!("{name} {description:?} [{state}] input {input:?}");

                // Whole input, recording every boundary.
                let mut tokenizer = Tokenizer::new(input, options.clone());
                let mut want = Vec::new();
                let mut cuts = Vec::new();
                loop {
                    cuts.push((want.len(), tokenizer.offset(), tokenizer.snapshot()));
                    match tokenizer.next_token() {
                        Some(t) => want.push(t.to_owned()),
                        None => break,
                    }
                }
                let want_errors = tokenizer.errors().to_vec();

                // One character per feed.
                let mut stream = StreamTokenizer::new(options.clone());
                let mut checker = Checker::new(&want);
                for chunk in chunks(input, 1) {
                    stream.feed(chunk, |t| checker.check(t));
                }
                stream.finish(|t| checker.check(t));
                if let Some(d) = checker.finish() {
                    failures.push(format!("{at}: streamed by character: {d}"));
                } else if stream.errors() != want_errors.as_slice() {
                    failures.push(format!(
                        "{at}: streamed by character: errors want {want_errors:?}, got {:?}",
                        stream.errors()
                    ));
                }

                // Resume at every boundary.
                for (i, offset, snapshot) in &cuts {
                    let Some(rest) = input.get(*offset..) else {
                        failures.push(format!("{at}: offset {offset} is not a char boundary"));
                        break;
                    };
                    let mut resumed = Tokenizer::from_snapshot(rest, snapshot, options.clone());
                    let mut checker = Checker::new(&want[*i..]);
                    while let Some(t) = resumed.next_token() {
                        checker.check(t);
                    }
                    if let Some(d) = checker.finish() {
                        failures.push(format!(
                            "{at}: resumed before token {i} (byte {offset}), counting from there: {d}"
                        ));
                        break;
                    }
                }
            }
        }
    }
    report("html5lib inputs streamed and resumed", runs, &failures);
}
