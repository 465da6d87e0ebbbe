//! What a text run did, and its exit code.

use crate::driver::Status;

/// The result of a text run.
#[derive(Debug, Clone, Copy)]
pub struct TextResult {
    /// How the run ended.
    pub status: Status,
    /// WARC/ARC records read (damaged ones not included).
    pub records: u64,
    /// Pages written (selected records and HTML files).
    pub pages: u64,
    /// Records skipped: not HTML, no payload, another status or type.
    pub skipped: u64,
    /// Damaged records (and HTML files over the size limit), skipped.
    pub damaged: u64,
    /// Inputs that could not be read.
    pub unreadable: u64,
}

impl TextResult {
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
