//! Prints the tokens of an HTML file as JSON lines in html5lib's notation.
//!
//! ```text
//! cargo run --release -p spinneret-html --example tokens -- \
//!     [--state S] [--last-start-tag T] [--no-simulator] [--scripting] [--errors] FILE|-
//! ```
//!
//! One JSON array per token and line, as in the html5lib tokenizer tests:
//!
//! ```text
//! ["DOCTYPE", name, public_id, system_id, correctness]   (correctness = !force-quirks)
//! ["StartTag", name, {attributes}]                       (a 4th element `true` when self-closing)
//! ["EndTag", name]
//! ["Comment", data]
//! ["Character", data]
//! ```
//!
//! Character data is printed as the tokenizer gives it, one line per text
//! token, not coalesced further. The file (or standard input for `-`) is read
//! as UTF-8, invalid sequences replaced by U+FFFD.
//!
//! Options:
//!
//! - `--state S`: the initial state: `data` (default), `rcdata`, `rawtext`,
//!   `script-data`, `plaintext` or `cdata-section`; html5lib's names
//!   (`"RCDATA state"`, `"Script data state"`, …) are accepted too;
//! - `--last-start-tag T`: the last start tag's name, for the appropriate
//!   end tag in RCDATA, RAWTEXT and script data;
//! - `--no-simulator`: do not run the tree-builder simulator (states change
//!   only as the tokenizer itself changes them, as in the html5lib tests);
//! - `--scripting`: the scripting flag (`<noscript>` is then raw text);
//! - `--errors`: also print the parse errors, one
//!   `{"code":…,"line":…,"col":…}` object per line, after the tokens.
//!
//! Example:
//!
//! ```text
//! $ echo '<p class=x>a &amp; b' | cargo run -q --release -p spinneret-html --example tokens -- --errors -
//! ["StartTag","p",{"class":"x"}]
//! ["Character","a & b\n"]
//! ```

use serde_json::json;
use spinneret_html::{TextMode, Tokenizer, TokenizerOptions};
use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

#[path = "../tests/support/notation.rs"]
mod notation;
use notation::notation;

const USAGE: &str = "usage: tokens [--state S] [--last-start-tag T] [--no-simulator] [--scripting] [--errors] FILE|-
  S: data | rcdata | rawtext | script-data | plaintext | cdata-section";

fn parse_state(s: &str) -> Option<TextMode> {
    let key: String = s
        .trim()
        .trim_end_matches(" state")
        .to_ascii_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    Some(match key.as_str() {
        "data" => TextMode::Data,
        "rcdata" => TextMode::Rcdata,
        "rawtext" => TextMode::Rawtext,
        "script" | "scriptdata" => TextMode::ScriptData,
        "plaintext" => TextMode::Plaintext,
        "cdata" | "cdatasection" => TextMode::CdataSection,
        _ => return None,
    })
}

fn main() -> ExitCode {
    let mut options = TokenizerOptions::default();
    let mut show_errors = false;
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--state" => match args.next().as_deref().and_then(parse_state) {
                Some(mode) => options.initial_state = mode,
                None => {
                    eprintln!("--state needs a known state\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--last-start-tag" => match args.next() {
                Some(t) => options.last_start_tag = Some(t.to_ascii_lowercase()),
                None => {
                    eprintln!("--last-start-tag needs a tag name\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--no-simulator" => options.simulate_tree_builder = false,
            "--scripting" => options.scripting = true,
            "--errors" => show_errors = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if arg.starts_with("--") => {
                eprintln!("unknown option {arg}\n{USAGE}");
                return ExitCode::from(2);
            }
            _ if file.is_none() => file = Some(arg),
            _ => {
                eprintln!("one input only\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let Some(file) = file else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let bytes = if file == "-" {
        let mut buf = Vec::new();
        if let Err(e) = std::io::stdin().read_to_end(&mut buf) {
            eprintln!("cannot read standard input: {e}");
            return ExitCode::FAILURE;
        }
        buf
    } else {
        match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("cannot read {file}: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let input = String::from_utf8_lossy(&bytes);
    options.report_errors = show_errors;

    let out = std::io::stdout().lock();
    let mut out = BufWriter::new(out);
    let mut tokenizer = Tokenizer::new(&input, options);
    let mut result = Ok(());
    while let Some(token) = tokenizer.next_token() {
        result = writeln!(out, "{}", notation(&token));
        if result.is_err() {
            break;
        }
    }
    if show_errors && result.is_ok() {
        for e in tokenizer.errors() {
            let line = json!({"code": e.code.spec_name(), "line": e.line, "col": e.col});
            result = writeln!(out, "{line}");
            if result.is_err() {
                break;
            }
        }
    }
    match result.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`| head`) is not an error worth reporting.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cannot write: {e}");
            ExitCode::FAILURE
        }
    }
}
