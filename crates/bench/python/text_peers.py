#!/usr/bin/env python3
"""The Python peers of `spinneret text`: quality and speed of main-content and
whole-page text extractors on trafilatura's evaluation set.

usage: text_peers.py SHARED_DIR [--extractors a,b,c] [--spinneret-jsonl FILE]
       [--repeat N] [--limit N] [--per-page OUT.jsonl]

Pages: SHARED_DIR/corpus/extraction/trafilatura/evaldata.json (page URL ->
{"file", "with", "without"}) and pages/FILE.gz beside it, 990 pages, the
corpus of trafilatura's evaluation (tests/evaldata.json, tests/cache and
tests/eval of adbar/trafilatura at e90b0ef5; its eval_gate.py fingerprint,
b443dcaa..., matches these bytes); --limit N takes the first N of them. Every
page is gunzipped to its raw HTML
bytes, in evaldata.json's order, before any timing; each extractor gets the
bytes and the page URL.

Extractors (each is called as trafilatura's own benchmark, tests/evaluate.py
and tests/eval_common.py at e90b0ef5, calls it; where that benchmark hands a
package a str, the bytes are decoded with trafilatura.utils.decode_file, as
it does, inside the timing):
  main content
    trafilatura       trafilatura.extract(bytes, url=url, include_comments=False,
                      include_tables=True, include_formatting=False): the
                      benchmark's "trafilatura (standard)" row (fast=False, the
                      default). include_comments=False is not extract()'s
                      default; url only resolves links, which plain text does
                      not output, so it changes nothing.
    trafilatura_fast  the same with fast=True (not run unless asked for)
    rs_trafilatura    rs_trafilatura.extract_bytes(bytes, url=url).main_content
                      (rs-trafilatura, the PyO3 wrapper of the Rust crate, its
                      defaults and its own page-type classifier, as
                      wcxb_peers.py calls it; not run unless asked for)
    resiliparse       extract_plain_text(HTMLTree.parse(bytes_to_str(b,
                      detect_encoding(b))), main_content=True)
    justext           justext.justext(bytes, STOPLIST, 50, 200, 0.1, 0.2, 0.2,
                      200, True), the non-boilerplate paragraphs joined by " ";
                      STOPLIST is the union of all of jusText's stoplists, as
                      trafilatura.external.jt_stoplist_init() builds it
    readability       readability-lxml Document(decode_file(b)).summary(), the
                      summary's text (lxml, a newline around block elements)
    readability_html  the summary's HTML itself, which is what trafilatura's
                      benchmark scores (it never takes the text)
    spinneret         spinneret.text(bytes, url=url, main_content=True) if the
                      spinneret module has text(); else, with --spinneret-jsonl,
                      the "text" of each {"url", "text"} line of FILE (scored,
                      not timed); else skipped
  whole page
    html_text         html_text.extract_text(decode_file(b), guess_layout=False)
    inscriptis        inscriptis.get_text(decode_file(b))
    resiliparse_full  as resiliparse, main_content=False
    spinneret_full    spinneret.text(bytes, url=url, main_content=False)

Scoring: trafilatura's rule, eval_common.py count_item() at e90b0ef5 (the
benchmark's scoring since 56bd698c; the older comparison.py evaluate_result()
matched raw substrings). The result and every snippet are
whitespace-normalized, re.sub(r"\\s+", " ", s).strip() (Python's \\s: Unicode
whitespace, no-break space included); each "with" snippet found in the result
is a TP, else an FN; each "without" snippet found is an FP, else a TN; a page
without a result (None, "", or the extractor raised) has every "with" an FN
and every "without" a TN. Counts are summed over pages; precision =
tp/(tp+fp), recall = tp/(tp+fn), accuracy = (tp+tn)/all, F1 =
2tp/(2tp+fp+fn), each 0.0 on an empty denominator.

Timing: one untimed warm-up call per extractor on the first page, then
--repeat (default 1) passes over all pages, each timed with
time.process_time() (CPU seconds of this process, all threads) around the
whole pass; the best pass is kept and the results of the first one scored.
pages_per_cpu_s and mb_per_cpu_s (raw input bytes / 1e6) follow from it. A
page where the extractor raises counts as an error and as an empty result.
Logging is disabled (trafilatura's benchmark does the same), so that warnings
are not formatted during the timing.

Prints one JSON object on stdout: {"pages", "bytes", "python" (the
interpreter's version), "extractors": {name:
{precision, recall, f1, accuracy, tp, fp, tn, fn, errors, empty,
output_chars, cpu_s, passes, pages_per_cpu_s, mb_per_cpu_s, version,
first_error}}, "skipped": {name: reason}}. --per-page writes one JSON line per
page per extractor, {"extractor", "url", "tp", "fp", "tn", "fn", "error"}.
Progress goes to stderr."""
import argparse
import gzip
import json
import logging
import os
import platform
import re
import sys
import time
from importlib.metadata import PackageNotFoundError, version

