#!/usr/bin/env bash
# Measures how fast the provider server (`livepush serve`) takes in per-activity updates and delivers them
# (issue 29), in one run against one local simulator (loopback only, `livepush simulator
# --accept-unknown-tokens --no-rate-limit`), on SQLite (a temporary file) and, when a URL is given, on
# PostgreSQL (a new schema, dropped at the end). For each store, in this order:
#   1. registrations/s: wrk -t2 -c32 POSTing /v1/activities, a new activity and token each request
#      (Benchmarks/register.lua); then the activities for 3 and 4 seeded the same way (wrk -t1,
#      BENCH_LIMIT): K, or as many as the batch part sends items when that is more;
#   2. the raw client: `livepush send --count N --concurrency 100 --connections 1` against the same
#      simulator, its rate and CPU per push (its own "client CPU" line); run before 3 and again after 4,
#      the ratios use the mean of the two;
#   3. single updates end to end: wrk -t2 -c32 -dDs POSTing /v1/activities/{id}/update to random ones of
#      the K, each with a content-state of its own (Benchmarks/update.lua): requests taken/s, latency
#      p50/p99 (wrk), then delivered end to end per second: from the start of wrk until the server's
#      livepush_server_pushes_total{outcome="accepted"} (the simulator's 200s) has grown by the pushes
#      taken in (livepush_server_accepted_pushes_total minus livepush_server_coalesced_updates_total; the
#      202s' push ids when those do not move), or stopped growing for BENCH_DRAIN_IDLE s; the server's CPU
#      time (utime + stime from /proc/PID/stat) over that span per delivered push;
#   4. the batch endpoint end to end: BENCH_BATCH_ITEMS updates in bodies of B items (`POST /v1/updates`,
#      {"updates":[{"activityId":…,"event":"update","contentState":{…}}, …]}, each to an activity of its
#      own, so that none replaces another, with a content-state of its own), sent by S concurrent senders
#      (curl, bodies written beforehand); delivered/s and server CPU per push as in 3. Skipped, with a line
#      saying so, when the server answers 404 for /v1/updates (it has no batch endpoint).
#   Then a summary table per store, with the ratios to the raw client.
# `livepush serve` runs with default settings and `--backend-rate-limit 0` (its default, 60,000 a minute
# per backend key, would otherwise answer 429 above 1,000 requests/s), plus BENCH_SERVE_ARGS.
# Usage: Benchmarks/intake.sh [POSTGRES_URL]
#   e.g. BENCH_BIN=.build/release/livepush Benchmarks/intake.sh postgres://livepush:livepush@127.0.0.1:5432/livepush
#   PostgreSQL: as Benchmarks/server.sh, the script creates schema bench_<pid> and points the role's
#   search_path for that database at it for the run; both are undone on exit.
# Environment: BENCH_STORES (default "sqlite postgres"), BENCH_REG_SECONDS (default 10; 0 skips the
#   registration rate), BENCH_REG_CONNECTIONS (default 32), BENCH_ACTIVITIES (K, default 5000),
#   BENCH_RAW_COUNT (raw client pushes, default 20000), BENCH_CONCURRENCY (raw client, default 100),
#   BENCH_UPDATE_SECONDS (D, default 10), BENCH_UPDATE_CONNECTIONS (default 32), BENCH_BATCH_ITEMS
#   (default 50000; 0 skips the batch endpoint), BENCH_BATCH_SIZE (B, default 500, at most 1000),
#   BENCH_BATCH_SENDERS (S, default 4), BENCH_DRAIN_IDLE (s, default 5), BENCH_DRAIN_TIMEOUT (s after the
#   load ended, default 300), BENCH_SERVE_ARGS (more `livepush serve` flags), BENCH_PERF_DIR (a folder:
#   `perf record -g` of the server during 3 and 4 goes there as intake-STORE-single.data and
#   intake-STORE-batch.data), BENCH_METRICS_DIR (a folder: the server's /metrics after 3 and after 4 go there
#   as intake-STORE-single.prom and intake-STORE-batch.prom, with the store's operation durations and
#   group sizes), BENCH_HTTP_PORT (the server's, default 22180), and those of
#   Benchmarks/common.sh (BENCH_BIN: the livepush binary, else a release build made now).
set -euo pipefail
source "$(dirname "$0")/common.sh"
PG_URL="${1:-}"
STORES="${BENCH_STORES:-sqlite postgres}"
REG_SECONDS="${BENCH_REG_SECONDS:-10}"
REG_CONNECTIONS="${BENCH_REG_CONNECTIONS:-32}"
ACTIVITIES="${BENCH_ACTIVITIES:-5000}"
RAW_COUNT="${BENCH_RAW_COUNT:-20000}"
CONCURRENCY="${BENCH_CONCURRENCY:-100}"
UPDATE_SECONDS="${BENCH_UPDATE_SECONDS:-10}"
UPDATE_CONNECTIONS="${BENCH_UPDATE_CONNECTIONS:-32}"
BATCH_ITEMS="${BENCH_BATCH_ITEMS:-50000}"
BATCH_SIZE="${BENCH_BATCH_SIZE:-500}"
BATCH_SENDERS="${BENCH_BATCH_SENDERS:-4}"
DRAIN_IDLE="${BENCH_DRAIN_IDLE:-5}"
DRAIN_TIMEOUT="${BENCH_DRAIN_TIMEOUT:-300}"
HTTP_PORT="${BENCH_HTTP_PORT:-22180}"
export LIVEPUSH_APP_KEY=bench-app-key-0123456789 LIVEPUSH_BACKEND_KEY=bench-backend-key-0123456789
SERVER="http://127.0.0.1:$HTTP_PORT"

