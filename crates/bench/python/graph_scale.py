"""`spinneret graph` at scale: edges per second and peak memory, from crawl
files and from an edge list of synthetic host pairs, to the ranked graph.

Two runs, each under `/usr/bin/time` (wall, user + system CPU, peak RSS):

- `warc`: the benchmark WARC (`make_warc.py`) repeated (`--repeat`, as
  files: the same file listed N times, so no disk is spent on copies) →
  text files, BVGraph, transpose and ranks, host and domain graphs;
- `pairs`: N synthetic host pairs (`--pairs-count`, written once to
  `--pairs-file`) → the same.

The synthetic pairs: `--hosts` host names (`com.siteNNNN.www`-like, reversed
as Common Crawl's step 1 writes them, under a handful of TLDs so domains fold
too); each pair's source is host `⌊H·u²⌋` and its target `⌊H·v³⌋` for
uniform `u`, `v` (numpy's PCG64, seed 63): a few hosts link and are linked
a lot, most rarely, as in a crawl. Duplicates and self-pairs are kept (the
graph removes them); the stats say how many edges remain.

    python crates/bench/python/graph_scale.py warc --warc /tmp/bench.warc.gz --repeat 125
    python crates/bench/python/graph_scale.py pairs --pairs-count 100000000 --hosts 5000000 \\
        --pairs-file /tmp/pairs100m.tsv
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import numpy as np

TLDS = ["com", "org", "net", "de", "uk", "fr", "ru", "io", "jp", "br"]


def timed(cmd):
    """(wall s, CPU s, peak RSS MB) of `cmd`."""
    done = subprocess.run(["/usr/bin/time", "-f", "%e %U %S %M", *cmd], capture_output=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace")[-4000:])
        raise SystemExit(f"failed: {cmd}")
    wall, user, system, rss = done.stderr.decode().strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(rss) / 1024


def host_names(count):
    """`count` distinct reversed host names."""
    names = []
    for i in range(count):
        tld = TLDS[i % len(TLDS)]
        site = i // 3
        label = ("www", "blog", "shop")[i % 3]
        names.append(f"{tld}.site{site}.{label}")
    return names


def write_pairs(path, count, hosts, chunk=2_000_000):
    rng = np.random.Generator(np.random.PCG64(63))
    names = host_names(hosts)
    with open(path, "w") as out:
        done = 0
        while done < count:
            n = min(chunk, count - done)
            s = (hosts * rng.random(n) ** 2).astype(np.int64)
            t = (hosts * rng.random(n) ** 3).astype(np.int64)
            out.write("".join(f"{names[a]}\t{names[b]}\n" for a, b in zip(s.tolist(), t.tolist())))
            done += n


def run_graph(binary, inputs, memory, threads, extra):
    out = pathlib.Path(tempfile.mkdtemp(prefix="graph-scale-"))
    stats = out / "stats.json"
    cmd = [binary, "graph", "--domain", "--memory", memory, "--threads", str(threads), "--stats", str(stats)]
    cmd += ["-o", str(out / "g"), *extra, *inputs]
    wall, cpu, rss = timed(cmd)
    figures = json.loads(stats.read_text())
    sizes = {p.name: p.stat().st_size for p in (out / "g").rglob("*") if p.is_file()}
    shutil.rmtree(out)
    return wall, cpu, rss, figures, sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["warc", "pairs"])
    ap.add_argument("--spinneret", default="target/release/spinneret")
    ap.add_argument("--warc", default="/tmp/bench.warc.gz")
    ap.add_argument("--repeat", type=int, default=125)
    ap.add_argument("--pairs-count", type=int, default=100_000_000)
    ap.add_argument("--hosts", type=int, default=5_000_000)
    ap.add_argument("--pairs-file", default="/tmp/pairs-scale.tsv")
    ap.add_argument("--memory", default="2G")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--no-ranks", action="store_true")
    args = ap.parse_args()
    extra = ["--no-ranks"] if args.no_ranks else []

    if args.what == "warc":
        inputs = [args.warc] * args.repeat
        size = os.path.getsize(args.warc) * args.repeat
        what = f"{args.repeat} × {args.warc} ({size / 1e9:.2f} GB gzip)"
    else:
        path = pathlib.Path(args.pairs_file)
        if not path.exists():
            write_pairs(path, args.pairs_count, args.hosts)
        inputs = ["--pairs", str(path)]
        size = path.stat().st_size
        what = f"{args.pairs_count:,} pairs over {args.hosts:,} hosts ({size / 1e9:.2f} GB TSV)"
    wall, cpu, rss, figures, sizes = run_graph(args.spinneret, inputs, args.memory, args.threads, extra)
    print(f"input: {what}; --memory {args.memory}, {args.threads} threads{' --no-ranks' if extra else ''}")
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s, peak RSS {rss:.0f} MB")
    print(json.dumps(figures, indent=1))
    print("files:", json.dumps(sizes))


if __name__ == "__main__":
    main()
