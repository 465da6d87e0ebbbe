#!/usr/bin/env bash
# Remote-read benchmark of spinneret over loopback (127.0.0.1 only).
# Measures: (1) `index`/`links` throughput and CPU per GB, local file vs HTTP (nginx,
# sendfile) vs S3 (moto server), with the server's CPU from /proc/PID/stat; (2) max RSS
# for a 1 GB and a 5 GB object (local vs HTTP); (3) `get` records/s at --in-flight 1/8/64
# (local, nginx, moto S3); (4) peers: `aws s3 cp` + local index, warcio streaming the
# object over HTTP, cdx_toolkit fetch_warc_record and requests+warcio range GETs.
# Usage: crates/bench/remote/run.sh            (as root; ~15-25 min on 2 cores)
# Env: BIN (default target/release/spinneret: cargo build --release -p spinneret-cli), BENCH_DIR (default /tmp/bench-remote, ~7 GB),
#      REPS (3), LINKS_REPS (3), GB_BIG (5; 0 skips the 5 GB object), KEEP_BIG5=1 keeps it.
# Needs: apt packages nginx and time (installed if missing), the project venv
# (target/py-venv: moto, boto3) and a peers venv (awscli, cdx_toolkit, warcio, requests)
# created under BENCH_DIR (awscli pins botocore, so it stays out of the project venv).
# Writes BENCH_DIR/results.jsonl and prints markdown tables. Stops every server it starts.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
BIN=${BIN:-$ROOT/target/release/spinneret}
R=${BENCH_DIR:-/tmp/bench-remote}
REPS=${REPS:-3}; LINKS_REPS=${LINKS_REPS:-3}; GB_BIG=${GB_BIG:-5}
PY=$ROOT/target/py-venv/bin/python
PEERS=$R/venv-peers
HTTP_PORT=${HTTP_PORT:-18080}; S3_PORT=${S3_PORT:-15000}
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_DEFAULT_REGION=us-east-1
export AWS_ENDPOINT_URL=http://127.0.0.1:$S3_PORT
export BENCH_JSONL=$R/results.jsonl
mkdir -p "$R/run"

command -v nginx >/dev/null && [ -x /usr/bin/time ] || { apt-get update -qq && apt-get install -y -qq nginx time; }
[ -x "$PEERS/bin/aws" ] || { python3 -m venv "$PEERS" && "$PEERS/bin/pip" install -q awscli cdx_toolkit warcio requests; }

"$HERE/build_inputs.sh" "$R" 1 "$GB_BIG"
BIG=$R/www/big.warc.gz; BIG5=$R/www/big5.warc.gz
SZ=$(stat -c %s "$BIG")

NGINX_PID=; MOTO_PID=
cleanup() {
  for p in $NGINX_PID $MOTO_PID; do kill "$p" 2>/dev/null || true; done
  for p in $NGINX_PID $MOTO_PID; do wait "$p" 2>/dev/null || true; done
  if [ "${KEEP_BIG5:-0}" != 1 ]; then rm -f "$BIG5"; fi
  rm -f "$R/x.warc.gz"
}
trap cleanup EXIT INT TERM

sed -e "s#@ROOT@#$R/www#; s#@PORT@#$HTTP_PORT#; s#@RUN@#$R/run#g" "$HERE/nginx.conf.in" > "$R/run/nginx.conf"
nginx -c "$R/run/nginx.conf" -p "$R/run" -e "$R/run/nginx-error.log" & NGINX_PID=$!
"$ROOT/target/py-venv/bin/moto_server" -H 127.0.0.1 -p "$S3_PORT" > "$R/run/moto.log" 2>&1 & MOTO_PID=$!
for i in $(seq 1 60); do
  curl -sf -o /dev/null -r 0-0 "http://127.0.0.1:$HTTP_PORT/big.warc.gz" && curl -s -o /dev/null "http://127.0.0.1:$S3_PORT/" && break
  [ "$i" = 60 ] && { echo "servers did not start" >&2; exit 1; }; sleep 1
done
NGINX_PIDS="$NGINX_PID,$(pgrep -P "$NGINX_PID" | paste -sd,)"   # master + worker, by parent PID
HTTP=http://127.0.0.1:$HTTP_PORT

# Objects on moto: the 1 GB object; for `get`, a prefix object holding only the records of
# the first 1000 index lines (moto reads the whole object for every range request).
"$PY" "$HERE/s3_upload.py" "$AWS_ENDPOINT_URL" bench "$BIG"
"$BIN" index --no-sort --dir-root "$R/www" "$BIG" > "$R/big.cdxj" 2>/dev/null
head -5000 "$R/big.cdxj" > "$R/lines5000.cdxj"
head -1000 "$R/big.cdxj" > "$R/lines1000.cdxj"
END1000=$(python3 -c "import json,sys;print(max(int(j['offset'])+int(j['length']) for j in (json.loads(l.split(' ',2)[2]) for l in open(sys.argv[1]))))" "$R/lines1000.cdxj")
"$PY" "$HERE/s3_upload.py" "$AWS_ENDPOINT_URL" benchget --prefix "$BIG" "$END1000" big.warc.gz

