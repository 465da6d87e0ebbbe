"""`spinneret wat` read by the Python tools of web archives, and its JSON
against what warcio reads in the source WARCs.

Over the corpus WARC/ARC files: warcio's ArchiveIterator reads back every
record of each WAT (a warcinfo record, then one `metadata` record of JSON
per source record, each its own gzip member), and `warcio check` verifies
every record's block digest. For each source file that warcio reads whole,
record by record, in order:
- `WARC-Refers-To` is the source record's id and `WARC-Target-URI` its
  URI (a warcinfo's `WARC-Filename`);
- `Container.Offset` is warcio's offset of the record, `Compressed` says
  whether the file is gzipped, and `Gzip-Metadata` (the member's length,
  its CRC-32 as a signed int and inflated length) equals zlib's reading of
  the member at that offset;
- `Envelope.WARC-Header-Metadata` equals warcio's WARC header (a repeated
  header an array), `Block-Digest` the record's own `WARC-Block-Digest`
  where it has one;
- the HTTP status, version and headers equal warcio's.
The fixtures from Common Crawl's own WATs are the Rust side's
(crates/wat/tests/fixtures.rs).
"""

import base64
import gzip
import json
import pathlib
import re
import subprocess
import sys
import zlib

from warcio.archiveiterator import ArchiveIterator

from test_text_wet import corpus_files

DATE = "2026-12-01T00:00:00Z"


def spinneret_wat(binary: str, args: list[str]) -> bytes:
    done = subprocess.run([binary, "wat", *args], capture_output=True, check=False)
    # Exit code 1: the corpus has damaged files (their records reported).
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return done.stdout


def wat_records(data: bytes):
    """(offset, headers, JSON or block) of each record of a WAT."""
    out = []
    import io

    it = ArchiveIterator(io.BytesIO(data))
    for rec in it:
        block = rec.content_stream().read()
        body = json.loads(block) if rec.rec_type == "metadata" else block
        out.append((it.get_record_offset(), rec.rec_headers, body))
    return out


def source_records(path: pathlib.Path):
    """warcio's reading of a WARC: (offset, length, headers, http headers,
    id), or None when warcio cannot read it whole."""
    out = []
    try:
        with path.open("rb") as f:
            it = ArchiveIterator(f, no_record_parse=False)
            for rec in it:
                http = rec.http_headers if rec.rec_type in ("response", "request", "revisit") else None
                rec.content_stream().read()
                out.append((it.get_record_offset(), it.get_record_length(), rec.rec_headers, http, rec.rec_type))
    except Exception:  # noqa: BLE001 - a damaged file: not compared
        return None
    return out


def as_json_headers(pairs) -> dict:
    """Header pairs as the WAT writes them: a repeated name an array; bytes
    that are not UTF-8 (warcio reads them as Latin-1) as U+FFFD, as
    spinneret's reader decodes them (Common Crawl's generator drops them)."""
    out: dict = {}
    for name, value in pairs:
        value = value.encode("latin-1", errors="replace").decode("utf-8", errors="replace")
        if name in out:
            if not isinstance(out[name], list):
                out[name] = [out[name]]
            out[name].append(value)
        else:
            out[name] = value
    return out


def signed(n: int) -> int:
    return n - (1 << 32) if n >= 1 << 31 else n


