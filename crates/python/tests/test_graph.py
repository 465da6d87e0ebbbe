"""`spinneret graph` against an independent reference built here, following
cc-pyspark's `ExtractHostLinksJob` and `hostlinks_to_graph.py` step by step
on the corpus WARCs — without `urlparse`: each URL is one the CLI already
resolved (`spinneret links`' targets, `spinneret canon --profile whatwg`'s
serializations of the records' URIs), so the reference and the graph see
the same browser-resolved hosts, and what is compared is everything after:
which records give pairs, host naming (`get_surt_host`), numbering,
sorting, self-loops.

The records are read with warcio (response and resource records, ARC's
too): every page's host is a vertex; its links' hosts (`spinneret links`:
every kind, headers' Location and Link included), its `Content-Location`
headers and, for a robots.txt fetched with status 200, its `Sitemap:`
lines give edges. Host names are kept whatever their TLD (`--any-tld`):
the IANA check needs a TLD list, which the Rust tests cover.

Where the browser's parse differs from `urlparse` (not exercised here:
both sides use the browser's), spinneret's host stands — by design.
"""

import gzip
import json
import re
import subprocess

import pytest
from warcio.archiveiterator import ArchiveIterator

from conftest import FILES, run_cli

# cc-pyspark counts a link's host only when its scheme is 2-6 letters and
# digits (`^(?:[a-z][a-z0-9]{1,5}:)?//`): not `android-app://`'s app ids.
HOST_OF_HREF = re.compile(r"^[a-z][a-z0-9]{1,5}://(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)")
IP = re.compile(r"^(?:www\.)?\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\Z")
LABEL = re.compile(r"^[a-z0-9]([a-z0-9_-]{0,61}[a-z0-9])?\Z", re.IGNORECASE | re.ASCII)


def get_surt_host(host, strip_www=False):
    """cc-pyspark's get_surt_host on a host the browser found (already
    lower case, IDNA-encoded)."""
    host = host.strip().lower()
    if len(host) < 1 or len(host) > 253 or IP.match(host):
        return None
    parts = host.split(".")
    if parts[-1] == "":
        parts = parts[:-1]
    if len(parts) <= 1:
        return None
    if strip_www and len(parts) > 2 and parts[0] == "www":
        parts = parts[1:]
    for part in parts:
        if len(part) > 63 or not LABEL.match(part):
            return None
    return ".".join(reversed(parts))


def host_of(href):
    m = HOST_OF_HREF.match(href or "")
    return get_surt_host(m.group(1)) if m and m.group(1) else None


def records(path):
    """(uri, status, content-locations, body) of each response and resource
    record."""
    with open(path, "rb") as f:
        for rec in ArchiveIterator(f, arc2warc=True):
            if rec.rec_type not in ("response", "resource"):
                continue
            uri = rec.rec_headers.get_header("WARC-Target-URI")
            status = None
            locations = []
            if rec.http_headers is not None:
                code = rec.http_headers.get_statuscode()
                status = int(code) if code and code.isdigit() else None
                locations = [v for k, v in rec.http_headers.headers if k.lower() == "content-location"]
            yield uri, status, locations, rec.content_stream().read()


def whatwg(binary, urls):
    """Each URL as the browser serializes it ('' when not a URL)."""
    out = run_cli(binary, ["canon", "--profile", "whatwg"], "\n".join(urls).encode() + b"\n")
    lines = out.decode().split("\n")[: len(urls)]
    return [line.split("\t")[1] if "\t" in line else "" for line in lines]


def reference(binary, paths):
    pages = [r for p in paths for r in records(p)]
    hrefs = whatwg(binary, [(uri or "").strip() for uri, *_ in pages])
    pairs = set()
    for (uri, status, locations, body), href in zip(pages, hrefs):
        src = host_of(href)
        if src is None:
            continue
        pairs.add((src, src))
        extra = [v.strip() for v in locations]
        path = re.sub(r"^[a-z][a-z0-9+.\-]*://[^/?#]*", "", href)
        if status == 200 and re.match(r"^/robots\.txt(?:[?#]|$)", path):
            for line in body.split(b"\n"):
                m = re.match(rb"^\s*sitemap\s*:\s*(\S+)", line, re.IGNORECASE)
                if m:
                    extra.append(m.group(1).decode("utf-8", "replace"))
        for url in extra:
            if url.startswith("//"):
                url = href.split(":", 1)[0] + ":" + url
            if "://" in url:
                (resolved,) = whatwg(binary, [url])
                t = host_of(resolved)
                if t is not None:
                    pairs.add((src, t))
            # else: relative, on the page's own host
    out = run_cli(binary, ["links", "--format", "jsonl", *map(str, paths)])
    for line in out.decode().split("\n"):
        if not line:
            continue
        row = json.loads(line)
        src, t = host_of(row["source"]), host_of(row.get("target"))
        if src is not None and t is not None:
            pairs.add((src, t))
    names = sorted({n for pair in pairs for n in pair}, key=lambda n: n.encode())
    ids = {n: i for i, n in enumerate(names)}
    edges = sorted({(ids[s], ids[t]) for s, t in pairs if s != t})
    return [f"{i}\t{n}" for i, n in enumerate(names)], [f"{a}\t{b}" for a, b in edges]


