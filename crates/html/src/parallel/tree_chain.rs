//! Tree speculation chained over several chunks: each chunk's tree built
//! by a worker of its own from a context guessed at its start, up to the
//! next chunk's start; each checked, in input order, against the true
//! state there — the calling thread's, or that of the chunk before once it
//! was adopted.
//!
//! # What runs where
//!
//! The input is cut at `k` places (`tree_side::tree_cuts`). Worker `j`
//! guesses the context at cut `j` and builds from there as
//! `tree_speculation.rs` does for one chunk — but stops at cut `j + 1`,
//! keeping its tree builder and tokenizer as they are there (the last
//! worker runs to the end of the input and its end of file). The calling
//! thread parses up to the first cut. Then, at each cut in turn, the
//! *truth* — the tree builder whose state is the true one there — is the
//! calling thread's own, or the stopped builder of the chunk before:
//!
//! - if chunk `j`'s guess agrees with the truth's state (the whole-state
//!   comparison of `tree_speculation::adoptable`, names compared as
//!   strings) and its worker built without reaching into its context,
//!   chunk `j` is adopted into the calling thread's document at once
//!   (`DomSink::adopt_part`): each of its stand-ins stands for a node of
//!   the truth's document, which is in the calling thread's (adopted
//!   before, and mapped to where it went). Its builder becomes the truth;
//! - if not, the calling thread parses on from the cut; where the truth
//!   was a chunk's builder, its whole state moves into the calling
//!   thread's (`TreeBuilder::take_over`: nodes mapped to where they went,
//!   names renumbered, fingerprints taken again) together with its
//!   tokenizer.
//!
//! So an adoption waits only for its own chunk's tree and the settling of
//! the chunk before, as `spinneret-bench hpar-model` schedules it. The
//! calling thread's side is a value (`Chain`) that `parse_watching` can
//! drive: it stops after a `<meta>` that declares an encoding while that
//! is tentative, and goes on where the encoding is kept (a worker that
//! meets such a `<meta>` refuses its chunk, which the calling thread then
//! parses and decides on).
//!
//! # Why the tree is the sequential one
//!
//! By induction over the cuts: *at each cut, the truth's state is the
//! sequential parser's there, with each node replaced by the node of the
//! calling thread's document it is or will be adopted as.* At the first
//! cut the truth is the calling thread, which parsed sequentially. If
//! chunk `j`'s guess agrees with the truth at cut `j`, the one-chunk
//! argument of `tree_speculation.rs` makes its builder's operations from
//! there the sequential ones, each stand-in in place of the true node —
//! so its state at cut `j + 1` is the sequential state there, each node
//! replaced. If not, the calling thread continues from the truth's state
//! (its own, or one moved into it node for node), which is the
//! sequential state by the induction hypothesis. Adopting a chunk gives
//! each stand-in's gains to its true node as in the one-chunk case; the
//! true nodes are in the document by then (adopted in input order). Debug
//! builds check every parse that adopted a chunk against a sequential
//! parse of the input.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, sync_channel};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::end_tag_scan::TagScan;
use super::tree_side::{Ran, run_main};
use super::tree_speculation::{self, Built, Guess, Prepared, TreeRejection, Unbuilt};
use super::{SpeculationStats, TreeSpeculationStats, driven_core};
use crate::dom::{Adopted, Document, DomSink, NodeId};
use crate::tokenizer::{Core, TextMode};
use crate::tree_builder::{ParseOptions, Stopped, TreeBuilder, finish, parse_watching};
use spinneret_encoding::Determination;

/// One worker's side: what it says, and the flags it shares.
struct Worker {
    cut: usize,
    flags: Arc<Flags>,
    guess: Receiver<Result<(Guess, Duration, Duration), TreeRejection>>,
    built: Receiver<Result<(Built, Duration), Unbuilt>>,
}

/// What a worker and the calling thread share.
#[derive(Default)]
struct Flags {
    started: AtomicBool,
    stop: AtomicBool,
}

