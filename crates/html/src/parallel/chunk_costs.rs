//! What each step of tree speculation costs for one chunk, every step run
//! on the calling thread one after another: the inputs of a scheduling
//! model of speculation over many chunks (`spinneret-bench hpar-model`),
//! which this machine's two cores cannot run.
//!
//! For a chunk from `cut` to `end` of an input, [`probe_chunk_costs`]
//! times, each on its own:
//!
//! - the sequential parse of the input up to the cut (the calling thread's
//!   part before it), and of the rest from the true state there (the
//!   chunk parsed where its speculation fails);
//! - the worker's part: its guess (the document's quirks and the scan of
//!   the tags from the cut to the input's end, as the one speculated
//!   chunk of a parse makes it) and the build of the chunk's tree from it,
//!   to `end` and an end of file there;
//! - the comparison of the guess with the true state at the cut, and,
//!   where they agree, the adoption of the chunk's tree.
//!
//! The outcome is the real code's (`tree_speculation::adoptable`, and the
//! worker's own refusals), so it is what the chunk becomes in a chain
//! (`tree_chain.rs`) too: a chunk whose predecessor was adopted is checked
//! against the state a sequential parse has there, adoption being exact.
//! What the chained code does differently from this probe: its worker
//! stops at the next cut (here it processes an end of file there), and
//! its guess comes from a scan of its own chunk composed with the next
//! worker's answer (`TagScan::compose`) — the guess timed here, from a
//! scan to the input's end, where the cut is where the parser cuts (before
//! a tag, outside raw text), at the cost of the chunk's own scan, which is
//! what `chunk_scan` times.
//!
//! Each step runs in a function of its own, never inlined, named for it
//! (`step_prefix`, `step_guess`, `step_chunk_scan`, `step_build`,
//! `step_validate`, `step_adopt`, `step_rest`): under callgrind,
//! `--collect-atstart=no --toggle-collect='*chunk_costs::step_*'` and a
//! `--dump-after=spinneret_html::parallel::chunk_costs::step_…` for each
//! step write one profile per step run,
//! with that step's instructions alone (`spinneret-bench hpar-model
//! instructions`: the model fed with counts that hold still on a noisy
//! machine). Run the probe on a pool of one thread to count an adoption's
//! passes on the pool too.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::tree_speculation::{self, TreeRejection, Unbuilt};
use crate::dom::DomSink;
use crate::tokenizer::TextMode;
use crate::tree_builder::{ParseOptions, TreeBuilder, drive};

/// What tree speculation costs for one chunk (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkCosts {
    /// The sequential parse of the input up to the cut.
    pub prefix: Duration,
    /// The sequential parse of the rest, from the true state at the cut.
    pub rest: Duration,
    /// The worker's guess: the document's quirks mode and the scan of the
    /// chunk's tags.
    pub guess: Duration,
    /// A scan of the chunk's own tags, from the cut to `end` (what a
    /// chained worker would scan: the module doc).
    pub chunk_scan: Duration,
    /// The worker's build of the chunk's tree from its guess (zero when
    /// the guess was refused before building).
    pub build: Duration,
    /// The comparison of the guess with the true state at the cut.
    pub validate: Duration,
    /// The adoption of the chunk's tree, where it was adopted.
    pub adopt: Option<Duration>,
    /// Why the chunk's tree would not be adopted, if it would not.
    pub rejection: Option<TreeRejection>,
    /// The nodes of the chunk's tree.
    pub nodes: usize,
}

