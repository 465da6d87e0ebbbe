//! The driver of tree speculation (`tree_speculation.rs` has the guess
//! and the proof): where the input is cut, whether it is speculated at
//! all, the worker's job on rayon's pool, and the calling thread's side —
//! parse to the cut, settle the speculation there, parse on if it must.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError, sync_channel};
use std::time::{Duration, Instant};

use spinneret_encoding::Determination;

use super::feed::drive_speculative;
use super::tree_speculation::{self, Guess, TreeRejection, Unbuilt};
use super::{
    CUT_WINDOW, ParallelOptions, SpeculationStats, after_script_end, driven_core, smart_cut,
    speculate, starts, starts_from,
};
use crate::dom::{Document, DomSink, estimated_tags};
use crate::tokenizer::{Core, Step, TextMode};
use crate::tree_builder::{
    ParseOptions, Stopped, TreeBuilder, after_token, drive, finish, parse_watching, process_eof,
    process_token,
};

/// How far into the input (percent) tree speculation cuts, unless told:
/// past halfway, since the worker does more than the calling thread per
/// byte — it starts later (a pool thread woken), scans its chunk's tags
/// for its guess (a fifth of a parse's time per byte on markup dense in
/// tags; a third before its fast paths of 2026-12-04), grows its own
/// arena — and the calling thread then waits for it. Measured on the 16 MB well-formed document
/// (`hpar_bench::well_formed_document`, 2026-12-02, `TreeTimeline`): at a
/// cut halfway the worker's tree was ready 1–8 ms after the calling
/// thread reached the cut; at 56 % the calling thread came 4–10 ms after
/// the tree (on the 4 MB one the worker, woken late, still came last).
const TREE_CUT_PERCENT: usize = 55;

/// Where the chunk whose tree a worker builds begins: the last explicit
/// cut, else a smart cut halfway; `None` when that is no position inside
/// the input.
pub(super) fn tree_cut(input: &str, parallel: &ParallelOptions) -> Option<usize> {
    let cut = match &parallel.cuts {
        Some(cuts) => starts(input, parallel)
            .last()
            .copied()
            .filter(|_| !cuts.is_empty())?,
        None => {
            // Just after a script, which a `<div` in its text cannot be
            // (pages of megabytes are mostly scripts), however far.
            if estimated_tags(input) < parallel.tree_speculation_from {
                return None;
            }
            let at = input.len() / 100 * TREE_CUT_PERCENT;
            let reach = CUT_WINDOW.max(input.len() / 4);
            after_script_end(input, at, reach).unwrap_or_else(|| smart_cut(input, at, reach))
        }
    };
    (cut > 0 && cut < input.len()).then_some(cut)
}

/// Where the chunks whose trees workers build begin: every explicit cut,
/// else [`tree_cut`] where the parse has one worker, and one cut per
/// worker where it has more, the chunks sized by [`chunk_shares`] (each
/// cut just after a script, else before a tag, as [`tree_cut`] places its
/// one). Empty when the input is not speculated.
pub(super) fn tree_cuts(input: &str, parallel: &ParallelOptions) -> Vec<usize> {
    let workers = parallel
        .threads
        .saturating_sub(1)
        .min(super::pool_threads());
    tree_cuts_for(input, parallel, workers)
}

/// [`tree_cuts`] for a parse with `workers` workers.
pub(super) fn tree_cuts_for(input: &str, parallel: &ParallelOptions, workers: usize) -> Vec<usize> {
    if parallel.cuts.is_some() {
        let starts = starts(input, parallel);
        return starts.into_iter().filter(|&c| c > 0).collect();
    }
    if workers <= 1 {
        return tree_cut(input, parallel).into_iter().collect();
    }
    if estimated_tags(input) < parallel.tree_speculation_from {
        return Vec::new();
    }
    let parts = workers + 1;
    let reach = CUT_WINDOW.max(input.len() / parts / 4);
    let mut cuts: Vec<usize> = Vec::with_capacity(workers);
    let mut share = 0.0;
    for chunk in &chunk_shares(workers)[..workers] {
        share += chunk;
        let at = (input.len() as f64 * share) as usize;
        let at = at.max(cuts.last().map_or(0, |&c| c + 1));
        if at >= input.len() {
            break;
        }
        let cut = after_script_end(input, at, reach).unwrap_or_else(|| smart_cut(input, at, reach));
        if cut > cuts.last().copied().unwrap_or(0) && cut < input.len() {
            cuts.push(cut);
        }
    }
    cuts
}

