//! `get --payload DIR`: each fetched record's payload — the HTTP body with
//! its transfer and content codings removed (what a browser renders;
//! `spinneret-warc`'s [`Content::Payload`]), a `resource` record's block —
//! one file each, `NNNNNN.EXT` in the order of the index lines (the
//! extension from the payload's media type), and `index.tsv` listing every
//! file with its record: `file`, `url`, `date`, `status`, `mime`, and the
//! index line's `filename`, `offset`, `length`. A record with no payload
//! (a revisit, a request) still gets its file, empty, and its row.
//!
//! The folder is made under a temporary name and put in place when the run
//! ends (as `index --zipnum`'s), `index.tsv` last.

use std::io::Write;
use std::path::Path;

use spinneret_index::fetch::Location;
use spinneret_warc::{Content, Options, Reader};

use crate::Error;
use crate::escape::tsv_escape;
use crate::outputs::pending::PendingDir;

/// The payload files being written.
pub struct Payloads {
    dir: PendingDir,
    index: String,
    written: u64,
}

impl Payloads {
    /// Starts the folder `path`.
    pub fn create(path: &Path) -> Result<Payloads, Error> {
        let dir = PendingDir::create(path).map_err(|source| payload_error(path, source))?;
        Ok(Payloads {
            dir,
            index: "file\turl\tdate\tstatus\tmime\tfilename\toffset\tlength\n".to_owned(),
            written: 0,
        })
    }

    /// Writes the payload of the record `member` (a gzip member holding
    /// one WARC record, as `get` checked it) fetched for `loc`; the bytes
    /// written.
    pub fn write(&mut self, member: &[u8], loc: &Location, max: u64) -> Result<u64, Error> {
        let opts = Options {
            max_record_size: max,
            content: Content::Payload,
            ..Options::default()
        };
        let record = Reader::from_read(std::io::Cursor::new(member), opts)
            .next()
            .and_then(Result::ok);
        let (payload, url, date, status, mime) = match &record {
            Some(r) => (
                &r.body[..],
                r.target_uri.clone().unwrap_or_default(),
                r.date.clone().unwrap_or_default(),
                r.status().map(|s| s.to_string()).unwrap_or_default(),
                r.payload_content_type().unwrap_or_default().to_owned(),
            ),
            None => (
                &[][..],
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ),
        };
        self.written += 1;
        let name = format!("{:06}.{}", self.written, extension(&mime));
        let path = self.dir.temporary().join(&name);
        std::fs::write(&path, payload).map_err(|source| payload_error(&path, source))?;
        let fields = [
            name.as_str(),
            &url,
            &date,
            &status,
            &mime,
            &loc.filename,
            &loc.offset.to_string(),
            &loc.length.to_string(),
        ];
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                self.index.push('\t');
            }
            tsv_escape(f, &mut self.index);
        }
        self.index.push('\n');
        Ok(payload.len() as u64)
    }

    /// Writes `index.tsv` and puts the folder in place.
    pub fn commit(self) -> Result<(), Error> {
        let index = self.dir.temporary().join("index.tsv");
        std::fs::File::create(&index)
            .and_then(|mut f| f.write_all(self.index.as_bytes()))
            .map_err(|source| payload_error(&index, source))?;
        let folder = self.dir.temporary().to_owned();
        self.dir
            .commit(&["index.tsv"])
            .map_err(|source| payload_error(&folder, source))
    }
}

fn payload_error(path: &Path, source: std::io::Error) -> Error {
    Error::Payload {
        path: path.display().to_string(),
        source,
    }
}

/// A file extension for a media type (`bin` when none fits).
fn extension(mime: &str) -> &'static str {
    let essence = mime
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match essence.as_str() {
        "text/html" | "application/xhtml+xml" => "html",
        "text/plain" => "txt",
        "text/css" => "css",
        "text/javascript" | "application/javascript" | "application/x-javascript" => "js",
        "application/json" => "json",
        "application/xml" | "text/xml" => "xml",
        "application/pdf" => "pdf",
        "image/png" => "png",
        "image/jpeg" => "jpg",
        "image/gif" => "gif",
        "image/svg+xml" => "svg",
        "image/webp" => "webp",
        _ => "bin",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_follow_the_media_type() {
        assert_eq!(extension("text/html; charset=utf-8"), "html");
        assert_eq!(extension("IMAGE/PNG"), "png");
        assert_eq!(extension(""), "bin");
        assert_eq!(extension("application/octet-stream"), "bin");
    }
}
