"""`spinneret index` against the indexes pywb's tools write.

1. cdxj-indexer (pywb's indexer, PyPI) over every corpus WARC/ARC file:
   `cdxj-indexer -s FILE` equals `spinneret index --no-post-append FILE`
   line for line, so does `--records all` on both sides (requests,
   warcinfo records and ARC `filedesc` headers too), and `cdxj-indexer
   -s -p FILE` equals `spinneret index FILE` where requests are joined,
   except for the differences named in
   DIFFERENCES below, each recognised line by line by its own rule (so
   an unexplained difference fails) and each expected where it occurs (so
   a difference that disappears fails too).
2. pywb's own expected indexes (../shared/corpus/warc/cdx/pywb, the CDX
   and CDXJ files pywb's test suite checks its older indexer against):
   equal to ours once the conventions that changed since are mapped (see
   `pywb_normal`).
"""

import json
import pathlib
import subprocess
import sys

import pytest

EMPTY_SHA1 = "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"


def corpus_files(shared: pathlib.Path) -> list[pathlib.Path]:
    root = shared / "corpus" / "warc"
    return sorted(
        p for p in root.rglob("*") if p.is_file() and p.name.endswith((".warc", ".warc.gz", ".arc", ".arc.gz"))
    )


def spinneret_index(binary: str, args: list[str]) -> list[str]:
    done = subprocess.run([binary, "index", *args], capture_output=True, check=False)
    # Exit code 1: a damaged record was reported (and skipped).
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    return done.stdout.decode().splitlines()


def cdxj_indexer(args: list[str]) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "cdxj_indexer.main", *args], capture_output=True, check=True
    )
    return done.stdout.decode().splitlines()


def split(line: str) -> tuple[str, str, dict]:
    key, ts, body = line.split(" ", 2)
    return key, ts, json.loads(body)


# Each difference: (rule, reason). A rule gets cdxj-indexer's line and ours
# (either may be None: a line only one side has) and says whether this
# difference explains them.
def _only_digest(theirs, ours) -> bool:
    if theirs is None or ours is None:
        return False
    t, o = split(theirs), split(ours)
    return (
        t[2].get("digest") == EMPTY_SHA1
        and o[2].get("digest") != EMPTY_SHA1
        and {k: v for k, v in t[2].items() if k != "digest"} == {k: v for k, v in o[2].items() if k != "digest"}
    )


def _http_head_of_other_scheme(theirs, ours) -> bool:
    if theirs is None or ours is None:
        return False
    t, o = split(theirs), split(ours)
    extra = {k: v for k, v in o[2].items() if k not in t[2]}
    return (
        not t[2].get("url", "").startswith(("http:", "https:"))
        and set(extra) <= {"mime", "status"}
        and bool(extra)
        and {k: v for k, v in o[2].items() if k in t[2]} == t[2]
    )


def _not_http_status_line(theirs, ours) -> bool:
    if theirs is None or ours is None:
        return False
    t, o = split(theirs), split(ours)
    missing = {k for k in t[2] if k not in o[2]}
    return missing == {"mime", "status"} and {k: v for k, v in t[2].items() if k in o[2]} == o[2]


def _key_case(theirs, ours) -> bool:
    if theirs is None or ours is None:
        return False
    t, o = split(theirs), split(ours)
    return t[0] != o[0] and t[0] == o[0].lower() and t[1:] == o[1:] and ":" in o[0].split(")")[0]


def _damaged_member(theirs, ours) -> bool:
    return ours is None and theirs is not None


def _filedesc_length(theirs, ours) -> bool:
    if theirs is None or ours is None:
        return False
    t, o = split(theirs), split(ours)
    rest = lambda d: {k: v for k, v in d.items() if k != "length"}
    return (
        t[0] == o[0] == "-"
        and t[1] == o[1]
        and rest(t[2]) == rest(o[2])
        and int(t[2]["length"]) == int(o[2]["length"]) + 1
        and o[2]["filename"].endswith(".arc")
    )


