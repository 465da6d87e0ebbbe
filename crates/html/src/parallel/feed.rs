//! The calling thread's side: the workers' recorded steps, checked against
//! the true tokenizer state at each boundary, and the driver that feeds the
//! tree builder from them or from its own tokenizer.
//!
//! Invariant: the entries of all streams, taken in stream order, begin at
//! strictly increasing offsets (a worker records steps that begin before
//! the next chunk's start; the next worker begins there), so one cursor
//! that only moves forward finds the entry, if any, that begins at the true
//! position.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender, TryRecvError};

use super::NOT_STARTED;
use super::record::Block;
use crate::tokenizer::{Core, Step};
use crate::tree_builder::{
    Stopped, TreeBuilder, TreeSink, after_token, process_eof, process_token,
};

/// What became of a parallel parse's speculation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpeculationStats {
    /// Chunks tokenized speculatively (0: the parse ran sequentially).
    pub chunks: usize,
    /// The input's length in bytes.
    pub bytes: usize,
    /// Tokens the tree builder took from workers' recordings.
    pub tokens_reused: u64,
    /// Input bytes those tokens' steps covered.
    pub bytes_reused: u64,
    /// Tokens the calling thread's tokenizer produced itself.
    pub tokens_tokenized: u64,
    /// Input bytes its steps covered.
    pub bytes_tokenized: u64,
    /// Boundaries where a recorded step began at the true position but in
    /// a state that disagreed with the true one on something it reads.
    pub mispredictions: u64,
    /// Times the calling thread waited for a worker that was ahead of it.
    pub waits: u64,
    /// What became of the chunk whose tree a worker built, with
    /// [`ParallelOptions::tree_speculation`](super::ParallelOptions::tree_speculation).
    pub tree: super::TreeSpeculationStats,
    /// With speculation chained over several chunks
    /// (`parallel/tree_chain.rs`), what became of each chunk after the
    /// first (which is [`SpeculationStats::tree`]), in input order.
    pub tree_chain: Vec<super::TreeSpeculationStats>,
}

impl SpeculationStats {
    /// The figures of a sequential parse of `bytes` bytes.
    pub(crate) fn sequential(bytes: usize) -> SpeculationStats {
        SpeculationStats {
            bytes,
            bytes_tokenized: bytes as u64,
            ..SpeculationStats::default()
        }
    }

    /// Input bytes whose tree was adopted, over every speculated chunk.
    pub fn bytes_adopted(&self) -> u64 {
        let chain = self.tree_chain.iter().map(|t| t.bytes_adopted);
        self.tree.bytes_adopted + chain.sum::<u64>()
    }

    /// The speculated chunks whose tree was adopted.
    pub fn trees_adopted(&self) -> usize {
        let chain = self.tree_chain.iter().filter(|t| t.adopted).count();
        usize::from(self.tree.adopted) + chain
    }

    /// The share of the input whose tokens came from workers.
    pub fn reused_share(&self) -> f64 {
        if self.bytes == 0 {
            return 0.0;
        }
        self.bytes_reused as f64 / self.bytes as f64
    }
}

/// A worker's blocks of recorded steps, and the way back for blocks read
/// (the worker refills them: no allocation, no page faults per block).
pub(crate) struct Stream {
    pub(crate) blocks: Receiver<Block>,
    pub(crate) spent: Sender<Block>,
}

/// The workers' streams of recorded steps, read in input order.
pub(crate) struct Feed<'p> {
    streams: Vec<Stream>,
    /// The stream being read.
    stream: usize,
    block: Option<Block>,
    /// The next entry of `block` not yet passed.
    next: usize,
    /// Where the calling thread is, for workers to stop once passed.
    progress: &'p AtomicUsize,
    /// Where each stream's worker began its latest speculation, or
    /// [`NOT_STARTED`]: a worker that has not begun may not begin before
    /// this thread is done (its pool busy), so it is never waited for.
    started: &'p [AtomicUsize],
    /// Where the next step of the current stream's worker begins, as far
    /// as the blocks received tell (its chunk's start before the first).
    worker_at: usize,
    /// Where each stream's chunk begins.
    starts: Vec<usize>,
    stats: SpeculationStats,
    /// Whether this thread has met the current stream's worker where its
    /// next step begins (its chunk's start, first), and so has let it have
    /// this core once if it had not begun.
    yielded: bool,
}

