#!/usr/bin/env python3
"""Peer tools for the remote-read benchmark (run.sh calls this with the peers venv's python).
Measures the wall time of a Python peer reading the same data spinneret reads:
  peers.py warcio-stream URL        warcio ArchiveIterator over one streamed HTTP GET of URL,
                                    reading every record's content stream (like `spinneret index`)
  peers.py cdxt-get PREFIX LINES    cdx_toolkit.warc.fetch_warc_record for each CDXJ line of the
                                    file LINES (one HTTP range GET per record, sequential),
                                    reading each record's content stream (like `spinneret get`)
  peers.py warcio-range PREFIX LINES  the same with requests.Session + warcio directly
Prints one JSON line: {"tool", "records", "bytes", "seconds"}. Run with a venv holding
warcio, requests and cdx_toolkit; set CDXT_DEFAULT_MIN_RETRY_INTERVAL=0, or cdx_toolkit waits
3 s between requests to one host (its politeness default)."""
import io, json, sys, time

def warcio_stream(url):
    import requests
    from warcio.archiveiterator import ArchiveIterator
    t = time.time()
    n = nbytes = 0
    with requests.get(url, stream=True) as r:
        r.raise_for_status()
        for rec in ArchiveIterator(r.raw):
            nbytes += len(rec.content_stream().read())
            n += 1
    return {"tool": "warcio-stream", "records": n, "bytes": nbytes, "seconds": time.time() - t}

def read_lines(path):
    out = []
    with open(path) as f:
        for line in f:
            j = json.loads(line.split(" ", 2)[2])
            out.append({"url": j["url"], "filename": j["filename"],
                        "offset": int(j["offset"]), "length": int(j["length"])})
    return out

def cdxt_get(prefix, path):
    from cdx_toolkit.warc import fetch_warc_record
    caps = read_lines(path)
    t = time.time()
    n = nbytes = 0
    for c in caps:
        rec = fetch_warc_record(c, prefix.rstrip("/"))
        nbytes += len(rec.content_stream().read())
        n += 1
    return {"tool": "cdx_toolkit fetch_warc_record", "records": n, "bytes": nbytes, "seconds": time.time() - t}

def warcio_range(prefix, path):
    import requests
    from warcio.archiveiterator import ArchiveIterator
    caps = read_lines(path)
    s = requests.Session()
    t = time.time()
    n = nbytes = 0
    for c in caps:
        r = s.get(prefix.rstrip("/") + "/" + c["filename"],
                  headers={"Range": f"bytes={c['offset']}-{c['offset'] + c['length'] - 1}"})
        r.raise_for_status()
        for rec in ArchiveIterator(io.BytesIO(r.content)):
            nbytes += len(rec.content_stream().read())
            n += 1
            break
    return {"tool": "requests.Session + warcio", "records": n, "bytes": nbytes, "seconds": time.time() - t}

if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    fn = {"warcio-stream": warcio_stream, "cdxt-get": cdxt_get, "warcio-range": warcio_range}[mode]
    print(json.dumps(fn(*args)))
