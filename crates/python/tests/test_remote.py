"""Remote inputs, against real servers on 127.0.0.1 started here: an HTTP
server with range support that injects faults on a schedule
(range_server.py) and moto's S3 server holding the corpus WARCs.

- Over HTTP and S3 (signed, unsigned, a prefix listed, a manifest with
  `--base`), `index`, `links` and `text` (and over HTTP `check` and
  `canon-eval`) write what they write for the local files: byte for byte
  (the input's name, which the outputs of `links`, `text` and `check`
  carry, is the URL instead of the path).
- `get` fetches records picked with DuckDB over HTTP and S3 verbatim,
  `--payload` writes what warcio decodes, and pywb replays a fetched page;
  the Python readers take the same URLs.
- Faults — a connection cut mid-body, 503 and 429 with `Retry-After`, a
  stall longer than the timeout — are retried, resuming at the byte
  reached, and the output equals the fault-free run; a wrong
  `Content-Range` and a changed ETag make that input unreadable (exit
  code 1), the others complete.
- Secrets (a URL's password, a signed URL's query, the AWS secret key) are
  in no output, no message, no `--stats` file.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import time

import pytest

from conftest import FILES
from range_server import RangeServer

# The file the fault tests read, in 64 KiB ranges (13 of them).
FAULTY = "pywb/iana.warc.gz"
SMALL_CHUNKS = ["--remote-chunk-size", "64K"]


def run(binary, args, env=None, stdin=b""):
    full_env = dict(os.environ)
    full_env.update(env or {})
    done = subprocess.run(
        [binary, *args], input=stdin, capture_output=True, check=False, env=full_env, timeout=600
    )
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


@pytest.fixture(scope="module")
def corpus(shared):
    return shared / "corpus/warc"


@pytest.fixture(scope="module")
def server(corpus):
    with RangeServer(corpus) as s:
        yield s


def local_vs_remote(binary, command, corpus, urls, extra=()):
    """The command's output for the local files and for `urls`, with each
    URL replaced by its local path in the remote run's output."""
    local = [str(corpus / f) for f in FILES]
    code_l, out_l, err_l = run(binary, [command, *extra, *local])
    code_r, out_r, err_r = run(binary, [command, *extra, *urls])
    assert code_l == code_r, (err_l, err_r)
    for url, path in zip(urls, local):
        out_r = out_r.replace(url.encode(), path.encode())
    return out_l, out_r, err_r


@pytest.mark.parametrize("command", ["index", "links", "text", "check", "canon-eval"])
def test_http_inputs_read_as_local_files(server, corpus, spinneret_bin, command):
    urls = [f"{server.url}/{f}" for f in FILES]
    extra = ["--fields", "cc"] if command == "index" else []
    out_l, out_r, _ = local_vs_remote(spinneret_bin, command, corpus, urls, extra)
    assert out_l == out_r
    assert out_l.count(b"\n") > 10
    # The same through small ranges, eight in flight.
    before = len(server.gets(FILES[0]))
    out_l, out_r, _ = local_vs_remote(
        spinneret_bin, command, corpus, urls, [*extra, *SMALL_CHUNKS, "--remote-in-flight", "8"]
    )
    assert out_l == out_r
    # The file was read in its 13 ranges of 64 KiB, each once.
    ranges = server.gets(FILES[0])[before:]
    assert len(ranges) == len(set(ranges)) == 13, ranges


def test_index_of_http_inputs_is_byte_identical(server, corpus, spinneret_bin):
    # `index` names files by their base name: no substitution at all.
    urls = [f"{server.url}/{f}" for f in FILES]
    code_l, local, _ = run(spinneret_bin, ["index", *[str(corpus / f) for f in FILES]])
    code, remote, err = run(spinneret_bin, ["index", *SMALL_CHUNKS, *urls])
    # (resiliparse/clipped.warc.gz ends in a cut member: exit code 1.)
    assert code == code_l == 1, err
    assert remote == local


def fault_run(server, binary, faults, extra=()):
    """`index` of FAULTY over HTTP with `faults` queued: (code, out, err)."""
    server.inject(FAULTY, *faults)
    before = len(server.gets(FAULTY))
    result = run(binary, ["index", *SMALL_CHUNKS, *extra, f"{server.url}/{FAULTY}"])
    return result, server.gets(FAULTY)[before:]