def lines(path):
    return gzip.decompress(path.read_bytes()).decode().split("\n")[:-1]


@pytest.fixture(scope="module")
def warcs(shared, spinneret_bin, tmp_path_factory):
    """The corpus files both readers read whole: a damaged record (a
    clipped gzip member, a record without an HTTP status line) is reported
    and skipped by spinneret, while warcio may read what it can of it."""
    paths = [shared / "corpus/warc" / f for f in FILES]
    intact = []
    for p in paths:
        try:
            list(records(p))
        except Exception:  # warcio cannot read it: no reference
            continue
        out = tmp_path_factory.mktemp("one")
        done = subprocess.run([spinneret_bin, "graph", "-o", str(out), str(p)], capture_output=True)
        if done.returncode == 0 and b"bad record" not in done.stderr:
            intact.append(p)
    assert len(intact) >= 6, intact
    return intact


def test_host_graph_equals_the_reference_on_the_corpus(spinneret_bin, warcs, tmp_path):
    run_cli(spinneret_bin, ["graph", "--any-tld", "-o", str(tmp_path), *map(str, warcs)])
    vertices, edges = reference(spinneret_bin, warcs)
    assert len(vertices) > 300 and len(edges) > 300
    assert lines(tmp_path / "host/vertices.txt.gz") == vertices
    assert lines(tmp_path / "host/edges.txt.gz") == edges