/// How far the calling thread parses towards the cut between two looks
/// at whether the worker gave up (a millisecond or two of parsing).
const POLL_EVERY: usize = 1 << 18;

/// What a chained worker's scan of its chunk's tags (for its guess) costs
/// before its tree builds, and what the chunk's adoption costs the calling
/// thread after, each per unit of the chunk's build. Measured on the 16 MB
/// well-formed document cut for 8 threads (2026-12-04, release,
/// `probe_chunk_costs` on this 2-core machine): a 2 MB chunk scanned in
/// 2.5 ms, built in 13–15 ms, adopted in 4.7–7.7 ms.
const SCAN_PER_BUILD: f64 = 0.2;
const ADOPT_PER_BUILD: f64 = 0.3;

/// The shares of the input (summing to 1, in input order) of the calling
/// thread's chunk and of `workers` chained workers' chunks, sized so that
/// each worker's tree is ready as the calling thread comes to settle it.
/// With every guess holding, the calling thread settles its own chunk at
/// `F0 = b0` (in units of build time), and worker `j`'s at `Fj = max(F(j-1),
/// (1 + s) bj) + a bj` (`s`, `a`: [`SCAN_PER_BUILD`], [`ADOPT_PER_BUILD`]);
/// `(1 + s) bj = F(j-1)` wastes neither the calling thread's time nor the
/// worker's, so each chunk is `1 + a / (1 + s)` times the one before (the
/// first worker's `1 / (1 + s)` times the calling thread's: with one
/// worker, 55 % of the input for the calling thread, the cut
/// [`TREE_CUT_PERCENT`] places from timelines). Equal chunks would leave
/// the later workers idle while the adoptions before theirs run one after
/// another: in `spinneret-bench hpar-model`'s terms, a
/// schedule of `F7 = 0.41` of the sequential parse at 8 threads, against
/// `0.35` for these.
fn chunk_shares(workers: usize) -> Vec<f64> {
    let mut sizes = Vec::with_capacity(workers + 1);
    sizes.push(1.0);
    let mut settled = 1.0;
    for _ in 0..workers {
        let size = settled / (1.0 + SCAN_PER_BUILD);
        sizes.push(size);
        settled += ADOPT_PER_BUILD * size;
    }
    let total: f64 = sizes.iter().sum();
    sizes.iter().map(|size| size / total).collect()
}

