//! Reading a page whole, with a limit: an HTML file (`.gz` decompressed)
//! or a stream, never holding more than the limit and a byte, and a large
//! file read in pieces by several threads.

use std::io::Read;
use std::path::Path;

/// Reads an HTML file, decompressing `.gz`, of at most `limit` bytes
/// (decompressed): a larger one is an error of kind
/// [`FileTooLarge`](std::io::ErrorKind::FileTooLarge), found without
/// holding more than `limit + 1` bytes of it (a gzip bomb costs no more
/// memory than a page at the limit).
pub fn read_html_limited(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let compressed = std::io::BufReader::new(file);
        return read_limited(flate2::bufread::MultiGzDecoder::new(compressed), limit);
    }
    let len = file.metadata()?.len();
    if len > limit {
        return Err(too_large(limit));
    }
    // Room for the whole file at once (and the byte that shows it did
    // not grow since), so the buffer is never copied to grow.
    read_limited_into(Vec::with_capacity(room(len + 1)), file, limit)
}

/// [`read_html_limited`], with a large uncompressed file read by
/// `threads` threads of rayon's current pool, each reading its pieces of
/// [`READ_PIECE`] bytes at their offsets into one buffer (what a read of
/// 64 MB costs is mostly the copy out of the page cache and the faults of
/// the fresh buffer, which the threads share). The bytes are the file's:
/// a file that shrinks or grows while it is read is read again, whole,
/// as [`read_html_limited`] reads it.
pub fn read_html_limited_on(path: &Path, limit: u64, threads: usize) -> std::io::Result<Vec<u8>> {
    #[cfg(unix)]
    if threads >= 2 && path.extension().is_none_or(|e| e != "gz") {
        let file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        if len > limit {
            return Err(too_large(limit));
        }
        if len >= PARALLEL_READ_FROM
            && let Some(bytes) = read_in_pieces(&file, len)?
        {
            return Ok(bytes);
        }
    }
    let _ = threads;
    read_html_limited(path, limit)
}

/// Files of at least this size are read in pieces by
/// [`read_html_limited_on`].
pub const PARALLEL_READ_FROM: u64 = 4 << 20;

/// The piece each thread reads at a time.
pub const READ_PIECE: usize = 1 << 20;

/// The `len` bytes of `file`, read in pieces on the pool; `None` if the
/// file turned out not to hold exactly `len` bytes.
#[cfg(unix)]
fn read_in_pieces(file: &std::fs::File, len: u64) -> std::io::Result<Option<Vec<u8>>> {
    use rayon::prelude::*;
    use std::os::unix::fs::FileExt;
    let Ok(size) = usize::try_from(len) else {
        return Ok(None);
    };
    // Zeroed by the allocator as fresh pages: nothing is written here,
    // and each page is faulted in by the thread that reads into it.
    let mut bytes = vec![0u8; size];
    let read = bytes
        .par_chunks_mut(READ_PIECE)
        .enumerate()
        .try_for_each(|(i, piece)| file.read_exact_at(piece, (i * READ_PIECE) as u64));
    match read {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(None),
        Err(e) => return Err(e),
    }
    // A byte past the end: the file grew while it was read.
    if file.read_at(&mut [0u8], len)? != 0 {
        return Ok(None);
    }
    Ok(Some(bytes))
}

/// All of `reader` if it holds at most `limit` bytes, reading no more
/// than `limit + 1` of them; else an error of kind
/// [`FileTooLarge`](std::io::ErrorKind::FileTooLarge).
///
/// The buffer doubles as it fills but never past `limit + 1` bytes (a
/// plain `read_to_end` doubles to twice the limit, and holds three times
/// the limit while it copies). Measured with `spinneret tree` on a 2 MB
/// gzip bomb at the 64 MiB default: 218 MB peak RSS before, 159 MB now
/// (the allocator keeps the smaller buffers it freed).
pub fn read_limited(reader: impl Read, limit: u64) -> std::io::Result<Vec<u8>> {
    read_limited_into(Vec::new(), reader, limit)
}

