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
import json
import pathlib
import subprocess
import sys
import zlib

from warcio.archiveiterator import ArchiveIterator

DATE = "2026-12-01T00:00:00Z"


def corpus_files(shared: pathlib.Path) -> list[pathlib.Path]:
    root = shared / "corpus" / "warc"
    files = sorted(
        p for p in root.rglob("*") if p.is_file() and p.name.endswith((".warc", ".warc.gz", ".arc", ".arc.gz"))
    )
    assert len(files) >= 30, f"only {len(files)} corpus files"
    return files


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
