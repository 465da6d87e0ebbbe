//! The command line of `spinneret` (clap derive). Validation that clap can
//! do (value ranges, `--canon` profiles, flags that require others) is done
//! here so that a bad command line is a usage error (exit code 2).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// spinneret: every outlink of web-crawl bytes, as a browser reads them.
#[derive(Debug, Parser)]
#[command(name = "spinneret", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract every link of the HTML pages in WARC/ARC files or HTML files.
    Links(LinksArgs),
}

/// Output format of `spinneret links`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object per link (JSON Lines).
    Jsonl,
    /// Tab-separated, same fields, with a header line.
    Tsv,
}

/// Canonicalization profiles. Only `whatwg` exists today: the URL as the
/// WHATWG URL parser serializes it.
pub const CANON_PROFILES: [&str; 1] = ["whatwg"];

fn parse_canon(s: &str) -> Result<String, String> {
    if CANON_PROFILES.contains(&s) {
        Ok(s.to_owned())
    } else {
        Err(format!(
            "unknown profile {s:?}: only `whatwg` is implemented; canonicalization profiles come with the canonicalization issue (crates/canon)"
        ))
    }
}

fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        None => (s, 1u64),
        Some((i, _)) => {
            let m = match s[i..].to_ascii_lowercase().as_str() {
                "k" | "kib" | "kb" => 1 << 10,
                "m" | "mib" | "mb" => 1 << 20,
                "g" | "gib" | "gb" => 1 << 30,
                other => return Err(format!("unknown size suffix {other:?} (use K, M or G)")),
            };
            (&s[..i], m)
        }
    };
    let n: u64 = num.parse().map_err(|_| format!("not a size: {s:?}"))?;
    n.checked_mul(mult)
        .filter(|&v| v > 0)
        .ok_or_else(|| format!("size out of range: {s:?}"))
}

/// `spinneret links [OPTIONS] [INPUT]...`
#[derive(Debug, Clone, Args)]
pub struct LinksArgs {
    /// WARC/ARC files (plain, gzip, zstd; detected), glob patterns, or `-`
    /// for standard input.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// One HTML file (needs --url).
    #[arg(long, value_name = "FILE", requires = "url")]
    pub html: Option<PathBuf>,

    /// The URL the --html file was fetched from.
    #[arg(long, value_name = "URL", requires = "html")]
    pub url: Option<String>,

    /// A TSV manifest of HTML files with `path` and `url` columns (`.gz`
    /// files are decompressed).
    #[arg(long, value_name = "TSV")]
    pub manifest: Option<PathBuf>,

    /// The directory the manifest's paths are relative to (default: the
    /// manifest's directory).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    pub dir: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,

    /// Print each target once (its first occurrence); links that do not
    /// parse are printed once per distinct raw text.
    #[arg(long)]
    pub unique: bool,

    /// Canonicalization profile of `target` (only `whatwg` today).
    #[arg(long, value_name = "PROFILE", default_value = "whatwg", value_parser = parse_canon)]
    pub canon: String,

    /// Write run statistics as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Skip WARC records larger than this (suffixes K, M, G).
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Records per batch (output is written batch by batch, in input order).
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,

    /// Make a bad record fatal (exit code 2).
    #[arg(long)]
    pub strict: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<LinksArgs, clap::Error> {
        let mut v = vec!["spinneret", "links"];
        v.extend_from_slice(args);
        Cli::try_parse_from(v).map(|c| match c.command {
            Command::Links(a) => a,
        })
    }

    #[test]
    fn defaults() {
        let a = parse(&["x.warc.gz"]).unwrap();
        assert_eq!(a.inputs, ["x.warc.gz"]);
        assert_eq!(a.format, Format::Jsonl);
        assert_eq!(a.canon, "whatwg");
        assert_eq!(a.max_record_size, 64 << 20);
        assert!(!a.strict && !a.unique);
    }

    #[test]
    fn canon_other_than_whatwg_is_a_usage_error() {
        let e = parse(&["--canon", "google", "x"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation);
        assert!(e.to_string().contains("canonicalization issue"), "{e}");
    }

    #[test]
    fn html_needs_url() {
        assert!(parse(&["--html", "a.html"]).is_err());
        assert!(parse(&["--html", "a.html", "--url", "https://a/"]).is_ok());
    }

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1024"), Ok(1024));
        assert_eq!(parse_size("2K"), Ok(2048));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert!(parse_size("0").is_err());
        assert!(parse_size("1X").is_err());
        assert!(parse_size("99999999999999G").is_err());
    }
}
