//! [`Client`]: the stores an object URL names (one per bucket, container
//! or HTTP origin, made once and shared), the runtime their futures run
//! on, and the blocking calls the rest of spinneret makes — list a prefix,
//! open an object as a stream ([`crate::ObjectReader`]), fetch byte ranges.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use futures::{StreamExt, TryStreamExt};
use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::http::HttpBuilder;
use object_store::path::Path;
use object_store::{
    BackoffConfig, ClientOptions, GetOptions, GetRange, ObjectStore, ObjectStoreExt, RetryConfig,
};

use crate::error::RemoteError;
use crate::profile;
use crate::reader::{self, ObjectReader};
use crate::redact::Secrets;
use crate::retry_after::RetryAfterConnector;

/// How remote objects are reached and read.
#[derive(Debug, Clone)]
pub struct Options {
    /// Send S3 (and GCS, Azure) requests unsigned, for public buckets
    /// (the AWS CLI's `--no-sign-request`).
    pub no_sign_request: bool,
    /// The S3 endpoint, for S3-compatible stores (else `AWS_ENDPOINT_URL`
    /// from the environment, else AWS).
    pub s3_endpoint: Option<String>,
    /// The bytes one range request of a streamed object asks for.
    pub chunk_size: u64,
    /// The range requests of one streamed object in flight at once.
    pub chunks_in_flight: usize,
    /// The longest wait for a connection or for the next bytes of an
    /// answer; a stall longer than this is retried.
    pub timeout: Duration,
    /// Retries of one request (resuming where its body stopped) before the
    /// object is given up.
    pub retries: usize,
}

/// [`Options::chunk_size`]'s default.
pub const CHUNK_SIZE: u64 = 8 << 20;
/// [`Options::chunks_in_flight`]'s default.
pub const CHUNKS_IN_FLIGHT: usize = 4;

impl Default for Options {
    fn default() -> Self {
        Options {
            no_sign_request: false,
            s3_endpoint: None,
            chunk_size: CHUNK_SIZE,
            chunks_in_flight: CHUNKS_IN_FLIGHT,
            timeout: Duration::from_secs(30),
            retries: 10,
        }
    }
}

/// An object found by [`Client::list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// Its URL, in the listed prefix's scheme.
    pub url: String,
    /// Its size in bytes.
    pub size: u64,
}

/// Reads remote objects: a runtime of two I/O threads and the stores made
/// so far. Calls block the calling thread, which must not be one of the
/// runtime's.
#[derive(Debug)]
pub struct Client {
    runtime: tokio::runtime::Runtime,
    options: Options,
    stores: Mutex<HashMap<String, Arc<dyn ObjectStore>>>,
}

/// Where an object URL points: the store's cache key, and the object's
/// path in that store.
struct Located {
    key: String,
    path: Path,
}

