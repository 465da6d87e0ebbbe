#!/usr/bin/env python3
"""The Python peers of spinneret's main-content extraction: quality, by WCXB's
own metric, and speed on the dev set of WCXB, the Web Content Extraction
Benchmark.

usage: wcxb_peers.py SHARED_DIR [--extractors a,b,c] [--repeat N] [--limit N]
       [--spinneret-jsonl FILE] [--per-page OUT.jsonl] [--json OUT.json]

Pages: SHARED_DIR/corpus/extraction/wcxb-dev/ground-truth.json (id ->
{"articleBody", "url", "page_type", "title", "author", "publish_date", "with",
"without"}) and html/ID.html.gz beside it, 743 pages of the dev split of WCXB
v1.0 (Murrough-Foley/web-content-extraction-benchmark at c039d5ee; the
folder's README.md says what was kept), in seven page types: article,
service, collection, listing, documentation, forum, product. --limit N takes
the first N ids in sorted order (the order of WCXB's evaluate.py, and of
ground-truth.json). Every page is gunzipped to its raw HTML bytes before any
timing; each extractor gets the bytes and the page URL (None for the three
pages whose URL is "").

Extractors (WCXB's repository has no code that runs the extractors it
reports, only evaluate.py, which scores a {id: text} file; so the calls are
each package's plain-text main-content call, with the arguments said here):
    rs_trafilatura     rs_trafilatura.extract_bytes(bytes, url=url)
                       .main_content (rs-trafilatura, the PyO3 wrapper of the
                       Rust crate, WCXB's top dev row at F1 0.859): its
                       defaults, favor_precision=False, favor_recall=False,
                       include_tables=True, include_comments=False, the page
                       type from its own classifier (page_type=None), which
                       reads the URL too; extract_bytes detects the encoding
                       itself (on these UTF-8 pages, extract(str) gives the
                       same text)
    trafilatura        trafilatura.extract(bytes, url=url, output_format="txt",
                       include_comments=False, include_tables=True), for WCXB's
                       "Trafilatura" row (0.791), whose exact call WCXB does
                       not give; include_comments=False is not extract()'s
                       default, the rest is (fast=False, favor_precision=False,
                       no formatting, deduplicate=False); url only resolves
                       links, which plain text does not output
    trafilatura_recall the same with favor_recall=True. In trafilatura 2.3 this
                       is not a superset of the default: recall mode skips the
                       readability/justext comparison once its own text passes
                       10 x min_extracted_size, and the default "balanced" mode
                       has a recall escalation stage (core.py) that recall mode
                       never runs
    resiliparse        extract_plain_text(HTMLTree.parse(bytes_to_str(b,
                       detect_encoding(b))), main_content=True)
    readability        readability-lxml Document(decode_file(b)).summary(), the
                       summary's text (lxml, a newline around block elements;
                       decode_file is trafilatura.utils.decode_file, inside
                       the timing)
    justext            justext.justext(bytes, STOPLIST, 50, 200, 0.1, 0.2, 0.2,
                       200, True), the non-boilerplate paragraphs joined by " ";
                       STOPLIST is the union of all of jusText's stoplists, as
                       trafilatura.external.jt_stoplist_init() builds it
    spinneret          spinneret.text(bytes, url=url, main_content=True) of
                       the spinneret package when it is installed here (timed
                       as the others, as text_peers.py times it); else, with
                       --spinneret-jsonl FILE, the "text" of each {"id",
                       "text"} line (scored, not timed); else skipped
    truth              the page's own articleBody (scored, not timed; not run
                       unless asked for): the metric's self-check, which must
                       give P = R = F1 = 1.0, With 0.988 and Without 0.005
                       (README.md: 42 of the 3,333 "with" snippets are not in
                       their articleBody, 12 of the 2,920 "without" are)
All of them except truth are in the default set. resiliparse, readability
and justext are called exactly as text_peers.py calls them, and trafilatura
as its "trafilatura" row (fast=False, no comments, tables), so the two data
sets compare.

Scoring: WCXB's evaluate.py at c039d5ee, word_f1() and snippet_check(). Tokens
are re.findall(r"\\w+", text.lower()) (Unicode \\w); per page, overlap =
sum((Counter(pred) & Counter(ref)).values()), P = overlap/len(pred), R =
overlap/len(ref), F1 = 2PR/(P+R) (0 when P+R is 0); an empty ref scores 1, 1,
1 against an empty pred, else 0, 0, 0; an empty pred against a non-empty ref
scores 0, 0, 0. A page without a result (None, or the extractor raised)
counts as "". With is the fraction of the page's "with" snippets found in the
output, Without that of its "without" snippets (lower is better), each a
case-insensitive substring match (s.lower() in text.lower()), an empty list
counting 1.0. Overall and per page type, P, R, F1, With and Without are the
plain means over pages, so F1 is a macro mean, not 2PR/(P+R) of the means.

Timing: as text_peers.py, one untimed warm-up call per extractor on the first
page, then --repeat (default 1) passes over all pages, each timed with
time.process_time() (CPU seconds of this process, all threads) around the
whole pass; the best pass is kept and the results of the first one scored.
pages_per_cpu_s and mb_per_cpu_s (raw input bytes / 1e6) follow from it. A
page where the extractor raises counts as an error and as an empty result.
Logging is disabled, so that warnings are not formatted during the timing.

Prints Markdown tables on stdout: per extractor, the overall P, R, F1, With,
Without, errors, CPU seconds of the best pass and pages per CPU second; F1
per page type, one column a type; and P, R, F1, With and Without per
extractor and page type, one row each. --json writes {"pages", "bytes", "python", "types" (page
type -> pages), "extractors": {name: {"overall": {p, r, f1, with, without,
pages}, "per_type": {type: the same}, "timing": {cpu_s, passes,
pages_per_cpu_s, mb_per_cpu_s} (null where not timed), "errors", "empty",
"output_chars", "version", "first_error"}}, "skipped": {name: reason}}.
--per-page writes one JSON line per page per extractor, {"extractor", "id",
"page_type", "p", "r", "f1", "with", "without", "error"}. Progress goes to
stderr."""
import argparse
import gzip
import json
import logging
import os
import platform
import re
import sys
import time
from collections import Counter

