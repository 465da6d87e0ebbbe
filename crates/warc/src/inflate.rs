//! Whole gzip members inflated by libdeflate straight into a `Vec`'s spare
//! capacity.
//!
//! Why not `libdeflater::Decompressor::gzip_decompress`: it takes the output
//! as `&mut [u8]`, so the caller must first zero the room (`Vec::resize`),
//! and the fast path then checked the member's CRC-32 a second time to be
//! sure the member ends where it was cut. On the pipeline benchmark that
//! zeroing and that CRC were 4.2 % and 2.0 % of all instructions. Here
//! libdeflate writes into uninitialized capacity (it never reads the output
//! buffer before writing it), and its `_ex` entry point reports how much input
//! the member used: libdeflate itself checks CRC-32 and size at the member's
//! real trailer, and the member is accepted only if that trailer is the last
//! 8 bytes of the slice, which is exactly what the second CRC established.
//!
//! Invariant: `GzipInflater` owns one libdeflate decompressor, used by one
//! thread at a time (`&mut self`), freed once on drop.

use std::ffi::c_void;
use std::ptr::NonNull;

use libdeflate_sys::{
    libdeflate_alloc_decompressor, libdeflate_decompressor, libdeflate_free_decompressor,
    libdeflate_gzip_decompress_ex, libdeflate_result_LIBDEFLATE_SUCCESS,
};

/// A libdeflate decompressor for whole gzip members.
pub(crate) struct GzipInflater {
    decompressor: NonNull<libdeflate_decompressor>,
}

// SAFETY: a libdeflate decompressor is plain heap memory with no thread
// affinity; libdeflate only requires that one thread use it at a time, which
// `&mut self` on every use guarantees. (`libdeflater` makes the same claim.)
unsafe impl Send for GzipInflater {}

impl GzipInflater {
    /// A new decompressor. Panics only if libdeflate cannot allocate its
    /// state (about 10 KiB), as any allocation failure would.
    pub(crate) fn new() -> GzipInflater {
        // SAFETY: no preconditions; returns null only when out of memory.
        let raw = unsafe { libdeflate_alloc_decompressor() };
        GzipInflater {
            decompressor: NonNull::new(raw).expect("libdeflate: out of memory"),
        }
    }

    /// Inflates `member`, which must be exactly one gzip member, and appends
    /// its `size` bytes to `out`. True when libdeflate accepts the member
    /// (header, deflate data, CRC-32 and size at its trailer), the member
    /// ends exactly at the end of `member`, and it inflates to exactly `size`
    /// bytes; otherwise `out` is unchanged (its spare capacity may have been
    /// written) and the result is false.
    pub(crate) fn append_member(&mut self, member: &[u8], size: usize, out: &mut Vec<u8>) -> bool {
        out.reserve(size);
        let spare = out.spare_capacity_mut();
        let (mut used_in, mut produced) = (0usize, 0usize);
        // SAFETY: the decompressor is valid and used by this thread only
        // (`&mut self`); `member` is readable for `member.len()` bytes;
        // `spare` is writable for `spare.len() >= size` bytes (reserved
        // above), and libdeflate writes at most `size` bytes there and never
        // reads from it; the two result pointers are valid `usize`s.
        let result = unsafe {
            libdeflate_gzip_decompress_ex(
                self.decompressor.as_ptr(),
                member.as_ptr().cast::<c_void>(),
                member.len(),
                spare.as_mut_ptr().cast::<c_void>(),
                size,
                &mut used_in,
                &mut produced,
            )
        };
        if result != libdeflate_result_LIBDEFLATE_SUCCESS
            || used_in != member.len()
            || produced != size
        {
            return false;
        }
        // SAFETY: on success libdeflate initialized the first `produced`
        // (== `size`) bytes of the spare capacity, which is at least `size`.
        unsafe { out.set_len(out.len() + produced) };
        true
    }
}

impl Drop for GzipInflater {
    fn drop(&mut self) {
        // SAFETY: allocated by `libdeflate_alloc_decompressor`, freed once.
        unsafe { libdeflate_free_decompressor(self.decompressor.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::tests::gz as gzip;

    #[test]
    fn appends_a_whole_member() {
        let text = b"WARC/1.0\r\n".repeat(1000);
        let member = gzip(&text);
        let mut inflater = GzipInflater::new();
        let mut out = b"kept".to_vec();
        assert!(inflater.append_member(&member, text.len(), &mut out));
        assert_eq!(&out[..4], b"kept");
        assert_eq!(&out[4..], &text[..]);
        // The decompressor is reusable, also after a failure.
        assert!(!inflater.append_member(&member[..member.len() - 1], text.len(), &mut out));
        assert!(inflater.append_member(&member, text.len(), &mut out));
        assert_eq!(out.len(), 4 + 2 * text.len());
    }

    /// Every way to fail leaves `out` as it was.
    #[test]
    fn rejects_and_leaves_the_output_alone() {
        let text = b"<html>payload</html>".repeat(50);
        let member = gzip(&text);
        let mut inflater = GzipInflater::new();
        let mut out = b"before".to_vec();
        let mut check = |input: &[u8], size: usize| {
            assert!(!inflater.append_member(input, size, &mut out));
            assert_eq!(out, b"before");
        };
        // Wrong size: too small (no room) and too large (short output).
        check(&member, text.len() - 1);
        check(&member, text.len() + 1);
        // Bytes after the member's trailer: the member does not end there.
        check(&[&member[..], b"\x1f\x8b"].concat(), text.len());
        // A damaged CRC in the trailer, and damaged deflate data.
        let mut bad_crc = member.clone();
        let n = bad_crc.len();
        bad_crc[n - 8] ^= 1;
        check(&bad_crc, text.len());
        let mut bad_data = member.clone();
        bad_data[12] ^= 0xFF;
        check(&bad_data, text.len());
        // Not gzip at all, and nothing.
        check(b"not a gzip member at all", 4);
        check(b"", 0);
    }

    /// Damage anywhere: every bit flip and every truncation of a member
    /// either leaves `out` exactly as it was, or (a flip in a header field
    /// gzip does not check, such as the modification time) appends exactly
    /// the original text.
    #[test]
    fn damage_never_yields_other_bytes() {
        let text: Vec<u8> = (0..4000u32)
            .flat_map(|i| (i * 7919 % 251).to_le_bytes())
            .collect();
        let member = gzip(&text);
        let mut inflater = GzipInflater::new();
        let mut damaged = member.clone();
        let mut harmless = 0;
        for at in 0..member.len() {
            for bit in [0x01u8, 0x10, 0x80] {
                damaged[at] ^= bit;
                let mut out = b"x".to_vec();
                if inflater.append_member(&damaged, text.len(), &mut out) {
                    assert_eq!(&out[1..], &text[..], "flip {bit:#x} at {at}");
                    harmless += 1;
                } else {
                    assert_eq!(out, b"x", "flip {bit:#x} at {at}");
                }
                damaged[at] ^= bit;
            }
        }
        // Only header bytes can be harmless (the deflate data and the
        // trailer are all checked).
        assert!(harmless <= 3 * 10, "{harmless}");
        for len in 0..member.len() {
            let mut out = Vec::new();
            assert!(!inflater.append_member(&member[..len], text.len(), &mut out));
            assert!(out.is_empty());
        }
    }
}
