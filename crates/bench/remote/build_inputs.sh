#!/usr/bin/env bash
# Builds the benchmark inputs for the remote-read benchmark (run.sh calls it).
# Measures nothing. Usage: build_inputs.sh OUTDIR [GB_SMALL=1] [GB_BIG=5]
# OUTDIR/unit.warc.gz : every corpus .warc.gz concatenated once (excluding
#   resiliparse/clipped.warc.gz, which is truncated, and .arc/.warc files)
# OUTDIR/www/big.warc.gz  : unit repeated to ~GB_SMALL GB (10^9 bytes)
# OUTDIR/www/big5.warc.gz : big.warc.gz repeated to ~GB_BIG GB
# A concatenation of gzip WARC members is itself a valid .warc.gz.
set -euo pipefail
OUT=${1:?outdir}; SMALL=${2:-1}; BIG=${3:-5}
CORPUS=/work/shared/corpus/warc
mkdir -p "$OUT/www"
if [ ! -s "$OUT/unit.warc.gz" ]; then
  find "$CORPUS" -name '*.warc.gz' ! -name 'clipped.warc.gz' -print0 | sort -z \
    | xargs -0 cat > "$OUT/unit.warc.gz"
fi
unit=$(stat -c %s "$OUT/unit.warc.gz")
if [ ! -s "$OUT/www/big.warc.gz" ]; then
  n=$(( (SMALL * 1000000000 + unit - 1) / unit ))
  [ "$n" -le 100000 ] || { echo "too many repeats" >&2; exit 1; }
  : > "$OUT/www/big.warc.gz.tmp"
  for ((i = 0; i < n; i++)); do cat "$OUT/unit.warc.gz"; done >> "$OUT/www/big.warc.gz.tmp"
  mv "$OUT/www/big.warc.gz.tmp" "$OUT/www/big.warc.gz"
fi
if [ "$BIG" -gt 0 ] && [ ! -s "$OUT/www/big5.warc.gz" ]; then
  for ((i = 0; i < BIG; i++)); do cat "$OUT/www/big.warc.gz"; done > "$OUT/www/big5.warc.gz.tmp"
  mv "$OUT/www/big5.warc.gz.tmp" "$OUT/www/big5.warc.gz"
fi
ls -l "$OUT/unit.warc.gz" "$OUT"/www/