@pytest.fixture(scope="module")
def fault_free(corpus, spinneret_bin):
    code, out, err = run(spinneret_bin, ["index", str(corpus / FAULTY)])
    assert code == 0, err
    return out


def test_a_cut_connection_resumes_at_the_byte_reached(server, spinneret_bin, fault_free):
    (code, out, err), gets = fault_run(server, spinneret_bin, [("drop", 1000), ("drop", 30000)])
    assert code == 0, err
    assert out == fault_free
    # The range after each cut starts where its body stopped: 1000 and
    # 30000 bytes into the (64 KiB-aligned) ranges the cuts hit, and asks
    # for the rest of that range only.
    starts = [int(r.split("=")[1].split("-")[0]) for r in gets]
    resumed = sorted(s % 65536 for s in starts if s % 65536)
    assert resumed == [1000, 30000], gets
    assert len(gets) == 13 + 2


@pytest.mark.parametrize("status", [503, 429])
def test_retry_after_is_honoured(server, spinneret_bin, fault_free, status):
    server.inject(FAULTY, ("status", status, 2))
    start = time.monotonic()
    code, out, err = run(spinneret_bin, ["index", *SMALL_CHUNKS, f"{server.url}/{FAULTY}"])
    took = time.monotonic() - start
    assert code == 0, err
    assert out == fault_free
    # The server asked for 2 s: the retry came no sooner.
    assert took >= 2.0


def test_a_stall_longer_than_the_timeout_is_retried(server, spinneret_bin, fault_free):
    (code, out, err), gets = fault_run(
        server, spinneret_bin, [("stall", 500, 4)], ["--remote-timeout", "1"]
    )
    assert code == 0, err
    assert out == fault_free


@pytest.mark.parametrize(
    "fault, message", [(("wrong-range",), "[0-9]+ bytes|Requested [0-9]+\\.\\.[0-9]+, got"), (("etag",), "changed while it was read")]
)
def test_wrong_bytes_make_the_input_unreadable_and_the_rest_goes_on(
    server, corpus, spinneret_bin, fault, message
):
    other = "pywb/example.warc.gz"
    # The fault hits the second range of FAULTY (the first is clean).
    server.inject(FAULTY, ("none",), fault)
    code, out, err = run(
        spinneret_bin,
        ["index", *SMALL_CHUNKS, f"{server.url}/{FAULTY}", f"{server.url}/{other}"],
    )
    server.etag_changed.discard(FAULTY)
    server.faults.pop(FAULTY, None)
    assert code == 1, err
    assert re.search(message, err), err
    _, want_other, _ = run(spinneret_bin, ["index", str(corpus / other)])
    _, want_first, _ = run(spinneret_bin, ["index", str(corpus / FAULTY)])
    lines = out.decode().splitlines()
    # The other input is whole; of the faulty one, only records read
    # before the bad range, none after it.
    for line in want_other.decode().splitlines():
        assert line in lines
    faulty_lines = [l for l in lines if "iana.warc.gz" in l]
    assert set(faulty_lines) <= set(want_first.decode().splitlines())
    assert len(faulty_lines) < len(want_first.decode().splitlines())


def test_secrets_appear_nowhere(server, spinneret_bin, tmp_path):
    secrets = ["hunter2pw", "S1GNATURE0123456789", "AKIAEXAMPLECRED", "wJalrXUtnFEMIsecretkey"]
    signed = (
        f"http://crawler:hunter2pw@127.0.0.1:{server.port}/{FAULTY}"
        "?X-Amz-Credential=AKIAEXAMPLECRED&X-Amz-Signature=S1GNATURE0123456789"
    )
    missing = signed.replace(FAULTY, "pywb/none.warc.gz")
    env = {"AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMIsecretkey"}
    server.inject(FAULTY, ("drop", 100))
    outputs = []
    for command, extra in [
        ("index", []),
        ("links", ["--stats", str(tmp_path / "links.json")]),
        ("text", []),
        ("check", ["--stats", str(tmp_path / "check.json"), "--format", "jsonl"]),
        ("links", ["--format", "tsv"]),
    ]:
        code, out, err = run(spinneret_bin, [command, *extra, signed, missing], env=env)
        assert code == 1, err
        assert "none.warc.gz" in err + out.decode(errors="replace")
        outputs += [out.decode(errors="replace"), err]
    outputs += [(tmp_path / f).read_text() for f in ["links.json", "check.json"]]
    # Parquet output and the S3 path's messages too.
    pq = tmp_path / "links.parquet"
    code, _, err = run(spinneret_bin, ["links", "--format", "parquet", "-o", str(pq), signed], env=env)
    assert code == 0, err
    outputs += [err, pq.read_bytes().decode("latin-1")]
    for text in outputs:
        for secret in secrets:
            assert secret not in text, f"{secret} leaked: {text[:2000]}"
    # The shown name keeps what says which object it is.
    assert any(f"127.0.0.1:{server.port}/{FAULTY}" in t for t in outputs)


