"""spinneret: raw web-crawl bytes to what a browser sees.

The WHATWG URL Standard (``URL``, ``join_url``), crawler canonicalization
and SURT keys (``canonicalize``, ``surt``, ``registrable_domain``), the HTML
Standard's encoding sniffing (``detect_encoding``, ``decode``) and every
outlink of a page (``links``) or of a WARC file as Arrow record batches
(``warc_links``), implemented in Rust.
"""

from spinneret._spinneret import (
    URL,
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
    warc_links,
)

__all__ = [
    "URL",
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
    "warc_links",
]