MAIN_CONTENT = ["trafilatura", "resiliparse", "justext", "readability",
                "readability_html", "spinneret"]
WHOLE_PAGE = ["html_text", "inscriptis", "resiliparse_full", "spinneret_full"]
OPTIONAL = ["trafilatura_fast", "rs_trafilatura"]
DEFAULT = MAIN_CONTENT + WHOLE_PAGE


class Skip(Exception):
    """An extractor that cannot run here; the message says why."""


def package_version(dist):
    try:
        return version(dist)
    except PackageNotFoundError:
        return None


# ---------------------------------------------------------------- extractors
# Each factory imports its package and returns (fn, version), fn(data: bytes,
# url: str) -> str or None; an ImportError or Skip skips the extractor.


def _decode_file():
    from trafilatura.utils import decode_file
    return decode_file


def make_trafilatura(fast):
    def factory():
        from trafilatura import extract

        def run(data, url):
            return extract(data, url=url, fast=fast, include_comments=False,
                           include_tables=True, include_formatting=False)
        return run, package_version("trafilatura")
    return factory


def make_rs_trafilatura():
    try:
        import rs_trafilatura
    except ImportError as e:
        raise Skip(f"rs-trafilatura is not installed ({e})")

    def run(data, url):
        return rs_trafilatura.extract_bytes(data, url=url).main_content
    return run, package_version("rs-trafilatura")


def make_resiliparse(main_content):
    def factory():
        from resiliparse.extract.html2text import extract_plain_text
        from resiliparse.parse.encoding import bytes_to_str, detect_encoding
        from resiliparse.parse.html import HTMLTree

        def run(data, url):
            tree = HTMLTree.parse(bytes_to_str(data, detect_encoding(data)))
            return extract_plain_text(tree, main_content=main_content)
        return run, package_version("resiliparse")
    return factory


def make_justext():
    import justext
    stoplist = tuple({word for language in justext.get_stoplists()
                      for word in justext.get_stoplist(language)})

    def run(data, url):
        paragraphs = justext.justext(data, stoplist, 50, 200, 0.1, 0.2, 0.2,
                                     200, True)
        return " ".join(p.text for p in paragraphs if not p.is_boilerplate)
    return run, package_version("justext")


# Elements around which the text of readability's summary gets a line break.
BLOCK_TAGS = frozenset(
    "address article aside blockquote body br caption dd details dialog div "
    "dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hr "
    "html li main nav ol p pre section summary table tbody td tfoot th thead "
    "tr ul".split())


def lxml_text(root):
    """The text of an lxml tree, a newline around block elements; comments
    and processing instructions are dropped, their tails kept."""
    from lxml import etree
    parts = []
    for action, el in etree.iterwalk(root, events=("start", "end", "comment", "pi")):
        if action == "start":
            if el.tag in BLOCK_TAGS:
                parts.append("\n")
            if el.text:
                parts.append(el.text)
            continue
        if action == "end" and el.tag in BLOCK_TAGS:
            parts.append("\n")
        if el.tail and el is not root:
            parts.append(el.tail)
    return "".join(parts)


def make_readability(as_text):
    def factory():
        import lxml.html
        from readability import Document
        decode_file = _decode_file()

        def run(data, url):
            summary = Document(decode_file(data)).summary()
            if not as_text:
                return summary
            return lxml_text(lxml.html.fromstring(summary))
        return run, package_version("readability-lxml")
    return factory


