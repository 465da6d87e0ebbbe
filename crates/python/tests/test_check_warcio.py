"""`spinneret check` against `warcio check` (warcio's Checker, the PyPI
package) over every WARC/ARC file of the corpus: the same verdict per file
(exit code 0 or 1), and the same records with a failing digest, or the
difference named in DIFFERENCES with its reason, which the test checks.

What each tool checks: warcio verifies WARC-Block-Digest and
WARC-Payload-Digest (not of revisits) and fails a file whose digests fail
or that it cannot parse; spinneret also verifies framing (Content-Length
against the record, one record per gzip member, complete gzip members),
mandatory fields, HTTP heads and revisits, and fails a file on errors
only (its warnings, such as a WARC-Record-ID used twice, do not fail it).
"""

import argparse
import contextlib
import io
import json
import re
import subprocess

import pytest

from warcio.checker import Checker

SUFFIXES = (".warc", ".warc.gz", ".arc", ".arc.gz", ".warc.zst")

# file: (the tool that fails it, what spinneret reports, why they differ)
DIFFERENCES = {
    "pywb/bad.arc": (
        "spinneret",
        "bad-boundary",
        "its ARC records declare lengths -1 and `abc` (pywb's test of a bad "
        "file); warcio check verifies digests only, and ARC records have none",
    ),
    "pywb/example.warc": (
        "spinneret",
        "bad-boundary",
        "the request at offset 4061 declares a Content-Length 3 bytes short of "
        "its record; warcio only warns on stderr (`Record not followed by "
        "newline`) and exits 0",
    ),
    "resiliparse/clipped.warc.gz": (
        "spinneret",
        "corrupt-member",
        "the file ends inside its only gzip member (`gzip -t` fails too); warcio "
        "stops reading silently and says the record's digest is `present but "
        "not checked`",
    ),
    "warcbench/example.com.warc": (
        "warcio",
        None,
        "Scoop's screenshot and attachment records have `file:///` targets and "
        "hold HTTP messages (Content-Type application/http); warcio looks for "
        "an HTTP head only under http(s) targets, so it hashes the whole block "
        "as the payload and fails; spinneret follows the Content-Type, and "
        "their payload digests verify",
    ),
}


def corpus_files(shared):
    root = shared / "corpus" / "warc"
    files = sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.name.endswith(SUFFIXES) and "cdx" not in p.relative_to(root).parts
    )
    return root, files