DIFFERENCES = {
    "empty-digest": (
        _only_digest,
        "cdxj-indexer computes the missing payload digest of an ARC record without an HTTP head "
        "over an already-read stream (the SHA-1 of nothing); spinneret hashes the record's payload",
    ),
    "http-head-of-other-scheme": (
        _http_head_of_other_scheme,
        "warcio parses the HTTP head of a response only when its target URI is http(s) "
        "(recordloader's HTTP_SCHEMES); these file:/// records are application/http responses "
        "and spinneret indexes their status and media type",
    ),
    "not-http-status-line": (
        _not_http_status_line,
        "the record's status line is `HTTPX/1.1 200 OK` (pywb's own test of a bad protocol); "
        "warcio takes any first token as the protocol, spinneret reads no HTTP head there",
    ),
    "key-case": (
        _key_case,
        "a URL without an authority (urn:X-wpull:log): the surt package lower-cases it, "
        "spinneret-canon keeps it as written (a documented difference of its SURT port)",
    ),
    "damaged-member": (
        _damaged_member,
        "the record is damaged — its gzip member cut short (the file is truncated), or its "
        "declared length not ending at a record boundary (an ARC header's length -1): "
        "cdxj-indexer indexes the part it could read; spinneret reports the damage and writes "
        "no line for it",
    ),
    "filedesc-length": (
        _filedesc_length,
        "a plain ARC file's filedesc header followed by two line feeds (its declared length "
        "leaves out its last one): warcio's length takes one of them in, spinneret's ends where "
        "the declared length does, as for every record",
    ),
}

# Where each difference is expected (file name → difference names).
EXPECTED = {
    "bad.arc": {"empty-digest"},
    "example.com.warc": {"http-head-of-other-scheme"},
    "example-extra.warc": {"not-http-status-line"},
    "example-wpull.warc.gz": {"key-case"},
    "clipped.warc.gz": {"damaged-member"},
}

# With `--records all`: the requests of pywb's example.warc include one
# whose length is damaged, bad.arc's filedesc header declares length -1,
# and example.arc's is followed by an extra line feed.
EXPECTED_ALL = {
    **EXPECTED,
    "bad.arc": {"empty-digest", "damaged-member"},
    "example.warc": {"damaged-member"},
    "example.arc": {"filedesc-length"},
}


def explain(theirs: list[str], ours: list[str]) -> set[str]:
    """The differences between two sorted indexes, each named by its rule."""
    only_t = [l for l in theirs if l not in set(ours)]
    only_o = [l for l in ours if l not in set(theirs)]
    # Pair lines by URL and timestamp.
    def ident(line):
        _, ts, body = split(line)
        return (body.get("url"), ts, body.get("offset"))

    by_id = {ident(l): l for l in only_o}
    names = set()
    for t in only_t:
        o = by_id.pop(ident(t), None)
        name = next((n for n, (rule, _) in DIFFERENCES.items() if rule(t, o)), None)
        assert name is not None, f"unexplained difference:\n  cdxj-indexer: {t}\n  spinneret:    {o}"
        names.add(name)
    for o in by_id.values():
        name = next((n for n, (rule, _) in DIFFERENCES.items() if rule(None, o)), None)
        assert name is not None, f"unexplained line of spinneret's alone: {o}"
        names.add(name)
    return names


def test_every_corpus_file_as_cdxj_indexer(shared, spinneret_bin):
    seen = {}
    for path in corpus_files(shared):
        theirs = cdxj_indexer(["-s", str(path)])
        ours = spinneret_index(spinneret_bin, ["--no-post-append", str(path)])
        names = explain(theirs, ours)
        if names:
            seen[path.name] = names
        assert names == EXPECTED.get(path.name, set()), (path.name, names)
    assert seen == EXPECTED


def test_every_record_of_every_corpus_file_as_cdxj_indexer(shared, spinneret_bin):
    seen = {}
    keyless = 0
    for path in corpus_files(shared):
        theirs = cdxj_indexer(["-s", "--records", "all", str(path)])
        ours = spinneret_index(spinneret_bin, ["--no-post-append", "--records", "all", str(path)])
        names = explain(theirs, ours)
        if names:
            seen[path.name] = names
        assert names == EXPECTED_ALL.get(path.name, set()), (path.name, names)
        keyless += sum(1 for l in ours if l.startswith("- "))
    assert seen == EXPECTED_ALL
    # Every warcinfo record and ARC filedesc header but bad.arc's (damaged):
    # keyed `-`, without a url.
    assert keyless >= 25, keyless


