//! `spinneret-bench hpar-model instructions`: the scheduling model of
//! [`hpar_model`](crate::hpar_model) fed with each step's instructions,
//! counted by callgrind, instead of its time.
//!
//! The timed model moves by a factor of up to 2.5 between runs on this
//! machine (each step the least of three probes, yet the host's load moves
//! all of them); instruction counts hold still. What they leave out is
//! what an instruction costs: an adoption is memory traffic (copies into
//! fresh pages) and a scan is not, so the two models bracket the truth
//! rather than one replacing the other.
//!
//! For each document and thread count the benchmark runs itself under
//! callgrind (hidden `kernel hpar-probe FILE K`), which probes every chunk
//! of the real code's cuts with `spinneret_html::probe_chunk_costs` on a
//! pool of one thread (so that an adoption's passes on the pool are
//! counted too), collecting only inside the probe's step functions and
//! writing one profile after each (`--toggle-collect`, `--dump-after`: the
//! module doc of `parallel/chunk_costs.rs`). The profiles, in order, are
//! the steps of the chunks in order: a `step_prefix` begins a chunk.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use spinneret_html::{ParseOptions, probe_chunk_costs};

use crate::hpar_bench::{documents, well_formed_document};
use crate::hpar_model::{Model, Steps, THREADS, chunks_for, schedule};
use crate::pages::Pages;
use crate::table::{Cell, Column, Table};

/// The probe's step functions, as callgrind names them, in the order a
/// chunk runs them.
const STEPS: [&str; 7] = [
    "step_prefix",
    "step_guess",
    "step_chunk_scan",
    "step_build",
    "step_validate",
    "step_adopt",
    "step_rest",
];

/// Where the step functions live (callgrind's demangled names).
const STEP_PATH: &str = "spinneret_html::parallel::chunk_costs::";

pub fn run(quick: bool) {
    if Command::new("valgrind")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .map_or(true, |s| !s.success())
    {
        eprintln!("hpar-model instructions: valgrind not found (apt-get install valgrind)");
        return;
    }
    let dir = crate::scratch_dir().join("hpar-model-instructions");
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("hpar-model instructions: {}: {e}", dir.display());
        return;
    }
    let mut columns = vec![
        Column::left("document"),
        Column::right("bytes"),
        Column::right("sequential M instructions"),
    ];
    for k in THREADS {
        columns.push(Column::right(format!("{k}: adopted")));
        columns.push(Column::right(format!("{k}: model")));
    }
    let mut table = Table::new(columns);
    // The paper's Table IV for each thread count: why chunks were rebuilt.
    let mut fates_columns = vec![Column::left("document")];
    for k in THREADS {
        fates_columns.push(Column::left(format!("{k} threads: rebuilt, why")));
    }
    let mut fates = Table::new(fates_columns);
    for (name, doc) in model_documents(quick) {
        let file = dir.join("document.html");
        if let Err(e) = std::fs::write(&file, &doc) {
            eprintln!("hpar-model instructions: {}: {e}", file.display());
            return;
        }
        let mut row = vec![
            Cell::text(name.clone()),
            Cell::text(format!("{:.2} MB", doc.len() as f64 / 1e6)),
        ];
        let mut models = Vec::new();
        let mut why = vec![Cell::text(name.clone())];
        for k in THREADS {
            match probe_under_callgrind(&file, k, &dir) {
                Ok(probed) => {
                    why.push(Cell::text(probed.rebuilt()));
                    models.push(Some(schedule(&probed.chunks)));
                }
                Err(e) => {
                    eprintln!("hpar-model instructions: {name}, {k} threads: {e}");
                    why.push(Cell::text("—".to_string()));
                    models.push(None);
                }
            }
        }
        fates.push(why);
        let sequential = models
            .iter()
            .flatten()
            .map(|m: &Model| m.sequential)
            .fold(0.0, f64::max);
        row.push(Cell::text(format!("{:.1}", sequential / 1e6)));
        for model in &models {
            match model {
                Some(m) => {
                    row.push(Cell::text(format!("{}/{}", m.adopted, m.chunks)));
                    row.push(Cell::text(format!("{:.2}×", m.speedup())));
                }
                None => row.extend([Cell::text("—".to_string()), Cell::text("—".to_string())]),
            }
        }
        eprintln!("hpar-model instructions: {name} done");
        table.push(row);
    }
    println!(
        "Tree speculation over k chunks, modelled from each chunk's instructions \
         (callgrind; one thread per chunk; see hpar_model.rs and \
         hpar_model_instructions.rs):\n\n{}",
        table.markdown()
    );
    println!(
        "\nThe chunks whose tree would be rebuilt, and why (`TreeRejection`):\n\n{}",
        fates.markdown()
    );
}

