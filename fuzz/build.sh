#!/usr/bin/env bash
# Builds every fuzz target with libFuzzer's coverage instrumentation on stable
# Rust, without cargo-fuzz: one cargo invocation, the flags `cargo fuzz build
# --sanitizer none` passes (its src/project.rs), and an explicit --target so
# build scripts and proc-macros are not instrumented. Binaries land in
# $FUZZ_TARGET_DIR/x86_64-unknown-linux-gnu/release/<target>.
set -euo pipefail
cd "$(dirname "$0")"
: "${FUZZ_TARGET_DIR:=$(pwd)/target}"
export FUZZ_TARGET_DIR
RUSTFLAGS="-Cpasses=sancov-module \
-Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters \
-Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares \
-Cllvm-args=-simplifycfg-branch-fold-threshold=0 \
-Cllvm-args=-sanitizer-coverage-stack-depth \
--cfg fuzzing \
-Clink-dead-code \
-Cdebug-assertions \
-Coverflow-checks ${RUSTFLAGS:-}" \
    exec cargo build --release --bins --locked \
    --target x86_64-unknown-linux-gnu --target-dir "$FUZZ_TARGET_DIR" "$@"
