//! [`ObjectReader`]: one remote object as a [`Read`], its bytes fetched
//! ahead by range requests of [`Options::chunk_size`] bytes,
//! [`Options::chunks_in_flight`] at a time, handed over in order.
//!
//! Invariants:
//! - **Bounded memory**: at most `chunks_in_flight` chunks are being
//!   fetched, one finished chunk waits in the channel and one is being
//!   read: `chunk_size × (chunks_in_flight + 2)` bytes (48 MiB with the
//!   defaults) whatever the object's size.
//! - **Every byte once, in order**: chunk `i` covers bytes
//!   `[i × chunk_size, (i + 1) × chunk_size)`, each is checked to be
//!   exactly that range of the version first seen (its ETag, sent as
//!   `If-Match`), and a body cut short is resumed by object_store from the
//!   byte reached. The first failure ends the stream with that error: no
//!   byte after a gap is ever handed over.

use std::io::Read;
use std::sync::Arc;

use bytes::{Buf, Bytes};
use futures::StreamExt;
use object_store::ObjectStore;
use object_store::path::Path;
use tokio::sync::mpsc;

use crate::client::{Options, fetch_range};
use crate::error::RemoteError;
use crate::redact::Secrets;

/// A remote object's bytes, in order; dropping it cancels the requests
/// still in flight.
#[derive(Debug)]
pub struct ObjectReader {
    chunks: mpsc::Receiver<Result<Bytes, RemoteError>>,
    current: Bytes,
    size: u64,
    fetcher: tokio::task::JoinHandle<()>,
    failed: Option<RemoteError>,
}

impl ObjectReader {
    /// The object's size in bytes.
    pub fn size(&self) -> u64 {
        self.size
    }
}

impl Drop for ObjectReader {
    fn drop(&mut self) {
        self.fetcher.abort();
    }
}

impl Read for ObjectReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            if let Some(e) = &self.failed {
                return Err(e.clone().into());
            }
            match self.chunks.blocking_recv() {
                Some(Ok(chunk)) => self.current = chunk,
                Some(Err(e)) => {
                    self.failed = Some(e.clone());
                    return Err(e.into());
                }
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.advance(n);
        Ok(n)
    }
}

/// Starts fetching the object (`size` bytes, version `etag`) on `runtime`.
pub(crate) fn start(
    runtime: &tokio::runtime::Handle,
    store: Arc<dyn ObjectStore>,
    path: Path,
    size: u64,
    etag: Option<String>,
    options: &Options,
    secrets: Secrets,
) -> ObjectReader {
    let (tx, rx) = mpsc::channel(1);
    let chunk = options.chunk_size.max(1);
    let in_flight = options.chunks_in_flight.max(1);
    let fetcher = runtime.spawn(async move {
        let ranges = (0..size.div_ceil(chunk)).map(|i| i * chunk..((i + 1) * chunk).min(size));
        let mut chunks = futures::stream::iter(ranges)
            .map(|range| fetch_range(store.as_ref(), &path, range, etag.as_deref(), &secrets))
            .buffered(in_flight);
        while let Some(got) = chunks.next().await {
            let failed = got.is_err();
            if tx.send(got).await.is_err() || failed {
                return;
            }
        }
    });
    ObjectReader {
        chunks: rx,
        current: Bytes::new(),
        size,
        fetcher,
        failed: None,
    }
}
