"""cc-pyspark's host-link extraction on Spark `local[2]` against `spinneret
graph`, on the same crawl, per CPU-second; and its host pairs against ours.

Common Crawl's step 1 of its web graph (cc-pyspark's `ExtractHostLinksJob`,
`wat_extract_links.py`) reads WAT files; its WATs come from the WARCs by a
separate Java run. Here the WAT is `spinneret wat`'s, so three figures:

- `spinneret wat`: WARC → WAT (the step Common Crawl runs in Java first);
- cc-pyspark on Spark `local[2]`: WAT → host pairs (Parquet table);
- `spinneret graph --no-ranks`: WARC → numbered, sorted vertices and edges
  (more than the pairs: ids, sort, gzip files), and the same from the WAT.

CPU is user + system of the whole process tree (`/usr/bin/time`: the JVM and
its Python workers are children). Then the pairs: cc-pyspark's distinct
(s, t) with s != t against our edges (`--strip-www --any-tld`, the naming
this cc-pyspark version uses); what differs is listed by cause where it is
known (`urljoin` against the browser's resolution).

cc-pyspark is not vendored: give a checkout of its repository (`--cc-pyspark
DIR`); its Python needs pyspark, warcio, idna, boto3, requests.

    python crates/bench/python/ccpyspark_peer.py --cc-pyspark ../cc-pyspark \\
        --warc /tmp/bench.warc.gz --spinneret target/release/spinneret
"""

import argparse
import gzip
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time


def timed(cmd, cwd=None, env=None):
    """(wall s, CPU s, peak RSS MB) of `cmd` and its children."""
    fmt = "%e %U %S %M"
    done = subprocess.run(
        ["/usr/bin/time", "-f", fmt, *cmd], cwd=cwd, env=env, capture_output=True, check=False
    )
    if done.returncode != 0:
        sys.stderr.write(done.stderr.decode(errors="replace")[-4000:])
        raise SystemExit(f"failed: {cmd}")
    wall, user, system, rss = done.stderr.decode().strip().splitlines()[-1].split()
    return float(wall), float(user) + float(system), int(rss) / 1024


def graph_names(folder):
    names = {}
    with gzip.open(folder / "host" / "vertices.txt.gz", "rt") as f:
        for line in f:
            i, name = line.rstrip("\n").split("\t")[:2]
            names[int(i)] = name
    with gzip.open(folder / "host" / "edges.txt.gz", "rt") as f:
        edges = {tuple(names[int(x)] for x in line.split()) for line in f}
    return set(names.values()), edges


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cc-pyspark", required=True, type=pathlib.Path)
    ap.add_argument("--warc", required=True, type=pathlib.Path)
    ap.add_argument("--spinneret", default="target/release/spinneret")
    ap.add_argument("--work", type=pathlib.Path, default=None)
    args = ap.parse_args()
    work = args.work or pathlib.Path(tempfile.mkdtemp(prefix="ccpyspark-peer-"))
    work.mkdir(parents=True, exist_ok=True)
    spin = os.path.abspath(args.spinneret)
    warc = args.warc.resolve()
    wat = work / (warc.name.removesuffix(".gz") + ".wat.gz")
    rows = []

    w = timed([spin, "wat", "--date", "2026-12-08T00:00:00Z", "-o", str(wat), str(warc)])
    rows.append(("spinneret wat (WARC → WAT)", *w))

    # cc-pyspark: its job as its README runs it, on local[2].
    listing = work / "input.txt"
    listing.write_text(f"file://{wat}\n")
    job_dir = work / "job"
    shutil.rmtree(job_dir, ignore_errors=True)
    shutil.copytree(args.cc_pyspark, job_dir)
    submit = pathlib.Path(sys.executable).parent / "spark-submit"
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    cmd = [
        str(submit),
        "--master",
        "local[2]",
        "--py-files",
        "sparkcc.py,json_importer.py",
        "wat_extract_links.py",
        "--num_output_partitions",
        "1",
        "--log_level",
        "WARN",
        str(listing),
        "hostlinks",
    ]
    c = timed(cmd, cwd=job_dir, env=env)
    rows.append(("cc-pyspark ExtractHostLinksJob, Spark local[2] (WAT → host pairs)", *c))

    g1 = timed([spin, "graph", "--no-ranks", "--strip-www", "--any-tld", "-o", str(work / "g-warc"), str(warc)])
    rows.append(("spinneret graph --no-ranks (WARC → vertices, edges)", *g1))
    g2 = timed([spin, "graph", "--no-ranks", "--strip-www", "--any-tld", "-o", str(work / "g-wat"), str(wat)])
    rows.append(("spinneret graph --no-ranks (WAT → vertices, edges)", *g2))

    print(f"{'what':<70} {'wall s':>8} {'CPU s':>8} {'RSS MB':>8}")
    for name, wall, cpu, rss in rows:
        print(f"{name:<70} {wall:>8.2f} {cpu:>8.2f} {rss:>8.0f}")
    print(f"cc-pyspark CPU / spinneret graph (WARC) CPU: {c[1] / g1[1]:.1f}x")
    print(f"cc-pyspark CPU / spinneret graph (WAT) CPU: {c[1] / g2[1]:.1f}x")
    print(f"(cc-pyspark + spinneret wat) CPU / spinneret graph (WARC) CPU: {(c[1] + w[1]) / g1[1]:.1f}x")

    import pyarrow.parquet as pq

    table = pq.read_table(job_dir / "spark-warehouse" / "hostlinks")
    pairs = set(zip(table["s"].to_pylist(), table["t"].to_pylist()))
    theirs_v = {s for s, _ in pairs} | {t for _, t in pairs}
    theirs_e = {(s, t) for s, t in pairs if s != t}
    ours_v, ours_e = graph_names(work / "g-wat")
    print(f"pairs: cc-pyspark {len(theirs_e)} edges, {len(theirs_v)} hosts; spinneret {len(ours_e)} edges, {len(ours_v)} hosts")
    print(f"edges in both {len(theirs_e & ours_e)}; only cc-pyspark {len(theirs_e - ours_e)}; only spinneret {len(ours_e - theirs_e)}")
    print(f"hosts in both {len(theirs_v & ours_v)}; only cc-pyspark {len(theirs_v - ours_v)}; only spinneret {len(ours_v - theirs_v)}")
    for what, diff in (("only cc-pyspark", theirs_e - ours_e), ("only spinneret", ours_e - theirs_e)):
        for e in sorted(diff)[:15]:
            print(f"  {what}: {e[0]} -> {e[1]}")
    print(f"work folder: {work} ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})")


if __name__ == "__main__":
    main()
