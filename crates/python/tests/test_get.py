"""spinneret.get_records against `spinneret get`: over the whole corpus
index, the records it yields are the CLI's, member for member, and it skips
what the CLI reports; rows from a DuckDB query over the CLI's cc-index
Parquet file fetch records that warcio reads back with the query's URLs;
rows may be lines, mappings or (filename, offset, length) sequences; bad
rows are counted, or raise with `strict`."""

import gzip
import io
import json
import subprocess

import pytest

import spinneret


def run(binary, args, stdin=b""):
    done = subprocess.run([binary, *args], input=stdin, capture_output=True, check=False)
    return done.returncode, done.stdout, done.stderr.decode(errors="replace")


@pytest.fixture(scope="module")
def corpus_index(shared, spinneret_bin):
    base = shared / "corpus/warc"
    code, out, err = run(spinneret_bin, ["index", "--no-sort", "--dir-root", str(base), str(base)])
    assert code in (0, 1), err
    return base, out.decode().splitlines()


def test_records_are_the_cli_get_records(corpus_index, spinneret_bin):
    base, lines = corpus_index
    records = spinneret.get_records(lines, base=base)
    got = list(records)
    code, want, err = run(spinneret_bin, ["get", "--base", str(base)], "\n".join(lines).encode())
    assert code == 1
    assert b"".join(got) == want
    bad = [l for l in err.splitlines() if l.startswith("spinneret: bad range:")]
    assert records.bad == len(bad) > 0
    assert all(e.startswith("bad range: ") for e in records.errors)
    # Each record is one gzip member holding one WARC record.
    for record in got[:50]:
        assert gzip.decompress(record).startswith(b"WARC/")


def test_duckdb_rows_fetch_the_records_they_name(shared, spinneret_bin, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    warcio = pytest.importorskip("warcio.archiveiterator")
    warc = shared / "corpus/warc/pywb/iana.warc.gz"
    index = tmp_path / "index.parquet"
    code, _, err = run(spinneret_bin, ["index", "--format", "parquet", "-o", str(index), str(warc)])
    assert code == 0, err
    query = f"""SELECT url, warc_filename, warc_record_offset, warc_record_length
                FROM read_parquet('{index}') WHERE content_mime_type = 'text/html'"""
    relation = duckdb.sql(query)
    columns = [d[0] for d in relation.description]
    rows = [dict(zip(columns, r)) for r in relation.fetchall()]
    assert len(rows) > 3
    records = list(spinneret.get_records(rows, base=warc.parent))
    assert len(records) == len(rows)
    for row, record in zip(rows, records):
        (read,) = list(warcio.ArchiveIterator(io.BytesIO(record)))
        assert read.rec_headers.get_header("WARC-Target-URI") == row["url"]


def test_rows_of_every_shape_name_the_same_record(corpus_index):
    base, lines = corpus_index
    line = next(l for l in lines if '"filename": "pywb/iana.warc.gz"' in l)
    j = json.loads(line.split(" ", 2)[2])
    f, o, n = j["filename"], int(j["offset"]), int(j["length"])
    shapes = [
        line,
        {"filename": f, "offset": o, "length": n},
        {"warc_filename": f, "warc_record_offset": str(o), "warc_record_length": n},
        (f, o, n),
        [f, str(o), str(n)],
    ]
    got = [list(spinneret.get_records([row], base=base)) for row in shapes]
    assert all(len(g) == 1 and g == got[0] for g in got), got
    # A single line is one row, not its characters.
    assert list(spinneret.get_records(line, base=base)) == got[0]


def test_bad_rows_are_counted_or_raise(corpus_index):
    base, lines = corpus_index
    good = next(l for l in lines if '"filename": "pywb/iana.warc.gz"' in l)
    rows = [good, 42, ("../x", 0, 10), {"filename": "pywb/iana.warc.gz"}, ("a", 1), good]
    records = spinneret.get_records(rows, base=base)
    assert len(list(records)) == 2
    assert records.bad == 4
    assert any("is not a path under the base folder" in e for e in records.errors)
    with pytest.raises(ValueError, match="bad row"):
        list(spinneret.get_records(rows[1:], base=base, strict=True))