def warcio_check(path):
    """warcio's exit value, its report (stdout) and warnings (stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = Checker(argparse.Namespace(inputs=[str(path)], verbose=True)).process_all()
    return code, out.getvalue(), err.getvalue()


def warcio_failed_offsets(report):
    """Offsets of the records whose digest warcio reports failed."""
    failed, offset = set(), None
    for line in report.splitlines():
        m = re.match(r"\s+offset (\d+) ", line)
        if m:
            offset = int(m.group(1))
        elif "digest failed" in line and offset is not None:
            failed.add(offset)
    return failed


def spinneret_check(binary, path):
    done = subprocess.run(
        [binary, "check", "--format", "jsonl", str(path)],
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr.decode(errors="replace")
    problems = [json.loads(line) for line in done.stdout.decode().splitlines()]
    return done.returncode, problems, done.stderr.decode(errors="replace")


def test_same_verdicts_as_warcio_check(shared, spinneret_bin):
    root, files = corpus_files(shared)
    assert len(files) >= 30, f"only {len(files)} corpus files"
    seen_differences = set()
    for path in files:
        name = path.relative_to(root).as_posix()
        w_code, w_report, w_warnings = warcio_check(path)
        s_code, problems, summary = spinneret_check(spinneret_bin, path)
        ours_failed = {
            p["offset"] for p in problems if p["kind"] in ("block-digest-mismatch", "payload-digest-mismatch")
        }
        errors = {p["kind"] for p in problems if p["severity"] == "error"}
        if name not in DIFFERENCES:
            assert s_code == w_code, f"{name}: spinneret {s_code}, warcio {w_code}\n{problems}\n{w_report}"
            assert ours_failed == warcio_failed_offsets(w_report), name
            continue
        seen_differences.add(name)
        fails, kind, why = DIFFERENCES[name]
        if fails == "spinneret":
            assert (s_code, w_code) == (1, 0), f"{name}: {why}"
            assert kind in errors, f"{name}: {problems}"
            assert not warcio_failed_offsets(w_report), name
        else:
            assert (s_code, w_code) == (0, 1), f"{name}: {why}"
            assert not ours_failed, name
        # The reason itself.
        if name == "pywb/example.warc":
            assert "Record not followed by newline" in w_warnings
            assert [p["offset"] for p in problems if p["kind"] == kind] == [4061]
        if name == "resiliparse/clipped.warc.gz":
            assert "digest present but not checked" in w_report
        if name == "warcbench/example.com.warc":
            targets = file_targets(path)
            failed = warcio_failed_offsets(w_report)
            assert failed and failed <= targets, (failed, targets)
            assert "payload digests: 8 verified, 0 failed" in summary, summary
    assert seen_differences == set(DIFFERENCES), "a difference names a file not in the corpus"


def file_targets(path):
    """Offsets of the records of a plain WARC whose target is a file: URI."""
    data = path.read_bytes()
    offsets = set()
    for m in re.finditer(rb"WARC/1\.[01]\r\n", data):
        head_end = data.find(b"\r\n\r\n", m.start())
        head = data[m.start() : head_end]
        if re.search(rb"\r\nWARC-Target-URI: <?file:", head):
            offsets.add(m.start())
    return offsets


@pytest.mark.parametrize("damage", ["flip", "cut", "shared"])
def test_warcio_agrees_on_damaged_copies(shared, spinneret_bin, tmp_path, damage):
    """A flipped payload bit fails both tools on digests; two records in one
    gzip member fail both (warcio: `non-chunked gzip file detected`); a cut
    gzip member fails spinneret (corrupt member), while warcio reads the
    records before the cut and misses it: its known blind spot, as in
    clipped.warc.gz."""
    import gzip
    import zlib

    data = (shared / "corpus" / "warc" / "pywb" / "example-wpull.warc.gz").read_bytes()
    members, rest = [], data
    while rest:
        d = zlib.decompressobj(31)
        plain = d.decompress(rest)
        used = len(rest) - len(d.unused_data)
        members.append((rest[:used], plain))
        rest = d.unused_data
    response = members[2][1]
    if damage == "flip":
        body = response.index(b"\r\n\r\n", response.index(b"\r\n\r\n") + 4) + 4
        changed = bytearray(response)
        changed[body + 10] ^= 0x04
        third = gzip.compress(bytes(changed))
        out = members[0][0] + members[1][0] + third + members[3][0]
    elif damage == "shared":
        out = members[0][0] + gzip.compress(members[1][1] + members[2][1]) + members[3][0]
    else:
        out = members[0][0] + members[1][0] + members[2][0][: len(members[2][0]) // 2]
    path = tmp_path / f"{damage}.warc.gz"
    path.write_bytes(out)
    w_code, w_report, _ = warcio_check(path)
    s_code, problems, _ = spinneret_check(spinneret_bin, path)
    kinds = [p["kind"] for p in problems]
    assert s_code == 1
    if damage == "flip":
        assert w_code == 1 and "digest failed" in w_report
        assert kinds == ["block-digest-mismatch", "payload-digest-mismatch"]
    elif damage == "shared":
        assert w_code == 1 and "non-chunked gzip file detected" in w_report
        assert kinds == ["shared-member"]
    else:
        assert kinds == ["corrupt-member"]
        assert w_code == 0, "warcio now catches a cut member: update the docstring"
