"""The vectorized calls equal the per-URL calls, row by row, for Arrow
arrays of every string type, chunked arrays and Python lists."""

import pyarrow as pa
import pytest

import spinneret


@pytest.fixture(scope="module")
def urls(shared):
    text = (shared / "corpus/urls/ada_userbait.txt").read_text(encoding="utf-8", errors="replace")
    lines = [u for u in text.split("\n") if u]
    return lines + [None, "", "not a url", "http://[::1", "https://e.com/#!/route"]


def per_url(f, urls):
    out = []
    for u in urls:
        try:
            out.append(None if u is None else f(u))
        except ValueError:
            out.append(None)
    return out


def inputs(urls):
    yield urls
    yield pa.array(urls, pa.string())
    yield pa.array(urls, pa.large_string())
    yield pa.array(urls, pa.string_view())
    yield pa.chunked_array([urls[:100], urls[100:]], pa.string())


@pytest.mark.parametrize("profile", spinneret.profiles())
def test_canonicalize_array_equals_canonicalize(urls, profile):
    want = per_url(lambda u: spinneret.canonicalize(u, profile), urls)
    for column in inputs(urls):
        assert pa.array(spinneret.canonicalize_array(column, profile)).to_pylist() == want


def test_surt_and_join_arrays(urls):
    want = per_url(spinneret.surt, urls)
    base = "https://example.com/dir/page.html"
    joined = [spinneret.join_url(base, u) if u is not None else None for u in urls]
    for column in inputs(urls):
        assert pa.array(spinneret.surt_array(column)).to_pylist() == want
        assert pa.array(spinneret.join_url_array(base, column)).to_pylist() == joined


def test_rules_and_errors():
    got = pa.array(spinneret.canonicalize_array(["https://e.com/?b=1&a=2"], "safe", ["+sort-query"]))
    assert got.to_pylist() == [spinneret.canonicalize("https://e.com/?b=1&a=2", "safe", ["+sort-query"])]
    with pytest.raises(ValueError):
        spinneret.canonicalize_array(["x"], "nope")
    with pytest.raises(ValueError):
        spinneret.join_url_array("not a base", ["x"])
    with pytest.raises(TypeError):
        spinneret.surt_array(pa.array([1, 2, 3]))
    with pytest.raises(TypeError):
        spinneret.surt_array(42)
    assert pa.array(spinneret.surt_array([])).to_pylist() == []


def test_threads_share_nothing(urls):
    from concurrent.futures import ThreadPoolExecutor

    column = pa.array(urls)
    want = pa.array(spinneret.canonicalize_array(column, "aggressive")).to_pylist()
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda p: pa.array(spinneret.canonicalize_array(column, p)).to_pylist(),
                                ["aggressive", "safe"] * 4))
    assert results[0::2] == [want] * 4
