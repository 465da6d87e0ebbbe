//! The html5lib tokenizer suite (`testdata/html5lib/tokenizer/*.test`), read
//! in full from the shared folder.
//!
//! Every test of every file runs, once per initial state; there is no skip
//! list. Tokens are compared in html5lib's notation with adjacent character
//! tokens coalesced (on both sides), and parse errors by code, line and
//! column, in order. The tokenizer runs without the tree-builder simulator:
//! the tests set the initial state and the last start tag themselves.
//!
//! Two things are handled apart, visibly:
//!
//! - inputs that, after the `doubleEscaped` round of unescaping, contain a
//!   lone surrogate (`\uD800`) are not expressible as UTF-8 text: no decoder
//!   produces one, and a Rust `&str` cannot hold one. They are counted and
//!   listed, not run (unicodeCharsProblematic.test has four);
//! - `xmlViolation.test` holds its tests under `"xmlViolationTests"`, and its
//!   expected output assumes the HTML Standard's "coercing an HTML DOM into
//!   an infoset" tweaks. Those tweaks are applied to the tokenizer's output
//!   ([`coerce_to_infoset`]) before comparing; the list carries no `errors`
//!   (it predates error codes), so its errors are not compared.
//!
//! Any other top-level key that holds a list fails the test, so a new kind
//! of list cannot be skipped silently.

use serde_json::{Map, Value};
use spinneret_html::{TextMode, Tokenizer, TokenizerOptions};
use std::fmt::Write as _;

mod support {
    pub mod notation;
}
use support::notation::notation;

/// The tokenizer's states a test may start in, by html5lib's names.
fn text_mode(name: &str) -> Option<TextMode> {
    Some(match name {
        "Data state" => TextMode::Data,
        "PLAINTEXT state" => TextMode::Plaintext,
        "RCDATA state" => TextMode::Rcdata,
        "RAWTEXT state" => TextMode::Rawtext,
        "Script data state" => TextMode::ScriptData,
        "CDATA section state" => TextMode::CdataSection,
        _ => return None,
    })
}

/// The `doubleEscaped` round of unescaping: every `\uHHHH` becomes its code
/// point (a surrogate pair becomes one supplementary code point). `Err` when
/// a lone surrogate remains: such text is not expressible as UTF-8.
fn unescape(s: &str) -> Result<String, String> {
    fn hex4(b: &[u8], at: usize) -> Option<u32> {
        let h = b.get(at..at + 4)?;
        if !h.iter().all(u8::is_ascii_hexdigit) {
            return None;
        }
        u32::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()
    }
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut copied = 0;
    while i < b.len() {
        if b[i] != b'\\' || b.get(i + 1) != Some(&b'u') {
            i += 1;
            continue;
        }
        let Some(unit) = hex4(b, i + 2) else {
            i += 1;
            continue;
        };
        out.push_str(&s[copied..i]);
        let (c, len) = if (0xD800..0xDC00).contains(&unit) {
            let low = (b.get(i + 6) == Some(&b'\\') && b.get(i + 7) == Some(&b'u'))
                .then(|| hex4(b, i + 8))
                .flatten()
                .filter(|u| (0xDC00..0xE000).contains(u));
            match low {
                Some(low) => (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12),
                None => return Err(format!("lone surrogate \\u{unit:04X}")),
            }
        } else {
            (unit, 6)
        };
        let c = char::from_u32(c).ok_or_else(|| format!("lone surrogate \\u{c:04X}"))?;
        out.push(c);
        i += len;
        copied = i;
    }
    out.push_str(&s[copied..]);
    Ok(out)
}

/// `unescape` applied to every string inside a JSON value.
fn unescape_value(v: &Value) -> Result<Value, String> {
    Ok(match v {
        Value::String(s) => Value::String(unescape(s)?),
        Value::Array(a) => Value::Array(a.iter().map(unescape_value).collect::<Result<_, _>>()?),
        Value::Object(o) => {
            let mut m = Map::new();
            for (k, v) in o {
                m.insert(unescape(k)?, unescape_value(v)?);
            }
            Value::Object(m)
        }
        other => other.clone(),
    })
}

/// Merges adjacent `["Character", …]` entries, and drops an explicit
/// `false` self-closing flag (html5lib writes three elements then).
fn coalesce(tokens: impl IntoIterator<Item = Value>) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for mut t in tokens {
        if let Some(a) = t.as_array_mut()
            && a.first().and_then(Value::as_str) == Some("StartTag")
            && a.get(3) == Some(&Value::Bool(false))
        {
            a.truncate(3);
        }
        if t[0] == "Character"
            && let Some(prev) = out.last_mut()
            && prev[0] == "Character"
        {
            let more = t[1].as_str().unwrap_or_default().to_owned();
            if let Value::String(s) = &mut prev[1] {
                s.push_str(&more);
            }
            continue;
        }
        out.push(t);
    }
    out
}