impl Client {
    /// A client with `options`; stores are made on first use.
    pub fn new(options: Options) -> Result<Client, RemoteError> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("spinneret-remote")
            .enable_all()
            .build()
            .map_err(|e| RemoteError::Setup(e.to_string()))?;
        Ok(Client {
            runtime,
            options,
            stores: Mutex::new(HashMap::new()),
        })
    }

    /// The options it reads with.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The objects an input names, as a crawl-reading command takes them:
    /// an object store's URL ending in `/` (`s3://bucket/prefix/`) is a
    /// prefix, listed ([`Client::list`]), of which the objects whose name
    /// (the last path segment) `take` accepts are kept, with their sizes
    /// ([`RemoteError::NoneTaken`] when there is none); any other URL is
    /// one object, its size unknown. (An `http(s)://` URL ending in `/` is
    /// a page, not a listing.)
    pub fn objects(
        &self,
        input: &str,
        take: &dyn Fn(&str) -> bool,
    ) -> Result<Vec<(String, Option<u64>)>, RemoteError> {
        let is_prefix = input.ends_with('/')
            && !(input.starts_with("http://") || input.starts_with("https://"));
        if !is_prefix {
            return Ok(vec![(input.to_owned(), None)]);
        }
        let kept: Vec<_> = (self.list(input)?.into_iter())
            .filter(|o| take(o.url.rsplit('/').next().unwrap_or_default()))
            .map(|o| (o.url, Some(o.size)))
            .collect();
        if kept.is_empty() {
            return Err(RemoteError::NoneTaken);
        }
        Ok(kept)
    }

    /// The objects under the prefix `url` names (`s3://bucket/prefix/`),
    /// sorted by name; an empty prefix is [`RemoteError::EmptyPrefix`].
    /// Plain HTTP has no listing: an `http(s)://` URL is one object.
    pub fn list(&self, url: &str) -> Result<Vec<Listed>, RemoteError> {
        let parsed = parse(url)?;
        if matches!(parsed.scheme(), "http" | "https") {
            return Ok(vec![Listed {
                url: url.to_owned(),
                size: 0,
            }]);
        }
        let (store, at) = self.store(url)?;
        let secrets = Secrets::of(url);
        let prefix = (!at.path.as_ref().is_empty()).then_some(&at.path);
        let mut found: Vec<Listed> = self
            .runtime
            .block_on(store.list(prefix).try_collect::<Vec<_>>())
            .map_err(|e| store_error(e, &secrets))?
            .into_iter()
            .map(|meta| {
                let mut u = parsed.clone();
                u.set_path("");
                u.path_segments_mut()
                    .expect("a bucket URL has a path")
                    .extend(meta.location.parts());
                Listed {
                    url: u.into(),
                    size: meta.size,
                }
            })
            .collect();
        if found.is_empty() {
            return Err(RemoteError::EmptyPrefix);
        }
        found.sort_by(|a, b| a.url.cmp(&b.url));
        Ok(found)
    }

    /// The object at `url` as a stream of its bytes, read ahead by
    /// parallel range requests (see [`ObjectReader`] for the memory it
    /// holds).
    pub fn open(&self, url: &str) -> Result<ObjectReader, RemoteError> {
        let (store, at) = self.store(url)?;
        let secrets = Secrets::of(url);
        let meta = self
            .runtime
            .block_on(store.head(&at.path))
            .map_err(|e| store_error(e, &secrets))?;
        Ok(reader::start(
            self.runtime.handle(),
            store,
            at.path,
            meta.size,
            meta.e_tag,
            &self.options,
            secrets,
        ))
    }

    /// The size of the object at `url`.
    pub fn size(&self, url: &str) -> Result<u64, RemoteError> {
        let (store, at) = self.store(url)?;
        let secrets = Secrets::of(url);
        self.runtime
            .block_on(store.head(&at.path))
            .map(|m| m.size)
            .map_err(|e| store_error(e, &secrets))
    }

    /// Each `(url, range)`'s bytes, one range request each, `in_flight`
    /// at a time, in the order asked.
    pub fn fetch_ranges(
        &self,
        wanted: &[(String, Range<u64>)],
        in_flight: usize,
    ) -> Vec<Result<Bytes, RemoteError>> {
        let jobs: Vec<_> = wanted
            .iter()
            .map(|(url, range)| {
                let store = self.store(url);
                let secrets = Secrets::of(url);
                let range = range.clone();
                async move {
                    let (store, at) = store?;
                    fetch_range(store.as_ref(), &at.path, range, None, &secrets).await
                }
            })
            .collect();
        self.runtime.block_on(
            futures::stream::iter(jobs)
                .buffered(in_flight.max(1))
                .collect(),
        )
    }

    /// The store `url` is in (made and kept on first use) and the path of
    /// its object there.
    fn store(&self, url: &str) -> Result<(Arc<dyn ObjectStore>, Located), RemoteError> {
        let parsed = parse(url)?;
        let at = locate(&parsed)?;
        let mut stores = self.stores.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = stores.get(&at.key) {
            return Ok((Arc::clone(s), at));
        }
        let store = self.make_store(&parsed)?;
        stores.insert(at.key.clone(), Arc::clone(&store));
        Ok((store, at))
    }

    fn make_store(&self, url: &url::Url) -> Result<Arc<dyn ObjectStore>, RemoteError> {
        let o = &self.options;
        let retry = RetryConfig {
            backoff: BackoffConfig {
                init_backoff: Duration::from_millis(100),
                max_backoff: Duration::from_secs(15),
                base: 2.0,
            },
            max_retries: o.retries,
            retry_timeout: Duration::from_secs(300),
        };
        let client = ClientOptions::new()
            .with_connect_timeout(o.timeout)
            .with_read_timeout(o.timeout)
            .with_timeout_disabled()
            .with_allow_http(true);
        let bucket = url.host_str().unwrap_or_default();
        let setup = |e: object_store::Error| {
            RemoteError::Setup(Secrets::of(url.as_str()).scrub(&e.to_string()))
        };
        let store: Arc<dyn ObjectStore> = match url.scheme() {
            "s3" | "s3a" => {
                let mut b = AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .with_skip_signature(o.no_sign_request)
                    .with_retry(retry)
                    .with_client_options(client)
                    .with_http_connector(RetryAfterConnector);
                if std::env::var_os("AWS_ACCESS_KEY_ID").is_none() {
                    let p = profile::from_files();
                    if let (Some(id), Some(secret)) = (p.access_key_id, p.secret_access_key) {
                        b = b.with_access_key_id(id).with_secret_access_key(secret);
                        if let Some(token) = p.session_token {
                            b = b.with_token(token);
                        }
                    }
                    if std::env::var_os("AWS_REGION").is_none()
                        && std::env::var_os("AWS_DEFAULT_REGION").is_none()
                        && let Some(region) = p.region
                    {
                        b = b.with_region(region);
                    }
                }
                if let Some(e) = &o.s3_endpoint {
                    b = b.with_endpoint(e);
                }
                Arc::new(b.build().map_err(setup)?)
            }
            "gs" => Arc::new(
                GoogleCloudStorageBuilder::from_env()
                    .with_bucket_name(bucket)
                    .with_skip_signature(o.no_sign_request)
                    .with_retry(retry)
                    .with_client_options(client)
                    .with_http_connector(RetryAfterConnector)
                    .build()
                    .map_err(setup)?,
            ),
            "az" | "azure" | "abfs" | "abfss" => Arc::new(
                MicrosoftAzureBuilder::from_env()
                    .with_url(url.as_str())
                    .with_skip_signature(o.no_sign_request)
                    .with_retry(retry)
                    .with_client_options(client)
                    .with_http_connector(RetryAfterConnector)
                    .build()
                    .map_err(setup)?,
            ),
            _ => {
                let base = http_base(url);
                Arc::new(
                    HttpBuilder::new()
                        .with_url(base)
                        .with_retry(retry)
                        .with_client_options(client)
                        .with_http_connector(RetryAfterConnector)
                        .build()
                        .map_err(setup)?,
                )
            }
        };
        Ok(store)
    }
}

