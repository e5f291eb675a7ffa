#!/usr/bin/env bash
# Scale-out and crash recovery of `livepush serve`, over real processes and sockets, against one local
# simulator (accepting any token, its push log large enough to hold every push):
#
#   1. crash right after the 202: one instance (on SQLite, then on PostgreSQL), a group of RECOVERY_ACTIVITIES, one group update,
#      `kill -9` as soon as the 202 arrives, a restart with the same flags (the default claim lease of 60 s
#      left as it is): every activity gets the update; the time from the restart to the last push must be
#      under RECOVERY_BOUND seconds, half the lease (a restarted instance releases its own claims at once,
#      so it does not wait for the lease; BENCHMARKS.md has the release build's figures);
#   2. crash midway: the same with the kill once a third of the pushes were sent;
#   3. scale-out: INSTANCES instances on one PostgreSQL database (a fresh schema) share one group update
#      to ACTIVITIES activities; one is killed with `kill -9` once a third were sent; the survivors take
#      over its pages when their lease (LEASE) ends; every activity gets the update. The pages of live
#      instances keep their claims (renewed while sent), so the duplicates are bounded by what the
#      killed instance had in flight (sent, not yet recorded), as in 1 and 2.
#
# Each part checks, from the simulator's push log, that every activity's token received the update
# (accepted, HTTP 200) and reports the duplicates: pushes received more than once (same apns-id; the
# device keeps one, its timestamp being the same), bounded by what was in flight when the process died.
#
# Usage: Tests/ScaleOut/run.sh BINARY  (LIVEPUSH_TEST_POSTGRES_URL must be set: scripts/postgres-test-db.sh)
# Environment: SCALEOUT_ACTIVITIES (5000), SCALEOUT_INSTANCES (3), SCALEOUT_LEASE (15s: longer than a page
#   takes in a debug build on a loaded machine, so that no live page is taken over),
#   SCALEOUT_RECOVERY_ACTIVITIES (2000), SCALEOUT_RECOVERY_BOUND (30, seconds), SCALEOUT_RECOVERY_STORES
#   ("sqlite postgres"), SCALEOUT_TIMEOUT (180 s per
#   part), SCALEOUT_PARTS ("recovery-202 recovery-midway scaleout"), SCALEOUT_BASE_PORT (23100),
#   SCALEOUT_SERVE_ARGS (more `livepush serve` flags).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
log() { echo "scale-out: $*"; }
die() { echo "scale-out: FAILED: $*" >&2; exit 1; }
source Tests/Support/tools.sh

[ $# -eq 1 ] || die "usage: $0 BINARY"
BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -x "$BIN" ] || die "$1 is not an executable"
PG_URL="${LIVEPUSH_TEST_POSTGRES_URL:-}"
ACTIVITIES="${SCALEOUT_ACTIVITIES:-5000}"
INSTANCES="${SCALEOUT_INSTANCES:-3}"
LEASE="${SCALEOUT_LEASE:-15s}"
RECOVERY_ACTIVITIES="${SCALEOUT_RECOVERY_ACTIVITIES:-2000}"
# Half the default claim lease (60 s): a restart that waited for the lease fails. A debug build on a loaded
# 2-core machine needs 4-8 s to send 2,000 pushes after a restart; a release build under 1.5 s for 10,000.
RECOVERY_BOUND="${SCALEOUT_RECOVERY_BOUND:-30}"
TIMEOUT="${SCALEOUT_TIMEOUT:-180}"
PARTS="${SCALEOUT_PARTS:-recovery-202 recovery-midway scaleout}"
RECOVERY_STORES="${SCALEOUT_RECOVERY_STORES:-sqlite postgres}"
# What one process has sent and not yet recorded at most with the default settings: 8 workers, each with a
# page of 128 members on the wire and the page before it still being recorded.
IN_FLIGHT=$((8 * 2 * 128))
BASE_PORT="${SCALEOUT_BASE_PORT:-23100}"
SIM_PORT=$BASE_PORT CONTROL_PORT=$((BASE_PORT + 1)) MANAGE_PORT=$((BASE_PORT + 2))
APP_KEY=scaleout-app-key-0123456789 BACKEND_KEY=scaleout-backend-key-0123456789
case " $PARTS $RECOVERY_STORES " in *" scaleout "* | *" postgres "*)
  [ -n "$PG_URL" ] || die "LIVEPUSH_TEST_POSTGRES_URL is not set (scripts/postgres-test-db.sh prints it)";;
