"""The Spark examples on local[2]. examples/spark/host_links.py: its
page-level link count equals `spinneret links` on the same files (the
repo's sample WARC and every corpus WARC/ARC file), and it writes both
tables as Parquet, the host table as Common Crawl's step 1 writes it (s, t),
which `spinneret graph --pairs` numbers; over s3:// objects of a local S3 server, the executors
read them themselves and both jobs count what the CLI counts.
examples/spark/cc_index.py: its cc-index table of the
corpus files has the rows of `spinneret index` on them, in Common Crawl's
`crawl=…/subset=…` layout, sorted by `url_surtkey` within each file.
examples/spark/main_text.py: its table of the corpus files' main-content
text has the rows spinneret.warc_text yields over them, each in the
`language=…` partition of its detected language."""

import importlib.util
import json
import os
import subprocess
import sys

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import spinneret
from conftest import REPO, run_cli
from test_warc_links import corpus_files


@pytest.fixture(scope="module")
def spark(s3):
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    # The executors' Python workers inherit the JVM's environment, and the
    # JVM this process's: what reaches the local S3 server (s3 fixture).
    os.environ.update(s3["env"])
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("spinneret-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def load_example(name="host_links"):
    spec = importlib.util.spec_from_file_location(name, REPO / f"examples/spark/{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_spark_job_counts_every_link(spark, shared, spinneret_bin, tmp_path):
    paths = [str(REPO / "crates/cli/tests/data/sample.warc.gz")] + [str(p) for p in corpus_files(shared)]
    want = len(run_cli(spinneret_bin, ["links", *paths]).split(b"\n")) - 1
    counts = load_example().run(spark, paths, str(tmp_path / "out"))
    assert counts["page_links"] == want
    assert counts["host_links"] > 100
    pages = pq.read_table(tmp_path / "out/page_links")
    assert pages.num_rows == want and pages.column_names[:2] == ["source", "target"]
    hosts = pq.read_table(tmp_path / "out/host_links")
    assert hosts.num_rows == counts["host_links"] and hosts.column_names == ["s", "t"]
    # Common Crawl's step-1 table: each row a distinct host pair, named as
    # spinneret.surt_host names the pages' and links' hosts; a page's own
    # host as (s, s).
    got = set(zip(hosts["s"].to_pylist(), hosts["t"].to_pylist()))
    assert len(got) == hosts.num_rows
    rows = pages.select(["source", "target"]).to_pylist()
    want_pairs = set()
    for r in rows:
        s = spinneret.surt_host(r["source"])
        if s is None:
            continue
        want_pairs.add((s, s))
        t = spinneret.surt_host(r["target"]) if r["target"] else None
        if t is not None:
            want_pairs.add((s, t))
    assert got == want_pairs
    assert ("org.iana.www", "org.iana.www") in got
    # `spinneret graph --pairs` is the one-machine half: the same hosts as
    # vertices, the pairs other than (s, s) as edges.
    out = tmp_path / "graph"
    run_cli(spinneret_bin, ["graph", "--any-tld", "--no-ranks", "--pairs", str(tmp_path / "out/host_links"), "-o", str(out)])
    import gzip

    with gzip.open(out / "host/vertices.txt.gz", "rt") as f:
        vertices = [line.rstrip("\n").split("\t")[1] for line in f]
    assert vertices == sorted({h for pair in got for h in pair})
    with gzip.open(out / "host/edges.txt.gz", "rt") as f:
        assert sum(1 for _ in f) == sum(1 for s, t in got if s != t)


def test_spark_job_reads_s3(spark, s3, spinneret_bin, tmp_path):
    # The executors read s3:// objects themselves: no shared file system.
    from conftest import FILES

    paths = [f"s3://crawl/warc/{f}" for f in FILES]
    done = subprocess.run([spinneret_bin, "links", *paths], capture_output=True, check=False,
                          env={**os.environ, **s3["env"]})
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    want = done.stdout.count(b"\n")
    counts = load_example().run(spark, paths, str(tmp_path / "out"))
    assert counts["page_links"] == want > 100
    job = load_example("cc_index")
    count = job.run(spark, paths, str(tmp_path / "table"), crawl="TEST-S3")
    lines = subprocess.run([spinneret_bin, "index", "--no-sort", *paths], capture_output=True,
                           check=False, env={**os.environ, **s3["env"]}).stdout.count(b"\n")
    assert count == lines > 100


def test_cc_index_job_has_every_index_line(spark, shared, spinneret_bin, tmp_path):
    paths = [str(p) for p in corpus_files(shared)]
    listing = tmp_path / "warc.paths"
    listing.write_text("".join(p + "\n" for p in paths))
    done = subprocess.run([spinneret_bin, "index", "--no-sort", *paths], capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    lines = [line.split(" ", 2) for line in done.stdout.decode().splitlines()]
    job = load_example("cc_index")
    count = job.run(spark, job.read_paths(str(listing)), str(tmp_path / "table"), crawl="TEST-2025")
    assert count == len(lines) > 400
    parts = sorted((tmp_path / "table").glob("crawl=*/subset=*/*.parquet"))
    assert parts and all(p.parent.parent.name == "crawl=TEST-2025" and p.parent.name == "subset=warc" for p in parts)
    for p in parts:
        keys = pq.read_table(p, columns=["url_surtkey"]).column(0).to_pylist()
        assert keys == sorted(keys), p
    table = pq.read_table(tmp_path / "table")
    assert table.num_rows == len(lines)
    # Spark writes its timestamps as instants (read back naive, in UTC).
    times = [t.strftime("%Y%m%d%H%M%S") for t in table.column("fetch_time").to_pylist()]
    got = sorted(zip(table.column("url_surtkey").to_pylist(), times, table.column("url").to_pylist(),
                     table.column("warc_record_offset").to_pylist()))
    want = sorted((key, ts, json.loads(body)["url"], int(json.loads(body)["offset"])) for key, ts, body in lines)
    assert got == want
    assert set(table.column("warc_filename").to_pylist()) <= set(paths)


def test_main_text_job_writes_every_page_by_language(spark, shared, tmp_path):
    paths = [str(REPO / "crates/cli/tests/data/sample.warc.gz")] + [str(p) for p in corpus_files(shared)]
    listing = tmp_path / "warc.paths"
    listing.write_text("".join(p + "\n" for p in paths))
    want = [r for b in spinneret.warc_text(paths) for r in pa.record_batch(b).to_pylist()]
    job = load_example("main_text")
    assert job.read_paths(str(listing)) == paths
    count = job.run(spark, paths, str(tmp_path / "text"))
    assert count == len(want) > 100
    parts = sorted((tmp_path / "text").glob("language=*/*.parquet"))
    languages = {p.parent.name.split("=", 1)[1] for p in parts}
    assert {"eng", "zho", "fra"} <= languages and len(languages) > 5
    for p in parts:
        lang = p.parent.name.split("=", 1)[1]
        rows = pq.read_table(p, columns=["text", "language_confidence"]).to_pylist()
        # A detected language needs text to tell it by.
        if lang != "__HIVE_DEFAULT_PARTITION__":
            assert all(r["text"] and r["language_confidence"] is not None for r in rows), p
    table = pq.read_table(tmp_path / "text", partitioning="hive")
    assert table.num_rows == len(want)
    got = sorted(zip(table.column("file").to_pylist(), table.column("offset").to_pylist(),
                     table.column("language").to_pylist(), table.column("text").to_pylist()))
    assert got == sorted((r["file"], r["offset"], r["language"], r["text"]) for r in want)
    assert sum(1 for r in want if r["text"]) > 0.9 * len(want)
