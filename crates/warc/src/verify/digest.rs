//! Labelled digests (`WARC-Block-Digest`, `WARC-Payload-Digest`): parsing
//! `algorithm:value`, hashing, and writing a computed digest in the
//! declared value's encoding.
//!
//! Algorithms: SHA-1, SHA-224, SHA-256, SHA-384, SHA-512 and MD5, named as
//! writers name them (`sha1`, `sha256`, …) or by their IANA hash function
//! textual names (`sha-1`, `sha-256`, …), case-insensitive. Values: base32
//! (RFC 4648, either case, padding optional: what Heritrix, wget and warcio
//! write for SHA-1), base16 (either case: browsertrix and warcprox write
//! SHA-256 in hex) or base64 (standard or URL-safe alphabet, padding
//! optional). Which one is told by the value's length for the algorithm's
//! digest size (the lengths differ for every algorithm here) and then
//! checked by decoding: a value that decodes to anything but the digest's
//! size is [`Unverifiable::BadEncoding`].

use sha1::Digest as _;

use super::Unverifiable;

/// A digest algorithm this module computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// SHA-1 (20 bytes): the WARC writers' default.
    Sha1,
    /// SHA-224 (28 bytes).
    Sha224,
    /// SHA-256 (32 bytes).
    Sha256,
    /// SHA-384 (48 bytes).
    Sha384,
    /// SHA-512 (64 bytes).
    Sha512,
    /// MD5 (16 bytes).
    Md5,
}

impl Algorithm {
    /// From a label (case-insensitive; `sha1` or `sha-1`); `None` when
    /// unknown.
    pub fn from_label(label: &str) -> Option<Algorithm> {
        let l = label.trim().to_ascii_lowercase();
        Some(match l.as_str() {
            "sha1" | "sha-1" => Algorithm::Sha1,
            "sha224" | "sha-224" => Algorithm::Sha224,
            "sha256" | "sha-256" => Algorithm::Sha256,
            "sha384" | "sha-384" => Algorithm::Sha384,
            "sha512" | "sha-512" => Algorithm::Sha512,
            "md5" | "md-5" => Algorithm::Md5,
            _ => return None,
        })
    }

    /// The digest's size in bytes.
    pub fn size(self) -> usize {
        match self {
            Algorithm::Sha1 => 20,
            Algorithm::Sha224 => 28,
            Algorithm::Sha256 => 32,
            Algorithm::Sha384 => 48,
            Algorithm::Sha512 => 64,
            Algorithm::Md5 => 16,
        }
    }

    /// The digest of `data`.
    pub fn hash(self, data: &[u8]) -> Vec<u8> {
        match self {
            Algorithm::Sha1 => sha1::Sha1::digest(data).to_vec(),
            Algorithm::Sha224 => sha2::Sha224::digest(data).to_vec(),
            Algorithm::Sha256 => sha2::Sha256::digest(data).to_vec(),
            Algorithm::Sha384 => sha2::Sha384::digest(data).to_vec(),
            Algorithm::Sha512 => sha2::Sha512::digest(data).to_vec(),
            Algorithm::Md5 => md5::Md5::digest(data).to_vec(),
        }
    }
}

/// How a digest value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// RFC 4648 base32 (upper case when written by us).
    Base32,
    /// Base16, lower case when written by us.
    Hex,
    /// RFC 4648 base64, standard alphabet, padded.
    Base64,
}

/// A parsed labelled digest: the algorithm, the digest's bytes and the
/// encoding it was written in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Labelled {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The label as written (`sha1`, `SHA-256`).
    pub label: String,
    /// The digest.
    pub bytes: Vec<u8>,
    /// How the value was written.
    pub encoding: Encoding,
}

impl Labelled {
    /// Parses `algorithm:value`.
    pub fn parse(text: &str) -> Result<Labelled, Unverifiable> {
        let text = text.trim();
        let Some((label, value)) = text.split_once(':') else {
            return Err(Unverifiable::NoAlgorithm);
        };
        let algorithm = Algorithm::from_label(label)
            .ok_or_else(|| Unverifiable::UnknownAlgorithm(label.trim().to_owned()))?;
        let (bytes, encoding) =
            decode_value(value.trim(), algorithm.size()).ok_or(Unverifiable::BadEncoding)?;
        Ok(Labelled {
            algorithm,
            label: label.trim().to_owned(),
            bytes,
            encoding,
        })
    }

    /// `digest` written as this value is: same label, same encoding.
    pub fn render(&self, digest: &[u8]) -> String {
        format!("{}:{}", self.label, encode(digest, self.encoding))
    }
}

/// Decodes a digest value of `size` bytes: base32, hex or base64, told by
/// its length and alphabet.
fn decode_value(value: &str, size: usize) -> Option<(Vec<u8>, Encoding)> {
    let b = value.as_bytes();
    let unpadded = b.len() - b.iter().rev().take_while(|&&c| c == b'=').count();
    let b32 = (size * 8).div_ceil(5);
    let b64 = (size * 4).div_ceil(3);
    let decoded = if b.len() == size * 2 && b.iter().all(u8::is_ascii_hexdigit) {
        Some((hex(b)?, Encoding::Hex))
    } else if unpadded == b32 {
        Some((base32(&b[..unpadded])?, Encoding::Base32))
    } else if unpadded == b64 {
        Some((base64(&b[..unpadded])?, Encoding::Base64))
    } else {
        None
    };
    decoded.filter(|(bytes, _)| bytes.len() == size)
}

