#!/usr/bin/env bash
# Builds every fuzz target (fuzz/build.sh: stable Rust, no cargo-fuzz needed)
# and runs each for SECONDS with its seeds (fuzz/seeds.sh) and dictionary;
# fails on any crash, leak, timeout or out-of-memory. Prints per target the
# runs and libFuzzer's final coverage (`cov:` edges, `ft:` features), then
# `fuzz: N passed, M failed`.
#
# Usage: fuzz/run.sh SECONDS [TARGET...]
#        fuzz/run.sh ci [TARGET...]
#   SECONDS: each target fuzzes the working corpus fuzz/corpus/<target> for
#     that long, with a random seed (campaigns; the corpus keeps growing).
#   ci: each target runs a fixed number of inputs (about 10 s each here)
#     with seed 1 from a freshly seeded corpus in fuzz/ci-corpus/: the
#     budget does not depend on the machine or its load. (Runs still differ
#     a little: libFuzzer mutates with the values the target compares, and
#     some of those are hash seeds and addresses.)
#   FUZZ_JOBS=2        targets run at a time (default 1; one per core)
#   FUZZ_TARGET_DIR=…  cargo target dir (default fuzz/target)
#   FUZZ_ARGS="…"      extra libFuzzer flags for every target
#   FUZZ_ARGS_<target>="…"  extra libFuzzer flags for one target
#   FUZZ_SKIP="a b"    targets to leave out
# Crashing inputs land in fuzz/artifacts/<target>/; logs in fuzz/logs/.
set -uo pipefail
cd "$(dirname "$0")"
budget="${1:?usage: fuzz/run.sh SECONDS|ci [TARGET...]}"
shift
case "$budget" in
ci)
    rm -rf ci-corpus
    export FUZZ_CORPUS=ci-corpus
    ;;
*[!0-9]* | '') echo "fuzz/run.sh: SECONDS must be a number, or ci" >&2; exit 2 ;;
esac
corpus="${FUZZ_CORPUS:-corpus}"
if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(sed -n 's/^name = "\(.*\)"$/\1/p' Cargo.toml | grep -v '^spinneret-fuzz$')
fi
: "${FUZZ_TARGET_DIR:=$(pwd)/target}"
export FUZZ_TARGET_DIR
jobs="${FUZZ_JOBS:-1}"

echo "== fuzz: building ${#targets[@]} targets"
./build.sh || { echo "fuzz: build failed"; exit 1; }
./seeds.sh "${targets[@]}" || { echo "fuzz: seeding failed"; exit 1; }
bin_dir="$FUZZ_TARGET_DIR/x86_64-unknown-linux-gnu/release"
mkdir -p logs

# ci_runs TARGET: the inputs TARGET runs in `ci` mode, about 10 s on this
# project's 2-core machine (two targets at a time).
ci_runs() {
    case "$1" in
    diff_ada) echo 400000 ;;
    url_parse) echo 200000 ;;
    url_setters) echo 150000 ;;
    search_params) echo 100000 ;;
    canon | tokenizer_chunks | tree_builder) echo 20000 ;;
    tree_parallel) echo 12000 ;;
    extract | warc | index) echo 5000 ;;
    skim) echo 1500 ;;
    text) echo 2000 ;;
    encoding) echo 1500 ;;
    *) echo 10000 ;;
    esac
}

# run_one TARGET: fuzzes TARGET for the budget; the summary line goes to
# logs/TARGET.summary, the exit status is libFuzzer's.
run_one() {
    local target="$1" dict=() max_len=4096 limit
    case "$target" in
    url_* | diff_ada | canon | search_params) dict=(-dict=dict/url.dict) ;;
    tokenizer_chunks | tree_builder | tree_parallel | render_pieces | extract | text) dict=(-dict=dict/html.dict) ;;
    warc | index | wat) dict=(-dict=dict/warc.dict) max_len=16384 ;;
    esac
    if [ "$budget" = ci ]; then
        limit=(-seed=1 -runs="$(ci_runs "$target")")
    else
        limit=(-max_total_time="$budget")
    fi
    mkdir -p "artifacts/$target"
    local start=$SECONDS extra_var="FUZZ_ARGS_$target"
    # -timeout: an input that takes 20 s is a hang (no progress), a failure.
    # shellcheck disable=SC2086
    "$bin_dir/$target" "$corpus/$target" "${dict[@]}" \
        "${limit[@]}" -max_len="$max_len" -timeout=20 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts/$target/" -print_final_stats=1 ${FUZZ_ARGS:-} ${!extra_var:-} \
        > "logs/$target.log" 2>&1
    local status=$?
    local elapsed=$((SECONDS - start))
    local runs cov ft
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "logs/$target.log" | tail -1)
    # (-fork mode prints no final stats: its last "#N:" status line counts.)
    [ -n "$runs" ] || runs=$(grep -o '^#[0-9]*' "logs/$target.log" | tail -1 | tr -d '#')
    cov=$(grep -o 'cov: [0-9]*' "logs/$target.log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "logs/$target.log" | tail -1 | cut -d' ' -f2)
    local verdict=ok
    [ "$status" -eq 0 ] || verdict="FAILED (exit $status, see fuzz/logs/$target.log)"
    printf '%-17s runs %10s  time %5ss  cov %6s  ft %6s  %s\n' \
        "$target" "${runs:-?}" "$elapsed" "${cov:-?}" "${ft:-?}" "$verdict" > "logs/$target.summary"
    cat "logs/$target.summary"
    return "$status"
}

passed=0
failed=0
failures=()
running=0
declare -A pids
for target in "${targets[@]}"; do
    case " ${FUZZ_SKIP:-} " in *" $target "*) continue ;; esac
    if [ ! -x "$bin_dir/$target" ]; then
        echo "fuzz: no binary for $target"
        failed=$((failed + 1))
        continue
    fi
    run_one "$target" &
    pids[$target]=$!
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait
for target in "${!pids[@]}"; do
    if grep -q ' ok$' "logs/$target.summary" 2>/dev/null; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        failures+=("$target")
    fi
done
[ "${#failures[@]}" -eq 0 ] || echo "fuzz: failing targets: ${failures[*]} (artifacts in fuzz/artifacts/)"
echo "fuzz: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
