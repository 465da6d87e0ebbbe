//! Which files a command line names: crawl files as users give them.
//!
//! A user hands a crawl tool what they have at hand: a file, a glob, a
//! directory tree of WARCs, or a list of paths such as Common Crawl's
//! `warc.paths.gz`. [`Discover::expand`] turns one such argument into the files to
//! read, in the order they are to be read:
//!
//! - a **file** is taken as it is, whatever its name;
//! - a **directory** is walked recursively, entries sorted by name (so the
//!   files come in the order of their sorted paths), hidden entries (a name
//!   starting with `.`) skipped, symbolic links followed with loops
//!   detected; of its files, those named like WARC/ARC files
//!   ([`is_crawl_file_name`]) are taken, and with [`Discover::sniff`] any
//!   other file whose content starts like one ([`sniff_crawl_file`]);
//! - a **glob** (`*`, `?`, `[`) is expanded, its matches sorted; a match
//!   that is a directory is walked as above.
//!
//! [`read_path_list`] reads a list of paths, one a line, plain or gzip.
//!
//! Invariant: nothing is dropped silently. Every argument yields its files,
//! or an [`InputError`] in their place (a missing path, a glob that matches
//! nothing, a directory that cannot be read, a symbolic-link loop), at the
//! position where its files would have been; the caller reports it and
//! goes on with the rest.

use std::io::Read;
use std::path::{Path, PathBuf};

/// Why an argument, or part of a directory tree, yields no file.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The path cannot be read (missing, permission denied, …).
    #[error("{path}: {source}")]
    Io {
        /// The path, as given or as found in the walk.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// A glob that matches no file, or is not a valid pattern.
    #[error("{pattern}: {what}")]
    Glob {
        /// The pattern, as given.
        pattern: String,
        /// What is wrong.
        what: String,
    },
    /// A symbolic link that leads back to a directory above it.
    #[error("{path}: symbolic link loop (to {ancestor}), not followed")]
    Loop {
        /// The link.
        path: String,
        /// The directory it leads back to.
        ancestor: String,
    },
}

impl InputError {
    /// The path or pattern the error is about.
    pub fn path(&self) -> &str {
        match self {
            InputError::Io { path, .. } | InputError::Loop { path, .. } => path,
            InputError::Glob { pattern, .. } => pattern,
        }
    }

    /// What is wrong, without the path.
    pub fn reason(&self) -> String {
        match self {
            InputError::Io { source, .. } => source.to_string(),
            InputError::Glob { what, .. } => what.clone(),
            InputError::Loop { ancestor, .. } => {
                format!("symbolic link loop (to {ancestor}), not followed")
            }
        }
    }
}

/// How [`Discover::expand`] chooses the files of a directory.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Discover {
    /// Besides files named like WARC/ARC files, take the files whose content
    /// starts like one (each such file is opened and its first bytes read).
    pub sniff: bool,
    /// Also take CDX and CDXJ indexes ([`is_index_file_name`]).
    pub indexes: bool,
}

/// The compression suffixes a crawl file may carry, which the reader
/// decodes (`.gz` per record or whole file, zstd).
const COMPRESSION: [&str; 3] = [".gz", ".zst", ".zstd"];

/// Whether a file name is that of a WARC or ARC file: `.warc` or `.arc`,
/// plain or compressed (`.gz`, `.zst`, `.zstd`), in any case. Common
/// Crawl's derived `.warc.wat.gz` and `.warc.wet.gz` hold no HTTP
/// responses and are not taken; name them, or use a glob, to read them.
pub fn is_crawl_file_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let mut stem = name.as_str();
    for c in COMPRESSION {
        if let Some(s) = stem.strip_suffix(c) {
            stem = s;
            break;
        }
    }
    stem.ends_with(".warc") || stem.ends_with(".arc")
}

/// Whether a file name is that of a CDX or CDXJ index: `.cdx` or `.cdxj`,
/// plain or `.gz`, in any case.
pub fn is_index_file_name(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let stem = name.strip_suffix(".gz").unwrap_or(&name);
    stem.ends_with(".cdx") || stem.ends_with(".cdxj")
}

/// How many decoded bytes [`sniff_crawl_file`] reads.
const SNIFF_BYTES: u64 = 16;