/// Parses `input` with the tree of `input[cut..]` built by a worker from a
/// guessed context (`parallel/tree_speculation.rs`): the calling thread
/// parses up to the cut, then adopts the worker's tree if the guess
/// agrees with the true state there, else parses on, with pipelined
/// workers as [`parse_document_parallel`] has them. With `watch`, the
/// input was decoded from those bytes, and a `<meta>` that changes the
/// encoding makes it return `None` (as `parse_watching` does). With
/// `source`, `input` is its text, shared by the documents rather than
/// copied.
pub(super) fn parse_speculating_tree(
    input: &str,
    options: &ParseOptions,
    parallel: &ParallelOptions,
    cut: usize,
    watch: Option<(&[u8], bool, &mut Determination)>,
    source: Option<Arc<String>>,
) -> (Option<Document>, SpeculationStats) {
    let began = Instant::now();
    let flags = Arc::new(WorkerFlags::default());
    let (source_tx, source_rx) = sync_channel::<Arc<String>>(1);
    let (guess_tx, guess_rx) = sync_channel::<Result<Guessed, TreeRejection>>(1);
    let (tree_tx, tree_rx) = sync_channel::<Result<(Document, Duration), Unbuilt>>(1);
    let watch_meta = watch
        .as_ref()
        .is_some_and(|(_, _, det)| det.confidence == spinneret_encoding::Confidence::Tentative);
    let mut side = TreeSide {
        cut,
        flags: Arc::clone(&flags),
        guess: guess_rx,
        tree: tree_rx,
        settled: false,
        early_guess: None,
        early_tree: None,
        stats: SpeculationStats::sequential(input.len()),
        began,
        parallel,
        options,
    };
    side.stats.chunks = 1;
    side.stats.bytes_tokenized = 0;
    side.stats.tree.cut = cut;
    // The worker is a job of its own on rayon's current pool, owning what
    // it reads (the shared input, the flags): the calling thread never
    // waits for it to finish. Where its tree is not wanted it stops at its
    // next poll — within one token, or a few thousand tags of its scan —
    // after this call may have returned. It is spawned before the input is
    // copied for the documents to share, so that its pool thread wakes up
    // (up to milliseconds on this machine) while the copy is made.
    {
        let (flags, options) = (Arc::clone(&flags), options.clone());
        rayon::spawn(move || {
            let worker_began = began.elapsed();
            flags.started.store(true, Ordering::Release);
            let Ok(source) = source_rx.recv() else {
                flags.done.store(true, Ordering::Release);
                return;
            };
            if !flags.stop.load(Ordering::Relaxed) {
                let input = source.as_str();
                let stop = &flags.stop;
                match tree_speculation::prepare(input, &source, cut, &options, watch_meta, stop) {
                    Err(Unbuilt::Rejected(why)) => drop(guess_tx.send(Err(why))),
                    Err(Unbuilt::Stopped) => {}
                    Ok((prepared, guess)) => {
                        let guessed = Guessed {
                            guess,
                            worker_began,
                            at: began.elapsed(),
                        };
                        if guess_tx.send(Ok(guessed)).is_ok() {
                            let built = tree_speculation::run(prepared, input, stop);
                            let _ = tree_tx.send(built.map(|doc| (doc, began.elapsed())));
                        }
                    }
                }
            }
            flags.done.store(true, Ordering::Release);
        });
    }
    // (`input` itself, where the caller gave it away.)
    let source = source.unwrap_or_else(|| Arc::new(input.to_owned()));
    let _ = source_tx.send(Arc::clone(&source));
    let doc = {
        let source = &source;
        let mut run = |builder: &mut TreeBuilder<DomSink>, core: &mut Core, text: &str| {
            side.drive(builder, core, text)
        };
        let doc = match watch {
            Some((bytes, lent, det)) => parse_watching(
                bytes,
                input,
                Arc::clone(source),
                lent,
                det,
                options,
                &mut run,
            ),
            None => {
                let mut sink = DomSink::sharing(Arc::clone(source), false);
                sink.doc.reserve_for_input(input.len());
                let mut builder = TreeBuilder::new(sink, options.scripting, false);
                let mut core = driven_core(options);
                run(&mut builder, &mut core, input);
                Some(finish(builder, core))
            }
        };
        // The worker may still be at work (on a guess found wrong, or a
        // parse given up for another encoding): it stops at its next poll.
        flags.stop.store(true, Ordering::Relaxed);
        doc
    };
    #[cfg(debug_assertions)]
    if let Some(doc) = &doc
        && side.stats.tree.adopted
    {
        assert!(
            doc.dump() == crate::parse_document(input, options).dump(),
            "an adopted tree is the sequential one (cut at {cut})"
        );
    }
    (doc, side.stats)
}

/// Where [`run_main`] stopped.
pub(super) enum Ran {
    /// At or past the cut it was given.
    Cut,
    /// At the end of the input, its end of file processed.
    End,
    /// Just after a `<meta>` that declares an encoding, the builder
    /// watching for one.
    Meta,
}

/// Runs the calling thread's builder (as the sequential driver does)
/// until its tokenizer is at or past `until` (or, when `until` is the
/// input's length, to the end and its end of file), or to a watched
/// `<meta>`.
pub(super) fn run_main(
    builder: &mut TreeBuilder<DomSink>,
    core: &mut Core,
    input: &str,
    until: usize,
) -> Ran {
    while core.pos < until || until == input.len() {
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(builder, token, input, 0),
            Step::End => {
                process_eof(builder, input.len());
                return Ran::End;
            }
            Step::NeedMore => unreachable!("a whole input never needs more"),
        }
        if after_token(builder, core) {
            return Ran::Meta;
        }
    }
    Ran::Cut
}

/// What the tree-speculating worker and the calling thread share.
#[derive(Default)]
struct WorkerFlags {
    /// The worker has begun.
    started: AtomicBool,
    /// The calling thread no longer wants its tree.
    stop: AtomicBool,
    /// The worker has returned.
    done: AtomicBool,
}

