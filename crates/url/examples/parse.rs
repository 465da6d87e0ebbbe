//! Parses one URL per input line and prints its `href`, or `ERR <failure>`.
//!
//! ```text
//! cargo run --release -p spinneret-url --example parse -- [--base URL] [--errors] < urls.txt
//! ```
//!
//! `--base URL` resolves every line against URL (parsed once). `--errors`
//! also prints every validation error of each line, indented, with its byte
//! position — the standard's names, e.g. `  invalid-reverse-solidus at byte 4`.
//! Lines are taken byte-exact except for the line terminator (`\n` or
//! `\r\n`); bytes that are not UTF-8 are replaced with U+FFFD, as a browser
//! would when given them as a string.

use spinneret_url::Url;
use std::io::{self, BufRead, BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut base: Option<Url> = None;
    let mut show_errors = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--base" => {
                let Some(b) = args.next() else {
                    eprintln!("--base needs a URL");
                    return ExitCode::from(2);
                };
                match Url::parse(&b) {
                    Ok(u) => base = Some(u),
                    Err(e) => {
                        eprintln!("base URL {b:?} does not parse: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            "--errors" => show_errors = true,
            "-h" | "--help" => {
                println!("usage: parse [--base URL] [--errors] < urls.txt");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!(
                    "unknown argument {other:?}; usage: parse [--base URL] [--errors] < urls.txt"
                );
                return ExitCode::from(2);
            }
        }
    }
    let stdin = io::stdin().lock();
    let mut out = BufWriter::new(io::stdout().lock());
    let mut errors = Vec::new();
    for line in stdin.split(b'\n') {
        let mut line = match line {
            Ok(l) => l,
            Err(e) => {
                eprintln!("reading stdin: {e}");
                return ExitCode::FAILURE;
            }
        };
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        let input = String::from_utf8_lossy(&line);
        errors.clear();
        let options = Url::options().base_url(base.as_ref());
        let result = if show_errors {
            options.report_errors(&mut errors).parse(&input)
        } else {
            options.parse(&input)
        };
        let written = match &result {
            Ok(url) => writeln!(out, "{}", url.href()),
            Err(e) => writeln!(out, "ERR {}", e.kind()),
        };
        if written.is_err() {
            return ExitCode::FAILURE; // e.g. a closed pipe
        }
        for e in &errors {
            let _ = writeln!(out, "  {e}");
        }
    }
    if out.flush().is_err() {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
