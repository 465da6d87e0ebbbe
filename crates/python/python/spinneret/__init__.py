"""spinneret: raw web-crawl bytes to what a browser sees.

The WHATWG URL Standard (``URL``, ``join_url``), crawler canonicalization
and SURT keys (``canonicalize``, ``surt``, ``registrable_domain``), the HTML
Standard's encoding sniffing (``detect_encoding``, ``decode``) and every
outlink of a page (``links``) or of a WARC file as Arrow record batches
(``warc_links``), a WARC file's index as Common Crawl's cc-index-table
batches (``warc_index``), the records an index names, read by their byte
ranges (``get_records``), and a page's readable text — the whole page or
its main content, plain or Markdown — alone (``text``), with its metadata
(``extract_text``), or for every HTML page of a WARC file as Arrow record
batches (``warc_text``), implemented in Rust. The WARC readers and
``get_records`` read local files and remote objects alike (``s3://``,
``gs://``, ``az://``, ``http(s)://``; see ``remote_options``).

``surt(url, canonicalizer=None, **options)`` takes the arguments of the PyPI
``surt`` package's ``surt.surt`` (its options' names, defaults and meanings;
``canonicalizer`` as a name, ``"default"``, ``"google"``, ``"ia"``,
``"identity"``, or a list of them); bytes in gives bytes out.
"""

from spinneret._spinneret import (
    URL,
    IndexBatch,
    IndexBatches,
    Link,
    LinkBatch,
    LinkBatches,
    Records,
    TextBatch,
    TextBatches,
    canonicalize,
    canonicalize_array,
    decode,
    detect_encoding,
    extract_text,
    get_records,
    remote_options,
    join_url,
    join_url_array,
    links,
    profiles,
    registrable_domain,
    rules,
    surt,
    surt_array,
    surt_host,
    surt_host_array,
    text,
    warc_index,
    warc_links,
    warc_text,
)

__all__ = [
    "URL",
    "IndexBatch",
    "IndexBatches",
    "Link",
    "LinkBatch",
    "LinkBatches",
    "Records",
    "TextBatch",
    "TextBatches",
    "canonicalize",
    "canonicalize_array",
    "decode",
    "detect_encoding",
    "extract_text",
    "get_records",
    "remote_options",
    "join_url",
    "join_url_array",
    "links",
    "profiles",
    "registrable_domain",
    "rules",
    "surt",
    "surt_array",
    "surt_host",
    "surt_host_array",
    "text",
    "warc_index",
    "warc_links",
    "warc_text",
]
