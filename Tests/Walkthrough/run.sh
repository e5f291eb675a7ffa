#!/usr/bin/env bash
# The README's walkthrough, run as a new user runs it: every ```sh block from "## Get going" to the end
# of "### The provider console", verbatim and in order, in one bash session (`set -euo pipefail`) against
# the simulator, then checks of what the walkthrough should have done.
#
#   bash Tests/Walkthrough/run.sh [path/to/livepush]      (default: .build/debug/livepush)
#
# The session runs in a temporary folder (where the README leaves dev.p8 and dev.sqlite) with HOME
# there too (so `~/.livepush/simulator` is a fresh one), without the caller's LIVEPUSH_* variables, and
# with the given binary first on PATH as `livepush`. The README's `swift build` is answered by that
# binary (the block that exports PATH runs as written); nothing here runs `swift` itself. The README's
# `xdg-open URL` (the console) opens no browser here: it records the URL, which the checks then load.
#
# A marker, an HTML comment on the line before a block (GitHub does not show it), says how to run it:
#   <!-- walkthrough: background URL -->   a command the README runs in another terminal: started in
#                                          the background (own process group, output in the folder),
#                                          ready once URL answers, stopped at the end on every path
#   <!-- walkthrough: skip (REASON) -->    not run (production examples; the demo and the tests)
# Every other block runs in the session; a block that fails ends the walkthrough (and fails it).
#
# The README's ports are fixed (simulator 2195, 2197, 2198; server 8080): if one is taken the script
# says so and stops. The checks of a section run after its last block (WT_CHECK_SECTIONS below), against the
# simulator's control API and the server. Prints `walkthrough: N passed, N failed` last (one per
# check; a failed block or setup counts one failure) and exits non-zero on any failure.
# WALKTHROUGH_KEEP=1 keeps the temporary folder (the background commands' logs, dev.sqlite).
#
# The README's blocks run in this shell and may set any variable: this script's own names start with
# WT_ or wt_.
set -euo pipefail

