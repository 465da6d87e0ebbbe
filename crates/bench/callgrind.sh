#!/usr/bin/env bash
# Instructions per URL for spinneret-url, ada-url and url, counted by callgrind.
#
# Why: wall-clock timings on a shared 2-core machine are noisy; instruction
# counts are deterministic, so they show whether a parser change made the
# common path cheaper even when timings cannot. (Instructions are not time:
# SIMD-heavy code such as ada's does more per instruction. Use both.)
#
# How: for each dataset the bench binary's hidden `kernel <library> <dataset>`
# mode (library: spinneret, spinneret-buf — every URL parsed into one reused
# `UrlBuf` —, ada, url, or none) runs exactly one untimed pass of parse + href (no warm-up, no
# repetitions). `kernel none <dataset>` only loads the data; its instruction
# count is subtracted from each library's, and the rest is divided by the
# number of lines (failing lines included, as in `spinneret-bench url`).
#
# Usage: crates/bench/callgrind.sh [DATASET...]
#   DATASET defaults to the five URL lists; `extracted_links` (relative
#   resolution against each page URL) may also be named.
# The callgrind output files are kept in a temporary folder (printed at the
# end) for `callgrind_annotate`.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }

if [ "$#" -gt 0 ]; then
    datasets=("$@")
else
    datasets=(ada_kasztp ada_userbait ada_node_files ada_isaacs_files absolute_links)
fi

cargo build --release -p spinneret-bench >&2
target_dir="$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="${target_dir:-$root/target}/release/spinneret-bench"
[ -x "$bin" ] || { echo "bench binary not found at $bin" >&2; exit 1; }

out="$(mktemp -d "${TMPDIR:-/tmp}/spinneret-callgrind.XXXXXX")"

# Runs one kernel under callgrind; prints "<Ir total> <items>".
run_kernel() {
    local lib="$1" ds="$2"
    local file="$out/callgrind.$ds.$lib.out"
    valgrind --tool=callgrind --callgrind-out-file="$file" \
        "$bin" kernel "$lib" "$ds" >"$out/$ds.$lib.stdout" 2>"$out/$ds.$lib.log" || {
        echo "kernel $lib $ds failed; see $out/$ds.$lib.log" >&2
        exit 1
    }
    local ir items
    # The "summary:" line (older callgrind: "totals:") holds the Ir total.
    ir="$(awk '/^(summary|totals):/ { print $2; exit }' "$file")"
    items="$(sed -n 's/^items=\([0-9]*\).*/\1/p' "$out/$ds.$lib.stdout")"
    [ -n "$ir" ] && [ -n "$items" ] || { echo "no totals for $lib $ds" >&2; exit 1; }
    echo "$ir $items"
}

per_item() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (a - b) / n }'; }
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { if (y > 0) printf "%.2f", x / y; else print "n/a" }'; }

echo "Instructions (Ir) per URL, one pass of parse + href, data-loading baseline subtracted"
echo "(ratios peer/spinneret: above 1.00 means spinneret executes fewer instructions)"
echo
printf '| %-18s | %8s | %14s | %11s | %12s | %10s | %13s | %10s | %13s |\n' \
    dataset URLs "spinneret Ir" "UrlBuf Ir" "ada-url Ir" "url Ir" "ada/spinneret" "ada/UrlBuf" "url/spinneret"
printf '| %-18s | %8s | %14s | %11s | %12s | %10s | %13s | %10s | %13s |\n' \
    --- ---: ---: ---: ---: ---: ---: ---: ---:
for ds in "${datasets[@]}"; do
    read -r base n < <(run_kernel none "$ds")
    read -r s _ < <(run_kernel spinneret "$ds")
    read -r sb _ < <(run_kernel spinneret-buf "$ds")
    read -r a _ < <(run_kernel ada "$ds")
    read -r u _ < <(run_kernel url "$ds")
    sp="$(per_item "$s" "$base" "$n")"
    bp="$(per_item "$sb" "$base" "$n")"
    ap="$(per_item "$a" "$base" "$n")"
    up="$(per_item "$u" "$base" "$n")"
    printf '| %-18s | %8s | %14s | %11s | %12s | %10s | %13s | %10s | %13s |\n' \
        "$ds" "$n" "$sp" "$bp" "$ap" "$up" "$(ratio "$ap" "$sp")" "$(ratio "$ap" "$bp")" "$(ratio "$up" "$sp")"
done
echo
echo "callgrind output files: $out (e.g. callgrind_annotate $out/callgrind.<dataset>.spinneret.out)"
