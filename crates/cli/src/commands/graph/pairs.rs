//! `--pairs` files: host pairs as a cluster's first step writes them —
//! text (`source<TAB>target` per line, plain or gzip) or Parquet (columns
//! `s` and `t`, as cc-pyspark's `hostlinks_extract` writes them, or
//! `from_host` and `to_host`, as `examples/spark/host_links.py` does),
//! told apart by the Parquet magic (`PAR1`). A pair that is not two host
//! names is reported with its line or row and counted; the rest go on.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;

use flate2::read::MultiGzDecoder;
use spinneret_graph::HostGraphBuilder;

use crate::Error;

/// Hands one pair to the graph: where it is (`line 3`, `row 7`), and its
/// two names when it has them.
type AddPair<'a> = dyn FnMut(&str, Option<&str>, Option<&str>) + 'a;

/// How many pairs a file gave, and how many of its lines or rows were not
/// pairs.
#[derive(Debug, Default, Clone, Copy)]
pub struct PairCounts {
    /// Pairs given to the graph.
    pub pairs: u64,
    /// Lines or rows reported and skipped.
    pub bad: u64,
}

/// The files of a `--pairs` argument: the file itself, or a folder's
/// files in name order (a Spark table's part files), leaving out hidden
/// files, Spark's markers (`_SUCCESS`, `_committed_…`) and checksums
/// (`.crc`).
pub fn pair_files(path: &Path) -> Result<Vec<std::path::PathBuf>, Error> {
    if !path.is_dir() {
        return Ok(vec![path.to_owned()]);
    }
    let input_error = |source: std::io::Error| Error::Input {
        path: path.display().to_string(),
        source,
    };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(input_error)? {
        let entry = entry.map_err(input_error)?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let skip = name.starts_with(['.', '_']) || name.ends_with(".crc");
        if !skip && entry.path().is_file() {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// Reads the pairs of `path` into `builder`.
pub fn read_pairs(
    path: &Path,
    builder: &mut HostGraphBuilder,
    diag: &mut dyn Write,
) -> Result<PairCounts, Error> {
    let mut counts = PairCounts::default();
    let input_error = |source: std::io::Error| Error::Input {
        path: path.display().to_string(),
        source,
    };
    let mut magic = [0u8; 4];
    let n = std::fs::File::open(path)
        .and_then(|mut f| f.read(&mut magic))
        .map_err(input_error)?;
    let mut add = |place: &str, s: Option<&str>, t: Option<&str>| {
        let pushed = match (s, t) {
            (Some(s), Some(t)) => builder.add_pair(s, t).map_err(|e| e.to_string()),
            _ => Err("not two host names".to_owned()),
        };
        match pushed {
            Ok(()) => counts.pairs += 1,
            Err(why) => {
                counts.bad += 1;
                let _ = writeln!(
                    diag,
                    "spinneret: bad pair: {}: {place}: {why}",
                    path.display()
                );
            }
        }
    };
    if n == 4 && &magic == b"PAR1" {
        parquet_pairs(path, &mut add)?;
        return Ok(counts);
    }
    let mut file =
        BufReader::with_capacity(1 << 16, std::fs::File::open(path).map_err(input_error)?);
    let gzip = file
        .fill_buf()
        .map_err(input_error)?
        .starts_with(&[0x1f, 0x8b]);
    let reader: Box<dyn BufRead> = if gzip {
        Box::new(BufReader::with_capacity(1 << 16, MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    for (number, line) in reader.lines().enumerate() {
        let line = line.map_err(input_error)?;
        let line = line.trim_end_matches('\r');
        if line.is_empty() {
            continue;
        }
        let (s, t) = match line.split_once('\t') {
            Some((s, t)) if !t.contains('\t') => (Some(s), Some(t)),
            _ => (None, None),
        };
        add(&format!("line {}", number + 1), s, t);
    }
    Ok(counts)
}

/// The pairs of a Parquet file, row by row.
#[cfg(feature = "parquet")]
fn parquet_pairs(path: &Path, add: &mut AddPair<'_>) -> Result<(), Error> {
    use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

    use crate::columnar::string_cell;

    let bad = |what: String| Error::Input {
        path: path.display().to_string(),
        source: std::io::Error::other(what),
    };
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .map_err(|e| bad(e.to_string()))?
        .with_batch_size(8192)
        .build()
        .map_err(|e| bad(e.to_string()))?;
    let mut row_number = 0u64;
    for batch in reader {
        let batch = batch.map_err(|e| bad(e.to_string()))?;
        let (s, t) = [("s", "t"), ("from_host", "to_host")]
            .iter()
            .find_map(|(s, t)| Some((batch.column_by_name(s)?, batch.column_by_name(t)?)))
            .ok_or_else(|| {
                bad("no `s` and `t` (or `from_host` and `to_host`) columns".to_owned())
            })?;
        for row in 0..batch.num_rows() {
            row_number += 1;
            let (a, b) = (string_cell(s.as_ref(), row), string_cell(t.as_ref(), row));
            add(&format!("row {row_number}"), a.as_deref(), b.as_deref());
        }
    }
    Ok(())
}

/// Without the `parquet` feature, a Parquet file is refused.
#[cfg(not(feature = "parquet"))]
fn parquet_pairs(path: &Path, _add: &mut AddPair<'_>) -> Result<(), Error> {
    Err(Error::Input {
        path: path.display().to_string(),
        source: std::io::Error::other(
            "a Parquet file, and this build has no Parquet (the `parquet` feature)",
        ),
    })
}
