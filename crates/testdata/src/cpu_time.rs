//! Per-thread CPU time, for scaling checks that hold still when other
//! processes load the machine.
//!
//! Wall-clock time counts the time a thread waits for a core, which on a
//! shared CI machine can be most of it; the CPU time a thread has consumed
//! does not move with the load (only with cache contention, which the tests'
//! minimum-of-several-runs and generous ratios absorb). The standard library
//! has no thread CPU clock, so this reads POSIX's (`clock_gettime` with
//! `CLOCK_THREAD_CPUTIME_ID`, and `pthread_getcpuclockid` for another
//! thread's clock) through `libc`. Linux only, where both exist.
//!
//! The module's two `unsafe` calls each pass only valid, writable locals.

#![allow(unsafe_code)]

use std::os::unix::thread::JoinHandleExt;
use std::thread::JoinHandle;
use std::time::Duration;

/// The CPU time consumed by the thread of `clock`, or `None` when the clock
/// cannot be read (its thread has ended).
fn read(clock: libc::clockid_t) -> Option<Duration> {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable `timespec` for the call's duration;
    // an invalid or stale clock id makes the call fail, which is checked.
    let status = unsafe { libc::clock_gettime(clock, &mut now) };
    (status == 0).then(|| Duration::new(now.tv_sec as u64, now.tv_nsec as u32))
}

/// The CPU time the calling thread has consumed so far.
///
/// # Panics
/// When the thread CPU clock cannot be read (it always can on Linux).
pub fn current_thread() -> Duration {
    read(libc::CLOCK_THREAD_CPUTIME_ID).expect("the calling thread's CPU clock")
}

/// The CPU time all the process's threads have consumed so far (those that
/// have ended included): less [`current_thread`]'s, what the other threads
/// did, e.g. a parallel parse's workers.
///
/// # Panics
/// When the process CPU clock cannot be read (it always can on Linux).
pub fn process() -> Duration {
    read(libc::CLOCK_PROCESS_CPUTIME_ID).expect("the process's CPU clock")
}

/// The CPU clock of another thread, read while that thread runs (e.g. by a
/// watcher that abandons a run over its CPU-time budget).
pub struct ThreadClock(libc::clockid_t);

impl ThreadClock {
    /// The clock of the thread `handle` refers to (which must not have been
    /// joined), or `None` when that thread has already ended.
    pub fn of<T>(handle: &JoinHandle<T>) -> Option<ThreadClock> {
        let mut clock: libc::clockid_t = 0;
        // SAFETY: `as_pthread_t` names a thread that has not been joined
        // (the caller holds its handle), and `clock` is a valid, writable
        // `clockid_t`; failure (the thread has ended) is checked.
        let status = unsafe { libc::pthread_getcpuclockid(handle.as_pthread_t(), &mut clock) };
        (status == 0).then_some(ThreadClock(clock))
    }

    /// The CPU time the thread has consumed so far (`None` once it has
    /// ended).
    pub fn now(&self) -> Option<Duration> {
        read(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    /// Spins until the calling thread has used `d` of CPU time.
    fn burn(d: Duration) {
        let start = current_thread();
        while current_thread() - start < d {
            std::hint::black_box(());
        }
    }

    #[test]
    fn clocks_count_the_work_of_their_thread() {
        let start = current_thread();
        burn(Duration::from_millis(5));
        assert!(current_thread() - start >= Duration::from_millis(5));

        // Another thread's clock, read while it waits after 20 ms of work:
        // at least those 20 ms, however long this thread took to look.
        let (worked, worked_rx) = mpsc::channel();
        let (stop, stop_rx) = mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            burn(Duration::from_millis(20));
            worked.send(()).unwrap();
            stop_rx.recv().ok();
        });
        let clock = ThreadClock::of(&worker).expect("the worker is running");
        worked_rx.recv().unwrap();
        let used = clock.now().expect("the worker has not ended");
        assert!(used >= Duration::from_millis(20), "{used:?}");
        stop.send(()).unwrap();
        worker.join().unwrap();
    }

    #[test]
    fn the_process_clock_counts_every_thread() {
        let start = process();
        let own = current_thread();
        std::thread::spawn(|| burn(Duration::from_millis(20)))
            .join()
            .unwrap();
        burn(Duration::from_millis(5));
        let others = (process() - start).saturating_sub(current_thread() - own);
        assert!(others >= Duration::from_millis(20), "{others:?}");
    }
}
