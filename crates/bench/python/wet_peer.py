#!/usr/bin/env python3
"""The Python peer of `spinneret text --format wet`: Common Crawl-style WET
generation with FastWARC and Resiliparse.

usage: wet_peer.py IN.warc.gz OUT.warc.wet.gz [--compression-level N]

Reads IN with fastwarc.warc.ArchiveIterator (record_types warcinfo |
response, HTTP parsed, auto_decode="all": chunked and gzip/deflate/br
payloads are decoded) and converts every HTML response, one whose HTTP
Content-Type media type is text/html or application/xhtml+xml (as
cc-pyspark's is_html(), but an exact match of the media type rather than a
substring), as cc-pyspark's experimental wet_extractor.py does (its
resiliparse_parser.HTMLParser): encoding = detect_encoding(payload) (utf-8
where none is detected), HTMLTree.parse_from_bytes(payload, encoding),
extract_plain_text(tree) with its defaults (whole page, main_content=False,
alt texts and list bullets on, links and form fields off). NeMo-Curator's
ResiliparseExtractor is a main-content filter (main_content=True plus a
stopword-density test on paragraphs) rather than a WET writer, so it is not
followed.

Output: a warcinfo record first (Software-Info, Extracted-Date, and the
robots / isPartOf / operator / description / publisher fields of IN's first
record when it is a warcinfo, as cc-pyspark copies them), then per HTML
response a WARC/1.0 conversion record with, in Common Crawl's WET order,
WARC-Type, WARC-Target-URI, WARC-Date (the response's), WARC-Record-ID (a new
uuid4), WARC-Refers-To (the response's WARC-Record-ID), WARC-Block-Digest
(sha1, base32, of the block), Content-Type: text/plain, Content-Length; the
block is the page's <title> (resiliparse's HTMLTree.title, whitespace
collapsed; empty when there is none) + "\\n" + the text, in UTF-8. Records
are serialized by FastWARC's WarcRecord.write() into its GzipWriter, one gzip
member per record (GzipWriter.finish() after each), at --compression-level
(default 6, zlib's and Java's default, which Common Crawl's Java tools use;
FastWARC's own default is 9).

Timing: time.process_time() (CPU seconds of this process) around the whole
conversion, reading and decompressing IN, parsing, extracting, hashing,
compressing and writing OUT; imports are outside it.

Prints one JSON object on stdout: {"records", "cpu_s", "input_bytes" (the
size of IN), "responses", "html_bytes" (payload bytes of the converted
responses), "skipped_non_html", "errors", "output_bytes", "versions"}.
Progress goes to stderr."""
import argparse
import base64
import email.utils
import hashlib
import json
import os
import sys
import time
import uuid
from importlib.metadata import version

from fastwarc.stream_io import GzipWriter
from fastwarc.warc import ArchiveIterator, WarcRecord, WarcRecordType
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import detect_encoding
from resiliparse.parse.html import HTMLTree

HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
WARCINFO_COPIED = ("robots", "ispartof", "operator", "description", "publisher")


def write_record(writer, record_type, fields, block):
    """One WARC/1.0 record, fields in order, then the block; own gzip member."""
    record = WarcRecord()
    record.init_headers(record_type, ("uuid:" + str(uuid.uuid4())).encode())
    record_id = record.headers["WARC-Record-ID"]
    headers = record.headers
    headers.clear()
    headers.status_line = "WARC/1.0"
    digest = base64.b32encode(hashlib.sha1(block).digest()).decode()
    for key, value in fields(record_id, "sha1:" + digest):
        headers.append(key, value)
    record.set_bytes_content(block)  # sets Content-Length
    record.write(writer, checksum_data=False)
    writer.finish()


def warcinfo_block(source):
    lines = [
        f"Software-Info: spinneret wet_peer.py (FastWARC {version('fastwarc')}, "
        f"Resiliparse {version('resiliparse')})",
        "Extracted-Date: " + email.utils.formatdate(usegmt=True),
    ]
    if source is not None:
        text = source.decode("utf-8", errors="replace")
        for line in text.split("\r\n"):
            name, sep, value = line.partition(":")
            if sep and name.strip().lower() in WARCINFO_COPIED:
                lines.append(f"{name.strip()}: {value.strip()}")
    return ("\r\n".join(lines) + "\r\n").encode()


