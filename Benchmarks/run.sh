#!/usr/bin/env bash
# Measures, in one run against one local simulator (loopback only):
#   1. h2load (nghttp2-client): the ceiling, the same request and concurrency over one connection;
#   2. our client (`livepush send --count`), on one connection and on K connections;
#   3. async-http-client (Benchmarks/Sources/AHCBench) with the same request, for the transport choice.
# Usage: Benchmarks/run.sh [COUNT] [CONCURRENCY] [CONNECTIONS]  (environment: see Benchmarks/common.sh)
set -euo pipefail
source "$(dirname "$0")/common.sh"
COUNT="${1:-20000}"
CONCURRENCY="${2:-100}"
CONNECTIONS="${3:-4}"

command -v h2load >/dev/null || { echo "h2load missing: apt-get install -y nghttp2-client" >&2; exit 1; }
cd "$ROOT"
bench_binary
WORK="$(mktemp -d)"
SIM=""
trap 'kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; rm -rf "$WORK"' EXIT

bench_simulator "$WORK"
JWT="$("$BIN" jwt)"
BODY="{\"aps\":{\"timestamp\":1685952000,\"event\":\"update\",\"content-state\":$CONTENT}}"
printf '%s' "$BODY" >"$WORK/body.json"
URL="https://127.0.0.1:$PORT/3/device/$TOKEN"
CPU_BEFORE=$(awk '{print $14+$15}' /proc/$SIM/stat)

echo "== machine: $(nproc) cores; count $COUNT, concurrency $CONCURRENCY"
echo "== h2load, 1 connection, $CONCURRENCY streams"
/usr/bin/time -f "%U %S" -o "$WORK/h2load.cpu" h2load -n "$COUNT" -c 1 -m "$CONCURRENCY" -d "$WORK/body.json" \
  -H "authorization: bearer $JWT" -H "apns-push-type: liveactivity" \
  -H "apns-topic: $BUNDLE.push-type.liveactivity" -H "apns-priority: 5" -H "content-type: application/json" \
  "$URL" | grep -E "finished in|requests:|status codes:|time for request:"
awk -v n="$COUNT" '{printf "h2load CPU: %.3f s (%.1f µs per request)\n", $1 + $2, 1e6 * ($1 + $2) / n}' "$WORK/h2load.cpu"
echo "== h2load, $CONNECTIONS connections, $CONCURRENCY streams each"
h2load -n "$COUNT" -c "$CONNECTIONS" -m "$CONCURRENCY" -d "$WORK/body.json" \
  -H "authorization: bearer $JWT" -H "apns-push-type: liveactivity" \
  -H "apns-topic: $BUNDLE.push-type.liveactivity" -H "apns-priority: 5" -H "content-type: application/json" \
  "$URL" | grep -E "finished in|requests:|status codes:|time for request:"

echo "== livepush send (swift-nio-http2 client), 1 connection, concurrency $CONCURRENCY"
"${SEND[@]}" --count "$COUNT" --concurrency "$CONCURRENCY" --connections 1
echo "== livepush send, up to $CONNECTIONS connections, concurrency $((CONCURRENCY * CONNECTIONS))"
"${SEND[@]}" --count "$COUNT" --concurrency "$((CONCURRENCY * CONNECTIONS))" --connections "$CONNECTIONS"

if [ "${BENCH_SKIP_AHC:-0}" != 1 ]; then
  (cd Benchmarks && swift build -c release --product AHCBench >/dev/null)
  echo "== async-http-client, concurrency $CONCURRENCY"
  "$(cd Benchmarks && swift build -c release --show-bin-path)/AHCBench" --url "$URL" --ca-file "$WORK/sim/ca.pem" \
    --jwt "$JWT" --topic "$BUNDLE.push-type.liveactivity" --body-file "$WORK/body.json" \
    --count "$COUNT" --concurrency "$CONCURRENCY"
fi
CPU_AFTER=$(awk '{print $14+$15}' /proc/$SIM/stat)
echo "== simulator CPU during the run: $(( (CPU_AFTER - CPU_BEFORE) / $(getconf CLK_TCK) )) s"
