//! WARC records as spinneret writes them (WET and WAT files): the
//! record's framing — `WARC/1.0`, its header fields, `Content-Length`,
//! the block, CRLF CRLF — each record its own gzip member when the file
//! is compressed; dates as `WARC-Date` and `Extracted-Date` write them;
//! deterministic record ids (RFC 4122 name-based UUIDs).
//!
//! Invariant: a header value never holds a line break ([`clean`]), and a
//! record's gzip member has no file name and a zero mtime, so the same
//! record gives the same bytes on every run.

use std::io;
use std::time::{SystemTime, UNIX_EPOCH};

use sha1::{Digest, Sha1};
use spinneret_index::calendar::{civil_from_days, days_from_civil, days_in_month};

/// The WARC version written.
pub const VERSION: &str = "WARC/1.0";

/// The WARC/1.0 standard's text, as `conformsTo` names it (warcio and
/// Heritrix write this value for WARC/1.0).
pub const CONFORMS_TO: &str = "http://bibnum.bnf.fr/WARC/WARC_ISO_28500_version1_latestdraft.pdf";

/// RFC 4122's namespace for URLs (and URIs): the names hashed here are
/// `urn:spinneret:…` URIs (WET and WAT record ids).
pub const NAMESPACE_URL: [u8; 16] = [
    0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8,
];

/// A WARC date: a second in UTC, written `YYYY-MM-DDThh:mm:ssZ`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WarcDate {
    /// Seconds since 1970-01-01T00:00:00Z.
    secs: i64,
}

impl WarcDate {
    /// This second (1970-01-01 on a clock set before it).
    pub fn now() -> WarcDate {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        WarcDate { secs }
    }

    /// From `YYYY-MM-DDThh:mm:ssZ` (years 0000 to 9999, no leap second).
    pub fn parse(s: &str) -> Result<WarcDate, String> {
        let bad = || format!("not a date of the form YYYY-MM-DDThh:mm:ssZ: {s:?}");
        let b = s.as_bytes();
        let shape = b.len() == 20
            && b.iter().enumerate().all(|(i, &c)| match i {
                4 | 7 => c == b'-',
                10 => c == b'T',
                13 | 16 => c == b':',
                19 => c == b'Z',
                _ => c.is_ascii_digit(),
            });
        if !shape {
            return Err(bad());
        }
        let num = |from: usize, to: usize| -> i64 {
            b[from..to]
                .iter()
                .fold(0, |n, &c| n * 10 + i64::from(c - b'0'))
        };
        let (y, m, d) = (num(0, 4), num(5, 7), num(8, 10));
        let (hh, mm, ss) = (num(11, 13), num(14, 16), num(17, 19));
        if !(1..=12).contains(&m)
            || d < 1
            || d > days_in_month(y, m)
            || hh > 23
            || mm > 59
            || ss > 59
        {
            return Err(bad());
        }
        Ok(WarcDate {
            secs: days_from_civil(y, m, d) * 86_400 + hh * 3600 + mm * 60 + ss,
        })
    }

    /// The date and time of day: (year, month, day, hour, minute, second),
    /// and the day of the week (0 for Sunday).
    fn parts(self) -> ((i64, i64, i64, i64, i64, i64), usize) {
        let days = self.secs.div_euclid(86_400);
        let rest = self.secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        // 1970-01-01 was a Thursday.
        let weekday = usize::try_from((days + 4).rem_euclid(7)).unwrap_or(0);
        ((y, m, d, rest / 3600, rest / 60 % 60, rest % 60), weekday)
    }

    /// `YYYY-MM-DDThh:mm:ssZ`, as `WARC-Date` is written.
    pub fn iso(self) -> String {
        let ((y, m, d, hh, mm, ss), _) = self.parts();
        format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
    }

    /// RFC 9110's IMF-fixdate (`Fri, 26 Apr 2024 04:32:32 GMT`), as
    /// Common Crawl writes `Extracted-Date`.
    pub fn http(self) -> String {
        const DAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
        const MONTHS: [&str; 12] = [
            "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
        ];
        let ((y, m, d, hh, mm, ss), weekday) = self.parts();
        let month = usize::try_from(m - 1).map_or("Jan", |i| MONTHS[i.min(11)]);
        format!(
            "{}, {d:02} {month} {y:04} {hh:02}:{mm:02}:{ss:02} GMT",
            DAYS[weekday.min(6)]
        )
    }
}

/// The RFC 4122 name-based UUID (version 5: SHA-1) of `name` in
/// `namespace`, as `<urn:uuid:…>`.
pub fn uuid_v5_urn(namespace: &[u8; 16], name: &[u8]) -> String {
    let hash = Sha1::new()
        .chain_update(namespace)
        .chain_update(name)
        .finalize();
    let mut u = [0u8; 16];
    u.copy_from_slice(&hash[..16]);
    u[6] = (u[6] & 0x0f) | 0x50;
    u[8] = (u[8] & 0x3f) | 0x80;
    let mut out = String::with_capacity(47);
    out.push_str("<urn:uuid:");
    for (i, b) in u.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push_str(&format!("{b:02x}"));
    }
    out.push('>');
    out
}

