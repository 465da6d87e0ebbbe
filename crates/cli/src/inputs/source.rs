//! What the inputs of a command are, once resolved: [`Source`]s (a WARC/ARC
//! file, standard input, HTML pages, an input that yields nothing), and
//! the work [`Item`]s the producer reads from them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use spinneret_warc::discover::Discover;
use spinneret_warc::{Container, Record};

/// One input, as resolved from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A WARC/ARC file.
    Warc(PathBuf),
    /// Standard input, streamed.
    Stdin,
    /// One HTML page and its URL.
    Html {
        /// The HTML file.
        path: PathBuf,
        /// The URL it was fetched from (empty when none was given, which
        /// only `text` allows).
        url: String,
    },
    /// HTML pages listed in a manifest: `(path, url)`, paths resolved.
    Pages(Vec<(PathBuf, String)>),
    /// A remote WARC/ARC object (`s3://`, `gs://`, `az://`, `http(s)://`),
    /// streamed.
    #[cfg(feature = "remote")]
    Remote {
        /// Its URL, as given (shown [`redact`](spinneret_remote::redact())ed).
        url: String,
        /// Its size, when a listing gave it.
        size: Option<u64>,
        /// The client that reads it.
        remote: super::remote::Remote,
    },
    /// An input that yields nothing: reported in its place.
    Unreadable {
        /// The input, as given.
        name: String,
        /// Why (for stderr).
        what: String,
    },
}

/// A unit of work, in input order.
#[derive(Debug)]
pub enum Item {
    /// A WARC/ARC record of `file`.
    Record {
        /// The input file's name, as given.
        file: Arc<str>,
        /// The record.
        record: Box<Record>,
        /// The file offset where the next item (record or damage) starts,
        /// or the file's size after the last: with [`Record::offset`], the
        /// byte range a replay system reads (for a compressed file, the
        /// record's gzip members — when two records share a member, the
        /// first one's `end` equals its offset).
        end: u64,
        /// The file's container (plain, gzip, zstd).
        container: Container,
    },
    /// An HTML file with its URL.
    Page {
        /// The file's path, as listed.
        file: Arc<str>,
        /// The page's URL.
        url: String,
        /// The file's bytes (decompressed when `.gz`).
        body: Vec<u8>,
    },
    /// An input that could not be read at all: reported, counted, and
    /// the run's exit code is 1.
    Unreadable {
        /// The input's name.
        file: Arc<str>,
        /// What is wrong (for stderr).
        what: String,
    },
    /// A bad record or page: reported, counted, skipped.
    Bad {
        /// The input file's name, as given.
        file: Arc<str>,
        /// The damaged record's offset in the file, when there is one.
        offset: Option<u64>,
        /// What is wrong (for stderr).
        what: String,
    },
}

impl Item {
    /// An estimate of the memory the item holds (for batch sizing).
    pub fn weight(&self) -> usize {
        match self {
            Item::Record { record, .. } => record.body.len() + record.block.len() + 512,
            Item::Page { body, .. } => body.len() + 256,
            Item::Bad { .. } | Item::Unreadable { .. } => 64,
        }
    }
}

/// Expands one positional input into sources: `-` is standard input; a
/// file, a directory (walked for WARC/ARC files) or a glob is expanded by
/// [`Discover::expand`], each part that yields no file becoming a
/// [`Source::Unreadable`] in its place.
pub fn expand_input(input: &str, discover: Discover) -> Vec<Source> {
    if input == "-" {
        return vec![Source::Stdin];
    }
    if looks_remote(input) {
        return vec![Source::Unreadable {
            name: input.split('?').next().unwrap_or_default().to_owned(),
            what: if cfg!(feature = "remote") {
                "a URL of a kind spinneret does not read (it reads s3://, gs://, az://, http:// and https://)"
            } else {
                "a remote input: this build of spinneret has no `remote` feature"
            }
            .to_owned(),
        }];
    }
    discover
        .expand(input)
        .into_iter()
        .map(|found| match found {
            Ok(path) => Source::Warc(path),
            Err(e) => Source::Unreadable {
                name: e.path().to_owned(),
                what: e.reason(),
            },
        })
        .collect()
}

/// A source's name as shown (a remote one [`redact`](spinneret_remote::redact())ed).
pub fn source_name(s: &Source) -> String {
    match s {
        Source::Warc(p) | Source::Html { path: p, .. } => p.display().to_string(),
        Source::Stdin => "-".to_owned(),
        Source::Pages(_) => String::new(),
        Source::Unreadable { name, .. } => name.clone(),
        #[cfg(feature = "remote")]
        Source::Remote { url, .. } => spinneret_remote::redact(url),
    }
}

/// Whether `input` starts like a URL (`SCHEME://`, the scheme two or more
/// letters, digits, `+`, `-` or `.`): not a local path.
pub fn looks_remote(input: &str) -> bool {
    input.split_once("://").is_some_and(|(scheme, _)| {
        scheme.len() >= 2
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// The size in bytes of a source, for progress (0 when unknown).
pub fn source_len(s: &Source) -> u64 {
    let len = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    match s {
        Source::Warc(p) | Source::Html { path: p, .. } => len(p),
        Source::Stdin | Source::Unreadable { .. } => 0,
        Source::Pages(v) => v.iter().map(|(p, _)| len(p)).sum(),
        #[cfg(feature = "remote")]
        Source::Remote { size, .. } => size.unwrap_or(0),
    }
}

/// The number of inputs: a manifest's pages each count as one.
pub fn count(sources: &[Source]) -> u64 {
    sources
        .iter()
        .map(|s| match s {
            Source::Pages(v) => v.len() as u64,
            _ => 1,
        })
        .sum()
}

/// A fresh folder for a test's files.
#[cfg(test)]
pub(crate) fn tmpdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("spinneret-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_expand_in_order_with_unreadable_ones_in_place() {
        let d = tmpdir("glob");
        for n in ["b.warc", "a.warc", "c.txt", "tree/x.warc.gz", "tree/y.txt"] {
            let p = d.join(n);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, b"x").unwrap();
        }
        let discover = Discover::default();
        let pat = format!("{}/*.warc", d.display());
        assert_eq!(
            expand_input(&pat, discover),
            [
                Source::Warc(d.join("a.warc")),
                Source::Warc(d.join("b.warc"))
            ]
        );
        // A directory is walked; a named file is taken whatever its name.
        let tree = d.join("tree");
        assert_eq!(
            expand_input(tree.to_str().unwrap(), discover),
            [Source::Warc(tree.join("x.warc.gz"))]
        );
        let txt = d.join("c.txt");
        assert_eq!(
            expand_input(txt.to_str().unwrap(), discover),
            [Source::Warc(txt.clone())]
        );
        for missing in [
            format!("{}/*.none", d.display()),
            format!("{}/missing.warc", d.display()),
        ] {
            let got = expand_input(&missing, discover);
            assert!(
                matches!(&got[..], [Source::Unreadable { .. }]),
                "{missing}: {got:?}"
            );
        }
        assert_eq!(expand_input("-", discover), [Source::Stdin]);
        std::fs::remove_dir_all(d).unwrap();
    }
}
