//! Parsing one document on several threads, with a tree that is always the
//! sequential parser's.
//!
//! # What runs where
//!
//! The input is cut into chunks just before a `div` tag, or else a `<`
//! that starts a tag (HPar's *smart cutting*: after such a cut the data
//! state is almost always the true state; see `smart_cut`). A worker per
//! chunk (a job on rayon's pool, below) tokenizes its chunk from a
//! speculated start state — the data state, no last start tag, HTML
//! content — with the tree-builder simulator switching text modes as a tree
//! builder would, and records every step ([`record`]) in blocks handed over
//! a bounded channel (no per-token synchronization; memory stays a few
//! blocks per worker). The calling thread runs the one tree builder, in
//! input order, feeding it recorded tokens where they are proven right and
//! tokenizing itself where they are not ([`feed`]). The first chunk begins
//! [`HEAD`] bytes in: the calling thread parses the start itself while the
//! worker starts up, instead of waiting for a worker that begins where it
//! does (which, on a page that opens with a script of megabytes, meant
//! waiting for that whole token).
//!
//! # Why the tree is the sequential one
//!
//! The calling thread keeps the *true* tokenizer state at every boundary:
//! it starts in the document's start state, and after each token it
//! applies what the tree builder asked (text mode, CDATA), exactly as the
//! sequential driver does. At a boundary `p` it uses a recorded step only
//! if that step began at `p` and in a state that agrees with the true state
//! on everything a step reads there (`tokenizer/boundary.rs`: the text mode;
//! the last start tag in the text modes; the CDATA flag where the step's
//! bytes hold `<![CDATA[`). A step is a function of what it reads and of the
//! input from `p`, so the recorded token is the token the true tokenizer
//! would produce, and the text mode its scan left is the one the true scan
//! leaves. By induction over the boundaries, the tree builder receives
//! exactly the sequential parser's token sequence, and — being the same
//! deterministic code on the same tokens — builds exactly its tree. Where
//! no recorded step qualifies (a wrong guess, a chunk's worker behind, a
//! chunk that began inside a comment or a script), the true tokenizer takes
//! one step itself, and the next boundary is checked again: speculation
//! *re-synchronizes* as soon as a worker's boundary and state meet the true
//! ones, and never costs more than checking one entry per token.
//!
//! Bad input (every guess wrong) therefore costs the sequential parse plus
//! a comparison per token, on the calling thread; workers only ever add
//! work on other cores, stop once the calling thread has passed them, and
//! have all returned before the call does.
//!
//! # Where the workers run
//!
//! Each worker is a job on rayon's current pool — the global one, unless
//! the parse is called inside `ThreadPool::install` — with
//! `rayon::in_place_scope` (the calling thread runs the tree builder
//! itself): a pool thread kept
//! between parses costs neither a thread start (about 70 µs) nor memory
//! new to it (the kernel zeroing fresh pages was 12 % of a parallel
//! parse's samples on one page). A parse has at most as many workers as
//! the pool has threads besides the calling one (`pool_threads`): more
//! would only queue. A job may start late, or only at the
//! scope's end when the calling thread is the pool's only free thread; so
//! the calling thread never waits for a worker that has not started
//! (`Feed::at`; at a chunk's start it yields its core once to a worker
//! that has not begun, which on this virtual machine was sometimes queued
//! on the calling thread's core), and a job that starts after the calling
//! thread has passed its chunk's start speculates from ahead of it, and
//! says where (`Shared::started`: the calling thread waits there for its
//! first block, as at a chunk's start), or returns at once.
//! Nothing waits on anything that cannot make progress: no deadlock,
//! whichever thread calls and however busy the pool. (As for any user of
//! rayon's pool: a process that forks after the pool has started has no
//! pool threads in the child, so a parallel parse there would wait at the
//! scope's end for jobs no thread runs; parse sequentially in such a
//! child, with `threads: 1`.)
//!
//! # What is parallel, and what is not (yet)
//!
//! This is the *pipelined* variant of HPar (§3 of the paper): tokenizing
//! runs ahead on other cores, tree construction stays on one thread. Its
//! speedup is bounded by the tree builder's share of a parse (more than
//! half of the instructions), so near 1.5× on two cores. By instructions
//! (callgrind `--separate-threads`, 4.25 MB of corpus pages, 2026-11-27,
//! at 9c53616): the sequential parse is 45.3 M, of which the tree builder
//! is 22.6 M; the calling thread here runs 28.8 M (the tree builder, its
//! driver loop, the start it tokenizes itself, checking and replaying
//! recorded steps, receiving blocks) and the worker 26.2 M, so 1.57×, and
//! even with the hand-over free this design would stop near 1.9×. The hand-over costs
//! each side: a worker records about 60 instructions per token
//! (`record.rs`: each step's token as its tokenizer built it, spans and
//! not a lent [`Token`](crate::Token), and a 6-byte state), and the
//! calling thread spends about 50 per token checking and replaying it.
//! Every instruction taken out of the tokenizer comes out of the worker's
//! half, and out of the tree builder out of the calling thread's. By
//! instructions the calling thread is the bound, but by CPU time the two
//! are even (3.26 ms against the worker's 3.39 ms on that document,
//! 2026-11-27): the worker's instructions are slower, for the memory the
//! hand-over writes (64 bytes more per recorded step cost the parse
//! 5.5 %). So both threads must get shorter for the speedup to rise.
//!
//! # Trees built speculatively
//!
//! With [`ParallelOptions::tree_speculation`], the other half of HPar
//! runs too, for one chunk: a worker builds the *tree* of the input's
//! second half, tokenizer and tree builder, from a context it guesses at
//! the cut from the chunk's own bytes, while the calling thread parses the
//! first half; at the cut, the calling thread compares the whole true
//! state with the guess and adopts the worker's tree
//! (`Document::adopt_speculated`) when they agree, or parses on (with
//! pipelined workers) when they do not. `tree_speculation.rs` has the
//! guess, the proof that an adopted tree is the sequential one, and why
//! the whole state is compared rather than each read of it logged
//! (`tree_speculation.md`, the inventory for that finer validation):
//! measured by [`probe_tree_speculation`], a chunk built from this guess
//! makes the sequential tree builder's operations — the most a validation
//! of its reads could accept — at 50 % of the parser's cuts in the corpus
//! pages of 1 MB or more, where the whole guessed state is the true one
//! at 51 %, and at 2 of 30 in the documents made of pages (where the
//! state earlier pages left is read at once, and no guess from a chunk's
//! own bytes knows it).
//!
//! Where the parse has more than one worker, speculation is chained
//! (`tree_chain.rs`): one chunk per worker, each built up to the next cut
//! and checked, in input order, against the state the chunk before it
//! left — the calling thread's, or the adopted chunk's; a wrong guess
//! moves that state into the calling thread, which parses the chunk
//! itself and checks the next one against its own.
//!
//! Only an input with [`ParallelOptions::tree_speculation_from`] tags or
//! more (estimated from samples) is speculated: the worker's start, its
//! guess and the adoption cost milliseconds on this machine, more than a
//! page of megabytes of script takes to parse. [`TreeTimeline`] says when
//! each step happened; [`probe_chunk_costs`] times each step for one
//! chunk, the inputs of `spinneret-bench hpar-model`'s scheduling model of
//! speculation over more chunks.
//!
//! How often the whole guess holds is measured by [`probe_cut`]
//! (`spinneret-bench hpar`, tree-state table: 58 % of the parser's cuts in
//! the corpus pages of 200 KB or more, 51 % in those of 1 MB or more, 2 of
//! 30 in the documents made of pages, whose stack keeps every page's
//! unclosed elements), and how often a tree is really adopted by the same
//! bench's speed table. So tree speculation is off by default: where the
//! guess fails, the second half's tree was built for nothing and the
//! calling thread parses it with the pipelined worker only from the cut on.
//!
//! Error reporting asks for the tokenizer's errors in input order with
//! positions; a parse with [`ParseOptions::report_errors`] runs
//! sequentially.

