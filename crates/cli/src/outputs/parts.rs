//! The Parquet output of a `--resume` run: a Parquet file of its own (a
//! *part*) for the rows between two checkpoints, in the resume folder, and
//! at the end one file joined from the parts.
//!
//! Why parts: a Parquet file's footer lists every row group, so a file cut
//! back to a checkpoint cannot be written on; a finished part can be kept
//! as it is. The join copies each part's column chunks byte for byte
//! (their pages are not decoded or encoded again) into one file, with the
//! parts' page indexes, under the first part's schema and key-value
//! metadata: so the row groups of the output are the parts' row groups,
//! and the same parts give the same file.
//!
//! Invariants: parts are numbered from 0 in the order of their rows
//! (`NNNNNN.parquet`); the first [`Parts::count`] are whole and synced to
//! disk, a later one is the part being written (or one cut by a stop, which
//! [`Parts::open`] removes).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::resume::sync_file;
use crate::columnar::ParquetOutError;

/// The parts of a resumable run's Parquet output.
#[derive(Debug)]
pub struct Parts {
    dir: PathBuf,
    /// Whole parts.
    count: usize,
    /// The part being written.
    current: BufWriter<File>,
}

impl Parts {
    /// The parts in the folder `dir` (made if missing): the first `count`
    /// kept, any other removed, and the next one started.
    pub fn open(dir: PathBuf, count: usize) -> io::Result<Parts> {
        std::fs::create_dir_all(&dir)?;
        for entry in std::fs::read_dir(&dir)? {
            let path = entry?.path();
            let number = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<usize>().ok());
            if number.is_none_or(|n| n >= count) {
                std::fs::remove_file(&path)?;
            }
        }
        let current = BufWriter::new(File::create(part(&dir, count))?);
        Ok(Parts {
            dir,
            count,
            current,
        })
    }

    /// Whole parts.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The part being written.
    pub fn out(&mut self) -> &mut dyn Write {
        &mut self.current
    }

    /// The part being written is whole (its footer written): it is synced
    /// and counted, and the next one started.
    pub fn seal(&mut self) -> io::Result<()> {
        self.current.flush()?;
        sync_file(&part(&self.dir, self.count))?;
        self.count += 1;
        self.current = BufWriter::new(File::create(part(&self.dir, self.count))?);
        Ok(())
    }

    /// Writes the whole parts to `out` as one Parquet file.
    pub fn join(&self, out: &mut dyn Write) -> Result<(), ParquetOutError> {
        let paths: Vec<PathBuf> = (0..self.count).map(|n| part(&self.dir, n)).collect();
        join(&paths, out)
    }
}

/// The parts, shared between the sink's writer (which writes the part being
/// written, through [`PartsOut`]) and its checkpoints (which seal it).
pub type SharedParts = std::rc::Rc<std::cell::RefCell<Parts>>;

/// The Parquet parts of the resume folder of `resume`, the first `whole`
/// kept ([`Parts::open`]), shared.
pub fn shared_in(
    resume: &super::resume::Resume,
    whole: usize,
) -> Result<SharedParts, crate::Error> {
    let dir = resume.file("parts");
    let parts = Parts::open(dir.clone(), whole).map_err(|source| crate::Error::ResumeFile {
        path: dir.display().to_string(),
        source,
    })?;
    Ok(std::rc::Rc::new(std::cell::RefCell::new(parts)))
}

/// Seals the part being written of shared `parts` ([`Parts::seal`]), an
/// error naming the part.
pub fn seal(parts: &SharedParts) -> Result<(), crate::Error> {
    let mut parts = parts.borrow_mut();
    let path = part(&parts.dir, parts.count);
    parts.seal().map_err(|source| crate::Error::ResumeFile {
        path: path.display().to_string(),
        source,
    })
}

/// A writer into the part being written.
#[derive(Debug)]
pub struct PartsOut(pub SharedParts);

impl Write for PartsOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().current.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.0.borrow_mut().current.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().current.flush()
    }
}

/// The path of part `n` in `dir`.
fn part(dir: &Path, n: usize) -> PathBuf {
    dir.join(format!("{n:06}.parquet"))
}