/// The tweaks of the HTML Standard's "coercing an HTML DOM into an infoset"
/// that the xmlViolation tests assume: U+000C becomes a space, characters
/// that are not XML `Char`s become U+FFFD, and in comments a space separates
/// any two consecutive hyphens and follows a final hyphen.
fn coerce_to_infoset(token: &mut Value) {
    fn chars(s: &str) -> String {
        s.chars()
            .map(|c| match c {
                '\u{C}' => ' ',
                '\t' | '\n' | '\r' => c,
                '\0'..='\u{1F}' | '\u{FFFE}' | '\u{FFFF}' => '\u{FFFD}',
                _ => c,
            })
            .collect()
    }
    fn comment(s: &str) -> String {
        let mut out = String::with_capacity(s.len());
        for c in chars(s).chars() {
            if c == '-' && out.ends_with('-') {
                out.push(' ');
            }
            out.push(c);
        }
        if out.ends_with('-') {
            out.push(' ');
        }
        out
    }
    let Some(a) = token.as_array_mut() else {
        return;
    };
    match a[0].as_str() {
        Some("Character") => a[1] = Value::String(chars(a[1].as_str().unwrap_or_default())),
        Some("Comment") => a[1] = Value::String(comment(a[1].as_str().unwrap_or_default())),
        Some("StartTag") => {
            if let Some(attrs) = a[2].as_object_mut() {
                for v in attrs.values_mut() {
                    *v = Value::String(chars(v.as_str().unwrap_or_default()));
                }
            }
        }
        _ => {}
    }
}

