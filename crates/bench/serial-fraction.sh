#!/usr/bin/env bash
# The serial fraction of a `spinneret links` run: instructions executed
# outside the worker pool (the reading thread, the splitter, the writing
# thread, the batch thread) over all instructions, counted per thread by
# callgrind (`--separate-threads=yes`; instruction counts hold still on a
# noisy machine where CPU times do not).
#
# A thread is a worker if it ran rayon's worker loop
# (`rayon_core::registry::WorkerThread::wait_until_cold`); every other
# thread is serial.
#
# Usage: crates/bench/serial-fraction.sh [links options and inputs...]
#   e.g. crates/bench/serial-fraction.sh --threads 2 /tmp/bench.warc.gz
# (a WARC like the pipeline benchmark's is made by
#  `python3 ../shared/corpus/make_warc.py /tmp/bench.warc.gz`).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"
command -v valgrind >/dev/null || { echo "valgrind not found (apt-get install valgrind)" >&2; exit 1; }
cargo build --release -p spinneret-cli >&2
target_dir="$(cargo metadata --format-version 1 --no-deps |
    sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')"
bin="${target_dir:-$root/target}/release/spinneret"
out="$(mktemp -d "${TMPDIR:-/tmp}/spinneret-serial.XXXXXX")"
valgrind --tool=callgrind --separate-threads=yes \
    --callgrind-out-file="$out/callgrind.out" \
    "$bin" links "$@" >/dev/null 2>"$out/log" ||
    { echo "spinneret failed; see $out/log" >&2; exit 1; }
total=0
serial=0
printf '%-8s %15s  %s\n' thread instructions role
for f in "$out"/callgrind.out-*; do
    ir="$(awk '/^(summary|totals):/ { print $2; exit }' "$f")"
    if grep -q 'rayon_core::registry::WorkerThread::wait_until_cold' "$f"; then
        role=worker
    else
        role=serial
        serial=$((serial + ir))
    fi
    total=$((total + ir))
    printf '%-8s %15s  %s\n' "${f##*-}" "$ir" "$role"
done
awk -v s="$serial" -v t="$total" 'BEGIN {
    printf "serial %.0f of %.0f instructions: %.2f %% (Amdahl bound %.1fx)\n", s, t, 100 * s / t, t / s }'
echo "callgrind output files: $out"
