//! `spinneret canon`: URLs on standard input, one per line, to
//! `url<TAB>canonical<TAB>surt` lines.
//!
//! `canonical` is the profile's canonical URL (or its key with `--key`);
//! `surt` is the URL's CDX key (Internet Archive canonicalization + SURT),
//! whatever the profile, so the output can be joined with CDX indexes;
//! `--surt-option NAME=BOOL` and `--surt-canonicalizer NAME` give it the
//! PyPI `surt` package's options and canonicalizers (defaults: the
//! package's, the key unchanged).
//! A line that is not a URL under the profile gets empty `canonical` (its
//! SURT is still computed: that canonicalizer accepts any bytes) and is
//! counted; the count goes to standard error at the end. Input lines are
//! bytes: invalid UTF-8 is replaced (U+FFFD) for the profile and kept as
//! bytes for the SURT. Fields are TSV-escaped (`\t`, `\n`, `\r`, `\\`).
//! Lines are processed in parallel batches (`--threads`) and written in
//! input order, so the output does not depend on the thread count.

use std::io::{self, BufRead, Write};

use rayon::prelude::*;
use spinneret_canon::surt::{SurtCanonicalizer, SurtOptionError, SurtOptions, surt_string};
use spinneret_canon::{Canonicalizer, Profile, Rule};

use clap::Args;

use crate::Error;
use crate::escape::tsv_escape;
use crate::flags::Threads;

/// `spinneret canon [OPTIONS] < urls.txt`
#[derive(Debug, Clone, Args)]
pub struct CanonArgs {
    /// The profile: whatwg, safe, lee2005, aggressive, surt, safebrowsing.
    #[arg(long, value_name = "PROFILE", default_value = "safe", value_parser = crate::flags::parse_profile)]
    pub profile: String,

    /// `--rule` and `--profile-file`.
    #[command(flatten)]
    pub profile_args: crate::flags::ProfileArgs,

    /// Print the profile's key (the canonical URL, or the SURT for `surt`)
    /// in the second column instead of the canonical URL.
    #[arg(long)]
    pub key: bool,

    /// An option of the PyPI `surt` package for the third column's key, as
    /// NAME=BOOL (`with_scheme=true`, `host_massage=false`; NAME alone means
    /// true); repeatable; the package's defaults otherwise. Output:
    /// with_scheme, trailing_comma, reverse_ipaddr, public_suffix, surt. IA
    /// canonicalizer: host_lowercase, host_massage, port_strip_default,
    /// path_strip_empty, path_lowercase, path_strip_session_id,
    /// path_strip_trailing_slash_unless_empty, query_lowercase,
    /// query_strip_session_id, query_strip_empty, query_alpha_reorder (and
    /// auth_strip_user, auth_strip_pass, hash_strip, which change nothing in
    /// the package either). Ours, off by default:
    /// query_keep_escaped_delimiters (keep `%26`, `%3D`, `%2B` in the query).
    #[arg(long = "surt-option", value_name = "NAME=BOOL", value_parser = parse_surt_option)]
    pub surt_options: Vec<String>,

    /// The canonicalizer before the third column's key: default (Google's
    /// then IA's), google, ia, identity, or a comma-separated list of them
    /// run in order.
    #[arg(
        long,
        value_name = "NAME[,NAME...]",
        default_value = "default",
        value_parser = parse_surt_canonicalizer
    )]
    pub surt_canonicalizer: spinneret_canon::surt::SurtCanonicalizer,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// List the rules with their false-merge risk and exit.
    #[arg(long)]
    pub list_rules: bool,

    /// List the built-in profiles and their rules and exit.
    #[arg(long)]
    pub list_profiles: bool,
}

/// Lines per batch: large enough to keep the workers busy, small enough
/// that memory stays a few MB whatever the input size.
const BATCH_LINES: usize = 16 * 1024;

/// `--surt-option`: `NAME=BOOL` with a known name and a boolean value.
pub fn parse_surt_option(s: &str) -> Result<String, String> {
    SurtOptions::default()
        .set_assignment(s)
        .map(|()| s.to_owned())
        .map_err(|e| e.to_string())
}

