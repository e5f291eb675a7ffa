#!/usr/bin/env bash
# API fuzzing: schemathesis (pinned in requirements.txt, installed into .build/fuzz-venv) reads
# `livepush serve`'s /openapi.json and sends what it generates from it: valid requests (which the
# server must accept), invalid ones (which it must refuse with a documented 4xx), requests without or
# with a wrong key, other methods. Every check schemathesis has runs, so the document must state every
# rule the server enforces and the server must answer as the document says.
#
#   bash Tests/Fuzz/run.sh [path/to/livepush]      (default: .build/debug/livepush)
#
# Starts `livepush simulator` and `livepush serve` (SQLite in a temporary folder, against the
# simulator's APNs and channel management ports; rate limits off, see there) on free loopback ports,
# makes a backend key, an app key and an operator key (`livepush keys create`) and a user token
# (`app_credential` below), then runs schemathesis four times: the backend's operations (channels
# included, and the unauthenticated ones) with the backend key, the app's operations with the user
# token, opening an installation with the app key, the console's operations with the operator key. Each run is bounded (examples per operation, seconds per run) and
# seeded; schemathesis.toml holds what the command line cannot say. Prints schemathesis's report, then
# `fuzz: N passed, N failed` (one per run); exits 1 if a run found anything.
#
# Environment: FUZZ_VENV (virtualenv folder), FUZZ_SEED (default 20261123), FUZZ_MAX_EXAMPLES
# (per operation and phase, default 40), FUZZ_MAX_TIME (seconds per run, default 100),
# FUZZ_KEEP=1 (keep the temporary folder: logs and schemathesis's JUnit reports).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../Support/tools.sh
source "$HERE/../Support/tools.sh"  # sets ROOT
LIVEPUSH="$(livepush_binary "${1:-}")"
VENV="${FUZZ_VENV:-$ROOT/.build/fuzz-venv}"
SEED="${FUZZ_SEED:-20261123}"
MAX_EXAMPLES="${FUZZ_MAX_EXAMPLES:-40}"
MAX_TIME="${FUZZ_MAX_TIME:-100}"

KEY_ID=FUZZKEY001   # 10 uppercase letters or digits, as Apple's
TEAM_ID=FUZZTEAM01
FUZZ_USER=fuzz-user

STARTED=$(date +%s)
log() { printf '%s\n' "$*" >&2; }
die() { log "fuzz: setup failed: $*"; echo "fuzz: 0 passed, 1 failed"; exit 1; }

[ -x "$LIVEPUSH" ] || die "no livepush binary at $LIVEPUSH (run swift build first)"

# ---------------------------------------------------------------------------------------------
# 1. Tools: apt-get only for what is missing (apt-get update only then), pip into a virtualenv.

install_system_packages curl jq python3
install_python_venv "$VENV" "$HERE/requirements.txt" fuzz
ST="$VENV/bin/st"
PYTHON="$VENV/bin/python"

# ---------------------------------------------------------------------------------------------
# 2. The simulator and the server on free loopback ports, their files in a temporary folder.

