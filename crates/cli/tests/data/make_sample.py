#!/usr/bin/env python3
"""Writes sample.warc.gz: a small gzip-per-record WARC/1.1 for the golden
test of `spinneret links` (crates/cli/tests/golden.rs). Python stdlib only;
deterministic (fixed dates, ids, gzip mtime 0).

Records, in order: warcinfo; a UTF-8 page with every link kind (a <base>
after some links, a Link header); its request; a windows-1251 page (HTTP
charset) whose link query is encoded in windows-1251; a page whose
<meta charset> comes after the 1024-byte prescan window; a metadata record;
a 301 response with Location; a CORRUPT member (bytes flipped inside the
deflate data) of a response; a revisit; a resource record (HTML without
HTTP); a non-HTML response (image/png); a last HTML page.

Run: python3 crates/cli/tests/data/make_sample.py  (rewrites the file next
to this script).
"""
import gzip
import os

DATE = "2026-11-22T08:00:00Z"
n_id = 0


def rid():
    global n_id
    n_id += 1
    return "<urn:uuid:00000000-0000-4000-8000-%012d>" % n_id


def record(wtype, uri, block, content_type=None, extra=()):
    head = ["WARC/1.1", "WARC-Type: " + wtype, "WARC-Record-ID: " + rid(), "WARC-Date: " + DATE]
    if uri:
        head.append("WARC-Target-URI: " + uri)
    head.extend(extra)
    if content_type:
        head.append("Content-Type: " + content_type)
    head.append("Content-Length: %d" % len(block))
    return ("\r\n".join(head) + "\r\n\r\n").encode() + block + b"\r\n\r\n"


def http(status, headers, body):
    lines = ["HTTP/1.1 " + status] + ["%s: %s" % h for h in headers] + ["Content-Length: %d" % len(body)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def response(uri, status, headers, body):
    return record("response", uri, http(status, headers, body), "application/http; msgtype=response")


ALL_KINDS = """<!DOCTYPE html>
<html><head>
<meta http-equiv="refresh" content="30; URL=/refreshed">
<link rel="stylesheet" href="/css/site.css">
<link rel="alternate" hreflang="de" href="/de/">
<style>body { background: url("/bg.png") } @import 'imported.css';</style>
<script src="/js/app.js"></script>
</head><body>
<a href="before-base.html" rel="nofollow">Before   the
 base</a>
<base href="https://cdn.example.org/base/">
<a href="/page" ping="/ping1 https://t.example/p2">Absolute &amp; path</a>
<map><area href="area.html" rel="noopener"></map>
<img src="a.png" srcset="a-1x.png 1x, a-2x.png 2x">
<picture><source srcset="pic.webp 100w" type="image/webp"></picture>
<video src="v.mp4" poster="poster.jpg"><source src="v.webm"><track src="subs.vtt"></video>
<audio src="a.ogg"></audio>
<iframe src="frame.html"></iframe><frame src="frame2.html">
<embed src="plugin.swf"><object data="obj.svg"></object>
<form action="/search"><input type="image" src="btn.png"><button formaction="/alt">go</button></form>
<blockquote cite="bq">q</blockquote><q cite="q">x</q><del cite="del">d</del><ins cite="ins">i</ins>
<div style="background:url('div-bg.png')">styled</div>
<svg><a href="svg-a"><image href="svg-image.png"/></a><a xlink:href="svg-xlink"></a><use href="#sym"/><use xlink:href="sprite.svg#i"/></svg>
<a href="http://[broken">broken</a>
<a href="https://example.com/dup">dup 1</a><a href="https://example.com/dup">dup 2</a>
</body></html>
"""

CP1251 = ("<html><head><title>Новости</title></head><body>"
          "<a href=\"/search?q=привет\">Поиск</a> <a href=\"/news/\">Новости</a></body></html>").encode("cp1251")

# The <meta charset> comes after 1024 bytes of ASCII: the prescan misses it,
# the tokenizer meets it and changes the encoding.
LATE_META = (b"<html><head><!-- " + b"padding " * 160 + b"-->\n"
             b"<meta charset=\"windows-1251\"><title>late</title></head><body>"
             b"<a href=\"/find?q=\xe4\xe0\">\xe4\xe0</a></body></html>")

REDIRECT_BODY = b"<html><body>Moved <a href=\"/new-home\">here</a></body></html>"
LOST = b"<html><body><a href=\"/lost-link\">lost</a></body></html>"
RESOURCE = b"<!DOCTYPE html><a href=\"next-resource.html\">next</a>"
LAST = b"<html><body><a href=\"https://example.com/dup\">dup again</a><a href=\"/end\">end</a></body></html>"
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


def members():
    yield record("warcinfo", None, b"software: make_sample.py\r\nformat: WARC File Format 1.1\r\n",
                 "application/warc-fields")
    yield response("https://www.example.com/news/today.html", "200 OK",
                   [("Content-Type", "text/html; charset=utf-8"),
                    ("Link", "</hdr.css>; rel=preload; as=style")],
                   ALL_KINDS.encode("utf-8"))
    yield record("request", "https://www.example.com/news/today.html",
                 b"GET /news/today.html HTTP/1.1\r\nHost: www.example.com\r\n\r\n",
                 "application/http; msgtype=request")
    yield response("https://www.example.ru/novosti/", "200 OK",
                   [("Content-Type", "text/html; charset=windows-1251")], CP1251)
    yield response("https://late.example.com/page", "200 OK",
                   [("Content-Type", "text/html")], LATE_META)
    yield record("metadata", "https://www.example.com/news/today.html",
                 b"outlinks: 42\r\n", "application/warc-fields")
    yield response("http://www.example.com/old", "301 Moved Permanently",
                   [("Location", "https://www.example.com/new-home"),
                    ("Content-Type", "text/html")], REDIRECT_BODY)
    yield "CORRUPT", response("https://www.example.com/lost", "200 OK",
                              [("Content-Type", "text/html")], LOST * 20)
    yield record("revisit", "https://www.example.com/news/today.html",
                 b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
                 "application/http; msgtype=response",
                 ["WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
                  "WARC-Refers-To: <urn:uuid:00000000-0000-4000-8000-000000000002>",
                  "WARC-Refers-To-Target-URI: https://www.example.com/news/today.html",
                  "WARC-Refers-To-Date: " + DATE,
                  "WARC-Payload-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"])
    yield record("resource", "https://files.example.net/dir/index.html", RESOURCE, "text/html")
    yield response("https://www.example.com/logo.png", "200 OK", [("Content-Type", "image/png")], PNG)
    yield response("https://www.example.com/last", "200 OK", [("Content-Type", "text/html")], LAST)


def main():
    out = bytearray()
    for m in members():
        if isinstance(m, tuple):
            z = bytearray(gzip.compress(m[1], mtime=0))
            for i in range(40, 60):  # inside the deflate data
                z[i] ^= 0x5A
            out += z
        else:
            out += gzip.compress(m, mtime=0)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "sample.warc.gz")
    with open(path, "wb") as f:
        f.write(out)
    print("wrote %s (%d bytes)" % (path, len(out)))


if __name__ == "__main__":
    main()
