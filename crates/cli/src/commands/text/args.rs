//! The flags of `spinneret text`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::wet::WarcDate;
use crate::flags::{ResumeArgs, Threads, parse_size};
use crate::inputs::InputArgs;

/// Output format of `spinneret text`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TextFormat {
    /// One JSON object per page: record_id, url, date, file, offset,
    /// status, content_type, encoding, language, language_confidence,
    /// html_lang, content_language, title, canonical, published,
    /// page_type, text.
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
    /// The inputs: `INPUT`s, `--sniff`, `--manifest`, `--dir`.
    #[command(flatten)]
    pub input: InputArgs,

    /// One HTML file (`.gz` decompressed).
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// The URL the --html file was fetched from: the base of its links,
    /// a hint for its encoding, and its `url`.
    #[arg(long, value_name = "URL", requires = "html")]
    pub url: Option<String>,

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
    #[arg(long, value_name = "DATE", value_parser = WarcDate::parse)]
    pub date: Option<WarcDate>,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// Skip WARC records, and HTML pages (`--html`, `--manifest`;
    /// decompressed), larger than this (suffixes K, M, G); each is
    /// reported as a bad record.
    #[arg(long, value_name = "BYTES", default_value = "64M", value_parser = parse_size)]
    pub max_record_size: u64,

    /// Stop at the first damaged record or unreadable input (exit code 2).
    #[arg(long)]
    pub strict: bool,

    /// `--resume` and `--checkpoint-every` (with -o; a resumed WET file
    /// keeps the first run's date).
    #[command(flatten)]
    pub resumable: ResumeArgs,
}

impl TextArgs {
    /// The command as a `--resume` journal names it: its flags that shape
    /// the output.
    pub fn resume_key(&self) -> String {
        let a = TextArgs {
            input: self.input.for_resume(),
            workers: Threads { threads: 0 },
            ..self.clone()
        };
        format!("text {a:?}")
    }

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
