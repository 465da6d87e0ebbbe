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

use std::io;

use crate::Error;

mod batches;
pub use batches::BatchWriter;

/// Rows per row group: about 10–20 MB of links before compression, so a
/// reader can skip and parallelize over a crawl's file, and the writer
/// holds one row group at a time.
pub const ROW_GROUP_ROWS: usize = 1 << 17;

/// A streamed page's rows are written every this many rows.
pub const STREAM_BATCH_ROWS: usize = 1 << 16;

/// A streamed page's rows are written once they hold this many bytes.
pub const STREAM_BATCH_BYTES: usize = 32 << 20;

/// Why a Parquet file could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ParquetOutError {
    /// Writing the bytes to the output failed (a closed pipe included).
    #[error("output")]
    Io(#[from] io::Error),
    /// The Arrow writer failed.
    #[cfg(feature = "parquet")]
    #[error("parquet")]
    Parquet(#[from] parquet::errors::ParquetError),
    /// This binary was built without the `parquet` feature.
    #[cfg(not(feature = "parquet"))]
    #[error(
        "this spinneret was built without Parquet (cargo feature `parquet`, on by default): rebuild without --no-default-features"
    )]
    NotBuilt,
    /// A batch could not be built or filtered.
    #[error("arrow")]
    Arrow(#[from] arrow_schema::ArrowError),
}

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