/// A chunk found adoptable at its cut: its tree, and its stand-ins, each
/// with the truth's node it stands for.
struct Accepted {
    built: Built,
    pairs: Vec<(NodeId, NodeId)>,
    last_stand_in: u32,
}

/// An adopted chunk's builder, stopped at the next cut (the truth there),
/// and where its nodes went.
struct Part {
    prepared: Box<Prepared>,
    map: NodeMap,
}

impl Part {
    /// Adopts the document of the chunk `prepared` built into `main`'s:
    /// `stand_ins` pairs each of its stand-ins with the node of `main`'s
    /// document it stands for.
    fn adopt(
        mut prepared: Box<Prepared>,
        stand_ins: &[(NodeId, NodeId)],
        last_stand_in: u32,
        main: &mut TreeBuilder<DomSink>,
        source: &Arc<String>,
    ) -> Part {
        let placeholder = DomSink::sharing(Arc::clone(source), false);
        let dom = std::mem::replace(&mut prepared.builder.sink.dom, placeholder);
        let adopted = main.sink.adopt_part(dom, stand_ins, last_stand_in);
        let mut targets = vec![NodeId::ROOT; last_stand_in as usize + 1];
        for &(stand_in, target) in stand_ins {
            targets[stand_in.index()] = target;
        }
        let map = NodeMap { targets, adopted };
        Part { prepared, map }
    }
}

/// Where an adopted part's nodes went.
struct NodeMap {
    /// Per stand-in (and the root, 0), the node it stands for.
    targets: Vec<NodeId>,
    adopted: Adopted,
}

impl NodeMap {
    fn get(&self, id: NodeId) -> NodeId {
        match self.targets.get(id.index()) {
            Some(&target) => target,
            None => self.adopted.id(id).expect("a node of the part"),
        }
    }
}

/// Parses `input` with the trees of the chunks from each of `cuts` (at
/// least one, increasing, inside the input) built by workers from guessed
/// contexts, chained (module doc). With `source`, `input` is its text.
pub(super) fn parse_chaining_trees(
    input: &str,
    options: &ParseOptions,
    cuts: &[usize],
    source: Option<Arc<String>>,
) -> (Document, SpeculationStats) {
    let source = source.unwrap_or_else(|| Arc::new(input.to_owned()));
    let mut chain = Chain::start(input, options, cuts, &source, false);
    let sink = DomSink::sharing(Arc::clone(&source), false);
    let mut main = TreeBuilder::new(sink, options.scripting, false);
    let mut core = driven_core(options);
    while !matches!(chain.drive(&mut main, &mut core, input), Stopped::End) {}
    let doc = finish(main, core);
    let stats = chain.finish();
    check_adopted(&doc, input, options, &stats);
    (doc, stats)
}

/// [`parse_chaining_trees`] of `text`, decoded from `bytes` (`lent`:
/// borrowed from them) with `det`'s encoding, as `parse_watching` runs a
/// parse: `None` where a `<meta>` changes the encoding. While the encoding
/// is tentative, a chunk whose worker meets a `<meta>` that declares one
/// is not adopted (the calling thread parses it, and decides).
pub(super) fn parse_chaining_trees_watching(
    (bytes, lent, det): (&[u8], bool, &mut Determination),
    text: &str,
    source: Option<Arc<String>>,
    options: &ParseOptions,
    cuts: &[usize],
) -> Option<Document> {
    let source = source.unwrap_or_else(|| Arc::new(text.to_owned()));
    let tentative = det.confidence == spinneret_encoding::Confidence::Tentative;
    let mut chain = Chain::start(text, options, cuts, &source, tentative);
    let mut run = |builder: &mut TreeBuilder<DomSink>, core: &mut Core, text: &str| {
        chain.drive(builder, core, text)
    };
    let doc = parse_watching(
        bytes,
        text,
        Arc::clone(&source),
        lent,
        det,
        options,
        &mut run,
    );
    let stats = chain.finish();
    if let Some(doc) = &doc {
        check_adopted(doc, text, options, &stats);
    }
    doc
}

