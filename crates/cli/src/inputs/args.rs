//! The flags every command that reads crawl files takes for its inputs
//! ([`InputArgs`], flattened into each command's own flags), and their
//! resolution into [`Source`]s, in order, remote inputs (`s3://`,
//! `https://`, …) among them with the `remote` feature.

use std::path::{Path, PathBuf};

use clap::Args;
use spinneret_warc::discover::Discover;

use super::manifest::manifest_sources;
use super::resolve::Resolver;
use super::source::Source;
use crate::Error;

/// Where a command's crawl files come from: its `INPUT`s, `--sniff`,
/// `--manifest` and `--dir`. A command that needs an input on its command
/// line marks `inputs` required unless `--manifest` is given
/// (`#[command(mut_arg("inputs", …))]`), and may say more of what it
/// reads in the same way.
#[derive(Debug, Clone, Default, Args)]
pub struct InputArgs {
    /// WARC/ARC files (plain, gzip, zstd; detected), directories (walked
    /// recursively, sorted, hidden entries skipped, taking files named
    /// `*.warc`, `*.arc`, `*.warc.gz`, `*.arc.gz`, `*.warc.zst`, …), glob
    /// patterns, `-` for standard input, or remote objects: `s3://bucket/key`,
    /// `s3://bucket/prefix/` (listed and taken as a directory), `gs://`,
    /// `az://`, `https://…`. An input that cannot be read is reported and
    /// the run goes on; the exit code is then 1.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,

    /// In directories, also take files of other names whose content starts
    /// like a WARC or ARC file (each is opened to see).
    #[arg(long)]
    pub sniff: bool,

    /// A list of inputs, plain or gzip: WARC/ARC files, one path a line
    /// (Common Crawl's `warc.paths.gz`; `#` comments and blank lines
    /// skipped), or HTML pages, in a TSV whose header line names `path`
    /// and `url` columns (`.gz` pages are decompressed; the commands that
    /// read HTML pages).
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,

    /// The directory the manifest's relative paths are relative to
    /// (default: the manifest's directory), or a remote base URL
    /// (`--base s3://commoncrawl/`, `--base https://data.commoncrawl.org/`).
    #[arg(
        long,
        visible_alias = "base",
        value_name = "DIR",
        requires = "manifest"
    )]
    pub dir: Option<PathBuf>,

    /// Remote inputs' flags.
    #[cfg(feature = "remote")]
    #[command(flatten)]
    pub remote: super::remote::RemoteArgs,
}

impl InputArgs {
    /// The flags that decide what is read, for a `--resume` journal's
    /// command: without those that only decide how (remote timeouts,
    /// retries, request sizes).
    pub fn for_resume(&self) -> InputArgs {
        #[allow(unused_mut)]
        let mut a = self.clone();
        #[cfg(feature = "remote")]
        {
            let defaults = super::remote::RemoteArgs::default();
            a.remote = super::remote::RemoteArgs {
                no_sign_request: a.remote.no_sign_request,
                s3_endpoint: a.remote.s3_endpoint.take(),
                ..defaults
            };
        }
        a
    }

    /// What a directory's walk takes: files named like WARC/ARC files
    /// (and, with `--sniff`, those whose content is).
    pub fn discover(&self) -> Discover {
        Discover {
            sniff: self.sniff,
            ..Discover::default()
        }
    }

    /// The sources, in order: the `INPUT`s, then the manifest's, walking
    /// directories with `discover`; [`Error::NoInput`] if there are none.
    pub fn sources(&self, discover: Discover) -> Result<Vec<Source>, Error> {
        self.sources_and_page(discover, None)
    }

    /// The sources of a command that also reads one HTML page (`--html`
    /// with its `--url`), in order: the `INPUT`s, the page, the
    /// manifest's. A `--url` that is not a URL is an [`Error::Url`];
    /// without one the page's [`Source::Html::url`] is empty (`text`
    /// takes such a page, `links` requires the URL on its command line).
    pub fn sources_with_page(
        &self,
        html: Option<&Path>,
        url: Option<&str>,
    ) -> Result<Vec<Source>, Error> {
        if let Some(url) = url {
            spinneret_url::Url::parse(url).map_err(|source| Error::Url {
                url: url.to_owned(),
                source,
            })?;
        }
        let page = html.map(|path| Source::Html {
            path: path.to_owned(),
            url: url.unwrap_or_default().to_owned(),
        });
        self.sources_and_page(self.discover(), page)
    }

    /// What expands this command line's inputs.
    pub fn resolver(&self, discover: Discover) -> Resolver<'_> {
        Resolver::new(
            discover,
            #[cfg(feature = "remote")]
            &self.remote,
        )
    }

    fn sources_and_page(
        &self,
        discover: Discover,
        page: Option<Source>,
    ) -> Result<Vec<Source>, Error> {
        let resolver = self.resolver(discover);
        let mut out: Vec<Source> = self
            .inputs
            .iter()
            .flat_map(|i| resolver.expand(i))
            .collect();
        out.extend(page);
        if let Some(m) = &self.manifest {
            out.extend(manifest_sources(m, self.dir.as_deref(), &resolver)?);
        }
        if out.is_empty() {
            return Err(Error::NoInput);
        }
        Ok(out)
    }
}