mod chunk_costs;
mod end_tag_scan;
mod feed;
mod probe;
mod record;
mod trace;
mod tree_chain;
mod tree_side;
mod tree_speculation;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};

use spinneret_encoding::{Determination, Sniffer, decode_parallel};

use crate::dom::{Document, DomSink};
use crate::names::LocalName;
use crate::simulator::Simulator;
use crate::tokenizer::{Built, Core, TextMode, TokenizerOptions};
use crate::tree_builder::{
    ParseOptions, TreeBuilder, finish, parse_bytes_determined, parse_watching, tokenizer_options,
};
pub use chunk_costs::{ChunkCosts, probe_chunk_costs};
pub use feed::SpeculationStats;
use feed::{Feed, Stream, drive_speculative};
pub use probe::{CutProbe, SpeculationProbe, probe_cut, probe_tree_speculation};
use record::Block;
use tree_chain::{parse_chaining_trees, parse_chaining_trees_watching};
use tree_side::{parse_speculating_tree, tree_cuts};
pub use tree_speculation::{TreeRejection, TreeSpeculationStats, TreeTimeline};

/// Documents shorter than this are parsed sequentially by default: below
/// it, handing a chunk to a worker costs more than it saves. Measured
/// 2026-11-26 with the workers on rayon's pool (2 threads, documents made
/// of corpus pages, three of each size, best of 60 each, eight runs):
/// 64 KiB ran at 0.96–1.01× the sequential parse, 96 KiB at 0.97–1.09×,
/// 128 KiB at 1.07–1.14×, 256 KiB at 1.15–1.21×. (With a thread started
/// per parse, until that day: 256 KiB at 0.71–1.04×, 384 KiB at
/// 1.11–1.14×; the threshold was 384 KiB.)
pub const SEQUENTIAL_BELOW: usize = 128 << 10;

