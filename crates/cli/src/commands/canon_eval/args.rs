//! The flags of `spinneret canon-eval`.

use std::path::PathBuf;

use clap::Args;

use crate::flags::{ProfileArgs, parse_profile};
use crate::inputs::InputArgs;

/// What `canon-eval` reads (its `INPUT`s' help).
const INPUTS: &str = "WARC/ARC files (plain, gzip, zstd), CDX/CDXJ files (`.cdx`, \
`.cdxj`), or TSV files with a header naming a URL column (`target_uri`, `url` or \
`original`) and a digest column (`payload_digest` or `digest`); glob patterns, and \
directories (walked for WARC/ARC files and CDX/CDXJ indexes, by name), or `-` for a \
WARC/ARC stream on standard input. An input that cannot be read is reported and the \
rest evaluated; the exit code is then 1.";

/// `spinneret canon-eval [OPTIONS] INPUT...`
#[derive(Debug, Clone, Args)]
#[command(mut_arg("inputs", |a| a.required_unless_present("manifest").help(INPUTS)))]
pub struct CanonEvalArgs {
    /// The inputs: `INPUT`s, `--sniff`, `--manifest`, `--dir`.
    #[command(flatten)]
    pub input: InputArgs,

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