DEFAULT = ["rs_trafilatura", "trafilatura", "trafilatura_recall",
           "resiliparse", "readability", "justext", "spinneret"]
OPTIONAL = ["truth"]
# Page types in WCXB's order of size on the dev split.
PAGE_TYPES = ["article", "service", "collection", "listing", "documentation",
              "forum", "product"]
# Sources that may be read, not run: scored, never timed (spinneret only
# when given as --spinneret-jsonl).
UNTIMED = {"spinneret", "truth"}


# The peers text_peers.py runs too, called the same way, and its pass timer.
from text_peers import (  # noqa: E402 -- beside this script
    Skip,
    make_justext,
    make_readability,
    make_resiliparse,
    make_rs_trafilatura,
    make_spinneret,
    package_version,
    run_pass,
)


def make_trafilatura(favor_recall):
    def factory():
        from trafilatura import extract

        def run(data, url):
            return extract(data, url=url, output_format="txt",
                           include_comments=False, include_tables=True,
                           favor_recall=favor_recall)
        return run, package_version("trafilatura")
    return factory


FACTORIES = {
    "rs_trafilatura": make_rs_trafilatura,
    "trafilatura": make_trafilatura(False),
    "trafilatura_recall": make_trafilatura(True),
    "resiliparse": make_resiliparse(True),
    "readability": make_readability(True),
    "justext": make_justext,
    "spinneret": make_spinneret(True),
}
KNOWN = list(FACTORIES) + sorted(UNTIMED - set(FACTORIES))


# ------------------------------------------------------------------- scoring


def tokenize(text):
    """WCXB's evaluate.py tokenize()."""
    if not text:
        return []
    return re.findall(r"\w+", text.lower())


def word_prf(pred_tokens, ref_counts, ref_len):
    """(P, R, F1) of one page, as WCXB's evaluate.py word_f1()."""
    if not ref_len:
        return (1.0, 1.0, 1.0) if not pred_tokens else (0.0, 0.0, 0.0)
    if not pred_tokens:
        return (0.0, 0.0, 0.0)
    overlap = sum((Counter(pred_tokens) & ref_counts).values())
    p = overlap / len(pred_tokens)
    r = overlap / ref_len
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return p, r, f1