/// Blocks a worker may have waiting for the tree builder.
const CHANNEL_BLOCKS: usize = 16;

/// How to parse in parallel.
#[derive(Clone, Debug)]
pub struct ParallelOptions {
    /// Threads in all, the calling thread included; 1 or 0 parses
    /// sequentially. The workers are jobs on rayon's current pool, and a
    /// parse starts no more of them than the pool has threads besides the
    /// calling one: to parse on more (or fewer) threads than the global
    /// pool has, call it inside [`rayon::ThreadPool::install`] of a pool of
    /// that size, as `spinneret tree --threads N` does.
    pub threads: usize,
    /// Inputs shorter than this (bytes) are parsed sequentially, and a
    /// longer input gets at most one worker per this many bytes: each
    /// worker's chunk begins with a speculation that may be wrong and a
    /// first block the calling thread may wait for, and in this pipelined
    /// design one worker already tokenizes
    /// faster than the calling thread builds, so more only help where it
    /// falls behind. (Without the bound, 64 threads on a 1 MB page started
    /// 63 workers, more than the parse saved.)
    pub sequential_below: usize,
    /// Where to cut, instead of the even smart cuts: byte offsets (sorted;
    /// offsets that are not inside the input or not on a character
    /// boundary are ignored). For tests and experiments. With
    /// [`ParallelOptions::tree_speculation`], each of them begins a chunk
    /// whose tree a worker builds, chained where there are several.
    pub cuts: Option<Vec<usize>>,
    /// Build the tree of the input's second half on a worker, from a
    /// context guessed at the cut, and adopt it when the guess was the
    /// true state (`parallel/tree_speculation.rs`); the calling thread
    /// parses the first half, and the rest too when the guess was wrong.
    /// With more workers, one chunk each, chained
    /// (`parallel/tree_chain.rs`).
    pub tree_speculation: bool,
    /// With [`ParallelOptions::tree_speculation`] and no explicit cuts,
    /// an input with fewer tags than this (estimated from samples of it)
    /// is parsed with the pipelined workers alone: its tree builds too
    /// quickly for a worker's start, its guess and the adoption to pay
    /// ([`TREE_SPECULATION_FROM`]).
    pub tree_speculation_from: usize,
}

/// The fewest tags (estimated) an input needs for its tree to be
/// speculated by default. Measured 2026-12-02 on 2 threads
/// (`spinneret-bench hpar`, and `TreeTimeline`): a pool thread woken for
/// the worker began 0.05–5 ms after it was spawned, and adopting half a
/// document cost 2–3 ms per 100,000 of its nodes; the corpus pages of
/// 1–3 MB, mostly script (5,000–40,000 tags), parse in 0.3–2 ms, where
/// speculating cost up to 1.41× the sequential parse; the 4 MB
/// well-formed document (about 400,000 tags) ran at 0.8–1.2× and the
/// 16 MB one at 1.3–1.45×.
pub const TREE_SPECULATION_FROM: usize = 1 << 18;

impl ParallelOptions {
    /// `threads` threads, with the default threshold and cuts.
    pub fn threads(threads: usize) -> ParallelOptions {
        ParallelOptions {
            threads,
            sequential_below: SEQUENTIAL_BELOW,
            cuts: None,
            tree_speculation: false,
            tree_speculation_from: TREE_SPECULATION_FROM,
        }
    }

    /// Where the workers' chunks of a parallel parse of `input` begin
    /// (empty when the parse would run sequentially): just after a
    /// `</script>` end tag or at a smart cut 32 KiB in, the start before it
    /// parsed by the calling thread itself, then the even cuts; with
    /// [`ParallelOptions::cuts`], 0 and those. Like the parse, it counts
    /// the threads of rayon's *current* pool (at most one worker per pool
    /// thread besides the calling one): call it where the parse would be
    /// called, e.g. inside the same [`rayon::ThreadPool::install`].
    pub fn chunk_starts(&self, input: &str) -> Vec<usize> {
        if self.sequential(input.len(), &ParseOptions::default()) {
            return Vec::new();
        }
        starts(input, self)
    }

    /// Where a parse with [`ParallelOptions::tree_speculation`] on
    /// [`ParallelOptions::threads`] threads (on a pool that has them all)
    /// begins the chunks whose trees workers build: one cut with one
    /// worker, one per worker with more (chained); empty where the input
    /// is not speculated (fewer tags than
    /// [`ParallelOptions::tree_speculation_from`]). For benchmarks and
    /// scheduling models.
    pub fn tree_cuts(&self, input: &str) -> Vec<usize> {
        tree_side::tree_cuts_for(input, self, self.threads.saturating_sub(1))
    }

