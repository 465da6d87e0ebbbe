"""Host-level link graph of WARC files with Spark and spinneret, in the
manner of Common Crawl's cc-pyspark host-link extraction.

    PYSPARK_PYTHON=$(which python) python examples/spark/host_links.py \
        --master 'local[2]' --out /tmp/links WARC...

A list of WARC paths becomes a DataFrame of paths; `mapInArrow` runs
`spinneret.warc_links` on each path in the executors (Arrow record batches,
no per-link Python); Spark SQL then derives the page-level table (every
link with its source, target, kind and record) and the host-level table
(distinct pairs of hosts, as reversed host names like `com.example.www`,
the form Common Crawl's web graphs use). Both are written as Parquet under
--out. Paths are local to every executor (a shared file system) or
remote objects each executor reads itself: `s3://bucket/key` (credentials
as the AWS tools find them, `AWS_ENDPOINT_URL`), `gs://`, `az://`,
`https://…`.
"""

import argparse

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import spinneret

# The columns of the page-level table: warc_links' columns.
COLUMNS = ["source", "target", "error", "raw", "tag", "attr", "kind", "rel", "text", "record", "offset", "status"]
SCHEMA = ("source string, target string, error string, raw string, tag string, attr string, kind string, "
          "rel string, text string, record string, offset long, status int")


def links_of_paths(batches):
    """mapInArrow: each input batch holds WARC paths; yields their links."""
    for batch in batches:
        for path in batch.column("path").to_pylist():
            for links in spinneret.warc_links(path):
                b = pa.record_batch(links)
                # Spark has no unsigned types: offset as int64, status as int32.
                yield pa.RecordBatch.from_arrays(
                    [b.column(i) if name not in ("offset", "status") else
                     b.column(i).cast(pa.int64() if name == "offset" else pa.int32())
                     for i, name in enumerate(COLUMNS)],
                    names=COLUMNS)


# The host of a URL as spinneret serializes it (WHATWG): after `scheme://`
# and any `userinfo@`, up to the port, path, query or fragment. (Spark's
# parse_url follows java.net.URI, which rejects many URLs browsers accept.)
HOST = r"^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)"


def reversed_host(url_column):
    """The URL's host with its labels reversed (`www.example.com` →
    `com.example.www`), null when the URL has none."""
    host = F.regexp_extract(F.col(url_column), HOST, 1)
    return F.when(host.isNull() | (host == ""), None).otherwise(
        F.array_join(F.reverse(F.split(host, r"\.")), "."))


def run(spark, paths, out=None, partitions=None):
    """The page-level and host-level tables of `paths` (written as Parquet
    under `out` when given); returns their row counts."""
    df = spark.createDataFrame([(p,) for p in paths], "path string")
    df = df.repartition(partitions or max(1, min(len(paths), spark.sparkContext.defaultParallelism)))
    pages = df.mapInArrow(links_of_paths, SCHEMA)
    hosts = (pages.where(F.col("target").isNotNull())
             .select(reversed_host("source").alias("from_host"), reversed_host("target").alias("to_host"))
             .where(F.col("from_host").isNotNull() & F.col("to_host").isNotNull())
             .distinct())
    if out:
        pages.write.mode("overwrite").parquet(f"{out}/page_links")
        hosts.write.mode("overwrite").parquet(f"{out}/host_links")
    return {"page_links": pages.count(), "host_links": hosts.count()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warcs", nargs="+")
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    spark = SparkSession.builder.master(a.master).appName("spinneret-host-links").getOrCreate()
    try:
        print(run(spark, a.warcs, a.out))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
