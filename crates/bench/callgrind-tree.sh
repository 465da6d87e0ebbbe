#!/usr/bin/env bash
# Instructions per input byte of a full DOM parse for spinneret, html5ever +
# RcDom, scraper (ego-tree) and lexbor (Python selectolax), counted by
# callgrind over every page of corpus/pages.tsv.
#
# Why: wall-clock timings on a shared 2-core machine are noisy; instruction
# counts are deterministic, so they show whether a tree-builder or DOM change
# made the common path cheaper even when timings cannot. (Instructions are
# not time: a cache-friendly arena does more per instruction. Use both.)
#
# How: the bench binary's hidden `kernel tree-<lib> pages` mode loads the
# pages (gunzip + lossy UTF-8 decoding) and makes exactly one untimed pass of
# one parser, each page parsed into a full DOM and dropped, as in
# `spinneret-bench tree` (see src/tree_bench/). `kernel tree-none pages`
# only loads the pages; its instruction count is subtracted from each
# parser's, and the rest is divided by the total UTF-8 bytes of the decoded
# pages. lexbor runs as python/tree.py under the venv python of
# `spinneret-bench tree` (made by that command: run it once first), with
# `--kernel parse` and, as its own baseline, `--kernel none` (the same
# interpreter loading the same pages without parsing them); the Python
# wrapper's per-page cost (a parser object) is included, the interpreter's
# start-up and page loading are not.
#
# Usage: crates/bench/callgrind-tree.sh [LIB...]
#   LIB defaults to: spinneret html5ever scraper lexbor
# Each run executes billions of instructions under callgrind (minutes each).
# The callgrind output files are kept in a temporary folder (printed at the
# end) for `callgrind_annotate`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }

if [ "$#" -gt 0 ]; then
    libs=("$@")
else
    libs=(spinneret html5ever scraper lexbor)
fi

cargo build --release -p spinneret-bench >&2
target_dir="$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="${target_dir:-$root/target}/release/spinneret-bench"
[ -x "$bin" ] || { echo "bench binary not found at $bin" >&2; exit 1; }

# The venv `spinneret-bench tree` makes (python_env.rs: $TMPDIR/spinneret-bench).
python="${TMPDIR:-/tmp}/spinneret-bench/venv-tree/bin/python"
shared="${SPINNERET_SHARED:-$root/../shared}"

out="$(mktemp -d "${TMPDIR:-/tmp}/spinneret-callgrind-tree.XXXXXX")"

# Runs one command under callgrind as `name`; prints "<Ir total> <input
# bytes> <count>" from the callgrind totals and the command's
# `items=… ok=…` line.
run_callgrind() {
    local name="$1"
    shift
    local file="$out/callgrind.tree.$name.out"
    echo "running $name under callgrind..." >&2
    valgrind --tool=callgrind --callgrind-out-file="$file" \
        "$@" >"$out/$name.stdout" 2>"$out/$name.log" || {
        echo "$name failed; see $out/$name.log" >&2
        exit 1
    }
    local ir items count
    # The "summary:" line (older callgrind: "totals:") holds the Ir total.
    ir="$(awk '/^(summary|totals):/ { print $2; exit }' "$file")"
    items="$(sed -n 's/^items=\([0-9]*\).*/\1/p' "$out/$name.stdout")"
    count="$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' "$out/$name.stdout")"
    [ -n "$ir" ] && [ -n "$items" ] || { echo "no totals for $name" >&2; exit 1; }
    echo "$ir $items $count"
}

run_rust() { run_callgrind "$1" "$bin" kernel "tree-$1" pages; }
run_python() {
    [ -x "$python" ] || { echo "no venv python at $python: run spinneret-bench tree first" >&2; exit 1; }
    run_callgrind "$1" "$python" "$here/python/tree.py" "$shared" --kernel "$2"
}

per_byte() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (a - b) / n }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "n/a" }'; }

label() {
    case "$1" in
        spinneret) echo "spinneret" ;;
        html5ever) echo "html5ever + RcDom" ;;
        scraper) echo "scraper (ego-tree)" ;;
        lexbor) echo "lexbor (selectolax)" ;;
        *) echo "$1" ;;
    esac
}

declare -A per
declare -A counts
declare -A bases
rust_base=""
python_base=""
for lib in "${libs[@]}"; do
    if [ "$lib" = lexbor ]; then
        if [ -z "$python_base" ]; then
            read -r python_base python_bytes _ < <(run_python python-none none)
            bases[python]="$python_base $python_bytes"
        fi
        read -r ir bytes count < <(run_python lexbor parse)
        base="$python_base"
    else
        if [ -z "$rust_base" ]; then
            read -r rust_base rust_bytes _ < <(run_rust none)
            bases[rust]="$rust_base $rust_bytes"
        fi
        read -r ir bytes count < <(run_rust "$lib")
        base="$rust_base"
    fi
    per[$lib]="$(per_byte "$ir" "$base" "$bytes")"
    counts[$lib]="$count"
done

echo
echo "Instructions (Ir) per input byte of a full DOM, one pass over corpus/pages.tsv,"
echo "page-loading baseline subtracted (ratio peer/spinneret: above 1.00 means spinneret"
echo "executes fewer instructions)"
for kind in rust python; do
    if [ -n "${bases[$kind]:-}" ]; then
        read -r b n <<<"${bases[$kind]}"
        echo "  $kind baseline: $(per_byte "$b" 0 "$n") Ir/byte over $n bytes"
    fi
done
echo
printf '| %-20s | %9s | %14s | %6s |\n' parser Ir/byte peer/spinneret pages
printf '| %-20s | %9s | %14s | %6s |\n' --- ---: ---: ---:
for lib in "${libs[@]}"; do
    r="n/a"
    if [ -n "${per[spinneret]:-}" ]; then
        r="$(ratio "${per[$lib]}" "${per[spinneret]}")"
    fi
    printf '| %-20s | %9s | %14s | %6s |\n' "$(label "$lib")" "${per[$lib]}" "$r" "${counts[$lib]}"
done
echo
echo "callgrind output files: $out (e.g. callgrind_annotate $out/callgrind.tree.html5ever.out)"
