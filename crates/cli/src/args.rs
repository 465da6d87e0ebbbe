//! The command line of `spinneret` (clap derive). Validation that clap can
//! do (value ranges, `--profile` names, flags that require others) is done
//! here so that a bad command line is a usage error (exit code 2).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// spinneret: every outlink of web-crawl bytes, as a browser reads them.
#[derive(Debug, Parser)]
#[command(name = "spinneret", version, about)]
pub struct Cli {
    /// The subcommand and its options.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Extract every link of the HTML pages in WARC/ARC files or HTML files.
    Links(LinksArgs),
    /// Canonicalize URLs read from standard input, one per line:
    /// `url<TAB>canonical<TAB>surt` per line.
    Canon(CanonArgs),
    /// Measure canonicalization policies on a crawl (Lee et al. 2005:
    /// redundancy and coverage loss), from WARC/ARC files, CDX/CDXJ
    /// indexes or TSV files of URLs and payload digests.
    CanonEval(CanonEvalArgs),
    /// Parse one HTML page into the document a browser builds and print it
    /// as the html5lib test-format dump, as serialized HTML or as the text
    /// a reader sees.
    Tree(TreeArgs),
    /// Index WARC/ARC files for replay: sorted CDXJ or CDX lines (pywb,
    /// OutbackCDX, OpenWayback), or a ZipNum cluster.
    Index(crate::index::IndexArgs),
    /// Verify WARC/ARC files: block and payload digests, framing, one
    /// record per gzip member, mandatory fields, HTTP heads, revisits.
    Check(crate::check::CheckArgs),
    /// The readable text of the HTML pages in WARC/ARC files or HTML
    /// files: the whole page or its main content, plain or Markdown, as
    /// JSON Lines, Common Crawl's WET, Parquet, or the bare text.
    ///
    /// Which records: `response` and `resource` records whose payload is
    /// HTML (its Content-Type, or sniffed when the type is missing or
    /// unknown), not empty, with a 2xx HTTP status or no HTTP head (ARC
    /// records, `resource` records); `--any-status` takes every status.
    /// Every other record is skipped. HTML files (`--html`, a manifest of
    /// pages) are always taken. A damaged record is reported (file,
    /// offset, why) and skipped, the rest written; the exit code is then 1
    /// (`--strict`: the run stops, exit code 2).
    ///
    /// The output follows the input order, whatever `--threads`.
    Text(TextArgs),
}

/// The canonicalization profile options shared by the subcommands.
#[derive(Debug, Clone, Args)]
pub struct ProfileArgs {
    /// Add (`+NAME` or `NAME`) or remove (`-NAME`) a rule of the profile;
    /// repeatable. `spinneret canon --list-rules` lists them.
    #[arg(long = "rule", value_name = "[+|-]RULE", allow_hyphen_values = true)]
    pub rules: Vec<String>,

    /// A custom profile from a TOML file (`base`, `add`, `remove`, `key`,
    /// `default_pages`, `tracking_params`, `extra_tracking_params`); it
    /// replaces the named profile, `--rule` still applies on top.
    #[arg(long, value_name = "FILE")]
    pub profile_file: Option<PathBuf>,
}

impl ProfileArgs {
    /// The profile: `name` (or the TOML file) with the `--rule` edits.
    pub fn build(&self, name: &str) -> Result<spinneret_canon::Profile, crate::Error> {
        let err = |e: String| crate::Error::Profile(e);
        let base = match &self.profile_file {
            Some(f) => {
                let text =
                    std::fs::read_to_string(f).map_err(|e| err(format!("{}: {e}", f.display())))?;
                spinneret_canon::Profile::from_toml(&text)
                    .map_err(|e| err(format!("{}: {e}", f.display())))?
            }
            None => spinneret_canon::Profile::builtin(name).map_err(|e| err(e.to_string()))?,
        };
        base.edit(&self.rules).map_err(|e| err(e.to_string()))
    }
}

fn parse_profile(s: &str) -> Result<String, String> {
    spinneret_canon::Profile::builtin(s)
        .map(|_| s.to_owned())
        .map_err(|e| e.to_string())
}

