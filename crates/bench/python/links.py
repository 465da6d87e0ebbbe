#!/usr/bin/env python3
"""The Python peer of `spinneret-bench pipeline`: every link of the HTML
response records of one WARC file, the way a Python crawler stack does it.

usage: links.py WARC TARGETS [--parser selectolax|resiliparse]

TARGETS is the list of link attributes, `tag:attr,tag:attr,...` (given by the
benchmark so that this script and the lol_html kernel extract the same set).

Per record: fastwarc reads the response records (gzip detected, HTTP parsed,
Content-Encoding decoded); a record is HTML when its HTTP Content-Type is
text/html or application/xhtml+xml, or missing. The encoding is the HTTP
charset, else resiliparse's detector (uchardet), and the bytes are decoded
with resiliparse's bytes_to_str (without resiliparse: bytes.decode("utf-8",
errors="replace")). The text is parsed into a DOM by selectolax's lexbor
backend, or by resiliparse's (also lexbor) when selectolax is missing.
Links are the TARGETS attributes, resolved with urllib.parse.urljoin against
the first <base href> (itself resolved against the page URL), else the page
URL.

Why selectolax first: with resiliparse 2.0.1, iterating the result of
query_selector_all costs about 0.6 ms per element (it builds wrappers for
much of the tree at every step), which makes the resiliparse DOM about 100x
slower than the parse itself on real pages; selectolax's lexbor DOM does
not have that cost. `--parser resiliparse` forces the resiliparse DOM.

Prints one JSON object: parser, decoder (resiliparse, or utf-8 without it),
pages, html_bytes, links, seconds (the loop only, without interpreter
start-up and imports)."""
import json
import sys
import time
from urllib.parse import urljoin

from fastwarc.warc import ArchiveIterator, WarcRecordType

try:
    from resiliparse.parse.encoding import bytes_to_str, detect_encoding
    from resiliparse.parse.html import HTMLTree
except ImportError:
    bytes_to_str = detect_encoding = HTMLTree = None
try:
    from selectolax.lexbor import LexborHTMLParser
except ImportError:
    LexborHTMLParser = None

HTML_TYPES = ("text/html", "application/xhtml+xml")


def main():
    path, targets = sys.argv[1], sys.argv[2]
    forced = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--parser" else None
    if forced == "resiliparse" or (forced is None and LexborHTMLParser is None):
        parser = "resiliparse"
    else:
        parser = "selectolax"
    if (parser == "resiliparse" and HTMLTree is None) or (
        parser == "selectolax" and LexborHTMLParser is None
    ):
        sys.exit(f"links.py: {parser} is not installed")
    attr_of = {}
    for pair in targets.split(","):
        tag, attr = pair.split(":")
        attr_of[tag] = attr
    selector = ", ".join(f"{t}[{a}]" for t, a in attr_of.items())

    pages = html_bytes = links = 0
    start = time.perf_counter()
    for rec in ArchiveIterator(
        path, record_types=WarcRecordType.response, parse_http=True, fsspec_args=False
    ):
        ctype = rec.http_content_type
        if ctype is not None and ctype.lower() not in HTML_TYPES:
            continue
        url = rec.headers.get("WARC-Target-URI")
        if not url:
            continue
        body = rec.reader.read()
        pages += 1
        html_bytes += len(body)
        found = []
        if bytes_to_str is not None:
            text = bytes_to_str(body, rec.http_charset or detect_encoding(body))
        else:
            text = body.decode("utf-8", errors="replace")
        if parser == "resiliparse":
            tree = HTMLTree.parse(text)
            doc = tree.document
            base = doc.query_selector("base[href]")
            base_href = base.getattr("href") if base is not None else None
            for el in doc.query_selector_all(selector):
                value = el.getattr(attr_of.get(el.tag, "href"))
                if value is not None:
                    found.append(value)
        else:
            tree = LexborHTMLParser(text)
            base = tree.css_first("base[href]")
            base_href = base.attributes.get("href") if base is not None else None
            for el in tree.css(selector):
                value = el.attributes.get(attr_of.get(el.tag, "href"))
                if value is not None:
                    found.append(value)
        base_url = urljoin(url, base_href.strip()) if base_href else url
        for value in found:
            try:
                urljoin(base_url, value.strip())
            except ValueError:
                pass
            links += 1
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {
                "parser": parser,
                "decoder": "resiliparse" if bytes_to_str is not None else "utf-8",
                "pages": pages,
                "html_bytes": html_bytes,
                "links": links,
                "seconds": seconds,
            }
        )
    )


if __name__ == "__main__":
    main()
