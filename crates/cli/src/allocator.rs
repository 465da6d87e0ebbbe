//! The binaries' allocator: mimalloc, with freed memory kept for reuse.
//!
//! Why: the pipeline allocates and frees payload-sized buffers (record
//! bodies, decoded text, rendered output) on several threads. By default
//! mimalloc returns memory that stays free for a few milliseconds to the OS
//! ("purging"), and the next batch faults it back in, zeroed by the kernel.
//! On the 534 MiB benchmark WARC that showed as `clear_page_erms` at 14 % of
//! the profile and system time swinging from 0.07 s to 1.08 s between runs
//! of the same command; with purging off, system time stays under 0.1 s.
//! Peak memory is still bounded: it is the pipeline's own peak (a few
//! batches in flight), which mimalloc then keeps instead of returning.
//!
//! The `spinneret` binary and the benchmark binary (whose in-process rows
//! measure what users run) call [`keep_freed_memory`] first thing in `main`.
//! Library users choose their own allocator; nothing here is needed by the
//! library code.

use std::ffi::c_long;

/// `mi_option_purge_delay` in `mimalloc.h` (both the v2 and the v3 sources
/// bundled by `libmimalloc-sys` number it 15; `libmimalloc-sys` does not
/// export the constant). "Memory purging is delayed by N milliseconds; use 0
/// for immediate purging or -1 for no purging at all." The v3 default is
/// 1000 (`src/options.c`).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Tells mimalloc never to return freed memory to the OS, so that buffers
/// freed by one batch are reused by the next without page faults.
///
/// Call it at the start of `main`, before any thread is spawned: mimalloc's
/// option setter is not thread-safe.
pub fn keep_freed_memory() {
    // SAFETY: `mi_option_set` stores an integer in mimalloc's option table;
    // any option number below `_mi_option_last` is valid, and 15 is
    // `mi_option_purge_delay` (see the constant). Its one precondition, no
    // concurrent option access, is this function's documented contract
    // (callers run it before spawning threads).
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1 as c_long) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The option number is the purge delay: it starts at the v3 default,
    /// 1000 milliseconds (unless `MIMALLOC_PURGE_DELAY` is set), and after
    /// the call it reads back as -1.
    #[test]
    fn purge_delay_is_turned_off() {
        // SAFETY: reads one integer from mimalloc's option table. This test
        // binary does not allocate through mimalloc, and no other test
        // touches its options, so nothing accesses them concurrently.
        let before = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
            assert_eq!(before, 1000);
        }
        keep_freed_memory();
        // SAFETY: as above.
        let after = unsafe { libmimalloc_sys::mi_option_get(MI_OPTION_PURGE_DELAY) };
        assert_eq!(after, -1);
    }
}
