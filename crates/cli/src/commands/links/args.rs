//! The flags of `spinneret links`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::format::LineFormat;
use crate::flags::{ProfileArgs, ResumeArgs, Threads, parse_profile, parse_size};
use crate::inputs::InputArgs;

/// Output format of `spinneret links`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One JSON object per link (JSON Lines).
    Jsonl,
    /// Tab-separated, same fields, with a header line.
    Tsv,
    /// Apache Parquet (zstd): the same fields plus the record's `offset`
    /// and HTTP `status`, the schema of the Python package's `warc_links`.
    /// Binary: needs `-o FILE`, or an output that is not a terminal.
    Parquet,
}

impl Format {
    /// The line format of a text format; `None` for `parquet`.
    pub fn lines(self) -> Option<LineFormat> {
        match self {
            Format::Jsonl => Some(LineFormat::Jsonl),
            Format::Tsv => Some(LineFormat::Tsv),
            Format::Parquet => None,
        }
    }
}

/// `spinneret links [OPTIONS] [INPUT]...`
#[derive(Debug, Clone, Args)]
pub struct LinksArgs {
    /// The inputs: `INPUT`s, `--sniff`, `--manifest`, `--dir`.
    #[command(flatten)]
    pub input: InputArgs,

    /// One HTML file (needs --url).
    #[arg(long, value_name = "FILE", requires = "url")]
    pub html: Option<PathBuf>,

    /// The URL the --html file was fetched from.
    #[arg(long, value_name = "URL", requires = "html")]
    pub url: Option<String>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    pub format: Format,

    /// Write the output to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Print each target once (its first occurrence, by the profile's key:
    /// 128-bit hashes are kept, not strings); links that do not parse are
    /// printed once per distinct raw text.
    #[arg(long)]
    pub unique: bool,

    /// Canonicalization profile of `target`: whatwg (the URL as a browser
    /// resolves it; the default), safe, lee2005, aggressive, surt,
    /// safebrowsing.
    // `--canon`, the flag's former name, stays as a hidden alias so that
    // scripts keep working; `--profile` is the name every subcommand uses.
    #[arg(
        long,
        alias = "canon",
        value_name = "PROFILE",
        default_value = "whatwg",
        value_parser = parse_profile
    )]
    pub profile: String,

    /// `--rule` and `--profile-file`.
    #[command(flatten)]
    pub profile_args: ProfileArgs,

    /// Write run statistics as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// Skip WARC records, and HTML pages (`--html`, `--manifest`; decompressed),
    /// larger than this (suffixes K, M, G).
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Records per batch (output is written batch by batch, in input order).
    #[arg(long, value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    pub batch: u64,

    /// Make a bad record fatal (exit code 2).
    #[arg(long)]
    pub strict: bool,

    /// `--resume` and `--checkpoint-every`.
    #[command(flatten)]
    pub resumable: ResumeArgs,
}

impl LinksArgs {
    /// The command as a `--resume` journal names it: its flags that shape
    /// the output.
    pub fn resume_key(&self) -> String {
        let a = LinksArgs {
            input: self.input.for_resume(),
            stats: None,
            workers: Threads { threads: 0 },
            batch: 0,
            ..self.clone()
        };
        format!("links {a:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<LinksArgs, clap::Error> {
        crate::flags::parse_flags("links", args)
    }

    #[test]
    fn defaults() {
        let a = parse(&["x.warc.gz"]).unwrap();
        assert_eq!(a.input.inputs, ["x.warc.gz"]);
        assert_eq!(a.format, Format::Jsonl);
        assert_eq!(a.output, None);
        assert_eq!(a.profile, "whatwg");
        assert_eq!(a.max_record_size, 64 << 20);
        assert!(!a.strict && !a.unique);
    }

    #[test]
    fn canon_profiles() {
        let e = parse(&["--profile", "google", "x"]).unwrap_err();
        assert_eq!(e.kind(), clap::error::ErrorKind::ValueValidation);
        assert!(e.to_string().contains("unknown profile"), "{e}");
        let a = parse(&[
            "--profile",
            "aggressive",
            "--rule",
            "-strip-www",
            "--rule",
            "+sort-query",
            "x",
        ])
        .unwrap();
        assert_eq!(a.profile, "aggressive");
        let p = a.profile_args.build(&a.profile).unwrap();
        assert!(!p.rules.contains(spinneret_canon::Rule::StripWww));
        let a = parse(&["--rule", "nope", "x"]).unwrap();
        assert!(a.profile_args.build(&a.profile).is_err());
    }

    #[test]
    fn canon_is_a_hidden_alias_of_profile() {
        // Scripts written for the flag's former name keep working.
        let a = parse(&["--canon", "surt", "x"]).unwrap();
        assert_eq!(a.profile, "surt");
        let help = parse(&["--help"]).unwrap_err();
        assert!(!help.to_string().contains("--canon"), "{help}");
    }

    #[test]
    fn parquet_to_a_file() {
        let a = parse(&["--format", "parquet", "-o", "l.parquet", "x"]).unwrap();
        assert_eq!(a.format, Format::Parquet);
        assert_eq!(a.output.as_deref(), Some(std::path::Path::new("l.parquet")));
    }

    #[test]
    fn html_needs_url() {
        assert!(parse(&["--html", "a.html"]).is_err());
        assert!(parse(&["--html", "a.html", "--url", "https://a/"]).is_ok());
    }
}