def write_warcinfo(writer, filename, source):
    date = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    write_record(writer, WarcRecordType.warcinfo, lambda rid, digest: [
        ("WARC-Type", "warcinfo"),
        ("WARC-Date", date),
        ("WARC-Filename", filename),
        ("WARC-Record-ID", rid),
        ("WARC-Block-Digest", digest),
        ("Content-Type", "application/warc-fields"),
        ("Content-Length", "0"),
    ], warcinfo_block(source))


def media_type(record):
    value = record.http_headers.get("Content-Type") or ""
    return value.split(";", 1)[0].strip().lower()


def page_text(payload):
    tree = HTMLTree.parse_from_bytes(payload, detect_encoding(payload) or "utf-8")
    title = tree.title or ""
    return (" ".join(title.split()) + "\n" + extract_plain_text(tree)).encode("utf-8")


def convert(src, dst, level):
    stats = {"records": 0, "responses": 0, "html_bytes": 0,
             "skipped_non_html": 0, "errors": 0}
    writer = GzipWriter(dst, compression_level=level, fsspec_args=False)
    first = True
    it = ArchiveIterator(src, record_types=WarcRecordType.warcinfo | WarcRecordType.response,
                         auto_decode="all", fsspec_args=False)
    for record in it:
        if first:
            first = False
            source = None
            if record.record_type == WarcRecordType.warcinfo:
                source = record.reader.read()
            write_warcinfo(writer, os.path.basename(dst), source)
            if source is not None:
                continue
        if record.record_type != WarcRecordType.response:
            continue
        stats["responses"] += 1
        if not record.is_http or media_type(record) not in HTML_TYPES:
            stats["skipped_non_html"] += 1
            continue
        payload = record.reader.read()
        try:
            block = page_text(payload)
        except Exception as err:  # noqa: BLE001 -- one bad page, not the run
            stats["errors"] += 1
            print(f"wet_peer.py: {record.headers.get('WARC-Target-URI')}: "
                  f"{type(err).__name__}: {err}", file=sys.stderr)
            continue
        stats["html_bytes"] += len(payload)
        headers = record.headers
        write_record(writer, WarcRecordType.conversion, lambda rid, digest: [
            ("WARC-Type", "conversion"),
            ("WARC-Target-URI", headers.get("WARC-Target-URI") or ""),
            ("WARC-Date", headers.get("WARC-Date") or ""),
            ("WARC-Record-ID", rid),
            ("WARC-Refers-To", headers.get("WARC-Record-ID") or ""),
            ("WARC-Block-Digest", digest),
            ("Content-Type", "text/plain"),
            ("Content-Length", "0"),
        ], block)
        stats["records"] += 1
    if first:  # an empty input still gets its warcinfo
        write_warcinfo(writer, os.path.basename(dst), None)
    writer.close()
    return stats


def main():
    ap = argparse.ArgumentParser(description="Write a Common Crawl-style WET "
                                 "file with FastWARC and Resiliparse.")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--compression-level", type=int, default=6)
    args = ap.parse_args()

    start = time.process_time()
    stats = convert(args.input, args.output, args.compression_level)
    cpu = time.process_time() - start
    print(f"wet_peer.py: {stats['records']} conversion records in {cpu:.3f} CPU s",
          file=sys.stderr)
    print(json.dumps({
        "records": stats["records"],
        "cpu_s": round(cpu, 3),
        "input_bytes": os.path.getsize(args.input),
        "responses": stats["responses"],
        "html_bytes": stats["html_bytes"],
        "skipped_non_html": stats["skipped_non_html"],
        "errors": stats["errors"],
        "output_bytes": os.path.getsize(args.output),
        "versions": {"fastwarc": version("fastwarc"),
                     "resiliparse": version("resiliparse")},
    }, indent=1))


if __name__ == "__main__":
    main()