def test_warcio_reads_every_wat_and_its_json_matches_the_source(shared, spinneret_bin, tmp_path):
    compared_files = 0
    compared_records = 0
    for path in corpus_files(shared):
        wat = tmp_path / (path.name + ".wat.gz")
        assert spinneret_wat(spinneret_bin, ["--date", DATE, "-o", str(wat), str(path)]) == b""
        data = wat.read_bytes()
        records = wat_records(data)
        assert records[0][1].get_header("WARC-Type") == "warcinfo", path
        assert records[0][1].get_header("WARC-Filename") == wat.name
        assert all(r[1].get_header("WARC-Type") == "metadata" for r in records[1:]), path
        for _, headers, body in records[1:]:
            assert headers.get_header("Content-Type") == "application/json"
            assert headers.get_header("WARC-Date") == DATE
            assert set(body) == {"Container", "Envelope"}, path

        # warcio check: every block digest verified.
        done = subprocess.run(
            [str(pathlib.Path(sys.executable).parent / "warcio"), "check", "-v", str(wat)],
            capture_output=True,
            check=False,
        )
        report = done.stdout.decode()
        assert done.returncode == 0, report + done.stderr.decode()
        assert report.count("digest pass") == len(records) - 1, report[:2000]

        if not path.name.endswith((".warc", ".warc.gz")):
            continue
        source = source_records(path)
        if source is None or len(source) != len(records) - 1:
            # A damaged file: warcio stops (or spinneret reports records it
            # skips); the readable part is checked by the Rust tests.
            continue
        raw = path.read_bytes()
        gzipped = raw[:2] == b"\x1f\x8b"
        for (offset, length, headers, http, kind), (_, wat_headers, body) in zip(source, records[1:]):
            where = f"{path.name} at {offset}"
            container, envelope = body["Container"], body["Envelope"]
            assert wat_headers.get_header("WARC-Refers-To") == headers.get_header("WARC-Record-ID"), where
            target = headers.get_header("WARC-Filename" if kind == "warcinfo" else "WARC-Target-URI")
            assert wat_headers.get_header("WARC-Target-URI") == target, where
            assert container["Filename"] == path.name
            assert container["Offset"] == str(offset), where
            assert container["Compressed"] is gzipped, where
            if gzipped:
                d = zlib.decompressobj(31)
                inflated = d.decompress(raw[offset : offset + length])
                assert d.eof, where
                g = container["Gzip-Metadata"]
                assert g["Deflate-Length"] == str(length), where
                assert g["Inflated-Length"] == str(len(inflated)), where
                assert g["Inflated-CRC"] == str(signed(zlib.crc32(inflated))), where
            ours = dict(envelope["WARC-Header-Metadata"])
            # The WAT keeps header values verbatim; warcio takes the angle
            # brackets off a `<uri>` target (WARC 1.1's grammar, which some
            # writers follow).
            uri = ours.get("WARC-Target-URI")
            if isinstance(uri, str) and uri.startswith("<") and uri.endswith(">"):
                ours["WARC-Target-URI"] = uri[1:-1]
            assert ours == as_json_headers(headers.headers), where
            payload = envelope["Payload-Metadata"]
            digest = headers.get_header("WARC-Block-Digest")
            if digest and digest.startswith("sha1:") and len(digest) == 37:
                assert payload["Block-Digest"] == digest.upper().replace("SHA1:", "sha1:"), where
            if http is not None and kind in ("response", "revisit") and "Response-Message" in json.dumps(payload):
                meta = payload["HTTP-Response-Metadata"]
                status = http.get_statuscode()
                assert meta["Response-Message"]["Status"] == status, where
                assert meta["Headers"] == as_json_headers(http.headers), where
            if http is not None and kind == "request":
                meta = payload["HTTP-Request-Metadata"]
                assert meta["Headers"] == as_json_headers(http.headers), where
                # warcio: the method is the "protocol", the rest the "status line".
                method, (path_, *_) = http.protocol, http.statusline.split(" ")
                # Common Crawl's generator knows seven methods; others are UNK.
                if method.upper() not in ("GET", "HEAD", "POST", "PUT", "TRACE", "DELETE", "CONNECT"):
                    method = "UNK"
                assert meta["Request-Message"]["Method"] == method, where
                assert meta["Request-Message"]["Path"] == path_, where
            compared_records += 1
        compared_files += 1
    assert compared_files >= 20, compared_files
    assert compared_records >= 500, compared_records


