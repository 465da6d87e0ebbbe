"""spinneret.text, extract_text and warc_text: hand-written pages (whole
page against main content, Markdown's constructs, metadata), bad
arguments and arbitrary bytes; against `spinneret text` on corpus pages
(`--html`, each mode, and the whole manifest as JSON Lines) and on every
corpus WARC/ARC file (JSON Lines and Parquet, every field); batches
bounded by rows and bytes; and the GIL released during extraction."""

import concurrent.futures
import csv
import io
import json
import random
import struct
import sys
import threading

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import spinneret
from conftest import run_cli
from test_warc_links import corpus_files

ARTICLE = (
    b"<!doctype html><html lang=en><head><title>Rain in the valley</title>"
    b"<meta name=description content='A wet day.'>"
    b"<link rel=canonical href='/news/rain'>"
    b"<meta property='article:published_time' content='2025-03-01T08:00:00Z'></head><body>"
    b"<header><nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About us</a></nav></header>"
    b"<main><article><h1>Rain in the valley</h1>"
    b"<p>It rained all day in the valley, and the river rose by a metre, which the farmers "
    b"had feared since the spring floods of the year before.</p>"
    b"<h2>What the farmers said</h2>"
    b"<p>They moved the sheep to the upper fields before noon, and most of the hay was "
    b"already in the barns, so the losses were small this time.</p>"
    b"<ul><li>Sheep moved</li><li>Hay stored</li></ul>"
    b"<p>The weather service expects the rain to stop by Thursday, when the wind turns to "
    b"the north and the nights grow colder again.</p></article></main>"
    b"<aside><h3>Related</h3><a href=/a>Snow in May</a> <a href=/b>A dry summer</a></aside>"
    b"<footer>Copyright 2026 The Valley Times. All rights reserved.</footer></body></html>"
)
URL = "https://valley.example/news/rain?ref=home"

# The columns of warc_text and the fields of `spinneret text --format jsonl`.
FIELDS = ["record_id", "url", "date", "file", "offset", "status", "content_type", "encoding", "language",
          "language_confidence", "html_lang", "content_language", "title", "canonical", "published", "page_type", "text"]


# ------------------------------------------------------------ hand-written pages

def test_whole_page_and_main_content():
    whole = spinneret.text(ARTICLE, URL)
    for part in ("Home", "About us", "It rained all day", "Snow in May", "Copyright 2026"):
        assert part in whole
    main = spinneret.text(ARTICLE, URL, main_content=True)
    assert main.startswith("Rain in the valley\n")
    assert "It rained all day" in main and "Hay stored" in main and "by Thursday" in main
    for boilerplate in ("Home", "About us", "Snow in May", "Related", "Copyright"):
        assert boilerplate not in main
    # No line break at either end; paragraphs apart by a blank line.
    assert main == main.strip("\n") and "\n\n" in main
    assert spinneret.text(ARTICLE) == whole  # the URL is a hint only


def test_markdown_structure():
    md = spinneret.text(ARTICLE, URL, main_content=True, format="markdown")
    lines = md.split("\n")
    assert lines[0] == "# Rain in the valley"
    assert "## What the farmers said" in lines
    assert any(line.lstrip().startswith(("- Sheep moved", "* Sheep moved")) for line in lines)
    assert "[" not in md  # links off: a link is its text
    page = (b"<h1>T</h1><h3>Three</h3><ol><li>one</li><li>two<ul><li>inner</li></ul></li></ol>"
            b"<blockquote><p>quoted</p></blockquote><pre><code>x = 1\ny = 2</code></pre>"
            b"<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"
            b"<p>see <a href='/x'>this</a> <img src=i.png alt=pic></p>")
    md = spinneret.text(page, "https://e.com/d/", format="markdown")
    assert md.startswith("# T\n\n### Three\n")
    assert "1. one" in md and "2. two" in md and "inner" in md
    assert "> quoted" in md
    assert "```" in md and "x = 1\ny = 2" in md
    assert "| a | b |" in md.replace("|a|b|", "| a | b |")
    linked = spinneret.text(page, "https://e.com/d/", format="markdown", links=True)
    assert "[this](https://e.com/x)" in linked and "![pic](https://e.com/d/i.png)" in linked
    plain = spinneret.text(page, "https://e.com/d/")
    assert "#" not in plain and "x = 1\ny = 2" in plain and "a\tb" in plain


