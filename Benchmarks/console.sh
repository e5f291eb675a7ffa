#!/usr/bin/env bash
# The provider console's lists with many activities: N activities (default 1,000,000) seeded by SQL into
# a SQLite file (10 per user, 1,000 per group), then the time `livepush serve` takes to answer the
# console's routes with an operator key (curl's time_total, loopback, one request at a time): the first
# page of the activities list, a page in the middle (its cursor), a user's page, a group's page, one
# activity, the group sends, the overview. Prints the median and the slowest of BENCH_CONSOLE_SAMPLES
# requests each, and the console page itself (GET /console).
# Usage: Benchmarks/console.sh [N]
# Environment: BENCH_CONSOLE_SAMPLES (default 50), BENCH_HTTP_PORT (the server's, default 22180), and those
#   of Benchmarks/common.sh (BENCH_BIN to reuse a binary).
set -euo pipefail
source "$(dirname "$0")/common.sh"
ACTIVITIES="${1:-1000000}"
SAMPLES="${BENCH_CONSOLE_SAMPLES:-50}"
HTTP_PORT="${BENCH_HTTP_PORT:-22180}"
SERVER="http://127.0.0.1:$HTTP_PORT"
for tool in curl sqlite3; do command -v "$tool" >/dev/null || { echo "$tool missing: apt-get install -y $tool" >&2; exit 1; }; done

cd "$ROOT"
bench_binary
WORK=$(mktemp -d /tmp/livepush-console-bench.XXXXXX)
SRV="" SIM=""
cleanup() {
  if [ -n "$SRV" ]; then kill "$SRV" 2>/dev/null || true; wait "$SRV" 2>/dev/null || true; fi
  if [ -n "$SIM" ]; then kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
bench_simulator "$WORK"
DB="$WORK/console.sqlite"

# The schema and an operator key, as an operator makes it.
KEY=$("$BIN" keys create --scope operator --name bench --database "$DB" 2>/dev/null | tail -n 1)
now() { date +%s.%N; }
started=$(now)
sqlite3 "$DB" >/dev/null <<SQL
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
awk -v s="$started" -v e="$(now)" -v n="$ACTIVITIES" 'BEGIN {printf "== %d activities seeded by SQL in %.1f s\n", n, e - s}'

"$BIN" serve --database "$DB" --url "https://127.0.0.1:$PORT" --ca-file "$WORK/sim/ca.pem" --port "$HTTP_PORT" >"$WORK/serve.log" 2>&1 &
SRV=$!
for _ in $(seq 1 300); do curl -sf "$SERVER/health" >/dev/null 2>&1 && break; sleep 0.1; done
curl -sf "$SERVER/health" >/dev/null || { echo "livepush serve did not start" >&2; tail -20 "$WORK/serve.log" >&2; exit 1; }

middle=$(printf 'act-%07d' $((ACTIVITIES / 2)))
cursor=$(printf 'a:%s' "$middle" | base64 | tr '+/' '-_' | tr -d '=\n')
echo "== $(date -u '+%Y-%m-%d %H:%M UTC'), machine: $(nproc) cores; $SAMPLES requests each, one at a time: median, slowest (ms)"
measure() {   # measure NAME PATH
  local times=() status
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $KEY" "$SERVER$2")
  [ "$status" = 200 ] || { echo "$1: GET $2 answered $status" >&2; exit 1; }
  for _ in $(seq 1 "$SAMPLES"); do
    times+=("$(curl -s -o /dev/null -w '%{time_total}' -H "Authorization: Bearer $KEY" "$SERVER$2")")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk -v name="$1" '{t[NR] = $1 * 1000} END {printf "   %-44s %7.2f %7.2f\n", name, t[int((NR + 1) / 2)], t[NR]}'
}
measure "activities, first page (50)" "/v1/operator/activities"
measure "activities, the page after $middle" "/v1/operator/activities?cursor=$cursor"
measure "activities of one user (10)" "/v1/operator/activities?userId=user-$((ACTIVITIES / 20))"
measure "activities of one group, first page" "/v1/operator/activities?groupId=g$((ACTIVITIES / 2000))"
measure "one activity with its history" "/v1/operator/activities/$middle"
measure "group sends" "/v1/operator/sends"
measure "overview" "/v1/operator/overview"
measure "the console page (GET /console)" "/console"
