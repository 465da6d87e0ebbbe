#!/usr/bin/env python3
"""Prints the markdown tables of the remote-read benchmark from results.jsonl (run.sh calls it).
usage: tables.py results.jsonl [peers.jsonl]"""
import json, sys

rows = [json.loads(l) for l in open(sys.argv[1])]
peers = [json.loads(l) for l in open(sys.argv[2])] if len(sys.argv) > 2 else []
f = lambda x, d=2: "-" if x is None else f"{x:.{d}f}"

def sect(prefix):
    return [r for r in rows if r["case"].startswith(prefix)]

print("### 1. Throughput (best of N by wall; CPU of that run)\n")
print("| case | runs (walls s) | wall s | MB/s | user+sys s | CPU s/GB | server CPU s | server CPU s/GB | max RSS MB |")
print("|---|---|---|---|---|---|---|---|---|")
for r in sect("tp:"):
    print(f"| {r['case'][3:]} | {r['runs']} ({', '.join(map(str, r['walls']))}) | {f(r['wall'])} | {f(r['mb_s'],1)} | {f(r['cpu'])} "
          f"| {f(r['cpu_per_gb'])} | {f(r['server_cpu'])} | {f(r['server_cpu_per_gb'])} | {f(r['maxrss_mb'],0)} |")
print("\n### 2. Peak RSS vs object size\n")
print("| case | wall s | MB/s | max RSS MB |")
print("|---|---|---|---|")
for r in sect("rss:"):
    print(f"| {r['case'][4:]} | {f(r['wall'])} | {f(r['mb_s'],1)} | {f(r['maxrss_mb'],0)} |")
print("\n### 3. `get` records/s\n")
print("| case | records | wall s | rec/s (wall) | rec/s (summary) | user+sys s | server CPU s | max RSS MB |")
print("|---|---|---|---|---|---|---|---|")
for r in sect("get:"):
    print(f"| {r['case'][4:]} | {r.get('records','-')} | {f(r['wall'])} | {f(r.get('rec_s_wall'),0)} | {f(r.get('rec_s_summary'),0)} "
          f"| {f(r['cpu'])} | {f(r['server_cpu'])} | {f(r['maxrss_mb'],0)} |")
if peers or sect("peer:"):
    print("\n### 4. Peers\n")
    print("| case | wall s | detail |")
    print("|---|---|---|")
    for r in sect("peer:"):
        rec = f"{r['records']} records, {r['rec_s_wall']:.0f} rec/s by wall ({r['rec_s_summary']:.0f} in-loop), " if r.get("records") else ""
        mbs = f"{r['mb_s']:.1f} MB/s, " if r.get("mb_s") else ""
        print(f"| {r['case'][5:]} | {f(r['wall'])} | {rec}{mbs}user+sys {f(r['cpu'])} s, server CPU {f(r['server_cpu'])} s, max RSS {f(r['maxrss_mb'],0)} MB |")
    for p in peers:
        extra = f", {p['records']/p['seconds']:.0f} rec/s" if p.get("records") else ""
        print(f"| {p['case']} | {f(p['seconds'])} | {p['records']} records, {p['bytes']/1e6:.1f} MB content{extra} |")