def test_visible_text_rules():
    page = (b"<p>a<br>b</p><p hidden>secret</p><template>tpl</template><script>js()</script>"
            b"<style>p{}</style><p>caf&eacute; &amp; &lt;tea&gt;</p><pre>  two\n  lines</pre>")
    got = spinneret.text(page)
    assert "a\nb" in got and "caf\u00e9 & <tea>" in got and "  two\n  lines" in got
    for hidden in ("secret", "tpl", "js()", "p{}"):
        assert hidden not in got


def test_extract_text_metadata():
    d = spinneret.extract_text(ARTICLE, URL, main_content=True, content_language="en-GB")
    assert set(d) == {"text", "title", "description", "html_lang", "content_language", "canonical",
                      "published", "language", "language_confidence", "encoding", "page_type"}
    assert d["text"] == spinneret.text(ARTICLE, URL, main_content=True)
    assert d["title"] == "Rain in the valley" and d["description"] == "A wet day."
    assert d["html_lang"] == "en" and d["content_language"] == "en-GB"
    assert d["canonical"] == "https://valley.example/news/rain"
    assert d["published"] == "2025-03-01T08:00:00Z"
    assert d["page_type"] == "article"
    assert d["language"] == "eng" and 0 < d["language_confidence"] <= 1
    # ASCII with no declaration: the HTML Standard's fallback for a page of
    # unknown locale.
    assert d["encoding"] == "windows-1252"
    assert spinneret.extract_text("<p>caf\u00e9 \u00fcber".encode())["encoding"] == "UTF-8"
    # The charset of the Content-Type decides; nothing to tell a language by.
    d = spinneret.extract_text(b"<p>caf\xe9 123", content_type="text/html; charset=windows-1252")
    assert (d["text"], d["encoding"]) == ("caf\u00e9 123", "windows-1252")
    assert spinneret.text(b"<p>caf\xe9", content_type="text/html; charset=windows-1252") == "caf\u00e9"
    empty = spinneret.extract_text(b"")
    assert empty["text"] == "" and empty["language"] is None and empty["language_confidence"] is None
    assert empty["title"] is None and empty["canonical"] is None


def test_bad_formats_raise_value_error():
    for fmt in ("md", "Markdown", "html", "", "wet"):
        with pytest.raises(ValueError, match="format"):
            spinneret.text(ARTICLE, format=fmt)
        with pytest.raises(ValueError, match="format"):
            spinneret.extract_text(ARTICLE, format=fmt)
        with pytest.raises(ValueError, match="format"):
            spinneret.warc_text("x.warc.gz", format=fmt)
    with pytest.raises(ValueError, match="markdown"):
        spinneret.text(ARTICLE, links=True)  # links are Markdown's


def test_wrong_types_raise_type_error():
    for html in ("<p>a str</p>", 42, None, [60, 112, 62], 1.5):
        with pytest.raises(TypeError):
            spinneret.text(html)
        with pytest.raises(TypeError):
            spinneret.extract_text(html)
    with pytest.raises(TypeError):
        spinneret.text(ARTICLE, url=b"https://e.com/")
    with pytest.raises(TypeError):
        spinneret.text(ARTICLE, format=None)
    with pytest.raises(TypeError):
        spinneret.text(ARTICLE, main_content="yes")
    with pytest.raises(TypeError):
        spinneret.text(ARTICLE, content_type=1)
    with pytest.raises(TypeError):
        spinneret.text(ARTICLE, colour="red")
    with pytest.raises(TypeError):
        spinneret.warc_text(42)
    with pytest.raises(TypeError):
        spinneret.warc_text(None)


def test_bytes_like_inputs():
    want = spinneret.text(ARTICLE, URL, main_content=True)
    assert spinneret.text(bytearray(ARTICLE), URL, main_content=True) == want
    assert spinneret.text(memoryview(ARTICLE), URL, main_content=True) == want
    framed = b"xx" + ARTICLE + b"yy"
    assert spinneret.text(memoryview(framed)[2:-2], URL, main_content=True) == want
    # A non-contiguous view and a typed array's bytes.
    assert spinneret.text(memoryview(b"<p>abcdef")[::1]) == "abcdef"
    assert spinneret.text(memoryview(b"<<pp>>aabb")[::2]) == "ab"
    import array
    assert spinneret.text(array.array("B", b"<p>hi")) == "hi"
    assert spinneret.extract_text(bytearray(b"<title>t</title>"))["title"] == "t"


