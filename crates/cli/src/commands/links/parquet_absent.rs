//! `--format parquet` in a build without the `parquet` feature: no file
//! can be made, and [`ParquetOut::new`] says so. The type has no value, so
//! nothing else of it can run.

use std::io::Write;

use arrow_array::RecordBatch;
use spinneret_canon::KeyHash;
use spinneret_columns::LinkFields;

use super::format::Unique;
use crate::columnar::ParquetOutError;

/// No Parquet file (the `parquet` feature is off).
#[derive(Debug)]
pub enum ParquetOut {}

impl ParquetOut {
    /// Always the error that says how to get a Parquet writer.
    pub fn new() -> Result<ParquetOut, ParquetOutError> {
        Err(ParquetOutError::NotBuilt)
    }

    /// Unreachable: there is no `ParquetOut`.
    pub fn write(
        &mut self,
        _: &RecordBatch,
        _: Option<(&mut Unique, &[KeyHash])>,
        _: &mut dyn Write,
    ) -> Result<usize, ParquetOutError> {
        match *self {}
    }

    /// Unreachable: there is no `ParquetOut`.
    pub fn rows(&self) -> u64 {
        match *self {}
    }

    /// Unreachable: there is no `ParquetOut`.
    pub fn write_stream(&mut self, _: &mut dyn Write) -> Result<(), ParquetOutError> {
        match *self {}
    }

    /// Unreachable: there is no `ParquetOut`.
    pub fn push_streamed(&mut self, _: &LinkFields<'_>) {
        match *self {}
    }

    /// Unreachable: there is no `ParquetOut`.
    pub fn stream_full(&self) -> bool {
        match *self {}
    }

    /// Unreachable: there is no `ParquetOut`.
    pub fn finish(self, _: &mut dyn Write) -> Result<(), ParquetOutError> {
        match self {}
    }
}
