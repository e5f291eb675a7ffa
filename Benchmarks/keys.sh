#!/usr/bin/env bash
# How long `livepush serve --keys FILE` takes to start with many provider keys (issue 30, finding 8):
# the time from starting the process until GET /health answers, and the server's CPU time by then
# (utime + stime from /proc/PID/stat), for
#   1. one key (`--key-file`, the reference);
#   2. N keys, each in its own .p8 file;
#   3. N entries naming one .p8 file (each read once).
# Every entry has a Key ID and a topic of its own, so the keyring takes them all. The server points at an
# APNs URL nobody listens on (it connects only when it sends) and a temporary SQLite file.
# Usage: Benchmarks/keys.sh [N]   (default 1000)
# Environment: BENCH_RUNS (default 3), BENCH_HTTP_PORT (default 22181), and those of Benchmarks/common.sh
#   (BENCH_BIN: the livepush binary, else a release build made now).
set -euo pipefail
source "$(dirname "$0")/common.sh"
cd "$ROOT"
N="${1:-1000}"
RUNS="${BENCH_RUNS:-3}"
HTTP_PORT="${BENCH_HTTP_PORT:-22181}"
bench_binary
WORK="$(mktemp -d)"
SRV=""
cleanup() {
  if [ -n "$SRV" ]; then kill "$SRV" 2>/dev/null || true; wait "$SRV" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# A Key ID is ten characters, letters and digits: K plus nine digits.
key_id() { printf 'K%09d' "$1"; }

echo "== making $N keys"
mkdir -p "$WORK/many" "$WORK/one"
"$BIN" keygen --out "$WORK/one/shared.p8" >/dev/null
for i in $(seq 1 "$N"); do "$BIN" keygen --out "$WORK/many/$i.p8" >/dev/null; done
# keys_file DIR FILE_OF_ENTRY: writes DIR/keys.json with N entries.
keys_file() {
  local dir=$1 name=$2
  {
    printf '{"teamId":"BENCHTEAM1","keys":['
    for i in $(seq 1 "$N"); do
      [ "$i" = 1 ] || printf ','
      printf '{"keyFile":"%s","keyId":"%s","topics":["com.example.bench%d"]}' "$(eval echo "$name")" "$(key_id "$i")" "$i"
    done
    printf ']}\n'
  } >"$dir/keys.json"
}
keys_file "$WORK/many" '$i.p8'
keys_file "$WORK/one" 'shared.p8'

# measure LABEL ARGS...: starts serve with ARGS RUNS times; prints wall ms and CPU ms to /health each time.
measure() {
  local label=$1; shift
  for run in $(seq 1 "$RUNS"); do
    rm -f "$WORK/db.sqlite"*
    local start end ticks
    start=$(date +%s%N)
    "$BIN" serve --database "$WORK/db.sqlite" --url "https://127.0.0.1:9" --port "$HTTP_PORT" "$@" >"$WORK/serve.log" 2>&1 &
    SRV=$!
    until curl -sf "http://127.0.0.1:$HTTP_PORT/health" >/dev/null 2>&1; do
      if ! kill -0 "$SRV" 2>/dev/null; then echo "livepush serve did not start:" >&2; tail -20 "$WORK/serve.log" >&2; exit 1; fi
      sleep 0.01
    done
    end=$(date +%s%N)
    ticks=$(awk '{ print $14 + $15 }' "/proc/$SRV/stat")
    kill "$SRV"; wait "$SRV" 2>/dev/null || true; SRV=""
    printf '%-34s run %d: %6d ms to /health, %6d ms CPU\n' "$label" "$run" $(((end - start) / 1000000)) \
      $((ticks * 1000 / $(getconf CLK_TCK)))
  done
}

echo "== livepush serve start-up ($BIN)"
measure "one key (--key-file)" --key-file "$WORK/one/shared.p8" --key-id "$(key_id 0)" --team-id BENCHTEAM1
measure "$N keys, one .p8 file each" --keys "$WORK/many/keys.json"
measure "$N entries of one .p8 file" --keys "$WORK/one/keys.json"