def make_html_text():
    import html_text
    decode_file = _decode_file()

    def run(data, url):
        return html_text.extract_text(decode_file(data), guess_layout=False)
    return run, package_version("html-text")


def make_inscriptis():
    from inscriptis import get_text
    decode_file = _decode_file()

    def run(data, url):
        return get_text(decode_file(data))
    return run, package_version("inscriptis")


def spinneret_module():
    try:
        import spinneret
    except ImportError as err:
        raise Skip(f"import spinneret failed ({err})") from None
    if not hasattr(spinneret, "text"):
        raise Skip(f"the spinneret module ({getattr(spinneret, '__file__', '?')}) has no text()")
    ver = package_version("spinneret") or getattr(spinneret, "__version__", None)
    return spinneret, ver


def make_spinneret(main_content):
    def factory():
        spinneret, ver = spinneret_module()
        text = spinneret.text

        def run(data, url):
            return text(data, url=url, main_content=main_content)
        return run, ver
    return factory


FACTORIES = {
    "trafilatura": make_trafilatura(False),
    "trafilatura_fast": make_trafilatura(True),
    "rs_trafilatura": make_rs_trafilatura,
    "resiliparse": make_resiliparse(True),
    "justext": make_justext,
    "readability": make_readability(True),
    "readability_html": make_readability(False),
    "spinneret": make_spinneret(True),
    "html_text": make_html_text,
    "inscriptis": make_inscriptis,
    "resiliparse_full": make_resiliparse(False),
    "spinneret_full": make_spinneret(False),
}


# ------------------------------------------------------------------- scoring


def norm(text):
    """trafilatura's eval_common.norm()."""
    return re.sub(r"\s+", " ", text).strip()


def count_page(item, result):
    """(tp, fp, tn, fn) of one page, as trafilatura's eval_common.count_item()."""
    withs, withouts = item["with_n"], item["without_n"]
    if isinstance(result, str):
        resn = norm(result)
        tp = sum(1 for w in withs if w in resn)
        fp = sum(1 for w in withouts if w in resn)
    else:
        tp = fp = 0
    return tp, fp, len(withouts) - fp, len(withs) - tp


def scores(tp, fp, tn, fn):
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    total = tp + fp + tn + fn
    accuracy = (tp + tn) / total if total else 0.0
    f1 = 2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else 0.0
    return precision, recall, accuracy, f1


# -------------------------------------------------------------------- running


def load_pages(shared, limit=None):
    base = os.path.join(shared, "corpus", "extraction", "trafilatura")
    with open(os.path.join(base, "evaldata.json"), encoding="utf-8") as f:
        evaldata = json.load(f)
    pages = []
    for url, item in list(evaldata.items())[:limit]:
        with open(os.path.join(base, "pages", item["file"] + ".gz"), "rb") as f:
            data = gzip.decompress(f.read())
        pages.append({
            "url": url,
            "data": data,
            "with_n": [norm(s) for s in item["with"]],
            "without_n": [norm(s) for s in item["without"]],
        })
    return pages


def run_pass(fn, pages):
    results = [None] * len(pages)
    errors = [None] * len(pages)
    start = time.process_time()
    for i, page in enumerate(pages):
        try:
            results[i] = fn(page["data"], page["url"])
        except Exception as err:  # noqa: BLE001 -- a peer's failure is data
            errors[i] = f"{type(err).__name__}: {err}"[:300]
    return time.process_time() - start, results, errors


def time_extractor(name, fn, pages, repeat):
    try:
        fn(pages[0]["data"], pages[0]["url"])
    except Exception:  # noqa: BLE001 -- counted on the timed pass
        pass
    best = None
    kept = None
    for n in range(repeat):
        cpu, results, errors = run_pass(fn, pages)
        best = cpu if best is None else min(best, cpu)
        if kept is None:
            kept = (results, errors)
        print(f"text_peers.py: {name}: pass {n + 1}/{repeat} {cpu:.3f} CPU s",
              file=sys.stderr)
    return best, kept[0], kept[1]


