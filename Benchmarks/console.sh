#!/usr/bin/env bash
# The provider console's lists with many activities: N activities (default 1,000,000) seeded by SQL (10 per
# user, 1,000 per group) into a SQLite file and, given its URL, into a PostgreSQL schema of its own; then,
# per store, the time `livepush serve` takes to answer the console's routes with an operator key (curl's
# time_total, loopback, one request at a time): the first page of the activities list, a page in the middle
# (its cursor), a user's page, a group's page, one activity, the sends (group sends and broadcasts), the
# overview. Then the activities view as an operator uses it: find a user (its page of activities) and open
# one of them (the activity with its history, tokens and budget), the view's two requests one after the
# other. Prints the median and the slowest of
# BENCH_CONSOLE_SAMPLES requests each, and the console page itself (GET /console).
# Usage: Benchmarks/console.sh [N] [POSTGRES_URL]
#   e.g. Benchmarks/console.sh 1000000 postgres://livepush:livepush@127.0.0.1:5432/livepush
# Environment: BENCH_CONSOLE_SAMPLES (default 50), BENCH_HTTP_PORT (the server's, default 22180),
#   BENCH_STORES (default "sqlite postgres"; postgres needs the URL), and those of Benchmarks/common.sh
#   (BENCH_BIN to reuse a binary).
# On PostgreSQL the schema is chosen for the role for the run (ALTER ROLE … SET search_path, as
# Benchmarks/server.sh does) and dropped afterwards: run no other benchmark on that database meanwhile.
set -euo pipefail
source "$(dirname "$0")/common.sh"
ACTIVITIES="${1:-1000000}"
PG_URL="${2:-}"
SAMPLES="${BENCH_CONSOLE_SAMPLES:-50}"
HTTP_PORT="${BENCH_HTTP_PORT:-22180}"
STORES="${BENCH_STORES:-sqlite postgres}"
SERVER="http://127.0.0.1:$HTTP_PORT"
for tool in curl sqlite3; do command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y $tool" >&2; exit 1; }; done
if [ -n "$PG_URL" ]; then command -v psql >/dev/null || { echo "psql missing: apt-get install -y postgresql-client" >&2; exit 1; }; fi

cd "$ROOT"
bench_binary
WORK=$(mktemp -d /tmp/livepush-console-bench.XXXXXX)
SRV="" SIM="" PG_SCHEMA="" PG_DB=""
stop_server() {
  if [ -n "$SRV" ]; then kill "$SRV" 2>/dev/null || true; wait "$SRV" 2>/dev/null || true; fi
  SRV=""
}
drop_schema() {
  if [ -n "$PG_SCHEMA" ]; then
    psql -q "$PG_URL" -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" RESET search_path" \
      -c "SET client_min_messages = warning" -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null || true
    PG_SCHEMA=""
  fi
}
cleanup() {
  stop_server
  drop_schema
  if [ -n "$SIM" ]; then kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
bench_simulator "$WORK"
now() { date +%s.%N; }

# seed_sqlite DB / seed_postgres: N activities, 10 per user, 1,000 per group, tokens valid, all active.
seed_sqlite() {
  sqlite3 "$1" >/dev/null <<SQL
PRAGMA journal_mode = WAL;
BEGIN;
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < $ACTIVITIES)
INSERT INTO activities (activity_id, push_token, bundle_id, attributes_type, environment, user_id, groups_json,
    frequent_pushes, state, token_state, registered_at, updated_at, started_at)
SELECT printf('act-%07d', i), printf('%064x', i + 1), '$BUNDLE', 'AdventureAttributes', 'sandbox', 'user-' || (i / 10),
    '["g' || (i / 1000) || '"]', 0, 'active', 'valid', unixepoch('now'), unixepoch('now'), unixepoch('now') FROM n;
INSERT INTO activity_groups (group_name, activity_id) SELECT 'g' || (CAST(substr(activity_id, 5) AS INTEGER) / 1000), activity_id FROM activities;
COMMIT;
SQL
}
seed_postgres() {
  psql -q -v ON_ERROR_STOP=1 "$PG_URL" >/dev/null <<SQL
SET search_path = $PG_SCHEMA;
BEGIN;
INSERT INTO activities (activity_id, push_token, bundle_id, attributes_type, environment, user_id, groups_json,
    frequent_pushes, state, token_state, registered_at, updated_at, started_at)
SELECT 'act-' || lpad(i::text, 7, '0'), lpad(to_hex(i + 1), 64, '0'), '$BUNDLE', 'AdventureAttributes', 'sandbox',
    'user-' || (i / 10), '["g' || (i / 1000) || '"]', 0, 'active', 'valid',
    extract(epoch FROM now()), extract(epoch FROM now()), extract(epoch FROM now())
FROM generate_series(0, $ACTIVITIES - 1) AS i;
INSERT INTO activity_groups (group_name, activity_id) SELECT 'g' || (substr(activity_id, 5)::int / 1000), activity_id FROM activities;
COMMIT;
ANALYZE activities;
ANALYZE activity_groups;
SQL
}

