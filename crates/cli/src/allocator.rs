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

use std::alloc::{GlobalAlloc, Layout};
use std::ffi::{c_long, c_void};

/// mimalloc as a global allocator, through its plain entry points for
/// every layout its blocks already satisfy.
///
/// Why: the `mimalloc` crate's `MiMalloc` calls `mi_malloc_aligned` (and
/// `mi_realloc_aligned`, `mi_zalloc_aligned`) for every layout, whose
/// alignment checks cost about 54 instructions an allocation against
/// about 20 for `mi_malloc` (callgrind, `spinneret-bench kernel spinneret
/// ada_kasztp`: one exact-size allocation per parsed URL). Nearly every
/// allocation of the pipeline is a byte buffer (alignment 1) or a vector
/// of word-sized values. Every mimalloc block is aligned to at least
/// [`PLAIN_ALIGN`] bytes (its smallest size class is a word, and size
/// classes are word multiples from an aligned page start), so a layout
/// whose alignment is at most that gets `mi_malloc`; any other goes through
/// the aligned entry points as before. `mi_free` frees both.
pub struct MiMalloc;

/// The alignment every block `mi_malloc` returns has: a word.
pub const PLAIN_ALIGN: usize = std::mem::size_of::<usize>();

// SAFETY: each method returns what mimalloc returns for a request of the
// layout's size with at least its alignment (plain entry points only when
// `layout.align() <= PLAIN_ALIGN`, which every mimalloc block satisfies),
// or null on failure; `dealloc` and `realloc` receive only pointers these
// methods returned, which `mi_free` and `mi_realloc(_aligned)` accept.
unsafe impl GlobalAlloc for MiMalloc {
    #[inline]
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: mimalloc's allocation functions accept any size; the
        // alignment is a power of two (a `Layout`'s always is).
        unsafe {
            if layout.align() <= PLAIN_ALIGN {
                libmimalloc_sys::mi_malloc(layout.size()).cast()
            } else {
                libmimalloc_sys::mi_malloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        unsafe {
            if layout.align() <= PLAIN_ALIGN {
                libmimalloc_sys::mi_zalloc(layout.size()).cast()
            } else {
                libmimalloc_sys::mi_zalloc_aligned(layout.size(), layout.align()).cast()
            }
        }
    }

    #[inline]
    unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
        // SAFETY: `ptr` came from this allocator (the caller's contract),
        // that is from mimalloc.
        unsafe { libmimalloc_sys::mi_free(ptr.cast::<c_void>()) }
    }

    #[inline]
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with `layout` (the
        // caller's contract); the result keeps the alignment as `alloc`
        // chose it.
        unsafe {
            if layout.align() <= PLAIN_ALIGN {
                libmimalloc_sys::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                libmimalloc_sys::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

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

    /// Every alignment from 1 to 4096, with sizes around it, allocated,
    /// zero-allocated, grown and shrunk: each pointer has its alignment,
    /// zeroed memory reads zero, and contents survive a reallocation.
    #[test]
    fn every_alignment_is_honoured() {
        let a = MiMalloc;
        for shift in 0..=12 {
            let align = 1usize << shift;
            for size in [1, 3, 7, 8, 9, 15, 16, 17, 24, 100, 4096, 70_000] {
                let layout = Layout::from_size_align(size, align).unwrap();
                // SAFETY: `layout` has a non-zero size; each pointer is
                // used within its layout's size and freed once, with the
                // layout it was allocated with.
                unsafe {
                    let p = a.alloc(layout);
                    assert!(!p.is_null());
                    assert_eq!(p as usize % align, 0, "alloc {size}/{align}");
                    p.write_bytes(0xA5, size);
                    let grown = a.realloc(p, layout, size * 3);
                    assert_eq!(grown as usize % align, 0, "realloc {size}/{align}");
                    assert!((0..size).all(|i| *grown.add(i) == 0xA5));
                    let grown_layout = Layout::from_size_align(size * 3, align).unwrap();
                    let shrunk = a.realloc(grown, grown_layout, size);
                    assert_eq!(shrunk as usize % align, 0, "shrink {size}/{align}");
                    assert!((0..size).all(|i| *shrunk.add(i) == 0xA5));
                    a.dealloc(shrunk, layout);
                    let z = a.alloc_zeroed(layout);
                    assert_eq!(z as usize % align, 0, "zalloc {size}/{align}");
                    assert!((0..size).all(|i| *z.add(i) == 0));
                    a.dealloc(z, layout);
                }
            }
        }
    }

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
