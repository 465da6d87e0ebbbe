//! The index job: one item to its result on a worker — a record's
//! [`Entry`] (its line's fields), or the problem to report.

use std::sync::Arc;

use spinneret_index::entry::{Entry, IndexOptions, Placement};

use crate::driver::Job;
use crate::inputs::Item;

/// One item's result.
pub enum Done {
    /// A record's entry (None: a record that gets no line and joins
    /// nothing, which still separates its neighbours).
    Record {
        /// The input file's name.
        file: Arc<str>,
        /// The entry, or why the record has none it should have.
        entry: Option<Result<Box<Entry>, String>>,
        /// The record's offset in the file.
        offset: u64,
    },
    /// Damage or an unreadable input, for stderr.
    Problem {
        /// `bad record` or `cannot read`.
        what: &'static str,
        /// The message (`FILE: offset N: what`).
        msg: String,
        /// The damage's file and offset (none for an unreadable input).
        at: Option<(Arc<str>, u64)>,
    },
}

/// The index job.
pub struct IndexJob {
    /// Which records get a line, and which fields.
    pub opts: IndexOptions,
}

impl Job for IndexJob {
    type Done = Done;

    fn process(&self, item: Item) -> Done {
        match item {
            Item::Record {
                file,
                record,
                end,
                container,
            } => {
                let placement = Placement {
                    offset: record.offset,
                    end,
                    stream_offset: record.stream_offset,
                    stored_len: record.stored_len,
                    container,
                    starts_member: record.starts_member,
                    ends_member: record.ends_member,
                };
                let entry = Entry::of(&record, placement, &self.opts)
                    .map(|r| r.map(Box::new).map_err(|e| e.to_string()));
                Done::Record {
                    file,
                    entry,
                    offset: record.offset,
                }
            }
            Item::Bad { file, what, offset } => Done::Problem {
                at: offset.map(|o| (file.clone(), o)),
                what: "bad record",
                // The reader's message names the offset.
                msg: format!("{file}: {what}"),
            },
            Item::Unreadable { file, what } => Done::Problem {
                at: None,
                what: "cannot read",
                msg: format!("{file}: {what}"),
            },
            Item::Page { file, .. } => Done::Problem {
                at: None,
                what: "bad record",
                msg: format!("{file}: an HTML page, not a WARC/ARC record: not indexed"),
            },
        }
    }
}
