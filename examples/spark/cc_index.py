"""Common Crawl's columnar URL index (cc-index-table) of WARC files, with
Spark and spinneret.

    PYSPARK_PYTHON=$(which python) python examples/spark/cc_index.py \
        --master 'local[2]' --crawl MY-CRAWL-2025 --out /tmp/cc-index warc.paths

`warc.paths` lists WARC paths, one a line (plain or gzip, as Common Crawl's
`warc.paths.gz`), relative to --prefix (default: the list's folder). The
paths are spread over the partitions; `mapInArrow` runs
`spinneret.warc_index` on each in the executors (Arrow record batches, no
per-record Python); the rows, in Common Crawl's cc-index-table columns, are
written as one Parquet table in Common Crawl's layout:
`OUT/crawl=CRAWL/subset=SUBSET/part-….parquet`, sorted by `url_surtkey`
within each file (as Common Crawl's CCIndex2Table sorts them), so a query
such as

    SELECT url, warc_filename, warc_record_offset, warc_record_length
    FROM read_parquet('OUT/*/*/*.parquet', hive_partitioning = true)
    WHERE url_host_registered_domain = 'example.com'

(DuckDB, Athena, Spark SQL) finds records as in Common Crawl's own index.
`warc_filename` is the path as listed (Common Crawl: the path below
s3://commoncrawl/), `warc_segment` that of a Common Crawl path
(`crawl-data/CC-MAIN-…/segments/SEGMENT/SUBSET/…`, else empty). `crawl`
is --crawl; `subset` is a Common Crawl path's (`warc`,
`crawldiagnostics`, `robotstxt`), else --subset. Paths are local to every
executor (a shared file system) or remote objects each executor reads
itself (`s3://commoncrawl/crawl-data/…`, `https://data.commoncrawl.org/…`).
"""

import argparse
import gzip
import os
import re

import pyarrow as pa
from pyspark.sql import SparkSession

import spinneret

# The table's columns (spinneret.warc_index's, Common Crawl's), then the
# partition columns.
SCHEMA = ("url_surtkey string, url string, url_host_name string, url_host_tld string, "
          "url_host_2nd_last_part string, url_host_3rd_last_part string, url_host_4th_last_part string, "
          "url_host_5th_last_part string, url_host_registry_suffix string, url_host_registered_domain string, "
          "url_host_private_suffix string, url_host_private_domain string, url_host_name_reversed string, "
          "url_protocol string, url_port int, url_path string, url_query string, fetch_time timestamp, "
          "fetch_status smallint, fetch_redirect string, content_digest string, content_mime_type string, "
          "content_mime_detected string, content_charset string, content_languages string, "
          "content_truncated string, warc_filename string, warc_record_offset int, warc_record_length int, "
          "warc_segment string, crawl string, subset string")

# Common Crawl's WARC paths (its CCWarcFilenameParser): crawl, segment, subset.
CC_PATH = re.compile(r"(?:^|/)crawl-data/([^/]+)/segments/([^/]+)/(crawldiagnostics|robotstxt|warc|wat|wet)/")


def read_paths(listing, prefix=None):
    """The (full path, listed path) pairs of a path list (plain or gzip)."""
    opener = gzip.open if listing.endswith(".gz") else open
    with opener(listing, "rt", encoding="utf-8") as f:
        listed = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    base = os.path.dirname(os.path.abspath(listing)) if prefix is None else prefix
    return [(p if os.path.isabs(p) or not base else os.path.join(base, p), p) for p in listed]


def index_of_paths(crawl, subset, fields, time_zone):
    """mapInArrow: each input batch holds paths; yields their index rows."""

    def run(batches):
        for batch in batches:
            for path, listed in zip(batch.column("path").to_pylist(), batch.column("listed").to_pylist()):
                cc = CC_PATH.search(listed) or CC_PATH.search(path)
                row_subset = cc.group(3) if cc else subset
                for rows in spinneret.warc_index(path, fields=fields, filename=listed):
                    b = pa.record_batch(rows)
                    n = b.num_rows
                    columns = [b.column(i) for i in range(b.num_columns)]
                    # Spark's timestamps are in the session's time zone
                    # (the same instants).
                    at = b.schema.get_field_index("fetch_time")
                    columns[at] = columns[at].cast(pa.timestamp("us", tz=time_zone))
                    columns += [pa.array([crawl] * n, pa.string()), pa.array([row_subset] * n, pa.string())]
                    yield pa.RecordBatch.from_arrays(columns, names=[*b.schema.names, "crawl", "subset"])

    return run


def run(spark, paths, out, crawl, subset="warc", fields="cc", partitions=None):
    """Indexes `paths` (full paths, or (full path, listed path) pairs) into
    the cc-index table under `out`, partition `crawl`; returns its row
    count."""
    pairs = [(p, p) if isinstance(p, str) else tuple(p) for p in paths]
    df = spark.createDataFrame(pairs, "path string, listed string")
    df = df.repartition(partitions or max(1, min(len(pairs), spark.sparkContext.defaultParallelism)))
    time_zone = spark.conf.get("spark.sql.session.timeZone")
    rows = df.mapInArrow(index_of_paths(crawl, subset, fields, time_zone), SCHEMA)
    (rows.sortWithinPartitions("crawl", "subset", "url_surtkey")
     .write.mode("overwrite").partitionBy("crawl", "subset").parquet(out))
    return spark.read.parquet(out).count()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", help="a file listing WARC paths, one a line (plain or .gz)")
    ap.add_argument("--prefix", help="the folder the listed paths are relative to (default: the list's)")
    ap.add_argument("--crawl", required=True, help="the crawl partition (Common Crawl: CC-MAIN-2024-10)")
    ap.add_argument("--subset", default="warc", help="the subset partition of paths that do not name one")
    ap.add_argument("--fields", default="cc", help="optional columns filled (spinneret.warc_index's fields)")
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    spark = SparkSession.builder.master(a.master).appName("spinneret-cc-index").getOrCreate()
    try:
        print(run(spark, read_paths(a.paths, a.prefix), a.out, a.crawl, a.subset, a.fields))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
