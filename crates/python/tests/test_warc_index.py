"""spinneret.warc_index against `spinneret index`: on every corpus WARC/ARC
file, its rows are the CLI's `--format cdxj --no-sort` lines one for one
(key, URL, offset, length, status, media type, digest, file name and
Common Crawl's optional fields), under two option sets and for a
whole-file gzip (whose records replay cannot seek to); and DuckDB reads
the CLI's `--format parquet` file, where a cc-index style query by
registered domain finds the rows the CDXJ has for that domain."""

import datetime
import gzip
import json
import shutil
import subprocess
import urllib.parse

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import spinneret
from test_warc_links import corpus_files

# (CLI options, warc_index keywords): the same index both ways.
OPTION_SETS = [
    (["--fields", "cc"], {"fields": "cc"}),
    (["--records", "all", "--no-post-append"], {"records": "all", "post_append": False}),
]


def cli_index(binary, args):
    """The CLI's standard output and error (exit code 1: damaged records
    were reported and skipped)."""
    done = subprocess.run([binary, "index", *args], capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return done.stdout, done.stderr.decode(errors="replace")


def cdxj_rows(binary, args):
    """The CLI's CDXJ lines that have a cc-index row: all but those of
    records without a URL (a warcinfo's, with `--records all`: keyed `-`;
    cc-index's url column cannot be null, so `warc_index` and the
    parquet output report them as bad records)."""
    out, _ = cli_index(binary, ["--format", "cdxj", "--no-sort", *args])
    rows = []
    for line in out.decode().splitlines():
        key, ts, body = line.split(" ", 2)
        j = json.loads(body)
        if "url" in j:
            rows.append((key, ts, j))
        else:
            assert key == "-", line
    return rows


def table(batches):
    return pa.Table.from_batches([pa.record_batch(b) for b in batches], schema=cc_schema())


def expected(key, ts, j):
    """The cc-index row a CDXJ line stands for."""
    decompressed = j.get("offset-kind") == "decompressed"
    digest = j.get("digest")
    if digest is not None and digest.startswith("sha1:"):
        digest = digest[len("sha1:"):]
    ts = (ts + "00000101000000"[len(ts):]) if len(ts) < 14 else ts
    return {
        "url_surtkey": key,
        "url": j["url"],
        "fetch_time": datetime.datetime.strptime(ts, "%Y%m%d%H%M%S").replace(tzinfo=datetime.timezone.utc),
        "fetch_status": int(j["status"]) if "status" in j else -1,
        "fetch_redirect": j.get("redirect"),
        "content_digest": digest,
        "content_mime_type": j.get("mime"),
        "content_mime_detected": j.get("mime-detected"),
        "content_charset": j.get("charset"),
        "content_languages": None,
        "content_truncated": j.get("truncated"),
        "warc_filename": j["filename"],
        "warc_record_offset": -1 if decompressed else int(j["offset"]),
        "warc_record_length": -1 if decompressed else int(j["length"]),
    }


def assert_same_rows(got, want_lines, where):
    rows = got.to_pylist()
    assert len(rows) == len(want_lines), where
    for i, (row, line) in enumerate(zip(rows, want_lines)):
        want = expected(*line)
        assert {k: row[k] for k in want} == want, f"{where}: row {i}"


@pytest.fixture(scope="module")
def files(shared):
    return corpus_files(shared)


@pytest.mark.parametrize("cli_args,kwargs", OPTION_SETS, ids=["cc-fields", "all-records"])
def test_rows_are_the_cli_lines_on_every_corpus_file(files, spinneret_bin, cli_args, kwargs):
    for path in files:
        got = table(list(spinneret.warc_index(str(path), **kwargs)))
        assert got.schema == cc_schema()
        assert_same_rows(got, cdxj_rows(spinneret_bin, [*cli_args, str(path)]), path.name)


def test_records_sharing_a_gzip_member_have_no_range(files, spinneret_bin, tmp_path):
    plain = [p for p in files if p.name.endswith(".warc")][:4]
    assert plain
    whole = []
    for p in plain:
        z = tmp_path / (p.name + ".gz")
        with open(p, "rb") as src, gzip.open(z, "wb") as dst:
            shutil.copyfileobj(src, dst)
        whole.append(str(z))
    lines = cdxj_rows(spinneret_bin, whole)
    assert any(j.get("offset-kind") == "decompressed" for _, _, j in lines)
    got = table(list(spinneret.warc_index(whole)))
    assert_same_rows(got, lines, "whole-file gzip")
    assert -1 in got.column("warc_record_offset").to_pylist()


def test_a_list_of_files_is_one_index_and_bad_records_are_counted(files, spinneret_bin):
    paths = [str(p) for p in files]
    batches = spinneret.warc_index(paths, batch_rows=50)
    got = pa.RecordBatchReader.from_stream(batches).read_all()
    assert_same_rows(got, cdxj_rows(spinneret_bin, paths), "all files")
    _, err = cli_index(spinneret_bin, ["--no-sort", *paths])
    damaged = int(err.rsplit(" records, ", 1)[1].split(" lines, ")[1].split(" damaged")[0])
    again = spinneret.warc_index(paths)
    n = sum(len(b) for b in again)
    assert n == got.num_rows and again.bad_records == damaged > 0
    assert all(": " in e for e in again.errors)
    with pytest.raises(ValueError):
        list(spinneret.warc_index(paths, strict=True))


def test_host_columns_and_names(files):
    warc = str(next(p for p in files if p.name == "iana.warc.gz"))
    rows = table(list(spinneret.warc_index(warc, filename="f.warc.gz", segment="seg"))).to_pylist()
    www = next(r for r in rows if r["url"].startswith("http://www.iana.org/"))
    assert www["url_host_name"] == "www.iana.org"
    assert (www["url_host_tld"], www["url_host_2nd_last_part"], www["url_host_3rd_last_part"]) == (
        "org", "iana", "www")
    assert www["url_host_4th_last_part"] is None
    assert www["url_host_registry_suffix"] == www["url_host_private_suffix"] == "org"
    assert www["url_host_registered_domain"] == www["url_host_private_domain"] == "iana.org"
    assert www["url_host_name_reversed"] == "org.iana.www"
    assert www["url_protocol"] == "http" and www["url_port"] is None
    assert {r["warc_filename"] for r in rows} == {"f.warc.gz"}
    assert {r["warc_segment"] for r in rows} == {"seg"}


def test_bad_arguments():
    with pytest.raises(ValueError):
        spinneret.warc_index("x.warc", fields="colour")
    with pytest.raises(ValueError):
        spinneret.warc_index("x.warc", records="responses")
    with pytest.raises(ValueError):
        spinneret.warc_index("x.warc", batch_rows=0)
    with pytest.raises(TypeError):
        spinneret.warc_index(42)
    with pytest.raises(ValueError):
        list(spinneret.warc_index("/nonexistent/x.warc.gz"))


def test_duckdb_reads_the_cli_parquet_as_a_cc_index(files, spinneret_bin, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    paths = [str(p) for p in files]
    out = tmp_path / "index.parquet"
    done = subprocess.run([spinneret_bin, "index", "--format", "parquet", "--fields", "cc", "-o", str(out), *paths],
                          capture_output=True, check=False)
    if b"invalid value 'parquet'" in done.stderr:
        pytest.skip("this spinneret has no `index --format parquet` yet")
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    # The file is warc_index's table (same options), column for column.
    parquet = pq.read_table(out)
    assert parquet.schema.equals(cc_schema())
    assert parquet.equals(table(list(spinneret.warc_index(paths, fields="cc"))))
    lines = cdxj_rows(spinneret_bin, ["--fields", "cc", *paths])
    assert parquet.num_rows == len(lines)

    query = f"""SELECT url, warc_filename, warc_record_offset, warc_record_length
                FROM read_parquet('{out}') WHERE url_host_registered_domain = 'iana.org'"""
    got = sorted(duckdb.sql(query).fetchall())

    def in_iana(url):
        host = urllib.parse.urlsplit(url).hostname or ""
        return host == "iana.org" or host.endswith(".iana.org")

    want = sorted((j["url"], j["filename"], int(j["offset"]), int(j["length"]))
                  for _, _, j in lines if in_iana(j["url"]))
    assert len(want) > 10
    assert got == want


def cc_schema():
    """The cc-index-table schema (src/main/resources/schema/cc-index-schema-flat.json
    of commoncrawl/cc-index-table, partition columns aside), as Arrow."""
    s = pa.string()
    return pa.schema([
        pa.field("url_surtkey", s, False), pa.field("url", s, False), pa.field("url_host_name", s, False),
        pa.field("url_host_tld", s), pa.field("url_host_2nd_last_part", s), pa.field("url_host_3rd_last_part", s),
        pa.field("url_host_4th_last_part", s), pa.field("url_host_5th_last_part", s),
        pa.field("url_host_registry_suffix", s), pa.field("url_host_registered_domain", s),
        pa.field("url_host_private_suffix", s), pa.field("url_host_private_domain", s),
        pa.field("url_host_name_reversed", s), pa.field("url_protocol", s, False),
        pa.field("url_port", pa.int32()), pa.field("url_path", s, False), pa.field("url_query", s),
        pa.field("fetch_time", pa.timestamp("us", tz="UTC"), False), pa.field("fetch_status", pa.int16(), False),
        pa.field("fetch_redirect", s), pa.field("content_digest", s), pa.field("content_mime_type", s),
        pa.field("content_mime_detected", s), pa.field("content_charset", s), pa.field("content_languages", s),
        pa.field("content_truncated", s), pa.field("warc_filename", s, False),
        pa.field("warc_record_offset", pa.int32(), False), pa.field("warc_record_length", pa.int32(), False),
        pa.field("warc_segment", s, False),
    ])
