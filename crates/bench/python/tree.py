#!/usr/bin/env python3
"""The lexbor peer of `spinneret-bench tree`: selectolax's LexborHTMLParser
building a full DOM of every corpus page, timed inside Python.

usage: tree.py SHARED_DIR [--min-passes N] [--min-seconds S] [--max-passes N]
       tree.py SHARED_DIR --kernel none|parse

Pages: every `path` of SHARED_DIR/corpus/pages.tsv, gunzipped and decoded
with bytes.decode("utf-8", errors="replace"), as the Rust side decodes them
(String::from_utf8_lossy), before any timing. The UTF-8 byte total of the
decoded pages is printed, so that the caller can check both sides read the
same text.

Timing: one untimed warm-up pass, then passes until at least --min-passes
(default 3) and --min-seconds (default 0.5) are reached, at most
--max-passes; each pass calls LexborHTMLParser(text) on every page and drops
the parser (and its DOM) before the next page; the best pass is kept.

Memory: the peak RSS of the process (getrusage ru_maxrss) after the pages
are loaded and before the warm-up, and after the last pass: their difference
is how much the parses raised the peak (lexbor's C heap is invisible to
Python's own allocator statistics).

Nodes and heap: after the RSS figures, each page is parsed once more, the
C heap in use read before and after the parse (glibc's mallinfo2: bytes in
use, mmapped blocks included; lexbor allocates with malloc), and the tree
walked from the document node through first_child/next (document, doctype,
elements, text, comments). Lexbor keeps a template's contents in a fragment
that this walk does not enter. The heap the parser object holds after the
parse (lexbor's DOM, its memory pools and the UTF-8 copy of the text
selectolax keeps) is summed over pages, and its least value over pages
(lexbor's fixed cost per document: memory pools allocated up front) is
reported too; without mallinfo2 (not glibc, or glibc older than 2.33) both
are null.

--kernel none loads the pages only; --kernel parse loads them and makes one
pass (for callgrind-tree.sh, which subtracts the two).

Prints one JSON object on stdout; progress goes to stderr."""
import argparse
import ctypes
import gzip
import json
import os
import resource
import sys
import time

import selectolax
from selectolax.lexbor import LexborHTMLParser


def load_pages(shared):
    corpus = os.path.join(shared, "corpus")
    with open(os.path.join(corpus, "pages.tsv"), encoding="utf-8") as f:
        lines = f.read().split("\n")
    column = lines[0].rstrip("\r").split("\t").index("path")
    pages = []
    nbytes = lossy = 0
    for line in lines[1:]:
        line = line.rstrip("\r")
        if not line:
            continue
        path = os.path.join(corpus, line.split("\t")[column])
        with open(path, "rb") as f:
            raw = f.read()
        if path.endswith(".gz"):
            raw = gzip.decompress(raw)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            lossy += 1
            text = raw.decode("utf-8", errors="replace")
        nbytes += len(text.encode("utf-8"))
        pages.append(text)
    return pages, nbytes, lossy


def parse_all(pages):
    for text in pages:
        tree = LexborHTMLParser(text)
        del tree


def node_count(tree):
    root = tree.root
    if root is None:
        return 0
    start = root.parent if root.parent is not None else root
    count = 0
    stack = [start]
    while stack:
        node = stack.pop()
        count += 1
        child = node.first_child
        while child is not None:
            stack.append(child)
            child = child.next
    return count


class MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in "arena ordblks smblks hblks hblkhd usmblks fsmblks "
        "uordblks fordblks keepcost".split()
    ]


def heap_in_use_reader():
    """A function returning the C heap's bytes in use, or None."""
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return None
    mallinfo2.restype = MallInfo2

    def in_use():
        info = mallinfo2()
        return info.uordblks + info.hblkhd

    return in_use


def max_rss_kib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main():
    ap = argparse.ArgumentParser(description="Time selectolax's lexbor DOM.")
    ap.add_argument("shared")
    ap.add_argument("--min-passes", type=int, default=3)
    ap.add_argument("--min-seconds", type=float, default=0.5)
    ap.add_argument("--max-passes", type=int, default=1000)
    ap.add_argument("--kernel", choices=["none", "parse"])
    args = ap.parse_args()

    pages, nbytes, lossy = load_pages(args.shared)
    print(f"tree.py: {len(pages)} pages, {nbytes} bytes", file=sys.stderr)
    if args.kernel is not None:
        if args.kernel == "parse":
            parse_all(pages)
        print(f"items={nbytes} ok={len(pages)} pages={len(pages)} failed=0")
        return

    rss_before = max_rss_kib()
    parse_all(pages)
    best = None
    total = 0.0
    passes = 0
    while passes < args.max_passes and (
        passes < args.min_passes or total < args.min_seconds
    ):
        start = time.perf_counter()
        parse_all(pages)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
        total += elapsed
        passes += 1
    rss_after = max_rss_kib()
    print(f"tree.py: best pass {best:.3f} s of {passes}; counting nodes", file=sys.stderr)

    in_use = heap_in_use_reader()
    nodes = 0
    dom_heap = dom_heap_min = None
    for text in pages:
        before = in_use() if in_use is not None else 0
        tree = LexborHTMLParser(text)
        if in_use is not None:
            held = in_use() - before
            dom_heap = held + (dom_heap or 0)
            dom_heap_min = held if dom_heap_min is None else min(dom_heap_min, held)
        nodes += node_count(tree)
        del tree

    print(
        json.dumps(
            {
                "version": selectolax.__version__,
                "pages": len(pages),
                "bytes": nbytes,
                "lossy": lossy,
                "seconds": best,
                "passes": passes,
                "rss_before_kib": rss_before,
                "rss_after_kib": rss_after,
                "nodes": nodes,
                "dom_heap_bytes": dom_heap,
                "dom_heap_min_bytes": dom_heap_min,
            }
        )
    )


if __name__ == "__main__":
    main()
