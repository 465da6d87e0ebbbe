"""`spinneret text --format wet` read by the Python tools of web archives.

Over the corpus WARC/ARC files: warcio's ArchiveIterator reads back every
record (a warcinfo record, then one conversion record per page, each
referring to its response and carrying its URL, as the JSON Lines output
of the same pages says), each record its own gzip member with its
Content-Length and block digest right; `warcio check` (the venv's CLI)
exits 0 on the file; cdxj-indexer indexes every conversion record at its
member's offset. (The Rust side, tests/text.rs in crates/cli, checks the
records against spinneret's reader and the text library.)
"""

import base64
import hashlib
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


def spinneret_text(binary: str, args: list[str]) -> bytes:
    done = subprocess.run([binary, "text", *args], capture_output=True, check=False)
    # Exit code 1: the corpus has damaged files (their records reported).
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return done.stdout


def venv_tool(name: str) -> str:
    path = pathlib.Path(sys.executable).parent / name
    assert path.is_file(), f"{name} not in the venv ({path})"
    return str(path)


def gzip_members(data: bytes) -> list[tuple[int, bytes]]:
    """Each gzip member's offset and decompressed bytes."""
    out, offset = [], 0
    while offset < len(data):
        d = zlib.decompressobj(31)
        plain = d.decompress(data[offset:])
        assert d.eof, f"the member at {offset} is cut"
        out.append((offset, plain))
        offset = len(data) - len(d.unused_data)
    return out


def sha1_base32(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


def test_warc_tools_read_and_index_the_wet_file(shared, spinneret_bin, tmp_path):
    files = [str(p) for p in corpus_files(shared)]
    wet = tmp_path / "corpus.warc.wet.gz"
    assert spinneret_text(spinneret_bin, ["--format", "wet", "--date", DATE, "-o", str(wet), *files]) == b""
    pages = [json.loads(line) for line in spinneret_text(spinneret_bin, files).splitlines()]
    assert len(pages) > 100, len(pages)

    # warcio reads every record: the warcinfo, then a conversion per page.
    records = []
    with wet.open("rb") as f:
        it = ArchiveIterator(f)
        for rec in it:
            block = rec.content_stream().read()
            records.append((it.get_record_offset(), rec.rec_type, rec.rec_headers, block))
    assert records[0][1] == "warcinfo"
    info = records[0][2]
    assert info.get_header("WARC-Date") == DATE
    assert info.get_header("WARC-Filename") == wet.name
    assert info.get_header("Content-Type") == "application/warc-fields"
    assert b"Software-Info: spinneret " in records[0][3]
    assert [r[1] for r in records[1:]] == ["conversion"] * len(pages)
    for (_, _, headers, block), page in zip(records[1:], pages):
        where = f"{page['file']} at {page['offset']}"
        assert headers.get_header("WARC-Refers-To") == page["record_id"], where
        assert headers.get_header("WARC-Target-URI") == page["url"], where
        assert headers.get_header("WARC-Date") == page["date"], where
        assert headers.get_header("WARC-Identified-Content-Language") == page["language"], where
        assert headers.get_header("Content-Type") == "text/plain"
        assert int(headers.get_header("Content-Length")) == len(block), where
        assert headers.get_header("WARC-Block-Digest") == sha1_base32(block), where
        title = page["title"] + "\n" if page["title"] else ""
        text = page["text"] + "\n" if page["text"] else ""
        assert block.decode() == title + text, where
    # Record ids: one per response id, one to one (the corpus holds some
    # responses twice: pywb's example.warc and example.warc.gz).
    pairs = {(r[2].get_header("WARC-Record-ID"), r[2].get_header("WARC-Refers-To")) for r in records[1:]}
    refers = {ref for _, ref in pairs if ref}
    assert len({i for i, ref in pairs if ref}) == len(refers) == len({p for p in pairs if p[1]})
    assert info.get_header("WARC-Record-ID") not in {i for i, _ in pairs}

    # One record a gzip member, each member starting where warcio's
    # record does.
    members = gzip_members(wet.read_bytes())
    assert [m[0] for m in members] == [r[0] for r in records]
    assert all(m[1].startswith(b"WARC/1.0\r\n") and m[1].endswith(b"\r\n\r\n") for m in members)

    # warcio check: every digest verified.
    done = subprocess.run([venv_tool("warcio"), "check", "-v", str(wet)], capture_output=True, check=False)
    report = done.stdout.decode()
    assert done.returncode == 0, report + done.stderr.decode()
    # warcio hashes no empty block (a page without title or text): its
    # digest is "present but not checked".
    empty = sum(1 for r in records[1:] if not r[3])
    assert report.count("digest pass") == len(pages) - empty, report[:2000]
    assert report.count("digest present but not checked") == empty
    assert "fail" not in report

    # cdxj-indexer: a line per conversion record, at its member.
    done = subprocess.run(
        [sys.executable, "-m", "cdxj_indexer.main", "--records", "conversion", str(wet)],
        capture_output=True,
        check=True,
    )
    lines = [line.split(" ", 2) for line in done.stdout.decode().splitlines()]
    assert len(lines) == len(pages)
    for (_, ts, body), (offset, _, headers, _) in zip(lines, records[1:]):
        entry = json.loads(body)
        assert entry["url"] == headers.get_header("WARC-Target-URI")
        assert int(entry["offset"]) == offset
        assert entry["mime"] == "text/plain"
        assert entry["filename"] == wet.name
        assert ts == "".join(c for c in headers.get_header("WARC-Date") if c.isdigit())[:14]


def test_main_content_markdown_wet_is_read_back(shared, spinneret_bin, tmp_path):
    """Another extraction: Markdown records (text/markdown) that warcio reads
    and checks as well, and record ids of their own."""
    files = [str(p) for p in corpus_files(shared)[:8]]
    whole = tmp_path / "whole.warc.wet.gz"
    md = tmp_path / "md.warc.wet.gz"
    spinneret_text(spinneret_bin, ["--format", "wet", "--date", DATE, "-o", str(whole), *files])
    spinneret_text(
        spinneret_bin, ["--format", "wet", "--date", DATE, "--main-content", "--markdown", "-o", str(md), *files]
    )

    def read(path):
        with path.open("rb") as f:
            return [(r.rec_type, r.rec_headers, r.content_stream().read()) for r in ArchiveIterator(f)]

    a, b = read(whole), read(md)
    assert len(a) == len(b) > 1
    for (_, ha, _), (kind, hb, block) in zip(a[1:], b[1:]):
        assert kind == "conversion"
        assert hb.get_header("Content-Type") == "text/markdown"
        assert hb.get_header("WARC-Refers-To") == ha.get_header("WARC-Refers-To")
        assert hb.get_header("WARC-Record-ID") != ha.get_header("WARC-Record-ID")
        assert hb.get_header("WARC-Block-Digest") == sha1_base32(block)
    done = subprocess.run([venv_tool("warcio"), "check", str(md)], capture_output=True, check=False)
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
