//! The Parquet writer of `links --format parquet` (the `parquet` feature):
//! the links in Arrow batches of `spinneret_columns::schema` (the schema of
//! the Python package's `warc_links`), `--unique` applied to each batch.
//!
//! Invariant: the rows, their order and `--unique`'s choice are those of
//! the JSON Lines output of the same run.

use std::io::Write;

use arrow_array::{BooleanArray, RecordBatch};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;
use spinneret_canon::KeyHash;
use spinneret_columns::{LinkColumns, LinkFields, schema};

use super::format::Unique;
use crate::columnar::{ParquetOutError, ROW_GROUP_ROWS, STREAM_BATCH_BYTES, STREAM_BATCH_ROWS};

/// The columns written without statistics: the others (`error`, `tag`,
/// `attr`, `kind`, `offset`, `status`) hold short values.
const TEXT_WITHOUT_STATISTICS: [&str; 6] = ["source", "target", "raw", "rel", "text", "record"];

/// The Parquet file being written: the Arrow writer, and the rows of a
/// page streamed by the writing thread.
pub struct ParquetOut {
    writer: ArrowWriter<Vec<u8>>,
    /// A streamed page's rows not yet written.
    stream: LinkColumns,
    /// Rows written.
    rows: u64,
}

impl std::fmt::Debug for ParquetOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ParquetOut")
            .field("stream", &self.stream)
            .finish_non_exhaustive()
    }
}

impl ParquetOut {
    /// A new file (nothing written yet: the header goes out with the first
    /// row group).
    pub fn new() -> Result<ParquetOut, ParquetOutError> {
        let props = WriterProperties::builder()
            .set_created_by(format!("spinneret {}", env!("CARGO_PKG_VERSION")))
            .set_compression(Compression::ZSTD(ZstdLevel::default()));
        // No min/max statistics for the columns of unbounded text (URLs,
        // anchor text): they would keep whole copies of the longest
        // values (a 50 MB link cost 215 MB more), for little pruning.
        let props = TEXT_WITHOUT_STATISTICS.iter().fold(props, |p, name| {
            p.set_column_statistics_enabled(ColumnPath::from(*name), EnabledStatistics::None)
        });
        let props = props
            .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
            .build();
        Ok(ParquetOut {
            writer: ArrowWriter::try_new(Vec::new(), schema(), Some(props))?,
            stream: LinkColumns::new(),
            rows: 0,
        })
    }

    /// Writes `batch`, without the rows whose `--unique` key was seen when
    /// `unique` is given (`keys`: one per row); returns the rows written.
    pub fn write(
        &mut self,
        batch: &RecordBatch,
        unique: Option<(&mut Unique, &[KeyHash])>,
        out: &mut dyn Write,
    ) -> Result<usize, ParquetOutError> {
        let filtered;
        let batch = match unique {
            Some((seen, keys)) => {
                let fresh: BooleanArray = keys.iter().map(|&k| Some(seen.first(k))).collect();
                filtered = arrow_select::filter::filter_record_batch(batch, &fresh)?;
                &filtered
            }
            None => batch,
        };
        if batch.num_rows() > 0 {
            self.writer.write(batch)?;
            self.rows += batch.num_rows() as u64;
            self.pass_on(out)?;
        }
        Ok(batch.num_rows())
    }

    /// The rows taken so far (written, or streamed and held).
    pub fn rows(&self) -> u64 {
        self.rows + self.stream.rows() as u64
    }

    /// Writes the streamed rows held (`--unique` was applied as they came).
    pub fn write_stream(&mut self, out: &mut dyn Write) -> Result<(), ParquetOutError> {
        if self.stream.rows() > 0 {
            let batch = self.stream.finish()?;
            self.write(&batch, None, out)?;
        }
        Ok(())
    }

    /// Holds one row of a streamed page.
    pub fn push_streamed(&mut self, fields: &LinkFields<'_>) {
        self.stream.push(fields);
    }

    /// Whether the streamed rows held are due to be written.
    pub fn stream_full(&self) -> bool {
        self.stream.rows() >= STREAM_BATCH_ROWS || self.stream.bytes() >= STREAM_BATCH_BYTES
    }

    /// Writes the last row group and the footer.
    pub fn finish(mut self, out: &mut dyn Write) -> Result<(), ParquetOutError> {
        self.write_stream(out)?;
        self.writer.finish()?;
        self.pass_on(out)
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