/// The documents: the well-formed ones (where guesses hold), the corpus
/// page where they hold (reddit.com), and a document of pages (where they
/// fail); `quick`, the 1 MB well-formed one alone.
fn model_documents(quick: bool) -> Vec<(String, String)> {
    if quick {
        return vec![("1 MB, well-formed".into(), well_formed_document(1_000_000))];
    }
    let set = Pages::load();
    let mut docs: Vec<(String, String)> = documents(&set, false)
        .into_iter()
        .filter(|(name, _)| name.contains("reddit") || name == "4 MB of pages")
        .collect();
    for mb in [1, 4, 16] {
        docs.push((
            format!("{mb} MB, well-formed"),
            well_formed_document(mb * 1_000_000),
        ));
    }
    docs
}

/// Runs the hidden probe kernel on `file` cut for `k` threads under
/// callgrind, profiles written into `dir`: each chunk's steps in
/// instructions, and its fate.
fn probe_under_callgrind(file: &Path, k: usize, dir: &Path) -> Result<Probed, String> {
    let out = dir.join("cg");
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let mut command = Command::new("valgrind");
    command.args([
        "--tool=callgrind",
        "--collect-atstart=no",
        "--dump-instr=no",
    ]);
    // Collection toggled by a pattern (callgrind did not toggle on the
    // exact names, 3.19), profiles written after each exact name.
    command.arg("--toggle-collect=*chunk_costs::step_*");
    for step in STEPS {
        command.arg(format!("--dump-after={STEP_PATH}{step}"));
    }
    command
        .arg(format!(
            "--callgrind-out-file={}",
            out.join("cg.out").display()
        ))
        .arg(&exe)
        .args(["kernel", "hpar-probe"])
        .arg(file)
        .arg(k.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let output = command.output().map_err(|e| format!("valgrind: {e}"))?;
    if !output.status.success() {
        let tail = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = tail.lines().rev().take(5).collect();
        return Err(format!("the probe failed: {}", tail.join(" / ")));
    }
    let profiles = profiles_in(&out)?;
    let chunks = chunks_of(&profiles)?;
    let fates: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    if fates.len() != chunks.len() {
        return Err(format!(
            "{} chunks probed, {} profiled",
            fates.len(),
            chunks.len()
        ));
    }
    Ok(Probed { chunks, fates })
}

/// What the probe of one document cut for one thread count gave.
struct Probed {
    /// Each chunk's steps, in instructions.
    chunks: Vec<Steps>,
    /// Each chunk's fate: `adopted`, or why it would be rebuilt.
    fates: Vec<String>,
}

impl Probed {
    /// The rebuilt chunks by reason, most first: `OpenElements 5, Mode 1`.
    fn rebuilt(&self) -> String {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for fate in self.fates.iter().filter(|f| *f != "adopted") {
            match counts.iter_mut().find(|(why, _)| why == fate) {
                Some((_, n)) => *n += 1,
                None => counts.push((fate, 1)),
            }
        }
        counts.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let counts: Vec<String> = counts.iter().map(|(why, n)| format!("{why} {n}")).collect();
        match counts.is_empty() {
            true => "—".to_string(),
            false => counts.join(", "),
        }
    }
}

/// The step and instruction count of each profile `cg.out.N` in `dir`,
/// in the order callgrind wrote them.
fn profiles_in(dir: &Path) -> Result<Vec<(String, u64)>, String> {
    let mut files: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let n = path.extension()?.to_str()?.parse().ok()?;
            Some((n, path))
        })
        .collect();
    files.sort();
    let mut profiles = Vec::with_capacity(files.len());
    for (_, path) in files {
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let trigger = text
            .lines()
            .find_map(|l| l.strip_prefix("desc: Trigger: --dump-after="))
            .ok_or_else(|| format!("{}: no --dump-after trigger", path.display()))?;
        let step = trigger.rsplit("::").next().unwrap_or(trigger).to_string();
        let count = text
            .lines()
            .find_map(|l| {
                l.strip_prefix("summary: ")
                    .or_else(|| l.strip_prefix("totals: "))
            })
            .and_then(|n| n.split_whitespace().next()?.parse().ok())
            .ok_or_else(|| format!("{}: no instruction count", path.display()))?;
        profiles.push((step, count));
    }
    Ok(profiles)
}

/// Groups the profiles into chunks (each begun by a `step_prefix`).
fn chunks_of(profiles: &[(String, u64)]) -> Result<Vec<Steps>, String> {
    let mut chunks: Vec<Steps> = Vec::new();
    for (step, count) in profiles {
        let count = *count as f64;
        if step == "step_prefix" {
            chunks.push(Steps {
                prefix: count,
                rest: 0.0,
                chunk_scan: 0.0,
                build: 0.0,
                validate: 0.0,
                adopt: None,
            });
            continue;
        }
        let chunk = chunks
            .last_mut()
            .ok_or_else(|| format!("{step} before any step_prefix"))?;
        match step.as_str() {
            "step_rest" => chunk.rest = count,
            "step_chunk_scan" => chunk.chunk_scan = count,
            // The worker's guess is part of its build in the chained code
            // (its own chunk's scan is `chunk_scan`): the model leaves the
            // probe's scan to the input's end out, as the timed model does.
            "step_guess" => {}
            "step_build" => chunk.build = count,
            "step_validate" => chunk.validate = count,
            "step_adopt" => chunk.adopt = Some(count),
            other => return Err(format!("a profile of an unknown step: {other}")),
        }
    }
    Ok(chunks)
}

