//! `spinneret canon`: URLs on standard input, one per line, to
//! `url<TAB>canonical<TAB>surt` lines.
//!
//! `canonical` is the profile's canonical URL (or its key with `--key`);
//! `surt` is the URL's CDX key (Internet Archive canonicalization + SURT),
//! whatever the profile, so the output can be joined with CDX indexes.
//! A line that is not a URL under the profile gets empty `canonical` (its
//! SURT is still computed: that canonicalizer accepts any bytes) and is
//! counted; the count goes to standard error at the end. Input lines are
//! bytes: invalid UTF-8 is replaced (U+FFFD) for the profile and kept as
//! bytes for the SURT. Fields are TSV-escaped (`\t`, `\n`, `\r`, `\\`).

use std::io::{self, BufRead, Write};

use spinneret_canon::{Canonicalizer, Profile, Rule, surt};

use crate::Error;
use crate::args::CanonArgs;
use crate::output::tsv_escape;

/// Counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CanonSummary {
    pub lines: u64,
    pub failures: u64,
}

/// Runs `spinneret canon` from `input` to `out`; the summary line goes to `diag`.
pub fn run(
    args: &CanonArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    diag: &mut dyn Write,
) -> Result<CanonSummary, Error> {
    if args.list_rules {
        for r in Rule::ALL {
            writeln!(out, "{:<28} {}", r.name(), r.summary()).map_err(Error::Output)?;
        }
        return Ok(CanonSummary::default());
    }
    if args.list_profiles {
        for name in Profile::BUILTIN {
            let p = Profile::builtin(name).map_err(|e| Error::Profile(e.to_string()))?;
            let rules: Vec<&str> = p.rules.iter().map(Rule::name).collect();
            let what = match p.engine {
                spinneret_canon::Engine::Whatwg if rules.is_empty() => {
                    "WHATWG parse + serialize".to_owned()
                }
                spinneret_canon::Engine::Whatwg => format!("WHATWG + {}", rules.join(", ")),
                spinneret_canon::Engine::SafeBrowsing => {
                    "Google Safe Browsing canonicalization".to_owned()
                }
                spinneret_canon::Engine::InternetArchive => {
                    "Internet Archive canonicalizer, SURT key".to_owned()
                }
            };
            writeln!(out, "{name:<13} {what}").map_err(Error::Output)?;
        }
        return Ok(CanonSummary::default());
    }
    let profile = args.profile_args.build(&args.profile)?;
    let mut canon = Canonicalizer::new(profile);
    let mut summary = CanonSummary::default();
    let mut line = Vec::new();
    let mut row = String::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                return Err(Error::Input {
                    path: "-".into(),
                    source: e,
                });
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        summary.lines += 1;
        let text = String::from_utf8_lossy(&line);
        row.clear();
        tsv_escape(&text, &mut row);
        row.push('\t');
        let r = if args.key {
            canon.key(&text)
        } else {
            canon.canonicalize(&text)
        };
        match r {
            Ok(c) => tsv_escape(c, &mut row),
            Err(_) => summary.failures += 1,
        }
        row.push('\t');
        tsv_escape(&surt::ia_canonicalize(&line).surt, &mut row);
        row.push('\n');
        match out.write_all(row.as_bytes()) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(summary),
            Err(e) => return Err(Error::Output(e)),
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(Error::Output(e)),
        _ => {}
    }
    let _ = writeln!(
        diag,
        "spinneret canon: {} lines, {} not URLs under profile {}",
        summary.lines,
        summary.failures,
        canon.profile().name
    );
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::{Cli, Command};
    use clap::Parser;

    fn run_with(argv: &[&str], input: &str) -> (String, CanonSummary) {
        let mut v = vec!["spinneret", "canon"];
        v.extend_from_slice(argv);
        let Command::Canon(a) = Cli::try_parse_from(v).unwrap().command else {
            panic!()
        };
        let mut out = Vec::new();
        let s = run(&a, &mut input.as_bytes(), &mut out, &mut Vec::new()).unwrap();
        (String::from_utf8(out).unwrap(), s)
    }

    #[test]
    fn three_columns() {
        let (out, s) = run_with(
            &[],
            "HTTP://WWW.Example.com/%7euser/#top\r\nnot a url\nhttp://a.b/\tc\n",
        );
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            "HTTP://WWW.Example.com/%7euser/#top\thttp://www.example.com/~user/\tcom,example)/~user"
        );
        assert_eq!(lines[1], "not a url\t\tnot%20a%20url)/");
        assert_eq!(lines[2], "http://a.b/\\tc\thttp://a.b/c\tb,a)/c");
        assert_eq!(
            s,
            CanonSummary {
                lines: 3,
                failures: 1
            }
        );
    }

    #[test]
    fn key_and_lists() {
        let (out, _) = run_with(&["--profile", "surt", "--key"], "http://www.a.com/b/\n");
        assert_eq!(out, "http://www.a.com/b/\tcom,a)/b\tcom,a)/b\n");
        let (out, _) = run_with(&["--list-rules"], "");
        assert_eq!(out.lines().count(), Rule::ALL.len());
        let (out, _) = run_with(&["--list-profiles"], "");
        assert!(out.contains("lee2005") && out.contains("lowercase-path"));
    }
}
