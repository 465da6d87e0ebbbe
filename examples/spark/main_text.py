"""The main-content text of a crawl's HTML pages as Parquet, with Spark and
spinneret: the first step of a language-model corpus built from WARC
files (what FineWeb, Dolma or RedPajama do with trafilatura or
Resiliparse), one row per page.

    PYSPARK_PYTHON=$(which python) python examples/spark/main_text.py \\
        --master 'local[2]' --out /tmp/text WARC... [--paths warc.paths.gz]

The WARC paths (given, or listed one a line in --paths, plain or gzip as
Common Crawl's `warc.paths.gz`, relative to the list's folder) are spread
over the partitions; `mapInArrow` runs `spinneret.warc_text` on each in
the executors (Arrow record batches, no per-page Python): every HTML
response with a 2xx status and a payload becomes a row of warc_text's
columns — record_id, url, date, file, offset, status, content_type,
encoding, language (detected, ISO 639-3), language_confidence, html_lang,
content_language, title, canonical, published, page_type (article,
forum, product, collection, listing, documentation, service) and text (the article
without navigation, menus, footers, comments or ads; --whole-page for all
visible text, --markdown for Markdown). The table is written under --out
partitioned by the detected language (`OUT/language=eng/part-….parquet`;
pages without one in Spark's null partition), so that a corpus job reads
only the languages it wants:

    SELECT url, title, text FROM read_parquet('OUT/language=deu/*.parquet')

Paths are local to every executor (a shared file system) or remote objects
(`s3://`, `gs://`, `az://`, `https://…`) each executor reads itself.
"""

import argparse
import gzip
import os

import pyarrow as pa
from pyspark.sql import SparkSession

import spinneret

# warc_text's columns, in Spark's types (no unsigned integers: the offset
# as a long, the status as an int).
SCHEMA = ("record_id string, url string, date string, file string, offset long, status int, "
          "content_type string, encoding string, language string, language_confidence float, "
          "html_lang string, content_language string, title string, canonical string, published string, "
          "page_type string, text string")
CASTS = {"offset": pa.int64(), "status": pa.int32()}


def read_paths(listing):
    """The paths a list names (plain or gzip; `#` comments and blank lines
    skipped), relative ones taken from the list's folder."""
    opener = gzip.open if listing.endswith(".gz") else open
    with opener(listing, "rt", encoding="utf-8") as f:
        listed = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    base = os.path.dirname(os.path.abspath(listing))
    return [p if os.path.isabs(p) else os.path.join(base, p) for p in listed]


def text_of_paths(main_content=True, fmt="text", any_status=False):
    """mapInArrow: each input batch holds WARC paths; yields their pages'
    rows."""

    def run(batches):
        for batch in batches:
            for path in batch.column("path").to_pylist():
                for pages in spinneret.warc_text(path, main_content=main_content, format=fmt,
                                                 any_status=any_status):
                    b = pa.record_batch(pages)
                    yield pa.RecordBatch.from_arrays(
                        [b.column(i).cast(CASTS[name]) if name in CASTS else b.column(i)
                         for i, name in enumerate(b.schema.names)],
                        names=b.schema.names)

    return run


def run(spark, paths, out, main_content=True, fmt="text", any_status=False, partitions=None):
    """Writes the text of `paths`' pages under `out` as Parquet partitioned
    by `language`; returns the number of rows written."""
    df = spark.createDataFrame([(p,) for p in paths], "path string")
    df = df.repartition(partitions or max(1, min(len(paths), spark.sparkContext.defaultParallelism)))
    pages = df.mapInArrow(text_of_paths(main_content, fmt, any_status), SCHEMA)
    # Sorted within each task, so that it writes one file per language
    # after the other instead of holding one writer per language open.
    (pages.sortWithinPartitions("language", "file", "offset")
     .write.mode("overwrite").partitionBy("language").parquet(out))
    return spark.read.parquet(out).count()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warcs", nargs="*", help="WARC/ARC files")
    ap.add_argument("--paths", help="a file listing WARC paths, one a line (plain or .gz)")
    ap.add_argument("--whole-page", action="store_true", help="all visible text, not only the main content")
    ap.add_argument("--markdown", action="store_true", help="the text as Markdown")
    ap.add_argument("--any-status", action="store_true", help="pages of every HTTP status, not only 2xx")
    ap.add_argument("--master", default="local[*]")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    paths = a.warcs + (read_paths(a.paths) if a.paths else [])
    if not paths:
        ap.error("no WARC file: give some, or --paths")
    spark = SparkSession.builder.master(a.master).appName("spinneret-main-text").getOrCreate()
    try:
        print(run(spark, paths, a.out, main_content=not a.whole_page,
                  fmt="markdown" if a.markdown else "text", any_status=a.any_status))
    finally:
        spark.stop()


if __name__ == "__main__":
    main()
