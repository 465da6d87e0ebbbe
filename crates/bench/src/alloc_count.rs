//! A counting wrapper around the bench binary's global allocator, for the
//! `tree` benchmark's memory columns: how many heap bytes a parser holds at
//! its peak while parsing one page, and how many the finished DOM keeps.
//!
//! What is counted: the sizes callers request (`Layout::size`), not what the
//! allocator rounds them up to nor its own bookkeeping, so the figures
//! compare data structures rather than allocators. A `realloc` counts as
//! the difference between the new and the old size (whether the block moved
//! or grew in place).
//!
//! Counting is off unless a [`Counting`] guard is alive: then every
//! allocation and deallocation updates two process-wide counters (bytes
//! live since the guard started, and their peak). With counting off the
//! wrapper costs one relaxed atomic load per call, so the timed passes of
//! every benchmark run at the inner allocator's speed. The counters are
//! global: measure only while one thread allocates (the benchmark measures
//! single-threaded parsers). Bytes freed under a guard that were allocated
//! before it started make the live count fall below zero; a parse frees only
//! what it allocated, so that does not happen there.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

/// Whether a [`Counting`] guard is alive.
static ENABLED: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed since the guard started.
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The largest value `LIVE` has had since the guard started.
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// `inner`, counting the bytes requested of it while a [`Counting`] guard is
/// alive.
pub struct CountingAlloc<A> {
    inner: A,
}

impl<A> CountingAlloc<A> {
    /// Wraps `inner`.
    pub const fn new(inner: A) -> CountingAlloc<A> {
        CountingAlloc { inner }
    }
}

/// Adds `delta` bytes to the live count (when counting) and raises the peak.
#[inline]
fn record(delta: isize) {
    if ENABLED.load(Relaxed) {
        let live = LIVE.fetch_add(delta, Relaxed) + delta;
        PEAK.fetch_max(live, Relaxed);
    }
}

/// A byte count as the counters' signed type (a `Layout` size never exceeds
/// `isize::MAX`).
fn signed(bytes: usize) -> isize {
    isize::try_from(bytes).unwrap_or(isize::MAX)
}

// SAFETY: every method forwards to `inner` with the caller's arguments
// unchanged and returns its result unchanged, so `inner`'s guarantees are
// ours; the counting around the calls neither allocates nor touches the
// blocks.
unsafe impl<A: GlobalAlloc> GlobalAlloc for CountingAlloc<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc`'s contract for `layout`.
        let p = unsafe { self.inner.alloc(layout) };
        if !p.is_null() {
            record(signed(layout.size()));
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller upholds `alloc_zeroed`'s contract for `layout`.
        let p = unsafe { self.inner.alloc_zeroed(layout) };
        if !p.is_null() {
            record(signed(layout.size()));
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller passes a block this allocator (hence `inner`)
        // returned, with the layout it was allocated with.
        unsafe { self.inner.dealloc(ptr, layout) };
        record(-signed(layout.size()));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller passes a block of `inner` with its layout and a
        // valid new size, as `realloc`'s contract requires.
        let p = unsafe { self.inner.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            record(signed(new_size) - signed(layout.size()));
        }
        p
    }
}

/// Heap bytes seen by a [`Counting`] guard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Bytes allocated and not yet freed since the guard started.
    pub live: usize,
    /// The most bytes live at any moment since the guard started.
    pub peak: usize,
}

/// Counting is on while this is alive; it starts from zero.
pub struct Counting(());

impl Counting {
    /// Resets the counters and turns counting on.
    pub fn start() -> Counting {
        LIVE.store(0, Relaxed);
        PEAK.store(0, Relaxed);
        ENABLED.store(true, Relaxed);
        Counting(())
    }

    /// The bytes live now and at the peak so far (a negative live count,
    /// which only frees of older blocks can cause, reads as zero).
    pub fn usage(&self) -> Usage {
        let bytes = |v: isize| usize::try_from(v).unwrap_or(0);
        Usage {
            live: bytes(LIVE.load(Relaxed)),
            peak: bytes(PEAK.load(Relaxed)),
        }
    }
}

impl Drop for Counting {
    fn drop(&mut self) {
        ENABLED.store(false, Relaxed);
    }
}