/// `spinneret canon [OPTIONS] < urls.txt`
#[derive(Debug, Clone, Args)]
pub struct CanonArgs {
    /// The profile: whatwg, safe, lee2005, aggressive, surt, safebrowsing.
    #[arg(long, value_name = "PROFILE", default_value = "safe", value_parser = parse_profile)]
    pub profile: String,

    /// `--rule` and `--profile-file`.
    #[command(flatten)]
    pub profile_args: ProfileArgs,

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
    #[arg(long = "surt-option", value_name = "NAME=BOOL", value_parser = crate::canon::parse_surt_option)]
    pub surt_options: Vec<String>,

    /// The canonicalizer before the third column's key: default (Google's
    /// then IA's), google, ia, identity, or a comma-separated list of them
    /// run in order.
    #[arg(
        long,
        value_name = "NAME[,NAME...]",
        default_value = "default",
        value_parser = crate::canon::parse_surt_canonicalizer
    )]
    pub surt_canonicalizer: spinneret_canon::surt::SurtCanonicalizer,

    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// List the rules with their false-merge risk and exit.
    #[arg(long)]
    pub list_rules: bool,

    /// List the built-in profiles and their rules and exit.
    #[arg(long)]
    pub list_profiles: bool,
}

/// `spinneret canon-eval [OPTIONS] INPUT...`
#[derive(Debug, Clone, Args)]
pub struct CanonEvalArgs {
    /// WARC/ARC files (plain, gzip, zstd), CDX/CDXJ files (`.cdx`,
    /// `.cdxj`), or TSV files with a header naming a URL column
    /// (`target_uri`, `url` or `original`) and a digest column
    /// (`payload_digest` or `digest`); glob patterns, and directories
    /// (walked for WARC/ARC files and CDX/CDXJ indexes, by name), or `-`
    /// for a WARC/ARC stream on standard input. An input that cannot be
    /// read is reported and the rest evaluated; the exit code is then 1.
    #[arg(value_name = "INPUT", required_unless_present = "manifest")]
    pub inputs: Vec<String>,

    /// A list of inputs, one path a line, plain or gzip (Common Crawl's
    /// `warc.paths.gz`; `#` comments and blank lines skipped).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The directory the manifest's relative paths are relative to
    /// (default: the manifest's directory).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    pub dir: Option<PathBuf>,

    /// In directories, also take files of other names whose content starts
    /// like a WARC or ARC file.
    #[arg(long)]
    pub sniff: bool,

    /// Policies to evaluate (repeatable). Default: every rule alone (on top
    /// of WHATWG parsing) and every built-in profile.
    #[arg(long = "profile", value_name = "PROFILE", value_parser = parse_profile)]
    pub profiles: Vec<String>,

    /// `--rule` and `--profile-file`.
    #[command(flatten)]
    pub profile_args: ProfileArgs,

    /// Also compute near-duplicate content identities (SimHash of the
    /// visible text of HTML payloads; WARC/ARC input only) and report both.
    #[arg(long)]
    pub near_dup: bool,

    /// Write a self-contained HTML report with a chart per policy.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Write the results as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// Output format of `spinneret tree`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TreeFormat {
    /// The html5lib test-format dump (`| <html>` lines).
    Dump,
    /// The document serialized as HTML (the HTML Standard's fragment
    /// serialization of the root's children).
    Html,
    /// The visible text: what a reader sees, blocks on lines of their own.
    Text,
}

/// `spinneret tree [OPTIONS] FILE|-`
#[derive(Debug, Clone, Args)]
pub struct TreeArgs {
    /// The HTML file (`.gz` decompressed), or `-` for standard input.
    #[arg(value_name = "FILE|-")]
    pub input: String,

    /// The URL the page was fetched from: its top-level domain is a hint
    /// for the encoding, as in `links`.
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// What to print.
    #[arg(long, value_enum, default_value_t = TreeFormat::Dump)]
    pub format: TreeFormat,

    /// Parse with the scripting flag on (`<noscript>` content is then raw
    /// text), as a browser running scripts does.
    #[arg(long)]
    pub scripting: bool,