rm -f "$BENCH_JSONL"
b() { python3 "$HERE/bench.py" "$@"; }
cd "$R"
echo "== 1. throughput" >&2
b "tp:index local" "$SZ" "$REPS" - - -- "$BIN" index --no-sort "$BIG"
b "tp:index http nginx (8M x4)" "$SZ" "$REPS" "$NGINX_PIDS" - -- "$BIN" index --no-sort "$HTTP/big.warc.gz"
b "tp:index http nginx (32M x8)" "$SZ" "$REPS" "$NGINX_PIDS" - -- "$BIN" index --no-sort --remote-chunk-size 32M --remote-in-flight 8 "$HTTP/big.warc.gz"
b "tp:index s3 moto (8M x4)" "$SZ" "$REPS" "$MOTO_PID" - -- "$BIN" index --no-sort s3://bench/big.warc.gz
b "tp:index s3 moto (32M x8)" "$SZ" "$REPS" "$MOTO_PID" - -- "$BIN" index --no-sort --remote-chunk-size 32M --remote-in-flight 8 s3://bench/big.warc.gz
b "tp:links local" "$SZ" "$LINKS_REPS" - - -- "$BIN" links "$BIG"
b "tp:links http nginx (8M x4)" "$SZ" "$LINKS_REPS" "$NGINX_PIDS" - -- "$BIN" links "$HTTP/big.warc.gz"

echo "== 2. max RSS vs size" >&2
b "rss:index local 1 GB" "$SZ" 1 - - -- "$BIN" index --no-sort "$BIG"
b "rss:index http 1 GB (8M x4)" "$SZ" 1 "$NGINX_PIDS" - -- "$BIN" index --no-sort "$HTTP/big.warc.gz"
if [ -s "$BIG5" ]; then
  SZ5=$(stat -c %s "$BIG5")
  b "rss:index local 5 GB" "$SZ5" 1 - - -- "$BIN" index --no-sort "$BIG5"
  b "rss:index http 5 GB (8M x4)" "$SZ5" 1 "$NGINX_PIDS" - -- "$BIN" index --no-sort "$HTTP/big5.warc.gz"
  b "rss:index http 5 GB (32M x8)" "$SZ5" 1 "$NGINX_PIDS" - -- "$BIN" index --no-sort --remote-chunk-size 32M --remote-in-flight 8 "$HTTP/big5.warc.gz"
fi

echo "== 3. get" >&2
for n in 1 8 64; do
  b "get:local 5000 lines, in-flight $n" 0 "$REPS" - "$R/lines5000.cdxj" -- "$BIN" get --base "$R/www" --in-flight "$n"
  b "get:http nginx 5000 lines, in-flight $n" 0 "$REPS" "$NGINX_PIDS" "$R/lines5000.cdxj" -- "$BIN" get --base "$HTTP/" --in-flight "$n"
  b "get:http nginx 1000 lines, in-flight $n" 0 "$REPS" "$NGINX_PIDS" "$R/lines1000.cdxj" -- "$BIN" get --base "$HTTP/" --in-flight "$n"
  b "get:s3 moto 1000 lines ($((END1000 / 1000000)) MB object), in-flight $n" 0 "$REPS" "$MOTO_PID" "$R/lines1000.cdxj" -- "$BIN" get --base s3://benchget/ --in-flight "$n"
done

echo "== 4. peers" >&2
b "peer:aws s3 cp (moto) + local spinneret index" "$SZ" 1 "$MOTO_PID" - -- bash -c \
  "'$PEERS/bin/aws' s3 cp --only-show-errors s3://bench/big.warc.gz '$R/x.warc.gz' --endpoint-url '$AWS_ENDPOINT_URL' && '$BIN' index --no-sort '$R/x.warc.gz' >/dev/null"
rm -f "$R/x.warc.gz"
export BENCH_KEEP_STDOUT=1 CDXT_DEFAULT_MIN_RETRY_INTERVAL=0
b "peer:warcio ArchiveIterator over one HTTP GET (nginx), all records read" "$SZ" 1 "$NGINX_PIDS" - -- "$PEERS/bin/python" "$HERE/peers.py" warcio-stream "$HTTP/big.warc.gz"
b "peer:cdx_toolkit fetch_warc_record, 5000 lines, sequential (nginx)" 0 1 "$NGINX_PIDS" - -- "$PEERS/bin/python" "$HERE/peers.py" cdxt-get "$HTTP/" "$R/lines5000.cdxj"
b "peer:requests.Session + warcio range GETs, 5000 lines, sequential (nginx)" 0 1 "$NGINX_PIDS" - -- "$PEERS/bin/python" "$HERE/peers.py" warcio-range "$HTTP/" "$R/lines5000.cdxj"
b "peer:cdx_toolkit fetch_warc_record, 1000 lines, sequential (nginx)" 0 1 "$NGINX_PIDS" - -- "$PEERS/bin/python" "$HERE/peers.py" cdxt-get "$HTTP/" "$R/lines1000.cdxj"
unset BENCH_KEEP_STDOUT

python3 "$HERE/tables.py" "$BENCH_JSONL" | tee "$R/tables.md"