    /// Into how many pieces a parallel parse decodes `len` bytes of a
    /// legacy encoding (`spinneret_encoding::decode_parallel`): one per
    /// thread that can run one (the calling thread and the current pool's
    /// others), and one per [`ParallelOptions::sequential_below`] bytes at
    /// most. Decoding was the whole serial stage before the parse: 64 MB
    /// of pages in windows-1252 took 130–190 ms of a 290 ms parse on 1
    /// thread (2026-12-02).
    fn decode_pieces(&self, len: usize) -> usize {
        let threads = self.threads.min(pool_threads() + 1);
        threads.min(len / self.sequential_below.max(1)).max(1)
    }

    /// Whether a parse of `len` bytes runs sequentially.
    fn sequential(&self, len: usize, options: &ParseOptions) -> bool {
        options.report_errors
            || (self.cuts.is_none()
                && (self.threads < 2 || len < self.sequential_below || pool_threads() == 0))
    }
}

/// The threads of rayon's current pool that can run a worker: all of them
/// when the calling thread is not one of them, else all but it. Workers
/// beyond these only queue behind each other (a job that starts after the
/// calling thread passed its chunk's start does little), so a parse asks
/// for no more: `threads(64)` on the two-thread global pool parsed 4 MB at
/// 1.05–1.13× the sequential parse's speed without this bound, and at
/// 1.29–1.30× with it (two workers, as `threads(3)`).
fn pool_threads() -> usize {
    let caller = usize::from(rayon::current_thread_index().is_some());
    rayon::current_num_threads().saturating_sub(caller)
}

