#!/usr/bin/env bash
# Measures the provider server (`livepush serve`) in one run against one local simulator (loopback only):
#   1. registration requests/s: wrk (Debian's `wrk`) POSTing /v1/activities, a new activity and token
#      each request (Benchmarks/register.lua); then single-push latency (request to simulator 200);
#   2. group fan-out: N activities registered in one group through the API, then the time from
#      POST /v1/groups/{g}/update until the simulator has accepted all N pushes (the server's
#      livepush_server_pushes_total{outcome="accepted"} counts APNs 200s), next to the raw client rate
#      (`livepush send --count N`) measured just before against the same simulator, with the server's
#      and the simulator's CPU time for it;
#   on SQLite (a temporary file) and, when a URL is given, on PostgreSQL (a new schema, dropped at the end);
#   3. server memory (VmRSS, VmHWM) with M activities seeded by SQL into a SQLite file (API seeding of 1M
#      takes too long here), after startup and after a group push to 100 of them.
# Usage: Benchmarks/server.sh [POSTGRES_URL]
#   e.g. Benchmarks/server.sh postgres://livepush:livepush@127.0.0.1:5432/livepush
#   PostgreSQL: `livepush serve` takes no schema option, so the script creates schema bench_<pid> and
#   points the role's search_path for that database at it (ALTER ROLE … IN DATABASE … SET) for the run;
#   both are undone on exit. Connections that set their own search_path (the tests do) are not affected.
# Environment: BENCH_SIZES (default "1000 10000 100000"), BENCH_CONCURRENCY (raw client, default 100),
#   BENCH_REG_SECONDS (default 20), BENCH_REG_CONNECTIONS (default 32), BENCH_FANOUT_TIMEOUT (s, default 300),
#   BENCH_MEMORY_ACTIVITIES (default 1000000; 0 skips), BENCH_STORES (default "sqlite postgres"),
#   BENCH_SERVE_ARGS (more `livepush serve` flags, e.g. "--batch-size 256"), BENCH_GROUP_PRIORITY (the group update's priority, default 5; 10 also
#   checks and counts each activity's hourly budget), BENCH_LATENCY_PUSHES (single-push latency samples,
#   default 30; 0 skips), BENCH_PERF_DIR (a folder: `perf record -g` of the server during each fan-out goes
#   there as serve-STORE-SIZE.data; read with `perf report --children -i FILE`), BENCH_HTTP_PORT (the server's, default 22180), and those of Benchmarks/common.sh.
set -euo pipefail
source "$(dirname "$0")/common.sh"
PG_URL="${1:-}"
SIZES="${BENCH_SIZES:-1000 10000 100000}"
CONCURRENCY="${BENCH_CONCURRENCY:-100}"
REG_SECONDS="${BENCH_REG_SECONDS:-20}"
REG_CONNECTIONS="${BENCH_REG_CONNECTIONS:-32}"
FANOUT_TIMEOUT="${BENCH_FANOUT_TIMEOUT:-300}"
MEMORY_ACTIVITIES="${BENCH_MEMORY_ACTIVITIES:-1000000}"
STORES="${BENCH_STORES:-sqlite postgres}"
LATENCY_PUSHES="${BENCH_LATENCY_PUSHES:-30}"
GROUP_PRIORITY="${BENCH_GROUP_PRIORITY:-5}"
HTTP_PORT="${BENCH_HTTP_PORT:-22180}"
export LIVEPUSH_APP_KEY=bench-app-key-0123456789 LIVEPUSH_BACKEND_KEY=bench-backend-key-0123456789
SERVER="http://127.0.0.1:$HTTP_PORT"

for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y $tool" >&2; exit 1; }
done
command -v sqlite3 >/dev/null || [ "$MEMORY_ACTIVITIES" = 0 ] || { echo "sqlite3 missing: apt-get install -y sqlite3" >&2; exit 1; }
if [ -n "$PG_URL" ]; then command -v psql >/dev/null || { echo "psql missing: apt-get install -y postgresql-client" >&2; exit 1; }; fi
cd "$ROOT"
bench_binary
WORK="$(mktemp -d)"
SIM="" SRV="" PG_SCHEMA=""

stop_server() {   # SIGTERM (graceful: in-flight requests finish), SIGKILL after 20 s
  if [ -n "$SRV" ]; then
    kill "$SRV" 2>/dev/null || true
    for _ in $(seq 1 200); do kill -0 "$SRV" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SRV" 2>/dev/null || true
    wait "$SRV" 2>/dev/null || true
    SRV=""
  fi
}
cleanup() {
  stop_server
  if [ -n "$SIM" ]; then kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; fi
  bench_pg_schema_drop "$PG_URL" quiet
  rm -rf "$WORK"
}
trap cleanup EXIT