def snippet_rate(text_lower, snippets_lower):
    """WCXB's evaluate.py snippet_check(), snippets lowercased beforehand."""
    if not snippets_lower:
        return 1.0
    return sum(1 for s in snippets_lower if s in text_lower) / len(snippets_lower)


def score_page(page, result):
    text = result if isinstance(result, str) else ""
    p, r, f1 = word_prf(tokenize(text), page["ref_counts"], page["ref_len"])
    lower = text.lower()
    return {"p": p, "r": r, "f1": f1,
            "with": snippet_rate(lower, page["with_l"]),
            "without": snippet_rate(lower, page["without_l"])}


METRICS = ("p", "r", "f1", "with", "without")


def means(rows):
    if not rows:
        return {m: None for m in METRICS} | {"pages": 0}
    out = {m: round(sum(row[m] for row in rows) / len(rows), 4) for m in METRICS}
    out["pages"] = len(rows)
    return out


# -------------------------------------------------------------------- running


def load_pages(shared, limit=None):
    base = os.path.join(shared, "corpus", "extraction", "wcxb-dev")
    with open(os.path.join(base, "ground-truth.json"), encoding="utf-8") as f:
        truth = json.load(f)
    pages = []
    for pid in sorted(truth)[:limit]:
        item = truth[pid]
        with open(os.path.join(base, "html", pid + ".html.gz"), "rb") as f:
            data = gzip.decompress(f.read())
        ref = tokenize(item["articleBody"])
        pages.append({
            "id": pid,
            "url": item["url"] or None,
            "page_type": item["page_type"],
            "data": data,
            "body": item["articleBody"],
            "ref_counts": Counter(ref),
            "ref_len": len(ref),
            "with_l": [s.lower() for s in item["with"] or []],
            "without_l": [s.lower() for s in item["without"] or []],
        })
    return pages


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
        print(f"wcxb_peers.py: {name}: pass {n + 1}/{repeat} {cpu:.3f} CPU s",
              file=sys.stderr)
    return best, kept[0], kept[1]


def read_jsonl(path, pages):
    texts = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                texts[str(row["id"])] = row.get("text")
    results = [texts.get(p["id"]) for p in pages]
    errors = [None if p["id"] in texts else "not in --spinneret-jsonl" for p in pages]
    return results, errors


def summarize(pages, results, errors, cpu, nbytes, ver, passes):
    per_page = [score_page(page, result) for page, result in zip(pages, results)]
    per_type = {}
    for pt in PAGE_TYPES + sorted({p["page_type"] for p in pages} - set(PAGE_TYPES)):
        rows = [s for s, p in zip(per_page, pages) if p["page_type"] == pt]
        if rows:
            per_type[pt] = means(rows)
    timing = None
    if cpu is not None:
        timing = {
            "cpu_s": round(cpu, 3),
            "passes": passes,
            "pages_per_cpu_s": round(len(pages) / cpu, 1) if cpu else None,
            "mb_per_cpu_s": round(nbytes / 1e6 / cpu, 3) if cpu else None,
        }
    row = {
        "overall": means(per_page),
        "per_type": per_type,
        "timing": timing,
        "errors": sum(e is not None for e in errors),
        "empty": sum(not r for r in results),
        "output_chars": sum(len(r) for r in results if isinstance(r, str)),
        "version": ver,
        "first_error": next((e for e in errors if e is not None), None),
    }
    return row, per_page


def fmt(x, digits=3):
    return "" if x is None else f"{x:.{digits}f}"