WT_HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
WT_ROOT="$(cd "$WT_HERE/../.." && pwd)"
WT_README="$WT_ROOT/README.md"
WT_BINARY="${1:-$WT_ROOT/.build/debug/livepush}"
case "$WT_BINARY" in /*) ;; *) WT_BINARY="$PWD/$WT_BINARY" ;; esac
WT_PORTS=(2195 2197 2198 8080)   # the README's: the simulator's channel management, APNs and control ports; the server's
WT_FIRST_SECTION="## Get going"
WT_LAST_SECTION="### The provider console"   # a prefix of the heading

WT_STARTED_AT=$(date +%s)
WT_PASSED=0 WT_FAILED=0
wt_log() { printf '%s\n' "$*" >&2; }
wt_die() { wt_log "walkthrough: $*"; WT_FAILED=$((WT_FAILED + 1)); exit 1; }   # the EXIT trap prints the summary

# ---------------------------------------------------------------------------------------------
# Background blocks, and the cleanup that stops them on every path.

WT_WORK="" WT_BACKGROUND_PIDS=() WT_BACKGROUND_NAMES=()
wt_stop_group() {   # wt_stop_group PGID: TERM to the block's process group, KILL after 15 s
    local pgid=$1 _
    if kill -0 -- "-$pgid" 2>/dev/null; then
        kill -TERM -- "-$pgid" 2>/dev/null || true
        for _ in $(seq 1 150); do kill -0 -- "-$pgid" 2>/dev/null || break; sleep 0.1; done
        if kill -0 -- "-$pgid" 2>/dev/null; then
            wt_log "walkthrough: process group $pgid did not stop within 15 s; killing it"
            kill -KILL -- "-$pgid" 2>/dev/null || true
        fi
    fi
    wait "$pgid" 2>/dev/null || true
}
wt_cleanup() {
    local status=$? index
    trap - EXIT INT TERM ERR
    set +e
    for ((index = ${#WT_BACKGROUND_PIDS[@]} - 1; index >= 0; index--)); do wt_stop_group "${WT_BACKGROUND_PIDS[index]}"; done
    if [ -n "$WT_WORK" ]; then
        if [ "${WALKTHROUGH_KEEP:-0}" = 1 ]; then wt_log "walkthrough: kept $WT_WORK"; else rm -rf "$WT_WORK"; fi
    fi
    wt_log "walkthrough: took $(($(date +%s) - WT_STARTED_AT)) s"
    if [ "$status" != 0 ] && [ "$WT_FAILED" = 0 ]; then WT_FAILED=1; fi
    echo "walkthrough: $WT_PASSED passed, $WT_FAILED failed"
    [ "$status" = 0 ] || exit "$status"
    [ "$WT_FAILED" = 0 ] || exit 1
    exit 0
}
trap wt_cleanup EXIT
trap 'wt_log "walkthrough: interrupted"; exit 130' INT TERM

wt_background_logs() {
    local index
    for index in "${!WT_BACKGROUND_NAMES[@]}"; do
        wt_log "--- ${WT_BACKGROUND_NAMES[index]}: tail of its output ---"
        tail -n 25 "$WT_WORK/background-$((index + 1)).log" >&2 2>/dev/null || true
    done
    [ ${#WT_BACKGROUND_NAMES[@]} = 0 ] || wt_log "--- end of the background output ---"
}

# ---------------------------------------------------------------------------------------------
# 1. Tools, the binary, the ports.

# shellcheck source-path=SCRIPTDIR source=../Support/tools.sh
source "$WT_HERE/../Support/tools.sh"
if ! command -v curl >/dev/null || ! command -v jq >/dev/null; then
    install_system_packages curl jq
fi

[ -x "$WT_BINARY" ] || wt_die "no livepush binary at $WT_BINARY (run swift build --product livepush first)"
[ -f "$WT_README" ] || wt_die "no README at $WT_README"

wt_port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for wt_port in "${WT_PORTS[@]}"; do
    if wt_port_taken "$wt_port"; then
        wt_die "port $wt_port on 127.0.0.1 is taken, and the README's walkthrough uses the fixed ports ${WT_PORTS[*]}: stop what listens there and run again"
    fi
done

# ---------------------------------------------------------------------------------------------
# 2. The blocks: ```sh fences (indented ones too, in list items) from the first heading to the end of
# the last section; other fences are passed over whole.

WT_BLOCKS=() WT_BLOCK_LINES=() WT_BLOCK_SECTIONS=() WT_BLOCK_MODES=() WT_BLOCK_ARGS=()
wt_extract_blocks() {
    local number=0 fence="" in_range=0 seen_last=0 line indent="" text="" section="" previous="" start=0
    local mode="" argument=""
    local marker='^[[:space:]]*<!--[[:space:]]*walkthrough:[[:space:]]*([a-z]+)[[:space:]]*(.*[^[:space:]])?[[:space:]]*-->[[:space:]]*$'
    while IFS= read -r line || [ -n "$line" ]; do
        number=$((number + 1))
        if [ -n "$fence" ]; then   # inside a fence: "sh" (kept) or "other"
            if [[ "$line" =~ ^[[:space:]]*\`\`\`[[:space:]]*$ ]]; then
                if [ "$fence" = sh ]; then
                    WT_BLOCKS+=("$text") WT_BLOCK_LINES+=("$start") WT_BLOCK_SECTIONS+=("$section")
                    WT_BLOCK_MODES+=("$mode") WT_BLOCK_ARGS+=("$argument")
                fi
                fence=""
            elif [ "$fence" = sh ]; then
                text+="${line#"$indent"}"$'\n'
            fi
            continue
        fi
        if [[ "$line" =~ ^(##|###)\ (.*)$ ]]; then
            [ "$in_range" = 1 ] || [ "$line" != "$WT_FIRST_SECTION" ] || in_range=1
            if [ "$in_range" = 1 ] && [ "$seen_last" = 1 ]; then break; fi
            [[ "$line" != "$WT_LAST_SECTION"* ]] || seen_last=1
            section="${BASH_REMATCH[2]}"
        elif [[ "$line" =~ ^([[:space:]]*)\`\`\`(.*)$ ]]; then
            fence=other indent="${BASH_REMATCH[1]}"
            if [ "$in_range" = 1 ] && [[ "${BASH_REMATCH[2]}" =~ ^sh[[:space:]]*$ ]]; then
                fence=sh text="" start=$number mode=run argument=""
                if [[ "$previous" =~ $marker ]]; then mode="${BASH_REMATCH[1]}" argument="${BASH_REMATCH[2]:-}"; fi
            fi
        fi
        [[ "$line" =~ ^[[:space:]]*$ ]] || previous="$line"
    done <"$WT_README"
    [ "$in_range" = 1 ] || wt_die "README.md has no heading '$WT_FIRST_SECTION'"
    [ "$seen_last" = 1 ] || wt_die "README.md has no heading '$WT_LAST_SECTION…' after '$WT_FIRST_SECTION'"
    [ -z "$fence" ] || wt_die "README.md:$start: a fence that never closes"
}
wt_extract_blocks
[ ${#WT_BLOCKS[@]} -gt 0 ] || wt_die "no \`\`\`sh blocks from '$WT_FIRST_SECTION' to '$WT_LAST_SECTION'"
for wt_i in "${!WT_BLOCKS[@]}"; do
    case "${WT_BLOCK_MODES[wt_i]}" in
        run | skip) ;;
        background)
            [[ "${WT_BLOCK_ARGS[wt_i]}" =~ ^https?://[^[:space:]]+$ ]] ||
                wt_die "README.md:${WT_BLOCK_LINES[wt_i]}: 'walkthrough: background' takes the URL that answers once the command is up"
            ;;
        *) wt_die "README.md:${WT_BLOCK_LINES[wt_i]}: unknown marker 'walkthrough: ${WT_BLOCK_MODES[wt_i]}' (background URL, or skip (reason))" ;;
    esac
done

# ---------------------------------------------------------------------------------------------
# 3. Checks. `wt_expect DESCRIPTION COMMAND…` counts one pass or failure; `wt_eventually` retries a
# command for up to 10 s, so that a slow machine does not fail what the README's `sleep`s wait for.
# They read the session's variables (the README's names), hence `${NAME:-}`.

wt_expect() {
    local description=$1
    shift
    if "$@"; then
        echo "PASS $description"
        WT_PASSED=$((WT_PASSED + 1))
    else
        echo "FAIL $description"
        WT_FAILED=$((WT_FAILED + 1))
    fi
}
wt_eventually() {
    local _
    for _ in $(seq 1 50); do "$@" 2>/dev/null && return 0; sleep 0.2; done
    "$@"
}
wt_json_is() {   # wt_json_is URL JQ-FILTER EXPECTED [HEADER]: the filter's compact output is EXPECTED
    local url=$1 filter=$2 expected=$3 actual options=(-s --max-time 10)
    [ $# -lt 4 ] || options+=(-H "$4")
    actual=$(curl "${options[@]}" "$url" | jq -c "$filter" 2>&1) || actual="(no answer, or not JSON: $actual)"
    [ "$actual" = "$expected" ] && return 0
    wt_log "  $url | jq -c '$filter'"
    wt_log "  expected: $expected"
    wt_log "  actual:   $actual"
    return 1
}
wt_matches() { [[ "$1" =~ $2 ]] || { wt_log "  '$1' does not match $2"; return 1; }; }
wt_simulator() { echo "http://127.0.0.1:2198$1"; }
wt_server() { echo "http://127.0.0.1:8080$1"; }
wt_backend() { echo "Authorization: Bearer ${LIVEPUSH_BACKEND_KEY:-}"; }

wt_check_simulator_by_hand() {
    wt_expect "the simulator's CA is at ~/.livepush/simulator/ca.pem" test -s "$HOME/.livepush/simulator/ca.pem"
    wt_expect "the simulated iPhone has a push-to-start token (\$START_TOKEN)" \
        wt_matches "${START_TOKEN:-}" '^[0-9a-f]{16,}$'
    wt_expect "the simulated activity shows what livepush send sent" \
        wt_json_is "$(wt_simulator "/v1/activities/${ACTIVITY:-none}")" '[.state, .contentState]' \
        '["active",{"currentHealthLevel":0.941,"eventDescription":"Power Panda found a sword!"}]'
}
wt_check_provider_server() {
    wt_expect "the group send (\$SEND) finished: 1 targeted, 1 sent, none failed" wt_eventually \
        wt_json_is "$(wt_server "/v1/sends/${SEND:-none}")" '[.state, .counts.targeted, .counts.sent, .counts.failed]' \
        '["finished",1,1,0]' "$(wt_backend)"
    wt_expect "the activity's delivery history: the update, accepted by APNs, its apnsId the push id" wt_eventually \
        wt_json_is "$(wt_server "/v1/activities/${ACTIVITY:-none}")" \
        '[.deliveries[] | select(.kind == "update") | [.outcome, .status, .apnsId == .pushId]]' \
        '[["accepted",200,true]]' "$(wt_backend)"
    wt_expect "the simulated activity's content-state after the group update" wt_eventually \
        wt_json_is "$(wt_simulator "/v1/activities/${ACTIVITY:-none}")" '.contentState' \
        '{"currentHealthLevel":0.5,"eventDescription":"Power Panda lost 44 health points"}'
}
wt_check_push_to_start() {
    wt_expect "push-to-start started Spook's activity on the iPhone (\$STARTED)" \
        wt_matches "${STARTED:-}" '^[0-9A-Fa-f-]{36}$'
    wt_expect "Spook's activity took the update, then ended keeping its last state" wt_eventually \
        wt_json_is "$(wt_simulator "/v1/activities/${STARTED:-none}")" '[.state, .contentState]' \
        '["ended",{"currentHealthLevel":0.8,"eventDescription":"Spook found a secret door"}]'
}
wt_check_backend_side() {
    wt_expect "the group end ended Power Panda's activity with its final state" wt_eventually \
        wt_json_is "$(wt_simulator "/v1/activities/${ACTIVITY:-none}")" '[.state, .contentState]' \
        '["ended",{"currentHealthLevel":0.8,"eventDescription":"Adventure complete!"}]'
    wt_expect "the start for user ava started a new adventure on the iPhone" wt_eventually \
        wt_json_is "$(wt_simulator "/v1/devices/${DEVICE:-none}")" \
        '[.activities[] | select(.contentState.eventDescription == "A new adventure begins")] | length' '1'
}
wt_check_broadcast_channels() {
    wt_expect "the server's channel (\$CHANNEL) is the walkthrough app's, APNs' id in \$APNS_CHANNEL" \
        wt_json_is "$(wt_server "/v1/channels/${CHANNEL:-none}")" \
        "[.channel.bundleId, .channel.apnsChannelId == \"${APNS_CHANNEL:-none}\"]" \
        '["com.example.emojirangers",true]' "$(wt_backend)"
    wt_expect "the broadcast's record: accepted, push id sent as apns-request-id, apnsId the apns-unique-id" \
        wt_eventually wt_check_broadcast_record
    wt_expect "the broadcast reached the activity push-to-start subscribed to the channel" \
        wt_eventually wt_json_is "$(wt_simulator "/v1/devices/${DEVICE:-none}")" \
        "[.activities[] | select(any(.history[]?; .apnsId == \"${WT_BROADCAST_PUSH_ID:-none}\")) | [.attributes.hero, .contentState]]" \
        '[["Spectator",{"currentHealthLevel":0.8,"eventDescription":"The party reached the castle"}]]'
    wt_expect "the channel was deleted, on the server and on APNs" wt_check_channel_deleted
    wt_expect "livepush send --channel reached the activity subscribed by hand (\$HAND_ACTIVITY)" wt_eventually \
        wt_json_is "$(wt_simulator "/v1/activities/${HAND_ACTIVITY:-none}")" \
        "[.channelId == \"${HAND_CHANNEL:-none}\", .contentState]" \
        '[true,{"currentHealthLevel":0.6,"eventDescription":"The dragon wakes up"}]'
}
# The README says a broadcast's push id goes out as its apns-request-id and its delivery's apnsId is
# the apns-unique-id APNs answered: the simulator's push log holds both sides of that exchange. Keeps
# the push id in WT_BROADCAST_PUSH_ID (the subscriber's history names it; the channel's deletion
# unsubscribed it).
WT_BROADCAST_PUSH_ID=""
wt_check_broadcast_record() {
    local record push_id apns_id logged
    record=$(curl -s --max-time 10 -H "$(wt_backend)" "$(wt_server "/v1/channels/${CHANNEL:-none}")" |
        jq -c '[.deliveries[] | select(.kind == "update")] | first // empty') || record=""
    if [ "$(jq -c '[.outcome, .status]' <<<"${record:-null}" 2>/dev/null)" != '["accepted",200]' ]; then
        wt_log "  the broadcast's delivery record: ${record:-none}"
        return 1
    fi
    push_id=$(jq -r .pushId <<<"$record") apns_id=$(jq -r .apnsId <<<"$record")
    WT_BROADCAST_PUSH_ID=$push_id
    logged=$(curl -s --max-time 10 "$(wt_simulator "/v1/pushes?limit=1000")" | jq -r --arg id "$push_id" \
        '[.pushes[] | select(.apnsId == $id and (.path | startswith("/4/broadcasts/")))] | first | .apnsUniqueId // empty') || logged=""
    [ "$push_id" != "$apns_id" ] && [ "$logged" = "$apns_id" ] && return 0
    wt_log "  pushId $push_id, apnsId $apns_id; the simulator logged that broadcast with apns-unique-id ${logged:-(none)}"
    return 1
}
wt_check_channel_deleted() {
    wt_json_is "$(wt_server "/v1/channels/${CHANNEL:-none}")" '.channel.deletedAt != null' 'true' "$(wt_backend)" &&
        wt_json_is "$(wt_simulator "/v1/pushes?limit=1000")" '[.pushes[] | select(.method == "DELETE" and .status == 204)] | length' '1'
}

# The console continues the walkthrough on the server's database: the operator key made with
# `--database dev.sqlite` opens the operator routes, the page the README opens is served with its
# policy, the series counts the walkthrough's pushes, and a key from elsewhere is sent to dev.sqlite.
WT_OPENED=""
wt_check_provider_console() {
    wt_expect "the operator key (\$OPERATOR_KEY) is a new operator key" wt_matches "${OPERATOR_KEY:-}" '^lp_operator_[A-Za-z0-9_-]{43}$'
    wt_expect "the README opened the console's page (xdg-open)" wt_matches "$WT_OPENED" '^http://127\.0\.0\.1:8080/console$'
    wt_expect "the console's page is served with its Content-Security-Policy" wt_check_console_page
    wt_expect "the key made on dev.sqlite opens the console's overview on this server" \
        wt_json_is "$(wt_server /v1/operator/overview)" '[.instances[0].thisInstance, .outboxDepth]' '[true,0]' \
        "Authorization: Bearer ${OPERATOR_KEY:-none}"
    wt_expect "the series of the last hour counts the walkthrough's accepted pushes" \
        wt_json_is "$(wt_server /v1/operator/series)" '[(.minutes | length), ([.minutes[].counts.accepted] | add) > 0]' '[60,true]' \
        "Authorization: Bearer ${OPERATOR_KEY:-none}"
    wt_expect "a key the server's database does not hold is refused, naming dev.sqlite" \
        wt_json_is "$(wt_server /v1/operator/overview)" '.error.message | contains("--database dev.sqlite")' 'true' \
        "Authorization: Bearer lp_operator_unknown"
}
wt_check_console_page() {
    local headers
    headers=$(curl -s -D - -o /dev/null --max-time 10 "$(wt_server /console)") || return 1
    grep -qi "^content-security-policy: default-src 'none'; script-src 'self'" <<<"$headers" && [[ "$headers" == "HTTP/1.1 200"* ]] && return 0
    wt_log "  GET /console answered: $headers"
    return 1
}

# A section's heading (a prefix of it), and the checks run after its last block.
WT_CHECK_SECTIONS=(
    "The simulator by hand"
    "The provider server against the simulator"
    "Push-to-start through the server"
    "The backend side"
    "Broadcast channels"
    "The provider console"
)
WT_CHECK_FUNCTIONS=(
    wt_check_simulator_by_hand
    wt_check_provider_server
    wt_check_push_to_start
    wt_check_backend_side
    wt_check_broadcast_channels
    wt_check_provider_console
)
WT_CHECKED=()
wt_checks_after() {   # wt_checks_after SECTION
    local index
    for index in "${!WT_CHECK_SECTIONS[@]}"; do
        [[ "$1" == "${WT_CHECK_SECTIONS[index]}"* ]] || continue
        echo "== checks after \"${WT_CHECK_SECTIONS[index]}\""
        "${WT_CHECK_FUNCTIONS[index]}"
        WT_CHECKED[index]=1
    done
}

# ---------------------------------------------------------------------------------------------
# 4. The session: a fresh folder and HOME, the binary as `livepush` first on PATH.

WT_WORK="$(mktemp -d "${TMPDIR:-/tmp}/livepush-walkthrough.XXXXXX")"
mkdir -p "$WT_WORK/bin" "$WT_WORK/home"
ln -s "$WT_BINARY" "$WT_WORK/bin/livepush"
for wt_name in "${!LIVEPUSH_@}"; do unset "$wt_name"; done
export HOME="$WT_WORK/home" PATH="$WT_WORK/bin:$PATH"
# curl reads $HOME/.curlrc: a bound on every request, so that nothing the README runs can hang CI, and
# a newline after each answer (the API's JSON has none), so that the log shows one answer a line.
unset CURL_HOME XDG_CONFIG_HOME
printf 'connect-timeout = 5\nmax-time = 60\nwrite-out = "\\n"\n' >"$HOME/.curlrc"
swift() {   # the README's `swift build`: the binary is built already
    if [ "$*" = build ]; then echo "(walkthrough: swift build: $WT_BINARY is built already)"; return 0; fi
    wt_log "walkthrough: 'swift $*' is not run here"
    return 1
}
xdg-open() {   # the README's `xdg-open URL`: no browser here; the checks load the URL
    WT_OPENED="$*"
    echo "(walkthrough: xdg-open $*: recorded, not opened)"
}
cd "$WT_WORK"
wt_log "walkthrough: ${#WT_BLOCKS[@]} blocks of README.md, in $WT_WORK, with $WT_BINARY"

wt_start_background() {   # wt_start_background INDEX: in its own process group; ready when its URL answers
    local index=$1 number=$((${#WT_BACKGROUND_PIDS[@]} + 1)) url=${WT_BLOCK_ARGS[$1]} pid _
    set -m
    (eval "${WT_BLOCKS[index]}") </dev/null >"$WT_WORK/background-$number.log" 2>&1 &
    pid=$!
    set +m
    WT_BACKGROUND_PIDS+=("$pid")
    WT_BACKGROUND_NAMES+=("README.md:${WT_BLOCK_LINES[index]} ($(head -n 1 <<<"${WT_BLOCKS[index]}" | cut -c1-40)…)")
    for _ in $(seq 1 300); do   # 60 s at most
        if curl -sf --max-time 2 "$url" >/dev/null 2>&1; then
            echo "(walkthrough: running in the background as process group $pid; $url answers)"
            return 0
        fi
        kill -0 "$pid" 2>/dev/null || { wt_background_logs; wt_die "README.md:${WT_BLOCK_LINES[index]}: the command exited before $url answered"; }
        sleep 0.2
    done
    wt_background_logs
    wt_die "README.md:${WT_BLOCK_LINES[index]}: $url did not answer within 60 s"
}

WT_CURRENT=""
# shellcheck disable=SC2154   # wt_status is assigned in the trap itself
trap 'wt_status=$?; if [ -n "$WT_CURRENT" ]; then wt_log "walkthrough: README.md:$WT_CURRENT: a command failed (exit status $wt_status); the walkthrough stops here"; wt_background_logs; fi' ERR
WT_SKIPPED=0
for wt_i in "${!WT_BLOCKS[@]}"; do
    echo
    echo "== README.md:${WT_BLOCK_LINES[wt_i]} (${WT_BLOCK_SECTIONS[wt_i]}): ${WT_BLOCK_MODES[wt_i]}${WT_BLOCK_ARGS[wt_i]:+ ${WT_BLOCK_ARGS[wt_i]}}"
    # shellcheck disable=SC2001   # a prefix on every line of the block
    sed 's/^/  | /' <<<"${WT_BLOCKS[wt_i]%$'\n'}"
    case "${WT_BLOCK_MODES[wt_i]}" in
        skip) WT_SKIPPED=$((WT_SKIPPED + 1)) ;;
        background) wt_start_background "$wt_i" ;;
        run)
            WT_CURRENT="${WT_BLOCK_LINES[wt_i]}"
            eval "${WT_BLOCKS[wt_i]}" </dev/null
            WT_CURRENT=""
            ;;
    esac
    if [ "$wt_i" = $((${#WT_BLOCKS[@]} - 1)) ] || [ "${WT_BLOCK_SECTIONS[wt_i]}" != "${WT_BLOCK_SECTIONS[wt_i + 1]}" ]; then
        wt_checks_after "${WT_BLOCK_SECTIONS[wt_i]}"
    fi
done
trap - ERR

echo
for wt_i in "${!WT_CHECK_SECTIONS[@]}"; do
    [ -n "${WT_CHECKED[wt_i]:-}" ] ||
        wt_expect "README.md has a section \"${WT_CHECK_SECTIONS[wt_i]}\" with blocks to check" false
done
for wt_i in "${!WT_BACKGROUND_PIDS[@]}"; do
    wt_expect "still running at the end: ${WT_BACKGROUND_NAMES[wt_i]}" kill -0 "${WT_BACKGROUND_PIDS[wt_i]}"
done
wt_log "walkthrough: ran $((${#WT_BLOCKS[@]} - WT_SKIPPED)) blocks of README.md, skipped $WT_SKIPPED (marked skip)"