now() { date +%s.%N; }
# The sum of livepush_server_pushes_total for outcome $1 ("accepted") or for every other outcome ("other").
pushes() {
  curl -sf "$SERVER/metrics" | awk -v want="$1" '
    /^livepush_server_pushes_total\{/ {
      accepted = index($0, "outcome=\"accepted\"") > 0
      if ((want == "accepted") == accepted) sum += $NF
    }
    END { printf "%d\n", sum }'
}
# Store calls so far by operation (livepush_store_duration_seconds): count and mean time.
store_calls() {
  curl -sf "$SERVER/metrics" | awk '
    /^livepush_store_duration_seconds_(sum|count)\{/ {
      match($0, /operation="[^"]*"/); op = substr($0, RSTART + 11, RLENGTH - 12)
      if ($0 ~ /_sum\{/) sum[op] = $NF; else count[op] = $NF
    }
    END { for (op in count) if (count[op] >= 100 || op ~ /enqueue|InGroup|recordContentStates|Page|pageMembers/)
      printf "%s %d × %.2f ms, ", op, count[op], 1000 * sum[op] / count[op]; print "" }'
}
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f\n", ($14 + $15) / hz}' "/proc/$1/stat"; }
memory() { awk '/^VmRSS|^VmHWM/ {printf "%s %.1f MB  ", $1, $2 / 1024} END {print ""}' "/proc/$SRV/status"; }

# start_server DATABASE LABEL
start_server() {
  "$BIN" serve --database "$1" --url "https://127.0.0.1:$PORT" --ca-file "$WORK/sim/ca.pem" \
    --port "$HTTP_PORT" ${BENCH_SERVE_ARGS:-} >"$WORK/serve-$2.log" 2>&1 &
  SRV=$!
  for _ in $(seq 1 300); do
    curl -sf "$SERVER/health" >/dev/null 2>&1 && return 0
    kill -0 "$SRV" 2>/dev/null || break
    sleep 0.1
  done
  echo "livepush serve did not start:" >&2; tail -20 "$WORK/serve-$2.log" >&2; exit 1
}

bench_simulator "$WORK"

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== livepush serve: default settings (8 workers, batch 128, 4 APNs connections, log level info)${BENCH_SERVE_ARGS:+, then $BENCH_SERVE_ARGS}"

# The largest size is seeded once; the activity numbered i is also in group g<N> for each smaller N > i.
SORTED_SIZES=$(printf '%s\n' $SIZES | sort -n | tr '\n' ' ')
LARGEST=$(printf '%s\n' $SIZES | sort -n | tail -1)
TIERS=""
for size in $SORTED_SIZES; do [ "$size" = "$LARGEST" ] || TIERS="${TIERS:+$TIERS,}g$size:$size"; done

for store in $STORES; do
  case "$store" in
    sqlite) DATABASE="$WORK/serve.sqlite" ;;
    postgres)
      [ -n "$PG_URL" ] || { echo "== PostgreSQL skipped: give its URL as the first argument"; continue; }
      bench_pg_schema_create "$PG_URL"
      DATABASE="$PG_URL" ;;
    *) echo "unknown store $store" >&2; exit 1 ;;
  esac
  start_server "$DATABASE" "$store"
  echo
  echo "== [$store] registration: wrk -t2 -c$REG_CONNECTIONS -d${REG_SECONDS}s, POST /v1/activities, a new activity each request"
  BENCH_RUN=$(printf '%08x' $((RANDOM * 32768 + RANDOM))) BENCH_GROUP=reg \
    wrk -t2 -c"$REG_CONNECTIONS" -d"${REG_SECONDS}s" --latency -s Benchmarks/register.lua "$SERVER" \
    | grep -E "Requests/sec|Latency  |50%|99%|requests in|Non-2xx|registrations:|Socket errors"
  echo "   server after registration: $(memory)"

  if [ "$LATENCY_PUSHES" != 0 ]; then
    echo "== [$store] single-push latency: $LATENCY_PUSHES updates to one activity, one at a time, each from the" \
      "request until the simulator accepted it (/metrics polled every 5 ms)"
    lat_token=$(printf '%064x' $(( (RANDOM * 32768 + RANDOM) * 65536 + 7 )))
    curl -sf -o /dev/null "$SERVER/v1/activities" -H "Authorization: Bearer $LIVEPUSH_APP_KEY" \
      -H "Content-Type: application/json" -d "{\"activityId\":\"latency-$$\",\"pushToken\":\"$lat_token\",\"bundleId\":\"$BUNDLE\",\"attributesType\":\"AdventureAttributes\",\"environment\":\"sandbox\"}"
    rm -f "$WORK/latencies"
    for _ in $(seq 1 "$LATENCY_PUSHES"); do
      before=$(pushes accepted)
      sleep 0.3   # idle workers: the push finds them waiting, as a lone update in production does
      started=$(now)
      curl -sf -o /dev/null "$SERVER/v1/activities/latency-$$/update" -H "Authorization: Bearer $LIVEPUSH_BACKEND_KEY" \
        -H "Content-Type: application/json" -d "{\"contentState\":$CONTENT}"
      for _ in $(seq 1 2000); do [ "$(pushes accepted)" -gt "$before" ] && break; sleep 0.005; done
      awk -v s="$started" -v e="$(now)" 'BEGIN {printf "%.1f\n", 1000 * (e - s)}' >>"$WORK/latencies"
    done
    sort -n "$WORK/latencies" | awk '{v[NR] = $1} END {
      printf "   latency p50 %.1f ms, p90 %.1f ms, max %.1f ms (%d pushes)\n", v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR], NR }'
  fi

  echo "== [$store] seeding $LARGEST activities in group g$LARGEST (and ${TIERS:-no smaller groups}) through the API"
  started=$(now)
  rm -f "$WORK/seeded"
  BENCH_RUN=$(printf '%08x' $((RANDOM * 32768 + RANDOM))) BENCH_GROUP="g$LARGEST" BENCH_TIERS="$TIERS" \
    BENCH_LIMIT="$LARGEST" BENCH_DONE_FILE="$WORK/seeded" \
    wrk -t1 -c"$REG_CONNECTIONS" -d3600s -s Benchmarks/register.lua "$SERVER" >"$WORK/seed.out" 2>&1 &
  WRK=$!
  while [ ! -e "$WORK/seeded" ] && kill -0 "$WRK" 2>/dev/null; do sleep 0.1; done
  seeded=$(now)
  kill -INT "$WRK" 2>/dev/null || true
  wait "$WRK" || true
  grep -E "registrations:|Non-2xx|Socket errors" "$WORK/seed.out" | sed 's/^ */   /'
  awk -v n="$LARGEST" -v s="$started" -v e="$seeded" 'BEGIN {printf "   %d registrations in %.1f s: %.0f/s\n", n, e - s, n / (e - s)}'
  echo "   server after seeding: $(memory)"

  for size in $SORTED_SIZES; do
    echo "== [$store] raw client: livepush send --count $size --concurrency $CONCURRENCY (1 connection)"
    raw=$("${SEND[@]}" --count "$size" --concurrency "$CONCURRENCY" --connections 1)
    echo "$raw" | sed 's/^/   /'
    raw_rate=$(echo "$raw" | sed -n 's/.*rate: \([0-9]*\) pushes\/s.*/\1/p')
    echo "== [$store] fan-out: POST /v1/groups/g$size/update ($size activities) until the simulator accepted all"
    before=$(pushes accepted)
    other_before=$(pushes other)
    cpu_before=$(cpu_seconds "$SRV") sim_cpu_before=$(cpu_seconds "$SIM")
    PERF=""
    if [ -n "${BENCH_PERF_DIR:-}" ]; then   # a CPU profile of the server during the fan-out
      mkdir -p "$BENCH_PERF_DIR"
      perf record -q -g -F 999 -p "$SRV" -o "$BENCH_PERF_DIR/serve-$store-$size.data" >/dev/null 2>&1 &
      PERF=$!
      sleep 0.3
    fi
    started=$(now)
    rm -f "$WORK/answered"
    # The request runs in the background: the pushes may all be delivered before it answers.
    (curl -s -m "$((FANOUT_TIMEOUT + 2))" -o "$WORK/answer.json" -w '%{http_code}' "$SERVER/v1/groups/g$size/update" \
      -H "Authorization: Bearer $LIVEPUSH_BACKEND_KEY" -H "Content-Type: application/json" \
      -d "{\"contentState\":$CONTENT,\"priority\":$GROUP_PRIORITY}" >"$WORK/code"; now >"$WORK/answered") &
    CURL=$!
    target=$((before + size))
    finished=""
    while :; do
      done_count=$(pushes accepted)
      [ -z "$finished" ] && [ "$done_count" -ge "$target" ] && finished=$(now)
      [ -n "$finished" ] && [ -e "$WORK/answered" ] && break
      if awk -v s="$started" -v e="$(now)" -v t="$FANOUT_TIMEOUT" 'BEGIN {exit !(e - s > t)}'; then
        echo "   STOPPED after ${FANOUT_TIMEOUT} s: $((done_count - before)) of $size accepted by the simulator;" \
          "HTTP request $([ -e "$WORK/answered" ] && echo answered || echo "not answered yet")"
        break
      fi
      # /metrics counts the outbox (a store call): poll every 0.1 s for 3 s, then every 0.5 s.
      if awk -v s="$started" -v e="$(now)" 'BEGIN {exit !(e - s < 3)}'; then sleep 0.1; else sleep 0.5; fi
    done
    wait "$CURL" 2>/dev/null || true   # at most 2 s more after a timeout (curl -m)
    send_id=$(jq -r '.sendId // "none"' "$WORK/answer.json" 2>/dev/null || echo "none")
    echo "   HTTP $(cat "$WORK/code") after $(awk -v s="$started" -v e="$(cat "$WORK/answered")" 'BEGIN {printf "%.2f", e - s}') s," \
      "group send $send_id"
    [ -n "$finished" ] || finished=$(now)
    if [ -n "$PERF" ]; then kill -INT "$PERF" 2>/dev/null || true; wait "$PERF" 2>/dev/null || true; fi
    delivered=$((done_count - before))
    others=$(( $(pushes other) - other_before ))
    awk -v n="$delivered" -v s="$started" -v e="$finished" -v raw="$raw_rate" -v o="$others" 'BEGIN {
      rate = n / (e - s)
      printf "   %d accepted by the simulator in %.2f s (other outcomes: %d): %.0f pushes/s = %.0f%% of the raw client (%d pushes/s)\n",
        n, e - s, o, rate, 100 * rate / raw, raw }'
    awk -v n="$delivered" -v c="$(cpu_seconds "$SRV")" -v b="$cpu_before" -v sc="$(cpu_seconds "$SIM")" -v sb="$sim_cpu_before" \
      'BEGIN {printf "   CPU until now: server %.2f s (%.0f µs per push), simulator %.2f s\n", c - b, 1e6 * (c - b) / n, sc - sb}'
    echo "   server: $(memory)"
    echo "   store calls since start: $(store_calls)"
  done
  stop_server
  bench_pg_schema_drop "$PG_URL"