impl<'p> Feed<'p> {
    pub(crate) fn new(
        streams: Vec<Stream>,
        starts: Vec<usize>,
        progress: &'p AtomicUsize,
        started: &'p [AtomicUsize],
        bytes: usize,
    ) -> Feed<'p> {
        let chunks = streams.len();
        Feed {
            streams,
            stream: 0,
            block: None,
            next: 0,
            progress,
            started,
            worker_at: starts.first().copied().unwrap_or(0),
            starts,
            yielded: false,
            stats: SpeculationStats {
                chunks,
                bytes,
                ..SpeculationStats::default()
            },
        }
    }

    /// Hangs up on the workers and returns the figures.
    pub(crate) fn finish(self) -> SpeculationStats {
        self.progress.store(usize::MAX, Ordering::Relaxed);
        self.stats
    }

    /// Whether a recorded step beginning at `pos` has arrived; if so, it is
    /// the current block's entry `next`. Waits for the worker when its next
    /// step begins at `pos` (the worker is filling the block this thread
    /// needs: it tokenizes faster than this thread builds, so waiting beats
    /// tokenizing here); never waits for a worker that is behind, that
    /// went elsewhere or that has not started — the calling thread's own
    /// tokenizer passes it.
    fn at(&mut self, pos: usize) -> bool {
        loop {
            if let Some(block) = &self.block {
                let entries = block.entries.len();
                while self.next < entries && block.before(self.next) < pos {
                    self.next += 1;
                }
                if self.next < entries {
                    return block.before(self.next) == pos;
                }
            }
            let Some(stream) = self.streams.get(self.stream) else {
                return false;
            };
            // A worker that has not begun when this thread has passed its
            // whole chunk has nothing left to give (it returns as soon as
            // it begins): read the next chunk's worker, which may have.
            let next_start = self.starts.get(self.stream + 1).copied();
            if next_start.is_some_and(|next| pos >= next)
                && self.started[self.stream].load(Ordering::Acquire) == NOT_STARTED
            {
                self.next_stream();
                continue;
            }
            let rx = &stream.blocks;
            let received = match rx.try_recv() {
                // At the start of a chunk whose worker has not begun, let
                // it have this core once: on this machine a pool thread
                // woken while this one runs was sometimes run on this
                // thread's core only once it blocked, after the parse.
                Err(TryRecvError::Empty) if !self.yielded && self.worker_at == pos => {
                    self.yielded = true;
                    if self.started[self.stream].load(Ordering::Acquire) == NOT_STARTED {
                        std::thread::yield_now();
                    }
                    continue;
                }
                Err(TryRecvError::Empty) if self.worker_next(pos) => {
                    self.stats.waits += 1;
                    rx.recv().map_err(|_| TryRecvError::Disconnected)
                }
                other => other,
            };
            match received {
                Ok(block) => {
                    self.progress.store(pos, Ordering::Relaxed);
                    self.worker_at = block.entries.last().map_or(self.worker_at, |e| e.after);
                    if let Some(read) = self.block.replace(block) {
                        // A worker that has stopped no longer takes it back.
                        let _ = stream.spent.send(read);
                    }
                    self.next = 0;
                }
                Err(TryRecvError::Empty) => return false,
                Err(TryRecvError::Disconnected) => self.next_stream(),
            }
        }
    }

    /// Moves on to the next stream, whose worker begins at its chunk's
    /// start.
    fn next_stream(&mut self) {
        self.stream += 1;
        self.block = None;
        self.yielded = false;
        self.worker_at = self.starts.get(self.stream).copied().unwrap_or(usize::MAX);
    }

    /// Whether the current stream's worker has started and its next step
    /// begins at `pos`, as far as this thread knows: where its last block
    /// received ended, or where it began its latest speculation (when it
    /// started late, or found itself passed, it began again ahead of this
    /// thread). Such a worker sends a block or hangs up before long, so
    /// waiting for it ends.
    fn worker_next(&self, pos: usize) -> bool {
        let began = self.started[self.stream].load(Ordering::Acquire);
        began != NOT_STARTED && (self.worker_at == pos || began == pos)
    }

    /// Hands the tree builder the current block's recorded steps from entry
    /// `next` on, for as long as each begins where the true tokenizer in
    /// `core` is and in a state that agrees with the true one
    /// ([`Boundary::agrees_with`](crate::tokenizer::Boundary)), moving
    /// `core` past each; stops at the block's end, at the first step that
    /// fails the check, or when the tree builder stops.
    fn replay<S: TreeSink>(
        &mut self,
        builder: &mut TreeBuilder<S>,
        core: &mut Core,
        input: &str,
    ) -> Replayed {
        let Some(block) = &self.block else {
            return Replayed::Passed;
        };
        let from = core.pos;
        let first = self.next;
        let mut outcome = Replayed::Passed;
        let mut i = first;
        // Each entry begins where the one before it ended.
        if block.before(i) != from {
            return outcome;
        }
        while let Some(entry) = block.entries.get(i) {
            if !entry
                .state
                .agrees_with(core, input.as_bytes(), core.pos, entry.after)
            {
                outcome = Replayed::Mispredicted;
                break;
            }
            block.process(i, builder, input);
            core.skip_to(entry.after, entry.scanned_mode);
            i += 1;
            if after_token(builder, core) {
                outcome = Replayed::MetaEncoding;
                break;
            }
        }
        self.next = i;
        self.stats.tokens_reused += (i - first) as u64;
        self.stats.bytes_reused += (core.pos - from) as u64;
        if outcome == Replayed::Mispredicted {
            self.stats.mispredictions += 1;
        }
        outcome
    }
}

