//! The flags of `spinneret check`.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::flags::{Threads, parse_size};
use crate::inputs::InputArgs;

/// How problem lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CheckFormat {
    /// `FILE\tOFFSET\tRECORD-ID\tSEVERITY\tWHAT`.
    Text,
    /// One JSON object per problem.
    Jsonl,
}

/// `spinneret check [OPTIONS] INPUT...`
#[derive(Debug, Clone, Args)]
#[command(mut_arg("inputs", |a| a.required_unless_present("manifest")))]
pub struct CheckArgs {
    /// The inputs: `INPUT`s, `--sniff`, `--manifest`, `--dir`.
    #[command(flatten)]
    pub input: InputArgs,

    /// How problem lines are written.
    #[arg(long, value_enum, default_value_t = CheckFormat::Text)]
    pub format: CheckFormat,

    /// Print the summary only, no problem lines.
    #[arg(short, long)]
    pub quiet: bool,

    /// Warnings fail the check too (exit code 1).
    #[arg(long)]
    pub strict: bool,

    /// Write the summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,

    /// `--threads`.
    #[command(flatten)]
    pub workers: Threads,

    /// Records whose block is larger are skipped with a warning, not
    /// verified (suffixes K, M, G). A record is held whole while hashed.
    #[arg(long, value_name = "BYTES", default_value = "1G", value_parser = parse_size)]
    pub max_record_size: u64,
}
