#!/usr/bin/env bash
# The client's CPU per push and rate against h2load's, in rounds on one local simulator (loopback): each
# round runs h2load, then `livepush send` with each binary given, the same request, concurrency and
# one connection. Prints every round, then the medians and the ratios to h2load's medians. Rounds
# alternate the tools so that the machine's noise falls on all of them alike.
# Usage: Benchmarks/client-cpu.sh [COUNT] [CONCURRENCY] [ROUNDS] [BINARY...]
#   default: 50000 pushes, 100 in flight, 5 rounds, a release build of livepush made now.
set -euo pipefail
source "$(dirname "$0")/common.sh"
COUNT="${1:-50000}"
CONCURRENCY="${2:-100}"
ROUNDS="${3:-5}"
shift $(( $# < 3 ? $# : 3 ))
command -v h2load >/dev/null || { echo "h2load missing: apt-get install -y nghttp2-client" >&2; exit 1; }
cd "$ROOT"
if [ $# -eq 0 ]; then bench_binary; set -- "$BIN"; else BIN="$1"; fi
WORK="$(mktemp -d)"
SIM=""
trap 'kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; rm -rf "$WORK"' EXIT
bench_simulator "$WORK"
JWT="$("$BIN" jwt)"
printf '%s' "{\"aps\":{\"timestamp\":1685952000,\"event\":\"update\",\"content-state\":$CONTENT}}" >"$WORK/body.json"
URL="https://127.0.0.1:$PORT/3/device/$TOKEN"

echo "== machine: $(nproc) cores; count $COUNT, concurrency $CONCURRENCY, one connection, $ROUNDS rounds"
for round in $(seq 1 "$ROUNDS"); do
  /usr/bin/time -f "%U %S" -o "$WORK/cpu" h2load -n "$COUNT" -c 1 -m "$CONCURRENCY" -d "$WORK/body.json" \
    -H "authorization: bearer $JWT" -H "apns-push-type: liveactivity" \
    -H "apns-topic: $BUNDLE.push-type.liveactivity" -H "apns-priority: 5" -H "content-type: application/json" \
    "$URL" >"$WORK/h2load.out"
  grep -q "$COUNT succeeded" "$WORK/h2load.out" || { cat "$WORK/h2load.out" >&2; exit 1; }
  rate=$(grep -oE "[0-9.]+ req/s" "$WORK/h2load.out" | cut -d' ' -f1)
  awk -v n="$COUNT" -v rate="$rate" -v r="$round" '{printf "round %d h2load cpu_us %.1f rate %.0f\n", r, 1e6 * ($1 + $2) / n, rate}' "$WORK/cpu"
  index=0
  for binary in "$@"; do
    index=$((index + 1))
    /usr/bin/time -f "%U %S" -o "$WORK/cpu" "$binary" send --url "https://127.0.0.1:$PORT" --ca-file "$WORK/sim/ca.pem" \
      --token "$TOKEN" --bundle-id "$BUNDLE" --priority 5 --timestamp 1685952000 --content-state "$CONTENT" \
      --count "$COUNT" --concurrency "$CONCURRENCY" --connections 1 >"$WORK/send.out" 2>&1
    grep -q "accepted: $COUNT," "$WORK/send.out" || { cat "$WORK/send.out" >&2; exit 1; }
    rate=$(grep -oE "rate: [0-9]+" "$WORK/send.out" | cut -d' ' -f2)
    # The whole process's CPU (start, key, JWT and TLS included), as for h2load.
    awk -v n="$COUNT" -v rate="$rate" -v r="$round" -v name="livepush$index" \
      '{printf "round %d %s cpu_us %.1f rate %s\n", r, name, 1e6 * ($1 + $2) / n, rate}' "$WORK/cpu"
  done
done | tee "$WORK/rounds"

echo "== medians (livepushN is the Nth binary: $*)"
awk '
  { cpu[$3] = cpu[$3] " " $5; rate[$3] = rate[$3] " " $7; if (!($3 in seen)) { seen[$3] = 1; order[++n] = $3 } }
  function median(list,   v, k, i, j, t) {
    k = split(list, v, " ")
    for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] + 0 < v[i] + 0) { t = v[i]; v[i] = v[j]; v[j] = t }
    return k % 2 ? v[(k + 1) / 2] : (v[k / 2] + v[k / 2 + 1]) / 2
  }
  END {
    hc = median(cpu["h2load"]); hr = median(rate["h2load"])
    for (i = 1; i <= n; i++) {
      name = order[i]; c = median(cpu[name]); r = median(rate[name])
      printf "%-10s CPU %.1f µs per push (%.2fx h2load), rate %.0f pushes/s (%.2fx h2load)\n", name, c, c / hc, r, r / hr
    }
  }' "$WORK/rounds"