/// The hidden kernel: probes each chunk of `file` cut for `k` threads, on
/// a pool of one thread (one untimed probe each; run under callgrind by
/// [`run`]).
pub fn run_probe(file: &str, k: &str) -> ExitCode {
    let (Ok(doc), Ok(k)) = (std::fs::read_to_string(file), k.parse::<usize>()) else {
        eprintln!("kernel hpar-probe: give a UTF-8 file and a thread count");
        return ExitCode::from(2);
    };
    let options = ParseOptions::default();
    let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(1).build() else {
        eprintln!("kernel hpar-probe: no thread pool");
        return ExitCode::FAILURE;
    };
    pool.install(|| {
        for (cut, end) in chunks_for(&doc, k) {
            // One line per probed chunk, in input order: `adopted`, or
            // why its tree would be rebuilt.
            match probe_chunk_costs(&doc, cut, end, &options).map(|c| c.rejection) {
                Some(None) => println!("adopted"),
                Some(Some(why)) => println!("{why:?}"),
                None => {}
            }
        }
    });
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(step: &str, count: u64) -> (String, u64) {
        (step.to_string(), count)
    }

    #[test]
    fn profiles_are_grouped_into_chunks_at_each_prefix() {
        let profiles = [
            // An adopted chunk: every step.
            profile("step_prefix", 100),
            profile("step_guess", 7),
            profile("step_chunk_scan", 5),
            profile("step_build", 80),
            profile("step_validate", 1),
            profile("step_adopt", 9),
            profile("step_rest", 90),
            // A chunk refused before building: no build, no validation.
            profile("step_prefix", 150),
            profile("step_guess", 3),
            profile("step_chunk_scan", 2),
            profile("step_rest", 40),
        ];
        let chunks = chunks_of(&profiles).unwrap();
        assert_eq!(chunks.len(), 2);
        let (a, b) = (&chunks[0], &chunks[1]);
        assert_eq!(
            (a.prefix, a.chunk_scan, a.build, a.validate, a.adopt, a.rest),
            (100.0, 5.0, 80.0, 1.0, Some(9.0), 90.0)
        );
        assert_eq!(
            (b.prefix, b.chunk_scan, b.build, b.validate, b.adopt, b.rest),
            (150.0, 2.0, 0.0, 0.0, None, 40.0)
        );
    }

    #[test]
    fn profiles_out_of_order_or_unknown_are_errors() {
        assert!(chunks_of(&[profile("step_build", 1)]).is_err());
        let unknown = [profile("step_prefix", 1), profile("step_other", 1)];
        assert!(chunks_of(&unknown).is_err());
        assert!(chunks_of(&[]).unwrap().is_empty());
    }

    #[test]
    fn the_schedule_of_two_adopted_chunks() {
        let chunk = |prefix: f64, rest: f64, build: f64, adopt: Option<f64>| Steps {
            prefix,
            rest,
            chunk_scan: build / 10.0,
            build,
            validate: 0.0,
            adopt,
        };
        // Chunk 0 is the calling thread's 50 units; chunks 1 and 2 (30 and
        // 20 units) are built by workers, ready at 33 and 22, adopted at
        // 3 and 2 units each.
        let chunks = [
            chunk(50.0, 30.0, 30.0, Some(3.0)),
            chunk(80.0, 20.0, 20.0, Some(2.0)),
        ];
        let model = schedule(&chunks);
        assert_eq!((model.chunks, model.adopted), (2, 2));
        assert_eq!(model.sequential, 100.0);
        // max(50, 33) + 3, then max(53, 22) + 2.
        assert_eq!(model.parallel, 55.0);
        // A rejected chunk is parsed by the calling thread after its
        // predecessor: its own 20 units.
        let chunks = [
            chunk(50.0, 30.0, 30.0, Some(3.0)),
            chunk(80.0, 20.0, 20.0, None),
        ];
        assert_eq!(schedule(&chunks).parallel, 73.0);
    }

    #[test]
    fn rebuilt_chunks_are_counted_by_reason() {
        let probed = |fates: &[&str]| Probed {
            chunks: Vec::new(),
            fates: fates.iter().map(|f| f.to_string()).collect(),
        };
        assert_eq!(probed(&["adopted", "adopted"]).rebuilt(), "—");
        let fates = [
            "Mode",
            "adopted",
            "ReachedContext",
            "ReachedContext",
            "Tokenizer",
        ];
        assert_eq!(
            probed(&fates).rebuilt(),
            "ReachedContext 2, Mode 1, Tokenizer 1"
        );
    }
}
