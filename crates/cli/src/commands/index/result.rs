//! What an index run did, and its exit code.

use crate::driver::Status;

/// The result of an index run.
#[derive(Debug, Clone, Copy)]
pub struct IndexResult {
    /// How the run ended.
    pub status: Status,
    /// Records read.
    pub records: u64,
    /// Lines written.
    pub lines: u64,
    /// Damaged records skipped.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
    /// Records written with decompressed offsets (not seekable).
    pub unseekable: u64,
}

impl IndexResult {
    /// 2 for a strict stop; 1 when a record was damaged or an input
    /// unreadable; else 0.
    pub fn exit_code(&self) -> u8 {
        match self.status {
            Status::Strict => 2,
            _ if self.damaged + self.unreadable > 0 => 1,
            _ => 0,
        }
    }
}
