"""Fixtures: the shared data folder and the `spinneret` binary.

The shared folder is $SPINNERET_SHARED, else ../shared beside the checkout
(as for the Rust tests); the binary is $SPINNERET_BIN, else the workspace's
release build (scripts/test builds it first). Neither is optional: a test
that needs one fails when it is missing.
"""

import gzip
import os
import pathlib
import socket
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]


@pytest.fixture(scope="session")
def shared() -> pathlib.Path:
    path = pathlib.Path(os.environ.get("SPINNERET_SHARED", REPO.parent / "shared"))
    assert (path / "testdata").is_dir(), f"shared data folder not found at {path}"
    return path


@pytest.fixture(scope="session")
def spinneret_bin() -> str:
    target = os.environ.get("CARGO_TARGET_DIR", REPO / "target")
    path = pathlib.Path(os.environ.get("SPINNERET_BIN", pathlib.Path(target) / "release" / "spinneret"))
    assert path.is_file(), f"spinneret binary not found at {path} (cargo build --release -p spinneret-cli)"
    return str(path)


def run_cli(binary: str, args: list[str], stdin: bytes = b"") -> bytes:
    """The binary's standard output (it must succeed)."""
    done = subprocess.run([binary, *args], input=stdin, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")
    return done.stdout


# Corpus WARC/ARC files (relative to corpus/warc), read over HTTP and S3
# (tests/test_remote.py, tests/test_spark.py).
FILES = [
    "pywb/iana.warc.gz",
    "pywb/example.warc.gz",
    "pywb/example.arc.gz",
    "pywb/example-extra.warc",
    "warcbench/test-crawl.wacz__test-crawl_0.warc.gz",
    "stormcrawler/test.warc.gz",
    "dolma/sample-0000.warc.gz",
    "resiliparse/clipped.warc.gz",
    "ukwa-webarchive-discovery/IAH-20080430204825-00000-blackbook-truncated.arc.gz",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def s3(shared):
    """moto's S3 server on 127.0.0.1 with the corpus WARCs under
    s3://crawl/warc/, and the environment that reaches it."""
    import boto3
    from moto import server as server_module

    corpus = shared / "corpus/warc"
    port = free_port()
    server = server_module.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    env = {
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing-secret",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_ENDPOINT_URL": endpoint,
    }
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="testing",
        aws_secret_access_key="testing-secret",
        region_name="us-east-1",
    )
    # A public bucket, as Common Crawl's is (for --no-sign-request).
    client.create_bucket(Bucket="crawl", ACL="public-read")
    for f in FILES:
        client.upload_file(str(corpus / f), "crawl", f"warc/{f}", ExtraArgs={"ACL": "public-read"})
    # A file that is not a crawl file, which a listing skips.
    client.put_object(Bucket="crawl", Key="warc/README.txt", Body=b"not a WARC")
    paths = "\n".join(f"warc/{f}" for f in FILES) + "\n"
    client.put_object(Bucket="crawl", Key="warc.paths.gz", Body=gzip.compress(paths.encode()))
    yield {"env": env, "endpoint": endpoint, "client": client}
    server.stop()


