# Shared by Benchmarks/run.sh and Benchmarks/server.sh (sourced, not run): where things listen, the
# livepush binary, a local simulator, and the raw client's command.
# Environment: BENCH_PORT (APNs, default 22197), BENCH_CONTROL_PORT (default 22198), BENCH_MANAGE_PORT
# (channel management, default 22195), BENCH_BIN (a livepush
# binary to use instead of building one, e.g. a copy of an earlier build, to compare).
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PORT="${BENCH_PORT:-22197}"
CONTROL_PORT="${BENCH_CONTROL_PORT:-22198}"
MANAGE_PORT="${BENCH_MANAGE_PORT:-22195}"
BUNDLE=com.example.apple-samplecode.Emoji-Rangers
TOKEN=$(printf '%064x' 1)
CONTENT='{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}'

# Sets BIN: $BENCH_BIN, or a release build of livepush made now (run from $ROOT).
bench_binary() {
  if [ -n "${BENCH_BIN:-}" ]; then
    BIN="$BENCH_BIN"
  else
    swift build -c release --product livepush >/dev/null
    BIN="$(swift build -c release --show-bin-path)/livepush"
  fi
}

# bench_simulator WORK: a provider key in WORK (exported as the LIVEPUSH_KEY_* variables `livepush send`
# and `serve` read), then `livepush simulator` accepting any token without rate limits, data in WORK/sim;
# sets SIM to its pid and returns once it runs. Also sets SEND: the raw client's command (priority 5,
# a fixed timestamp), to which callers add --count and --concurrency.
bench_simulator() {
  "$BIN" keygen --out "$1/bench.p8" >/dev/null
  export LIVEPUSH_KEY_FILE="$1/bench.p8" LIVEPUSH_KEY_ID=BENCHKEY01 LIVEPUSH_TEAM_ID=BENCHTEAM1
  "$BIN" simulator --port "$PORT" --control-port "$CONTROL_PORT" --manage-port "$MANAGE_PORT" --data-dir "$1/sim" \
    --accept-unknown-tokens --no-rate-limit >"$1/sim.log" 2>&1 &
  SIM=$!
  for _ in $(seq 1 100); do grep -q "is running" "$1/sim.log" 2>/dev/null && break; sleep 0.1; done
  SEND=("$BIN" send --url "https://127.0.0.1:$PORT" --ca-file "$1/sim/ca.pem" --token "$TOKEN" --bundle-id "$BUNDLE"
    --priority 5 --timestamp 1685952000 --content-state "$CONTENT")
}

# PostgreSQL for a benchmark run: a schema of its own (bench_<pid>), made the role's search_path for the
# database, so that `livepush serve --database URL` migrates and uses it. Sets PG_DB and PG_SCHEMA.
bench_pg_schema_create() {
  local url=$1
  PG_DB="$(psql -tA "$url" -c "SELECT current_database()")"
  PG_SCHEMA="bench_$$"
  psql -q "$url" -c "CREATE SCHEMA $PG_SCHEMA" \
    -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" SET search_path = $PG_SCHEMA" >/dev/null
}

# Undoes bench_pg_schema_create (no-op without a schema). With `quiet` (the exit trap), a failure is only
# reported; otherwise it fails the script.
bench_pg_schema_drop() {
  local url=$1 mode=${2:-}
  [ -n "${PG_SCHEMA:-}" ] || return 0
  if [ "$mode" = quiet ]; then
    psql -q "$url" -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" RESET search_path" \
      -c "DROP SCHEMA IF EXISTS $PG_SCHEMA CASCADE" >/dev/null 2>&1 || echo "PostgreSQL cleanup failed: drop schema $PG_SCHEMA" >&2
  else
    psql -q "$url" -c "ALTER ROLE CURRENT_USER IN DATABASE \"$PG_DB\" RESET search_path" \
      -c "SET client_min_messages = warning" -c "DROP SCHEMA $PG_SCHEMA CASCADE" >/dev/null
  fi
  PG_SCHEMA=""
}
