//! `--manifest`: a list of inputs, plain or gzip — HTML pages with their
//! URLs (a TSV whose header names `path` and `url` columns), or WARC/ARC
//! files, one path a line (Common Crawl's `warc.paths.gz`).

use std::path::{Path, PathBuf};

use super::resolve::Resolver;
use super::source::{Source, looks_remote};
use crate::Error;

/// A manifest's text: gzip decompressed (by its magic), lossy UTF-8.
fn read_manifest_text(manifest: &Path) -> Result<String, Error> {
    spinneret_warc::discover::read_list_file(manifest).map_err(|source| Error::Input {
        path: manifest.display().to_string(),
        source,
    })
}

/// The paths a list of WARC/ARC files names, in order (`#` comments and
/// blank lines skipped).
fn listed_paths(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// The column positions of `path` and `url` when the header line of a
/// manifest names both (a TSV of HTML pages).
fn page_columns(header: &str) -> Option<(usize, usize)> {
    let header: Vec<&str> = header.split('\t').map(str::trim).collect();
    let col = |want: &str| header.iter().position(|h| *h == want);
    Some((col("path")?, col("url")?))
}

/// The HTML pages of a manifest whose header line names `path` and `url`
/// columns (others ignored). Rows with too few columns are kept with an
/// empty URL and reported as bad when processed.
fn pages_of_manifest(
    text: &str,
    manifest: &Path,
    dir: &Path,
) -> Result<Vec<(PathBuf, String)>, Error> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    let Some((pc, uc)) = page_columns(header) else {
        return Err(Error::Manifest {
            path: manifest.display().to_string(),
            what: "no `path` and `url` columns in the header line".to_owned(),
        });
    };
    Ok(lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let p = f.get(pc).copied().unwrap_or("");
            let u = f.get(uc).copied().unwrap_or("");
            (dir.join(p), u.trim().to_owned())
        })
        .collect())
}

/// The sources a `--manifest` lists: HTML pages when its header line
/// names `path` and `url` columns (a TSV), else WARC/ARC files, one path a
/// line (Common Crawl's `warc.paths.gz`; plain or gzip). Relative paths are
/// joined to `dir` (`--dir`, `--base`), by default the manifest's folder;
/// a remote base (`s3://commoncrawl/`) makes every relative path a key
/// under it. A listed WARC path is taken whatever its name; one that is a
/// directory is walked.
pub fn manifest_sources(
    manifest: &Path,
    dir: Option<&Path>,
    resolver: &Resolver<'_>,
) -> Result<Vec<Source>, Error> {
    let dir = dir.or(manifest.parent()).unwrap_or(Path::new(""));
    let text = read_manifest_text(manifest)?;
    if page_columns(text.lines().next().unwrap_or("")).is_some() {
        return Ok(vec![Source::Pages(pages_of_manifest(
            &text, manifest, dir,
        )?)]);
    }
    let base = dir.to_str().filter(|d| looks_remote(d));
    Ok(listed_paths(&text)
        .flat_map(|line| {
            let name = if looks_remote(line) {
                line.to_owned()
            } else if let Some(base) = base {
                format!(
                    "{}/{}",
                    base.trim_end_matches('/'),
                    line.trim_start_matches('/')
                )
            } else {
                dir.join(line).display().to_string()
            };
            resolver.expand(&name)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::super::source::tmpdir;
    use super::*;
    use crate::inputs::InputArgs;
    use spinneret_warc::discover::Discover;

    #[test]
    fn a_manifest_lists_pages_or_crawl_files() {
        use std::io::Write;
        let d = tmpdir("manifest-kinds");
        std::fs::create_dir_all(d.join("crawl-data")).unwrap();
        std::fs::write(d.join("crawl-data/a.warc.gz"), b"x").unwrap();
        let paths = "crawl-data/a.warc.gz\ncrawl-data/gone.warc.gz\nftp://host/x.warc.gz\n";
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(paths.as_bytes()).unwrap();
        std::fs::write(d.join("warc.paths.gz"), gz.finish().unwrap()).unwrap();
        let args = InputArgs::default();
        let resolver = args.resolver(Discover::default());
        let got = manifest_sources(&d.join("warc.paths.gz"), Some(&d), &resolver).unwrap();
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(got[0], Source::Warc(d.join("crawl-data/a.warc.gz")));
        assert!(
            matches!(&got[1], Source::Unreadable { name, .. } if name.ends_with("gone.warc.gz"))
        );
        assert!(matches!(&got[2], Source::Unreadable { what, .. } if what.contains("s3://")));
        std::fs::write(d.join("pages.tsv"), "url\tpath\nhttps://a/\tp.html\n").unwrap();
        let got = manifest_sources(&d.join("pages.tsv"), Some(Path::new("/b")), &resolver);
        assert_eq!(
            got.unwrap(),
            [Source::Pages(vec![(
                PathBuf::from("/b/p.html"),
                "https://a/".to_owned()
            )])]
        );
        std::fs::remove_dir_all(d).unwrap();
    }

    /// The pages of a manifest of HTML pages.
    fn read_manifest(m: &Path, dir: &Path) -> Result<Vec<(PathBuf, String)>, Error> {
        pages_of_manifest(&read_manifest_text(m)?, m, dir)
    }

    #[test]
    fn manifest_columns() {
        let d = tmpdir("manifest");
        let m = d.join("m.tsv");
        std::fs::write(&m, "id\turl\tpath\n1\thttps://a/\tp/a.html\n2\n").unwrap();
        let rows = read_manifest(&m, Path::new("/base")).unwrap();
        assert_eq!(
            rows,
            [
                (PathBuf::from("/base/p/a.html"), "https://a/".to_owned()),
                (PathBuf::from("/base"), String::new()),
            ]
        );
        std::fs::write(&m, "id\tpath\n").unwrap();
        assert!(matches!(read_manifest(&m, &d), Err(Error::Manifest { .. })));
        std::fs::remove_dir_all(d).unwrap();
    }
}