/// `--surt-canonicalizer`: a name or a comma-separated list of names.
pub fn parse_surt_canonicalizer(s: &str) -> Result<SurtCanonicalizer, String> {
    s.parse().map_err(|e: SurtOptionError| e.to_string())
}

/// The third column's canonicalizer and options.
struct SurtKey<'a> {
    canonicalizer: &'a SurtCanonicalizer,
    options: SurtOptions,
}

/// One output line (`url<TAB>canonical<TAB>surt<LF>`) and whether the
/// profile accepted the URL.
fn row(canon: &mut Canonicalizer, line: &[u8], key: bool, surt: &SurtKey<'_>) -> (String, bool) {
    let text = String::from_utf8_lossy(line);
    let mut row = String::with_capacity(3 * line.len() + 8);
    tsv_escape(&text, &mut row);
    row.push('\t');
    let r = if key {
        canon.key(&text)
    } else {
        canon.canonicalize(&text)
    };
    let ok = match r {
        Ok(c) => {
            tsv_escape(c, &mut row);
            true
        }
        Err(_) => false,
    };
    row.push('\t');
    tsv_escape(
        &surt_string(line, surt.canonicalizer, &surt.options),
        &mut row,
    );
    row.push('\n');
    (row, ok)
}

/// Counts of one run.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CanonSummary {
    /// Input lines read (URLs).
    pub lines: u64,
    /// Lines whose URL has no canonical form under the profile.
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
    let mut options = SurtOptions::default();
    for assignment in &args.surt_options {
        options
            .set_assignment(assignment)
            .map_err(Error::SurtOption)?;
    }
    let surt = SurtKey {
        canonicalizer: &args.surt_canonicalizer,
        options,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.workers.threads)
        .build()
        .map_err(|e| Error::Threads(e.to_string()))?;
    let mut summary = CanonSummary::default();
    // Lines are read in batches, each batch is canonicalized in parallel
    // (one Canonicalizer per worker) and written in input order.
    let mut batch: Vec<Vec<u8>> = Vec::with_capacity(BATCH_LINES);
    let mut eof = false;
    while !eof {
        batch.clear();
        while batch.len() < BATCH_LINES {
            let mut line = Vec::new();
            match input.read_until(b'\n', &mut line) {
                Ok(0) => {
                    eof = true;
                    break;
                }
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
            batch.push(line);
        }
        let rows: Vec<(String, bool)> = pool.install(|| {
            batch
                .par_iter()
                .map_init(
                    || Canonicalizer::new(profile.clone()),
                    |canon, line| row(canon, line, args.key, &surt),
                )
                .collect()
        });
        for (text, ok) in &rows {
            summary.lines += 1;
            summary.failures += u64::from(!ok);
            match out.write_all(text.as_bytes()) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(summary),
                Err(e) => return Err(Error::Output(e)),
            }
        }
    }
    match out.flush() {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => return Err(Error::Output(e)),
        _ => {}
    }
    let _ = writeln!(
        diag,
        "spinneret canon: {} lines, {} not URLs under profile {}",
        summary.lines, summary.failures, profile.name
    );
    Ok(summary)
}

/// `spinneret canon` as the binary runs it: URLs from standard input,
/// rows to standard output, the summary to standard error; the exit code.
pub fn exec(args: &CanonArgs) -> Result<u8, Error> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    run(args, &mut input, &mut stdout, &mut io::stderr())?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_with(argv: &[&str], input: &str) -> (String, CanonSummary) {
        let a: CanonArgs = crate::flags::parse_flags("canon", argv).unwrap();
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
    fn threads_do_not_change_the_output() {
        let input: String = spinneret_testdata::lines("corpus/urls/ada_userbait.txt").join("\n");
        let (one, s1) = run_with(&["--profile", "aggressive", "--threads", "1"], &input);
        let (two, s2) = run_with(&["--profile", "aggressive", "--threads", "2"], &input);
        assert_eq!(one, two);
        assert_eq!(s1, s2);
        assert!(s1.lines > 10_000, "{s1:?}");
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
