//! The index sink: in input order, joins requests to their responses,
//! settles each record's byte range ([`Settler`]), renders its line and
//! hands it on ([`Lines`]: straight out, to the external sort, or into
//! cc-index rows for Parquet); at the end, the sorted lines out or into a
//! ZipNum cluster.

use std::collections::HashSet;
use std::io::{self, BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use spinneret_index::cc_columns::CcColumns;
use spinneret_index::entry::Entry;
use spinneret_index::line::{self, CDX11_HEADER, Range};
use spinneret_index::ordered::{Settled, Settler};
use spinneret_index::sort::{ExternalSorter, SortError};
use spinneret_index::zipnum::{ZipNumOptions, ZipNumWriter};

use super::args::{IndexArgs, IndexFormat};
use super::job::Done;
use super::result::IndexResult;
use super::resume::IndexResume;
use crate::Error;
use crate::columnar::{self, BatchWriter, STREAM_BATCH_BYTES, STREAM_BATCH_ROWS};
use crate::driver::{Flow, Report, Sink, Status};
use crate::outputs;
use crate::outputs::pending::PendingDir;

/// Where lines go.
pub enum Lines<'o> {
    /// Straight out, in input order.
    Direct(BufWriter<&'o mut dyn Write>),
    /// Into the external sort (then out, or into a ZipNum cluster).
    Sorted(ExternalSorter, &'o mut dyn Write),
    /// Into cc-index rows, written as Parquet in input order (boxed: the
    /// builders and the writer are large).
    Parquet(Box<(CcColumns, BatchWriter)>, &'o mut dyn Write),
}

/// The index sink: the line being made, the joins, the counts.
pub struct IndexSink<'a, 'o> {
    pub(super) args: &'a IndexArgs,
    pub(super) lines: Lines<'o>,
    pub(super) line: String,
    /// Joins and seekability, in input order.
    pub(super) settler: Settler<Arc<str>>,
    /// Files reported as not seekable.
    pub(super) warned: HashSet<Arc<str>>,
    pub(super) result: IndexResult,
    /// A `--resume` run's files.
    pub(super) resume: Option<IndexResume<'a>>,
    /// The run goes on from a checkpoint (the CDX header is written).
    pub(super) resumed: bool,
}

impl IndexSink<'_, '_> {
    /// The `filename` field of `file`.
    fn filename(&self, file: &str) -> String {
        if let Some(f) = &self.args.filename {
            return f.clone();
        }
        let path = Path::new(file);
        if let Some(root) = &self.args.dir_root
            && let Ok(rel) = path.strip_prefix(root)
        {
            return rel.to_string_lossy().replace('\\', "/");
        }
        path.file_name()
            .map_or_else(|| file.to_owned(), |n| n.to_string_lossy().into_owned())
    }

    /// Writes the line of `e` (settled: it gets one) at `range`.
    fn emit(
        &mut self,
        file: &Arc<str>,
        e: &Entry,
        range: Range,
        report: &mut Report<'_>,
    ) -> Result<Flow, Error> {
        if let Range::Decompressed(..) = range {
            self.result.unseekable += 1;
            if self.warned.insert(file.clone()) {
                let msg = format!(
                    "{file}: records share gzip members (a whole-file gzip?): replay cannot seek to them; \
                     their lines carry decompressed offsets, marked \"offset-kind\": \"decompressed\""
                );
                if let Flow::Stop(s) = report.problem("not seekable", &msg) {
                    return Ok(Flow::Stop(s));
                }
            }
        }
        let name = self.filename(file);
        if let Lines::Parquet(parquet, out) = &mut self.lines {
            let (cols, writer) = &mut **parquet;
            if let Err(why) = cols.push(e, &name, range, None) {
                self.result.damaged += 1;
                let msg = format!("{file}: offset {}: {why}", e.placement.offset);
                return Ok(report.problem("bad record", &msg));
            }
            self.result.lines += 1;
            if cols.len() >= STREAM_BATCH_ROWS || cols.bytes() >= STREAM_BATCH_BYTES {
                let batch = cols.finish().map_err(|e| Error::Parquet(e.into()))?;
                if !columnar::parquet_written(writer.write(&batch, &mut **out))? {
                    return Ok(Flow::Stop(Status::OutputClosed));
                }
            }
            return Ok(Flow::Go);
        }
        self.line.clear();
        match self.args.format {
            IndexFormat::Cdxj => line::cdxj(&mut self.line, e, &name, range),
            IndexFormat::Cdx11 => line::cdx11(&mut self.line, e, &name, range),
            IndexFormat::Parquet => unreachable!("parquet rows are not lines"),
        }
        self.result.lines += 1;
        match &mut self.lines {
            Lines::Direct(w) => match w.write_all(self.line.as_bytes()) {
                Ok(()) => Ok(Flow::Go),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    Ok(Flow::Stop(Status::OutputClosed))
                }
                Err(e) => Err(Error::Output(e)),
            },
            Lines::Parquet(..) => Ok(Flow::Go),
            Lines::Sorted(s, _) => {
                let l = self.line.strip_suffix('\n').unwrap_or(&self.line);
                s.push(l.as_bytes())
                    .map_err(|e| Error::Index(e.to_string()))?;
                Ok(Flow::Go)
            }
        }
    }

    /// Writes the lines of settled entries, in order.
    fn emit_all(
        &mut self,
        settled: Settled<Arc<str>>,
        report: &mut Report<'_>,
    ) -> Result<Flow, Error> {
        for (file, e, range) in settled {
            if let Flow::Stop(s) = self.emit(&file, &e, range, report)? {
                return Ok(Flow::Stop(s));
            }
        }
        Ok(Flow::Go)
    }
}

impl Sink<Done> for IndexSink<'_, '_> {
    fn begin(&mut self) -> Result<Flow, Error> {
        if self.args.format == IndexFormat::Cdx11
            && self.args.zipnum.is_none()
            && !self.resumed
            && let Lines::Direct(w) = &mut self.lines
        {
            return match writeln!(w, "{CDX11_HEADER}") {
                Ok(()) => Ok(Flow::Go),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                    Ok(Flow::Stop(Status::OutputClosed))
                }
                Err(e) => Err(Error::Output(e)),
            };
        }
        Ok(Flow::Go)
    }

    fn write(&mut self, done: Done, report: &mut Report<'_>) -> Result<Flow, Error> {
        let (file, entry, offset) = match done {
            Done::Problem { what, msg, at } => {
                if what == "cannot read" {
                    self.result.unreadable += 1;
                } else {
                    self.result.damaged += 1;
                }
                if let Flow::Stop(s) = report.problem(what, &msg) {
                    return Ok(Flow::Stop(s));
                }
                // Damage separates the records around it.
                let settled = match at {
                    Some((file, offset)) => self.settler.damage(file, offset),
                    None => self.settler.separate(),
                };
                return self.emit_all(settled, report);
            }
            Done::Record {
                file,
                entry,
                offset,
            } => (file, entry, offset),
        };
        self.result.records += 1;
        let entry = match entry {
            None => None,
            Some(Err(what)) => {
                self.result.damaged += 1;
                let msg = format!("{file}: offset {offset}: {what}");
                if let Flow::Stop(s) = report.problem("bad record", &msg) {
                    return Ok(Flow::Stop(s));
                }
                // A damaged record separates its neighbours as any
                // record without an entry does.
                None
            }
            Some(Ok(e)) => Some(*e),
        };
        let settled = self.settler.record(file, offset, entry);
        self.emit_all(settled, report)
    }

    fn input_done(&mut self, bytes: u64, report: &mut Report<'_>) -> Result<Flow, Error> {
        // The records of two inputs are never joined or neighbours.
        let settled = self.settler.separate();
        if let Flow::Stop(s) = self.emit_all(settled, report)? {
            return Ok(Flow::Stop(s));
        }
        if let Some(r) = &mut self.resume
            && r.due(bytes)
        {
            // Everything out: the lines flushed, the sorted runs
            // persisted, or the Parquet part sealed; then the journal.
            match &mut self.lines {
                Lines::Direct(w) => w.flush().map_err(Error::Output)?,
                Lines::Sorted(sorter, _) => r.persist(sorter)?,
                Lines::Parquet(parquet, out) => r.seal(parquet, &mut **out)?,
            }
            r.checkpoint(&self.result)?;
        }
        Ok(Flow::Go)
    }

    fn end(&mut self, report: &mut Report<'_>) -> Result<Flow, Error> {
        let settled = self.settler.finish();
        self.emit_all(settled, report)
    }

    fn progress(&self, secs: f64) -> Option<String> {
        Some(format!(
            "{:.0} records/s",
            self.result.records as f64 / secs
        ))
    }
}

impl Lines<'_> {
    /// Ends the output after the run (which ended with `status`): flushes
    /// the lines, finishes the Parquet file, or writes the sorted lines
    /// (only after a complete run); the run's final status.
    pub fn finish(self, args: &IndexArgs, status: Status) -> Result<Status, Error> {
        match self {
            Lines::Direct(mut w) => {
                if status != Status::OutputClosed && !outputs::flush(&mut w)? {
                    return Ok(Status::OutputClosed);
                }
            }
            Lines::Parquet(parquet, out) if status != Status::OutputClosed => {
                let (mut cols, mut writer) = *parquet;
                let r = (|| {
                    let batch = cols.finish()?;
                    writer.write(&batch, out)?;
                    writer.finish(out)
                })();
                if !columnar::parquet_written(r)? {
                    return Ok(Status::OutputClosed);
                }
            }
            Lines::Parquet(..) => {}
            Lines::Sorted(sorter, out) if status == Status::Complete => {
                return finish_sorted(args, sorter, out);
            }
            Lines::Sorted(..) => {}
        }
        Ok(status)
    }
}

