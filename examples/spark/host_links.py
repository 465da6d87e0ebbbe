"""Host-level link graph of WARC files with Spark and spinneret, in the
manner of Common Crawl's cc-pyspark host-link extraction.

    PYSPARK_PYTHON=$(which python) python examples/spark/host_links.py \
        --master 'local[2]' --out /tmp/links WARC...

A list of WARC paths becomes a DataFrame of paths; `mapInArrow` runs
`spinneret.warc_links` on each path in the executors (Arrow record batches,
no per-link Python) and names each link's source and target host as
Common Crawl's graphs do (`spinneret.surt_host_array`: `com.example.www`,
the rules of `spinneret graph`); Spark SQL then derives the page-level
table (every link with its source, target, kind and record) and the
host-level table as Common Crawl's step 1 (cc-pyspark's
`hostlinks_extract`) writes it: columns `s` and `t`, distinct, a page's
own host as `(s, s)` so that it is a vertex. Both are written as Parquet
under --out; `spinneret graph --pairs OUT/host_links -o graph` is the
one-machine half (numbering, BVGraph, ranks). `--strip-www` names hosts
as the graphs before 2026. Paths are local to every executor (a shared
file system) or remote objects each executor reads itself: `s3://bucket/key`
(credentials as the AWS tools find them, `AWS_ENDPOINT_URL`), `gs://`,
`az://`, `https://…`.
"""

import argparse

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql import functions as F

import spinneret

# The columns of the page-level table: warc_links' columns, then the
# source's and the target's host as the web graph names them.
COLUMNS = ["source", "target", "error", "raw", "tag", "attr", "kind", "rel", "text", "record", "offset", "status"]
SCHEMA = ("source string, target string, error string, raw string, tag string, attr string, kind string, "
          "rel string, text string, record string, offset long, status int, source_host string, target_host string")


def links_of_paths(batches, strip_www=False):
    """mapInArrow: each input batch holds WARC paths; yields their links."""
    for batch in batches:
        for path in batch.column("path").to_pylist():
            for links in spinneret.warc_links(path):
                b = pa.record_batch(links)
                # Spark has no unsigned types: offset as int64, status as int32.
                columns = [b.column(i) if name not in ("offset", "status") else
                           b.column(i).cast(pa.int64() if name == "offset" else pa.int32())
                           for i, name in enumerate(COLUMNS)]
                columns.append(pa.array(spinneret.surt_host_array(b.column(0), strip_www=strip_www)))
                columns.append(pa.array(spinneret.surt_host_array(b.column(1), strip_www=strip_www)))
                yield pa.RecordBatch.from_arrays(columns, names=[*COLUMNS, "source_host", "target_host"])


def run(spark, paths, out=None, partitions=None, strip_www=False):
    """The page-level and host-level tables of `paths` (written as Parquet
    under `out` when given); returns their row counts."""
    df = spark.createDataFrame([(p,) for p in paths], "path string")
    df = df.repartition(partitions or max(1, min(len(paths), spark.sparkContext.defaultParallelism)))
    pages = df.mapInArrow(lambda batches: links_of_paths(batches, strip_www), SCHEMA)
    sources = pages.where(F.col("source_host").isNotNull())
    edges = sources.where(F.col("target_host").isNotNull()).select(
        F.col("source_host").alias("s"), F.col("target_host").alias("t"))
    vertices = sources.select(F.col("source_host").alias("s"), F.col("source_host").alias("t"))
    hosts = edges.union(vertices).distinct().sortWithinPartitions("s", "t")
    if out:
        pages.write.mode("overwrite").parquet(f"{out}/page_links")
        hosts.write.mode("overwrite").parquet(f"{out}/host_links")
    return {"page_links": pages.count(), "host_links": hosts.count()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warcs", nargs="+")
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--out", required=True)
    ap.add_argument("--strip-www", action="store_true", help="drop a leading www. (the graphs before 2026)")
    a = ap.parse_args()
    spark = SparkSession.builder.master(a.master).appName("spinneret-host-links").getOrCreate()
    try:
        print(run(spark, a.warcs, a.out, strip_www=a.strip_www))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
