"""spinneret.warc_links against `spinneret links` on every corpus WARC/ARC
file: the same rows in the same order, through both Arrow interfaces
(batches and stream), from a path and from a file object; bad input."""

import json

import pyarrow as pa
import pytest

import spinneret
from conftest import run_cli

FIELDS = ["source", "target", "error", "raw", "tag", "attr", "kind", "rel", "text", "record"]


def corpus_files(shared):
    files = sorted(p for p in (shared / "corpus/warc").rglob("*")
                   if p.is_file() and (".warc" in p.name or ".arc" in p.name) and "cdx" not in p.parts)
    assert len(files) > 30
    return files


def table(batches):
    return pa.Table.from_batches([pa.record_batch(b) for b in batches])


def cli_rows(binary, path):
    out = run_cli(binary, ["links", str(path)])
    return [json.loads(line) for line in out.decode().split("\n")[:-1]]


def test_rows_equal_the_cli_on_every_corpus_file(shared, spinneret_bin):
    total = 0
    for path in corpus_files(shared):
        want = [{k: row[k] for k in FIELDS} for row in cli_rows(spinneret_bin, path)]
        batches = spinneret.warc_links(str(path), batch_rows=5000)
        got = [r for b in batches for r in pa.record_batch(b).to_pylist()]
        assert [{k: r[k] for k in FIELDS} for r in got] == want, path
        for r in got:
            assert r["record"] == f"{path}:{r['offset']}"
            assert r["status"] is None or 100 <= r["status"] <= 999
        total += len(want)
    assert total > 10_000


def test_cli_parquet_equals_warc_links_on_every_corpus_file(shared, spinneret_bin, tmp_path):
    # `spinneret links --format parquet` and warc_links: one schema, the same
    # table (offsets and statuses included), for pyarrow, DuckDB or Spark.
    import pyarrow.parquet as pq

    for i, path in enumerate(corpus_files(shared)):
        out = tmp_path / f"{i}.parquet"
        run_cli(spinneret_bin, ["links", "--format", "parquet", "-o", str(out), str(path)])
        from_cli = pq.read_table(out)
        from_python = pa.RecordBatchReader.from_stream(spinneret.warc_links(str(path))).read_all()
        assert from_cli.schema.equals(from_python.schema), path
        assert from_cli.equals(from_python), path


def most_links(shared):
    return max(corpus_files(shared), key=lambda p: sum(len(b) for b in spinneret.warc_links(str(p))))


def test_stream_file_object_and_batch_sizes_agree(shared):
    path = most_links(shared)
    whole = table(spinneret.warc_links(path)).to_pylist()
    assert len(whole) > 1000
    stream = pa.RecordBatchReader.from_stream(spinneret.warc_links(str(path))).read_all()
    assert stream.to_pylist() == whole
    with open(path, "rb") as f:
        from_file = table(spinneret.warc_links(f)).to_pylist()
    assert from_file == whole
    small = list(spinneret.warc_links(str(path), batch_rows=7))
    assert all(len(b) <= 7 for b in small)
    assert table(small).to_pylist() == whole
    assert pa.schema(spinneret.warc_links(str(path))).names == FIELDS + ["offset", "status"]


def test_profiles_canonicalize_targets(shared, spinneret_bin):
    path = corpus_files(shared)[0]
    out = run_cli(spinneret_bin, ["links", "--profile", "aggressive", str(path)])
    want = [json.loads(line)["target"] for line in out.decode().split("\n")[:-1]]
    got = [r["target"] for b in spinneret.warc_links(str(path), canon="aggressive")
           for r in pa.record_batch(b).to_pylist()]
    assert got == want


def test_bad_input(tmp_path):
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"WARC/1.0\r\nnot a header\r\n\r\n" + bytes(range(256)) * 100)
    batches = spinneret.warc_links(str(junk))
    assert list(batches) == []
    assert batches.bad_records >= 1 and batches.errors[0].startswith(str(junk))
    with pytest.raises(ValueError):
        list(spinneret.warc_links(str(junk), strict=True))
    with pytest.raises(ValueError, match="No such file"):
        list(spinneret.warc_links(str(tmp_path / "missing.warc.gz")))
    with pytest.raises(TypeError):
        spinneret.warc_links(42)
    with pytest.raises(ValueError):
        spinneret.warc_links(str(junk), batch_rows=0)
    with pytest.raises(ValueError):
        spinneret.warc_links(str(junk), canon="nope")
    f = open(junk, "rb")
    f.close()
    with pytest.raises(ValueError, match="closed file"):
        spinneret.warc_links(f)
    # A file object whose read() returns text is a bad record, not a crash.
    import io
    batches = spinneret.warc_links(io.StringIO("WARC/1.0\r\n"))
    assert list(batches) == [] and batches.bad_records >= 1


def test_dropping_the_iterator_early_stops_the_reader(shared):
    path = most_links(shared)
    for _ in range(20):
        batches = spinneret.warc_links(str(path), batch_rows=10)
        next(batches)
        del batches


def rows(batches):
    return [r for b in batches for r in pa.record_batch(b).to_pylist()]


def test_a_directory_a_list_and_a_manifest_give_the_files_in_sorted_order(shared, tmp_path):
    import gzip
    files = corpus_files(shared)
    want = []
    for f in files:
        want.extend(rows(spinneret.warc_links(str(f))))
    # The corpus folder walked: the same rows as its files one by one, in
    # sorted order (the CDX indexes in it are not WARC files).
    got = rows(spinneret.warc_links(shared / "corpus/warc"))
    assert got == want
    assert rows(spinneret.warc_links([str(f) for f in files])) == want
    listing = tmp_path / "warc.paths.gz"
    with gzip.open(listing, "wt") as out:
        out.write("".join(f"{f}\n" for f in files))
    assert rows(spinneret.warc_links(manifest=listing)) == want


def test_an_unreadable_file_is_counted_and_the_others_read(shared, tmp_path):
    sample = next(f for f in corpus_files(shared) if f.name.endswith(".warc.gz"))
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "1.warc.gz").write_bytes(sample.read_bytes())
    (tmp_path / "b.warc.gz").symlink_to(tmp_path / "gone.warc.gz")
    (tmp_path / "c.warc.gz").write_bytes(sample.read_bytes())
    alone = rows(spinneret.warc_links(str(sample)))
    assert alone
    batches = spinneret.warc_links(str(tmp_path))
    got = rows(batches)
    assert len(got) == 2 * len(alone)
    assert batches.unreadable == 1
    assert any("b.warc.gz" in e for e in batches.errors)
    with pytest.raises(ValueError, match="b.warc.gz"):
        rows(spinneret.warc_links(str(tmp_path), strict=True))
    with pytest.raises(TypeError):
        spinneret.warc_links()
