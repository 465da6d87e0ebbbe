//! Parquet files written from Arrow record batches, streamed to a run's
//! output: `links --format parquet` (its own writer, which filters
//! `--unique`), `index --format parquet` and `text --format parquet`
//! ([`BatchWriter`]).
//!
//! The Arrow writer encodes into a buffer of its own, which is passed on
//! to the run's output after every batch: so the output needs no `Send`
//! or `Seek` (a pipe will do), and what is held is the row group being
//! encoded ([`ROW_GROUP_ROWS`] rows at most) plus the batch being filled.
//!
//! The writer is behind the `parquet` cargo feature (on by default): a
//! build without it (`--no-default-features`, a minute quicker from cold)
//! has no Parquet writer, and `--format parquet` says so
//! (`ParquetOutError::NotBuilt`).
//!
//! [`BatchWriter`] writes any record batches of one schema: columns
//! zstd-compressed, statistics kept for every column (a reader prunes row
//! groups by `url_surtkey` or `url_host_registered_domain`), their
//! min/max values cut at [`STATISTICS_TRUNCATE`] bytes so a long URL is
//! not kept whole.

use std::io;

use crate::error::Error;
pub use crate::error::ParquetOutError;

/// A string cell of an Arrow column read from Parquet (`Utf8`,
/// `LargeUtf8` or `Utf8View`); `None` for a null or another type.
pub fn string_cell(a: &dyn arrow_array::Array, row: usize) -> Option<String> {
    use arrow_array::cast::AsArray;
    use arrow_schema::DataType;
    if a.is_null(row) {
        return None;
    }
    match a.data_type() {
        DataType::Utf8 => Some(a.as_string::<i32>().value(row).to_owned()),
        DataType::LargeUtf8 => Some(a.as_string::<i64>().value(row).to_owned()),
        DataType::Utf8View => Some(a.as_string_view().value(row).to_owned()),
        _ => None,
    }
}

/// Rows per row group: about 10–20 MB of links before compression, so a
/// reader can skip and parallelize over a crawl's file, and the writer
/// holds one row group at a time.
pub const ROW_GROUP_ROWS: usize = 1 << 17;

/// A streamed page's rows are written every this many rows.
pub const STREAM_BATCH_ROWS: usize = 1 << 16;

/// A streamed page's rows are written once they hold this many bytes.
pub const STREAM_BATCH_BYTES: usize = 32 << 20;

/// Whether a Parquet write went out: `Ok(false)` when the output was
/// closed (a closed pipe ends the run quietly, as for lines).
pub fn parquet_written(r: Result<(), ParquetOutError>) -> Result<bool, Error> {
    match r {
        Ok(()) => Ok(true),
        Err(ParquetOutError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(false),
        Err(ParquetOutError::Io(e)) => Err(Error::Output(e)),
        Err(e) => Err(Error::Parquet(e)),
    }
}

#[cfg(feature = "parquet")]
pub use with_parquet::BatchWriter;
#[cfg(not(feature = "parquet"))]
pub use without_parquet::BatchWriter;

/// The longest min/max statistic kept, in bytes (per page and per column
/// chunk).
#[cfg_attr(not(feature = "parquet"), allow(dead_code))]
pub const STATISTICS_TRUNCATE: usize = 64;

#[cfg(feature = "parquet")]
mod with_parquet {
    use std::io::Write;

    use arrow_array::RecordBatch;
    use arrow_schema::SchemaRef;
    use parquet::arrow::ArrowWriter;
    use parquet::basic::{Compression, ZstdLevel};
    use parquet::file::properties::WriterProperties;

    use super::STATISTICS_TRUNCATE;
    use super::{ParquetOutError, ROW_GROUP_ROWS};

    /// A Parquet file being written from record batches of one schema.
    pub struct BatchWriter {
        writer: ArrowWriter<Vec<u8>>,
        rows: u64,
    }

    impl std::fmt::Debug for BatchWriter {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("BatchWriter")
                .field("rows", &self.rows)
                .finish_non_exhaustive()
        }
    }

    impl BatchWriter {
        /// A new file of `schema` (nothing written yet: the header goes
        /// out with the first row group).
        pub fn new(schema: SchemaRef) -> Result<BatchWriter, ParquetOutError> {
            Self::with_row_group_bytes(schema, None)
        }

        /// A new file of `schema` whose row groups also end once their
        /// encoded size passes `bytes` (for rows of long text, where
        /// [`ROW_GROUP_ROWS`] rows would be held in memory as a gigabyte).
        pub fn with_row_group_bytes(
            schema: SchemaRef,
            bytes: Option<usize>,
        ) -> Result<BatchWriter, ParquetOutError> {
            let props = WriterProperties::builder()
                .set_created_by(format!("spinneret {}", env!("CARGO_PKG_VERSION")))
                .set_compression(Compression::ZSTD(ZstdLevel::default()))
                .set_statistics_truncate_length(Some(STATISTICS_TRUNCATE))
                .set_column_index_truncate_length(Some(STATISTICS_TRUNCATE))
                .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
                .set_max_row_group_bytes(bytes.filter(|&b| b > 0))
                .build();
            Ok(BatchWriter {
                writer: ArrowWriter::try_new(Vec::new(), schema, Some(props))?,
                rows: 0,
            })
        }

        /// Writes `batch` (of the file's schema), passing what is encoded
        /// on to `out`.
        pub fn write(
            &mut self,
            batch: &RecordBatch,
            out: &mut dyn Write,
        ) -> Result<(), ParquetOutError> {
            if batch.num_rows() > 0 {
                self.writer.write(batch)?;
                self.rows += batch.num_rows() as u64;
                self.pass_on(out)?;
            }
            Ok(())
        }

        /// The rows written so far.
        pub fn rows(&self) -> u64 {
            self.rows
        }

        /// Writes the last row group and the footer.
        pub fn finish(mut self, out: &mut dyn Write) -> Result<(), ParquetOutError> {
            self.writer.finish()?;
            self.pass_on(out)?;
            out.flush()?;
            Ok(())
        }

        /// Passes the bytes the writer has encoded on to `out`.
        fn pass_on(&mut self, out: &mut dyn Write) -> Result<(), ParquetOutError> {
            // The writer counts the bytes it wrote itself (for the footer's
            // offsets), so taking them out of its buffer changes nothing.
            let buf = self.writer.inner_mut();
            out.write_all(buf)?;
            buf.clear();
            Ok(())
        }
    }
}

