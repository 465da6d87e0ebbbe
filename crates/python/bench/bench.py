"""Per-call cost of the spinneret package against the Python peers, on the
corpus's URL lists and links (same machine, same run). Not a test: it
asserts nothing about time. Run it with `scripts/bench-python`.

Rows: the spinneret call, the peer's, nanoseconds per call for each (the
best of several passes over the whole dataset), and the ratio. The peers
do not all compute the same thing (w3lib's canonical form is not a
spinneret profile; urljoin is not the WHATWG algorithm): the table is about
what a crawler pays per URL for the job, with the difference noted.
"""

import gzip
import os
import pathlib
import sys
import time
import urllib.parse

import spinneret

SHARED = pathlib.Path(os.environ.get("SPINNERET_SHARED", pathlib.Path(__file__).resolve().parents[4] / "shared"))
PASSES = int(os.environ.get("BENCH_PASSES", "3"))


def best_ns(fn, items):
    """Nanoseconds per item of `fn` over `items`, best of PASSES passes."""
    best = float("inf")
    for _ in range(PASSES):
        start = time.perf_counter_ns()
        fn(items)
        best = min(best, time.perf_counter_ns() - start)
    return best / len(items)


def loop1(f):
    def run(items):
        for x in items:
            try:
                f(x)
            except ValueError:
                pass
    return run


def loop2(f):
    def run(items):
        for a, b in items:
            try:
                f(a, b)
            except ValueError:
                pass
    return run


def main():
    urls = [u for u in (SHARED / "corpus/urls/absolute_links.txt").read_text(encoding="utf-8").split("\n") if u]
    pairs = []
    with gzip.open(SHARED / "corpus/urls/extracted_links.tsv.gz", "rt", encoding="utf-8") as f:
        next(f)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 6:
                pairs.append((cols[2] or cols[1], cols[5]))
    rows = []

    def row(name, ours, peer_name, peer, items, note=""):
        a = best_ns(ours, items)
        b = best_ns(peer, items) if peer else None
        rows.append((name, a, peer_name, b, note))

    import ada_url
    row("URL(u).href", loop1(lambda u: spinneret.URL(u).href), "ada_url.URL(u).href",
        loop1(lambda u: ada_url.URL(u).href), urls)
    row("join_url(base, rel)", loop2(spinneret.join_url), "ada_url.join_url",
        loop2(ada_url.join_url), pairs)
    row("join_url(base, rel)", loop2(spinneret.join_url), "urllib.parse.urljoin",
        loop2(urllib.parse.urljoin), pairs, "not the WHATWG algorithm")
    import w3lib.url
    row("canonicalize(u) (safe)", loop1(spinneret.canonicalize), "w3lib.url.canonicalize_url",
        loop1(w3lib.url.canonicalize_url), urls, "different canonical forms")
    import surt
    row("surt(u)", loop1(spinneret.surt), "surt.surt", loop1(surt.surt), urls)

    print(f"Python {sys.version.split()[0]}; {len(urls):,} URLs (absolute_links.txt), "
          f"{len(pairs):,} links (extracted_links.tsv.gz); best of {PASSES} passes\n")
    print("| spinneret | ns/call | peer | ns/call | ratio | note |")
    print("|---|---:|---|---:|---:|---|")
    for name, a, peer, b, note in rows:
        print(f"| `{name}` | {a:,.0f} | `{peer}` | {b:,.0f} | {b / a:.2f}× | {note} |")


if __name__ == "__main__":
    main()
