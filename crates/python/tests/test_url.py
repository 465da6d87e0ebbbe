"""spinneret.URL and join_url against the WPT URL suite (every case of
urltestdata.json and setters_tests.json, read whole: no skip list)."""

import json
import pickle

import pytest

import spinneret
from spinneret import URL

ATTRIBUTES = ["href", "origin", "protocol", "username", "password", "host",
              "hostname", "port", "pathname", "search", "hash"]


def url_cases(shared):
    data = json.loads((shared / "testdata/wpt-url/urltestdata.json").read_text(encoding="utf-8"))
    return [c for c in data if isinstance(c, dict)]


def test_urltestdata_every_case(shared):
    cases = url_cases(shared)
    assert len(cases) > 800
    failures = []
    for case in cases:
        inp, base = case["input"], case.get("base")
        try:
            url = URL(inp, base)
        except ValueError as e:
            if not case.get("failure"):
                failures.append((inp, base, f"raised {e}"))
            elif URL.can_parse(inp, base):
                failures.append((inp, base, "can_parse is true"))
            continue
        if case.get("failure"):
            failures.append((inp, base, f"parsed to {url.href}"))
            continue
        if not URL.can_parse(inp, base):
            failures.append((inp, base, "can_parse is false"))
        for attr in ATTRIBUTES:
            if attr in case and getattr(url, attr) != case[attr]:
                failures.append((inp, base, f"{attr}: {getattr(url, attr)!r} != {case[attr]!r}"))
        # A URL as base gives what its href as base gives.
        if base is not None:
            assert URL(inp, URL(base)) == url
            assert spinneret.join_url(base, inp) == url.href
    assert failures == []


def test_setters_every_case(shared):
    data = json.loads((shared / "testdata/wpt-url/setters_tests.json").read_text(encoding="utf-8"))
    failures, n = [], 0
    for attr, cases in data.items():
        if attr == "comment":
            continue
        for case in cases:
            n += 1
            url = URL(case["href"])
            setattr(url, attr, case["new_value"])
            for k, want in case["expected"].items():
                if getattr(url, k) != want:
                    failures.append((attr, case["href"], case["new_value"], k, getattr(url, k), want))
    assert n > 200
    assert failures == []


def test_failure_names_the_standards_error():
    with pytest.raises(ValueError, match=r"^missing-scheme-non-relative-URL"):
        URL("no scheme")
    with pytest.raises(ValueError, match=r"^domain-invalid-code-point"):
        URL("https://a b/")
    url = URL("https://example.com/a")
    with pytest.raises(ValueError):
        url.href = "not a url"
    assert url.href == "https://example.com/a"


def test_equality_hashing_pickling():
    a, b = URL("HTTPS://Example.COM/./x"), URL("https://example.com/x")
    assert a == b and not (a != b) and hash(a) == hash(b)
    assert a != "https://example.com/x" and a != URL("https://example.com/y")
    assert len({a, b}) == 1
    assert str(a) == "https://example.com/x"
    assert repr(a) == "URL('https://example.com/x')"
    for proto in range(pickle.HIGHEST_PROTOCOL + 1):
        assert pickle.loads(pickle.dumps(a, protocol=proto)) == a


def _href_in_child(url):
    return url.href


def test_pickling_across_processes():
    import multiprocessing

    urls = [URL(f"https://example.com/{i}?q=é") for i in range(20)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        assert pool.map(_href_in_child, urls) == [u.href for u in urls]


def test_join_url():
    assert spinneret.join_url("https://e.com/a/b", "../c?d#e") == "https://e.com/c?d#e"
    assert spinneret.join_url("https://e.com/", "http://[::1") is None
    assert spinneret.join_url("not a base", "x") is None
    assert spinneret.join_url("mailto:x", "y") is None


def test_wrong_types_raise_type_error():
    for bad in (None, 1, b"https://e.com/", ["https://e.com/"]):
        with pytest.raises(TypeError):
            URL(bad)
    with pytest.raises(TypeError):
        URL("x", base=3)
    with pytest.raises(TypeError):
        URL("https://e.com/").pathname = 5
    with pytest.raises(TypeError):
        spinneret.join_url(None, "x")
    with pytest.raises(AttributeError):
        del URL("https://e.com/").href


def test_huge_and_odd_inputs():
    long = "https://e.com/" + "a" * (8 << 20)
    assert URL(long).pathname == "/" + "a" * (8 << 20)
    assert URL("https://e.com/\x00\ufffd").pathname == "/%00%EF%BF%BD"
    with pytest.raises(ValueError):  # a lone surrogate is not a string of scalar values
        URL("https://e.com/\ud800")