/// How a run of [`Feed::replay`] ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Replayed {
    /// At the end of the block or of the steps that begin in turn: look
    /// for the next recorded step.
    Passed,
    /// A step began at the true position in a state that disagrees with
    /// the true one on something it reads: the true tokenizer takes it.
    Mispredicted,
    /// The tree builder stopped for a `<meta>` that declares an encoding.
    MetaEncoding,
}

/// Runs the tree builder over `input` (the whole input) from the true
/// tokenizer state in `core`, taking each token from a recorded step where
/// one is proven to be the true tokenizer's (module doc of `parallel`), else
/// from `core`; like the sequential driver, stops at the end or when a
/// watched `<meta>` declares an encoding (and resumes when called again).
pub(crate) fn drive_speculative<S: TreeSink>(
    builder: &mut TreeBuilder<S>,
    core: &mut Core,
    input: &str,
    feed: &mut Feed<'_>,
) -> Stopped {
    // Errors are not placed: a parse that reports them runs sequentially
    // (`ParallelOptions::sequential`), so the tree builder records none.
    debug_assert_eq!(builder.error_count(), 0);
    loop {
        let pos = core.pos;
        if feed.at(pos) {
            match feed.replay(builder, core, input) {
                Replayed::MetaEncoding => return Stopped::MetaEncoding,
                // The true tokenizer may be where the block ended: look
                // for the next block.
                Replayed::Passed if core.pos != pos => continue,
                Replayed::Passed | Replayed::Mispredicted => {}
            }
        }
        // Tokenizing itself: workers behind this point can stop.
        let pos = core.pos;
        feed.progress.store(pos, Ordering::Relaxed);
        match core.step_driven(input, true) {
            Step::Token(token) => process_token(builder, token, input, 0),
            Step::End => {
                // The last step may have passed bytes that formed no token.
                feed.stats.bytes_tokenized += (input.len() - pos) as u64;
                process_eof(builder, input.len());
                return Stopped::End;
            }
            Step::NeedMore => unreachable!("a whole input never needs more"),
        }
        feed.stats.tokens_tokenized += 1;
        feed.stats.bytes_tokenized += (core.pos - pos) as u64;
        if after_token(builder, core) {
            return Stopped::MetaEncoding;
        }
    }
}