/// Writes the sorted lines out, or into a ZipNum cluster.
fn finish_sorted(
    args: &IndexArgs,
    sorter: ExternalSorter,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    let index_err = |e: String| Error::Index(e);
    if let Some(dir) = &args.zipnum {
        // Built under a temporary name beside DIR, put in place at the
        // end: DIR never holds half a cluster.
        let cluster = dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| PendingDir::create(dir))
            .map_err(|source| Error::Input {
                path: dir.display().to_string(),
                source,
            })?;
        let mut z = ZipNumWriter::create(
            cluster.temporary(),
            ZipNumOptions {
                lines_per_block: args.lines.max(1),
                shard_bytes: args.shard_size,
                name: args.cluster_name.clone(),
                ..ZipNumOptions::default()
            },
        )
        .map_err(|e| index_err(e.to_string()))?;
        let mut failed = None;
        sorter
            .finish(&mut |l| {
                z.push(l).map_err(|e| {
                    let msg = e.to_string();
                    failed = Some(msg.clone());
                    io::Error::other(msg)
                })
            })
            .map_err(|e| index_err(failed.clone().unwrap_or_else(|| e.to_string())))?;
        z.finish().map_err(|e| index_err(e.to_string()))?;
        // The `.loc` and the `.idx` make the shards usable: last.
        let name = &args.cluster_name;
        let last = [format!("{name}.loc"), format!("{name}.idx")];
        cluster
            .commit(&[&last[0], &last[1]])
            .map_err(|source| Error::Commit {
                path: dir.display().to_string(),
                source,
            })?;
        return Ok(Status::Complete);
    }
    let mut w = BufWriter::with_capacity(1 << 16, out);
    if args.format == IndexFormat::Cdx11
        && !outputs::write(&mut w, format!("{CDX11_HEADER}\n").as_bytes())?
    {
        return Ok(Status::OutputClosed);
    }
    let r = sorter.finish(&mut |l| {
        w.write_all(l)?;
        w.write_all(b"\n")
    });
    let r = r
        .map(|_| ())
        .and_then(|()| w.flush().map_err(SortError::Sink));
    match r {
        Ok(()) => Ok(Status::Complete),
        Err(SortError::Sink(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            Ok(Status::OutputClosed)
        }
        Err(SortError::Sink(e)) => Err(Error::Output(e)),
        Err(e) => Err(index_err(e.to_string())),
    }
}
