//! A WARC file read with its gzip members inflated by the workers, so that
//! the thread that reads records does little more than cut them.
//!
//! Inflating is most of what reading a gzip WARC costs (on the benchmark
//! WARC, 1,200 M of the reading thread's 1,320 M instructions), and one
//! thread inflates about as fast as two workers extract: with the reading
//! thread inflating, a run stops scaling at about two workers. Here:
//!
//! - a *splitter* thread is the only reader of the file. It reads blocks
//!   of [`BLOCK`] bytes, cuts them into candidate members
//!   ([`spinneret_warc::ahead::Splitter`]), queues the inflation of each
//!   block's candidates as one [`Urgent`] job, and sends the reading thread
//!   first their slots (where each result will arrive), then the block's
//!   bytes, on one bounded channel ([`Piece`]);
//! - the workers run urgent jobs before each item they process, and an idle
//!   pool runs them at once (each job is also spawned on the pool), so
//!   inflation is never queued behind a batch;
//! - the reading thread reads records with
//!   [`Reader::from_read_ahead`](spinneret_warc::Reader::from_read_ahead)
//!   over the same bytes ([`AheadRead`]); when it is about to inflate a
//!   member, [`AheadSlots`] hands it the slot's result for the same start
//!   and length, waiting for the job if it is still running.
//!
//! Why the output is the same: the reader's input is exactly the file's
//! bytes (the splitter forwards every byte it reads, and its read error, in
//! order), and every result it takes was computed by `MemberInflater` on
//! the candidate's bytes, which are those same bytes at the same offsets —
//! the contract of `Prefetch`, under which the reader yields the records
//! and errors it yields without a prefetch (see `spinneret_warc::ahead`).
//!
//! Why it cannot deadlock: the reading thread waits only on the channel
//! (the splitter sends until the file ends, blocking only while the
//! channel is full, which the reading thread is then not waiting on) and
//! on a job that is queued: jobs wait for nothing, and the pool runs them
//! whether or not a batch is in flight. A slot is sent before the bytes
//! that end its candidate (the next magic), and the last one before the
//! end of the file, so when the reader has cut a member, the slot for it,
//! if any, has arrived.
//!
//! Memory: the channel holds at most [`blocks_ahead`] blocks and their
//! slots; results wait only for slots the reader has not yet passed.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::rc::Rc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel};
use std::sync::{Arc, Mutex};

use spinneret_warc::Options;
use spinneret_warc::ahead::{Ahead, Candidate, MemberInflater, Prefetch, Splitter, member_cap};

/// The splitter reads the file in blocks of this size.
pub const BLOCK: usize = 256 << 10;

/// Blocks the splitter may read ahead of the reading thread: enough to
/// keep every worker inflating while the reader catches up.
pub fn blocks_ahead(threads: usize) -> usize {
    (2 * threads).max(4)
}

/// The pool a run's workers are, and their urgent queue: what reading a
/// file ahead needs.
#[derive(Clone, Copy)]
pub struct Workers<'p> {
    /// The workers.
    pub pool: &'p rayon::ThreadPool,
    /// The jobs they run first.
    pub urgent: &'p Arc<Urgent>,
}