/// Whether `path`'s content starts like a WARC record (`WARC/`) or an ARC
/// file (`filedesc://`), after gzip or zstd decoding when it starts with
/// their magic. Reads at most a few kilobytes; an unreadable file is not
/// one.
pub fn sniff_crawl_file(path: &Path) -> bool {
    let Ok(mut file) = std::fs::File::open(path) else {
        return false;
    };
    let mut magic = Vec::with_capacity(4);
    if (&mut file).take(4).read_to_end(&mut magic).is_err() {
        return false;
    }
    // The file read once: its first bytes, then the rest.
    let stream = magic.as_slice().chain(file);
    let decoded: Box<dyn Read + '_> = if magic.starts_with(&[0x1f, 0x8b]) {
        Box::new(flate2::read::GzDecoder::new(stream))
    } else if magic == [0x28, 0xb5, 0x2f, 0xfd] {
        match zstd::stream::read::Decoder::new(stream) {
            Ok(d) => Box::new(d),
            Err(_) => return false,
        }
    } else {
        Box::new(stream)
    };
    let mut head = Vec::with_capacity(SNIFF_BYTES as usize);
    // A stream that fails after the first bytes still says what it is.
    let _ = decoded.take(SNIFF_BYTES).read_to_end(&mut head);
    head.starts_with(b"WARC/") || head.starts_with(b"filedesc://")
}

fn has_glob_chars(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

impl Discover {
    /// The files one command-line argument names, in reading order, with
    /// an error in place of each part that yields none (see the module
    /// doc). `-` is not handled here (standard input is the caller's).
    pub fn expand(&self, arg: &str) -> Vec<Result<PathBuf, InputError>> {
        let path = Path::new(arg);
        // An existing path is itself even when it has glob characters.
        if path.symlink_metadata().is_ok() || !has_glob_chars(arg) {
            return self.expand_path(path);
        }
        let matches = match glob::glob(arg) {
            Ok(m) => m,
            Err(e) => {
                return vec![Err(InputError::Glob {
                    pattern: arg.to_owned(),
                    what: e.to_string(),
                })];
            }
        };
        let mut found: Vec<Result<PathBuf, InputError>> = Vec::new();
        let mut paths = Vec::new();
        for m in matches {
            match m {
                Ok(p) => paths.push(p),
                Err(e) => found.push(Err(InputError::Io {
                    path: e.path().display().to_string(),
                    source: e.into(),
                })),
            }
        }
        if paths.is_empty() && found.is_empty() {
            return vec![Err(InputError::Glob {
                pattern: arg.to_owned(),
                what: "no file matches".to_owned(),
            })];
        }
        paths.sort();
        for p in paths {
            if p.is_dir() {
                found.extend(self.walk(&p));
            } else {
                found.push(Ok(p));
            }
        }
        found
    }

    /// A path named on the command line: a file as it is, a directory
    /// walked.
    fn expand_path(&self, path: &Path) -> Vec<Result<PathBuf, InputError>> {
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => self.walk(path),
            Ok(_) => vec![Ok(path.to_owned())],
            Err(source) => vec![Err(InputError::Io {
                path: path.display().to_string(),
                source,
            })],
        }
    }

    /// The crawl files of the tree at `dir`, sorted by path.
    fn walk(&self, dir: &Path) -> Vec<Result<PathBuf, InputError>> {
        let walker = walkdir::WalkDir::new(dir)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter()
            // The root is walked whatever its name (`.` or a hidden folder
            // named on purpose); below it, hidden entries are skipped.
            .filter_entry(|e| {
                e.depth() == 0 || !e.file_name().as_encoded_bytes().starts_with(b".")
            });
        let mut out = Vec::new();
        for entry in walker {
            match entry {
                Ok(e) if e.file_type().is_file() => {
                    let name = e.file_name().to_string_lossy();
                    let take = is_crawl_file_name(&name)
                        || (self.indexes && is_index_file_name(&name))
                        || (self.sniff && sniff_crawl_file(e.path()));
                    if take {
                        out.push(Ok(e.into_path()));
                    }
                }
                Ok(_) => {}
                Err(e) => out.push(Err(walk_error(e))),
            }
        }
        out
    }
}

fn walk_error(e: walkdir::Error) -> InputError {
    let path = e
        .path()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    if let Some(ancestor) = e.loop_ancestor() {
        return InputError::Loop {
            path,
            ancestor: ancestor.display().to_string(),
        };
    }
    let source = e
        .into_io_error()
        .unwrap_or_else(|| std::io::Error::other("cannot be walked"));
    InputError::Io { path, source }
}

