#!/usr/bin/env bash
# Compatibility suite: APNs clients nobody on this project wrote drive `livepush simulator`, and the
# simulated Live Activity must show what each of them sent.
#
#   bash Tests/Compatibility/run.sh [path/to/livepush]      (default: .build/debug/livepush)
#
# Clients: curl with Apple's openssl JWT recipe, h2load (nghttp2) with 200 pushes on one
# connection, aioapns and kalyke-apns (Python, pinned in requirements.txt, installed into
# .build/compat-venv). Installs what is missing (apt-get, pip) on a Debian machine, starts the
# simulator on free loopback ports with a throwaway key in a temporary folder, and stops it at the
# end. Prints `PASS <client>` or `FAIL <client>: <why>` per client, then
# `compatibility: N passed, N failed`; exits 1 if any failed.
#
# Environment: COMPAT_VENV (virtualenv folder), COMPAT_KEEP=1 (keep the temporary folder).
set -uo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../Support/tools.sh
source "$HERE/../Support/tools.sh"  # sets ROOT
LIVEPUSH="$(livepush_binary "${1:-}")"
VENV="${COMPAT_VENV:-$ROOT/.build/compat-venv}"

BUNDLE=com.example.compat.emojirangers
TOPIC="$BUNDLE.push-type.liveactivity"
KEY_ID=COMPATKEY1   # 10 uppercase letters or digits, as Apple's
TEAM_ID=COMPATTEAM
H2LOAD_PUSHES=200

STARTED=$(date +%s)
log() { printf '%s\n' "$*" >&2; }
die() { log "compatibility: setup failed: $*"; echo "compatibility: 0 passed, 1 failed"; exit 1; }

[ -x "$LIVEPUSH" ] || die "no livepush binary at $LIVEPUSH (run swift build first)"

# ---------------------------------------------------------------------------------------------
# 1. Tools: apt-get only for what is missing (apt-get update only then), pip into a virtualenv.

install_system_packages curl openssl jq h2load:nghttp2-client python3
install_python_venv "$VENV" "$HERE/requirements.txt" compat
PYTHON="$VENV/bin/python"

# ---------------------------------------------------------------------------------------------
# 2. A throwaway key and the simulator on free loopback ports, its CA in a temporary folder.