/// Joins the Parquet files `paths` (at least one; of one schema) into one
/// written to `out`: their row groups in order, copied as they are.
#[cfg(feature = "parquet")]
fn join(paths: &[PathBuf], out: &mut dyn Write) -> Result<(), ParquetOutError> {
    use std::sync::Arc;

    use parquet::column::writer::ColumnCloseResult;
    use parquet::file::metadata::{PageIndexPolicy, ParquetMetaDataReader};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;

    // The writer encodes into its own buffer, passed on to `out` after
    // each row group (as `columnar`'s writers do).
    let pass_on = |w: &mut SerializedFileWriter<Vec<u8>>, out: &mut dyn Write| {
        let buf = w.inner_mut();
        let r = out.write_all(buf);
        buf.clear();
        r
    };
    let mut writer: Option<SerializedFileWriter<Vec<u8>>> = None;
    for path in paths {
        let file = File::open(path)?;
        let meta = ParquetMetaDataReader::new()
            .with_page_index_policy(PageIndexPolicy::Optional)
            .parse_and_finish(&file)?;
        let w = match &mut writer {
            Some(w) => w,
            None => {
                let first = meta.file_metadata();
                let mut props = WriterProperties::builder()
                    .set_key_value_metadata(first.key_value_metadata().cloned());
                if let Some(by) = first.created_by() {
                    props = props.set_created_by(by.to_owned());
                }
                let schema = first.schema_descr().root_schema_ptr();
                writer.insert(SerializedFileWriter::new(
                    Vec::new(),
                    schema,
                    Arc::new(props.build()),
                )?)
            }
        };
        for (g, group) in meta.row_groups().iter().enumerate() {
            let mut rows = w.next_row_group()?;
            for (c, column) in group.columns().iter().enumerate() {
                let close = ColumnCloseResult {
                    bytes_written: column.compressed_size() as u64,
                    rows_written: group.num_rows() as u64,
                    metadata: column.clone(),
                    bloom_filter: None,
                    column_index: meta.column_index().map(|ci| ci[g][c].clone()),
                    offset_index: meta.offset_index().map(|oi| oi[g][c].clone()),
                };
                rows.append_column(&file, close)?;
            }
            rows.close()?;
            pass_on(w, out)?;
        }
    }
    if let Some(mut w) = writer {
        w.finish()?;
        pass_on(&mut w, out)?;
    }
    out.flush()?;
    Ok(())
}

/// No Parquet writer in this build: nothing to join.
#[cfg(not(feature = "parquet"))]
fn join(_: &[PathBuf], _: &mut dyn Write) -> Result<(), ParquetOutError> {
    Err(ParquetOutError::NotBuilt)
}

#[cfg(all(test, feature = "parquet"))]
mod tests {
    use std::sync::Arc;

    use arrow_array::{Int64Array, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use super::*;
    use crate::columnar::BatchWriter;
    use crate::inputs::source::tmpdir;

    #[test]
    fn parts_join_into_one_file_of_their_row_groups_and_a_cut_part_goes() {
        let d = tmpdir("parts");
        let schema = Arc::new(Schema::new(vec![
            Field::new("n", DataType::Int64, false),
            Field::new("s", DataType::Utf8, false),
        ]));
        let batch = |from: i64, n: i64| {
            let ns: Vec<i64> = (from..from + n).collect();
            let ss: Vec<String> = ns.iter().map(|n| format!("row {n}")).collect();
            RecordBatch::try_new(
                schema.clone(),
                vec![
                    Arc::new(Int64Array::from(ns)),
                    Arc::new(StringArray::from(ss)),
                ],
            )
            .unwrap()
        };
        let mut parts = Parts::open(d.join("parts"), 0).unwrap();
        for (from, n) in [(0, 3), (3, 5)] {
            let mut w = BatchWriter::new(schema.clone()).unwrap();
            w.write(&batch(from, n), parts.out()).unwrap();
            w.finish(parts.out()).unwrap();
            parts.seal().unwrap();
        }
        // A part cut by a stop: removed when the parts are opened again.
        parts.out().write_all(b"PAR1 and no more").unwrap();
        parts.current.flush().unwrap();
        let parts = Parts::open(d.join("parts"), 2).unwrap();
        assert_eq!(std::fs::read_dir(d.join("parts")).unwrap().count(), 3);
        let mut joined = Vec::new();
        parts.join(&mut joined).unwrap();
        std::fs::write(d.join("joined.parquet"), &joined).unwrap();
        let file = File::open(d.join("joined.parquet")).unwrap();
        let reader = ParquetRecordBatchReaderBuilder::try_new(file)
            .unwrap()
            .build()
            .unwrap();
        let mut ns = Vec::new();
        let mut groups = 0;
        for b in reader {
            let b = b.unwrap();
            groups += 1;
            let col = b.column(0).as_any().downcast_ref::<Int64Array>().unwrap();
            ns.extend(col.values().iter().copied());
        }
        assert_eq!(ns, (0..8).collect::<Vec<_>>());
        assert!(groups >= 1);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
