//! Remote inputs — `s3://bucket/key`, `s3://bucket/prefix/` (listed as a
//! directory is walked), `gs://`, `az://`, `http(s)://` — and their flags
//! ([`RemoteArgs`]), when the binary is built with the `remote` feature
//! (the default). Without it such an input is reported as one this build
//! cannot read.
//!
//! Invariant: the name a remote input is shown under — in messages,
//! progress, `--stats` and the output fields that name the input — is its
//! [`redact`](spinneret_remote::redact())ed URL: no userinfo, no query.

use std::sync::Arc;

use clap::Args;

/// The flags of remote inputs.
#[derive(Debug, Clone, Args)]
pub struct RemoteArgs {
    /// Read s3:// (and gs://, az://) inputs without signing the requests,
    /// for public buckets (as the AWS CLI's flag). Otherwise credentials
    /// are taken as the AWS tools take them: the environment
    /// (`AWS_ACCESS_KEY_ID`…), the profile files (`AWS_PROFILE`,
    /// `~/.aws/credentials`), web identity, container or instance
    /// metadata.
    #[arg(long, help_heading = "Remote inputs")]
    pub no_sign_request: bool,

    /// The endpoint of an S3-compatible store (default:
    /// `AWS_ENDPOINT_URL` from the environment, else AWS).
    #[arg(long, value_name = "URL", help_heading = "Remote inputs")]
    pub s3_endpoint: Option<String>,

    /// Seconds to wait for a connection or for the next bytes of an answer
    /// before the request is retried.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = 30,
        help_heading = "Remote inputs"
    )]
    pub remote_timeout: u64,

    /// Retries of a failed or cut request (timeouts, resets, 5xx, 429 —
    /// after the server's `Retry-After` — each resuming at the byte
    /// reached), with exponential backoff and jitter, before the input is
    /// reported as unreadable.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10,
        help_heading = "Remote inputs"
    )]
    pub remote_retries: usize,

    /// The bytes one range request of a remote object asks for (`K`, `M`,
    /// `G` suffixes); a remote input holds at most this times
    /// (`--remote-in-flight` + 2) in memory, whatever its size.
    #[arg(long, value_name = "SIZE", default_value = "8M", value_parser = crate::flags::parse_size, help_heading = "Remote inputs")]
    pub remote_chunk_size: u64,

    /// Range requests of one remote object in flight at once.
    #[arg(long, value_name = "N", default_value_t = spinneret_remote::CHUNKS_IN_FLIGHT, help_heading = "Remote inputs")]
    pub remote_in_flight: usize,
}

impl Default for RemoteArgs {
    /// The flags' defaults, as clap gives them.
    fn default() -> Self {
        let o = spinneret_remote::Options::default();
        RemoteArgs {
            no_sign_request: o.no_sign_request,
            s3_endpoint: o.s3_endpoint,
            remote_timeout: o.timeout.as_secs(),
            remote_retries: o.retries,
            remote_chunk_size: o.chunk_size,
            remote_in_flight: o.chunks_in_flight,
        }
    }
}

/// A shared client for remote inputs (compared by identity).
#[derive(Clone)]
pub struct Remote(pub Arc<spinneret_remote::Client>);

impl std::fmt::Debug for Remote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Remote")
    }
}

impl PartialEq for Remote {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Remote {}

impl RemoteArgs {
    /// The client these flags describe.
    pub fn client(&self) -> Result<Remote, spinneret_remote::RemoteError> {
        let options = spinneret_remote::Options {
            no_sign_request: self.no_sign_request,
            s3_endpoint: self.s3_endpoint.clone(),
            timeout: std::time::Duration::from_secs(self.remote_timeout.max(1)),
            retries: self.remote_retries,
            chunk_size: self.remote_chunk_size.max(1),
            chunks_in_flight: self.remote_in_flight.max(1),
        };
        Ok(Remote(Arc::new(spinneret_remote::Client::new(options)?)))
    }
}

/// The object at `url`, streamed.
pub fn open(remote: &Remote, url: &str) -> std::io::Result<spinneret_remote::ObjectReader> {
    remote.0.open(url).map_err(std::io::Error::from)
}
