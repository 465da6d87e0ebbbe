//! Per-thread CPU time, for scaling checks that hold still when other
//! processes load the machine.
//!
//! Wall-clock time counts the time a thread waits for a core, which on a
//! shared CI machine can be most of it; the CPU time a thread has consumed
//! does not move with the load (only with cache contention, which generous
//! ratios absorb). The standard library has no thread CPU clock, so this
//! declares the two POSIX functions it needs (64-bit Linux, where the
//! clock ids and `struct timespec` below are fixed by the ABI); the tests
//! that use it are compiled for that target only.

use std::os::unix::thread::{JoinHandleExt, RawPthread};
use std::thread::JoinHandle;
use std::time::Duration;

/// `struct timespec` on 64-bit Linux.
#[repr(C)]
struct Timespec {
    tv_sec: i64,
    tv_nsec: i64,
}

/// `CLOCK_THREAD_CPUTIME_ID` on Linux.
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

unsafe extern "C" {
    fn clock_gettime(clock: i32, now: *mut Timespec) -> i32;
    fn pthread_getcpuclockid(thread: RawPthread, clock: *mut i32) -> i32;
}

/// The CPU time consumed by the clock's thread, or `None` when the clock
/// cannot be read (its thread has ended).
fn read(clock: i32) -> Option<Duration> {
    let mut now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable `struct timespec` for the call's
    // duration; an invalid clock id makes the call fail, which is checked.
    let status = unsafe { clock_gettime(clock, &mut now) };
    (status == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// The CPU time the calling thread has consumed.
pub fn current_thread() -> Duration {
    read(CLOCK_THREAD_CPUTIME_ID).expect("the calling thread's CPU clock")
}

/// The CPU clock of another thread, read while that thread runs.
pub struct ThreadClock(i32);

impl ThreadClock {
    /// The clock of the thread `handle` refers to (which must not have been
    /// joined), or `None` when that thread has already ended.
    pub fn of<T>(handle: &JoinHandle<T>) -> Option<ThreadClock> {
        let mut clock = 0;
        // SAFETY: `as_pthread_t` names a thread that has not been joined
        // (we hold its handle), and `clock` is a valid, writable `i32`.
        let status = unsafe { pthread_getcpuclockid(handle.as_pthread_t(), &mut clock) };
        (status == 0).then_some(ThreadClock(clock))
    }

    /// The CPU time the thread has consumed so far (`None` once it has
    /// ended).
    pub fn now(&self) -> Option<Duration> {
        read(self.0)
    }
}