def test_the_graph_does_not_depend_on_threads_or_memory(spinneret_bin, warcs, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    run_cli(spinneret_bin, ["graph", "--domain", "--threads", "1", "-o", str(a), *map(str, warcs)])
    run_cli(spinneret_bin, ["graph", "--domain", "--threads", "2", "--batch", "3",
                            "--memory", "64K", "-o", str(b), *map(str, warcs)])
    for f in ["host/vertices.txt.gz", "host/edges.txt.gz", "domain/vertices.txt.gz", "domain/edges.txt.gz"]:
        assert lines(a / f) == lines(b / f), f
    for level in ["host", "domain"]:
        for f in ["graph.graph", "graph.offsets", "graph-t.graph", "graph-t.offsets"]:
            assert (a / level / f).read_bytes() == (b / level / f).read_bytes(), (level, f)
    # IANA's TLDs only, by default: no vertex of the --any-tld run is lost
    # but those of undelegated TLDs.
    hosts = [line.split("\t")[1] for line in lines(a / "host/vertices.txt.gz")]
    assert hosts == sorted(hosts, key=lambda n: n.encode()) and len(set(hosts)) == len(hosts)
    domains = [line.split("\t") for line in lines(a / "domain/vertices.txt.gz")]
    assert [int(d[0]) for d in domains] == list(range(len(domains)))
    assert sum(int(d[2]) for d in domains) <= len(hosts)


def test_pairs_files_build_the_same_graph(spinneret_bin, warcs, tmp_path):
    """The one-machine half of Common Crawl's split: host pairs (what its
    Spark step writes) in, the same graph out."""
    run_cli(spinneret_bin, ["graph", "-o", str(tmp_path / "w"), *map(str, warcs)])
    hosts = {line.split("\t")[0]: line.split("\t")[1] for line in lines(tmp_path / "w/host/vertices.txt.gz")}
    pairs = [f"{hosts[a]}\t{hosts[b]}" for a, b in (e.split("\t") for e in lines(tmp_path / "w/host/edges.txt.gz"))]
    pairs += [f"{h}\t{h}" for h in hosts.values()]
    pairs_file = tmp_path / "pairs.tsv.gz"
    pairs_file.write_bytes(gzip.compress(("\n".join(reversed(pairs)) + "\n").encode()))
    run_cli(spinneret_bin, ["graph", "--pairs", str(pairs_file), "-o", str(tmp_path / "p")])
    # `--edges` is the same flag (the name for this half).
    run_cli(spinneret_bin, ["graph", "--no-ranks", "--edges", str(pairs_file), "-o", str(tmp_path / "e")])
    for f in ["host/vertices.txt.gz", "host/edges.txt.gz"]:
        assert lines(tmp_path / "w" / f) == lines(tmp_path / "p" / f), f
        assert lines(tmp_path / "e" / f) == lines(tmp_path / "p" / f), f
    # The same pairs as Parquet, as cc-pyspark's step writes them (columns
    # s and t, zstd), plus a row that is not a host name (reported, skipped).
    import pyarrow as pa
    import pyarrow.parquet as pq

    s, t = zip(*(p.split("\t") for p in pairs))
    table = pa.table({"s": list(s) + ["com.Example"], "t": list(t) + ["com.example"]})
    parquet_file = tmp_path / "pairs.parquet"
    pq.write_table(table, parquet_file, compression="zstd")
    done = subprocess.run([spinneret_bin, "graph", "--no-ranks", "--pairs", str(parquet_file), "-o", str(tmp_path / "q")],
                          capture_output=True)
    assert done.returncode == 0, done.stderr
    assert f"{parquet_file}: row {len(pairs) + 1}".encode() in done.stderr
    for f in ["host/vertices.txt.gz", "host/edges.txt.gz"]:
        assert lines(tmp_path / "w" / f) == lines(tmp_path / "q" / f), f


def test_no_input_is_an_error(spinneret_bin, tmp_path):
    done = subprocess.run([spinneret_bin, "graph", "-o", str(tmp_path)], capture_output=True)
    assert done.returncode != 0 and b"no input" in done.stderr


def read_graph(folder):
    names = [line.split("\t")[1] for line in lines(folder / "vertices.txt.gz")]
    edges = [tuple(map(int, e.split("\t"))) for e in lines(folder / "edges.txt.gz")]
    ranks = {}
    rows = lines(folder / "ranks.txt.gz")
    assert rows[0].startswith("#harmonicc_pos\t#harmonicc_val\t#pr_pos\t#pr_val\t#host_rev")
    for row in rows[1:]:
        hc_pos, hc, pr_pos, pr, name = row.split("\t")[:5]
        ranks[name] = (int(hc_pos), float(hc), int(pr_pos), float(pr))
    return names, edges, ranks


def test_ranks_equal_networkx(spinneret_bin, warcs, tmp_path):
    """PageRank as networkx computes it (damping 0.85, uniform preference,
    dangling nodes' rank spread uniformly) to a relative 1e-6 on every
    host; harmonic centrality (in-links) from HyperBall within its stated
    error of networkx's exact values; positions by descending value, ties
    by node id."""
    import networkx as nx

    log2m = 12
    run_cli(spinneret_bin, ["graph", "--domain", "--log2m", str(log2m), "-o", str(tmp_path), *map(str, warcs)])
    for level in ["host", "domain"]:
        names, edges, ranks = read_graph(tmp_path / level)
        assert sorted(ranks) == sorted(names) and len(names) > 200
        g = nx.DiGraph()
        g.add_nodes_from(range(len(names)))
        g.add_edges_from(edges)
        pagerank = nx.pagerank(g, alpha=0.85, tol=1e-14, max_iter=10_000)
        for i, name in enumerate(names):
            ours = ranks[name][3]
            assert abs(ours - pagerank[i]) <= 1e-6 * pagerank[i], (level, name, ours, pagerank[i])
        exact = nx.harmonic_centrality(g)
        rsd = 1.04 / (2 ** log2m) ** 0.5
        # HyperBall's counters are HyperLogLog estimates: their relative
        # standard deviation is rsd, so on average a node is within it, and
        # nearly all within three times it (a small ball whose two members
        # share a register loses one: 4.33 estimated 4.0 at log2m 12, while
        # a few hundred nodes are within 0.2 %).
        errors = [abs(ranks[name][1] - exact[i]) / exact[i] for i, name in enumerate(names) if exact[i] > 0]
        zeros = [ranks[name][1] for i, name in enumerate(names) if exact[i] == 0]
        assert all(z == 0.0 for z in zeros), (level, "a node without in-links has a centrality")
        assert sum(errors) / len(errors) <= rsd, (level, sum(errors) / len(errors), rsd)
        within = sum(e <= 3 * rsd for e in errors) / len(errors)
        assert within >= 0.99, (level, within, sorted(errors)[-5:])
        # Positions: 1.. by descending value, ties by node id.
        for key, column in [(1, 0), (3, 2)]:
            order = sorted(range(len(names)), key=lambda i: (-ranks[names[i]][key], i))
            assert [ranks[names[i]][column] for i in order] == list(range(1, len(names) + 1)), (level, key)
    properties = (tmp_path / "host/graph.properties").read_text()
    assert "version=0" in properties.split("\n") and "endianness=big" in properties.split("\n")


def test_surt_host_names_hosts_as_the_graph_does():
    """spinneret.surt_host (and its column form) names a URL's host as
    `spinneret graph` does: cc-pyspark's get_surt_host on the browser's host,
    app schemes and non-URLs left out."""
    import spinneret

    cases = {
        "https://www.Example.com./a": "com.example.www",
        "http://b\u00fccher.example/": "example.xn--bcher-kva",
        "ftp://files.example.org/x": "org.example.files",
        "//no-scheme.example/": None,
        "https://192.168.0.1/": None,
        "http://localhost:8080/": None,
        "android-app://com.example.app/http/example.com/": None,
        "mailto:someone@example.com": None,
        "https://bad_label-.example.com/": None,
    }
    for url, want in cases.items():
        assert spinneret.surt_host(url) == want, url
    assert spinneret.surt_host("https://www.example.com/", strip_www=True) == "com.example"
    assert spinneret.surt_host("https://www.com/", strip_www=True) == "com.www"
    urls = list(cases) + [None]
    assert spinneret.surt_host_array(urls).to_pylist() == [*cases.values(), None]