for tool in wrk curl jq; do
  command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y $tool" >&2; exit 1; }
done
if [ -n "$PG_URL" ]; then command -v psql >/dev/null || { echo "psql missing: apt-get install -y postgresql-client" >&2; exit 1; }; fi
if [ "$BATCH_SIZE" -gt 1000 ] || [ "$BATCH_SIZE" -lt 1 ]; then
  echo "BENCH_BATCH_SIZE $BATCH_SIZE: from 1 to 1000 (the endpoint's limit)" >&2
  exit 1
fi
cd "$ROOT"
bench_binary
WORK="$(mktemp -d)"
SIM="" SRV="" PG_SCHEMA="" PERF=""

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
  if [ -n "$PERF" ]; then kill -INT "$PERF" 2>/dev/null || true; wait "$PERF" 2>/dev/null || true; fi
  stop_server
  if [ -n "$SIM" ]; then kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; fi
  bench_pg_schema_drop "$PG_URL" quiet
  rm -rf "$WORK"
}
trap cleanup EXIT

now() { date +%s.%N; }
elapsed() { awk -v s="$1" -v e="$(now)" 'BEGIN {printf "%.2f\n", e - s}'; }
run_id() { printf '%08x' $((RANDOM * 32768 + RANDOM)); }
cpu_seconds() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.2f\n", ($14 + $15) / hz}' "/proc/$1/stat"; }
# The server's counters: "DELIVERED OTHER INTAKE COALESCED" — livepush_server_pushes_total for outcome
# accepted (APNs 200s) and for every other outcome, livepush_server_accepted_pushes_total (pushes taken
# into the outbox), livepush_server_coalesced_updates_total (pending pushes replaced, never sent).
counters() {
  curl -sf "$SERVER/metrics" | awk '
    /^livepush_server_pushes_total\{/ { if (index($0, "outcome=\"accepted\"") > 0) d += $NF; else o += $NF }
    /^livepush_server_accepted_pushes_total[ {]/ { i += $NF }
    /^livepush_server_coalesced_updates_total[ {]/ { c += $NF }
    END { printf "%d %d %d %d\n", d, o, i, c }'
}
delivered() { counters | cut -d' ' -f1; }
# wrk's latency percentile line ("50%  159.23ms") in milliseconds.
percentile_ms() {
  awk -v p="$1%" '$1 == p {
    v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
    printf "%.1f\n", v * (u == "us" ? 0.001 : u == "s" ? 1000 : u == "m" ? 60000 : 1) }' "$2"
}

# start_server DATABASE LABEL
start_server() {
  "$BIN" serve --database "$1" --url "https://127.0.0.1:$PORT" --ca-file "$WORK/sim/ca.pem" \
    --port "$HTTP_PORT" --backend-rate-limit 0 ${BENCH_SERVE_ARGS:-} >"$WORK/serve-$2.log" 2>&1 &
  SRV=$!
  for _ in $(seq 1 300); do
    curl -sf "$SERVER/health" >/dev/null 2>&1 && return 0
    kill -0 "$SRV" 2>/dev/null || break
    sleep 0.1
  done
  echo "livepush serve did not start:" >&2; tail -20 "$WORK/serve-$2.log" >&2; exit 1
}

# perf_start NAME / perf_stop: a CPU profile of the server when BENCH_PERF_DIR is set.
perf_start() {
  [ -n "${BENCH_PERF_DIR:-}" ] || return 0
  mkdir -p "$BENCH_PERF_DIR"
  perf record -q -g -F 999 -p "$SRV" -o "$BENCH_PERF_DIR/$1.data" >/dev/null 2>&1 &
  PERF=$!
  sleep 0.3
}
perf_stop() {
  if [ -n "$PERF" ]; then kill -INT "$PERF" 2>/dev/null || true; wait "$PERF" 2>/dev/null || true; PERF=""; fi
}

# raw_client LABEL: prints the raw client's lines and appends "RATE CPU_US" to $WORK/raw-$store.
raw_client() {
  echo "== [$store] raw client ($1): livepush send --count $RAW_COUNT --concurrency $CONCURRENCY --connections 1"
  local out
  out=$("${SEND[@]}" --count "$RAW_COUNT" --concurrency "$CONCURRENCY" --connections 1)
  echo "$out" | sed 's/^/   /'
  echo "$out" | awk '
    /^sent:/ { gsub(",", ""); sent = $2 }
    /rate:/ { for (i = 1; i <= NF; i++) { if ($i == "rate:") rate = $(i + 1); if ($i == "CPU:") cpu = $(i + 1) } }
    END { printf "%d %.1f\n", rate, 1e6 * cpu / sent }' >>"$WORK/raw-$store"
}

# load_ended: the time and the delivered count as the load ends (before its answers are read), which
# `report` starts from: pushes all delivered by then count as delivered then.
load_ended() { ENDED_AT=$(now); ENDED_COUNT=$(delivered); }

# drain BEFORE_DELIVERED EXPECTED: waits until the simulator has accepted EXPECTED pushes more
# than BEFORE_DELIVERED, or the count stopped growing for DRAIN_IDLE s, or DRAIN_TIMEOUT s passed; sets
# DELIVERED and FINISHED (the moment the last push was seen accepted, to 0.1 s, at the earliest the end
# of the load) and DRAINED (yes/no).
drain() {
  local before=$1 expected=$2 count last_count last_change=$ENDED_AT
  last_count=$((ENDED_COUNT - before))
  local deadline
  deadline=$(awk -v t="$(now)" -v d="$DRAIN_TIMEOUT" 'BEGIN {printf "%.1f", t + d}')
  DRAINED=no
  while :; do
    count=$(( $(delivered) - before ))
    if [ "$count" != "$last_count" ]; then last_count=$count; last_change=$(now); fi
    if [ "$count" -ge "$expected" ]; then DRAINED=yes; break; fi
    awk -v l="$last_change" -v e="$(now)" -v i="$DRAIN_IDLE" 'BEGIN {exit !(e - l > i)}' && break
    awk -v d="$deadline" -v e="$(now)" 'BEGIN {exit !(e > d)}' && break
    sleep 0.1
  done
  DELIVERED=$count
  FINISHED=$last_change
}

# report NAME STARTED CPU_BEFORE COUNTERS_BEFORE EXPECTED_FROM_ANSWERS: waits for the drain, prints the
# delivered rate and the server's CPU per push, and sets RATE and CPU_US.
report() {
  local name=$1 started=$2 cpu_before=$3 answers=$5
  local -a before
  read -r -a before <<<"$4"
  local -a after
  read -r -a after <<<"$(counters)"
  local intake=$(( after[2] - before[2] )) coalesced=$(( after[3] - before[3] )) expected
  if [ "$intake" -gt 0 ]; then expected=$(( intake - coalesced )); else expected=$answers; fi
  COALESCED=$coalesced
  echo "   taken in: $intake pushes into the outbox, $coalesced replaced by later ones (coalesced);" \
    "the answers carried $answers to send; waiting for $expected"
  drain "${before[0]}" "$expected"
  perf_stop
  if [ -n "${BENCH_METRICS_DIR:-}" ]; then
    mkdir -p "$BENCH_METRICS_DIR"
    curl -sf "$SERVER/metrics" >"$BENCH_METRICS_DIR/intake-$store-${name%% *}.prom" || true
  fi
  local cpu others
  cpu=$(cpu_seconds "$SRV")
  others=$(( $(counters | cut -d' ' -f2) - before[1] ))
  [ "$DRAINED" = yes ] || echo "   NOT DRAINED: $DELIVERED of $expected accepted by the simulator; stopped growing or ${DRAIN_TIMEOUT} s passed"
  RATE=$(awk -v n="$DELIVERED" -v s="$started" -v e="$FINISHED" 'BEGIN {printf "%.0f", (e > s ? n / (e - s) : 0)}')
  CPU_US=$(awk -v n="$DELIVERED" -v c="$cpu" -v b="$cpu_before" 'BEGIN {printf "%.0f", (n > 0 ? 1e6 * (c - b) / n : 0)}')
  awk -v n="$DELIVERED" -v s="$started" -v e="$FINISHED" -v o="$others" -v r="$RATE" -v c="$cpu" -v b="$cpu_before" -v u="$CPU_US" \
    -v name="$name" 'BEGIN {
      printf "   %s: %d accepted by the simulator %.2f s after the first request (other outcomes: %d): %d delivered/s\n", name, n, e - s, o, r
      printf "   server CPU: %.2f s, %d µs per delivered push\n", c - b, u }'
}

bench_simulator "$WORK"
grep -q "is running" "$WORK/sim.log" 2>/dev/null || {
  echo "livepush simulator did not start (ports $PORT, $CONTROL_PORT, $MANAGE_PORT taken? set BENCH_PORT," \
    "BENCH_CONTROL_PORT, BENCH_MANAGE_PORT):" >&2
  tail -5 "$WORK/sim.log" >&2; exit 1
}

echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), $BIN, machine: $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== livepush serve: default settings, --backend-rate-limit 0${BENCH_SERVE_ARGS:+, $BENCH_SERVE_ARGS}"