/// Times each step of tree speculation for the chunk from `cut` to `end`
/// of `input`, one after another on this thread (module doc); `None`
/// unless `0 < cut < end <= input.len()`, both on character boundaries.
///
/// ```
/// use spinneret_html::{probe_chunk_costs, ParseOptions};
/// let page = "<html><body><main>".to_string() + &"<p>a <b>b</b></p>".repeat(100) + "</main>";
/// let cut = page.len() / 2;
/// let cut = cut + page[cut..].find("<p>").unwrap();
/// let costs = probe_chunk_costs(&page, cut, page.len(), &ParseOptions::default()).unwrap();
/// assert_eq!(costs.rejection, None);
/// assert!(costs.adopt.is_some() && costs.nodes > 100);
/// ```
pub fn probe_chunk_costs(
    input: &str,
    cut: usize,
    end: usize,
    options: &ParseOptions,
) -> Option<ChunkCosts> {
    let inside = 0 < cut && cut < end && end <= input.len();
    if !inside || !input.is_char_boundary(cut) || !input.is_char_boundary(end) {
        return None;
    }
    let chunk_end = &input[..end];
    let source = Arc::new(input.to_owned());
    let sink = DomSink::sharing(Arc::clone(&source), false);
    let mut builder = TreeBuilder::new(sink, options.scripting, false);
    builder.sink.doc.reserve_for_input(input.len());
    let began = Instant::now();
    let mut core = step_prefix(|| super::probe::parse_to_cut(&mut builder, input, cut, options));
    let prefix = began.elapsed();
    // The document at the cut, with the room a parse reserves (a clone has
    // none: the adoption would copy it).
    let mut at_cut = builder.sink.doc.clone();
    at_cut.reserve_for_input(input.len());
    let mut costs = ChunkCosts {
        prefix,
        rest: Duration::ZERO,
        guess: Duration::ZERO,
        chunk_scan: Duration::ZERO,
        build: Duration::ZERO,
        validate: Duration::ZERO,
        adopt: None,
        rejection: None,
        nodes: 0,
    };
    // The worker's part.
    let stop = AtomicBool::new(false);
    let began = Instant::now();
    let prepared =
        step_guess(|| tree_speculation::prepare(input, &source, cut, options, false, &stop));
    costs.guess = began.elapsed();
    let began = Instant::now();
    step_chunk_scan(|| {
        super::end_tag_scan::unmatched_end_tags(chunk_end, cut, options.scripting, || false)
    });
    costs.chunk_scan = began.elapsed();
    let built = prepared.map(|(prepared, guess)| {
        let began = Instant::now();
        let built = step_build(|| tree_speculation::run(prepared, chunk_end, &stop));
        costs.build = began.elapsed();
        (built, guess)
    });
    // The calling thread's, at the cut.
    let boundary = core.pos == cut && core.boundary_mode() == TextMode::Data;
    match built {
        _ if !boundary => costs.rejection = Some(TreeRejection::Tokenizer),
        Err(Unbuilt::Rejected(why)) | Ok((Err(Unbuilt::Rejected(why)), _)) => {
            costs.rejection = Some(why);
        }
        Err(Unbuilt::Stopped) | Ok((Err(Unbuilt::Stopped), _)) => {
            unreachable!("nothing stops the worker here")
        }
        Ok((Ok(tree), guess)) => {
            costs.nodes = tree.node_count();
            let began = Instant::now();
            let adoptable =
                step_validate(|| tree_speculation::adoptable(&builder, &core, cut, &guess));
            costs.validate = began.elapsed();
            match adoptable {
                Err(why) => costs.rejection = Some(why),
                Ok(stand_ins) => {
                    let mut doc = at_cut;
                    let began = Instant::now();
                    step_adopt(|| doc.adopt_speculated(tree, &stand_ins, guess.last_stand_in));
                    costs.adopt = Some(began.elapsed());
                }
            }
        }
    }
    // The rest, sequentially from the true state (where the calling
    // thread is: at the cut, or past it inside a token).
    let began = Instant::now();
    step_rest(|| drive(&mut builder, &mut core, chunk_end, true));
    costs.rest = began.elapsed();
    Some(costs)
}

/// The step functions (module doc): each runs its closure, and is a
/// function callgrind can name.
macro_rules! steps {
    ($($step:ident),*) => {$(
        #[inline(never)]
        fn $step<R>(run: impl FnOnce() -> R) -> R {
            std::hint::black_box(run())
        }
    )*};
}

steps!(
    step_prefix,
    step_guess,
    step_chunk_scan,
    step_build,
    step_validate,
    step_adopt,
    step_rest
);
