//! 128-bit hashes of canonical keys.
//!
//! Deduplicating 100M URLs by their key strings would take ~10 GB; their
//! 128-bit hashes take 1.6 GB, and with 128 bits a collision among 10^9 keys
//! has probability ~10^-21 — far below the error of any canonicalization
//! policy. SipHash-1-3 with a fixed key: stable across runs and machines, so
//! hashes can be stored and compared between crawls.

use siphasher::sip128::{Hasher128, SipHasher13};
use std::hash::Hasher;

/// The 128-bit hash of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyHash(pub u128);

/// Fixed SipHash key ("spinneret-canon\0"), so hashes are stable.
const K0: u64 = u64::from_le_bytes(*b"spinnere");
const K1: u64 = u64::from_le_bytes(*b"t-canon\0");

impl KeyHash {
    /// The hash of `key`'s bytes.
    pub fn of(key: &str) -> KeyHash {
        KeyHash::of_bytes(key.as_bytes())
    }

    /// The hash of `bytes`.
    pub fn of_bytes(bytes: &[u8]) -> KeyHash {
        let mut h = SipHasher13::new_with_keys(K0, K1);
        h.write(bytes);
        KeyHash(h.finish128().as_u128())
    }
}

impl std::fmt::Display for KeyHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:032x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_and_distinct() {
        assert_eq!(KeyHash::of("http://a/"), KeyHash::of("http://a/"));
        assert_ne!(KeyHash::of("http://a/"), KeyHash::of("http://b/"));
        assert_eq!(KeyHash::of("").to_string().len(), 32);
    }
}
