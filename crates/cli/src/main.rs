//! The `spinneret` binary: parses the command line and runs
//! [`spinneret_cli::pipeline::run`]. Exit codes: 0 (also when the output
//! pipe was closed), 1 for an error, 2 for a usage error or a bad record
//! under `--strict`.

#![forbid(unsafe_code)]

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use spinneret_cli::args::{Cli, Command, Format, TextFormat};
use spinneret_cli::pipeline;

/// mimalloc instead of the system allocator: the pipeline allocates and
/// frees payload-sized buffers per record on several threads, which glibc
/// serves with fresh pages (page faults, `munmap`). On a 534 MiB WARC it
/// cut CPU time by about 8 % (user+sys 1.85 s -> 1.70 s with one worker)
/// for about 100 MiB more peak RSS (mimalloc keeps freed pages for reuse;
/// [`spinneret_cli::allocator`] says why it never returns them).
#[global_allocator]
static GLOBAL: spinneret_cli::allocator::MiMalloc = spinneret_cli::allocator::MiMalloc;

fn main() -> ExitCode {
    spinneret_cli::allocator::keep_freed_memory();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("spinneret: {e:#}");
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<u8> {
    match cli.command {
        Command::Links(args) => {
            let progress = std::io::stderr().is_terminal();
            let mut out: Box<dyn std::io::Write> = match &args.output {
                Some(path) => Box::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("links: -o {}", path.display()))?,
                ),
                None => {
                    let stdout = std::io::stdout();
                    if args.format == Format::Parquet && stdout.is_terminal() {
                        anyhow::bail!(
                            "links: --format parquet writes a binary file: give -o FILE, or redirect the output"
                        );
                    }
                    Box::new(stdout.lock())
                }
            };
            let result = pipeline::run(&args, &mut out, &mut std::io::stderr(), progress)
                .context("links")?;
            Ok(result.exit_code())
        }
        Command::Canon(args) => {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
            spinneret_cli::canon::run(&args, &mut input, &mut stdout, &mut std::io::stderr())
                .context("canon")?;
            Ok(0)
        }
        Command::CanonEval(args) => {
            let mut stdout = std::io::stdout().lock();
            let report =
                spinneret_cli::canon_eval::run(&args, &mut stdout).context("canon-eval")?;
            for what in &report.unreadable {
                eprintln!("spinneret: cannot read: {what}");
            }
            Ok(u8::from(!report.unreadable.is_empty()))
        }
        Command::Index(args) => {
            let progress = std::io::stderr().is_terminal();
            let mut out: Box<dyn std::io::Write> = match &args.output {
                Some(path) => Box::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("index: -o {}", path.display()))?,
                ),
                None => Box::new(std::io::stdout().lock()),
            };
            let result =
                spinneret_cli::index::run(&args, &mut out, &mut std::io::stderr(), progress)
                    .context("index")?;
            Ok(result.exit_code())
        }
        Command::Check(args) => {
            let progress = std::io::stderr().is_terminal();
            let mut out = std::io::stdout().lock();
            let result =
                spinneret_cli::check::run(&args, &mut out, &mut std::io::stderr(), progress)
                    .context("check")?;
            Ok(result.exit_code())
        }
        Command::Text(args) => {
            if let Some(why) = args.conflicts() {
                use clap::CommandFactory;
                Cli::command()
                    .error(clap::error::ErrorKind::ArgumentConflict, why)
                    .exit();
            }
            let progress = std::io::stderr().is_terminal();
            let binary = args.format == TextFormat::Parquet
                || (args.format == TextFormat::Wet && args.gzip());
            let mut out: Box<dyn std::io::Write> = match &args.output {
                Some(path) => Box::new(
                    std::fs::File::create(path)
                        .with_context(|| format!("text: -o {}", path.display()))?,
                ),
                None => {
                    let stdout = std::io::stdout();
                    if binary && stdout.is_terminal() {
                        anyhow::bail!(
                            "text: --format {} writes a binary file: give -o FILE{}, or redirect the output",
                            if args.format == TextFormat::Wet {
                                "wet"
                            } else {
                                "parquet"
                            },
                            if args.format == TextFormat::Wet {
                                " or --no-gzip"
                            } else {
                                ""
                            },
                        );
                    }
                    Box::new(stdout.lock())
                }
            };
            let result =
                spinneret_cli::text::run(&args, &mut out, &mut std::io::stderr(), progress)
                    .context("text")?;
            Ok(result.exit_code())
        }
        Command::Tree(args) => {
            // Unlocked (a `Send` writer: with `--threads N` the output is
            // written from the pool); the buffer takes the lock once per
            // 64 KiB.
            let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout());
            spinneret_cli::tree::run(&args, &mut std::io::stdin(), &mut stdout).context("tree")?;
            Ok(0)
        }
    }
}
