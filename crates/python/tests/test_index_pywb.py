"""Replay from spinneret's indexes with a real pywb.

An archivist indexes WARCs with `spinneret index` and serves them with pywb,
which never sees the WARCs before a request: pywb's own indexer is not run
(no `wb-manager add`, no autoindex). One `wayback` server, three collections
over the same four corpus WARCs:

- `cdxj`: the layout `wb-manager init` makes, the index being
  `spinneret index --format cdxj` of the archive folder
  (collections/cdxj/indexes/index.cdxj);
- `zipnum`: the same layout, the index a ZipNum cluster
  (`spinneret index --zipnum collections/zipnum/indexes --lines 5`), which
  pywb finds by its `.idx` (and the `.loc` beside it);
- `zipnum-cfg`: a collection of config.yaml whose `index` is the `.idx` of a
  cluster built elsewhere (`--cluster-name spin`) and whose `archive_paths`
  is the corpus folder itself.

Each archived page asked for in identity mode (`TIMESTAMPid_`) must come back
with the archived status and the payload that warcio reads from the WARC
(a revisit's from the response it refers to), dated by Memento-Datetime; POSTs
are replayed by their request body. The CDX server API must return exactly
our index's lines, each pointing (filename, offset, length) at the record
warcio finds there.
"""

import datetime
import email.utils
import http.client
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse

import pytest

from conftest import run_cli

WARCS = ["iana.warc.gz", "example.warc.gz", "post-test.warc.gz", "dupes.warc.gz"]
COLLECTIONS = ["cdxj", "zipnum", "zipnum-cfg"]
ZIPNUM = {"zipnum", "zipnum-cfg"}
# The index each collection's CDX rows must come from (pywb's `source`).
SOURCES = {"cdxj": "cdxj/indexes/index.cdxj", "zipnum": "zipnum/indexes/index.idx", "zipnum-cfg": "zipnum-cfg"}
STARTUP_TIMEOUT = 30.0

# (id, method, request URL, requested timestamp, request body,
#  WARC file, WARC-Target-URI, WARC-Date of the record that must be replayed)
CAPTURES = [
    ("iana-home", "GET", "http://www.iana.org/", "20140126200624", None,
     "iana.warc.gz", "http://www.iana.org/", "20140126200624"),
    ("iana-home-revisit", "GET", "http://www.iana.org/", "20140127171238", None,
     "dupes.warc.gz", "http://www.iana.org/", "20140127171238"),
    ("font", "GET", "http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf", "20140126200826", None,
     "iana.warc.gz", "http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf", "20140126200826"),
    ("font-revisit", "GET", "http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf", "20140126201055", None,
     "iana.warc.gz", "http://www.iana.org/_css/2013.1/fonts/Inconsolata.otf", "20140126201055"),
    ("https", "GET", "https://www.iana.org/_js/2013.1/iana.js", "20140126201307", None,
     "iana.warc.gz", "https://www.iana.org/_js/2013.1/iana.js", "20140126201307"),
    ("redirect", "GET", "http://www.iana.org/domains/example", "20140128051539", None,
     "example.warc.gz", "http://www.iana.org/domains/example", "20140128051539"),
    # pywb asks for the canonical form, with the path's `/`.
    ("example-query", "GET", "http://example.com/?example=1", "20140103030321", None,
     "example.warc.gz", "http://example.com?example=1", "20140103030321"),
    ("example-query-revisit", "GET", "http://example.com/?example=1", "20140103030341", None,
     "example.warc.gz", "http://example.com?example=1", "20140103030341"),
    ("example", "GET", "http://example.com/", "20140127171200", None,
     "dupes.warc.gz", "http://example.com", "20140127171200"),
    ("example-revisit", "GET", "http://example.com/", "20140127171251", None,
     "dupes.warc.gz", "http://example.com", "20140127171251"),
    ("post", "POST", "http://httpbin.org/post", "20140610000859", b"foo=bar&test=abc",
     "post-test.warc.gz", "http://httpbin.org/post", "20140610000859"),
    # Asked for at the first POST's time, with the second POST's body: only
    # the body (folded into the index key) can pick the second.
    ("post-by-body", "POST", "http://httpbin.org/post", "20140610000859", b"A=1&B=[]&C=3",
     "post-test.warc.gz", "http://httpbin.org/post", "20140610001151"),
]

# The CDX queries that together cover the whole index, in urlkey order.
DOMAINS = ["example.com", "httpbin.org", "iana.org"]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _http_date(timestamp: str) -> str:
    when = datetime.datetime.strptime(timestamp, "%Y%m%d%H%M%S").replace(tzinfo=datetime.timezone.utc)
    return email.utils.format_datetime(when, usegmt=True)


