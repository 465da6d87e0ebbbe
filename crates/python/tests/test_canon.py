"""canonicalize, surt and registrable_domain against `spinneret canon` on
every URL of the corpus's URL lists, for every built-in profile."""

import pytest

import spinneret
from conftest import run_cli

LISTS = ["absolute_links.txt", "ada_isaacs_files.txt", "ada_kasztp.txt",
         "ada_node_files.txt", "ada_userbait.txt", "page_urls.txt"]


def cli_rows(binary, profile, lines, rules=()):
    args = ["canon", "--profile", profile]
    for r in rules:
        args += ["--rule", r]
    out = run_cli(binary, args, "\n".join(lines).encode() + b"\n")
    return [r.split("\t") for r in out.decode().split("\n")[:-1]]


def unescape(field):
    # `spinneret canon` TSV-escapes fields; the corpus URLs hold no tab,
    # newline or backslash escapes that this would confuse.
    return field.replace("\\t", "\t").replace("\\n", "\n").replace("\\r", "\r").replace("\\\\", "\\")


@pytest.fixture(scope="module")
def urls(shared):
    lines = []
    for name in LISTS:
        text = (shared / "corpus/urls" / name).read_text(encoding="utf-8", errors="replace")
        lines += [line for line in text.split("\n") if line and "\\" not in line and "\t" not in line and "\r" not in line]
    assert len(lines) > 200_000
    return lines


@pytest.mark.parametrize("profile", spinneret.profiles())
def test_canonicalize_equals_the_cli(spinneret_bin, urls, profile):
    rows = cli_rows(spinneret_bin, profile, urls)
    assert len(rows) == len(urls)
    mismatches = []
    for url, (_, canonical, _) in zip(urls, rows):
        try:
            got = spinneret.canonicalize(url, profile)
        except ValueError:
            got = ""
        if got != unescape(canonical):
            mismatches.append((url, got, canonical))
    assert mismatches[:10] == []


def test_surt_equals_the_cli(spinneret_bin, urls):
    rows = cli_rows(spinneret_bin, "whatwg", urls)
    mismatches = [(u, spinneret.surt(u), s) for u, (_, _, s) in zip(urls, rows) if spinneret.surt(u) != unescape(s)]
    assert mismatches[:10] == []


def test_rule_edits_equal_the_cli(spinneret_bin, urls):
    rules = ["+remove-tracking-params", "+sort-query", "-drop-anchor"]
    sample = urls[::50]
    rows = cli_rows(spinneret_bin, "safe", sample, rules)
    for url, (_, canonical, _) in zip(sample, rows):
        try:
            got = spinneret.canonicalize(url, "safe", rules)
        except ValueError:
            got = ""
        assert got == unescape(canonical), url


def test_bad_profile_or_rule_is_a_value_error():
    with pytest.raises(ValueError, match="profiles: "):
        spinneret.canonicalize("https://e.com/", "nope")
    with pytest.raises(ValueError):
        spinneret.canonicalize("https://e.com/", "safe", ["+no-such-rule"])
    with pytest.raises(ValueError):
        spinneret.canonicalize("not a url")
    with pytest.raises(TypeError):
        spinneret.canonicalize(None)
    names = [name for name, _ in spinneret.rules()]
    assert "drop-fragment" in names and "sort-query" in names


def test_hash_bang_routes_stay_distinct_in_safe():
    a = spinneret.canonicalize("https://e.com/#!/a")
    b = spinneret.canonicalize("https://e.com/#!/b")
    assert a != b


def test_registrable_domain():
    assert spinneret.registrable_domain("https://a.b.example.co.uk/x") == "example.co.uk"
    assert spinneret.registrable_domain("https://whatwg.github.io/") == "whatwg.github.io"
    assert spinneret.registrable_domain("https://co.uk/") is None
    assert spinneret.registrable_domain("https://127.0.0.1/") is None
    assert spinneret.registrable_domain("not a url") is None