/// Debug builds: a parse that adopted a chunk gave the sequential tree.
fn check_adopted(doc: &Document, input: &str, options: &ParseOptions, stats: &SpeculationStats) {
    #[cfg(debug_assertions)]
    if stats.trees_adopted() > 0 {
        let cuts: Vec<usize> = std::iter::once(&stats.tree)
            .chain(&stats.tree_chain)
            .map(|c| c.cut)
            .collect();
        assert!(
            doc.dump() == crate::parse_document(input, options).dump(),
            "a tree adopted chunk by chunk is the sequential one (cuts at {cuts:?})"
        );
    }
    #[cfg(not(debug_assertions))]
    let _ = (doc, input, options, stats);
}

/// The calling thread's side of a chained speculation, resumable after a
/// `<meta>` stopped it (module doc).
struct Chain<'a> {
    input: &'a str,
    source: Arc<String>,
    workers: Vec<Worker>,
    began: Instant,
    /// The next worker whose chunk is settled.
    next: usize,
    /// The adopted chunk whose builder is the truth at the next cut
    /// (`None`: the calling thread's).
    truth: Option<Part>,
    /// The input has ended (an adopted chunk's tree ran to its end).
    ended: bool,
    chunks: Vec<TreeSpeculationStats>,
    stats: SpeculationStats,
}