impl Default for ParallelOptions {
    /// As many threads as the machine runs at once.
    fn default() -> ParallelOptions {
        ParallelOptions::threads(std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Parses a whole document on several threads; the document is exactly
/// [`parse_document`](crate::parse_document)'s (see the module doc).
///
/// ```
/// use spinneret_html::{parse_document, parse_document_parallel, ParallelOptions, ParseOptions};
/// let page = "<table><tr><td>a<b>b</table><p>c".repeat(4000);
/// let options = ParseOptions::default();
/// let doc = parse_document_parallel(&page, &options, &ParallelOptions::threads(2));
/// assert_eq!(doc.dump(), parse_document(&page, &options).dump());
/// ```
pub fn parse_document_parallel(
    input: &str,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> Document {
    parse_document_parallel_with_stats(input, options, parallel).0
}

/// [`parse_document_parallel`], with what became of the speculation.
pub fn parse_document_parallel_with_stats(
    input: &str,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> (Document, SpeculationStats) {
    if parallel.sequential(input.len(), options) {
        let doc = crate::parse_document(input, options);
        let stats = SpeculationStats::sequential(input.len());
        return (doc, stats);
    }
    if parallel.tree_speculation {
        match tree_cuts(input, parallel)[..] {
            [] => {}
            [cut] => {
                let (doc, stats) =
                    parse_speculating_tree(input, options, parallel, cut, None, None);
                return (doc.expect("parsed without watching for an encoding"), stats);
            }
            ref cuts => return parse_chaining_trees(input, options, cuts, None),
        }
    }
    let starts = starts(input, parallel);
    speculate(input, options, &starts, |feed| {
        let sink = DomSink::new(input.to_owned(), false);
        let mut builder = TreeBuilder::new(sink, options.scripting, false);
        let mut core = driven_core(options);
        drive_speculative(&mut builder, &mut core, input, feed);
        finish(builder, core)
    })
}

/// Parses a document from its bytes on several threads: the encoding stage
/// as in [`parse_bytes`](crate::parse_bytes) (a late `<meta>` that changes
/// the encoding makes it decode and parse again, in parallel too), and the
/// document exactly `parse_bytes`'s.
pub fn parse_bytes_parallel(
    bytes: &[u8],
    sniffer: &Sniffer<'_>,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> (Document, Determination) {
    parse_bytes_parallel_determined(bytes, sniffer.determine(bytes), options, parallel)
}

/// [`parse_bytes_parallel`] of `bytes` whose encoding the sniffer has
/// determined (`det`).
fn parse_bytes_parallel_determined(
    bytes: &[u8],
    mut det: Determination,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> (Document, Determination) {
    if parallel.sequential(bytes.len(), options) {
        return parse_bytes_determined(bytes, det, options);
    }
    let text = decode_parallel(bytes, det.encoding, parallel.decode_pieces(bytes.len())).0;
    let lent = matches!(text, std::borrow::Cow::Borrowed(_));
    // The documents' shared source: a text the decoder made is moved
    // there, not copied (bytes lent as they are are copied, once).
    let source = Arc::new(text.into_owned());
    let given = Some(Arc::clone(&source));
    if let Some(doc) = parse_decoded(bytes, &source, given, lent, &mut det, options, parallel) {
        return (doc, det);
    }
    // The encoding changed: decode again and parse from the start.
    let text = decode_parallel(bytes, det.encoding, parallel.decode_pieces(bytes.len())).0;
    (parse_document_parallel(&text, options, parallel), det)
}

/// [`parse_bytes_parallel`] of bytes given away: where they are the
/// document's text as they are (UTF-8 without a byte order mark, the
/// encoding the sniffer determines), the document keeps them as its
/// source instead of a copy — a copy of the whole input, fresh memory on
/// the calling thread, saved (about 30 ms for 64 MB). The same document
/// and determination as [`parse_bytes_parallel`] of the same bytes.
pub fn parse_owned_bytes_parallel(
    bytes: Vec<u8>,
    sniffer: &Sniffer<'_>,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> (Document, Determination) {
    let mut det = sniffer.determine(&bytes);
    let utf8 = det.encoding.name() == "UTF-8" && !bytes.starts_with(b"\xEF\xBB\xBF");
    if !utf8 {
        return parse_bytes_parallel_determined(&bytes, det, options, parallel);
    }
    let source = match String::from_utf8(bytes) {
        Ok(text) => Arc::new(text),
        // Not UTF-8: decoded with replacement characters, as any input.
        Err(e) => return parse_bytes_parallel_determined(e.as_bytes(), det, options, parallel),
    };
    let text = source.as_str();
    let bytes = text.as_bytes();
    let doc = if parallel.sequential(text.len(), options) {
        let mut run = |builder: &mut TreeBuilder<DomSink>, core: &mut Core, text: &str| {
            crate::tree_builder::drive(builder, core, text, true)
        };
        parse_watching(
            bytes,
            text,
            Arc::clone(&source),
            true,
            &mut det,
            options,
            &mut run,
        )
    } else {
        let given = Some(Arc::clone(&source));
        parse_decoded(bytes, text, given, true, &mut det, options, parallel)
    };
    if let Some(doc) = doc {
        return (doc, det);
    }
    // The encoding changed: decode again and parse from the start.
    let text = decode_parallel(bytes, det.encoding, parallel.decode_pieces(bytes.len())).0;
    (parse_document_parallel(&text, options, parallel), det)
}

/// The parallel parse of `text`, decoded from `bytes` (`lent`: borrowed
/// from them) with `det`'s encoding; `None` where a `<meta>` changes the
/// encoding. With `source`, `text` is its text, shared rather than copied.
fn parse_decoded(
    bytes: &[u8],
    text: &str,
    source: Option<Arc<String>>,
    lent: bool,
    det: &mut Determination,
    options: &ParseOptions,
    parallel: &ParallelOptions,
) -> Option<Document> {
    let cuts = match parallel.tree_speculation {
        true => tree_cuts(text, parallel),
        false => Vec::new(),
    };
    if cuts.len() > 1 {
        let watch = (bytes, lent, det);
        return parse_chaining_trees_watching(watch, text, source, options, &cuts);
    }
    match cuts.last().copied() {
        Some(cut) => {
            let watch = Some((bytes, lent, det));
            parse_speculating_tree(text, options, parallel, cut, watch, source).0
        }
        None => {
            let starts = starts(text, parallel);
            let source = source.unwrap_or_else(|| Arc::new(text.to_string()));
            let (doc, _) = speculate(text, options, &starts, |feed| {
                let mut run = |builder: &mut TreeBuilder<DomSink>, core: &mut Core, text: &str| {
                    drive_speculative(builder, core, text, feed)
                };
                parse_watching(bytes, text, source, lent, det, options, &mut run)
            });
            doc
        }
    }
}

/// A tokenizer driven by a tree builder, at the document's start.
fn driven_core(options: &ParseOptions) -> Core {
    let mut core = Core::new(&tokenizer_options(options, TextMode::Data, None));
    core.driven = true;
    core
}

/// How far into the input the first worker starts (just after a
/// `</script>` end tag there, else at a smart cut): the calling thread
/// parses this start itself while the worker starts up, rather than wait
/// for a worker that starts where it does. (Waiting there cost a thread
/// start-up, about 70 µs, on every parse when each parse started its
/// worker threads, and on a page that begins with
/// one long token — a script of megabytes — the whole of that token,
/// tokenized by the worker while the calling thread waited: `hpar`'s page
/// that is one script parsed at 0.70–0.78× the sequential parse's speed,
/// and at 0.93× since.)
pub(crate) const HEAD: usize = 32 << 10;

/// Where the workers' chunks begin, in order: with explicit cuts, 0 and
/// those; else the first [`HEAD`] bytes in (or halfway through the first
/// chunk, if that is shorter), just after a `</script>` end tag
/// ([`after_script_end`]) or at a smart cut, and then one per thread but
/// the calling thread's and the first worker's, at most one per
/// `sequential_below` bytes and one per pool thread that can run a worker
/// ([`pool_threads`]), at even smart cuts.
fn starts(input: &str, parallel: &ParallelOptions) -> Vec<usize> {
    let mut starts = starts_from(input, 0, parallel);
    if starts.is_empty() {
        starts.push(0);
    }
    starts
}

/// [`starts`] for a parse whose calling thread is at `from` (and has
/// tokenized what comes before): the explicit cuts after it, else the
/// cuts `starts` would make in the rest of the input; none when the rest
/// is shorter than [`ParallelOptions::sequential_below`].
fn starts_from(input: &str, from: usize, parallel: &ParallelOptions) -> Vec<usize> {
    if let Some(cuts) = &parallel.cuts {
        if from > 0 {
            let mut cuts: Vec<usize> = cuts
                .iter()
                .copied()
                .filter(|&c| c > from && c < input.len() && input.is_char_boundary(c))
                .collect();
            cuts.sort_unstable();
            cuts.dedup();
            return cuts;
        }
        let mut last = 0;
        let cuts = cuts.iter().copied().filter(|&c| {
            let ok = c > last && c < input.len() && input.is_char_boundary(c);
            last = last.max(c);
            ok
        });
        return std::iter::once(0).chain(cuts).collect();
    }
    let rest = input.len().saturating_sub(from);
    if from > 0 && rest < parallel.sequential_below {
        return Vec::new();
    }
    let most = match parallel.sequential_below {
        0 => usize::MAX,
        per_worker => (rest / per_worker).max(1),
    };
    let chunks = parallel
        .threads
        .saturating_sub(1)
        .min(pool_threads())
        .clamp(1, most);
    // Within the first chunk's first half, for many small chunks.
    let at = from + HEAD.min(rest / chunks / 2);
    let head =
        after_script_end(input, at, CUT_WINDOW).unwrap_or_else(|| smart_cut(input, at, CUT_WINDOW));
    let mut starts: Vec<usize> = std::iter::once(head)
        .chain((1..chunks).map(|i| smart_cut(input, from + rest / chunks * i, rest / chunks)))
        .collect();
    // A start at the end would be a worker with nothing to do; the cuts
    // after the head are in order (each searches from a later position).
    starts.retain(|&c| c < input.len());
    starts.dedup_by(|later, earlier| later <= earlier);
    starts
}

/// How far past its even position a cut looks for a place to fall: an
/// eighth of the input, and at least this.
const CUT_WINDOW: usize = 64 << 10;

/// Where a chunk begins, at or after `at`: just before the first `<div`
/// or `</div` tag within `reach` bytes, else just before the first `<`
/// there that starts a tag (`<` then an ASCII letter, or `</` then one),
/// else at `at` rounded up to a character boundary.
///
/// Why a `div` first (HPar's smart cutting, refined by measurement): at a
/// block boundary a page is almost always in the data state and in body,
/// and seldom inside an inline formatting element. Measured with
/// `spinneret-bench hpar` (tree-state table, cuts at 1/2 … 3/4 of each
/// page): on the 201 corpus pages of 200 KB or more these cuts were
/// data-state token boundaries at 79 % of cuts, against 57 % just before
/// any tag (inline scripts hold many `<` that start tag-like text), and
/// on the 12 pages of 1 MB or more at 51 % against 15 %; with 4 threads,
/// 25 of the 36 chunk starts of those 12 pages were right, against 17.
fn smart_cut(input: &str, at: usize, reach: usize) -> usize {
    let b = input.as_bytes();
    let window = &b[at.min(b.len())..at.saturating_add(reach).min(b.len())];
    let mut first_tag = None;
    for i in memchr::memchr_iter(b'<', window) {
        let p = at + i;
        let name = match b.get(p + 1) {
            Some(b'/') => &b[p + 2..],
            _ => &b[p + 1..],
        };
        if is_div(name) {
            return p;
        }
        if first_tag.is_none() && name.first().is_some_and(u8::is_ascii_alphabetic) {
            first_tag = Some(p);
        }
    }
    first_tag.unwrap_or_else(|| {
        (at..=input.len())
            .find(|&p| input.is_char_boundary(p))
            .unwrap_or(input.len())
    })
}

/// Just after the first `</script…>` end tag at or after `at`, within
/// `reach` bytes, if there is one: the first chunk's start. Near a page's
/// start (its head, with its inline scripts and styles), a `<div` is often
/// inside a script's text, but a `</script` ends any
/// script (but one in the escaped states of `<!--<script>`), so the state
/// after it is the data state unless the end tag is text of a comment or
/// of a `<textarea>` or `<title>`. Measured with `spinneret-bench hpar`
/// (speculation table, 2 threads): the first chunk started in the true
/// state on 7 of the 12 corpus pages of 1 MB or more, against 3 with the
/// smart cut alone (whose `<div` fell inside scripts; the others start
/// inside inline styles of up to 190 KB, where nothing marks an end
/// nearby).
fn after_script_end(input: &str, at: usize, reach: usize) -> Option<usize> {
    let b = input.as_bytes();
    let end = at.saturating_add(reach).min(b.len());
    let window = b.get(at..end)?;
    memchr::memmem::find_iter(window, b"</")
        .map(|i| at + i + 2)
        .find(|&p| {
            b.get(p..p + 6)
                .is_some_and(|n| n.eq_ignore_ascii_case(b"script"))
                && matches!(
                    b.get(p + 6),
                    Some(b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0C')
                )
        })
        .and_then(|p| memchr::memchr(b'>', &b[p..end]).map(|i| p + i + 1))
        .filter(|&p| p < b.len())
}

/// Whether `name` (the bytes after `<` or `</`) begins with the tag name
/// `div`, in any case, and the name ends there.
fn is_div(name: &[u8]) -> bool {
    name.len() > 3
        && name[..3].eq_ignore_ascii_case(b"div")
        && matches!(
            name[3],
            b'>' | b'/' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0C'
        )
}

/// Runs `parse` with a [`Feed`] of the tokens that workers speculate for
/// the chunks beginning at each of `starts`; every worker is joined before
/// this returns.
fn speculate<R>(
    input: &str,
    options: &ParseOptions,
    starts: &[usize],
    parse: impl FnOnce(&mut Feed) -> R,
) -> (R, SpeculationStats) {
    let progress = AtomicUsize::new(0);
    let started: Vec<AtomicUsize> = starts
        .iter()
        .map(|_| AtomicUsize::new(NOT_STARTED))
        .collect();
    // The workers are jobs on rayon's global pool, and this thread runs
    // the tree builder itself (`in_place_scope`); the scope returns once
    // every job has. A job may start late, or (when this thread is itself
    // the pool's only free thread) only at the scope's end: the feed never
    // waits for a worker that has not started, so a late job finds itself
    // passed and returns at once.
    rayon::in_place_scope(|scope| {
        let mut streams = Vec::with_capacity(starts.len());
        for (i, &from) in starts.iter().enumerate() {
            let to = starts.get(i + 1).copied().unwrap_or(input.len());
            let (tx, blocks) = sync_channel(CHANNEL_BLOCKS);
            let (spent, spent_rx) = channel();
            let progress = &progress;
            let started = &started[i];
            scope.spawn(move |_| {
                let channels = (&tx, &spent_rx);
                let shared = Shared { progress, started };
                tokenize_chunk(input, (from, to), options.scripting, channels, shared)
            });
            streams.push(Stream { blocks, spent });
        }
        let mut feed = Feed::new(streams, starts.to_vec(), &progress, &started, input.len());
        let out = parse(&mut feed);
        let stats = feed.finish();
        (out, stats)
    })
}

/// What a worker shares with the calling thread besides its channels.
struct Shared<'p> {
    /// Where the calling thread is (`usize::MAX`: it has hung up).
    progress: &'p AtomicUsize,
    /// Where the worker's latest speculation begins; [`NOT_STARTED`]
    /// before the first.
    started: &'p AtomicUsize,
}

/// [`Shared::started`] of a worker that has not begun.
pub(crate) const NOT_STARTED: usize = usize::MAX;

/// How far ahead of the calling thread a worker that it passed starts
/// again: the calling thread tokenizes what lies between itself, so the
/// lead is what a worker tokenizes (about twice as fast as the calling
/// thread builds) while the calling thread covers it.
const LEAD: usize = 32 << 10;

/// A worker checks where the calling thread is every this many tokens.
const CHECK_EVERY: usize = 256;

/// Runs the simulator on `token`, a tag it acts on
/// ([`Simulator::acts_on`]); returns the text mode it switches to after a
/// start tag, with the tag. (The tags that switch are all known names.)
fn simulate(sim: &mut Simulator, token: &crate::Token<'_>) -> Option<(TextMode, LocalName)> {
    match token {
        crate::Token::StartTag(t) => {
            let mode = sim.start_tag(t.name, &t.attrs, t.self_closing)?;
            Some((mode, t.name.local()?))
        }
        crate::Token::EndTag(t) => {
            sim.end_tag(t.name);
            None
        }
        _ => None,
    }
}

/// A worker: tokenizes `input[from..]` from the speculated state until a
/// step begins at or after `to`, sending its steps in blocks. When the
/// calling thread has passed it (its tokens would be thrown away), it
/// speculates again from a smart cut [`LEAD`] bytes ahead of that thread,
/// if that is still in its chunk; it stops when the calling thread hangs up.
fn tokenize_chunk(
    input: &str,
    (mut from, to): (usize, usize),
    scripting: bool,
    (tx, spent): (&SyncSender<Block>, &Receiver<Block>),
    Shared { progress, started }: Shared<'_>,
) {
    // A job that starts after the calling thread has passed its start
    // (the pool was busy) speculates from ahead of that thread at once.
    let caller = progress.load(Ordering::Relaxed);
    if caller == usize::MAX {
        return;
    }
    if caller > from {
        from = smart_cut(
            input,
            caller.saturating_add(LEAD).min(input.len()),
            CUT_WINDOW,
        );
        if from >= to {
            return;
        }
    }
    // A block the calling thread has read, emptied, or a new one.
    let fresh = || {
        spent.try_recv().map_or_else(
            |_| Block::with_capacity(),
            |mut block| {
                block.clear();
                block
            },
        )
    };
    'speculate: loop {
        // The calling thread waits here for the first block, as at a
        // chunk's start: it cannot know where a worker went otherwise.
        started.store(from, Ordering::Release);
        // The tokenizer is driven, as the calling thread's is, by a
        // tree-builder simulator standing in for the tree builder: after a
        // step its text mode is the one the scan left.
        let mut core = Core::new(&TokenizerOptions {
            initial_state: TextMode::Data,
            last_start_tag: None,
            report_errors: false,
            simulate_tree_builder: false,
            scripting,
        });
        core.driven = true;
        core.pos = from;
        let mut sim = Simulator::new(scripting);
        let mut block = fresh();
        let mut block_bytes = record::FIRST_BLOCK_BYTES;
        let mut steps = 0usize;
        while core.pos < to {
            let before = core.pos;
            let state = core.boundary();
            let Some(built) = core.step_built(input) else {
                break;
            };
            let switch = match built {
                Built::Tag { end, known, .. } if sim.acts_on(end, known) => {
                    simulate(&mut sim, &core.view(built, input))
                }
                _ => None,
            };
            block.push_built(input, &core, built, before, state);
            block.end_step(core.pos, core.boundary_mode());
            if let Some((mode, tag)) = switch {
                core.switch_text_mode(mode, tag);
            }
            core.cdata_allowed = sim.in_foreign_content();
            steps += 1;
            if steps.is_multiple_of(CHECK_EVERY) {
                let caller = progress.load(Ordering::Relaxed);
                if caller == usize::MAX {
                    return;
                }
                if caller >= core.pos {
                    let at = caller.saturating_add(LEAD).min(input.len());
                    from = smart_cut(input, at, CUT_WINDOW);
                    if from >= to {
                        return;
                    }
                    continue 'speculate;
                }
            }
            if block.is_full(block_bytes) {
                if tx.send(std::mem::replace(&mut block, fresh())).is_err() {
                    return;
                }
                block_bytes = record::BLOCK_BYTES;
            }
        }
        if !block.entries.is_empty() {
            let _ = tx.send(block);
        }
        return;
    }
}

#[cfg(test)]
mod tests {
    use super::{CUT_WINDOW, after_script_end, smart_cut};

    #[test]
    fn the_first_chunk_starts_after_a_script_end_tag() {
        let page = "<head><script>var a = '<div>x';</script><p>y";
        let after = page.find("<p>").unwrap();
        assert_eq!(after_script_end(page, 0, CUT_WINDOW), Some(after));
        // Any case, attributes or spaces before `>`; not `</scripts>`.
        let page = "<script>a</scripts>b</SCRIPT >c";
        assert_eq!(after_script_end(page, 0, CUT_WINDOW), Some(page.len() - 1));
        // None within reach, or only at the very end.
        assert_eq!(after_script_end("<p>no script</p>", 0, CUT_WINDOW), None);
        assert_eq!(after_script_end("<script>a</script>", 0, CUT_WINDOW), None);
        let far = format!("{}</script>x", " ".repeat(100));
        assert_eq!(after_script_end(&far, 0, 50), None);
        assert_eq!(after_script_end(&far, 0, 200), Some(far.len() - 1));
    }

    #[test]
    fn cuts_fall_before_a_div_tag_else_before_any_tag() {
        let page = "<p>a <b>b</b></p><DIV class=x>c</div>";
        // A div tag within the window wins over the tags before it.
        assert_eq!(smart_cut(page, 1, CUT_WINDOW), page.find("<DIV").unwrap());
        let after = page.find("<DIV").unwrap() + 1;
        assert_eq!(
            smart_cut(page, after, CUT_WINDOW),
            page.find("</div").unwrap()
        );
        // Not a div: <divx>, <dialog>; then any tag.
        let page = "x<divx>y<dialog>z</p>";
        assert_eq!(smart_cut(page, 0, CUT_WINDOW), page.find("<divx").unwrap());
        assert_eq!(
            smart_cut(page, 2, CUT_WINDOW),
            page.find("<dialog").unwrap()
        );
        // No tag: a character boundary at or after the position.
        let page = "a < b, é";
        assert_eq!(smart_cut(page, 1, CUT_WINDOW), 1);
        assert_eq!(smart_cut(page, 8, CUT_WINDOW), 9);
        // A div beyond the window does not count.
        let far = format!("<p>{}<div>", "x".repeat(CUT_WINDOW));
        assert_eq!(smart_cut(&far, 0, CUT_WINDOW), 0);
        assert_eq!(smart_cut(&far, 1, CUT_WINDOW), 1);
        assert_eq!(smart_cut(&far, 4, CUT_WINDOW), far.len() - 5);
    }
}