/// The first growth of [`read_limited`]'s buffer.
const FIRST_READ: u64 = 8 << 10;

/// [`read_limited`], into `out` (empty, with whatever capacity).
fn read_limited_into(
    mut out: Vec<u8>,
    mut reader: impl Read,
    limit: u64,
) -> std::io::Result<Vec<u8>> {
    let most = limit.saturating_add(1);
    loop {
        let len = out.len() as u64;
        let spare = (out.capacity() as u64).saturating_sub(len);
        let want = if spare > 0 {
            spare
        } else {
            len.max(FIRST_READ)
        };
        let step = want.min(most - len);
        if step == 0 {
            break;
        }
        out.try_reserve_exact(room(step))?;
        // `take` stops the read at the reserved room: `read_to_end` never
        // grows the buffer itself.
        let read = (&mut reader).take(step).read_to_end(&mut out)?;
        if (read as u64) < step {
            break;
        }
    }
    if out.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(out)
}

/// `bytes` as a capacity (saturating on 32-bit targets).
fn room(bytes: u64) -> usize {
    usize::try_from(bytes).unwrap_or(usize::MAX)
}

fn too_large(limit: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::FileTooLarge,
        format!("larger than {limit} bytes"),
    )
}

#[cfg(test)]
mod tests {
    use super::super::source::tmpdir;
    use super::*;

    #[test]
    fn a_large_file_read_in_pieces_is_the_file() {
        let dir = tmpdir("read-pieces");
        // Not a multiple of the piece: the last piece is short.
        let len = PARALLEL_READ_FROM as usize + READ_PIECE + 12_345;
        let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let path = dir.join("big.html");
        std::fs::write(&path, &data).unwrap();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        for threads in [1, 2, 3] {
            let got = pool.install(|| read_html_limited_on(&path, len as u64, threads));
            assert!(got.unwrap() == data, "{threads} threads");
        }
        // One byte over the limit: refused before reading.
        let err = pool
            .install(|| read_html_limited_on(&path, len as u64 - 1, 2))
            .unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        // A small file, and a missing one.
        std::fs::write(&path, b"<p>a").unwrap();
        assert_eq!(read_html_limited_on(&path, 100, 2).unwrap(), b"<p>a");
        assert!(read_html_limited_on(&dir.join("missing.html"), 100, 2).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn read_limited_holds_no_more_than_the_limit_and_a_byte() {
        // A stream (no size known) of 0, 1, at, one over and far over the
        // limit; the limit itself small, large and odd.
        for limit in [0u64, 1, 5, 8 << 10, (8 << 10) + 1, 100_000, 1 << 20] {
            for len in [0, 1, limit, limit + 1, limit * 3 + 7] {
                let data: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
                let got = read_limited(std::io::Cursor::new(&data), limit);
                if len <= limit {
                    let got = got.unwrap();
                    assert_eq!(got, data, "limit {limit}, {len} bytes");
                    assert!(
                        got.capacity() as u64 <= limit + 1,
                        "limit {limit}, {len} bytes"
                    );
                } else {
                    let err = got.unwrap_err();
                    assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
                }
            }
        }
        // A reader that hands out one byte at a time still stops at the
        // limit and a byte.
        struct Trickle(u64);
        impl Read for Trickle {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                if self.0 == 0 || buf.is_empty() {
                    return Ok(0);
                }
                self.0 -= 1;
                buf[0] = b'x';
                Ok(1)
            }
        }
        let mut left = Trickle(u64::MAX);
        let err = read_limited(&mut left, 1000).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::FileTooLarge);
        assert_eq!(
            left.0,
            u64::MAX - 1001,
            "reads the limit and a byte, no more"
        );
        assert_eq!(read_limited(Trickle(1000), 1000).unwrap().len(), 1000);
    }
}
