//! `spinneret-bench`: how fast spinneret is against its peers, on the shared
//! corpus.
//!
//! A plain binary rather than a `cargo bench` harness: the datasets are large
//! real-web files read from the shared folder, the output is meant to be
//! pasted into the README, and `callgrind.sh` needs to run exactly one
//! untimed pass of one kernel, which a harness does not allow. This file only
//! reads the arguments; the benchmarks live in `url_bench` and the timing
//! method in `timing`.
//!
//! ```text
//! spinneret-bench url [DATASET] [--quick]
//! spinneret-bench kernel <none|spinneret|ada|url> <DATASET>   (for callgrind.sh)
//! ```

mod timing;
mod url_bench;

use std::process::ExitCode;

use timing::Plan;
use url_bench::Library;

fn usage() -> ExitCode {
    eprintln!(
        "usage: spinneret-bench url [DATASET] [--quick]\n\
         \n\
         Times parse + href for spinneret-url, ada-url and url on the shared corpus,\n\
         then can_parse, then relative resolution over extracted_links.tsv.gz.\n\
         \n\
         DATASET   run only this one: {} or {}\n\
         --quick   a warm-up and one timed pass per kernel (CI smoke test)",
        url_bench::DATASETS.join(", "),
        url_bench::RELATIVE,
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let positional: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| *a != "--quick")
        .collect();

    match positional.as_slice() {
        ["url"] => {
            run_url(None, quick);
            ExitCode::SUCCESS
        }
        ["url", dataset] if url_bench::is_dataset(dataset) => {
            run_url(Some(dataset), quick);
            ExitCode::SUCCESS
        }
        // Hidden: one untimed pass, for callgrind.sh.
        ["kernel", lib, dataset] if url_bench::is_dataset(dataset) => {
            match Library::from_name(lib) {
                Some(lib) => {
                    url_bench::run_kernel(lib, dataset);
                    ExitCode::SUCCESS
                }
                None => usage(),
            }
        }
        _ => usage(),
    }
}

fn run_url(dataset: Option<&str>, quick: bool) {
    let plan = if quick { Plan::QUICK } else { Plan::THOROUGH };
    url_bench::run(dataset, plan, quick);
}
