"""A WARC laid out as Common Crawl's are, from the corpus's pages at their
real sizes: per capture a `request`, a `response` and a `metadata` record,
each its own gzip member (level 6, as Common Crawl's Java writer), with
the header fields Common Crawl writes (`WARC-IP-Address`,
`WARC-Concurrent-To`, `WARC-Block-Digest`, `WARC-Payload-Digest`,
`WARC-Identified-Payload-Type`, the response's server headers, the
metadata's `fetchTimeMs`…). What `spinneret-bench index` measures besides
the responses-only benchmark WARC; it prints the mean compressed size of
the records by type.

    python crates/bench/python/cc_like_warc.py OUT.warc.gz [--repeat K]
"""

import argparse
import base64
import csv
import gzip
import hashlib
import io
import os
import sys
import uuid


def member(headers, block):
    head = "WARC/1.0\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers) + "\r\n"
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=6) as g:
        g.write(head.encode() + block + b"\r\n\r\n")
    return buf.getvalue()


def sha1(b):
    return "sha1:" + base64.b32encode(hashlib.sha1(b).digest()).decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--corpus", default=os.environ.get("SPINNERET_SHARED", "../shared") + "/corpus")
    a = ap.parse_args()
    csv.field_size_limit(1 << 30)
    with open(os.path.join(a.corpus, "pages.tsv"), newline="") as f:
        rows = [r for r in csv.DictReader(f, delimiter="\t") if r["url"]]
    sizes = {"request": [], "response": [], "metadata": []}
    with open(a.out, "wb") as out:
        info = b"software: cc_like_warc.py\r\nformat: WARC File Format 1.0\r\nisPartOf: CC-MAIN-bench\r\n"
        out.write(member([("WARC-Type", "warcinfo"), ("WARC-Date", "2026-01-01T00:00:00Z"),
                          ("WARC-Record-ID", f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, a.out)}>"),
                          ("Content-Type", "application/warc-fields"), ("Content-Length", str(len(info)))], info))
        for k in range(a.repeat):
            for i, r in enumerate(rows):
                with gzip.open(os.path.join(a.corpus, r["path"]), "rb") as g:
                    page = g.read()
                url = r["url"]
                host = url.split("/")[2] if "//" in url else "example.com"
                date = f"2026-01-01T00:{(i // 60) % 60:02d}:{i % 60:02d}Z"
                ip = f"10.{i % 250}.{(i // 250) % 250}.{k % 250 + 1}"
                rid = r["id"]
                ids = [f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, f'{k}:{rid}:{t}')}>" for t in "qrm"]
                path = url.split("/", 3)[3] if url.count("/") >= 3 else ""
                req = (f"GET /{path} HTTP/1.1\r\nHost: {host}\r\n"
                       "User-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n"
                       "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
                       "Accept-Language: en-US,en;q=0.5\r\nAccept-Encoding: br,gzip\r\nConnection: Keep-Alive\r\n\r\n").encode()
                ctype = r["http_content_type"] or "text/html"
                http_head = (f"HTTP/1.1 200 OK\r\nDate: Thu, 01 Jan 2026 00:00:00 GMT\r\nServer: nginx\r\n"
                             f"Content-Type: {ctype}\r\nX-Crawler-Content-Length: {len(page)}\r\n"
                             f"Content-Length: {len(page)}\r\nCache-Control: max-age=600\r\n"
                             "Vary: Accept-Encoding\r\nX-Crawler-Content-Encoding: gzip\r\n\r\n").encode()
                resp = http_head + page
                meta = (f"fetchTimeMs: {37 + i % 900}\r\ncharset-detected: UTF-8\r\n"
                        "languages-cld2: {\"reliable\":true,\"languages\":[{\"code\":\"en\",\"code-iso-639-3\":\"eng\",\"text-covered\":0.99,\"score\":900.0,\"name\":\"ENGLISH\"}]}\r\n").encode()
                parts = [
                    ("request", [("WARC-Type", "request"), ("WARC-Date", date), ("WARC-Record-ID", ids[0]),
                                 ("Content-Length", str(len(req))), ("Content-Type", "application/http; msgtype=request"),
                                 ("WARC-Warcinfo-ID", "<urn:uuid:00000000-0000-0000-0000-000000000000>"),
                                 ("WARC-IP-Address", ip), ("WARC-Target-URI", url)], req),
                    ("response", [("WARC-Type", "response"), ("WARC-Date", date), ("WARC-Record-ID", ids[1]),
                                  ("Content-Length", str(len(resp))), ("Content-Type", "application/http; msgtype=response"),
                                  ("WARC-Warcinfo-ID", "<urn:uuid:00000000-0000-0000-0000-000000000000>"),
                                  ("WARC-Concurrent-To", ids[0]), ("WARC-IP-Address", ip), ("WARC-Target-URI", url),
                                  ("WARC-Protocol", "http/1.1"), ("WARC-Payload-Digest", sha1(page)),
                                  ("WARC-Block-Digest", sha1(resp)),
                                  ("WARC-Identified-Payload-Type", ctype.split(";")[0])], resp),
                    ("metadata", [("WARC-Type", "metadata"), ("WARC-Date", date), ("WARC-Record-ID", ids[2]),
                                  ("Content-Length", str(len(meta))), ("Content-Type", "application/warc-fields"),
                                  ("WARC-Warcinfo-ID", "<urn:uuid:00000000-0000-0000-0000-000000000000>"),
                                  ("WARC-Concurrent-To", ids[1]), ("WARC-Target-URI", url)], meta),
                ]
                for kind, headers, block in parts:
                    m = member(headers, block)
                    sizes[kind].append(len(m))
                    out.write(m)
    for kind, s in sizes.items():
        print(f"{kind}: {len(s)} records, mean {sum(s) / len(s):,.0f} bytes compressed", file=sys.stderr)
    every = [x for s in sizes.values() for x in s]
    print(f"all: {len(every)} records, mean {sum(every) / len(every):,.0f} bytes compressed", file=sys.stderr)


if __name__ == "__main__":
    main()
