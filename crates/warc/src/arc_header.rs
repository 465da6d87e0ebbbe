//! ARC header lines: the one-line record headers of the Internet Archive's
//! ARC format (versions 1 and 2), `URL IP-address DATE MIME ... LENGTH`.
//!
//! ARC has no version line per record, so a line is recognized by its
//! shape: at least five space-separated fields, a URL containing `:`, and a
//! date of at least 12 digits (`YYYYMMDDhhmm[ss]`). The reader uses the same
//! test to find the next record after damage. ARC records have no named
//! fields; the reader maps the `filedesc:` header record to `warcinfo` and
//! every other one to `response`, as pywb does.

/// The longest ARC header line accepted, in bytes.
pub(crate) const MAX_ARC_LINE: usize = 16 << 10;

/// An ARC header line (version 1 or 2).
#[derive(Debug, Clone)]
pub(crate) struct ArcHeader {
    /// The record's URL (the first field).
    pub url: String,
    /// The archive date as ISO 8601 (`YYYY-MM-DDThh:mm:ssZ`).
    pub date: String,
    /// The MIME type field.
    pub mime: String,
    /// The block length (the last field).
    pub length: u64,
}

/// Parses `URL IP DATE MIME ... LENGTH` (without its line end; a trailing CR
/// is ignored). The date must be ≥ 12 digits and the URL contain a `:`; an
/// unparseable length (`-1`, `abc`) counts as 0, as pywb reads it.
pub(crate) fn parse_arc_line(line: &[u8]) -> Option<ArcHeader> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_ARC_LINE || line.is_empty() || !line[0].is_ascii_graphic() {
        return None;
    }
    let text = String::from_utf8_lossy(line);
    let parts: Vec<&str> = text.split(' ').filter(|p| !p.is_empty()).collect();
    if parts.len() < 5 {
        return None;
    }
    let date = parts[2];
    if date.len() < 12 || !date.bytes().all(|b| b.is_ascii_digit()) || !parts[0].contains(':') {
        return None;
    }
    let last = parts[parts.len() - 1];
    let length = last.parse::<u64>().unwrap_or(0);
    let d = date.as_bytes();
    let digit = |i: usize| d.get(i).map_or('0', |&b| b as char);
    let iso: String = format!(
        "{}{}{}{}-{}{}-{}{}T{}{}:{}{}:{}{}Z",
        digit(0),
        digit(1),
        digit(2),
        digit(3),
        digit(4),
        digit(5),
        digit(6),
        digit(7),
        digit(8),
        digit(9),
        digit(10),
        digit(11),
        digit(12),
        digit(13)
    );
    Some(ArcHeader {
        url: parts[0].to_string(),
        date: iso,
        mime: parts[3].to_string(),
        length,
    })
}
