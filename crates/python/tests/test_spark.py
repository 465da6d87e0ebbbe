"""The Spark example (examples/spark/host_links.py) on local[2]: its
page-level link count equals `spinneret links` on the same files (the
repo's sample WARC and every corpus WARC/ARC file), and it writes both
tables as Parquet."""

import importlib.util
import os
import sys

import pyarrow.parquet as pq
import pytest

from conftest import REPO, run_cli
from test_warc_links import corpus_files


@pytest.fixture(scope="module")
def spark():
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (SparkSession.builder.master("local[2]").appName("spinneret-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4")
               .getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def load_example():
    spec = importlib.util.spec_from_file_location("host_links", REPO / "examples/spark/host_links.py")
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
    hosts = pq.read_table(tmp_path / "out/host_links").to_pylist()
    assert len(hosts) == counts["host_links"]
    assert all(not h["from_host"].startswith("www.") for h in hosts[:50])
    assert any(h["to_host"].startswith("org.iana") for h in hosts)
