#!/usr/bin/env bash
# Instructions per input byte for spinneret-html, html5ever's tokenizer and
# lol_html (with no handlers, and with an a[href] handler), counted by
# callgrind over every page of corpus/pages.tsv.
#
# Why: wall-clock timings on a shared 2-core machine are noisy; instruction
# counts are deterministic, so they show whether a tokenizer change made the
# common path cheaper even when timings cannot. (Instructions are not time:
# SIMD-heavy scanning does more per instruction. Use both.)
#
# How: the bench binary's hidden `kernel tokenize-<lib> pages` mode loads the
# pages (gunzip + lossy UTF-8 decoding) and runs exactly one untimed pass of
# one kernel, the same kernels as `spinneret-bench tokenize` (see
# src/tokenize_bench.rs). `kernel tokenize-none pages` only loads the pages;
# its instruction count is subtracted from each kernel's, and the rest is
# divided by the total UTF-8 bytes of the decoded pages.
#
# Usage: crates/bench/callgrind-tokenize.sh [LIB...]
#   LIB defaults to: spinneret html5ever lolhtml lolhtml-ahref
# Each run executes a few billion instructions under callgrind (minutes each).
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
    libs=(spinneret html5ever lolhtml lolhtml-ahref)
fi

cargo build --release -p spinneret-bench >&2
target_dir="$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="${target_dir:-$root/target}/release/spinneret-bench"
[ -x "$bin" ] || { echo "bench binary not found at $bin" >&2; exit 1; }

out="$(mktemp -d "${TMPDIR:-/tmp}/spinneret-callgrind-tokenize.XXXXXX")"

# Runs one kernel under callgrind; prints "<Ir total> <input bytes> <count>".
run_kernel() {
    local lib="$1"
    local file="$out/callgrind.tokenize.$lib.out"
    echo "running tokenize-$lib under callgrind..." >&2
    valgrind --tool=callgrind --callgrind-out-file="$file" \
        "$bin" kernel "tokenize-$lib" pages >"$out/$lib.stdout" 2>"$out/$lib.log" || {
        echo "kernel tokenize-$lib failed; see $out/$lib.log" >&2
        exit 1
    }
    local ir items count
    # The "summary:" line (older callgrind: "totals:") holds the Ir total.
    ir="$(awk '/^(summary|totals):/ { print $2; exit }' "$file")"
    items="$(sed -n 's/^items=\([0-9]*\).*/\1/p' "$out/$lib.stdout")"
    count="$(sed -n 's/.* ok=\([0-9]*\).*/\1/p' "$out/$lib.stdout")"
    [ -n "$ir" ] && [ -n "$items" ] || { echo "no totals for tokenize-$lib" >&2; exit 1; }
    echo "$ir $items $count"
}

per_byte() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.2f", (a - b) / n }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "n/a" }'; }

label() {
    case "$1" in
        spinneret) echo "spinneret-html" ;;
        html5ever) echo "html5ever" ;;
        lolhtml) echo "lol_html" ;;
        lolhtml-ahref) echo "lol_html a[href]" ;;
        *) echo "$1" ;;
    esac
}

read -r base bytes _ < <(run_kernel none)
declare -A per
declare -A counts
for lib in "${libs[@]}"; do
    read -r ir _ count < <(run_kernel "$lib")
    per[$lib]="$(per_byte "$ir" "$base" "$bytes")"
    counts[$lib]="$count"
done

echo
echo "Instructions (Ir) per input byte, one pass over corpus/pages.tsv ($bytes bytes of UTF-8),"
echo "data-loading baseline subtracted ($(per_byte "$base" 0 "$bytes") Ir/byte)"
echo "(ratio peer/spinneret: above 1.00 means spinneret executes fewer instructions)"
echo
printf '| %-18s | %9s | %14s | %14s |\n' kernel Ir/byte peer/spinneret count
printf '| %-18s | %9s | %14s | %14s |\n' --- ---: ---: ---:
for lib in "${libs[@]}"; do
    r="n/a"
    if [ -n "${per[spinneret]:-}" ]; then
        r="$(ratio "${per[$lib]}" "${per[spinneret]}")"
    fi
    printf '| %-18s | %9s | %14s | %14s |\n' "$(label "$lib")" "${per[$lib]}" "$r" "${counts[$lib]}"
done
echo
echo "count: tokens (spinneret-html, html5ever), output bytes (lol_html), hrefs read (lol_html a[href])"
echo "callgrind output files: $out (e.g. callgrind_annotate $out/callgrind.tokenize.spinneret.out)"