/// Whether `input` names a remote object or prefix (by its scheme).
pub fn is_remote(input: &str) -> bool {
    let Some((scheme, rest)) = input.split_once("://") else {
        return false;
    };
    !rest.is_empty()
        && matches!(
            scheme.to_ascii_lowercase().as_str(),
            "s3" | "s3a" | "gs" | "az" | "azure" | "abfs" | "abfss" | "http" | "https"
        )
}

fn parse(url: &str) -> Result<url::Url, RemoteError> {
    if !is_remote(url) {
        return Err(RemoteError::NotRemote);
    }
    url::Url::parse(url).map_err(|e| RemoteError::BadUrl(e.to_string()))
}

/// The store key and object path of `url`: a bucket or container per
/// store; for HTTP, an origin per store, or the whole URL when it has a
/// query (a signed URL's query belongs to that one object).
fn locate(url: &url::Url) -> Result<Located, RemoteError> {
    let bad = |e: object_store::path::Error| RemoteError::BadUrl(e.to_string());
    let bucket = url.host_str().unwrap_or_default();
    match url.scheme() {
        "http" | "https" => {
            if url.query().is_some() {
                return Ok(Located {
                    key: url.as_str().to_owned(),
                    path: Path::default(),
                });
            }
            Ok(Located {
                key: http_base(url),
                path: Path::from_url_path(url.path()).map_err(bad)?,
            })
        }
        "az" | "azure" | "abfs" | "abfss" => {
            // az://container/path (the account from the environment), or
            // abfs[s]://container@account.dfs.core.windows.net/path.
            Ok(Located {
                key: format!("{}://{}@{bucket}", url.scheme(), url.username()),
                path: Path::from_url_path(url.path()).map_err(bad)?,
            })
        }
        scheme => {
            if bucket.is_empty() {
                return Err(RemoteError::BadUrl("no bucket".to_owned()));
            }
            Ok(Located {
                key: format!("{scheme}://{bucket}"),
                path: Path::from_url_path(url.path()).map_err(bad)?,
            })
        }
    }
}