def markdown(extractors, types):
    lines = ["| extractor | P | R | F1 | With | Without | errors | CPU s | pages/CPU s |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, row in extractors.items():
        o, t = row["overall"], row["timing"] or {}
        lines.append(
            f"| {name} | {fmt(o['p'])} | {fmt(o['r'])} | {fmt(o['f1'])} | "
            f"{fmt(o['with'])} | {fmt(o['without'])} | {row['errors']} | "
            f"{fmt(t.get('cpu_s'), 2)} | {fmt(t.get('pages_per_cpu_s'), 1)} |")
    lines.append("")
    head = " | ".join(f"{pt} ({n})" for pt, n in types.items())
    lines.append(f"| F1 by page type | {head} |")
    lines.append("|---|" + "---:|" * len(types))
    for name, row in extractors.items():
        cells = " | ".join(fmt(row["per_type"].get(pt, {}).get("f1"))
                           for pt in types)
        lines.append(f"| {name} | {cells} |")
    lines.append("")
    lines.append("| extractor | page type | pages | P | R | F1 | With | Without |")
    lines.append("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, row in extractors.items():
        for pt, m in row["per_type"].items():
            lines.append(
                f"| {name} | {pt} | {m['pages']} | {fmt(m['p'])} | {fmt(m['r'])} | "
                f"{fmt(m['f1'])} | {fmt(m['with'])} | {fmt(m['without'])} |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description="Score, by WCXB's metric, and time "
                                 "main-content extractors on the WCXB dev set.")
    ap.add_argument("shared")
    ap.add_argument("--extractors", default=",".join(DEFAULT),
                    help=f"comma-separated, of {', '.join(KNOWN)} "
                    f"(default: {','.join(DEFAULT)})")
    ap.add_argument("--spinneret-jsonl", metavar="FILE",
                    help='spinneret\'s output, {"id", "text"} lines')
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--limit", type=int, metavar="N",
                    help="only the first N ids in sorted order")
    ap.add_argument("--per-page", metavar="OUT.jsonl")
    ap.add_argument("--json", metavar="OUT.json")
    args = ap.parse_args()
    names = [n.strip() for n in args.extractors.split(",") if n.strip()]
    unknown = [n for n in names if n not in KNOWN]
    if unknown:
        ap.error(f"unknown extractors: {', '.join(unknown)}")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    if args.limit is not None and args.limit < 1:
        ap.error("--limit must be at least 1")

    logging.disable(logging.CRITICAL)
    pages = load_pages(args.shared, args.limit)
    nbytes = sum(len(p["data"]) for p in pages)
    types = {pt: n for pt, n in Counter(p["page_type"] for p in pages).items()}
    types = {pt: types[pt] for pt in PAGE_TYPES + sorted(set(types) - set(PAGE_TYPES))
             if pt in types}
    print(f"wcxb_peers.py: {len(pages)} pages, {nbytes} bytes", file=sys.stderr)

    per_page = open(args.per_page, "w", encoding="utf-8") if args.per_page else None
    extractors = {}
    skipped = {}
    for name in names:
        cpu = None
        passes = 0
        ver = None
        if name == "truth":
            results, errors = [p["body"] for p in pages], [None] * len(pages)
        elif name == "spinneret" and args.spinneret_jsonl:
            results, errors = read_jsonl(args.spinneret_jsonl, pages)
            print(f"wcxb_peers.py: spinneret: from {args.spinneret_jsonl} "
                  "(not timed)", file=sys.stderr)
        else:
            try:
                fn, ver = FACTORIES[name]()
            except (ImportError, Skip) as err:
                reason = str(err) or type(err).__name__
                skipped[name] = reason
                print(f"wcxb_peers.py: {name}: skipped: {reason}", file=sys.stderr)
                continue
            cpu, results, errors = time_extractor(name, fn, pages, args.repeat)
            passes = args.repeat
        row, scored = summarize(pages, results, errors, cpu, nbytes, ver, passes)
        extractors[name] = row
        o, t = row["overall"], row["timing"] or {}
        print(f"wcxb_peers.py: {name}: F1 {o['f1']} P {o['p']} R {o['r']} "
              f"With {o['with']} Without {o['without']}, {row['errors']} errors, "
              f"{t.get('pages_per_cpu_s')} pages/CPU s", file=sys.stderr)
        if per_page is not None:
            for page, s, err in zip(pages, scored, errors):
                per_page.write(json.dumps({
                    "extractor": name, "id": page["id"],
                    "page_type": page["page_type"],
                    "p": round(s["p"], 6), "r": round(s["r"], 6),
                    "f1": round(s["f1"], 6), "with": round(s["with"], 6),
                    "without": round(s["without"], 6), "error": err},
                    ensure_ascii=False) + "\n")
    if per_page is not None:
        per_page.close()

    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"pages": len(pages), "bytes": nbytes,
                       "python": platform.python_version(), "types": types,
                       "extractors": extractors, "skipped": skipped}, f, indent=1)
            f.write("\n")
    print(markdown(extractors, types))
    for name, reason in skipped.items():
        print(f"\nskipped {name}: {reason}")


if __name__ == "__main__":
    main()
