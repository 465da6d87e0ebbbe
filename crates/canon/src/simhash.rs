//! Near-duplicate content keys: 64-bit SimHash (Charikar 2002) of a page's
//! visible text, and clustering of hashes within a Hamming distance.
//!
//! Why: exact payload digests call two captures of one dynamic page (a date,
//! a counter, an ad slot) different pages, which overstates the coverage loss
//! of a canonicalization policy. Two texts whose SimHashes differ in at most
//! 3 of 64 bits are near-duplicates (the threshold Manku et al. 2007 found
//! right for web pages).
//!
//! Features are the text's lower-cased words (Unicode alphanumeric runs),
//! each weighted by its count.

use siphasher::sip::SipHasher13;
use std::collections::HashMap;
use std::hash::Hasher;

/// The default near-duplicate threshold (bits).
pub const NEAR_DUPLICATE_BITS: u32 = 3;

/// The SimHash of `text`. Empty text hashes to 0.
pub fn simhash(text: &str) -> u64 {
    let mut acc = [0i32; 64];
    let mut word = String::new();
    let mut any = false;
    let flush = |word: &mut String, acc: &mut [i32; 64]| {
        if word.is_empty() {
            return;
        }
        let mut h = SipHasher13::new_with_keys(0x5eed, 0x51a5);
        h.write(word.as_bytes());
        let f = h.finish();
        for (i, a) in acc.iter_mut().enumerate() {
            *a += if f >> i & 1 == 1 { 1 } else { -1 };
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
            any = true;
        } else {
            flush(&mut word, &mut acc);
        }
    }
    flush(&mut word, &mut acc);
    if !any {
        return 0;
    }
    acc.iter()
        .enumerate()
        .fold(0u64, |h, (i, &a)| if a > 0 { h | 1 << i } else { h })
}

/// Hamming distance of two hashes.
pub fn distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// Assigns each hash a cluster id so that hashes within `max_bits` (≤ 3) of
/// each other share one (single linkage). Uses the pigeonhole bands of Manku
/// et al.: two 64-bit hashes within 3 bits agree exactly on one of four 16-bit
/// bands, so only hashes sharing a band are compared. To stay near-linear on
/// adversarial input, each hash is compared with at most 64 others per band
/// bucket (sorted neighbours); huge buckets may then miss some pairs.
pub fn cluster(hashes: &[u64], max_bits: u32) -> Vec<u32> {
    assert!(max_bits <= 3, "band pigeonhole needs max_bits <= 3");
    // Distinct hashes first.
    let mut ids: HashMap<u64, u32> = HashMap::new();
    let mut uniq = Vec::new();
    let of: Vec<u32> = hashes
        .iter()
        .map(|&h| {
            *ids.entry(h).or_insert_with(|| {
                uniq.push(h);
                (uniq.len() - 1) as u32
            })
        })
        .collect();
    let mut parent: Vec<u32> = (0..uniq.len() as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            p[x as usize] = p[p[x as usize] as usize];
            x = p[x as usize];
        }
        x
    }
    for band in 0..4 {
        let shift = band * 16;
        let mut order: Vec<u32> = (0..uniq.len() as u32).collect();
        order.sort_unstable_by_key(|&i| ((uniq[i as usize] >> shift) & 0xFFFF, uniq[i as usize]));
        let band_of = |i: u32| (uniq[i as usize] >> shift) & 0xFFFF;
        let mut start = 0;
        while start < order.len() {
            let mut end = start + 1;
            while end < order.len() && band_of(order[end]) == band_of(order[start]) {
                end += 1;
            }
            for a in start..end {
                for b in a + 1..end.min(a + 65) {
                    let (x, y) = (order[a], order[b]);
                    if distance(uniq[x as usize], uniq[y as usize]) <= max_bits {
                        let (rx, ry) = (find(&mut parent, x), find(&mut parent, y));
                        if rx != ry {
                            parent[rx.max(ry) as usize] = rx.min(ry);
                        }
                    }
                }
            }
            start = end;
        }
    }
    of.iter().map(|&u| find(&mut parent, u)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_texts_are_near() {
        let base: String = (0..300).map(|i| format!("word{} ", i % 97)).collect();
        let a = simhash(&format!("{base} posted 2024-01-01"));
        let b = simhash(&format!("{base} posted 2024-01-02"));
        let c = simhash("something else entirely, a different page about cats");
        assert!(distance(a, b) <= NEAR_DUPLICATE_BITS, "{}", distance(a, b));
        assert!(distance(a, c) > NEAR_DUPLICATE_BITS);
        assert_eq!(simhash(""), 0);
        assert_eq!(simhash("Hello, WORLD"), simhash("hello world"));
    }

    #[test]
    fn clusters_are_single_linkage() {
        let ids = cluster(&[0b0, 0b1, 0b11, 0xFFFF_0000_0000_0000, 0b0], 1);
        assert_eq!(ids[0], ids[1]);
        assert_eq!(ids[1], ids[2]); // chained through 0b1
        assert_eq!(ids[0], ids[4]);
        assert_ne!(ids[0], ids[3]);
    }
}