    /// Parse the input as the `innerHTML` of a CONTEXT element: an HTML
    /// element name (`td`), or `svg NAME` / `math NAME`.
    #[arg(long, value_name = "CONTEXT", value_parser = crate::tree::parse_context)]
    pub fragment: Option<spinneret_html::FragmentContext>,

    /// Threads to read, parse and render the document on (1:
    /// sequentially; default: the machine's cores). The output is the
    /// same whatever the number; pages under 128 KiB, and fragments, are
    /// parsed sequentially, and a larger page gets at most one worker per
    /// 128 KiB. The workers run on a pool
    /// of N threads (the calling one among them); by default, on one of a
    /// thread per core.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// With two threads or more, build the tree of the page's second half
    /// on another thread from a context guessed at a cut, and keep it if
    /// the guess was the true state there (else that half is parsed
    /// again); with more threads, one chunk per thread, each checked
    /// against the state the chunk before it left. The tree is the same
    /// either way.
    #[arg(long)]
    pub tree_speculation: bool,

    /// Refuse a page larger than this (decompressed; suffixes K, M, G):
    /// the document takes a few times the page's size in memory.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_size: u64,
}

/// Output format of `spinneret text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    /// One JSON object per page: record_id, url, date, file, offset,
    /// status, content_type, encoding, language, language_confidence,
    /// html_lang, content_language, title, canonical, published, text.
    Jsonl,
    /// Common Crawl's WET: a warcinfo record, then one conversion record
    /// per page (its title on the first line, then its text), each record
    /// its own gzip member (see --no-gzip).
    Wet,
    /// Apache Parquet (zstd), the JSON Lines fields as columns. Binary:
    /// needs -o FILE, or an output that is not a terminal.
    Parquet,
    /// Each page's plain text (Markdown with --markdown), ending in a line
    /// feed; pages are separated by a line holding only a form feed
    /// (U+000C). One page gives exactly its text and a line feed.
    Text,
    /// As `text`, in Markdown (`--format text --markdown`).
    Markdown,
}

/// `spinneret text [OPTIONS] [INPUT]...`
#[derive(Debug, Clone, Args)]
pub struct TextArgs {
    /// WARC/ARC files (plain, gzip, zstd; detected), directories (walked
    /// recursively, sorted, taking files named like WARC/ARC), glob
    /// patterns, or `-` for standard input. An input that cannot be read
    /// is reported and the run goes on; the exit code is then 1.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// In directories, also take files of other names whose content starts
    /// like a WARC or ARC file (each is opened to see).
    #[arg(long)]
    pub sniff: bool,

    /// One HTML file (`.gz` decompressed).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// The URL the --html file was fetched from: the base of its links,
    /// a hint for its encoding, and its `url`.
    #[arg(long, value_name = "URL", requires = "html")]
    pub url: Option<String>,

    /// A list of inputs, plain or gzip: a TSV whose header line names
    /// `path` and `url` columns lists HTML pages (`.gz` pages are
    /// decompressed; an empty URL is none); any other file lists WARC/ARC
    /// files, one path a line (Common Crawl's `warc.paths.gz`; `#`
    /// comments and blank lines skipped).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The directory the manifest's relative paths are relative to
    /// (default: the manifest's directory).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    pub dir: Option<PathBuf>,

    /// Output format.
    #[arg(long, value_enum, default_value_t = TextFormat::Jsonl)]
    pub format: TextFormat,

    /// Write the output to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Only the main content (the article or post, without navigation,
    /// menus, headers, footers, sidebars, comments, share bars and ads)
    /// instead of the whole page's visible text.
    #[arg(long)]
    pub main_content: bool,

    /// The text as Markdown (headings, lists, block quotes, code blocks,
    /// tables), in every format; WET records are then `text/markdown`.
    #[arg(long)]
    pub markdown: bool,

    /// Markdown: links as `[text](url)` and images as `![alt](url)`, URLs
    /// resolved (needs --markdown or --format markdown).
    #[arg(long)]
    pub links: bool,

    /// Take HTML responses of every HTTP status, not only 2xx.
    #[arg(long)]
    pub any_status: bool,