impl Workers<'_> {
    /// Reads `file` (by a splitter thread of `scope`) with its gzip members
    /// inflated by the workers: the reader's input and prefetch.
    pub fn read_ahead<'scope, 'env>(
        self,
        scope: &'scope std::thread::Scope<'scope, 'env>,
        file: impl Read + Send + 'scope,
        opts: Options,
    ) -> (AheadRead, AheadSlots)
    where
        Self: 'scope,
    {
        let (tx, rx) =
            std::sync::mpsc::sync_channel(2 * blocks_ahead(self.pool.current_num_threads()));
        let (pool, urgent) = (self.pool, self.urgent);
        scope.spawn(move || split(file, opts, pool, urgent, &tx));
        reading_end(rx, &opts)
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// Jobs the workers run before any item of a batch: the inflation the
/// reading thread waits for.
#[derive(Default)]
pub struct Urgent {
    jobs: Mutex<VecDeque<Job>>,
    queued: AtomicUsize,
}

impl Urgent {
    /// Queues `job`, and has the pool run it if no worker does first.
    pub fn push(self: &Arc<Self>, pool: &rayon::ThreadPool, job: Job) {
        self.lock().push_back(job);
        self.queued.fetch_add(1, Ordering::Release);
        let me = Arc::clone(self);
        pool.spawn(move || {
            me.run_one();
        });
    }

    /// Runs every queued job (on the calling worker).
    pub fn run_all(&self) {
        while self.run_one() {}
    }

    /// Runs one queued job, if there is one.
    fn run_one(&self) -> bool {
        if self.queued.load(Ordering::Acquire) == 0 {
            return false;
        }
        let job = self.lock().pop_front();
        match job {
            Some(job) => {
                self.queued.fetch_sub(1, Ordering::Release);
                job();
                true
            }
            None => false,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Job>> {
        // A job never runs under the lock, so a panicking job cannot
        // poison it; recover anyway.
        self.jobs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Where a candidate member's inflated output arrives.
pub struct Slot {
    start: u64,
    len: usize,
    result: Receiver<Option<Vec<u8>>>,
}

/// What the splitter sends the reading thread, in file order.
pub enum Piece {
    /// Candidate members, sent before the bytes that end them.
    Slots(Vec<Slot>),
    /// The next bytes of the file.
    Bytes(Arc<Vec<u8>>),
    /// Reading the file failed here; nothing follows.
    Error(io::Error),
}

/// A candidate member's bytes: a range of one block the splitter read, or,
/// for a member across blocks, a copy.
enum MemberBytes {
    Shared(Arc<Vec<u8>>, std::ops::Range<usize>),
    Owned(Vec<u8>),
}

impl MemberBytes {
    fn bytes(&self) -> &[u8] {
        match self {
            MemberBytes::Shared(block, range) => &block[range.clone()],
            MemberBytes::Owned(bytes) => bytes,
        }
    }
}

/// The blocks a splitter still needs for candidates, from file offset
/// `from` on.
#[derive(Default)]
struct Held {
    blocks: VecDeque<Arc<Vec<u8>>>,
    from: u64,
}

impl Held {
    /// The bytes `start..start + len`, which the held blocks must hold.
    fn bytes(&self, start: u64, len: usize) -> Option<MemberBytes> {
        let mut at = self.from;
        let mut i = 0;
        while at + self.blocks.get(i)?.len() as u64 <= start {
            at += self.blocks[i].len() as u64;
            i += 1;
        }
        let offset = usize::try_from(start - at).ok()?;
        let first = &self.blocks[i];
        if offset + len <= first.len() {
            return Some(MemberBytes::Shared(Arc::clone(first), offset..offset + len));
        }
        let mut bytes = Vec::with_capacity(len);
        bytes.extend_from_slice(&first[offset..]);
        for block in self.blocks.iter().skip(i + 1) {
            let want = len - bytes.len();
            bytes.extend_from_slice(&block[..want.min(block.len())]);
            if bytes.len() == len {
                break;
            }
        }
        (bytes.len() == len).then_some(MemberBytes::Owned(bytes))
    }

    /// Drops the blocks wholly before `offset`.
    fn drop_before(&mut self, offset: u64) {
        while let Some(first) = self.blocks.front() {
            let end = self.from + first.len() as u64;
            if end > offset {
                break;
            }
            self.from = end;
            self.blocks.pop_front();
        }
    }
}

/// The splitter: reads `file` to its end (or until the reading thread hangs
/// up), sending its bytes and candidate members on `tx` and queuing their
/// inflation on `urgent`.
pub fn split(
    mut file: impl Read,
    opts: Options,
    pool: &rayon::ThreadPool,
    urgent: &Arc<Urgent>,
    tx: &SyncSender<Piece>,
) {
    let mut splitter = Splitter::new(&opts);
    let mut candidates = Vec::new();
    let mut held = Held::default();
    let mut pos = 0u64;
    loop {
        let mut block = Vec::with_capacity(BLOCK);
        let read = (&mut file).take(BLOCK as u64).read_to_end(&mut block);
        let block = Arc::new(block);
        if block.is_empty() && matches!(read, Ok(0)) {
            splitter.finish(&mut candidates);
        } else {
            splitter.push(&block, &mut candidates);
        }
        pos += block.len() as u64;
        if !block.is_empty() {
            held.blocks.push_back(Arc::clone(&block));
        }
        if !send_slots(&mut candidates, &held, opts, pool, urgent, tx) {
            return;
        }
        // A magic may begin in the last two bytes.
        held.drop_before(splitter.open_from().unwrap_or(pos.saturating_sub(2)));
        if !block.is_empty() && tx.send(Piece::Bytes(block)).is_err() {
            return;
        }
        match read {
            Err(e) => {
                let _ = tx.send(Piece::Error(e));
                return;
            }
            Ok(0) => return,
            Ok(_) => {}
        }
    }
}

/// Sends a slot for each of `candidates` (their bytes in `held`) and
/// queues their inflation as one job; false when the reading thread hung
/// up.
fn send_slots(
    candidates: &mut Vec<Candidate>,
    held: &Held,
    opts: Options,
    pool: &rayon::ThreadPool,
    urgent: &Arc<Urgent>,
    tx: &SyncSender<Piece>,
) -> bool {
    if candidates.is_empty() {
        return true;
    }
    let mut work = Vec::with_capacity(candidates.len());
    let mut slots = Vec::with_capacity(candidates.len());
    for c in candidates.drain(..) {
        // The splitter's candidates lie in the held blocks.
        let Some(bytes) = held.bytes(c.start, c.len) else {
            continue;
        };
        let (done, result) = channel();
        slots.push(Slot {
            start: c.start,
            len: c.len,
            result,
        });
        work.push((bytes, done));
    }
    if tx.send(Piece::Slots(slots)).is_err() {
        return false;
    }
    urgent.push(
        pool,
        Box::new(move || {
            let mut inflater = MemberInflater::new(&opts);
            for (bytes, done) in work {
                // The reader may have hung up: nothing to do then.
                let _ = done.send(inflater.inflate(bytes.bytes()));
            }
        }),
    );
    true
}

/// The reading thread's end of the channel, shared by [`AheadRead`] and
/// [`AheadSlots`].
struct Shared {
    rx: Receiver<Piece>,
    block: Arc<Vec<u8>>,
    at: usize,
    /// File offset of the next byte [`AheadRead`] hands out.
    read: u64,
    slots: VecDeque<Slot>,
    /// Slots ending more than this far behind `read` can no longer be
    /// asked for (the reader's window is smaller) and are dropped.
    behind: u64,
}

/// The file's bytes, as the splitter read them.
pub struct AheadRead(Rc<RefCell<Shared>>);

/// The candidates' results, for [`Reader::from_read_ahead`](spinneret_warc::Reader::from_read_ahead).
pub struct AheadSlots(Rc<RefCell<Shared>>);

/// The reading thread's side of a splitter sending on the other end of
/// `rx`.
pub fn reading_end(rx: Receiver<Piece>, opts: &Options) -> (AheadRead, AheadSlots) {
    let shared = Rc::new(RefCell::new(Shared {
        rx,
        block: Arc::default(),
        at: 0,
        read: 0,
        slots: VecDeque::new(),
        behind: 2 * member_cap(opts) as u64 + 2 * BLOCK as u64,
    }));
    (AheadRead(Rc::clone(&shared)), AheadSlots(shared))
}

impl Read for AheadRead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let mut s = self.0.borrow_mut();
        loop {
            if s.at < s.block.len() {
                let n = out.len().min(s.block.len() - s.at);
                out[..n].copy_from_slice(&s.block[s.at..s.at + n]);
                s.at += n;
                s.read += n as u64;
                return Ok(n);
            }
            match s.rx.recv() {
                Ok(Piece::Bytes(block)) => {
                    s.block = block;
                    s.at = 0;
                }
                Ok(Piece::Slots(slots)) => {
                    let horizon = s.read.saturating_sub(s.behind);
                    while s
                        .slots
                        .front()
                        .is_some_and(|f| f.start + (f.len as u64) < horizon)
                    {
                        s.slots.pop_front();
                    }
                    s.slots.extend(slots);
                }
                Ok(Piece::Error(e)) => return Err(e),
                // The file ended.
                Err(_) => return Ok(0),
            }
        }
    }
}

impl Prefetch for AheadSlots {
    fn take(&mut self, start: u64, len: usize) -> Ahead {
        let mut s = self.0.borrow_mut();
        while s.slots.front().is_some_and(|f| f.start <= start) {
            let slot = s.slots.pop_front().expect("front exists");
            if slot.start == start && slot.len == len {
                return match slot.result.recv() {
                    Ok(Some(output)) => Ahead::Output(output),
                    Ok(None) => Ahead::Rejected,
                    // The job was lost (it cannot be, but then): inflate here.
                    Err(_) => Ahead::NotDone,
                };
            }
        }
        Ahead::NotDone
    }
}