def read_jsonl(path, pages):
    texts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                texts[row["url"]] = row.get("text")
    results = [texts.get(p["url"]) for p in pages]
    errors = [None if p["url"] in texts else "not in --spinneret-jsonl" for p in pages]
    return results, errors


def summarize(pages, results, errors, cpu, nbytes, ver, passes):
    tp = fp = tn = fn = 0
    counts = []
    for page, result in zip(pages, results):
        c = count_page(page, result)
        counts.append(c)
        tp += c[0]
        fp += c[1]
        tn += c[2]
        fn += c[3]
    precision, recall, accuracy, f1 = scores(tp, fp, tn, fn)
    first_error = next((e for e in errors if e is not None), None)
    row = {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "accuracy": round(accuracy, 4),
        "tp": tp, "fp": fp, "tn": tn, "fn": fn,
        "errors": sum(e is not None for e in errors),
        "empty": sum(not r for r in results),
        "output_chars": sum(len(r) for r in results if isinstance(r, str)),
        "cpu_s": None if cpu is None else round(cpu, 3),
        "passes": passes,
        "pages_per_cpu_s": round(len(pages) / cpu, 1) if cpu else None,
        "mb_per_cpu_s": round(nbytes / 1e6 / cpu, 3) if cpu else None,
        "version": ver,
        "first_error": first_error,
    }
    return row, counts


def main():
    ap = argparse.ArgumentParser(description="Score and time text extractors "
                                 "on trafilatura's evaluation set.")
    ap.add_argument("shared")
    ap.add_argument("--extractors", default=",".join(DEFAULT),
                    help=f"comma-separated, of {', '.join(FACTORIES)} "
                    f"(default: {','.join(DEFAULT)})")
    ap.add_argument("--spinneret-jsonl", metavar="FILE")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--limit", type=int, metavar="N",
                    help="only the first N pages of evaldata.json")
    ap.add_argument("--per-page", metavar="OUT.jsonl")
    args = ap.parse_args()
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    unknown = [n for n in names if n not in FACTORIES]
    if unknown:
        ap.error(f"unknown extractors: {', '.join(unknown)}")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be at least 1")

    logging.disable(logging.CRITICAL)
    pages = load_pages(args.shared, args.limit)
    nbytes = sum(len(p["data"]) for p in pages)
    print(f"text_peers.py: {len(pages)} pages, {nbytes} bytes", file=sys.stderr)

    per_page = open(args.per_page, "w", encoding="utf-8") if args.per_page else None
    extractors = {}
    skipped = {}
    for name in names:
        cpu = None
        passes = 0
        try:
            fn, ver = FACTORIES[name]()
        except (ImportError, Skip) as err:
            if name == "spinneret" and args.spinneret_jsonl:
                results, errors = read_jsonl(args.spinneret_jsonl, pages)
                ver = None
                print(f"text_peers.py: spinneret: from {args.spinneret_jsonl} "
                      f"(not timed; {err})", file=sys.stderr)
            else:
                reason = str(err) or type(err).__name__
                if name == "spinneret":
                    reason += "; no --spinneret-jsonl"
                skipped[name] = reason
                print(f"text_peers.py: {name}: skipped: {reason}", file=sys.stderr)
                continue
        else:
            cpu, results, errors = time_extractor(name, fn, pages, args.repeat)
            passes = args.repeat
        row, counts = summarize(pages, results, errors, cpu, nbytes, ver, passes)
        extractors[name] = row
        print(f"text_peers.py: {name}: F1 {row['f1']} P {row['precision']} "
              f"R {row['recall']}, {row['errors']} errors, "
              f"{row['pages_per_cpu_s']} pages/CPU s", file=sys.stderr)
        if per_page is not None:
            for page, c, err in zip(pages, counts, errors):
                per_page.write(json.dumps({
                    "extractor": name, "url": page["url"],
                    "tp": c[0], "fp": c[1], "tn": c[2], "fn": c[3],
                    "error": err}, ensure_ascii=False) + "\n")
    if per_page is not None:
        per_page.close()

    print(json.dumps({"pages": len(pages), "bytes": nbytes,
                      "python": platform.python_version(),
                      "extractors": extractors, "skipped": skipped}, indent=1))


if __name__ == "__main__":
    main()