#[cfg(not(feature = "parquet"))]
mod without_parquet {
    use std::io::Write;

    use arrow_array::RecordBatch;
    use arrow_schema::SchemaRef;

    use super::ParquetOutError;

    /// No Parquet file (the `parquet` feature is off).
    #[derive(Debug)]
    pub enum BatchWriter {}

    impl BatchWriter {
        /// Always the error that says how to get a Parquet writer.
        pub fn new(_: SchemaRef) -> Result<BatchWriter, ParquetOutError> {
            Err(ParquetOutError::NotBuilt)
        }

        /// Always the error that says how to get a Parquet writer.
        pub fn with_row_group_bytes(
            _: SchemaRef,
            _: Option<usize>,
        ) -> Result<BatchWriter, ParquetOutError> {
            Err(ParquetOutError::NotBuilt)
        }

        /// Unreachable: there is no `BatchWriter`.
        pub fn write(&mut self, _: &RecordBatch, _: &mut dyn Write) -> Result<(), ParquetOutError> {
            match *self {}
        }

        /// Unreachable: there is no `BatchWriter`.
        pub fn rows(&self) -> u64 {
            match *self {}
        }

        /// Unreachable: there is no `BatchWriter`.
        pub fn finish(self, _: &mut dyn Write) -> Result<(), ParquetOutError> {
            match self {}
        }
    }
}

#[cfg(all(test, feature = "parquet"))]
mod tests {
    use std::sync::Arc;

    use arrow_array::{ArrayRef, Int32Array, RecordBatch, StringArray};
    use arrow_schema::{DataType, Field, Schema};

    use super::BatchWriter;

    #[test]
    fn batches_become_one_file_of_their_rows() {
        let schema = Arc::new(Schema::new(vec![
            Field::new("url", DataType::Utf8, false),
            Field::new("n", DataType::Int32, true),
        ]));
        let batch = |urls: &[&str], n: &[Option<i32>]| {
            let cols: Vec<ArrayRef> = vec![
                Arc::new(StringArray::from(urls.to_vec())),
                Arc::new(Int32Array::from(n.to_vec())),
            ];
            RecordBatch::try_new(schema.clone(), cols).unwrap()
        };
        let mut out = Vec::new();
        let mut w = BatchWriter::new(schema.clone()).unwrap();
        w.write(
            &batch(&["http://a/", "http://b/"], &[Some(1), None]),
            &mut out,
        )
        .unwrap();
        w.write(&batch(&[], &[]), &mut out).unwrap();
        w.write(&batch(&[&"x".repeat(1000)], &[Some(3)]), &mut out)
            .unwrap();
        assert_eq!(w.rows(), 3);
        w.finish(&mut out).unwrap();
        let path =
            std::env::temp_dir().join(format!("spinneret-batches-{}.parquet", std::process::id()));
        std::fs::write(&path, &out).unwrap();
        let file = std::fs::File::open(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let reader =
            parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
        // The long value's statistics are cut.
        let meta = reader.metadata().clone();
        let stats = meta.row_group(0).column(0).statistics().unwrap();
        assert!(stats.max_bytes_opt().unwrap().len() <= super::STATISTICS_TRUNCATE);
        let batches: Vec<RecordBatch> = reader.build().unwrap().map(Result::unwrap).collect();
        let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
        assert_eq!(rows, 3);
        assert_eq!(batches[0].schema().fields(), schema.fields());
    }
}