# ------------------------------------------------------------------ S3


def sorted_files():
    # A listing is sorted by key, as a directory walk sorts its paths.
    return sorted(FILES)


@pytest.mark.parametrize("command", ["index", "links", "text"])
def test_s3_prefix_reads_as_the_local_files(s3, corpus, spinneret_bin, command):
    local = [str(corpus / f) for f in sorted_files()]
    urls = [f"s3://crawl/warc/{f}" for f in sorted_files()]
    code_l, want, _ = run(spinneret_bin, [command, *local])
    code, got, err = run(spinneret_bin, [command, "s3://crawl/warc/"], env=s3["env"])
    assert code == code_l, err
    for url, path in zip(urls, local):
        got = got.replace(url.encode(), path.encode())
    assert got == want
    # Unsigned, with the endpoint on the command line.
    env = {k: v for k, v in s3["env"].items() if not k.startswith("AWS_ENDPOINT")}
    env["AWS_ACCESS_KEY_ID"] = env["AWS_SECRET_ACCESS_KEY"] = ""
    code, unsigned, err = run(
        spinneret_bin,
        [command, "--no-sign-request", "--s3-endpoint", s3["endpoint"], "s3://crawl/warc/"],
        env=env,
    )
    for url, path in zip(urls, local):
        unsigned = unsigned.replace(url.encode(), path.encode())
    assert unsigned == want, err


def test_s3_manifest_with_base(s3, corpus, spinneret_bin, tmp_path):
    manifest = tmp_path / "warc.paths.gz"
    s3["client"].download_file("crawl", "warc.paths.gz", str(manifest))
    _, want, _ = run(spinneret_bin, ["index", *[str(corpus / f) for f in FILES]])
    code, got, err = run(
        spinneret_bin,
        ["index", "--manifest", str(manifest), "--base", "s3://crawl/"],
        env=s3["env"],
    )
    assert code == 1, err  # the clipped file, as for the local run
    assert got == want


def test_s3_errors_are_reported_and_the_rest_goes_on(s3, corpus, spinneret_bin):
    code, out, err = run(
        spinneret_bin,
        ["index", "s3://crawl/warc/pywb/none.warc.gz", "s3://crawl/nothing/", "s3://crawl/warc/pywb/example.warc.gz"],
        env=s3["env"],
    )
    assert code == 1
    assert "s3://crawl/warc/pywb/none.warc.gz: not found" in err, err
    assert "s3://crawl/nothing/" in err, err
    _, want, _ = run(spinneret_bin, ["index", str(corpus / "pywb/example.warc.gz")])
    assert out == want
    assert "testing-secret" not in err


# ------------------------------------------------------------------ get


@pytest.fixture(scope="module")
def picked(corpus, spinneret_bin, tmp_path_factory):
    """HTML records of FILES picked with DuckDB from the Parquet index,
    written as a Parquet file of cc-index rows, with the members they
    name read from the local files."""
    duckdb = pytest.importorskip("duckdb")
    d = tmp_path_factory.mktemp("get")
    index = d / "index.parquet"
    code, _, err = run(
        spinneret_bin,
        ["index", "--format", "parquet", "--dir-root", str(corpus), "-o", str(index),
         *[str(corpus / f) for f in FILES]],
    )
    assert code == 1, err  # the clipped file
    rows = d / "rows.parquet"
    duckdb.sql(
        f"""COPY (SELECT url, warc_filename, warc_record_offset, warc_record_length
                  FROM read_parquet('{index}')
                  WHERE content_mime_type = 'text/html' AND fetch_status = 200
                    AND warc_filename NOT LIKE '%.arc%'
                  ORDER BY warc_filename, warc_record_offset)
            TO '{rows}' (FORMAT parquet)"""
    )
    picked = duckdb.sql(f"SELECT * FROM read_parquet('{rows}')").fetchall()
    assert len(picked) > 20
    members = []
    for _, name, offset, length in picked:
        with open(corpus / name, "rb") as f:
            f.seek(offset)
            members.append(f.read(length))
    return rows, picked, members