def test_links_of_a_page_as_the_html_says(spinneret_bin, tmp_path):
    """A page made here: its HTML-Metadata as Common Crawl's generator
    records it (paths, raw URLs, anchor texts, head items)."""
    html = (
        b"<html lang=en><head><title>T</title><base href='https://b.example/'>"
        b"<meta property=og:image content='https://i.example/x.png'>"
        b"<link rel=stylesheet href=s.css><script src=j.js></script></head>"
        b"<body background=bg.png><a href='/a?x=1&amp;y=2'>One <b>two</b></a>"
        b"<img src='data:image/png;base64,AAAA' alt=pic><form action=/f method=post></form></body></html>"
    )
    http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(html) + html
    head = (
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n"
        "WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: https://p.example/\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(http)}\r\n\r\n"
    ).encode()
    warc = tmp_path / "one.warc"
    warc.write_bytes(head + http + b"\r\n\r\n")
    records = wat_records(spinneret_wat(spinneret_bin, ["--date", DATE, str(warc)]))
    assert len(records) == 2
    meta = records[1][2]["Envelope"]["Payload-Metadata"]["HTTP-Response-Metadata"]
    assert meta["Entity-Length"] == str(len(html))
    digest = base64.b32encode(__import__("hashlib").sha1(html).digest()).decode()
    assert meta["Entity-Digest"] == "sha1:" + digest
    html_meta = meta["HTML-Metadata"]
    assert html_meta["Head"] == {
        "Metas": [{"name": "HTML@/lang", "content": "en"}, {"content": "https://i.example/x.png", "property": "og:image"}],
        "Title": "T",
        "Base": "https://b.example/",
        "Link": [{"path": "LINK@/href", "url": "s.css", "rel": "stylesheet"}],
        "Scripts": [{"path": "SCRIPT@/src", "url": "j.js"}],
    }
    assert html_meta["Links"] == [
        {"path": "BODY@/background", "url": "bg.png"},
        {"path": "A@/href", "url": "/a?x=1&y=2", "text": "One two"},
        {"path": "IMG@/src", "url": "data:image/png;base64,", "alt": "pic"},
        {"path": "FORM@/action", "url": "/f", "method": "post"},
    ]


# --- The graph from WAT files against cc-pyspark's rules ---------------------

# cc-pyspark's rule: a link names a host when it is `//…` or its scheme is
# 2-6 letters and digits (`^(?:[a-z][a-z0-9]{1,5}:)?//`).
HOST_OF_HREF = re.compile(r"^(?:[a-z][a-z0-9]{1,5}:)?//(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)", re.IGNORECASE)
IP = re.compile(r"^(?:www\.)?\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\Z")
LABEL = re.compile(r"^[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?\Z", re.IGNORECASE | re.ASCII)
META_PROPERTIES = {
    "og:url",
    "og:image",
    "og:image:secure_url",
    "og:video",
    "og:video:url",
    "og:video:secure_url",
    "twitter:url",
    "twitter:image:src",
}
META_NAMES = {
    "twitter:image",
    "thumbnail",
    "application-url",
    "msapplication-starturl",
    "msapplication-TileImage",
    "vb_meta_bburl",
}
ABSOLUTE = re.compile(r"^(?:https?:)?//", re.IGNORECASE)


def get_surt_host(host):
    """cc-pyspark's get_surt_host (www. kept, as since 2026)."""
    host = host.strip().lower()
    if len(host) < 1 or len(host) > 253 or IP.match(host):
        return None
    parts = host.split(".")
    if parts[-1] == "":
        parts = parts[:-1]
    if len(parts) <= 1:
        return None
    out = []
    for part in parts:
        if len(part) > 63 or not LABEL.match(part):
            try:
                part = part.encode("idna").decode("ascii")
            except UnicodeError:
                return None
            if not LABEL.match(part):
                return None
        out.append(part)
    return ".".join(reversed(out))