    /// WET: plain records instead of one gzip member per record. Without
    /// it, standard output and an -o FILE ending in `.gz` get gzip
    /// members and any other -o FILE plain records.
    #[arg(long)]
    pub no_gzip: bool,

    /// WET: the warcinfo record's WARC-Date and Extracted-Date, and the
    /// WARC-Date of HTML files' records, as YYYY-MM-DDThh:mm:ssZ (default:
    /// now). With it, the same inputs give the same file byte for byte.
    #[arg(long, value_name = "DATE", value_parser = crate::text::wet::WarcDate::parse)]
    pub date: Option<crate::text::wet::WarcDate>,

    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

    /// Skip WARC records, and HTML pages (`--html`, `--manifest`;
    /// decompressed), larger than this (suffixes K, M, G); each is
    /// reported as a bad record.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Stop at the first damaged record or unreadable input (exit code 2).
    #[arg(long)]
    pub strict: bool,
}

impl TextArgs {
    /// The text's form: Markdown with `--markdown` or `--format markdown`.
    pub fn text_format(&self) -> spinneret_text::Format {
        if self.markdown || self.format == TextFormat::Markdown {
            spinneret_text::Format::Markdown
        } else {
            spinneret_text::Format::Text
        }
    }

    /// Whether WET records are gzip members: unless `--no-gzip`, or an
    /// `-o` file whose name does not end in `.gz`.
    pub fn gzip(&self) -> bool {
        !self.no_gzip
            && self
                .output
                .as_ref()
                .is_none_or(|p| p.to_string_lossy().ends_with(".gz"))
    }

    /// Flags that mean nothing with the others: the message of a usage
    /// error.
    pub fn conflicts(&self) -> Option<&'static str> {
        if self.links && self.text_format() != spinneret_text::Format::Markdown {
            return Some("--links writes Markdown links: give --markdown or --format markdown");
        }
        if self.format != TextFormat::Wet {
            if self.no_gzip {
                return Some("--no-gzip is for --format wet");
            }
            if self.date.is_some() {
                return Some("--date is for --format wet");
            }
        }
        None
    }
}

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
    pub fn lines(self) -> Option<crate::output::LineFormat> {
        use crate::output::LineFormat;
        match self {
            Format::Jsonl => Some(LineFormat::Jsonl),
            Format::Tsv => Some(LineFormat::Tsv),
            Format::Parquet => None,
        }
    }
}

pub(crate) fn parse_size(s: &str) -> Result<u64, String> {
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
    /// WARC/ARC files (plain, gzip, zstd; detected), directories (walked
    /// recursively, sorted, hidden entries skipped, taking files named
    /// `*.warc`, `*.arc`, `*.warc.gz`, `*.arc.gz`, `*.warc.zst`, …), glob
    /// patterns, or `-` for standard input. An input that cannot be read
    /// is reported and the run goes on; the exit code is then 1.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// In directories, also take files of other names whose content starts
    /// like a WARC or ARC file (each is opened to see).
    #[arg(long)]
    pub sniff: bool,

    /// One HTML file (needs --url).
    #[arg(long, value_name = "FILE", requires = "url")]
    pub html: Option<PathBuf>,

    /// The URL the --html file was fetched from.
    #[arg(long, value_name = "URL", requires = "html")]
    pub url: Option<String>,

    /// A list of inputs, plain or gzip: a TSV whose header line names
    /// `path` and `url` columns lists HTML pages (`.gz` pages are
    /// decompressed); any other file lists WARC/ARC files, one path a line
    /// (Common Crawl's `warc.paths.gz`; `#` comments and blank lines
    /// skipped).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The directory the manifest's relative paths are relative to
    /// (default: the manifest's directory).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    pub dir: Option<PathBuf>,

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

    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,

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
            other => panic!("not links: {other:?}"),
        })
    }

    #[test]
    fn defaults() {
        let a = parse(&["x.warc.gz"]).unwrap();
        assert_eq!(a.inputs, ["x.warc.gz"]);
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
        let help = Cli::try_parse_from(["spinneret", "links", "--help"]).unwrap_err();
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