def split_members(warc: bytes) -> list[bytes]:
    """The gzip members of a WARC written by `get` (each record one)."""
    import zlib

    out = []
    while warc:
        z = zlib.decompressobj(31)
        z.decompress(warc)
        used = len(warc) - len(z.unused_data)
        out.append(warc[:used])
        warc = z.unused_data
    return out


@pytest.mark.parametrize("where", ["http", "s3"])
def test_get_fetches_each_record_verbatim(where, picked, server, s3, spinneret_bin, tmp_path):
    rows, picked_rows, members = picked
    base = f"{server.url}/" if where == "http" else "s3://crawl/warc/"
    fetched = tmp_path / "fetched.warc.gz"
    for in_flight in ["1", "8", "64"]:
        code, _, err = run(
            spinneret_bin,
            ["get", "--base", base, "--in-flight", in_flight, "-o", str(fetched), str(rows)],
            env=s3["env"],
        )
        assert code == 0, err
        got = split_members(fetched.read_bytes())
        assert len(got) == len(members)
        # Plain records (example-extra.warc) are gzipped; members verbatim.
        for (_, name, _, _), member, want in zip(picked_rows, got, members):
            if name.endswith(".gz"):
                assert member == want
            else:
                assert gzip.decompress(member) == want
    code, _, err = run(spinneret_bin, ["check", str(fetched)])
    assert code == 0, err


def test_get_reports_bad_ranges_and_goes_on(server, corpus, spinneret_bin):
    lines = [
        'org,iana)/ 20140126200624 {"url": "http://www.iana.org/", "offset": "1", "length": "500", "filename": "pywb/iana.warc.gz"}',
        'org,iana)/ 20140126200624 {"url": "http://www.iana.org/", "offset": "0", "length": "500", "filename": "pywb/none.warc.gz"}',
        'org,iana)/ 20140126200624 {"url": "http://www.iana.org/", "offset": "0", "length": "500", "filename": "../etc/passwd"}',
    ]
    _, index, _ = run(spinneret_bin, ["index", "--dir-root", str(corpus), str(corpus / "pywb/example.warc.gz")])
    stdin = ("\n".join(lines) + "\n").encode() + index
    code, out, err = run(spinneret_bin, ["get", "--base", f"{server.url}/"], stdin=stdin)
    assert code == 1
    assert err.count("spinneret: bad range:") == 3, err
    assert "not found" in err and "not a path under the base" in err, err
    _, want, _ = run(spinneret_bin, ["get", "--base", str(corpus)], stdin=index)
    assert out == want


def test_pywb_replays_a_fetched_page(picked, server, spinneret_bin, tmp_path):
    import sys
    import urllib.request

    from test_index_pywb import Wayback, _free_port

    rows, picked_rows, members = picked
    root = tmp_path / "pywb"
    archive = root / "collections" / "got" / "archive"
    archive.mkdir(parents=True)
    (root / "collections" / "got" / "indexes").mkdir()
    fetched = archive / "fetched.warc.gz"
    code, _, err = run(spinneret_bin, ["get", "--base", f"{server.url}/", "-o", str(fetched), str(rows)])
    assert code == 0, err
    run(spinneret_bin, ["index", "-o", str(root / "collections/got/indexes/index.cdxj"), str(fetched)])
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pywb.apps.cli", "--port", str(port), "--bind", "127.0.0.1"],
        cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )
    try:
        wayback = Wayback(port, root, None)
        deadline = time.monotonic() + 60
        while True:
            try:
                if wayback.request("GET", "/")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "wayback did not start"
            time.sleep(0.2)
        url = picked_rows[0][0]
        status, _, body = wayback.request("GET", f"/got/id_/{url}")
        assert status == 200
        # The payload pywb replays is the record's.
        record = gzip.decompress(members[0])
        assert body and body in record
    finally:
        proc.terminate()
        proc.wait(timeout=10)


# ------------------------------------------------------------------ Python


