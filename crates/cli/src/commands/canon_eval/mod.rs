//! `spinneret canon-eval`: the redundancy and coverage-loss table of
//! canonicalization policies on a crawl (Lee, Kim & Hong 2005; the metrics
//! are in `spinneret_canon::eval`).
//!
//! Inputs give (URL, content digest) observations:
//! - WARC/ARC files: `response` and `resource` records with an HTTP status
//!   of 2xx (or none), and `revisit` records with 2xx (or none), which count
//!   with the digest they refer to (their own `WARC-Payload-Digest`, else
//!   the digest of the record named by `WARC-Refers-To`). A record without a
//!   digest gets one computed: SHA-1 of its decoded payload, base32, as WARC
//!   writers do (so it matches other computed digests, not necessarily a
//!   writer's digest of the transfer-encoded payload).
//! - CDX (`.cdx`, with or without its ` CDX …` legend) and CDXJ (`.cdxj`)
//!   indexes: the original URL, digest and status fields.
//! - TSV files with a header: a URL column (`target_uri`, `url`, `original`)
//!   and a digest column (`payload_digest`, `digest`); `record_type` and
//!   `http_status` columns, when present, select as for WARC records.
//!
//! 3xx/4xx/5xx captures are left out: their bodies (often empty or a shared
//! error page) would make different URLs look like one page.
//!
//! Digests are normalized to `algorithm:VALUE` (unlabelled values are
//! SHA-1), so WARC and CDX digests of one payload agree.
//!
//! With `--near-dup`, HTML payloads also get a SimHash of their visible text
//! (text outside `script`, `style`, `template`, `noscript`); digests whose
//! hashes are within 3 bits form one near-duplicate identity. Revisits and
//! non-HTML payloads keep their exact identity.

pub mod args;
pub mod read;

use std::collections::{HashMap, HashSet};
use std::io::Write;

use rayon::prelude::*;
use serde::Serialize;
use spinneret_canon::eval::{Crawl, Evaluation, Metrics, Observation, evaluate};
use spinneret_canon::report::{self, Context};
use spinneret_canon::{Canonicalizer, KeyHash, Profile, Rule, simhash};
use spinneret_warc::discover::Discover;

pub use args::CanonEvalArgs;
use read::read_inputs;
pub use read::{Capture, ReadCounts};

use crate::Error;
use crate::inputs::Source;
use crate::outputs;

/// Builds the crawl (identities from digests; near-duplicate identities
/// from SimHash clusters when every HTML capture has one).
pub fn crawl_of(captures: &[Capture], near_dup: bool) -> Crawl {
    // Near-duplicate identity per digest: cluster the digests' SimHashes.
    let mut near_of: HashMap<&str, u128> = HashMap::new();
    if near_dup {
        let mut digests: Vec<&str> = Vec::new();
        let mut hashes: Vec<u64> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for c in captures {
            if let Some(h) = c.simhash
                && seen.insert(&c.digest)
            {
                digests.push(&c.digest);
                hashes.push(h);
            }
        }
        let clusters = simhash::cluster(&hashes, simhash::NEAR_DUPLICATE_BITS);
        for (d, cl) in digests.iter().zip(clusters) {
            // Tag bit 127 keeps cluster ids apart from digest hashes.
            near_of.insert(d, 1u128 << 127 | u128::from(cl));
        }
    }
    let mut crawl = Crawl::new();
    for c in captures {
        let content = KeyHash::of(&c.digest).0 & !(1u128 << 127);
        let near = near_dup.then(|| near_of.get(c.digest.as_str()).copied().unwrap_or(content));
        crawl.push(Observation {
            url: c.url.clone(),
            content,
            near,
        });
    }
    crawl
}

/// The policies to evaluate: each rule alone and each built-in profile, or
/// the ones asked for.
pub fn policies(args: &CanonEvalArgs) -> Result<Vec<Profile>, Error> {
    let customized =
        !args.profile_args.rules.is_empty() || args.profile_args.profile_file.is_some();
    if !args.profiles.is_empty() || customized {
        let names = if args.profiles.is_empty() {
            vec!["safe".to_owned()]
        } else {
            args.profiles.clone()
        };
        return names.iter().map(|n| args.profile_args.build(n)).collect();
    }
    let mut v = vec![Profile::builtin("whatwg").map_err(|e| Error::Profile(e.to_string()))?];
    for r in Rule::ALL {
        let mut p = Profile::builtin("whatwg")
            .and_then(|p| p.edit(&[r.name()]))
            .map_err(|e| Error::Profile(e.to_string()))?;
        p.name = format!("whatwg+{}", r.name());
        v.push(p);
    }
    for n in Profile::BUILTIN.iter().skip(1) {
        v.push(Profile::builtin(n).map_err(|e| Error::Profile(e.to_string()))?);
    }
    Ok(v)
}