/// Reads a list of paths, one a line (blank lines and lines starting with
/// `#` skipped, surrounding whitespace trimmed), from a plain or gzip file
/// (Common Crawl's `warc.paths.gz`). Relative paths are joined to `dir`.
pub fn read_path_list(list: &Path, dir: &Path) -> Result<Vec<PathBuf>, InputError> {
    let text = read_list_file(list).map_err(|source| InputError::Io {
        path: list.display().to_string(),
        source,
    })?;
    Ok(paths_of_list(&text, dir))
}

/// A list file's text: gzip decompressed when it starts with gzip's magic
/// (whatever its name), lossy UTF-8.
pub fn read_list_file(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(String::from_utf8_lossy(&bytes).into_owned());
    }
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_end(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// The paths a list's text names, one a line (see [`read_path_list`]).
pub fn paths_of_list(text: &str, dir: &Path) -> Vec<PathBuf> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| dir.join(l))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A folder of the test's own, removed when the test ends.
    struct TempDir(PathBuf);

    impl std::ops::Deref for TempDir {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn tmpdir(name: &str) -> TempDir {
        let d =
            std::env::temp_dir().join(format!("spinneret-discover-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        TempDir(d)
    }

    fn touch(p: &Path, bytes: &[u8]) {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn ok(v: Vec<Result<PathBuf, InputError>>) -> Vec<PathBuf> {
        v.into_iter().map(|r| r.unwrap()).collect()
    }

    #[test]
    fn names() {
        for yes in [
            "a.warc",
            "a.WARC.GZ",
            "a.arc",
            "a.arc.gz",
            "a.warc.zst",
            "a.warc.zstd",
            "CC-MAIN-x.warc.gz",
        ] {
            assert!(is_crawl_file_name(yes), "{yes}");
        }
        for no in [
            "a.warc.wat.gz",
            "a.warc.wet.gz",
            "a.gz",
            "a.cdxj",
            "warc",
            "a.warc.gz.open",
            "a.warc.gz.gz",
        ] {
            assert!(!is_crawl_file_name(no), "{no}");
        }
    }

    #[test]
    fn a_tree_is_walked_sorted_with_hidden_entries_skipped() {
        let d = tmpdir("tree");
        for p in [
            "b/2.warc.gz",
            "b/1.arc",
            "a-b/x.warc",
            "a/z.warc.zst",
            "top.warc",
            ".hidden/h.warc",
            "b/.h.warc",
            "b/notes.txt",
        ] {
            touch(&d.join(p), b"");
        }
        let got = ok(Discover::default().expand(d.to_str().unwrap()));
        let want: Vec<PathBuf> = [
            "a/z.warc.zst",
            "a-b/x.warc",
            "b/1.arc",
            "b/2.warc.gz",
            "top.warc",
        ]
        .iter()
        .map(|p| d.join(p))
        .collect();
        assert_eq!(got, want);
        // The same order as the paths sorted.
        let mut sorted = want.clone();
        sorted.sort();
        assert_eq!(got, sorted);
    }

    #[test]
    fn sniffing_takes_crawl_files_by_content() {
        let d = tmpdir("sniff");
        touch(&d.join("plain.bin"), b"WARC/1.0\r\nWARC-Type: warcinfo\r\n");
        touch(
            &d.join("arc.dat"),
            b"filedesc://x.arc 0.0.0.0 2000 text/plain 10\n",
        );
        touch(&d.join("other.dat"), b"<html>not a crawl file</html>");
        touch(&d.join("short"), b"WA");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"WARC/1.1\r\n").unwrap();
        touch(&d.join("member"), &gz.finish().unwrap());
        let z = zstd::encode_all(&b"WARC/1.0\r\n"[..], 1).unwrap();
        touch(&d.join("zst"), &z);
        touch(&d.join("garbage-gz"), &[0x1f, 0x8b, 8, 0, 1, 2, 3]);
        let by_name = ok(Discover::default().expand(d.to_str().unwrap()));
        assert!(by_name.is_empty(), "{by_name:?}");
        let sniff = Discover {
            sniff: true,
            ..Discover::default()
        };
        let got = ok(sniff.expand(d.to_str().unwrap()));
        let names: Vec<_> = got
            .iter()
            .map(|p| p.file_name().unwrap().to_str().unwrap())
            .collect();
        assert_eq!(names, ["arc.dat", "member", "plain.bin", "zst"]);
    }

    #[test]
    fn a_named_file_is_taken_whatever_its_name() {
        let d = tmpdir("named");
        touch(&d.join("x.bin"), b"");
        let arg = d.join("x.bin");
        assert_eq!(ok(Discover::default().expand(arg.to_str().unwrap())), [arg]);
    }

    #[test]
    fn missing_paths_and_empty_globs_are_errors_in_place() {
        let d = tmpdir("missing");
        let missing = d.join("nope.warc");
        let r = Discover::default().expand(missing.to_str().unwrap());
        assert!(matches!(&r[..], [Err(InputError::Io { .. })]), "{r:?}");
        let pattern = d.join("*.warc");
        let r = Discover::default().expand(pattern.to_str().unwrap());
        assert!(matches!(&r[..], [Err(InputError::Glob { .. })]), "{r:?}");
        assert!(
            r[0].as_ref()
                .unwrap_err()
                .to_string()
                .contains("no file matches")
        );
    }

    #[test]
    fn globs_expand_sorted_and_walk_matched_directories() {
        let d = tmpdir("glob");
        touch(&d.join("c.warc"), b"");
        touch(&d.join("a.warc"), b"");
        touch(&d.join("b/x.warc.gz"), b"");
        touch(&d.join("b/y.txt"), b"");
        let pattern = format!("{}/*", d.display());
        let got = ok(Discover::default().expand(&pattern));
        assert_eq!(
            got,
            [d.join("a.warc"), d.join("b/x.warc.gz"), d.join("c.warc")]
        );
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loops_are_reported_and_the_walk_goes_on() {
        let d = tmpdir("loop");
        touch(&d.join("a/1.warc"), b"");
        touch(&d.join("z.warc"), b"");
        std::os::unix::fs::symlink(&*d, d.join("a/up")).unwrap();
        let r = Discover::default().expand(d.to_str().unwrap());
        let loops = r
            .iter()
            .filter(|x| matches!(x, Err(InputError::Loop { .. })))
            .count();
        assert_eq!(loops, 1, "{r:?}");
        let files: Vec<_> = r.into_iter().filter_map(Result::ok).collect();
        assert_eq!(files, [d.join("a/1.warc"), d.join("z.warc")]);
    }

    #[cfg(unix)]
    #[test]
    fn an_unreadable_directory_is_reported_in_place() {
        use std::os::unix::fs::PermissionsExt;
        let d = tmpdir("unreadable");
        touch(&d.join("a.warc"), b"");
        touch(&d.join("b/x.warc"), b"");
        touch(&d.join("c.warc"), b"");
        std::fs::set_permissions(d.join("b"), std::fs::Permissions::from_mode(0o000)).unwrap();
        let r = Discover::default().expand(d.to_str().unwrap());
        std::fs::set_permissions(d.join("b"), std::fs::Permissions::from_mode(0o755)).unwrap();
        // Root reads any directory: then the walk finds the file.
        if r.iter().all(Result::is_ok) {
            assert_eq!(
                ok(r),
                [d.join("a.warc"), d.join("b/x.warc"), d.join("c.warc")]
            );
            return;
        }
        assert!(r[0].is_ok() && r[1].is_err() && r[2].is_ok(), "{r:?}");
    }

    #[test]
    fn path_lists_plain_and_gzip() {
        let d = tmpdir("list");
        let text = "# Common Crawl\ncrawl-data/a.warc.gz\n\n  /abs/b.warc.gz  \n";
        touch(&d.join("plain.paths"), text.as_bytes());
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text.as_bytes()).unwrap();
        touch(&d.join("warc.paths.gz"), &gz.finish().unwrap());
        for name in ["plain.paths", "warc.paths.gz"] {
            let got = read_path_list(&d.join(name), Path::new("/base")).unwrap();
            assert_eq!(
                got,
                [
                    PathBuf::from("/base/crawl-data/a.warc.gz"),
                    PathBuf::from("/abs/b.warc.gz")
                ]
            );
        }
        assert!(read_path_list(&d.join("none"), &d).is_err());
    }
}
