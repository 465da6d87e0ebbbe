//! Reading `canon-eval`'s inputs into captures (URL, digest, and with
//! `--near-dup` a SimHash): WARC/ARC records, CDX and CDXJ lines, TSV
//! rows (the module documentation of `canon_eval` says which count).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use serde::Serialize;
use sha1::{Digest, Sha1};
use spinneret_canon::simhash;
use spinneret_html::{Token, Tokenizer, TokenizerOptions};
use spinneret_warc::{Options, Reader, RecordType};

use crate::Error;
use crate::inputs::produce::open_stream;
use crate::inputs::{Source, source_name};

/// What kind of file an input is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// A WARC or ARC file (plain, gzip or zstd).
    Warc,
    /// A CDX index (space-separated, with a ` CDX` header line).
    Cdx,
    /// A CDXJ index (SURT key, timestamp, JSON block).
    Cdxj,
    /// A TSV table with URL and digest columns (`.tsv`, `.txt`).
    Tsv,
}

/// The kind of `path`, by name.
pub fn input_kind(path: &Path) -> InputKind {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let name = name.trim_end_matches(".gz");
    if name.ends_with(".cdxj") {
        InputKind::Cdxj
    } else if name.ends_with(".cdx") {
        InputKind::Cdx
    } else if name.ends_with(".tsv") || name.ends_with(".txt") {
        InputKind::Tsv
    } else {
        InputKind::Warc
    }
}

/// One raw observation before deduplication.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The captured URL, as recorded.
    pub url: String,
    /// Normalized digest (`sha1:BASE32`).
    pub digest: String,
    /// SimHash of the visible text (HTML payloads with `--near-dup`).
    pub simhash: Option<u64>,
}

/// Counts of what was read.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReadCounts {
    /// Records, index lines or table rows read.
    pub records: u64,
    /// Of those, captures kept for the evaluation.
    pub used: u64,
    /// Not a capture of a page (request, metadata, warcinfo, non-2xx, …).
    pub skipped: u64,
    /// A capture without URL or (for revisits) a resolvable digest.
    pub unusable: u64,
    /// Damaged records reported by the WARC reader.
    pub bad: u64,
    /// Digests computed because the record had none.
    pub computed_digests: u64,
}

/// Normalizes a digest to `algorithm:VALUE`; unlabelled means SHA-1.
pub fn normalize_digest(d: &str) -> Option<String> {
    let d = d.trim();
    if d.is_empty() || d == "-" {
        return None;
    }
    Some(match d.split_once(':') {
        Some((alg, v)) => format!("{}:{}", alg.to_ascii_lowercase(), v.to_ascii_uppercase()),
        None => format!("sha1:{}", d.to_ascii_uppercase()),
    })
}

/// `sha1:` + RFC 4648 base32 of the SHA-1 of `payload`.
pub fn sha1_digest(payload: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let hash = Sha1::digest(payload);
    let mut out = String::from("sha1:");
    let (mut buf, mut bits) = (0u32, 0u32);
    for &b in hash.iter() {
        buf = buf << 8 | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buf >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buf << (5 - bits)) & 31) as usize] as char);
    }
    out
}

fn is_2xx_or_none(status: Option<u16>) -> bool {
    status.is_none_or(|s| (200..300).contains(&s))
}

/// The visible text of an HTML payload (decoded like a browser would).
pub fn visible_text(body: &[u8]) -> String {
    let decoded = spinneret_encoding::Sniffer::default().decode(body);
    let mut tok = Tokenizer::new(&decoded.text, TokenizerOptions::default());
    let mut text = String::new();
    let mut hidden: u32 = 0;
    let hides = |n: &str| matches!(n, "script" | "style" | "template" | "noscript");
    while let Some(t) = tok.next_token() {
        match t {
            Token::StartTag(tag) if hides(tag.name.as_str()) && !tag.self_closing => hidden += 1,
            Token::EndTag(tag) if hides(tag.name.as_str()) => hidden = hidden.saturating_sub(1),
            Token::Text(s) if hidden == 0 => {
                text.push_str(s);
                text.push(' ');
            }
            _ => {}
        }
    }
    text
}