WORK="$(mktemp -d "${TMPDIR:-/tmp}/livepush-fuzz.XXXXXX")"
SIM_PID="" SERVE_PID=""
cleanup() {
    stop_process "$SERVE_PID"; SERVE_PID=""
    stop_process "$SIM_PID"; SIM_PID=""
    if [ "${FUZZ_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

logs_tail() {
    log "--- simulator output (tail) ---"
    tail -n 20 "$WORK/simulator.out" "$WORK/simulator.log" >&2 2>/dev/null
    log "--- server log (tail) ---"
    tail -n 40 "$WORK/serve.log" >&2 2>/dev/null
    log "--- end of logs ---"
}

KEY="$WORK/key.p8"
"$LIVEPUSH" keygen --out "$KEY" >/dev/null || die "livepush keygen failed"

"$LIVEPUSH" simulator --host 127.0.0.1 --port 0 --control-port 0 --manage-port 0 --data-dir "$WORK/simulator" \
    --key-file "$KEY" --key-id "$KEY_ID" --team-id "$TEAM_ID" \
    >"$WORK/simulator.out" 2>"$WORK/simulator.log" &
SIM_PID=$!

APNS_PORT="" MANAGE_PORT=""
for _ in $(seq 1 300); do   # the ports appear in its banner; 30 s at most
    kill -0 "$SIM_PID" 2>/dev/null || { logs_tail; die "the simulator exited at start"; }
    APNS_PORT=$(sed -n 's|^ *APNs endpoint: *https://[^:]*:\([0-9][0-9]*\).*|\1|p' "$WORK/simulator.out")
    MANAGE_PORT=$(sed -n 's|^ *Channels API: *https://[^:]*:\([0-9][0-9]*\).*|\1|p' "$WORK/simulator.out")
    [ -n "$APNS_PORT" ] && [ -n "$MANAGE_PORT" ] && [ -s "$WORK/simulator/ca.pem" ] && break
    sleep 0.1
done
[ -n "$APNS_PORT" ] && [ -n "$MANAGE_PORT" ] || { logs_tail; die "the simulator printed no APNs or channels port within 30 s"; }

DATABASE="$WORK/livepush.sqlite"
BACKEND_KEY=$("$LIVEPUSH" keys create --scope backend --name fuzz --database "$DATABASE" 2>"$WORK/keys.log") ||
    { cat "$WORK/keys.log" >&2; die "livepush keys create --scope backend failed"; }
BACKEND_KEY=$(printf '%s' "$BACKEND_KEY" | tail -n 1 | tr -d '[:space:]')
[ -n "$BACKEND_KEY" ] || die "livepush keys create printed no key"
# An app key of scope app: the credential that opens installations (POST /v1/installations) and
# does nothing else (403 installerKey).
INSTALLER_KEY=$("$LIVEPUSH" keys create --scope app --name fuzz-installer --database "$DATABASE" 2>>"$WORK/keys.log") ||
    { cat "$WORK/keys.log" >&2; die "livepush keys create --scope app failed"; }
INSTALLER_KEY=$(printf '%s' "$INSTALLER_KEY" | tail -n 1 | tr -d '[:space:]')
[ -n "$INSTALLER_KEY" ] || die "livepush keys create --scope app printed no key"
# An operator key: the provider console's routes (/v1/operator/...), refused everywhere else.
OPERATOR_KEY=$("$LIVEPUSH" keys create --scope operator --name fuzz-operator --database "$DATABASE" 2>>"$WORK/keys.log") ||
    { cat "$WORK/keys.log" >&2; die "livepush keys create --scope operator failed"; }
OPERATOR_KEY=$(printf '%s' "$OPERATOR_KEY" | tail -n 1 | tr -d '[:space:]')
[ -n "$OPERATOR_KEY" ] || die "livepush keys create --scope operator printed no key"

# Rate limits off (0): schemathesis sends thousands of requests a minute with one credential, which is
# not the traffic the limits are for; with them on (120 a minute for an app principal) nearly every app
# request after the first seconds would be a documented 429, and the run would test the limiter instead
# of the rules behind it. RateLimitTests, SharedLimitTests and OperatorScopeTests (the console's own
# limit) cover 429 and Retry-After; the document lists 429 on every operation that has a limit. The
# fuzzer's many refused credentials, all from 127.0.0.1, would otherwise spend the address's failure
# budget: that limit is off too.
"$LIVEPUSH" serve --url "https://127.0.0.1:$APNS_PORT" --manage-url "https://127.0.0.1:$MANAGE_PORT" --ca-file "$WORK/simulator/ca.pem" \
    --key-file "$KEY" --key-id "$KEY_ID" --team-id "$TEAM_ID" --database "$DATABASE" \
    --host 127.0.0.1 --port 0 \
    --app-rate-limit 0 --backend-rate-limit 0 --operator-rate-limit 0 --installation-rate-limit 0 --address-failure-limit 0 \
    >"$WORK/serve.out" 2>"$WORK/serve.log" &
SERVE_PID=$!

SERVE_PORT=""
for _ in $(seq 1 300); do   # it logs "livepush serve listening" with port=N; 30 s at most
    kill -0 "$SERVE_PID" 2>/dev/null || { logs_tail; die "livepush serve exited at start"; }
    SERVE_PORT=$(sed -n 's|.*port=\([0-9][0-9]*\).*livepush serve listening.*|\1|p; s|.*livepush serve listening.*port=\([0-9][0-9]*\).*|\1|p' "$WORK/serve.log" | head -n 1)
    [ -n "$SERVE_PORT" ] && break
    sleep 0.1
done
[ -n "$SERVE_PORT" ] || { logs_tail; die "livepush serve logged no listening port within 30 s"; }
BASE="http://127.0.0.1:$SERVE_PORT"
curl -sf --max-time 5 "$BASE/health" >/dev/null || { logs_tail; die "$BASE/health does not answer"; }
log "server: $BASE (simulator APNs port $APNS_PORT, channels port $MANAGE_PORT, SQLite $DATABASE)"

# ---------------------------------------------------------------------------------------------
# 3. Credentials.

# app_credential -> the bearer credential of the app's routes on stdout: a user-bound app token, as an
# app gets it from its backend (POST /v1/users/{userId}/app-tokens with the backend key, answering
# {"token", "userId", "expiresAt"}; it lives the server's default hour, longer than a run). It grants
# every group ("*"), so that the registrations schemathesis generates may name any group.
app_credential() {
    local status body="$WORK/app-token.json"
    status=$(curl -sS --max-time 10 -o "$body" -w '%{http_code}' -X POST \
        -H "Authorization: Bearer $BACKEND_KEY" -H 'content-type: application/json' -d '{"groups":["*"]}' \
        "$BASE/v1/users/$FUZZ_USER/app-tokens" 2>/dev/null)
    if [ "$status" = 201 ] && jq -er '.token | select(type == "string" and length > 0)' "$body" 2>/dev/null; then
        log "app credential: a user-bound app token of $FUZZ_USER"
        return 0
    fi
    log "POST /v1/users/$FUZZ_USER/app-tokens answered ${status:-nothing}: $(head -c 300 "$body" 2>/dev/null)"
    return 1
}
APP_CREDENTIAL=$(app_credential) || { logs_tail; die "no user-bound app token"; }

# ---------------------------------------------------------------------------------------------
# 4. The runs. Each takes the operations whose security names its credential, by operationId, from
# the document the server serves (the unauthenticated ones go with the backend run); of the app's,
# opening an installation goes with the installer key, the others with the user token.

curl -sf --max-time 10 "$BASE/openapi.json" >"$WORK/openapi.json" || die "GET /openapi.json failed"
operations() {   # operations backend|app|installer|operator -> one operationId a line
    "$PYTHON" - "$WORK/openapi.json" "$1" <<'PY'
import json, sys
document, audience = json.load(open(sys.argv[1])), sys.argv[2]
installer = {"openInstallation"}
for item in document["paths"].values():
    for operation in item.values():
        if not isinstance(operation, dict) or "operationId" not in operation:
            continue
        schemes = {name for requirement in operation.get("security", []) for name in requirement}
        if not schemes or "backendKey" in schemes:
            group = "backend"
        elif "operatorKey" in schemes:
            group = "operator"
        else:
            group = "installer" if operation["operationId"] in installer else "app"
        if group == audience:
            print(operation["operationId"])
PY
}

# Every check but use_after_free: a deleted channel stays readable (GET answers it with deletedAt and
# its broadcast history), as the document says, where that check expects a 404 after a DELETE; the
# channel's is the API's only DELETE. (Off here: `--checks all` overrides schemathesis.toml.)
PASSED=0 FAILED=0
run_schemathesis() {   # run_schemathesis NAME CREDENTIAL
    local name=$1 credential=$2 filters=() id status
    while read -r id; do filters+=(--include-operation-id "$id"); done < <(operations "$name")
    [ ${#filters[@]} -gt 0 ] || { log "fuzz: no $name operations in the document"; FAILED=$((FAILED + 1)); return; }
    local command=(
        "$ST" --config-file "$HERE/schemathesis.toml" run "$BASE/openapi.json"
        --checks all
        --exclude-checks use_after_free
        --phases examples,coverage,fuzzing,stateful
        --header "Authorization: Bearer $credential"
        "${filters[@]}"
        --max-examples "$MAX_EXAMPLES"
        --max-time "$MAX_TIME"
        --seed "$SEED"
        --generation-deterministic
        --workers 1
        --request-timeout 10
        --continue-on-failure
        --suppress-health-check all
        --no-color
        --output-sanitize false
        --report junit --report-junit-path "$WORK/junit-$name.xml"
    )
    log "== schemathesis, $name credential: $(( ${#filters[@]} / 2 )) operations, seed $SEED, $MAX_EXAMPLES examples, ${MAX_TIME}s at most"
    (cd "$WORK" && timeout $((MAX_TIME + 120)) "${command[@]}") >"$WORK/schemathesis-$name.txt" 2>&1
    status=$?
    cat "$WORK/schemathesis-$name.txt"
    count_result "schemathesis ($name credential)" "$status" "exit status $status" || logs_tail
}

run_schemathesis backend "$BACKEND_KEY"
run_schemathesis app "$APP_CREDENTIAL"
run_schemathesis installer "$INSTALLER_KEY"
run_schemathesis operator "$OPERATOR_KEY"

kill -0 "$SERVE_PID" 2>/dev/null || { log "livepush serve died during the run"; logs_tail; FAILED=$((FAILED + 1)); }
log "took $(($(date +%s) - STARTED)) s"
echo "fuzz: $PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