done

if [ "$MEMORY_ACTIVITIES" != 0 ]; then
  echo
  echo "== [sqlite] memory with $MEMORY_ACTIVITIES activities (seeded by SQL, in groups of 100, one user each)"
  DB="$WORK/memory.sqlite"
  start_server "$DB" memory-schema   # creates the schema
  stop_server
  started=$(now)
  sqlite3 "$DB" >/dev/null <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $MEMORY_ACTIVITIES)
INSERT INTO activities (activity_id, push_token, bundle_id, attributes_type, environment, user_id, groups_json,
    frequent_pushes, state, token_state, registered_at, updated_at, started_at)
SELECT 'mem-' || i, printf('%064x', i + 1), '$BUNDLE', 'AdventureAttributes', 'sandbox', 'user-' || i,
    '["m' || (i / 100) || '"]', 0, 'active', 'valid', unixepoch('now'), unixepoch('now'), unixepoch('now') FROM n;
INSERT INTO activity_groups (group_name, activity_id) SELECT 'm' || (CAST(substr(activity_id, 5) AS INTEGER) / 100), activity_id FROM activities;
COMMIT;
SQL
  awk -v s="$started" -v e="$(now)" 'BEGIN {printf "   seeded in %.1f s\n", e - s}'
  echo "   database: $(du -sh "$DB" | cut -f1) (with WAL: $(du -ch "$DB"* | tail -1 | cut -f1))"
  start_server "$DB" memory
  sleep 2
  echo "   after startup and GET /health: $(memory)"
  count=$(curl -s "$SERVER/v1/activities/mem-123456" -H "Authorization: Bearer $LIVEPUSH_BACKEND_KEY" | jq -r .activity.activityId)
  echo "   GET /v1/activities/mem-123456: $count"
  before=$(pushes accepted)
  curl -s -o /dev/null "$SERVER/v1/groups/m4242/update" -H "Authorization: Bearer $LIVEPUSH_BACKEND_KEY" \
    -H "Content-Type: application/json" -d "{\"contentState\":$CONTENT}"
  for _ in $(seq 1 100); do [ "$(pushes accepted)" -ge $((before + 100)) ] && break; sleep 0.1; done
  echo "   after a group push to 100 of them ($(( $(pushes accepted) - before )) accepted): $(memory)"
  stop_server
fi