/// Reads the captures of one WARC/ARC file (`-`: standard input), in
/// record order (a revisit
/// whose `WARC-Refers-To` record comes later in the file is resolved at the
/// end, and keeps its place).
pub fn read_warc(
    src: &Source,
    near_dup: bool,
    counts: &mut ReadCounts,
    out: &mut Vec<Capture>,
) -> Result<(), Error> {
    let (_, file) = open(src)?;
    let mut by_id: HashMap<String, String> = HashMap::new();
    /// A capture whose digest may still have to be looked up.
    struct Pending {
        url: String,
        digest: Option<String>,
        refers_to: Option<String>,
        simhash: Option<u64>,
    }
    let mut pending: Vec<Pending> = Vec::new();
    for r in Reader::from_read(file, Options::default()) {
        counts.records += 1;
        let rec = match r {
            Ok(rec) => rec,
            Err(_) => {
                counts.bad += 1;
                continue;
            }
        };
        let status = rec.http.as_ref().map(|h| h.status);
        let capture = matches!(
            rec.kind,
            RecordType::Response | RecordType::Resource | RecordType::Revisit
        );
        if !capture || !is_2xx_or_none(status) {
            counts.skipped += 1;
            continue;
        }
        let Some(url) = rec
            .target_uri
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
        else {
            counts.unusable += 1;
            continue;
        };
        let declared = rec.payload_digest.as_deref().and_then(normalize_digest);
        if rec.kind == RecordType::Revisit {
            pending.push(Pending {
                url: url.to_owned(),
                digest: declared,
                refers_to: rec.refers_to.clone(),
                simhash: None,
            });
            continue;
        }
        let digest = match declared {
            Some(d) => d,
            None => {
                counts.computed_digests += 1;
                sha1_digest(&rec.body)
            }
        };
        if let Some(id) = &rec.record_id {
            by_id.insert(id.clone(), digest.clone());
        }
        let sim = (near_dup && rec.is_html()).then(|| simhash::simhash(&visible_text(&rec.body)));
        pending.push(Pending {
            url: url.to_owned(),
            digest: Some(digest),
            refers_to: None,
            simhash: sim,
        });
    }
    for p in pending {
        let refers_to = p.refers_to;
        match p
            .digest
            .or_else(|| refers_to.and_then(|id| by_id.get(&id).cloned()))
        {
            Some(d) => push(out, counts, &p.url, d, p.simhash),
            None => counts.unusable += 1,
        }
    }
    Ok(())
}

fn push(
    out: &mut Vec<Capture>,
    counts: &mut ReadCounts,
    url: &str,
    digest: String,
    simhash: Option<u64>,
) {
    counts.used += 1;
    out.push(Capture {
        url: url.to_owned(),
        digest,
        simhash,
    });
}

/// An input's name (as shown) and its bytes.
fn open(src: &Source) -> Result<(String, Box<dyn Read + Send>), Error> {
    let (name, file) = open_stream(src);
    match file {
        Ok(f) => Ok((name, f)),
        Err(source) => Err(Error::Input { path: name, source }),
    }
}

fn open_text(src: &Source) -> Result<(String, Box<dyn BufRead>), Error> {
    let (name, file) = open(src)?;
    let r: Box<dyn Read> = if name.ends_with(".gz") {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    Ok((name, Box::new(BufReader::new(r))))
}

fn lines(src: &Source) -> Result<Vec<String>, Error> {
    let mut v = Vec::new();
    let (path, mut r) = open_text(src)?;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = r.read_until(b'\n', &mut buf).map_err(|e| Error::Input {
            path: path.clone(),
            source: e,
        })?;
        if n == 0 {
            return Ok(v);
        }
        let line = String::from_utf8_lossy(&buf);
        v.push(line.trim_end_matches(['\n', '\r']).to_owned());
    }
}

/// Reads a CDX file (legend line optional; default `N b a m s k r M S V g`).
pub fn read_cdx(
    src: &Source,
    counts: &mut ReadCounts,
    out: &mut Vec<Capture>,
) -> Result<(), Error> {
    let mut fields: Vec<String> = "N b a m s k r M S V g"
        .split(' ')
        .map(str::to_owned)
        .collect();
    for line in lines(src)? {
        if let Some(legend) = line.trim_start().strip_prefix("CDX ") {
            fields = legend.split_whitespace().map(str::to_owned).collect();
            continue;
        }
        if line.trim().is_empty() {
            continue;
        }
        counts.records += 1;
        let cols: Vec<&str> = line.split(' ').collect();
        let get = |f: &str| {
            fields
                .iter()
                .position(|x| x == f)
                .and_then(|i| cols.get(i).copied())
        };
        let status = get("s").and_then(|s| s.parse::<u16>().ok());
        if !is_2xx_or_none(status) {
            counts.skipped += 1;
            continue;
        }
        match (get("a"), get("k").and_then(normalize_digest)) {
            (Some(u), Some(d)) => push(out, counts, u, d, None),
            _ => counts.unusable += 1,
        }
    }
    Ok(())
}

