//! [`Resolver`]: one input of the command line (a path, a directory, a
//! glob, `-`, a remote object or prefix) as the [`Source`]s it names, in
//! order. Local inputs go to [`expand_input`]; remote ones (with the
//! `remote` feature) to one client, made on first need and shared.

use spinneret_warc::discover::Discover;
#[cfg(feature = "remote")]
use spinneret_warc::discover::{is_crawl_file_name, is_index_file_name};

use super::source::{Source, expand_input};

/// Expands inputs into sources, local or remote (the client for remote
/// ones made on first need, once).
pub struct Resolver<'a> {
    discover: Discover,
    #[cfg(feature = "remote")]
    remote_args: &'a super::remote::RemoteArgs,
    #[cfg(feature = "remote")]
    remote: std::cell::OnceCell<Result<super::remote::Remote, String>>,
    #[cfg(not(feature = "remote"))]
    _args: std::marker::PhantomData<&'a ()>,
}

impl<'a> Resolver<'a> {
    /// A resolver walking directories with `discover` (and reading remote
    /// inputs with the client `remote_args` describe).
    pub fn new(
        discover: Discover,
        #[cfg(feature = "remote")] remote_args: &'a super::remote::RemoteArgs,
    ) -> Self {
        Resolver {
            discover,
            #[cfg(feature = "remote")]
            remote_args,
            #[cfg(feature = "remote")]
            remote: std::cell::OnceCell::new(),
            #[cfg(not(feature = "remote"))]
            _args: std::marker::PhantomData,
        }
    }

    /// The sources of one input, in order ([`expand_input`] for local
    /// ones).
    pub fn expand(&self, input: &str) -> Vec<Source> {
        #[cfg(feature = "remote")]
        if spinneret_remote::is_remote(input) {
            let remote = self
                .remote
                .get_or_init(|| self.remote_args.client().map_err(|e| e.to_string()));
            return match remote {
                Ok(r) => {
                    let take = |name: &str| {
                        is_crawl_file_name(name)
                            || (self.discover.indexes && is_index_file_name(name))
                    };
                    match r.0.objects(input, &take).map_err(|e| e.to_string()) {
                        Ok(found) => found
                            .into_iter()
                            .map(|(url, size)| Source::Remote {
                                url,
                                size,
                                remote: r.clone(),
                            })
                            .collect(),
                        Err(what) => vec![Source::Unreadable {
                            name: spinneret_remote::redact(input),
                            what,
                        }],
                    }
                }
                Err(what) => vec![Source::Unreadable {
                    name: spinneret_remote::redact(input),
                    what: what.clone(),
                }],
            };
        }
        expand_input(input, self.discover)
    }
}