impl<'a> Chain<'a> {
    /// Starts a worker per cut (the last chunk's first: the others
    /// compose their guesses with its scan).
    fn start(
        input: &'a str,
        options: &ParseOptions,
        cuts: &[usize],
        source: &Arc<String>,
        watch_meta: bool,
    ) -> Chain<'a> {
        let began = Instant::now();
        let shared_cuts: Arc<[usize]> = cuts.into();
        let scans: Arc<[OnceLock<Vec<String>>]> = cuts.iter().map(|_| OnceLock::new()).collect();
        let mut workers: Vec<Worker> = (0..cuts.len())
            .rev()
            .map(|j| spawn_worker(source, &shared_cuts, &scans, j, options, watch_meta, began))
            .collect();
        workers.reverse();
        let mut stats = SpeculationStats::sequential(input.len());
        stats.bytes_tokenized = 0;
        stats.chunks = cuts.len();
        Chain {
            input,
            source: Arc::clone(source),
            workers,
            began,
            next: 0,
            truth: None,
            ended: false,
            chunks: Vec::with_capacity(cuts.len()),
            stats,
        }
    }

    /// Runs the parse on from where it stopped, with `main` (and `core`)
    /// the calling thread's builder: chunk after chunk, to the end
    /// ([`Stopped::End`]) or to a `<meta>` that declares an encoding while
    /// `main` watches for one ([`Stopped::MetaEncoding`]; call again to go
    /// on).
    fn drive(&mut self, main: &mut TreeBuilder<DomSink>, core: &mut Core, input: &str) -> Stopped {
        debug_assert!(std::ptr::eq(input, self.input));
        if self.next == 0 && core.pos == 0 {
            // The adopted arenas join this one: room for all of them.
            main.sink.doc.reserve_for_input(input.len());
        }
        while !self.ended && self.next < self.workers.len() {
            let worker = &self.workers[self.next];
            if self.truth.is_none() {
                let from = core.pos;
                let ran = run_main(main, core, input, worker.cut);
                self.stats.bytes_tokenized += (core.pos - from) as u64;
                match ran {
                    Ran::Meta => return Stopped::MetaEncoding,
                    Ran::End => {
                        // The input ended inside the token across the cut.
                        let chunk = TreeSpeculationStats {
                            cut: worker.cut,
                            rejection: Some(TreeRejection::Tokenizer),
                            ..TreeSpeculationStats::default()
                        };
                        self.chunks.push(chunk);
                        self.ended = true;
                        return Stopped::End;
                    }
                    Ran::Cut => {}
                }
            }
            self.settle_next(main, core);
        }
        if !self.ended {
            // The rest after the last cut, on the calling thread.
            debug_assert!(self.truth.is_none(), "the last chunk runs to the end");
            let from = core.pos;
            let ran = run_main(main, core, input, input.len());
            self.stats.bytes_tokenized += (core.pos - from) as u64;
            if let Ran::Meta = ran {
                return Stopped::MetaEncoding;
            }
            self.ended = true;
        }
        Stopped::End
    }

    /// Settles the next worker's chunk, the truth being at its cut.
    fn settle_next(&mut self, main: &mut TreeBuilder<DomSink>, core: &mut Core) {
        let worker = &self.workers[self.next];
        self.next += 1;
        let (input, began) = (self.input, self.began);
        let mut chunk = TreeSpeculationStats {
            cut: worker.cut,
            ..TreeSpeculationStats::default()
        };
        chunk.timeline.reached_cut = Some(began.elapsed());
        let settled = match &self.truth {
            None => settle(worker, main, core, &mut chunk, began),
            Some(part) => {
                let p = &part.prepared;
                settle(worker, &p.builder, &p.core, &mut chunk, began)
            }
        };
        match settled {
            Ok(Accepted {
                built,
                pairs,
                last_stand_in,
            }) => {
                let stand_ins: Vec<(NodeId, NodeId)> = match &self.truth {
                    None => pairs,
                    Some(part) => pairs
                        .into_iter()
                        .map(|(stand_in, node)| (stand_in, part.map.get(node)))
                        .collect(),
                };
                chunk.adopted = true;
                match built {
                    Built::ToEnd(doc) => {
                        main.sink
                            .doc
                            .adopt_speculated(*doc, &stand_ins, last_stand_in);
                        chunk.bytes_adopted = (input.len() - worker.cut) as u64;
                        self.truth = None;
                        self.ended = true;
                    }
                    Built::AtCut(prepared) => {
                        chunk.bytes_adopted = (prepared.core.pos - worker.cut) as u64;
                        // Adopted at once (its builder stays, the truth at
                        // the next cut), so that the next chunk's
                        // adoption waits for no other.
                        let part =
                            Part::adopt(prepared, &stand_ins, last_stand_in, main, &self.source);
                        self.truth = Some(part);
                    }
                }
                chunk.timeline.adopted = Some(began.elapsed());
            }
            Err(why) => {
                worker.flags.stop.store(true, Ordering::Relaxed);
                chunk.rejection = Some(why);
                if let Some(Part { prepared, map }) = self.truth.take() {
                    let Prepared { builder, core: at } = *prepared;
                    main.take_over(builder, |id| map.get(id));
                    *core = at;
                }
            }
        }
        self.chunks.push(chunk);
    }

    /// Stops every worker still at work; what became of the speculation.
    fn finish(self) -> SpeculationStats {
        for worker in &self.workers {
            worker.flags.stop.store(true, Ordering::Relaxed);
        }
        let mut stats = self.stats;
        let mut chunks = self.chunks.into_iter();
        stats.tree = chunks.next().unwrap_or_default();
        stats.tree_chain = chunks.collect();
        stats
    }
}

