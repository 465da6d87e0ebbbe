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
use std::sync::mpsc::{Receiver, TryRecvError};

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

    /// The share of the input whose tokens came from workers.
    pub fn reused_share(&self) -> f64 {
        if self.bytes == 0 {
            return 0.0;
        }
        self.bytes_reused as f64 / self.bytes as f64
    }
}

/// The workers' streams of recorded steps, read in input order.
pub(crate) struct Feed<'p> {
    streams: Vec<Receiver<Block>>,
    /// The stream being read.
    stream: usize,
    block: Option<Block>,
    /// The next entry of `block` not yet passed.
    next: usize,
    /// Where the calling thread is, for workers to stop once passed.
    progress: &'p AtomicUsize,
    stats: SpeculationStats,
}

impl<'p> Feed<'p> {
    pub(crate) fn new(
        streams: Vec<Receiver<Block>>,
        progress: &'p AtomicUsize,
        chunks: usize,
        bytes: usize,
    ) -> Feed<'p> {
        Feed {
            streams,
            stream: 0,
            block: None,
            next: 0,
            progress,
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

    /// Waits for the first worker's first block (it starts where the
    /// calling thread does, a few microseconds' tokenizing away).
    pub(crate) fn wait_for_first_block(&mut self) {
        if let Some(Ok(block)) = self.streams.first().map(Receiver::recv) {
            self.block = Some(block);
            self.next = 0;
        }
    }

    /// The index in the current block of the recorded step that begins at
    /// `pos`, if one has arrived. Never waits for a worker: one that is
    /// behind is passed by the calling thread's own tokenizer.
    fn at(&mut self, pos: usize) -> Option<usize> {
        loop {
            if let Some(block) = &self.block {
                let entries = &block.entries;
                while self.next < entries.len() && entries[self.next].before < pos {
                    self.next += 1;
                }
                if let Some(e) = entries.get(self.next) {
                    return (e.before == pos).then_some(self.next);
                }
            }
            let rx = self.streams.get(self.stream)?;
            match rx.try_recv() {
                Ok(block) => {
                    self.progress.store(pos, Ordering::Relaxed);
                    self.block = Some(block);
                    self.next = 0;
                }
                Err(TryRecvError::Empty) => return None,
                Err(TryRecvError::Disconnected) => {
                    self.stream += 1;
                    self.block = None;
                }
            }
        }
    }
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
    let bytes = input.as_bytes();
    loop {
        let pos = core.pos;
        if let Some(i) = feed.at(pos) {
            let block = feed.block.as_ref().expect("`at` found an entry in it");
            let entry = &block.entries[i];
            if entry
                .state
                .agrees_with(core, bytes, entry.before, entry.after)
            {
                process_token(builder, block.token(i, input), entry.start, input, 0);
                core.skip_to(entry.after, entry.scanned_mode);
                feed.stats.tokens_reused += 1;
                feed.stats.bytes_reused += (entry.after - entry.before) as u64;
                if after_token(builder, core) {
                    return Stopped::MetaEncoding;
                }
                continue;
            }
            feed.stats.mispredictions += 1;
        }
        // Tokenizing itself: workers behind this point can stop.
        feed.progress.store(pos, Ordering::Relaxed);
        match core.step(input, true) {
            Step::Token(token, start) => process_token(builder, token, start, input, 0),
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