WORK="$(mktemp -d "${TMPDIR:-/tmp}/livepush-compat.XXXXXX")"
SIM_PID=""
cleanup() {
    stop_process "$SIM_PID" 5; SIM_PID=""
    if [ "${COMPAT_KEEP:-0}" = 1 ]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

KEY="$WORK/key.p8"
"$LIVEPUSH" keygen --out "$KEY" >/dev/null || die "livepush keygen failed"

"$LIVEPUSH" simulator --host 127.0.0.1 --port 0 --control-port 0 --data-dir "$WORK/simulator" \
    --key-file "$KEY" --key-id "$KEY_ID" --team-id "$TEAM_ID" \
    >"$WORK/simulator.out" 2>"$WORK/simulator.log" &
SIM_PID=$!

simulator_tail() {
    log "--- simulator output (tail) ---"
    tail -n 40 "$WORK/simulator.out" >&2
    tail -n 60 "$WORK/simulator.log" >&2
    log "--- end of simulator output ---"
}

APNS_PORT="" CONTROL_PORT=""
for _ in $(seq 1 300); do   # the ports appear in its banner; 30 s at most
    kill -0 "$SIM_PID" 2>/dev/null || { simulator_tail; die "the simulator exited at start"; }
    APNS_PORT=$(sed -n 's|^ *APNs endpoint: *https://[^:]*:\([0-9][0-9]*\).*|\1|p' "$WORK/simulator.out")
    CONTROL_PORT=$(sed -n 's|^ *Control API: *http://[^:]*:\([0-9][0-9]*\).*|\1|p' "$WORK/simulator.out")
    [ -n "$APNS_PORT" ] && [ -n "$CONTROL_PORT" ] && break
    sleep 0.1
done
[ -n "$APNS_PORT" ] && [ -n "$CONTROL_PORT" ] || { simulator_tail; die "the simulator printed no ports within 30 s"; }
APNS_URL="https://127.0.0.1:$APNS_PORT"
CONTROL="http://127.0.0.1:$CONTROL_PORT"
CA="$WORK/simulator/ca.pem"

ready=0
for _ in $(seq 1 100); do   # 10 s at most
    if curl -sf --max-time 1 "$CONTROL/health" >/dev/null 2>&1 && [ -s "$CA" ]; then ready=1; break; fi
    sleep 0.1
done
[ "$ready" = 1 ] || { simulator_tail; die "the simulator's control API did not answer within 10 s"; }
log "simulator: APNs $APNS_URL, control $CONTROL, CA $CA"

# ---------------------------------------------------------------------------------------------
# Helpers: the control API, the check, and the report.

# control METHOD PATH [JSON] -> the response body on stdout; fails on a non-2xx answer.
control() {
    local args=(-sS --fail-with-body --max-time 10 -X "$1" "$CONTROL$2")
    [ $# -ge 3 ] && args+=(-H 'content-type: application/json' --data "$3")
    curl "${args[@]}"
}

# new_activity NAME -> sets ACTIVITY and TOKEN: one simulated iPhone with one Live Activity.
new_activity() {
    local device activity
    device=$(control POST /v1/devices "$(jq -nc --arg name "$1" --arg bundle "$BUNDLE" \
        '{name: $name, bundleId: $bundle, environment: "sandbox"}')") || return 1
    device=$(jq -er .deviceId <<<"$device") || return 1
    activity=$(control POST "/v1/devices/$device/activities" \
        '{"attributesType":"AdventureAttributes","attributes":{"hero":"Power Panda"},
          "contentState":{"currentHealthLevel":1,"eventDescription":"Adventure has begun!"}}') || return 1
    ACTIVITY=$(jq -er .activityId <<<"$activity") && TOKEN=$(jq -er .pushToken <<<"$activity")
}

# shows_state ACTIVITY JSON -> success when the activity's contentState equals JSON (waits up to 5 s).
shows_state() {
    local body
    for _ in $(seq 1 50); do
        body=$(control GET "/v1/activities/$1") &&
            jq -e --argjson want "$2" '.contentState == $want' <<<"$body" >/dev/null && return 0
        sleep 0.1
    done
    log "the activity shows: $(jq -c '{state, contentState, pushesReceived: ([.history[]?] | length)}' <<<"$body" 2>/dev/null || echo "$body")"
    log "its last push: $(jq -c '[.history[]?] | last | del(.headers?)' <<<"$body" 2>/dev/null)"
    return 1
}

PASSED=0 FAILED=0
report() {   # report NAME OUTPUT_FILE STATUS WHY
    count_result "$1" "$3" "$4" && return 0
    log "--- $1 output ---"
    cat "$2" >&2
    log "--- end of $1 output ---"
    simulator_tail
}

state_for() {   # the content-state each client sends
    jq -nc --arg who "$1" --argjson level "$2" \
        '{currentHealthLevel: $level, eventDescription: ("Power Panda found a sword! (" + $who + ")")}'
}

# Apple's JWT recipe, as in "Establishing a token-based connection to APNs" and "Sending push
# notifications using command-line tools": base64url by openssl + tr, signed by `openssl dgst`
# (a DER ECDSA signature, which APNs accepts). Deliberately not `livepush jwt`.
apple_jwt() {
    local issue_time header claims signature
    issue_time=$(date +%s)
    header=$(printf '{ "alg": "ES256", "kid": "%s" }' "$KEY_ID" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
    claims=$(printf '{ "iss": "%s", "iat": %d }' "$TEAM_ID" "$issue_time" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
    signature=$(printf '%s' "$header.$claims" | openssl dgst -binary -sha256 -sign "$KEY" | openssl base64 -e -A | tr -- '+/' '-_' | tr -d =)
    printf '%s.%s.%s' "$header" "$claims" "$signature"
}

update_payload() {   # update_payload CONTENT_STATE
    jq -nc --argjson state "$1" --argjson now "$(date +%s)" \
        '{aps: {timestamp: $now, event: "update", "content-state": $state}}'
}

# ---------------------------------------------------------------------------------------------
# 3. The clients.

client_curl_openssl() {
    local out="$WORK/curl-openssl.txt" want status why=""
    want=$(state_for curl-openssl 0.941)
    {
        new_activity "curl-openssl iPhone" || why="could not create the activity through the control API"
        if [ -z "$why" ]; then
            status=$(curl -sS --http2 --cacert "$CA" --max-time 15 -o "$WORK/curl-openssl.body" -w '%{http_code}' \
                --header "authorization: bearer $(apple_jwt)" \
                --header "apns-push-type: liveactivity" \
                --header "apns-topic: $TOPIC" \
                --header "apns-priority: 10" \
                --data "$(update_payload "$want")" \
                "$APNS_URL/3/device/$TOKEN")
            echo "curl: HTTP $status $(cat "$WORK/curl-openssl.body" 2>/dev/null)"
            if [ "$status" != 200 ]; then why="APNs answered HTTP $status $(cat "$WORK/curl-openssl.body" 2>/dev/null)"
            elif ! shows_state "$ACTIVITY" "$want"; then why="HTTP 200, but the activity does not show the state sent"
            fi
        fi
    } >"$out" 2>&1
    report curl-openssl "$out" "$([ -z "$why" ] && echo 0 || echo 1)" "$why"
}

client_h2load() {
    # h2load has no option for a CA file and does not verify the server's certificate (nghttp2
    # 1.52: no --cacert, no verification by default), so this client tests HTTP/2 and APNs
    # behaviour under load, not trust; curl above checks the certificate chain.
    local out="$WORK/h2load.txt" want why="" body="$WORK/h2load-body.json" succeeded
    want=$(state_for h2load 0.5)
    {
        new_activity "h2load iPhone" || why="could not create the activity through the control API"
        if [ -z "$why" ]; then
            update_payload "$want" >"$body"
            timeout 60 h2load -n "$H2LOAD_PUSHES" -c 1 -m 10 \
                -H "authorization: bearer $(apple_jwt)" \
                -H "apns-push-type: liveactivity" \
                -H "apns-topic: $TOPIC" \
                -H "apns-priority: 10" \
                -d "$body" \
                "$APNS_URL/3/device/$TOKEN"
            echo "h2load exit status: $?"
            # h2load prints: "status codes: 200 2xx, 0 3xx, 0 4xx, 0 5xx"
            succeeded=$(sed -n 's/^status codes: \([0-9][0-9]*\) 2xx.*/\1/p' "$out")
            if [ "$succeeded" != "$H2LOAD_PUSHES" ]; then
                why="h2load reports ${succeeded:-no} 2xx answers of $H2LOAD_PUSHES"
            elif ! shows_state "$ACTIVITY" "$want"; then
                why="$H2LOAD_PUSHES x 2xx, but the activity does not show the state sent"
            fi
            echo "what the device did with them: $(control GET "/v1/activities/$ACTIVITY" |
                jq -c '[.history[]?.outcome | "\(.kind) \(.detail // "")"] | group_by(.) | map({(.[0]): length}) | add')"
        fi
    } >"$out" 2>&1
    report h2load "$out" "$([ -z "$why" ] && echo 0 || echo 1)" "$why"
}

client_python() {   # client_python NAME SCRIPT LEVEL
    local name=$1 script=$2 out="$WORK/$1.txt" want why=""
    want=$(state_for "$name" "$3")
    {
        new_activity "$name iPhone" || why="could not create the activity through the control API"
        if [ -z "$why" ]; then
            if ! timeout 60 "$PYTHON" "$HERE/$script" --url "$APNS_URL" --ca-file "$CA" --key-file "$KEY" \
                --key-id "$KEY_ID" --team-id "$TEAM_ID" --topic "$TOPIC" --token "$TOKEN" \
                --content-state "$want" --timeout 20; then
                why="the push failed: $(grep -E '^(aioapns|kalyke) (raised|result)|^connection probe:' "$out" | awk 'NR > 1 { printf "; " } { printf "%s", $0 }')"
                [ "$why" = "the push failed: " ] && why="the push failed (see its output)"
            elif ! shows_state "$ACTIVITY" "$want"; then
                why="$name reported success, but the activity does not show the state sent"
            fi
        fi
    } >"$out" 2>&1
    report "$name" "$out" "$([ -z "$why" ] && echo 0 || echo 1)" "$why"
}

client_curl_openssl
client_h2load
client_python aioapns aioapns_push.py 0.25
client_python kalyke-apns kalyke_push.py 0.75

log "took $(($(date +%s) - STARTED)) s"
echo "compatibility: $PASSED passed, $FAILED failed"
[ "$FAILED" = 0 ]