class Wayback:
    def __init__(self, port: int, root, log_path):
        self.port = port
        self.root = root  # pywb's working folder
        self.log_path = log_path

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
        """(status, headers, body), redirects not followed."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=20)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            return resp.status, resp.headers, resp.read()
        finally:
            conn.close()

    def cdx(self, coll: str, **params) -> list[dict]:
        status, _, body = self.request("GET", f"/{coll}/cdx?" + urllib.parse.urlencode({**params, "output": "json"}))
        assert status == 200, f"/{coll}/cdx {params}: {status} {body[:500]!r}"
        return [json.loads(line) for line in body.decode().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def corpus(shared) -> dict:
    """Every record of the WARCs, read with warcio alone: by (file, offset)
    and by (file, target URI, 14-digit date)."""
    try:
        from warcio.archiveiterator import ArchiveIterator
    except ImportError:
        pytest.fail("warcio is not installed in this Python (pip install -r crates/python/requirements-test.txt)")
    by_offset, by_capture = {}, {}
    for name in WARCS:
        with open(shared / "corpus" / "warc" / "pywb" / name, "rb") as fh:
            records = ArchiveIterator(fh)
            for record in records:
                headers = record.rec_headers
                date = headers.get_header("WARC-Date") or ""
                # Payload first: asking for the offset reads the record to its end.
                payload = record.content_stream().read()
                records.read_to_end(record)
                entry = {
                    "file": name,
                    "offset": records.get_record_offset(),
                    "length": records.get_record_length(),
                    "type": record.rec_type,
                    "uri": headers.get_header("WARC-Target-URI"),
                    "timestamp": "".join(ch for ch in date if ch.isdigit())[:14],
                    "digest": headers.get_header("WARC-Payload-Digest"),
                    "refers_to": headers.get_header("WARC-Refers-To-Target-URI"),
                    "status": int(record.http_headers.get_statuscode())
                    if record.http_headers and record.rec_type in ("response", "revisit") else None,
                    "headers": record.http_headers,
                    "payload": payload,
                }
                by_offset[(name, entry["offset"])] = entry
                by_capture.setdefault((name, entry["uri"], entry["timestamp"]), []).append(entry)
    return {"by_offset": by_offset, "by_capture": by_capture}


@pytest.fixture(scope="module")
def index_lines(tmp_path_factory, shared, spinneret_bin) -> list[dict]:
    """spinneret's CDXJ of the WARCs, as pywb's CDX API writes its rows."""
    out = tmp_path_factory.mktemp("cdxj") / "all.cdxj"
    run_cli(spinneret_bin, ["index", "--format", "cdxj", "-o", str(out),
                            *[str(shared / "corpus" / "warc" / "pywb" / name) for name in WARCS]])
    rows = []
    for line in out.read_text().splitlines():
        urlkey, timestamp, fields = line.split(" ", 2)
        rows.append({"urlkey": urlkey, "timestamp": timestamp, **json.loads(fields)})
    return rows


@pytest.fixture(scope="module")
def wayback(tmp_path_factory, shared, spinneret_bin):
    try:
        import pywb  # noqa: F401
    except ImportError:
        pytest.fail("pywb is not installed in this Python (pip install -r crates/python/requirements-test.txt)")

    corpus_dir = shared / "corpus" / "warc" / "pywb"
    root = tmp_path_factory.mktemp("pywb")
    # The folders `wb-manager init NAME` makes that replay needs.
    for coll in ("cdxj", "zipnum"):
        archive = root / "collections" / coll / "archive"
        archive.mkdir(parents=True)
        (root / "collections" / coll / "indexes").mkdir()
        for name in WARCS:
            shutil.copyfile(corpus_dir / name, archive / name)

    cdxj = root / "collections" / "cdxj"
    run_cli(spinneret_bin, ["index", "--format", "cdxj", "-o", str(cdxj / "indexes" / "index.cdxj"),
                            str(cdxj / "archive")])
    zipnum = root / "collections" / "zipnum"
    run_cli(spinneret_bin, ["index", "--zipnum", str(zipnum / "indexes"), "--lines", "5",
                            str(zipnum / "archive")])
    cluster = root / "cluster"
    run_cli(spinneret_bin, ["index", "--zipnum", str(cluster), "--lines", "5", "--cluster-name", "spin",
                            *[str(corpus_dir / name) for name in WARCS]])
    for path in (zipnum / "indexes" / "index.idx", zipnum / "indexes" / "index.loc",
                 zipnum / "indexes" / "index-00.cdx.gz", cluster / "spin.idx", cluster / "spin.loc",
                 cluster / "spin-00.cdx.gz"):
        assert path.is_file(), f"spinneret index --zipnum did not write {path}"
    (root / "config.yaml").write_text(
        "collections:\n"
        "  zipnum-cfg:\n"
        f"    index: {json.dumps(str(cluster / 'spin.idx'))}\n"
        f"    archive_paths: {json.dumps(str(corpus_dir) + '/')}\n"
    )

    port = _free_port()
    log_path = root / "wayback.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "pywb.apps.cli", "--port", str(port), "--bind", "127.0.0.1"],
            cwd=root, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )
    server = Wayback(port, root, log_path)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"wayback exited with {proc.returncode}:\n{log_path.read_text(errors='replace')}")
            try:
                if server.request("GET", "/")[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"wayback did not answer within {STARTUP_TIMEOUT} s:\n"
                            f"{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield server
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _expected(corpus: dict, warc: str, uri: str, timestamp: str) -> tuple[dict, dict]:
    """The replayed record and the one whose payload is served (the
    response a revisit refers to, found by payload digest)."""
    found = [r for r in corpus["by_capture"].get((warc, uri, timestamp), [])
             if r["type"] in ("response", "revisit", "resource")]
    assert len(found) == 1, f"{warc}: {len(found)} records of {uri} at {timestamp}"
    record = found[0]
    if record["type"] != "revisit":
        return record, record
    originals = [r for r in corpus["by_offset"].values()
                 if r["type"] == "response" and r["digest"] == record["digest"]
                 and r["uri"] == (record["refers_to"] or record["uri"])]
    assert originals, f"no response with {record['digest']} for the revisit of {uri} at {timestamp}"
    return record, originals[0]


@pytest.mark.parametrize("coll", COLLECTIONS)
@pytest.mark.parametrize("capture", CAPTURES, ids=[c[0] for c in CAPTURES])
def test_replay_identity(wayback, corpus, coll, capture):
    _, method, url, timestamp, body, warc, uri, record_ts = capture
    record, original = _expected(corpus, warc, uri, record_ts)
    headers = {"Content-Type": "application/x-www-form-urlencoded"} if body is not None else {}
    status, resp_headers, resp_body = wayback.request(method, f"/{coll}/{timestamp}id_/{url}", body, headers)
    where = f"{method} /{coll}/{timestamp}id_/{url} (see {wayback.log_path})"
    assert status == record["status"], f"{where}: {status}, archived {record['status']}: {resp_body[:300]!r}"
    assert resp_headers.get("Memento-Datetime") == _http_date(record_ts), where
    assert resp_body == original["payload"], f"{where}: {len(resp_body)} bytes, archived {len(original['payload'])}"
    if record["status"] in (301, 302):
        assert resp_headers.get("Location") == record["headers"].get_header("Location"), where


def _all_rows(wayback: Wayback, coll: str) -> list[dict]:
    rows = []
    for domain in DOMAINS:
        query = {"url": domain, "matchType": "domain"}
        if coll in ZIPNUM:
            # pywb serves a cluster page by page (10 gzip blocks each); the
            # page count comes from the .idx line numbers.
            info = wayback.cdx(coll, **query, showNumPages="true")
            assert len(info) == 1 and info[0]["pages"] >= 1, f"{coll} {domain}: {info}"
            for page in range(info[0]["pages"]):
                rows += wayback.cdx(coll, **query, page=str(page))
        else:
            rows += wayback.cdx(coll, **query)
    for row in rows:
        assert row.pop("source-coll") == coll
        assert row.pop("source") == SOURCES[coll]
        row.pop("access", None)
    return rows


@pytest.mark.parametrize("coll", COLLECTIONS)
def test_cdx_api(wayback, corpus, index_lines, coll):
    rows = _all_rows(wayback, coll)
    assert rows == index_lines, f"/{coll}/cdx: {len(rows)} rows, our index {len(index_lines)} lines"
    for row in rows:
        record = corpus["by_offset"].get((row["filename"], int(row["offset"])))
        assert record is not None, f"no record of {row['filename']} at {row['offset']}: {row}"
        assert (record["uri"], record["timestamp"], record["length"]) == \
            (row["url"], row["timestamp"], int(row["length"])), row


@pytest.mark.parametrize("coll", COLLECTIONS)
def test_cdx_api_url(wayback, corpus, coll):
    """One URL's captures, as a replay tool asks for them."""
    rows = wayback.cdx(coll, url="http://www.iana.org/")
    found = [(r["timestamp"], r["url"], r["filename"], int(r["offset"]), int(r["length"])) for r in rows]
    expected = sorted(
        (r["timestamp"], r["uri"], r["file"], r["offset"], r["length"]) for r in corpus["by_offset"].values()
        if r["type"] in ("response", "revisit") and r["uri"] in ("http://www.iana.org/", "http://iana.org")
    )
    assert sorted(found) == expected


def test_pywb_indexed_nothing(wayback):
    """Replay used our indexes only: pywb wrote none of its own (this runs
    after the replays above)."""
    for coll, ours in (("cdxj", {"index.cdxj"}), ("zipnum", {"index.idx", "index.loc", "index-00.cdx.gz"})):
        found = {path.name for path in (wayback.root / "collections" / coll / "indexes").iterdir()}
        assert found == ours, coll