start_server() {   # start_server DATABASE
  # No operator rate limit: the samples come faster than an operator's 600 a minute.
  "$BIN" serve --database "$1" --url "https://127.0.0.1:$PORT" --ca-file "$WORK/sim/ca.pem" --port "$HTTP_PORT" \
    --operator-rate-limit 0 >"$WORK/serve.log" 2>&1 &
  SRV=$!
  for _ in $(seq 1 300); do curl -sf "$SERVER/health" >/dev/null 2>&1 && return; sleep 0.1; done
  echo "livepush serve did not start" >&2; tail -20 "$WORK/serve.log" >&2; exit 1
}

middle=$(printf 'act-%07d' $((ACTIVITIES / 2)))
cursor=$(printf 'a:%s' "$middle" | base64 | tr '+/' '-_' | tr -d '=\n')
user="user-$((ACTIVITIES / 20))"
first_of_user=$(printf 'act-%07d' $((ACTIVITIES / 20 * 10)))
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg);" \
  "$SAMPLES requests each, one at a time: median, slowest (ms)"
measure() {   # measure NAME PATH [PATH…]: the paths one after the other, timed together
  local times=() status name="$1" total path
  shift
  for path in "$@"; do
    status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$SERVER$path")
    [ "$status" = 200 ] || { echo "$name: GET $path answered $status" >&2; exit 1; }
  done
  for _ in $(seq 1 "$SAMPLES"); do
    total=0
    for path in "$@"; do
      total=$(awk -v a="$total" -v b="$(curl -s -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $KEY" "$SERVER$path")" 'BEGIN {print a + b}')
    done
    times+=("$total")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v name="$name" '{t[NR] = $1 * 1000} END {printf "   %-52s %7.2f %7.2f\n", name, t[int((NR + 1) / 2)], t[NR]}'
}

for store in $STORES; do
  case "$store" in
    sqlite)
      DB="$WORK/console.sqlite"
      # The schema and an operator key, as an operator makes them.
      KEY=$("$BIN" keys create --scope operator --name bench --database "$DB" 2>/dev/null | tail -n 1)
      started=$(now)
      seed_sqlite "$DB" ;;
    postgres)
      [ -n "$PG_URL" ] || { echo "== [postgres] skipped: give its URL as the second argument"; continue; }
      PG_DB="$(psql -tA "$PG_URL" -c "SELECT current_database()")"
      PG_SCHEMA="console_bench_$$"
      psql -q "$PG_URL" -c "CREATE SCHEMA $PG_SCHEMA" \
        -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" SET search_path = $PG_SCHEMA" >/dev/null
      DB="$PG_URL"
      KEY=$("$BIN" keys create --scope operator --name bench --database "$DB" 2>/dev/null | tail -n 1)
      started=$(now)
      seed_postgres ;;
    *) echo "unknown store $store" >&2; exit 1 ;;
  esac
  awk -v s="$started" -v e="$(now)" -v n="$ACTIVITIES" -v store="$store" 'BEGIN {printf "== [%s] %d activities seeded by SQL in %.1f s\n", store, n, e - s}'
  start_server "$DB"
  measure "activities, first page (50)" "/v1/operator/activities"
  measure "activities, the page after $middle" "/v1/operator/activities?cursor=$cursor"
  measure "activities of one user (10)" "/v1/operator/activities?userId=$user"
  measure "activities of one group, first page" "/v1/operator/activities?groupId=g$((ACTIVITIES / 2000))"
  measure "one activity with its history" "/v1/operator/activities/$middle"
  measure "sends (group sends and broadcasts)" "/v1/operator/sends"
  measure "overview" "/v1/operator/overview"
  measure "activities view: find a user, open an activity" "/v1/operator/activities?userId=$user" "/v1/operator/activities/$first_of_user"
  measure "the console page (GET /console and its 5 files)" /console /console/console.css /console/app.js /console/api.js /console/dom.js /console/views.js
  stop_server
  if [ "$store" = postgres ]; then drop_schema; fi
done