def test_arbitrary_bytes_never_crash():
    rng = random.Random(42)
    samples = [b"", b"\x00", b"<", b"<!--", b"<html" * 1000, b"\xff\xfe" + b"\x00<" * 500,
               b"\xef\xbb\xbf<p>\xc3", bytes(range(256)) * 40, b"<table>" * 3000 + b"<td>x",
               b"<div>" * 20000 + b"deep", b"<a href='" + b"\x80" * 5000]
    alphabet = b"<>/=\"' &#;!-abcdhlpt\x00\x80\xc3\xe9\xff\n"
    for _ in range(150):
        n = rng.randrange(0, 3000)
        if rng.random() < 0.5:
            samples.append(bytes(rng.randrange(256) for _ in range(n)))
        else:
            samples.append(bytes(rng.choice(alphabet) for _ in range(n)))
    for i, s in enumerate(samples):
        for kwargs in ({}, {"main_content": True}, {"format": "markdown"},
                       {"main_content": True, "format": "markdown", "links": True}):
            out = spinneret.text(s, "https://e.com/", **kwargs)
            assert isinstance(out, str), (i, kwargs)
            out.encode("utf-8")  # valid UTF-8 (no lone surrogates)
        spinneret.extract_text(s, content_type="text/html; charset=\xff", content_language="\x00")


# ------------------------------------------------------------ the GIL

def large_page():
    para = ("<p>The committee met on Tuesday to discuss the budget for the coming year, and after a "
            "long debate it agreed to fund the new library, the bridge repairs and the school. ")
    body = "".join(f"<div class=c{i % 7}><h2>Part {i}</h2>{para}<a href=/l{i}>link {i}</a>{para}</div>"
                   for i in range(6000))
    return f"<html><title>Minutes</title><nav>menu</nav><main>{body}</main></html>".encode()


def test_threads_get_the_same_results():
    page = large_page()
    kwargs = [{}, {"main_content": True}, {"format": "markdown"}, {"main_content": True}]
    serial = [spinneret.text(page, "https://e.com/", **k) for k in kwargs]
    assert len(serial[0]) > 1_000_000
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        threaded = list(pool.map(lambda k: spinneret.text(page, "https://e.com/", **k), kwargs))
    assert threaded == serial


def test_the_gil_is_released_during_extraction():
    """With a switch interval so long that no thread is ever made to give
    up the GIL, another thread runs during a call only if the call releases
    it: the main thread, woken by the worker just before its call, must see
    the call unfinished."""
    page = large_page()
    entered = threading.Event()
    finished = []

    def work(fn):
        entered.set()
        fn(page, "https://e.com/", main_content=True)
        finished.append(True)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        for fn in (spinneret.text, spinneret.extract_text):
            entered.clear()
            finished.clear()
            t = threading.Thread(target=work, args=(fn,))
            t.start()
            entered.wait()
            overlapped = not finished  # the main thread runs while the call does
            t.join()
            assert overlapped, fn.__name__
            assert finished
    finally:
        sys.setswitchinterval(old)


# ------------------------------------------------------------ against the CLI