def host_of(url, relative_host):
    """The host a link names: its own when it has an authority
    (`scheme://` or `//`), else (a relative link) `relative_host`; None
    for other schemes (`mailto:`)."""
    url = url.strip()
    m = HOST_OF_HREF.match(url)
    if m:
        return get_surt_host(m.group(1)) if m.group(1) else None
    if re.match(r"^[a-z][a-z0-9+.\-]*:", url, re.IGNORECASE):
        return None
    return relative_host


def reference_pairs(wat_paths):
    """cc-pyspark's ExtractHostLinksJob over WAT JSON (plus `resource`
    envelopes and ARC records, which spinneret's WARC path also takes as
    pages): the vertex set and the edge set, as reversed host names."""
    vertices, edges = set(), set()
    for path in wat_paths:
        with open(path, "rb") as f:
            for rec in ArchiveIterator(f):
                if rec.rec_type != "metadata":
                    continue
                env = json.loads(rec.content_stream().read())["Envelope"]
                warc = env.get("WARC-Header-Metadata")
                if warc is not None:
                    if warc.get("WARC-Type") not in ("response", "resource"):
                        continue
                    uri = warc.get("WARC-Target-URI", "")
                else:
                    uri = env.get("ARC-Header-Metadata", {}).get("Target-URI", "")
                    if uri.lower().startswith("filedesc:"):
                        continue
                uri = uri.strip().removeprefix("<").removesuffix(">")
                src = host_of(uri, None)
                if src is None:
                    continue
                vertices.add(src)
                http = env.get("Payload-Metadata", {}).get("HTTP-Response-Metadata", {})
                status = http.get("Response-Message", {}).get("Status", "0")
                html = http.get("HTML-Metadata", {})
                head = html.get("Head", {})
                targets = set()
                for name, value in http.get("Headers", {}).items():
                    values = value if isinstance(value, list) else [value]
                    lname = name.lower()
                    for v in values:
                        if lname == "location" and status.startswith("3"):
                            targets.add(host_of(v, src))
                        elif lname == "content-location":
                            targets.add(host_of(v, src))
                        elif lname == "link":
                            for t in re.findall(r"<([^>]*)>", v):
                                targets.add(host_of(t, src))
                base_host = src
                if "Base" in head:
                    base_host = host_of(head["Base"], src)
                    targets.add(base_host)
                urls = [e["url"] for key in ("Link", "Scripts") for e in head.get(key, []) if "url" in e]
                for m in head.get("Metas", []):
                    content = m.get("content")
                    if content and (
                        m.get("property") in META_PROPERTIES
                        or m.get("name") in META_NAMES
                        or ABSOLUTE.match(content.strip())
                    ):
                        urls.append(content)
                for e in html.get("Links", []):
                    urls.extend(e[k] for k in ("url", "href") if k in e)
                targets.update(host_of(u, base_host) for u in urls)
                for t in targets:
                    if t is not None and t != src:
                        vertices.add(t)
                        edges.add((src, t))
    return vertices, edges


def graph_files(folder):
    names = {}
    with gzip.open(folder / "host" / "vertices.txt.gz", "rt") as f:
        for line in f:
            i, name = line.rstrip("\n").split("\t")[:2]
            names[int(i)] = name
    with gzip.open(folder / "host" / "edges.txt.gz", "rt") as f:
        edges = {tuple(names[int(x)] for x in line.split()) for line in f}
    return set(names.values()), edges