/// Reads a CDXJ file (`key timestamp {json}`).
pub fn read_cdxj(
    src: &Source,
    counts: &mut ReadCounts,
    out: &mut Vec<Capture>,
) -> Result<(), Error> {
    for line in lines(src)? {
        let Some(json) = line.find('{').map(|i| &line[i..]) else {
            continue;
        };
        counts.records += 1;
        let Ok(v) = serde_json::from_str::<serde_json::Value>(json) else {
            counts.bad += 1;
            continue;
        };
        let status = match v.get("status") {
            Some(serde_json::Value::String(s)) => s.parse::<u16>().ok(),
            Some(serde_json::Value::Number(n)) => n.as_u64().and_then(|n| u16::try_from(n).ok()),
            _ => None,
        };
        if !is_2xx_or_none(status) {
            counts.skipped += 1;
            continue;
        }
        let url = v.get("url").and_then(|u| u.as_str());
        let digest = v
            .get("digest")
            .and_then(|d| d.as_str())
            .and_then(normalize_digest);
        match (url, digest) {
            (Some(u), Some(d)) => push(out, counts, u, d, None),
            _ => counts.unusable += 1,
        }
    }
    Ok(())
}

/// Reads a TSV file with a header (see the module docs).
pub fn read_tsv(
    src: &Source,
    counts: &mut ReadCounts,
    out: &mut Vec<Capture>,
) -> Result<(), Error> {
    let all = lines(src)?;
    let Some((header, rows)) = all.split_first() else {
        return Ok(());
    };
    let cols: Vec<&str> = header.split('\t').collect();
    let find = |names: &[&str]| cols.iter().position(|c| names.contains(c));
    let manifest = |what: &str| Error::Manifest {
        path: source_name(src),
        what: what.to_owned(),
    };
    let url_col = find(&["target_uri", "url", "original"])
        .ok_or_else(|| manifest("no url column (target_uri, url, original)"))?;
    let digest_col = find(&["payload_digest", "digest"])
        .ok_or_else(|| manifest("no digest column (payload_digest, digest)"))?;
    let type_col = find(&["record_type"]);
    let status_col = find(&["http_status", "status"]);
    for row in rows {
        if row.is_empty() {
            continue;
        }
        counts.records += 1;
        let f: Vec<&str> = row.split('\t').collect();
        let kind = type_col
            .and_then(|i| f.get(i).copied())
            .unwrap_or("response");
        let status = status_col
            .and_then(|i| f.get(i))
            .and_then(|s| s.parse::<u16>().ok());
        if !matches!(kind, "response" | "resource" | "revisit") || !is_2xx_or_none(status) {
            counts.skipped += 1;
            continue;
        }
        let url = f.get(url_col).map(|u| u.trim()).filter(|u| !u.is_empty());
        match (url, f.get(digest_col).and_then(|d| normalize_digest(d))) {
            (Some(u), Some(d)) => push(out, counts, u, d, None),
            _ => counts.unusable += 1,
        }
    }
    Ok(())
}

/// Reads every input, in order. An input that cannot be read is counted
/// and its message (`path: why`) kept in `unreadable`; the rest is read.
pub fn read_inputs(
    sources: &[Source],
    near_dup: bool,
    unreadable: &mut Vec<String>,
) -> Result<(Vec<Capture>, ReadCounts), Error> {
    let mut out = Vec::new();
    let mut counts = ReadCounts::default();
    for p in sources {
        let read = match input_kind(Path::new(&source_name(p))) {
            InputKind::Warc => read_warc(p, near_dup, &mut counts, &mut out),
            InputKind::Cdx => read_cdx(p, &mut counts, &mut out),
            InputKind::Cdxj => read_cdxj(p, &mut counts, &mut out),
            InputKind::Tsv => read_tsv(p, &mut counts, &mut out),
        };
        match read {
            Err(e @ Error::Input { .. }) => unreadable.push(e.to_string()),
            other => other?,
        }
    }
    Ok((out, counts))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests() {
        assert_eq!(normalize_digest("sha1:abc").as_deref(), Some("sha1:ABC"));
        assert_eq!(normalize_digest("ABC").as_deref(), Some("sha1:ABC"));
        assert_eq!(normalize_digest(" - "), None);
        // SHA-1 of "" is da39a3ee…; its base32 is the well-known WARC digest of an empty payload.
        assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    #[test]
    fn visible_text_skips_scripts() {
        let t = visible_text(b"<title>T</title><script>var x = '<p>';</script><p>Hello <b>world</b><style>p{}</style>");
        assert_eq!(
            t.split_whitespace().collect::<Vec<_>>(),
            ["T", "Hello", "world"]
        );
    }

    #[test]
    fn kinds() {
        assert_eq!(input_kind(Path::new("a.warc.gz")), InputKind::Warc);
        assert_eq!(input_kind(Path::new("a.cdxj")), InputKind::Cdxj);
        assert_eq!(input_kind(Path::new("a.cdx.gz")), InputKind::Cdx);
        assert_eq!(input_kind(Path::new("x.tsv")), InputKind::Tsv);
    }
}
