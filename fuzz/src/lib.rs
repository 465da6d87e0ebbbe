//! Helpers shared by the fuzz targets in `fuzz_targets/`.
//!
//! The targets live one per file under `fuzz_targets/` (the cargo-fuzz
//! layout). Most read their input as a few parameter bytes or NUL-ended
//! fields in front of a document, so that a page, URL list or WARC file from
//! the shared corpus becomes a seed by prepending a short header (see
//! `fuzz/seeds.sh`); [`Input`] reads that layout.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

/// Reads parameters from the front of a fuzz input; what is left is the
/// document. Reading past the end gives zeros and empty fields.
pub struct Input<'a> {
    rest: &'a [u8],
}

impl<'a> Input<'a> {
    /// A reader over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        Input { rest: data }
    }

    /// The next byte (0 at the end).
    pub fn byte(&mut self) -> u8 {
        match self.rest.split_first() {
            Some((&b, rest)) => {
                self.rest = rest;
                b
            }
            None => 0,
        }
    }

    /// The next `n` bytes (fewer at the end).
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let (taken, rest) = self.rest.split_at(n.min(self.rest.len()));
        self.rest = rest;
        taken
    }

    /// The bytes up to the next NUL, which is consumed (everything left when
    /// there is none).
    pub fn field(&mut self) -> &'a [u8] {
        match self.rest.iter().position(|&b| b == 0) {
            Some(i) => {
                let field = &self.rest[..i];
                self.rest = &self.rest[i + 1..];
                field
            }
            None => std::mem::take(&mut self.rest),
        }
    }

    /// Everything left.
    pub fn rest(self) -> &'a [u8] {
        self.rest
    }
}

/// `text` cut into chunks of the byte lengths in `sizes` (a 0 counts as 1;
/// the sizes are cycled). A cut inside a character moves forward to the
/// next character boundary. With no sizes, the whole text is one chunk.
pub fn chunks<'a>(text: &'a str, sizes: &'a [u8]) -> impl Iterator<Item = &'a str> + 'a {
    let mut pos = 0;
    let mut next_size = sizes.iter().cycle();
    std::iter::from_fn(move || {
        if pos >= text.len() {
            return None;
        }
        let size = next_size
            .next()
            .map_or(text.len(), |&s| usize::from(s.max(1)));
        let mut end = (pos + size).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let chunk = &text[pos..end];
        pos = end;
        Some(chunk)
    })
}

/// A reader over a slice whose reads return at most `size` bytes (0: as
/// many as the buffer holds), to exercise readers' buffering.
pub struct ChunkedReader<'a> {
    rest: &'a [u8],
    size: usize,
}

impl<'a> ChunkedReader<'a> {
    /// A reader over `data` returning reads of at most `size` bytes.
    pub fn new(data: &'a [u8], size: usize) -> Self {
        ChunkedReader { rest: data, size }
    }
}

impl std::io::Read for ChunkedReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let limit = if self.size == 0 { buf.len() } else { self.size };
        let n = limit.min(buf.len()).min(self.rest.len());
        buf[..n].copy_from_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        Ok(n)
    }
}
