//! Timing whole passes over a dataset, and formatting the results.
//!
//! Why whole passes: one URL parse takes tens to hundreds of nanoseconds,
//! which is close to the cost and resolution of reading the clock, so timing
//! each URL would measure the clock. Timing a pass over every URL of a dataset
//! and dividing by the count does not.
//!
//! Why the best (minimum) pass rather than the mean: the benchmark machine has
//! two cores shared with other builds, and interference only ever adds time.
//! The fastest pass is the one least disturbed, so it is the most repeatable
//! estimate of what the code itself costs. A warm-up pass first brings the
//! data into cache, grows the allocator's pools and trains the branch
//! predictors, so that the first timed pass is not penalized for setup that a
//! long-running crawler pays only once.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// How long to keep repeating a kernel.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Keep repeating until the timed passes add up to at least this long...
    pub min_total: Duration,
    /// ...and at least this many passes were timed.
    pub min_reps: u32,
    /// Never more than this many passes (guards tiny datasets).
    pub max_reps: u32,
    /// Whether to run an untimed warm-up pass first.
    pub warm_up: bool,
}

impl Plan {
    /// The default: a warm-up, then at least 3 passes and at least 0.5 s.
    pub const THOROUGH: Plan = Plan {
        min_total: Duration::from_millis(500),
        min_reps: 3,
        max_reps: 1_000_000,
        warm_up: true,
    };

    /// `--quick`: a warm-up and a single timed pass (a smoke test for CI; the
    /// numbers are indicative only).
    pub const QUICK: Plan = Plan {
        min_total: Duration::ZERO,
        min_reps: 1,
        max_reps: 1,
        warm_up: true,
    };
}

/// The result of timing one kernel on one dataset.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    /// Best (minimum) time of one pass, divided by the number of items.
    pub ns_per_item: f64,
    /// How many passes were timed.
    pub reps: u32,
    /// What the kernel returned (for the benchmarks here: how many items
    /// succeeded), so that the caller can report it.
    pub result: usize,
}

impl Timing {
    /// Items per second at the best pass's speed.
    pub fn items_per_sec(&self) -> f64 {
        if self.ns_per_item > 0.0 {
            1e9 / self.ns_per_item
        } else {
            f64::INFINITY
        }
    }
}

/// Times `pass`, which processes `items` items, according to `plan`.
///
/// `pass` returns a summary value (e.g. a success count); it goes through
/// [`black_box`] so that the pass cannot be optimized away.
pub fn measure(plan: Plan, items: usize, mut pass: impl FnMut() -> usize) -> Timing {
    let mut result = 0;
    if plan.warm_up {
        result = black_box(pass());
    }
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    let mut reps = 0u32;
    while reps < plan.max_reps && (reps < plan.min_reps || total < plan.min_total) {
        let start = Instant::now();
        result = black_box(pass());
        let elapsed = start.elapsed();
        best = best.min(elapsed);
        total += elapsed;
        reps += 1;
    }
    Timing {
        ns_per_item: best.as_nanos() as f64 / items.max(1) as f64,
        reps,
        result,
    }
}

/// Nanoseconds with about three significant digits: `7.42`, `74.2`, `742`.
pub fn fmt_ns(ns: f64) -> String {
    if ns < 10.0 {
        format!("{ns:.2}")
    } else if ns < 100.0 {
        format!("{ns:.1}")
    } else {
        format!("{ns:.0}")
    }
}

/// A rate in items per second, scaled: `12.3 M`, `850 k` (the caller
/// appends the unit, e.g. `URLs/s`).
pub fn fmt_rate(per_sec: f64) -> String {
    if per_sec >= 1e6 {
        format!("{:.2} M", per_sec / 1e6)
    } else if per_sec >= 1e3 {
        format!("{:.1} k", per_sec / 1e3)
    } else {
        format!("{per_sec:.0}")
    }
}

/// A time ratio `other / ours` (above 1: ours is faster).
pub fn fmt_ratio(other_ns: f64, ours_ns: f64) -> String {
    if ours_ns > 0.0 {
        format!("{:.2}", other_ns / ours_ns)
    } else {
        "n/a".to_string()
    }
}

/// A byte count, scaled: `2.09 MiB`.
pub fn fmt_bytes(bytes: usize) -> String {
    let b = bytes as f64;
    if b >= 1024.0 * 1024.0 {
        format!("{:.2} MiB", b / (1024.0 * 1024.0))
    } else if b >= 1024.0 {
        format!("{:.1} KiB", b / 1024.0)
    } else {
        format!("{bytes} B")
    }
}