/// The URL an HTTP store is made for: the origin (with any userinfo), or
/// the whole URL when it has a query.
fn http_base(url: &url::Url) -> String {
    if url.query().is_some() {
        return url.as_str().to_owned();
    }
    let mut base = url.clone();
    base.set_path("/");
    base.set_fragment(None);
    base.into()
}

/// `range` of the object at `path`, checked: the bytes asked for and no
/// others, and (given `etag`) of that version of the object.
pub(crate) async fn fetch_range(
    store: &dyn ObjectStore,
    path: &Path,
    range: Range<u64>,
    etag: Option<&str>,
    secrets: &Secrets,
) -> Result<Bytes, RemoteError> {
    let options = GetOptions {
        range: Some(GetRange::Bounded(range.clone())),
        if_match: etag.map(str::to_owned),
        ..GetOptions::default()
    };
    let got = store.get_opts(path, options).await.map_err(|e| match e {
        object_store::Error::Precondition { .. } => RemoteError::Changed {
            was: etag.unwrap_or_default().to_owned(),
        },
        e => store_error(e, secrets),
    })?;
    if let (Some(was), Some(now)) = (etag, got.meta.e_tag.as_deref())
        && was != now
    {
        return Err(RemoteError::Changed {
            was: was.to_owned(),
        });
    }
    if got.range != range {
        if got.range.start == range.start && got.range.end == got.meta.size {
            return Err(RemoteError::PastEnd {
                range,
                size: got.meta.size,
            });
        }
        return Err(RemoteError::WrongRange {
            asked: range,
            sent: got.range,
        });
    }
    let bytes = got.bytes().await.map_err(|e| store_error(e, secrets))?;
    if bytes.len() as u64 != range.end - range.start {
        return Err(RemoteError::Store(format!(
            "the answer held {} bytes, not the {} asked for",
            bytes.len(),
            range.end - range.start
        )));
    }
    Ok(bytes)
}

/// An object_store error as a [`RemoteError`], its text scrubbed.
pub(crate) fn store_error(e: object_store::Error, secrets: &Secrets) -> RemoteError {
    match e {
        object_store::Error::NotFound { .. } => RemoteError::NotFound,
        e => {
            // The whole chain: object_store's outer text says which call
            // failed, the sources why.
            let mut text = e.to_string();
            let mut source = std::error::Error::source(&e);
            while let Some(s) = source {
                let t = s.to_string();
                if !text.contains(&t) {
                    text.push_str(": ");
                    text.push_str(&t);
                }
                source = s.source();
            }
            RemoteError::Store(secrets.scrub(&text))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_inputs_are_known_by_their_scheme() {
        for yes in [
            "s3://b/k.warc.gz",
            "S3://b/",
            "gs://b/k",
            "az://c/k",
            "https://data.commoncrawl.org/crawl-data/x.warc.gz",
            "http://127.0.0.1:9/x",
        ] {
            assert!(is_remote(yes), "{yes}");
        }
        for no in [
            "a.warc.gz",
            "/tmp/x",
            "file:///tmp/x",
            "s3://",
            "ftp://h/x",
            "-",
        ] {
            assert!(!is_remote(no), "{no}");
        }
    }

    #[test]
    fn objects_share_a_store_per_bucket_or_origin() {
        let at = |u: &str| {
            let l = locate(&url::Url::parse(u).unwrap()).unwrap();
            (l.key, l.path.to_string())
        };
        assert_eq!(
            at("s3://commoncrawl/crawl-data/CC-MAIN-2026-05/x.warc.gz"),
            (
                "s3://commoncrawl".to_owned(),
                "crawl-data/CC-MAIN-2026-05/x.warc.gz".to_owned()
            )
        );
        assert_eq!(
            at("https://data.commoncrawl.org/a/b%20c.warc.gz"),
            (
                "https://data.commoncrawl.org/".to_owned(),
                "a/b c.warc.gz".to_owned()
            )
        );
        let signed = "https://h.example/a.warc.gz?X-Amz-Signature=abc";
        assert_eq!(at(signed), (signed.to_owned(), String::new()));
        assert!(locate(&url::Url::parse("s3:///key").unwrap()).is_err());
    }
}