/// The worker's guess, and when it had it.
struct Guessed {
    guess: Guess,
    worker_began: Duration,
    at: Duration,
}

/// The calling thread's side of tree speculation: it parses to the cut,
/// settles the speculation there, and parses on if it must — from where
/// it is, with pipelined workers, as soon as it sees on its way that the
/// worker gave up.
struct TreeSide<'a> {
    cut: usize,
    flags: Arc<WorkerFlags>,
    guess: Receiver<Result<Guessed, TreeRejection>>,
    tree: Receiver<Result<(Document, Duration), Unbuilt>>,
    /// Past the cut (or given up before it): the speculation is settled.
    settled: bool,
    /// What the worker sent before the calling thread came to the cut:
    /// its guess, and its tree.
    early_guess: Option<Guessed>,
    early_tree: Option<(Document, Duration)>,
    stats: SpeculationStats,
    /// When the parse began (for [`TreeTimeline`]).
    began: Instant,
    parallel: &'a ParallelOptions,
    options: &'a ParseOptions,
}

impl TreeSide<'_> {
    /// Runs `builder` over `input` as the sequential driver does (and
    /// stops where it does, to be called again after a `<meta>`), to the
    /// cut, where the worker's tree is adopted — the builder's document
    /// then is the whole one, and this returns [`Stopped::End`] — or not;
    /// then on, with pipelined workers.
    fn drive(
        &mut self,
        builder: &mut TreeBuilder<DomSink>,
        core: &mut Core,
        input: &str,
    ) -> Stopped {
        if !self.settled {
            // To the cut, a stretch at a time: a worker that gives up
            // before (no guess it can make, a build it refused) is seen
            // between stretches, and the rest parsed with pipelined
            // workers from there rather than by this thread alone.
            let mut given_up = None;
            while core.pos < self.cut {
                let from = core.pos;
                let until = self.cut.min(from.saturating_add(POLL_EVERY));
                let ran = run_main(builder, core, input, until);
                let to = match ran {
                    Ran::End => input.len(),
                    Ran::Cut | Ran::Meta => core.pos,
                };
                self.stats.bytes_tokenized += (to - from) as u64;
                match ran {
                    Ran::Meta => return Stopped::MetaEncoding,
                    Ran::End => {
                        // The input ended inside the token across the cut.
                        self.settled = true;
                        self.stats.tree.rejection = Some(TreeRejection::Tokenizer);
                        return Stopped::End;
                    }
                    Ran::Cut => {}
                }
                if core.pos < self.cut {
                    given_up = self.given_up();
                    if given_up.is_some() {
                        self.stats.tree.timeline.given_up = Some(self.began.elapsed());
                        break;
                    }
                }
            }
            self.settled = true;
            let settled = match given_up {
                Some(why) => Err(why),
                None => self.settle(builder, core, input),
            };
            match settled {
                Ok(()) => return Stopped::End,
                Err(why) => {
                    self.flags.stop.store(true, Ordering::Relaxed);
                    self.stats.tree.rejection = Some(why);
                }
            }
        }
        // The rest, as a parallel parse from here — unless the worker is
        // still at work on the pool: a job queued behind it would help only
        // once it stops, and the parse would wait for that at its end.
        let flags = &self.flags;
        let worker_busy =
            flags.started.load(Ordering::Acquire) && !flags.done.load(Ordering::Acquire);
        let starts = match worker_busy {
            true => Vec::new(),
            false => starts_from(input, core.pos, self.parallel),
        };
        if starts.is_empty() {
            let from = core.pos;
            let stopped = drive(builder, core, input, true);
            let to = match stopped {
                Stopped::End => input.len(),
                _ => core.pos,
            };
            self.stats.bytes_tokenized += (to - from) as u64;
            return stopped;
        }
        let (stopped, stats) = speculate(input, self.options, &starts, |feed| {
            drive_speculative(builder, core, input, feed)
        });
        self.stats.bytes_tokenized += stats.bytes_tokenized;
        self.stats.bytes_reused += stats.bytes_reused;
        self.stats.tokens_reused += stats.tokens_reused;
        self.stats.tokens_tokenized += stats.tokens_tokenized;
        self.stats.mispredictions += stats.mispredictions;
        self.stats.waits += stats.waits;
        self.stats.chunks += stats.chunks;
        stopped
    }

    /// Why the worker gave up, if it has, as far as it has told without
    /// waiting; what it sent that is not a refusal is kept for the cut.
    fn given_up(&mut self) -> Option<TreeRejection> {
        if self.early_guess.is_none() {
            match self.guess.try_recv() {
                Ok(Ok(guessed)) => self.early_guess = Some(guessed),
                Ok(Err(why)) => return Some(why),
                Err(TryRecvError::Empty) => return None,
                // Gone without a word: it will not build.
                Err(TryRecvError::Disconnected) => return Some(TreeRejection::NotStarted),
            }
        }
        if self.early_tree.is_some() {
            return None;
        }
        match self.tree.try_recv() {
            Ok(Ok(tree)) => {
                self.early_tree = Some(tree);
                None
            }
            Ok(Err(Unbuilt::Rejected(why))) => Some(why),
            Ok(Err(Unbuilt::Stopped)) | Err(TryRecvError::Disconnected) => {
                Some(TreeRejection::NotStarted)
            }
            Err(TryRecvError::Empty) => None,
        }
    }

    /// At the cut: adopts the worker's tree into `builder`'s document if
    /// the worker's guess agrees with the true state, else says why not.
    /// A wrong tokenizer state is seen without waiting for the worker.
    fn settle(
        &mut self,
        builder: &mut TreeBuilder<DomSink>,
        core: &Core,
        input: &str,
    ) -> Result<(), TreeRejection> {
        let timeline = &mut self.stats.tree.timeline;
        timeline.reached_cut = Some(self.began.elapsed());
        if core.pos != self.cut || core.boundary_mode() != TextMode::Data {
            return Err(TreeRejection::Tokenizer);
        }
        if !self.flags.started.load(Ordering::Acquire) {
            return Err(TreeRejection::NotStarted);
        }
        let guessed = match self.early_guess.take() {
            Some(guessed) => guessed,
            None => self
                .guess
                .recv()
                .unwrap_or(Err(TreeRejection::NotStarted))?,
        };
        timeline.worker_began = Some(guessed.worker_began);
        timeline.guessed = Some(guessed.at);
        let guess = guessed.guess;
        self.stats.tree.guessed_depth = guess.depth();
        let stand_ins = tree_speculation::adoptable(builder, core, self.cut, &guess)?;
        let sent = match self.early_tree.take() {
            Some(tree) => Ok(Ok(tree)),
            None => self.tree.recv(),
        };
        let built = match sent {
            Ok(Ok((built, at))) => {
                timeline.built = Some(at);
                timeline.received = Some(self.began.elapsed());
                built
            }
            Ok(Err(Unbuilt::Rejected(why))) => return Err(why),
            Ok(Err(Unbuilt::Stopped)) | Err(_) => return Err(TreeRejection::NotStarted),
        };
        builder
            .sink
            .doc
            .adopt_speculated(built, &stand_ins, guess.last_stand_in);
        timeline.adopted = Some(self.began.elapsed());
        self.stats.tree.adopted = true;
        self.stats.tree.bytes_adopted = (input.len() - self.cut) as u64;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{ADOPT_PER_BUILD, SCAN_PER_BUILD, chunk_shares};

    #[test]
    fn each_workers_tree_is_ready_as_its_chunk_is_settled() {
        for workers in [2, 3, 7, 15] {
            let shares = chunk_shares(workers);
            assert_eq!(shares.len(), workers + 1);
            assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            // The schedule of the doc: the calling thread settles chunk 0
            // at its own build, then each worker's chunk just as its tree
            // is ready.
            let mut settled = shares[0];
            for &share in &shares[1..] {
                let ready = (1.0 + SCAN_PER_BUILD) * share;
                assert!((ready - settled).abs() < 1e-9, "{workers} workers");
                settled = settled.max(ready) + ADOPT_PER_BUILD * share;
            }
            // Faster than equal chunks settled the same way.
            let equal = 1.0 / (workers + 1) as f64;
            let mut even = equal;
            for _ in 0..workers {
                even = even.max((1.0 + SCAN_PER_BUILD) * equal) + ADOPT_PER_BUILD * equal;
            }
            assert!(
                settled < even,
                "{workers} workers: {settled} against {even}"
            );
        }
    }
}
