//! Index rows from a Parquet file: cc-index's columns
//! (`warc_filename`, `warc_record_offset`, `warc_record_length`, as
//! `spinneret index --format parquet` writes them and a DuckDB or Athena
//! query over Common Crawl's index returns them), or `filename`, `offset`,
//! `length`. Integers of any width, or their decimal text.

use std::path::Path;

use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int64Type, UInt32Type, UInt64Type};
use arrow_schema::DataType;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use spinneret_index::fetch::Location;

use crate::columnar::string_cell;

/// Whether `name` is read as Parquet rows (by its extension).
pub fn is_parquet(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".parquet")
}

/// Each row's location (or why it has none), in order, through `each`;
/// an error when the file cannot be read or lacks the columns.
pub fn read_rows(
    path: &Path,
    each: &mut dyn FnMut(Result<Location, String>) -> bool,
) -> Result<(), String> {
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| e.to_string())?
        .with_batch_size(8192)
        .build()
        .map_err(|e| e.to_string())?;
    for batch in reader {
        let batch = batch.map_err(|e| e.to_string())?;
        let column = |names: [&str; 2]| {
            names
                .iter()
                .find_map(|n| batch.column_by_name(n))
                .ok_or_else(|| format!("no `{}` (or `{}`) column", names[0], names[1]))
        };
        let filename = column(["warc_filename", "filename"])?;
        let offset = column(["warc_record_offset", "offset"])?;
        let length = column(["warc_record_length", "length"])?;
        for row in 0..batch.num_rows() {
            let located = (|| {
                Ok(Location {
                    filename: string_cell(filename.as_ref(), row).ok_or("no filename")?,
                    offset: number(offset.as_ref(), row).ok_or("no offset")?,
                    length: number(length.as_ref(), row).ok_or("no length")?,
                })
            })();
            if !each(located.map_err(|e: &str| e.to_owned())) {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// A non-negative integer cell (or its decimal text).
fn number(a: &dyn Array, row: usize) -> Option<u64> {
    if a.is_null(row) {
        return None;
    }
    match a.data_type() {
        DataType::Int64 => u64::try_from(a.as_primitive::<Int64Type>().value(row)).ok(),
        DataType::Int32 => u64::try_from(a.as_primitive::<Int32Type>().value(row)).ok(),
        DataType::UInt64 => Some(a.as_primitive::<UInt64Type>().value(row)),
        DataType::UInt32 => Some(u64::from(a.as_primitive::<UInt32Type>().value(row))),
        _ => string_cell(a, row)?.trim().parse().ok(),
    }
}