def test_posts_are_folded_into_the_key_as_cdxj_indexer_folds_them(shared, spinneret_bin):
    path = shared / "corpus" / "warc" / "pywb" / "post-test.warc.gz"
    theirs = cdxj_indexer(["-s", "-p", str(path)])
    ours = spinneret_index(spinneret_bin, [str(path)])
    assert ours == theirs
    assert all("__wb_method=post" in l.split(" ")[0] for l in ours)
    assert len({l.split(" ")[0] for l in ours}) == 3


def pywb_normal(line: str, cdxj: bool) -> str:
    """A line of pywb's expected indexes or ours, in the conventions both
    share: pywb's older indexer wrote digests without their `sha1:`, `unk`
    for a missing media type, no status for a revisit (cdxj-indexer and
    spinneret write the revisit's own HTTP status), and no `requestBody`
    and `method` for a POST. CDXJ lines come back with their keys sorted."""
    if cdxj:
        key, ts, body = line.split(" ", 2)
        d = json.loads(body)
        if d.get("digest", "").startswith("sha1:"):
            d["digest"] = d["digest"][5:]
        for k in ("requestBody", "method"):
            d.pop(k, None)
        if d.get("mime") == "warc/revisit":
            d.pop("status", None)
        if d.get("mime") == "unk":
            d.pop("mime")
        return f"{key} {ts} " + json.dumps(dict(sorted(d.items())))
    f = line.split(" ")
    if len(f) == 11:
        if f[3] == "warc/revisit":
            f[4] = "-"
        if f[3] == "unk":
            f[3] = "-"
    return " ".join(f)


PYWB_CASES = [
    ("cdx__example.cdx", ["example.warc.gz"], "cdx11"),
    ("cdx__iana.cdx", ["iana.warc.gz"], "cdx11"),
    ("cdx__dupes.cdx", ["dupes.warc.gz"], "cdx11"),
    ("cdx__post-test.cdx", ["post-test.warc.gz"], "cdx11"),
    ("cdx__url-agnost-example.cdx", ["example-url-agnostic-orig.warc.gz", "example-url-agnostic-revisit.warc.gz"], "cdx11"),
    ("cdxj__example.cdxj", ["example.warc.gz"], "cdxj"),
    ("cdxj__example2.cdxj", ["example2.warc.gz"], "cdxj"),
    ("cdxj__iana.cdxj", ["iana.warc.gz"], "cdxj"),
    ("cdxj__dupes.cdxj", ["dupes.warc.gz"], "cdxj"),
    ("cdxj__post-test.cdxj", ["post-test.warc.gz"], "cdxj"),
    ("cdxj__url-agnost-example.cdxj", ["example-url-agnostic-orig.warc.gz", "example-url-agnostic-revisit.warc.gz"], "cdxj"),
    ("cdx__httpbin-resource.cdxj", ["httpbin-resource.warc.gz"], "cdxj"),
    ("cdx__missing-status-text.cdxj", ["missing-status-text.warc"], "cdxj"),
]


@pytest.mark.parametrize("expected,inputs,fmt", PYWB_CASES, ids=[c[0] for c in PYWB_CASES])
def test_pywb_expected_indexes(shared, spinneret_bin, expected, inputs, fmt):
    cdx = shared / "corpus" / "warc" / "cdx" / "pywb" / expected
    warcs = [str(shared / "corpus" / "warc" / "pywb" / i) for i in inputs]
    ours = spinneret_index(spinneret_bin, ["--format", fmt, *warcs])
    want = cdx.read_text().splitlines()
    if fmt == "cdx11":
        assert sorted(pywb_normal(l, False) for l in ours) == sorted(pywb_normal(l, False) for l in want)
        return
    # pywb's CDXJ fixtures are partly written by hand with fewer fields
    # (cdxj__example.cdxj has no mime or status): each of our lines has
    # every field its expected line has, with the same value.
    def parsed(lines):
        out = {}
        for l in lines:
            key, ts, body = pywb_normal(l, True).split(" ", 2)
            d = json.loads(body)
            out[(key, ts, d["offset"])] = d
        return out

    got, expect = parsed(ours), parsed(want)
    assert got.keys() == expect.keys()
    for k, d in expect.items():
        assert {f: got[k].get(f) for f in d} == d, k