fn hex(b: &[u8]) -> Option<Vec<u8>> {
    let nibble = |c: u8| (c as char).to_digit(16).map(|d| d as u8);
    b.chunks_exact(2)
        .map(|p| Some(nibble(p[0])? << 4 | nibble(p[1])?))
        .collect()
}

/// Decodes unpadded base-2^`bits` text whose symbols map through `value`.
fn decode_bits(b: &[u8], bits: u32, value: impl Fn(u8) -> Option<u32>) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(b.len() * bits as usize / 8);
    let (mut acc, mut have) = (0u32, 0u32);
    for &c in b {
        acc = (acc << bits) | value(c)?;
        have += bits;
        if have >= 8 {
            have -= 8;
            out.push((acc >> have) as u8);
            acc &= (1 << have) - 1;
        }
    }
    Some(out)
}

fn base32(b: &[u8]) -> Option<Vec<u8>> {
    decode_bits(b, 5, |c| match c.to_ascii_uppercase() {
        c @ b'A'..=b'Z' => Some(u32::from(c - b'A')),
        c @ b'2'..=b'7' => Some(u32::from(c - b'2') + 26),
        _ => None,
    })
}

fn base64(b: &[u8]) -> Option<Vec<u8>> {
    decode_bits(b, 6, |c| match c {
        b'A'..=b'Z' => Some(u32::from(c - b'A')),
        b'a'..=b'z' => Some(u32::from(c - b'a') + 26),
        b'0'..=b'9' => Some(u32::from(c - b'0') + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        _ => None,
    })
}

/// `bytes` in `encoding` (base32 upper case and padded as WARC writers
/// write SHA-1; hex lower case; base64 padded).
pub fn encode(bytes: &[u8], encoding: Encoding) -> String {
    const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let (bits, alphabet, block): (u32, &[u8], usize) = match encoding {
        Encoding::Hex => return bytes.iter().map(|b| format!("{b:02x}")).collect(),
        Encoding::Base32 => (5, B32, 8),
        Encoding::Base64 => (6, B64, 4),
    };
    let mut out = String::new();
    let (mut acc, mut have) = (0u32, 0u32);
    for &byte in bytes {
        acc = (acc << 8) | u32::from(byte);
        have += 8;
        while have >= bits {
            have -= bits;
            out.push(alphabet[((acc >> have) & ((1 << bits) - 1)) as usize] as char);
        }
        acc &= (1 << have) - 1;
    }
    if have > 0 {
        out.push(alphabet[((acc << (bits - have)) & ((1 << bits) - 1)) as usize] as char);
    }
    while !out.len().is_multiple_of(block) {
        out.push('=');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every algorithm, in every encoding and case, round-trips; values of
    /// the wrong length or alphabet are bad encodings.
    #[test]
    fn values_in_every_encoding() {
        let data = b"The quick brown fox";
        for alg in [
            Algorithm::Sha1,
            Algorithm::Sha224,
            Algorithm::Sha256,
            Algorithm::Sha384,
            Algorithm::Sha512,
            Algorithm::Md5,
        ] {
            let d = alg.hash(data);
            assert_eq!(d.len(), alg.size());
            for enc in [Encoding::Base32, Encoding::Hex, Encoding::Base64] {
                let v = encode(&d, enc);
                let mut forms = vec![v.clone(), v.trim_end_matches('=').to_owned()];
                if enc != Encoding::Base64 {
                    forms.push(v.to_ascii_lowercase()); // base64 is case-sensitive
                }
                for v in forms {
                    let l = Labelled::parse(&format!("{alg:?}:{v}")).unwrap();
                    assert_eq!((l.algorithm, &l.bytes, l.encoding), (alg, &d, enc), "{v}");
                }
            }
            let v = encode(&d, Encoding::Hex);
            assert_eq!(
                Labelled::parse(&format!("{alg:?}:{}", &v[2..])),
                Err(Unverifiable::BadEncoding)
            );
        }
        // Known values: the empty string's SHA-1 in base32, as WARC writers
        // write it, and its SHA-256 in hex.
        let l = Labelled::parse("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ").unwrap();
        assert_eq!(l.bytes, Algorithm::Sha1.hash(b""));
        assert_eq!(l.render(&l.bytes), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        let l = Labelled::parse(
            "SHA-256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        )
        .unwrap();
        assert_eq!(l.bytes, Algorithm::Sha256.hash(b""));
        assert_eq!(
            Labelled::parse("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBY!"),
            Err(Unverifiable::BadEncoding)
        );
        assert_eq!(
            Labelled::parse("blake3:abc"),
            Err(Unverifiable::UnknownAlgorithm("blake3".into()))
        );
        assert_eq!(Labelled::parse("abc"), Err(Unverifiable::NoAlgorithm));
        assert_eq!(Labelled::parse(""), Err(Unverifiable::NoAlgorithm));
    }
}