esac

install_system_packages curl:curl jq:jq wrk:wrk psql:postgresql-client

WORK="$(mktemp -d)"
SIM="" PG_SCHEMA="" PG_DB=""
declare -A SERVERS=()
cleanup() {
  for pid in "${SERVERS[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
  [ -n "$SIM" ] && { kill "$SIM" 2>/dev/null || true; wait "$SIM" 2>/dev/null || true; }
  if [ -n "$PG_SCHEMA" ]; then
    psql -q "$PG_URL" -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" RESET search_path" \
      -c "SET client_min_messages = warning" -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 ||
      echo "scale-out: PostgreSQL cleanup failed: drop schema $PG_SCHEMA" >&2
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", b - a}'; }

# The simulator: a provider key, any token accepted, no per-token rate limit, every push kept in its log.
"$BIN" keygen --out "$WORK/key.p8" >/dev/null
export LIVEPUSH_KEY_FILE="$WORK/key.p8" LIVEPUSH_KEY_ID=SCALEKEY01 LIVEPUSH_TEAM_ID=SCALETEAM1
"$BIN" simulator --port "$SIM_PORT" --control-port "$CONTROL_PORT" --manage-port "$MANAGE_PORT" --data-dir "$WORK/sim" \
  --accept-unknown-tokens --no-rate-limit --push-log-limit $((2 * ACTIVITIES + 6 * RECOVERY_ACTIVITIES + 1000)) \
  >"$WORK/sim.log" 2>&1 &
SIM=$!
for _ in $(seq 1 200); do grep -q "is running" "$WORK/sim.log" 2>/dev/null && break; sleep 0.1; done
grep -q "is running" "$WORK/sim.log" || { tail -20 "$WORK/sim.log" >&2; die "the simulator did not start"; }

# start_server NAME PORT DATABASE [ARGS…]: a `livepush serve` instance named NAME (its instance id too).
start_server() {
  local name="$1" port="$2" database="$3"
  shift 3
  "$BIN" serve --database "$database" --url "https://127.0.0.1:$SIM_PORT" --ca-file "$WORK/sim/ca.pem" \
    --port "$port" --instance-id "$name" --app-key "$APP_KEY" --backend-key "$BACKEND_KEY" --log-level warning \
    ${SCALEOUT_SERVE_ARGS:-} "$@" >>"$WORK/serve-$name.log" 2>&1 &
  SERVERS[$name]=$!
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && return 0
    kill -0 "${SERVERS[$name]}" 2>/dev/null || break
    sleep 0.1
  done
  tail -20 "$WORK/serve-$name.log" >&2
  die "livepush serve $name did not start"
}
kill9() { kill -9 "${SERVERS[$1]}" 2>/dev/null || true; wait "${SERVERS[$1]}" 2>/dev/null || true; unset "SERVERS[$1]"; }

# register PORT GROUP COUNT: COUNT activities with fresh tokens in GROUP, through the API (wrk).
register() {
  rm -f "$WORK/seeded"
  LIVEPUSH_APP_KEY="$APP_KEY" BENCH_RUN="$(printf '%08x' $((RANDOM * 32768 + RANDOM)))" BENCH_GROUP="$2" BENCH_LIMIT="$3" \
    BENCH_DONE_FILE="$WORK/seeded" wrk -t1 -c16 -d600s -s "$ROOT/Benchmarks/register.lua" "http://127.0.0.1:$1" \
    >"$WORK/register.out" 2>&1 &
  local wrk=$!
  while [ ! -e "$WORK/seeded" ] && kill -0 "$wrk" 2>/dev/null; do sleep 0.1; done
  kill -INT "$wrk" 2>/dev/null || true
  wait "$wrk" || true
  grep -q "registrations: $3 created (201), 0 failed" "$WORK/register.out" ||
    { cat "$WORK/register.out" >&2; die "registering $3 activities in $2 failed"; }
}

# group_update PORT GROUP HP: sends the update; prints the send id.
group_update() {
  local answer
  answer=$(curl -sf -X POST "http://127.0.0.1:$1/v1/groups/$2/update" -H "Authorization: Bearer $BACKEND_KEY" \
    -H "Content-Type: application/json" -d "{\"contentState\":{\"hp\":$3}}") || die "the group update to $2 was refused"
  jq -er .sendId <<<"$answer" || die "no sendId in the answer: $answer"
}

# progress PORT SEND FIELD: the send's state (FIELD "state") or one of its counts.
progress() {
  local body
  body=$(curl -sf "http://127.0.0.1:$1/v1/sends/$2" -H "Authorization: Bearer $BACKEND_KEY") || { echo ""; return; }
  if [ "$3" = state ]; then jq -r .state <<<"$body"; else jq -r ".counts.$3" <<<"$body"; fi
}

# wait_sent PORT SEND COUNT: until at least COUNT pushes of the send were accepted by APNs.
wait_sent() {
  local deadline=$(($(date +%s) + TIMEOUT)) sent
  while [ "$(date +%s)" -lt "$deadline" ]; do
    sent=$(progress "$1" "$2" sent)
    [ -n "$sent" ] && [ "$sent" != null ] && [ "$sent" -ge "$3" ] && return 0
    sleep 0.05
  done
  die "send $2 did not reach $3 sent pushes within ${TIMEOUT}s"
}

# wait_finished PORT SEND: until the send is finished.
wait_finished() {
  local deadline=$(($(date +%s) + TIMEOUT))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    [ "$(progress "$1" "$2" state)" = finished ] && return 0
    sleep 0.05
  done
  die "send $2 did not finish within ${TIMEOUT}s (state $(progress "$1" "$2" state), sent $(progress "$1" "$2" sent))"
}

# check_delivered HP COUNT LABEL: every one of COUNT tokens got the update with this hp (200 in the
# simulator's log); prints the duplicates.
check_delivered() {
  curl -sf "http://127.0.0.1:$CONTROL_PORT/v1/pushes?limit=10000000" >"$WORK/pushes.json" || die "reading the push log failed"
  local counts
  counts=$(jq -r --argjson hp "$1" '
    [.pushes[] | select(.status == 200 and .payload.aps["content-state"].hp == $hp)] as $ok
    | "\($ok | map(.token) | unique | length) \($ok | length) \($ok | map(.apnsId) | unique | length)"' "$WORK/pushes.json")
  read -r tokens received distinct <<<"$counts"
  [ "$tokens" -eq "$2" ] || die "$3: $tokens of $2 activities got the update"
  DUPLICATES=$((received - distinct))
  [ "$distinct" -eq "$2" ] || die "$3: $distinct distinct pushes for $2 activities (one each expected)"
}

# A fresh PostgreSQL schema for the `livepush serve` processes started next (the role's search_path
# for this database points at it until the script ends).
new_schema() {
  [ -n "$PG_DB" ] || PG_DB="$(psql -tA "$PG_URL" -c "SELECT current_database()")"
  if [ -n "$PG_SCHEMA" ]; then psql -q "$PG_URL" -c "SET client_min_messages = warning" -c "DROP SCHEMA $PG_SCHEMA CASCADE" >/dev/null; fi
  PG_SCHEMA="scaleout_$$_$1"
  psql -q "$PG_URL" -c "CREATE SCHEMA $PG_SCHEMA" \
    -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" SET search_path = $PG_SCHEMA" >/dev/null
}

# recovery PART STORE: one instance killed right after the 202 (recovery-202) or midway, then restarted.
recovery() {
  local part="$1" store="$2" port=$((BASE_PORT + 10)) database group="recovery-$HP" send killed restarted done_at took
  if [ "$store" = postgres ]; then new_schema "$HP"; database="$PG_URL"; else database="$WORK/$part-$HP.sqlite"; fi
  log "$part ($store): 1 instance, $RECOVERY_ACTIVITIES activities, kill -9 $([ "$part" = recovery-202 ] && echo "right after the 202" || echo "once a third were sent"), restart"
  start_server "$part" "$port" "$database"
  register "$port" "$group" "$RECOVERY_ACTIVITIES"
  send=$(group_update "$port" "$group" "$HP")
  [ "$part" = recovery-midway ] && wait_sent "$port" "$send" $((RECOVERY_ACTIVITIES / 3))
  kill9 "$part"
  killed=$(now)
  restarted=$(now)
  start_server "$part" "$port" "$database"
  wait_finished "$port" "$send"
  done_at=$(now)
  check_delivered "$HP" "$RECOVERY_ACTIVITIES" "$part ($store)"
  took=$(elapsed "$restarted" "$done_at")
  log "$part ($store): all $RECOVERY_ACTIVITIES delivered ${took}s after the restart, duplicates: $DUPLICATES (at most $IN_FLIGHT were in flight)"
  [ "$DUPLICATES" -le "$IN_FLIGHT" ] || die "$part ($store): $DUPLICATES duplicates, more than the $IN_FLIGHT pushes a process has in flight"
  awk -v t="$took" -v b="$RECOVERY_BOUND" 'BEGIN {exit !(t < b)}' ||
    die "$part ($store): took ${took}s after the restart; the bound is ${RECOVERY_BOUND}s (a restarted instance takes back its own claims at once)"
  kill9 "$part"
}

parts_passed=0
HP=0
for part in $PARTS; do
  HP=$((HP + 1))
  case "$part" in
  recovery-202 | recovery-midway)
    for store in $RECOVERY_STORES; do
      recovery "$part" "$store"
      HP=$((HP + 1))
    done
    ;;
  scaleout)
    new_schema "$HP"
    log "scaleout: $INSTANCES instances on PostgreSQL (schema $PG_SCHEMA), $ACTIVITIES activities, lease $LEASE, kill -9 of one once a third were sent"
    for i in $(seq 1 "$INSTANCES"); do start_server "scale-$i" $((BASE_PORT + 20 + i)) "$PG_URL" --claim-lease "$LEASE"; done
    first=$((BASE_PORT + 21)) last=$((BASE_PORT + 20 + INSTANCES))
    register "$first" scale "$ACTIVITIES"
    started=$(now)
    send=$(group_update "$first" scale "$HP")
    wait_sent "$last" "$send" $((ACTIVITIES / 3))
    sent_at_kill=$(progress "$last" "$send" sent)
    kill9 scale-1
    killed=$(now)
    wait_finished "$last" "$send"
    done_at=$(now)
    check_delivered "$HP" "$ACTIVITIES" scaleout
    took=$(elapsed "$started" "$done_at")
    log "scaleout: all $ACTIVITIES delivered in ${took}s ($(awk -v n="$ACTIVITIES" -v t="$took" 'BEGIN {printf "%.0f", n / t}') pushes/s combined, lease wait included); instance scale-1 killed with $sent_at_kill sent, the rest $(elapsed "$killed" "$done_at")s after; duplicates: $DUPLICATES"
    # Claims are renewed while their pages are sent, so only the killed instance's pages go out twice.
    [ "$DUPLICATES" -le "$IN_FLIGHT" ] || die "scaleout: $DUPLICATES duplicates, more than the $IN_FLIGHT pushes the killed instance had in flight"
    for i in $(seq 2 "$INSTANCES"); do kill9 "scale-$i"; done
    ;;
  *) die "unknown part '$part'" ;;
  esac
  parts_passed=$((parts_passed + 1))
done
log "$parts_passed passed"