for store in $STORES; do
  case "$store" in
    sqlite) DATABASE="$WORK/intake.sqlite" ;;
    postgres)
      [ -n "$PG_URL" ] || { echo "== PostgreSQL skipped: give its URL as the first argument"; continue; }
      bench_pg_schema_create "$PG_URL"
      DATABASE="$PG_URL" ;;
    *) echo "unknown store $store" >&2; exit 1 ;;
  esac
  start_server "$DATABASE" "$store"
  rm -f "$WORK/raw-$store"
  REG_RATE="-" BATCH_RATE="-" BATCH_CPU="-" BATCH_NOTE="" SEED=$ACTIVITIES
  echo
  # Does the server have the batch endpoint? An empty batch is refused (400) where it exists.
  if [ "$BATCH_ITEMS" != 0 ]; then
    code=$(curl -s -o "$WORK/probe.json" -w '%{http_code}' "$SERVER/v1/updates" -H "Authorization: Bearer $LIVEPUSH_BACKEND_KEY" \
      -H "Content-Type: application/json" -d '{"updates":[]}')
    if [ "$code" = 404 ] || [ "$code" = 405 ]; then
      BATCH_NOTE="skipped: POST /v1/updates answered $code (no batch endpoint)"
    elif [ "$BATCH_ITEMS" -gt "$SEED" ]; then
      SEED=$BATCH_ITEMS
    fi
  else
    BATCH_NOTE="skipped (BENCH_BATCH_ITEMS=0)"
  fi

  # 1. Registrations, then the K activities the updates go to.
  if [ "$REG_SECONDS" != 0 ]; then
    echo "== [$store] registration: wrk -t2 -c$REG_CONNECTIONS -d${REG_SECONDS}s, POST /v1/activities, a new activity each request"
    BENCH_RUN=$(run_id) BENCH_GROUP=reg \
      wrk -t2 -c"$REG_CONNECTIONS" -d"${REG_SECONDS}s" --timeout 10s --latency -s Benchmarks/register.lua "$SERVER" >"$WORK/reg.out" 2>&1
    grep -E "Requests/sec|Latency  |50%|99%|requests in|Non-2xx|registrations:|Socket errors" "$WORK/reg.out" | sed 's/^ */   /'
    REG_RATE=$(awk '/^registrations:/ {printf "%.0f", $2 / d}' d="$REG_SECONDS" "$WORK/reg.out")
    echo "   registrations (201) per second: $REG_RATE"
  fi
  echo "== [$store] seeding $SEED activities (group intake) for the updates: wrk -t1 -c$REG_CONNECTIONS"
  SEED_RUN=$(run_id)
  started=$(now)
  rm -f "$WORK/seeded"
  BENCH_RUN=$SEED_RUN BENCH_GROUP=intake BENCH_LIMIT="$SEED" BENCH_DONE_FILE="$WORK/seeded" \
    wrk -t1 -c"$REG_CONNECTIONS" -d600s -s Benchmarks/register.lua "$SERVER" >"$WORK/seed.out" 2>&1 &
  WRK=$!
  while [ ! -e "$WORK/seeded" ] && kill -0 "$WRK" 2>/dev/null; do sleep 0.1; done
  seconds=$(elapsed "$started")
  kill -INT "$WRK" 2>/dev/null || true
  wait "$WRK" || true
  grep -E "registrations:|Non-2xx|Socket errors" "$WORK/seed.out" | sed 's/^ */   /'
  grep -q "^registrations: $SEED created" "$WORK/seed.out" || { echo "seeding failed" >&2; cat "$WORK/seed.out" >&2; exit 1; }
  awk -v n="$SEED" -v s="$seconds" 'BEGIN {printf "   %d registrations in %.1f s: %.0f/s\n", n, s, n / s}'
  sleep 1   # let the registrations' webhook and sweep work settle

  # 2. The raw client, before the server's sends.
  raw_client before

  # 3. Single updates, one request each.
  echo "== [$store] single updates: wrk -t2 -c$UPDATE_CONNECTIONS -d${UPDATE_SECONDS}s, POST /v1/activities/{id}/update" \
    "to random ones of the first $ACTIVITIES, a content-state of its own each"
  perf_start "intake-$store-single"
  before=$(counters)
  cpu_before=$(cpu_seconds "$SRV")
  started=$(now)
  BENCH_RUN=$SEED_RUN BENCH_ACTIVITIES="$ACTIVITIES" \
    wrk -t2 -c"$UPDATE_CONNECTIONS" -d"${UPDATE_SECONDS}s" --timeout 10s --latency -s Benchmarks/update.lua "$SERVER" >"$WORK/update.out" 2>&1
  load_ended
  grep -E "Requests/sec|Latency  |50%|99%|requests in|Non-2xx|updates:|Socket errors|update failed" "$WORK/update.out" | sed 's/^ */   /'
  TAKEN=$(awk '/^updates:/ {printf "%.0f", $2 / d}' d="$UPDATE_SECONDS" "$WORK/update.out")
  P50=$(percentile_ms 50 "$WORK/update.out")
  P99=$(percentile_ms 99 "$WORK/update.out")
  answers=$(awk '/^updates:/ {print $6 - $9}' "$WORK/update.out")
  echo "   requests taken (202) per second: $TAKEN, latency p50 $P50 ms, p99 $P99 ms"
  report "single updates" "$started" "$cpu_before" "$before" "$answers"
  SINGLE_RATE=$RATE SINGLE_CPU=$CPU_US SINGLE_COALESCED=$COALESCED

  # 4. The batch endpoint.
  if [ -n "$BATCH_NOTE" ]; then
    echo "== [$store] batch endpoint $BATCH_NOTE"
  else
    requests=$(( (BATCH_ITEMS + BATCH_SIZE - 1) / BATCH_SIZE ))
    echo "== [$store] batch endpoint: $BATCH_ITEMS updates in $requests bodies of up to $BATCH_SIZE (POST /v1/updates)," \
      "$BATCH_SENDERS senders (curl), a content-state of its own per item"
    rm -rf "$WORK/batch" && mkdir "$WORK/batch"
    # Body r holds the activities numbered r * B + i: each item to an activity of its own.
    awk -v items="$BATCH_ITEMS" -v b="$BATCH_SIZE" -v k="$SEED" -v run="$SEED_RUN" -v dir="$WORK/batch" 'BEGIN {
      srand()
      for (r = 0; r * b < items; r++) {
        file = sprintf("%s/%05d.json", dir, r)
        printf "{\"updates\":[" >file
        for (i = 0; i < b && r * b + i < items; i++) {
          printf "%s{\"activityId\":\"bench-%s-1-%d\",\"event\":\"update\",\"contentState\":{\"currentHealthLevel\":%.3f,\"eventDescription\":\"batch %d item %d\"}}",
            (i ? "," : ""), run, (r * b + i) % k, rand(), r, i >file
        }
        printf "]}" >file
        close(file)
      }
    }'
    perf_start "intake-$store-batch"
    before=$(counters)
    cpu_before=$(cpu_seconds "$SRV")
    started=$(now)
    SENDERS=()
    for sender in $(seq 0 $((BATCH_SENDERS - 1))); do
      (
        index=0
        for body in "$WORK"/batch/*.json; do
          if [ $((index % BATCH_SENDERS)) = "$sender" ]; then
            curl -s -m 120 -o "$body.answer" -w '%{http_code} %{time_total}\n' "$SERVER/v1/updates" \
              -H "Authorization: Bearer $LIVEPUSH_BACKEND_KEY" -H "Content-Type: application/json" --data-binary @"$body" \
              >>"$WORK/batch/codes" || echo "000 0" >>"$WORK/batch/codes"
          fi
          index=$((index + 1))
        done
      ) &
      SENDERS+=($!)
    done
    wait "${SENDERS[@]}"
    load_ended
    answered=$(awk -v s="$started" -v e="$ENDED_AT" 'BEGIN {printf "%.2f", e - s}')
    codes=$(cut -d' ' -f1 "$WORK/batch/codes" | sort | uniq -c | awk '{printf "%s%d × %s", (NR > 1 ? ", " : ""), $1, $2}')
    answers() { cat "$WORK"/batch/*.answer 2>/dev/null | jq -rs "$1" 2>/dev/null || echo "$2"; }
    accepted_items=$(answers '[.[] | .accepted // 0] | add // 0' 0)
    replaced_items=$(answers '[.[] | .results[]? | .replaced // [] | length] | add // 0' 0)
    refused=$(answers '[.[] | .results[]? | select(.status == "refused") | .error.rule] | group_by(.) | map("\(length) \(.[0])") | join(", ")' "?")
    [ "$accepted_items" -gt 0 ] || { echo "   no item accepted; an answer:"; head -c 600 "$(ls "$WORK"/batch/*.answer | head -1)"; echo; }
    echo "   answers: $codes, all within $answered s; items accepted $accepted_items, refused: ${refused:-none}," \
      "earlier pushes replaced $replaced_items"
    sort -n -k2 "$WORK/batch/codes" | awk '{v[NR] = $2} END {
      p99 = int(NR * 0.99 + 0.5); if (p99 < 1) p99 = 1
      printf "   request time p50 %.0f ms, p99 %.0f ms, max %.0f ms\n", 1000 * v[int((NR + 1) / 2)], 1000 * v[p99], 1000 * v[NR] }'
    awk -v n="$accepted_items" -v s="$answered" 'BEGIN {printf "   taken in (all answered): %.0f items/s\n", n / s}'
    report "batch" "$started" "$cpu_before" "$before" "$((accepted_items - replaced_items))"
    BATCH_RATE=$RATE BATCH_CPU=$CPU_US
  fi

  # 2 again: the raw client after the server's sends.
  raw_client after
  stop_server
  bench_pg_schema_drop "$PG_URL"

  read -r RAW1 RAWCPU1 < <(sed -n 1p "$WORK/raw-$store")
  read -r RAW2 RAWCPU2 < <(sed -n 2p "$WORK/raw-$store")
  awk -v store="$store" -v r1="$RAW1" -v r2="$RAW2" -v c1="$RAWCPU1" -v c2="$RAWCPU2" -v reg="$REG_RATE" \
    -v taken="$TAKEN" -v p50="$P50" -v p99="$P99" -v sr="$SINGLE_RATE" -v sc="$SINGLE_CPU" -v sx="$SINGLE_COALESCED" -v br="$BATCH_RATE" \
    -v bc="$BATCH_CPU" -v note="$BATCH_NOTE" -v k="$ACTIVITIES" -v d="$UPDATE_SECONDS" -v c="$UPDATE_CONNECTIONS" \
    -v b="$BATCH_SIZE" -v s="$BATCH_SENDERS" 'BEGIN {
      raw = (r1 + r2) / 2; cpu = (c1 + c2) / 2
      printf "\n| %s | server | raw client, same run | ratio |\n|---|---|---|---|\n", store
      printf "| raw client (before, after) | | %d, %d pushes/s; %.1f, %.1f µs CPU per push | |\n", r1, r2, c1, c2
      printf "| registrations (wrk -c32) | %s/s | | |\n", reg
      printf "| single updates taken (wrk -t2 -c%d -d%ds, %d activities) | %d/s, p50 %s ms, p99 %s ms | | |\n", c, d, k, taken, p50, p99
      printf "| single updates delivered end to end (%d replaced by later ones) | %d/s | %.0f/s | **%.2fx** |\n", sx, sr, raw, sr / raw
      printf "| server CPU per single update | %d µs | %.1f µs per push | %.2fx |\n", sc, cpu, sc / cpu
      if (br == "-") printf "| batch endpoint | %s | | |\n", note
      else {
        printf "| batch endpoint delivered end to end (B=%d, %d senders) | %d/s | %.0f/s | **%.2fx** |\n", b, s, br, raw, br / raw
        printf "| server CPU per batch push | %d µs | %.1f µs per push | %.2fx |\n", bc, cpu, bc / cpu
      }
    }' >>"$WORK/summary"
done

echo
echo "== summary ($(date -u '+%H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)); ratios against the mean of the raw client's two runs"
cat "$WORK/summary"
