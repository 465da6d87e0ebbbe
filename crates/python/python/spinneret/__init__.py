"""spinneret: raw web-crawl bytes to what a browser sees.

The WHATWG URL Standard (``URL``, ``join_url``), crawler canonicalization
and SURT keys (``canonicalize``, ``surt``, ``registrable_domain``), the HTML
Standard's encoding sniffing (``detect_encoding``, ``decode``) and every
outlink of a page (``links``) or of a WARC file as Arrow record batches
(``warc_links``), and a WARC file's index as Common Crawl's cc-index-table
batches (``warc_index``), implemented in Rust.

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
    canonicalize,
    canonicalize_array,
    decode,
    detect_encoding,
    join_url,
    join_url_array,
    links,
    profiles,
    registrable_domain,
    rules,
    surt,
    surt_array,
    warc_index,
    warc_links,
)

__all__ = [
    "URL",
    "IndexBatch",
    "IndexBatches",
    "Link",
    "LinkBatch",
    "LinkBatches",
    "canonicalize",
    "canonicalize_array",
    "decode",
    "detect_encoding",
    "join_url",
    "join_url_array",
    "links",
    "profiles",
    "registrable_domain",
    "rules",
    "surt",
    "surt_array",
    "warc_index",
    "warc_links",
]
