//! The crate's error type. Determining and decoding never fail; only
//! reading a stream can.

/// Errors of the streaming API.
#[derive(Debug, thiserror::Error)]
pub enum EncodingError {
    /// Reading the input failed.
    #[error("reading the document failed: {0}")]
    Io(#[from] std::io::Error),
}