def test_graph_from_wat_files_follows_cc_pyspark(shared, spinneret_bin, tmp_path):
    """`spinneret graph` over the corpus's WAT files (written by `spinneret
    wat`) against a reference that follows cc-pyspark's rules on the same
    JSON: the same vertices and edges."""
    wats = []
    for path in corpus_files(shared):
        wat = tmp_path / (path.name + ".wat.gz")
        spinneret_wat(spinneret_bin, ["--date", DATE, "-o", str(wat), str(path)])
        wats.append(wat)
    out = tmp_path / "graph"
    done = subprocess.run(
        [spinneret_bin, "graph", "--any-tld", "--no-ranks", "-o", str(out), *map(str, wats)],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    vertices, edges = graph_files(out)
    want_vertices, want_edges = reference_pairs(wats)
    assert len(want_edges) > 300, len(want_edges)
    assert vertices == want_vertices, (sorted(vertices - want_vertices), sorted(want_vertices - vertices))
    assert edges == want_edges, (sorted(edges - want_edges)[:20], sorted(want_edges - edges)[:20])


# --- links from WAT files against links from the WARCs ----------------------

# Links one side records and the other does not, by (element, attribute);
# None: any element.
ONLY_WARC = {
    (None, "srcset"),  # Common Crawl's generator records no srcset
    (None, "style"),  # nor style attributes' url()
    ("meta", "refresh"),  # nor meta refresh targets (it keeps og:… metas: kind meta on both sides)
}
ONLY_WAT = {
    (None, "data-href"),  # the generator's data-href/data-uri/background on any element
    (None, "data-uri"),
    (None, "background"),
    (None, "onclick"),  # its onclick patterns
    ("object", "codebase"),
    ("object", "cdata"),
    ("applet", "codebase"),
    ("applet", "cdata"),
    ("img", "longdesc"),
    (None, "Content-Location"),
}


def only(row, table):
    """Whether a row is of a kind only one side records: by element and
    attribute, or (a meta refresh) by element and kind."""
    return any(k in table for k in ((row["tag"], row["attr"]), (None, row["attr"]), (row["tag"], row["kind"])))


def cut_data_url(url):
    """A data: URL as the WAT keeps it: up to its comma."""
    if url and url.startswith("data:") and "," in url:
        return url[: url.index(",") + 1]
    return url


def links_rows(binary, path):
    """The rows, and whether the file had damaged records."""
    done = subprocess.run([binary, "links", str(path)], capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return [json.loads(line) for line in done.stdout.decode().splitlines()], b"spinneret: bad record:" in done.stderr


def test_links_from_wat_files_are_the_warcs_links(shared, spinneret_bin, tmp_path):
    """`spinneret links` over each corpus file's WAT gives the links
    `spinneret links` finds in the WARC itself — the same sources, targets,
    elements, attributes and kinds, as multisets — but for the link kinds
    only one of Common Crawl's generator and spinneret's extractor records
    (ONLY_WARC, ONLY_WAT) and data: URLs, which the WAT cuts at their comma."""
    compared = files = 0
    for path in corpus_files(shared):
        wat = tmp_path / (path.name + ".wat.gz")
        spinneret_wat(spinneret_bin, ["--date", DATE, "-o", str(wat), str(path)])

        def key(r):
            return (r["source"], cut_data_url(r["target"]) or "", r["tag"] or "", r["attr"], r["kind"])

        warc_rows, damaged = links_rows(spinneret_bin, path)
        if damaged:
            # A damaged record the WARC reader reports may be one the WAT
            # writer read (pywb's `HTTPX/1.1 200` status line): the files
            # with damage are the Rust tests' and test_warc_links.py's.
            continue
        # Nor a CSS url("…") target with white space inside: its url()
        # pattern takes no white space.
        warc_rows = [
            r
            for r in warc_rows
            if not only(r, ONLY_WARC) and not (r["attr"] == "#text" and any(c.isspace() for c in r["raw"]))
        ]
        wat_rows = [r for r in links_rows(spinneret_bin, wat)[0] if not only(r, ONLY_WAT)]
        a = sorted(key(r) for r in warc_rows)
        b = sorted(key(r) for r in wat_rows)
        assert a == b, (path.name, [x for x in a if x not in b][:5], [x for x in b if x not in a][:5])
        compared += len(a)
        files += 1
    assert files >= 25 and compared > 15000, (files, compared)