/// A record of `headers` (then `Content-Length`) and `block`, ended by
/// CRLF CRLF; gzipped as a member of its own when `gzip`.
pub fn warc_record(headers: &[(&str, &str)], block: &[u8], gzip: bool) -> io::Result<Vec<u8>> {
    let mut head = String::with_capacity(512);
    head.push_str(VERSION);
    head.push_str("\r\n");
    for (name, value) in headers {
        head.push_str(name);
        head.push_str(": ");
        head.push_str(&clean(value));
        head.push_str("\r\n");
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
    if !gzip {
        let mut out = Vec::with_capacity(head.len() + block.len() + 4);
        out.extend_from_slice(head.as_bytes());
        out.extend_from_slice(block);
        out.extend_from_slice(b"\r\n\r\n");
        return Ok(out);
    }
    // Level 6, as Common Crawl's files (zlib's default); libdeflate, one
    // call for the whole record: the benchmark WARC's WAT took 1.40 s on
    // one thread with flate2's miniz_oxide, 1.00 s with it, for a file
    // 0.5 % larger; the same bytes on every run (no file name, a zero
    // mtime).
    let mut record = Vec::with_capacity(head.len() + block.len() + 4);
    record.extend_from_slice(head.as_bytes());
    record.extend_from_slice(block);
    record.extend_from_slice(b"\r\n\r\n");
    COMPRESSOR.with_borrow_mut(|c| {
        let mut out = vec![0; c.gzip_compress_bound(record.len())];
        let n = c
            .gzip_compress(&record, &mut out)
            .map_err(|e| io::Error::other(format!("gzip: {e:?}")))?;
        out.truncate(n);
        Ok(out)
    })
}

thread_local! {
    /// Each thread's compressor (its state is allocated once).
    static COMPRESSOR: std::cell::RefCell<libdeflater::Compressor> =
        std::cell::RefCell::new(libdeflater::Compressor::new(
            libdeflater::CompressionLvl::new(6).unwrap_or_default(),
        ));
}

/// `value` without line breaks (each CR or LF a space): a header value
/// or a field line cannot hold one.
pub fn clean(value: &str) -> std::borrow::Cow<'_, str> {
    if value.contains(['\r', '\n']) {
        value.replace(['\r', '\n'], " ").into()
    } else {
        value.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_v5_of_rfc_examples() {
        // RFC 4122's DNS namespace and Python's uuid.uuid5(NAMESPACE_DNS,
        // "python.org").
        let dns = [
            0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4,
            0x30, 0xc8,
        ];
        assert_eq!(
            uuid_v5_urn(&dns, b"python.org"),
            "<urn:uuid:886313e1-3b8a-5372-9b90-0c9aee199e5d>"
        );
        // uuid.uuid5(NAMESPACE_URL, "http://example.com/").
        assert_eq!(
            uuid_v5_urn(&NAMESPACE_URL, b"http://example.com/"),
            "<urn:uuid:0a300ee9-f9e4-5697-a51a-efc7fafaba67>"
        );
    }

    #[test]
    fn dates_parse_and_print() {
        let d = WarcDate::parse("2024-04-26T04:32:32Z").unwrap();
        assert_eq!(d.iso(), "2024-04-26T04:32:32Z");
        assert_eq!(d.http(), "Fri, 26 Apr 2024 04:32:32 GMT");
        let epoch = WarcDate::parse("1970-01-01T00:00:00Z").unwrap();
        assert_eq!(epoch.secs, 0);
        assert_eq!(epoch.http(), "Thu, 01 Jan 1970 00:00:00 GMT");
        let leap = WarcDate::parse("2000-02-29T23:59:59Z").unwrap();
        assert_eq!(leap.http(), "Tue, 29 Feb 2000 23:59:59 GMT");
        assert_eq!(
            WarcDate::parse("1969-12-31T23:59:59Z").unwrap().iso(),
            "1969-12-31T23:59:59Z"
        );
        for bad in [
            "",
            "2024-04-26",
            "2024-04-26T04:32:32",
            "2024-04-26 04:32:32Z",
            "2023-02-29T00:00:00Z",
            "2024-13-01T00:00:00Z",
            "2024-00-01T00:00:00Z",
            "2024-04-31T00:00:00Z",
            "2024-04-26T24:00:00Z",
            "2024-04-26T04:60:00Z",
            "2024-04-26T04:32:60Z",
            "+024-04-26T04:32:32Z",
            "２024-04-26T04:32:32Z",
        ] {
            assert!(WarcDate::parse(bad).is_err(), "{bad:?}");
        }
        // Every day of four centuries round-trips.
        let mut day = days_from_civil(1900, 1, 1);
        let end = days_from_civil(2300, 1, 1);
        while day < end {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
            let text = WarcDate { secs: day * 86_400 }.iso();
            assert_eq!(WarcDate::parse(&text).unwrap().secs, day * 86_400);
            day += 1;
        }
        let now = WarcDate::now();
        assert_eq!(WarcDate::parse(&now.iso()), Ok(now));
    }
}
