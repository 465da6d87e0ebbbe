"""spinneret.links against `spinneret links` on every page of the corpus
manifest, field by field; encodings; bad input."""

import csv
import gzip
import json

import pytest

import spinneret
from conftest import run_cli

FIELDS = ["source", "target", "error", "raw", "tag", "attr", "kind", "rel", "text"]


def manifest(shared):
    with open(shared / "corpus/pages.tsv", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


def page_bytes(shared, path):
    data = (shared / "corpus" / path).read_bytes()
    return gzip.decompress(data) if path.endswith(".gz") else data


def test_links_equal_the_cli_on_every_corpus_page(shared, spinneret_bin):
    pages = manifest(shared)
    assert len(pages) > 2000
    out = run_cli(spinneret_bin, ["links", "--manifest", str(shared / "corpus/pages.tsv"),
                                  "--dir", str(shared / "corpus")])
    cli = [json.loads(line) for line in out.decode().split("\n")[:-1]]
    mine = []
    for page in pages:
        try:
            got = spinneret.links(page_bytes(shared, page["path"]), page["url"])
        except ValueError:
            continue  # a page URL that is not a URL: the CLI skips the page too
        mine += [{k: getattr(link, k) for k in FIELDS} for link in got]
    assert len(mine) == len(cli)
    mismatches = [(a, {k: b[k] for k in FIELDS}) for a, b in zip(mine, cli) if a != {k: b[k] for k in FIELDS}]
    assert mismatches[:5] == []


def test_links_with_a_profile_equal_the_cli(shared, spinneret_bin, tmp_path):
    html = (b"<base href='HTTP://Example.COM/d/'><a href='x?utm_source=a&b=1#frag'>X</a>"
            b"<img srcset='i.png 1x, j.png 2x'><svg><a href=/s /></svg>")
    path = tmp_path / "p.html"
    path.write_bytes(html)
    for profile in spinneret.profiles():
        out = run_cli(spinneret_bin, ["links", "--html", str(path), "--url", "https://e.com/",
                                      "--profile", profile])
        cli = [json.loads(line) for line in out.decode().split("\n")[:-1]]
        got = spinneret.links(html, "https://e.com/", canon=profile)
        assert [{k: getattr(link, k) for k in FIELDS} for link in got] == \
               [{k: row[k] for k in FIELDS} for row in cli], profile


def test_link_fields():
    got = spinneret.links(
        b"<a href=' /a?q=\xe9 ' rel=NoFollow>Caf\xe9  au lait</a><a href='http://[x'>",
        "https://e.com/p", content_type="text/html; charset=windows-1252")
    a, bad = got
    assert (a.target, a.raw, a.tag, a.attr, a.kind, a.rel, a.text, a.record) == (
        "https://e.com/a?q=%E9", "/a?q=\u00e9", "a", "href", "hyperlink", "NoFollow", "Caf\u00e9 au lait", None)
    assert a.source == "https://e.com/p"
    assert (bad.target, bad.raw, bad.error) == (None, "http://[x", "IPv6-unclosed")
    assert a.as_dict()["text"] == "Caf\u00e9 au lait"
    assert a == spinneret.links(b"<a href=' /a?q=\xe9 ' rel=NoFollow>Caf\xe9  au lait</a>", "https://e.com/p",
                                content_type="text/html; charset=windows-1252")[0]
    assert "Link(target='https://e.com/a?q=%E9'" in repr(a)


def test_encoding_detection_and_decoding():
    assert spinneret.detect_encoding(b"\xef\xbb\xbfabc") == "UTF-8"
    assert spinneret.detect_encoding(b"<meta charset=koi8-r>") == "KOI8-R"
    assert spinneret.detect_encoding(b"abc", content_type="text/html; charset=Shift_JIS") == "Shift_JIS"
    # The crawler policy trusts valid UTF-8 over a stale <meta>; a browser does not.
    page = "<meta charset=iso-8859-1>caf\u00e9".encode()
    assert spinneret.detect_encoding(page) == "UTF-8"
    assert spinneret.detect_encoding(page, policy="browser") == "windows-1252"
    assert spinneret.decode(b"caf\xe9") == "caf\u00e9"
    assert spinneret.decode(b"a\xffb", content_type="text/html; charset=utf-8") == "a\ufffdb"
    assert spinneret.decode(b"\xff\xfea\x00") == "a"  # a UTF-16LE BOM wins
    with pytest.raises(ValueError, match="policies"):
        spinneret.decode(b"", policy="nope")


def test_bad_inputs():
    with pytest.raises(TypeError):
        spinneret.links("a str, not bytes", "https://e.com/")
    with pytest.raises(TypeError):
        spinneret.links(b"", None)
    with pytest.raises(ValueError):
        spinneret.links(b"<a href=x>", "not a url")
    with pytest.raises(ValueError):
        spinneret.links(b"<a href=x>", "https://e.com/", canon="nope")
    with pytest.raises(TypeError):
        spinneret.decode(None)
    # Any bytes: no crash, links of whatever parses.
    noise = bytes(range(256)) * 64 + b"<a href=ok>" + b"\x00<\xff" * 1000
    assert any(link.raw == "ok" for link in spinneret.links(noise, "https://e.com/"))
    assert spinneret.links(b"", "https://e.com/") == []
    # A huge page with many links.
    many = b"<a href=/p>x</a>" * 200_000
    assert len(spinneret.links(many, "https://e.com/")) == 200_000