def test_python_readers_take_remote_inputs(s3, server, corpus, monkeypatch):
    pa = pytest.importorskip("pyarrow")
    import spinneret

    for k, v in s3["env"].items():
        monkeypatch.setenv(k, v)
    spinneret.remote_options()  # a client that sees the environment above
    files = [f for f in sorted_files() if "clipped" not in f]
    local = [str(corpus / f) for f in files]

    def table(batches):
        return pa.Table.from_batches([pa.record_batch(b) for b in batches])

    # warc_index names files by their base name: equal tables.
    want = table(spinneret.warc_index(local))
    assert table(spinneret.warc_index([f"s3://crawl/warc/{f}" for f in files])) == want
    assert table(spinneret.warc_index([f"{server.url}/{f}" for f in files])) == want
    # A listed prefix (which holds the clipped file too: reported, skipped).
    listed = spinneret.warc_index("s3://crawl/warc/")
    clipped = spinneret.warc_index(str(corpus / "resiliparse/clipped.warc.gz"))
    clipped_rows = sum(pa.record_batch(b).num_rows for b in clipped)
    assert table(listed).num_rows == want.num_rows + clipped_rows
    # warc_links and warc_text: the same rows but for the input's name.
    for reader in (spinneret.warc_links, spinneret.warc_text):
        a = table(reader(local)).to_pylist()
        b = table(reader([f"{server.url}/{f}" for f in files])).to_pylist()
        assert len(a) == len(b) > 0
        for ra, rb in zip(a, b):
            for key in ra:
                if isinstance(ra[key], str) and str(corpus) in ra[key]:
                    assert ra[key].replace(str(corpus), server.url) == rb[key]
                else:
                    assert ra[key] == rb[key], key
    # get_records from a remote base equals the local read.
    lines = []
    for f in files[:3]:
        lines += [
            l for l in subprocess.run(
                [os.environ.get("SPINNERET_BIN", "spinneret"), "index", "--dir-root", str(corpus), str(corpus / f)],
                capture_output=True, check=False,
            ).stdout.decode().splitlines()
        ]
    assert lines
    want = list(spinneret.get_records(lines, base=corpus))
    assert list(spinneret.get_records(lines, base=f"{server.url}/")) == want
    assert list(spinneret.get_records(lines, base="s3://crawl/warc/")) == want
    # Errors name the input without its secrets.
    secret = f"http://u:pw-hunter2@127.0.0.1:{server.port}/pywb/none.warc.gz?X-Amz-Signature=SIG123456"
    with pytest.raises(Exception) as e:
        list(spinneret.warc_index(secret, strict=True))
    assert "pw-hunter2" not in str(e.value) and "SIG123456" not in str(e.value)
    assert "none.warc.gz" in str(e.value)


def test_get_payloads_are_what_warcio_decodes(picked, server, corpus, spinneret_bin, tmp_path):
    from warcio.archiveiterator import ArchiveIterator

    rows, picked_rows, members = picked
    out = tmp_path / "payloads"
    code, stdout, err = run(spinneret_bin, ["get", "--base", f"{server.url}/", "--payload", str(out), str(rows)])
    assert code == 0, err
    assert stdout == b""
    index = (out / "index.tsv").read_text().splitlines()
    assert index[0].split("\t") == ["file", "url", "date", "status", "mime", "filename", "offset", "length"]
    assert len(index) - 1 == len(picked_rows)
    for line, (url, name, offset, length) in zip(index[1:], picked_rows):
        fields = line.split("\t")
        assert fields[1] == url and fields[5:] == [name, str(offset), str(length)]
        with open(corpus / name, "rb") as f:
            f.seek(offset)
            record = next(iter(ArchiveIterator(f)))
            want = record.content_stream().read()
        assert (out / fields[0]).read_bytes() == want, fields
        assert fields[0].endswith(".html")


def test_python_manifest_may_list_urls(server, corpus, tmp_path):
    pa = pytest.importorskip("pyarrow")
    import spinneret

    files = ["pywb/iana.warc.gz", "pywb/example.warc.gz"]
    manifest = tmp_path / "warc.paths.gz"
    lines = [f"{server.url}/{files[0]}", str(corpus / files[1])]
    manifest.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    got = pa.Table.from_batches([pa.record_batch(b) for b in spinneret.warc_links(manifest=manifest)])
    want = pa.Table.from_batches(
        [pa.record_batch(b) for b in spinneret.warc_links([str(corpus / f) for f in files])]
    )
    assert got.num_rows == want.num_rows > 0
    assert got.column("target") == want.column("target")
