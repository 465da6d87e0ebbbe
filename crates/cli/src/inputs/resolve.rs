//! A command line's inputs to [`Source`]s, in order.

use std::path::Path;

use spinneret_warc::discover::Discover;

use super::manifest::manifest_sources;
use super::source::{Source, expand_input};
use crate::Error;

/// The inputs of a subcommand that reads crawl files and HTML pages
/// (`links`, `text`), as given on its command line.
#[derive(Debug, Clone, Copy)]
pub struct Inputs<'a> {
    /// Positional inputs: files, directories, globs, `-`.
    pub inputs: &'a [String],
    /// `--sniff`: in directories, take files whose content is WARC/ARC.
    pub sniff: bool,
    /// `--html FILE`: one HTML page.
    pub html: Option<&'a Path>,
    /// `--url URL`: the `--html` page's URL. Without it the page's
    /// [`Source::Html::url`] is empty (`text` takes such a page; `links`
    /// requires the URL on its command line).
    pub url: Option<&'a str>,
    /// `--manifest FILE`.
    pub manifest: Option<&'a Path>,
    /// `--dir DIR`: the folder the manifest's paths are relative to.
    pub dir: Option<&'a Path>,
}

/// Resolves `inputs`, in order: positional inputs, `--html`,
/// `--manifest`. A `--url` that is not a URL is an [`Error::Url`].
pub fn resolve_inputs(inputs: &Inputs<'_>) -> Result<Vec<Source>, Error> {
    let discover = Discover {
        sniff: inputs.sniff,
        ..Discover::default()
    };
    let mut out = Vec::new();
    for i in inputs.inputs {
        out.extend(expand_input(i, discover));
    }
    if let Some(url) = inputs.url {
        spinneret_url::Url::parse(url).map_err(|source| Error::Url {
            url: url.to_owned(),
            source,
        })?;
    }
    if let Some(path) = inputs.html {
        out.push(Source::Html {
            path: path.to_owned(),
            url: inputs.url.unwrap_or_default().to_owned(),
        });
    }
    if let Some(m) = inputs.manifest {
        out.extend(manifest_sources(m, inputs.dir, discover)?);
    }
    if out.is_empty() {
        return Err(Error::NoInput);
    }
    Ok(out)
}

/// Resolves crawl-file inputs (`index`, `check`): positional inputs, then
/// `--manifest` (relative to `dir`).
pub fn resolve_crawl(
    inputs: &[String],
    sniff: bool,
    manifest: Option<&Path>,
    dir: Option<&Path>,
) -> Result<Vec<Source>, Error> {
    let discover = Discover {
        sniff,
        ..Discover::default()
    };
    let mut out: Vec<Source> = inputs
        .iter()
        .flat_map(|i| expand_input(i, discover))
        .collect();
    if let Some(m) = manifest {
        out.extend(manifest_sources(m, dir, discover)?);
    }
    if out.is_empty() {
        return Err(Error::NoInput);
    }
    Ok(out)
}
