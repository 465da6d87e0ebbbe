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
import json
import os
import pathlib
import subprocess
import sys
import time
import urllib.parse

import spinneret

REPO = pathlib.Path(__file__).resolve().parents[3]
SHARED = pathlib.Path(os.environ.get("SPINNERET_SHARED", REPO.parent / "shared"))
# The link attributes the Python pipeline extracts: those of the pipeline
# benchmark (crates/bench/src/pipeline_bench/kernels.rs, TARGETS).
TARGETS = ("a:href,area:href,link:href,img:src,script:src,iframe:src,frame:src,embed:src,"
           "source:src,audio:src,video:src,track:src,object:data,form:action")
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

    warc = os.environ.get("BENCH_WARC")
    if warc:
        pipeline(warc)
    # Batch calls: one call per column (per page for join_url_array, whose
    # links share their page's base), against ada-url's per-URL call.
    import pyarrow as pa
    column = pa.array(urls)
    by_base = {}
    for base, rel in pairs:
        by_base.setdefault(base, []).append(rel)
    pages = [(base, pa.array(rels)) for base, rels in by_base.items()]

    ada_parse = best_ns(loop1(lambda u: ada_url.URL(u).href), urls)
    ada_join = best_ns(loop2(ada_url.join_url), pairs)
    # The per-URL peers of the canonicalization rows above, timed once.
    peer_ns = {peer: b for _, _, peer, b, _ in rows}
    canon_array = lambda: spinneret.canonicalize_array(column)  # noqa: E731
    surt_array = lambda: spinneret.surt_array(column)  # noqa: E731
    batch = [
        ("canonicalize_array(column)", canon_array, urls, "ada_url.URL(u).href", ada_parse),
        ("canonicalize_array(column)", canon_array, urls, "w3lib.url.canonicalize_url",
         peer_ns["w3lib.url.canonicalize_url"]),
        ("surt_array(column)", surt_array, urls, "ada_url.URL(u).href", ada_parse),
        ("surt_array(column)", surt_array, urls, "surt.surt", peer_ns["surt.surt"]),
        ("join_url_array(base, links) per page", lambda: [spinneret.join_url_array(b, r) for b, r in pages
                                                          if spinneret.URL.can_parse(b)],
         pairs, "ada_url.join_url", ada_join),
    ]
    for name, fn, items, peer, peer_ns in batch:
        ns = best_ns(lambda _items: fn(), items)
        rows.append((name, ns, peer, peer_ns, f"{len(items):,} in {len(pages):,} calls" if "page" in name else "one call"))

    print(f"Python {sys.version.split()[0]}; {len(urls):,} URLs (absolute_links.txt), "
          f"{len(pairs):,} links (extracted_links.tsv.gz); best of {PASSES} passes\n")
    print("| spinneret | ns/call | peer | ns/call | ratio | note |")
    print("|---|---:|---|---:|---:|---|")
    for name, a, peer, b, note in rows:
        print(f"| `{name}` | {a:,.0f} | `{peer}` | {b:,.0f} | {b / a:.2f}× | {note} |")


def pipeline(warc):
    """warc_links against the Python pipeline of the pipeline benchmark
    (crates/bench/python/links.py: fastwarc, resiliparse, selectolax,
    urljoin) on one WARC: wall and CPU seconds (every thread of the
    process), best of PASSES runs each."""
    ours_wall = ours_cpu = float("inf")
    rows = 0
    for _ in range(PASSES):
        w0, c0 = time.perf_counter(), time.process_time()
        rows = sum(len(b) for b in spinneret.warc_links(warc))
        ours_wall = min(ours_wall, time.perf_counter() - w0)
        ours_cpu = min(ours_cpu, time.process_time() - c0)
    peer_wall, peer = float("inf"), {}
    script = REPO / "crates/bench/python/links.py"
    for _ in range(PASSES):
        out = subprocess.run([sys.executable, str(script), warc, TARGETS], capture_output=True,
                             text=True, check=True)
        peer = json.loads(out.stdout.strip().split("\n")[-1])
        peer_wall = min(peer_wall, peer["seconds"])
    size = os.path.getsize(warc) / 1e6
    print(f"WARC {warc} ({size:.1f} MB): warc_links {rows:,} rows (every link attribute, headers too), "
          f"{ours_wall:.2f} s wall, {ours_cpu:.2f} s CPU; Python pipeline ({peer.get('parser')}, "
          f"{peer.get('decoder')}) {peer.get('links', 0):,} links ({len(TARGETS.split(','))} attributes), "
          f"{peer_wall:.2f} s (one thread); per CPU-second {peer_wall / ours_cpu:.1f}x, "
          f"wall {peer_wall / ours_wall:.1f}x\n")


if __name__ == "__main__":
    main()