/// Starts the worker of chunk `j` (from `cuts[j]` to the next cut, or the
/// end) on rayon's current pool.
fn spawn_worker(
    source: &Arc<String>,
    cuts: &Arc<[usize]>,
    scans: &Arc<[OnceLock<Vec<String>>]>,
    j: usize,
    options: &ParseOptions,
    watch_meta: bool,
    began: Instant,
) -> Worker {
    let flags = Arc::new(Flags::default());
    let (guess_tx, guess) = sync_channel(1);
    let (built_tx, built) = sync_channel(1);
    let (source, options, shared) = (Arc::clone(source), options.clone(), Arc::clone(&flags));
    let (cuts, scans) = (Arc::clone(cuts), Arc::clone(scans));
    let cut = cuts[j];
    rayon::spawn(move || {
        let worker_began = began.elapsed();
        shared.started.store(true, Ordering::Release);
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        let input = source.as_str();
        let stop = &shared.stop;
        let Some(unmatched) = scan_from(input, &cuts, &scans, j, options.scripting, stop) else {
            return;
        };
        let until = cuts.get(j + 1).copied().unwrap_or(input.len());
        let chunk = cut..until;
        match tree_speculation::prepare_guessed(
            input, &source, chunk, &options, watch_meta, unmatched,
        ) {
            Err(Unbuilt::Rejected(why)) => drop(guess_tx.send(Err(why))),
            Err(Unbuilt::Stopped) => {}
            Ok((prepared, guess)) => {
                if guess_tx
                    .send(Ok((guess, worker_began, began.elapsed())))
                    .is_ok()
                {
                    let built = tree_speculation::run_to(prepared, input, until, stop);
                    let _ = built_tx.send(built.map(|b| (b, began.elapsed())));
                }
            }
        }
    });
    Worker {
        cut,
        flags,
        guess,
        built,
    }
}

/// The end tags after `cuts[j]` that close no element opened after it,
/// for chunk `j`'s guess, without a scan to the end of the input: the
/// worker scans its own chunk and composes that with what the next
/// chunk's worker found from its cut on (`scans`, where each worker puts
/// its answer); where that is not there yet when it gets to the next cut,
/// it scans on through the next chunk and asks the one after, and so on —
/// never waiting, so that workers queued behind busy ones cannot hold it
/// up. Puts its answer in `scans[j]`; `None` if told to stop.
fn scan_from(
    input: &str,
    cuts: &[usize],
    scans: &[OnceLock<Vec<String>>],
    j: usize,
    scripting: bool,
    stop: &AtomicBool,
) -> Option<Vec<String>> {
    let stopped = || stop.load(Ordering::Relaxed);
    let mut scan = TagScan::new(input, cuts[j], scripting);
    let mut next = j + 1;
    let unmatched = loop {
        let Some(&to) = cuts.get(next) else {
            scan.run_to(input.len(), stopped)?;
            break scan.into_unmatched();
        };
        scan.run_to(to, stopped)?;
        if scan.position() == to
            && let Some(rest) = scans[next].get()
        {
            break scan.compose(rest);
        }
        next += 1;
    };
    let _ = scans[j].set(unmatched.clone());
    Some(unmatched)
}

/// At a worker's cut: its tree and the stand-in pairs (each with the
/// truth's node) if its guess agrees with the truth's state and it built
/// without reaching into its context, else why not. A wrong tokenizer
/// state, and a worker not yet started, are seen without waiting.
fn settle<S: crate::TreeSink<Handle = NodeId>>(
    worker: &Worker,
    builder: &TreeBuilder<S>,
    core: &Core,
    chunk: &mut TreeSpeculationStats,
    began: Instant,
) -> Result<Accepted, TreeRejection> {
    if core.pos != worker.cut || core.boundary_mode() != TextMode::Data {
        return Err(TreeRejection::Tokenizer);
    }
    if !worker.flags.started.load(Ordering::Acquire) {
        return Err(TreeRejection::NotStarted);
    }
    let (guess, worker_began, guessed) = worker
        .guess
        .recv()
        .unwrap_or(Err(TreeRejection::NotStarted))?;
    chunk.timeline.worker_began = Some(worker_began);
    chunk.timeline.guessed = Some(guessed);
    chunk.guessed_depth = guess.depth();
    let pairs = tree_speculation::adoptable(builder, core, worker.cut, &guess)?;
    match worker.built.recv() {
        Ok(Ok((built, at))) => {
            chunk.timeline.built = Some(at);
            chunk.timeline.received = Some(began.elapsed());
            Ok(Accepted {
                built,
                pairs,
                last_stand_in: guess.last_stand_in,
            })
        }
        Ok(Err(Unbuilt::Rejected(why))) => Err(why),
        Ok(Err(Unbuilt::Stopped)) | Err(_) => Err(TreeRejection::NotStarted),
    }
}
