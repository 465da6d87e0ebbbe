//! Flags that several subcommands share: the canonicalization profile
//! (`--profile`'s names, `--rule`, `--profile-file`), `--threads`, and byte
//! sizes with suffixes (`64M`). Each command's own flags are in its module; these are
//! the pieces their clap structs flatten in or parse with.

use std::path::PathBuf;

use clap::Args;

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

/// `--threads`: how many workers a command runs on.
#[derive(Debug, Clone, Copy, Args)]
pub struct Threads {
    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
}

/// `--resume` and `--checkpoint-every`: a long run that can be stopped —
/// `kill -9` included — and started again (see `outputs::resume`).
#[derive(Debug, Clone, Copy, Args)]
pub struct ResumeArgs {
    /// Make the run resumable: it works in a folder beside `-o FILE`
    /// (`.FILE.spinneret-resume`) with a journal of the inputs it
    /// finished, so that the same command, run again after a stop, goes on
    /// from the last checkpoint, reads only the inputs not finished, and
    /// ends with the output an uninterrupted run makes, byte for byte.
    /// Needs -o; not with standard input.
    #[arg(long, requires = "output")]
    pub resume: bool,

    /// With --resume: a checkpoint at the end of the first input after
    /// this much input (K, M, G) since the last one. Parquet output is
    /// written in a part per checkpoint, so its row groups also end there.
    #[arg(
        long,
        value_name = "SIZE",
        default_value = "256M",
        value_parser = parse_size,
        requires = "resume"
    )]
    pub checkpoint_every: u64,
}

/// A built-in profile's name (`--profile`), checked.
pub fn parse_profile(s: &str) -> Result<String, String> {
    spinneret_canon::Profile::builtin(s)
        .map(|_| s.to_owned())
        .map_err(|e| e.to_string())
}

/// A byte count: a number with an optional suffix K, M or G (also KiB,
/// KB…; powers of 1024), more than zero.
pub fn parse_size(s: &str) -> Result<u64, String> {
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

/// Parses `argv` as the flags of `command` alone (`A`, one command's
/// clap struct): what a command's unit tests parse with, instead of the
/// whole command line of the dispatcher.
#[cfg(test)]
pub(crate) fn parse_flags<A: clap::Args + clap::FromArgMatches>(
    command: &'static str,
    argv: &[&str],
) -> Result<A, clap::Error> {
    let cli = A::augment_args(clap::Command::new(command));
    let matches = cli.try_get_matches_from(std::iter::once(command).chain(argv.iter().copied()))?;
    A::from_arg_matches(&matches)
}

#[cfg(test)]
mod tests {
    use super::*;

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