/// Expected parse errors as `code line:col` strings.
fn expected_errors(test: &Value) -> Vec<String> {
    test.get("errors")
        .and_then(Value::as_array)
        .map(|errs| {
            errs.iter()
                .map(|e| {
                    format!(
                        "{} {}:{}",
                        e["code"].as_str().unwrap_or("?"),
                        e["line"],
                        e["col"]
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Tallies for one file.
#[derive(Default)]
struct Tally {
    runs: usize,
    passed: usize,
    inexpressible: Vec<String>,
    failures: Vec<String>,
}

/// The options of one run: html5lib's initial state and last start tag,
/// errors reported, no tree-builder simulation (the tests are for the
/// tokenizer alone).
fn options_for(mode: TextMode, last_start_tag: &Option<String>) -> TokenizerOptions {
    TokenizerOptions {
        initial_state: mode,
        last_start_tag: last_start_tag.clone(),
        report_errors: true,
        simulate_tree_builder: false,
        ..TokenizerOptions::default()
    }
}

/// The coalesced html5lib-notation tokens of `input` and the errors as
/// `code line:col`.
fn tokens(
    input: &str,
    options: TokenizerOptions,
    xml_violation: bool,
) -> (Vec<Value>, Vec<String>) {
    let mut tokenizer = Tokenizer::new(input, options);
    let mut got = Vec::new();
    while let Some(token) = tokenizer.next_token() {
        got.push(notation(&token));
    }
    if xml_violation {
        got.iter_mut().for_each(coerce_to_infoset);
    }
    let errors = tokenizer
        .errors()
        .iter()
        .map(|e| format!("{} {}:{}", e.code.spec_name(), e.line, e.col))
        .collect();
    (coalesce(got), errors)
}

/// Runs one test in each of its initial states.
fn run_test(test: &Value, xml_violation: bool, tally: &mut Tally) {
    let description = test["description"].as_str().unwrap_or("(no description)");
    let raw_input = test["input"].as_str().expect("input is a string");
    let double_escaped = test.get("doubleEscaped").and_then(Value::as_bool) == Some(true);
    let states: Vec<&str> = match test.get("initialStates") {
        Some(s) => s
            .as_array()
            .expect("initialStates is a list")
            .iter()
            .map(|s| s.as_str().expect("state name"))
            .collect(),
        None => vec!["Data state"],
    };
    let last_start_tag = test
        .get("lastStartTag")
        .and_then(Value::as_str)
        .map(str::to_owned);

    let input = if double_escaped {
        match unescape(raw_input) {
            Ok(s) => s,
            Err(why) => {
                for state in &states {
                    tally.inexpressible.push(format!(
                        "{description:?} [{state}] input {raw_input:?}: {why}"
                    ));
                }
                return;
            }
        }
    } else {
        raw_input.to_owned()
    };
    let expected_output = if double_escaped {
        unescape_value(&test["output"])
    } else {
        Ok(test["output"].clone())
    };
    let want_errors = expected_errors(test);

    for state in states {
        tally.runs += 1;
        let Some(mode) = text_mode(state) else {
            tally
                .failures
                .push(format!("{description:?}: unknown initial state {state:?}"));
            continue;
        };
        let expected = match &expected_output {
            Ok(Value::Array(tokens)) => coalesce(tokens.iter().cloned()),
            Ok(other) => {
                tally
                    .failures
                    .push(format!("{description:?}: output is not a list: {other}"));
                continue;
            }
            Err(why) => {
                tally.failures.push(format!(
                    "{description:?}: expected output not expressible ({why}) though the input is"
                ));
                continue;
            }
        };
        let (got, got_errors) = tokens(&input, options_for(mode, &last_start_tag), xml_violation);
        // Without error reporting the tokenizer takes its fast paths (which
        // give up on anything unusual); the tokens must not change.
        let quiet_options = TokenizerOptions {
            report_errors: false,
            ..options_for(mode, &last_start_tag)
        };
        let (quiet_got, _) = tokens(&input, quiet_options, xml_violation);

        let tokens_ok = got == expected;
        let quiet_ok = quiet_got == expected;
        let errors_ok = xml_violation || got_errors == want_errors;
        if tokens_ok && quiet_ok && errors_ok {
            tally.passed += 1;
            continue;
        }
        let mut msg = format!("{description:?} [{state}]");
        if let Some(t) = &last_start_tag {
            let _ = write!(msg, " lastStartTag={t:?}");
        }
        let _ = write!(msg, "\n      input:  {input:?}");
        if !tokens_ok {
            let _ = write!(
                msg,
                "\n      tokens: want {}\n              got  {}",
                Value::Array(expected.clone()),
                Value::Array(got)
            );
        }
        if !quiet_ok {
            let _ = write!(
                msg,
                "\n      tokens without error reporting: want {}\n              got  {}",
                Value::Array(expected.clone()),
                Value::Array(quiet_got)
            );
        }
        if !errors_ok {
            let _ = write!(
                msg,
                "\n      errors: want {want_errors:?}\n              got  {got_errors:?}"
            );
        }
        tally.failures.push(msg);
    }
}

#[test]
fn html5lib_tokenizer_suite() {
    let files = spinneret_testdata::files_with_suffix("testdata/html5lib/tokenizer", ".test");
    assert!(
        files.len() >= 13,
        "expected the 13 html5lib tokenizer files, found {}",
        files.len()
    );
    let mut total_runs = 0;
    let mut total_failures = 0;
    let mut total_inexpressible = 0;
    let mut failed_files = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let data: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut tally = Tally::default();
        let mut lists = Vec::new();
        for (key, value) in data.as_object().expect("a test file is a JSON object") {
            let Some(tests) = value.as_array() else {
                continue;
            };
            lists.push(format!("{key:?}: {} tests", tests.len()));
            let xml_violation = match key.as_str() {
                "tests" => false,
                "xmlViolationTests" => true,
                _ => {
                    tally
                        .failures
                        .push(format!("unknown list {key:?} of {} tests", tests.len()));
                    continue;
                }
            };
            for test in tests {
                run_test(test, xml_violation, &mut tally);
            }
        }
        println!(
            "{name}: {}/{} passed (tests × initial states; {})",
            tally.passed,
            tally.runs,
            lists.join(", ")
        );
        if !tally.inexpressible.is_empty() {
            println!(
                "  {} run(s) not expressible as UTF-8 text (lone surrogate), not run:",
                tally.inexpressible.len()
            );
            for c in &tally.inexpressible {
                println!("    {c}");
            }
        }
        for f in &tally.failures {
            println!("  FAIL {f}");
        }
        total_runs += tally.runs;
        total_failures += tally.failures.len();
        total_inexpressible += tally.inexpressible.len();
        if !tally.failures.is_empty() {
            failed_files.push(format!("{name}: {}", tally.failures.len()));
        }
    }
    println!(
        "total: {}/{total_runs} passed; {total_inexpressible} not expressible as UTF-8 text",
        total_runs - total_failures
    );
    assert!(
        failed_files.is_empty(),
        "{total_failures} of {total_runs} runs failed: {failed_files:?}"
    );
}
