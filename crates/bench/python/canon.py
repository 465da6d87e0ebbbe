#!/usr/bin/env python3
"""The Python peer of the URL-canonicalization benchmark: how long the Python
canonicalizers people use today take per URL.

usage: canon.py URLS_FILE [--repeat N] [--dump-surt FILE]

URLS_FILE holds one URL per line (UTF-8; only the trailing newline is
stripped; empty lines are skipped).

Tools, each called the way users call it, with default options:
  w3lib.canonicalize_url   w3lib.url.canonicalize_url(u)
  url_normalize            url_normalize.url_normalize(u)
  surt                     surt.surt(u)

Each tool is imported on its own; one that cannot be imported is reported as
unavailable, with the reason, and the others still run.

Per tool: one warm-up pass over the first 1000 URLs (not timed), then N full
passes (--repeat, default 3), each timed with time.perf_counter_ns; the best
(fastest) pass is kept. A URL on which the tool raises counts as an error:
the exception is caught, counted, and the pass goes on, so errors are part
of the timing. The error count reported is that of the best pass (it is the
same for every pass).

With --dump-surt FILE, also writes surt.surt(u) of every URL to FILE, one
per line (`!ERR` where it raises), so that the caller can compare keys.

Prints exactly one JSON object on stdout:
  {"urls": N, "tools": [{"name", "version", "ns_per_url", "errors"} or
                        {"name", "unavailable"}, ...]}
Progress messages go to stderr."""
import argparse
import importlib
import importlib.metadata
import json
import sys
import time

WARMUP_URLS = 1000

# (reported name, module, function, distribution name for the version)
TOOLS = [
    ("w3lib.canonicalize_url", "w3lib.url", "canonicalize_url", "w3lib"),
    ("url_normalize", "url_normalize", "url_normalize", "url-normalize"),
    ("surt", "surt", "surt", "surt"),
]


def read_urls(path):
    urls = []
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f:
            if line.endswith("\n"):
                line = line[:-1]
            if line:
                urls.append(line)
    return urls


def one_pass(func, urls):
    """Call func on every URL; return (elapsed ns, number of errors)."""
    errors = 0
    start = time.perf_counter_ns()
    for u in urls:
        try:
            func(u)
        except Exception:
            errors += 1
    return time.perf_counter_ns() - start, errors


def bench(name, func, urls, repeat):
    print(f"canon.py: {name}: warm-up", file=sys.stderr)
    one_pass(func, urls[:WARMUP_URLS])
    best_ns = best_errors = None
    for i in range(repeat):
        ns, errors = one_pass(func, urls)
        print(
            f"canon.py: {name}: pass {i + 1}/{repeat}: "
            f"{ns / 1e9:.3f} s, {errors} errors",
            file=sys.stderr,
        )
        if best_ns is None or ns < best_ns:
            best_ns, best_errors = ns, errors
    return best_ns, best_errors


def main():
    ap = argparse.ArgumentParser(description="Time Python URL canonicalizers.")
    ap.add_argument("urls_file")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dump-surt", metavar="FILE")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    urls = read_urls(args.urls_file)
    print(f"canon.py: {len(urls)} URLs from {args.urls_file}", file=sys.stderr)

    results = []
    for name, module, function, dist in TOOLS:
        try:
            func = getattr(importlib.import_module(module), function)
        except Exception as e:  # ImportError, AttributeError, or a broken package
            reason = f"{type(e).__name__}: {e}"
            print(f"canon.py: {name}: unavailable ({reason})", file=sys.stderr)
            results.append({"name": name, "unavailable": reason})
            continue
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            version = "unknown"
        best_ns, errors = bench(name, func, urls, args.repeat)
        results.append(
            {
                "name": name,
                "version": version,
                "ns_per_url": best_ns / len(urls) if urls else 0.0,
                "errors": errors,
            }
        )

    if args.dump_surt:
        try:
            import surt
        except Exception as e:
            print(f"canon.py: --dump-surt: surt unavailable ({e})", file=sys.stderr)
        else:
            with open(args.dump_surt, "w", encoding="utf-8", newline="\n") as out:
                for u in urls:
                    try:
                        out.write(surt.surt(u) + "\n")
                    except Exception:
                        out.write("!ERR\n")

    print(json.dumps({"urls": len(urls), "tools": results}))


if __name__ == "__main__":
    main()