def manifest(shared):
    with open(shared / "corpus/pages.tsv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def page_bytes(shared, path):
    import gzip

    data = (shared / "corpus" / path).read_bytes()
    return gzip.decompress(data) if path.endswith(".gz") else data


MODES = [
    (["--format", "text"], {}),
    (["--format", "text", "--main-content"], {"main_content": True}),
    (["--format", "markdown"], {"format": "markdown"}),
    (["--format", "markdown", "--main-content", "--links"], {"format": "markdown", "main_content": True,
                                                             "links": True}),
]


@pytest.mark.parametrize("cli_args,kwargs", MODES, ids=["text", "main-content", "markdown", "main-md-links"])
def test_text_equals_the_cli_on_sample_pages(shared, spinneret_bin, cli_args, kwargs):
    pages = manifest(shared)[::40]
    assert len(pages) > 40
    for page in pages:
        args = ["text", "--html", str(shared / "corpus" / page["path"]), *cli_args]
        if page["url"]:
            args += ["--url", page["url"]]
        want = run_cli(spinneret_bin, args).decode()
        got = spinneret.text(page_bytes(shared, page["path"]), page["url"] or None, **kwargs)
        # One page: exactly its text and a line feed.
        assert want == got + "\n", page["path"]


def f32(x):
    """`x` as the nearest 32-bit float (the column's type; JSON carries it in
    its shortest decimal form)."""
    return None if x is None else struct.unpack("<f", struct.pack("<f", x))[0]


JSONL_MODES = [
    (["--main-content"], {"main_content": True}),
    (["--markdown"], {"format": "markdown"}),
]


@pytest.mark.parametrize("cli_args,kwargs", JSONL_MODES, ids=["main-content", "markdown"])
def test_extract_text_equals_the_cli_on_every_corpus_page(shared, spinneret_bin, cli_args, kwargs):
    pages = manifest(shared)
    args = ["text", "--manifest", str(shared / "corpus/pages.tsv"), "--format", "jsonl", *cli_args]
    cli = [json.loads(line) for line in run_cli(spinneret_bin, args).decode().split("\n")[:-1]]
    assert len(cli) == len(pages) > 2000
    mismatches = []
    for page, row in zip(pages, cli):
        # The manifest's reader trims its fields.
        url = page["url"].strip() or None
        d = spinneret.extract_text(page_bytes(shared, page["path"]), url, **kwargs)
        assert row["url"] == url
        want = {k: row[k] for k in d if k != "description"}
        want["language_confidence"] = f32(want["language_confidence"])
        got = {k: d[k] for k in want}
        got["language_confidence"] = f32(got["language_confidence"])
        if got != want:
            mismatches.append((page["path"], {k: (got[k], want[k]) for k in want if got[k] != want[k]}))
    assert mismatches[:3] == []


def cli_jsonl(binary, args):
    """The rows of `spinneret text --format jsonl` (exit code 1: damaged
    records were reported and skipped)."""
    import subprocess

    done = subprocess.run([binary, "text", "--format", "jsonl", *args], capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return [json.loads(line) for line in done.stdout.decode().split("\n")[:-1]], done.stderr.decode()


def rows_of(batches):
    return [r for b in batches for r in pa.record_batch(b).to_pylist()]


def same_rows(got, want, where):
    assert len(got) == len(want), where
    for i, (g, w) in enumerate(zip(got, want)):
        assert list(g) == FIELDS, where
        w = dict(w)
        assert set(w) == set(FIELDS), where
        w["language_confidence"] = f32(w["language_confidence"])
        assert g == w, f"{where}: row {i}: " + str({k: (g[k], w[k]) for k in FIELDS if g[k] != w[k]})


@pytest.fixture(scope="module")
def files(shared):
    return corpus_files(shared)


WARC_MODES = [
    (["--main-content"], {}),
    ([], {"main_content": False}),
    (["--markdown", "--links", "--any-status"], {"main_content": False, "format": "markdown", "links": True,
                                                 "any_status": True}),
]


@pytest.mark.parametrize("cli_args,kwargs", WARC_MODES, ids=["main-content", "whole-page", "markdown-any-status"])
def test_warc_text_rows_equal_the_cli_on_every_corpus_file(files, spinneret_bin, cli_args, kwargs):
    total = 0
    for path in files:
        want, _ = cli_jsonl(spinneret_bin, [*cli_args, str(path)])
        got = rows_of(spinneret.warc_text(str(path), batch_rows=100, **kwargs))
        same_rows(got, want, path.name)
        total += len(got)
    assert total > 100
    if kwargs.get("any_status"):
        return
    # Every row: an HTML page with a 2xx status or none, and text.
    assert all(r["status"] is None or 200 <= r["status"] < 300 for r in got)


def test_a_list_of_files_in_one_call_and_bad_records(files, spinneret_bin):
    paths = [str(p) for p in files]
    want, err = cli_jsonl(spinneret_bin, ["--main-content", *paths])
    batches = spinneret.warc_text(paths)
    got = pa.RecordBatchReader.from_stream(batches).read_all()
    assert got.schema.names == FIELDS
    same_rows(got.to_pylist(), want, "all files")
    again = spinneret.warc_text(paths)
    n = sum(len(b) for b in again)
    assert n == len(want) == again.pages and again.records > n
    assert again.bad_records > 0 and len(again.errors) == again.bad_records
    assert all(": " in e for e in again.errors)
    with pytest.raises(ValueError):
        list(spinneret.warc_text(paths, strict=True))


def test_cli_parquet_equals_warc_text(files, spinneret_bin, tmp_path):
    paths = [str(p) for p in files]
    out = tmp_path / "text.parquet"
    import subprocess

    done = subprocess.run([spinneret_bin, "text", "--main-content", "--format", "parquet", "-o", str(out), *paths],
                          capture_output=True, check=False)
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    from_cli = pq.read_table(out)
    from_python = pa.RecordBatchReader.from_stream(spinneret.warc_text(paths)).read_all()
    assert from_cli.schema.equals(from_python.schema)
    assert from_cli.equals(from_python)


# ------------------------------------------------------------ warc_text itself

def test_batches_are_bounded_by_rows_and_bytes(files):
    path = str(next(p for p in files if p.name == "iana.warc.gz"))
    whole = rows_of(spinneret.warc_text(path, main_content=False))
    assert len(whole) > 10
    by_rows = list(spinneret.warc_text(path, main_content=False, batch_rows=3))
    assert all(len(b) <= 3 for b in by_rows) and rows_of(by_rows) == whole
    by_bytes = list(spinneret.warc_text(path, main_content=False, batch_bytes=4000))
    assert len(by_bytes) > 3 and rows_of(by_bytes) == whole
    for b in by_bytes:
        t = pa.record_batch(b)
        size = sum(len(v.encode()) for c in t.columns if pa.types.is_string(c.type) for v in c.to_pylist() if v)
        # Full at 4000 bytes: the last row crossed the bound.
        last = sum(len(v.encode()) for c in t.columns if pa.types.is_string(c.type)
                   for v in [c[t.num_rows - 1].as_py()] if v)
        assert t.num_rows == 1 or size - last < 4000
    assert repr(by_rows[0]) == "TextBatch(num_rows=3)" and by_rows[0].num_rows == 3


def test_a_file_object_and_the_stream(files):
    path = next(p for p in files if p.name == "iana.warc.gz")
    want = rows_of(spinneret.warc_text(str(path)))
    with open(path, "rb") as f:
        got = rows_of(spinneret.warc_text(f))
    assert got == want and got
    with open(path, "rb") as f:
        data = f.read()
    streamed = rows_of(spinneret.warc_text(io.BytesIO(data)))
    assert [r["text"] for r in streamed] == [r["text"] for r in want]
    assert {r["file"] for r in streamed} == {"-"}
    batches = spinneret.warc_text(str(path))
    reader = pa.RecordBatchReader.from_stream(batches)
    assert reader.schema.names == FIELDS
    assert reader.read_all().to_pylist() == want
    assert list(batches) == []  # the stream took them


def test_rows_are_pages(files):
    path = str(next(p for p in files if p.name == "iana.warc.gz"))
    rows = rows_of(spinneret.warc_text(path))
    assert all(r["file"] == path and r["encoding"] and r["url"] and r["record_id"] for r in rows)
    assert all(r["text"] for r in rows[:5])
    r = rows[0]
    d = spinneret.extract_text(b"", None)
    assert set(d) - {"description"} <= set(FIELDS)
    assert r["language"] in (None, "eng") and r["date"].startswith("20")


def test_warc_text_bad_arguments(tmp_path):
    with pytest.raises(ValueError):
        spinneret.warc_text("x.warc", batch_rows=0)
    with pytest.raises(ValueError):
        spinneret.warc_text("x.warc", batch_bytes=0)
    with pytest.raises(ValueError, match="markdown"):
        spinneret.warc_text("x.warc", links=True)
    with pytest.raises(ValueError):
        list(spinneret.warc_text("/nonexistent/x.warc.gz"))
    f = open(tmp_path / "closed.warc", "wb")
    f.close()
    with pytest.raises(ValueError, match="closed"):
        spinneret.warc_text(f)
    # Noise is a damaged file: counted, no rows, no crash.
    noise = tmp_path / "noise.warc"
    noise.write_bytes(bytes(random.Random(1).randrange(256) for _ in range(5000)))
    b = spinneret.warc_text(str(noise))
    assert rows_of(b) == [] and b.bad_records >= 1
