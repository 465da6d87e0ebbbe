#!/usr/bin/env python3
"""Harness of the remote-read benchmark (run.sh drives it; any python3 works).
Runs one command under /usr/bin/time -v, best of N by wall time, and reads the
server's CPU (utime+stime of the given PIDs, threads included, from /proc/PID/stat)
before and after, so the table shows the client's and the server's CPU.
usage: bench.py CASE_LABEL BYTES REPEATS SERVER_PIDS(comma list or -) STDIN(file or -) -- CMD...
Appends one JSON line per case to $BENCH_JSONL (default results.jsonl) and prints it."""
import json, os, re, subprocess, sys, tempfile, time

TCK = os.sysconf("SC_CLK_TCK")

def server_cpu(pids):
    tot = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            tot += int(fields[11]) + int(fields[12])  # utime, stime
        except FileNotFoundError:
            pass
    return tot / TCK

def run_once(cmd, pids, stdin):
    keep = os.environ.get("BENCH_KEEP_STDOUT") == "1"  # peers.py prints a JSON line
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf, tempfile.TemporaryFile("w+") as err, \
            tempfile.TemporaryFile("w+") as so:
        s0 = server_cpu(pids)
        t0 = time.time()
        fin = open(stdin, "rb") if stdin != "-" else subprocess.DEVNULL
        rc = subprocess.run(["/usr/bin/time", "-v", "-o", tf.name] + cmd, stdin=fin,
                            stdout=so if keep else subprocess.DEVNULL, stderr=err, timeout=1800).returncode
        wall = time.time() - t0
        s1 = server_cpu(pids)
        tv = tf.read()
        err.seek(0)
        summary = [l for l in err.read().splitlines() if l.strip()]
        so.seek(0)
        peer = json.loads(so.read().strip().splitlines()[-1]) if keep else None
    g = lambda k: float(re.search(re.escape(k) + r":\s*([0-9.]+)", tv).group(1))
    return {"rc": rc, "wall": wall, "user": g("User time (seconds)"), "sys": g("System time (seconds)"),
            "maxrss_mb": g("Maximum resident set size (kbytes)") / 1024, "server_cpu": s1 - s0,
            "summary": summary[-1] if summary else "", "peer": peer}

def main():
    a = sys.argv[1:]
    i = a.index("--")
    label, nbytes, reps, pids, stdin = a[:i]
    cmd = a[i + 1:]
    pids = [] if pids == "-" else [int(p) for p in pids.split(",") if p]
    runs = [run_once(cmd, pids, stdin) for _ in range(int(reps))]
    best = min(runs, key=lambda r: r["wall"])
    nbytes = int(nbytes)
    cpu = best["user"] + best["sys"]
    out = {"case": label, "cmd": " ".join(cmd) + ("" if stdin == "-" else f" < {stdin}"),
           "runs": len(runs), "walls": [round(r["wall"], 2) for r in runs], **best,
           "mb_s": nbytes / 1e6 / best["wall"] if nbytes else None,
           "cpu": cpu, "cpu_per_gb": cpu / (nbytes / 1e9) if nbytes else None,
           "server_cpu_per_gb": best["server_cpu"] / (nbytes / 1e9) if nbytes else None}
    if best.get("peer") and best["peer"].get("records"):
        out["records"] = best["peer"]["records"]
        out["rec_s_wall"] = out["records"] / best["wall"]
        out["rec_s_summary"] = out["records"] / best["peer"]["seconds"]
    m = re.search(r"(\d+) records.* in ([0-9.]+) s", best["summary"])
    if m and "get" in cmd[1:2]:
        out["records"] = int(m.group(1))
        out["rec_s_summary"] = int(m.group(1)) / max(float(m.group(2)), 1e-9)
        out["rec_s_wall"] = int(m.group(1)) / best["wall"]
    with open(os.environ.get("BENCH_JSONL", "results.jsonl"), "a") as f:
        f.write(json.dumps(out) + "\n")
    print(json.dumps(out), flush=True)
    if any(r["rc"] != 0 for r in runs):
        print(f"warning: {label}: nonzero exit", file=sys.stderr)

if __name__ == "__main__":
    main()