/// The whole result of a run.
#[derive(Debug, Serialize)]
pub struct EvalReport {
    /// The input files, as given (directories and globs expanded).
    pub inputs: Vec<String>,
    /// The inputs that could not be read (`path: why`); the evaluation is
    /// of the rest, and the exit code is 1.
    pub unreadable: Vec<String>,
    /// What was read from them.
    pub read: ReadCounts,
    /// Distinct captured URLs (as recorded).
    pub urls: u64,
    /// Captures of a URL already captured (ignored after the first).
    pub repeated_captures: u64,
    /// One result per policy, in the order evaluated.
    pub policies: Vec<PolicyResult>,
}

/// One row.
#[derive(Debug, Serialize)]
pub struct PolicyResult {
    /// The policy's name (`raw`, `whatwg`, a profile name, …).
    pub name: String,
    /// URLs the policy has no key for (counted, left out of the metrics).
    pub failures: u64,
    /// The metrics with exact content identity (payload digest).
    pub exact: Metrics,
    /// The metrics with near-duplicate identity (`--near-dup`).
    pub near: Option<Metrics>,
}

fn description(name: &str) -> Option<String> {
    let rule = name.strip_prefix("whatwg+").and_then(Rule::from_name);
    match (rule, name) {
        (Some(r), _) => Some(format!("WHATWG parsing plus one rule: {}", r.summary())),
        (None, "whatwg") => Some("WHATWG parse and serialize only (the baseline)".into()),
        (None, "safe") => Some("WHATWG + RFC 3986 §6 semantic-preserving steps".into()),
        (None, "lee2005") => {
            Some("safe + Lee et al. 2005: lower-case path, trailing slash, default pages".into())
        }
        (None, "aggressive") => Some("safe + crawler conventions (urlcanon aggressive)".into()),
        (None, "surt") => Some("Internet Archive canonicalizer, SURT key".into()),
        (None, "safebrowsing") => Some("Google Safe Browsing canonicalization".into()),
        _ => None,
    }
}

/// Runs `spinneret canon-eval`: the table goes to `out`.
pub fn run(args: &CanonEvalArgs, out: &mut dyn Write) -> Result<EvalReport, Error> {
    let sources = args.input.sources(Discover {
        indexes: true,
        ..args.input.discover()
    })?;
    let mut streams = Vec::new();
    let mut unreadable = Vec::new();
    for src in sources {
        match src {
            Source::Unreadable { name, what } => {
                unreadable.push(format!("{name}: {what}"));
            }
            Source::Html { path, .. } => {
                return Err(Error::Input {
                    path: path.display().to_string(),
                    source: std::io::Error::other(
                        "canon-eval reads crawl files and indexes, not HTML pages",
                    ),
                });
            }
            Source::Pages(_) => {
                return Err(Error::Manifest {
                    path: args.input.manifest.as_ref().map(|m| m.display().to_string()).unwrap_or_default(),
                    what: "a manifest of HTML pages has no payload digests: list WARC/ARC files or indexes".to_owned(),
                });
            }
            // A file, standard input, a remote object.
            stream => streams.push(stream),
        }
    }
    let (captures, read) = read_inputs(&streams, args.near_dup, &mut unreadable)?;
    let crawl = crawl_of(&captures, args.near_dup);
    let profiles = policies(args)?;
    let evals: Vec<Evaluation> = profiles
        .into_par_iter()
        .map(|p| evaluate(&crawl, &mut Canonicalizer::new(p)))
        .collect();
    let ctx = Context {
        inputs: streams.iter().map(crate::inputs::source_name).collect(),
        urls: crawl.len() as u64,
        repeated_captures: crawl.repeated_captures,
        skipped: read.skipped + read.unusable + read.bad,
    };
    out.write_all(report::table(&ctx, &evals).as_bytes())
        .map_err(Error::Output)?;
    if let Some(path) = &args.html {
        outputs::write_file(path, report::html(&ctx, &evals, &description).as_bytes())?;
    }
    let result = EvalReport {
        inputs: ctx.inputs.clone(),
        unreadable,
        read,
        urls: ctx.urls,
        repeated_captures: ctx.repeated_captures,
        policies: evals
            .iter()
            .map(|e| PolicyResult {
                name: e.name.clone(),
                failures: e.failures,
                exact: e.exact,
                near: e.near,
            })
            .collect(),
    };
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&result).expect("serializable");
        outputs::write_file(path, text.as_bytes())?;
    }
    Ok(result)
}

/// `spinneret canon-eval` as the binary runs it: the table to standard
/// output, each input that cannot be read to standard error; the exit
/// code (1 when an input could not be read).
pub fn exec(args: &CanonEvalArgs) -> Result<u8, Error> {
    let mut stdout = std::io::stdout().lock();
    let report = run(args, &mut stdout)?;
    for what in &report.unreadable {
        eprintln!("spinneret: cannot read: {what}");
    }
    Ok(u8::from(!report.unreadable.is_empty()))
}
