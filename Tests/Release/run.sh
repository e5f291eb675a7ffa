#!/usr/bin/env bash
# The release artifact on a host without the Swift toolchain, over real processes and sockets:
#
#   1. the binary loads nothing from the toolchain's folder (ldd);
#   2. in a mount namespace where the toolchain's folder is an empty tmpfs (no swift, no Swift runtime,
#      no Foundation), `livepush keygen` makes a key and `livepush serve --environment sandbox` starts on a
#      new SQLite database and answers GET /health with {"status":"ok"}; a production server on that
#      database is refused, naming both environments; SIGTERM stops the first one with status 0.
#
# Usage: Tests/Release/run.sh BINARY   (the static binary of scripts/release.sh)
# Needs root (or unprivileged user namespaces) for the mount namespace.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT="$PWD"
log() { echo "release-check: $*"; }
die() { echo "release-check: FAILED: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 BINARY"
BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -x "$BIN" ] || die "$1 is not an executable"
TOOLCHAIN="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")"
[ -d "$TOOLCHAIN/usr/lib/swift" ] || die "cannot find the toolchain to hide (swift is $(command -v swift))"

WORK="$(mktemp -d)"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# Runs a command in a new mount namespace with an empty tmpfs over the toolchain's folder; replaces the
# calling shell, so call it in a subshell: `(without_toolchain COMMAND…)`.
without_toolchain() {
    local unshare=(unshare --mount --propagation private)
    [ "$(id -u)" -eq 0 ] || unshare=(unshare --user --map-root-user --mount --propagation private)
    # exec all the way down: a caller's `(without_toolchain …) &` has the command's own process id in $!.
    exec "${unshare[@]}" -- sh -c 'mount -t tmpfs livepush-no-toolchain "$0" && exec "$@"' "$TOOLCHAIN" "$@"
}

# 1. Linked libraries.
if ldd "$BIN" | grep -F "$TOOLCHAIN/"; then die "the binary loads the libraries above from the toolchain"; fi
log "ok: ldd lists nothing under $TOOLCHAIN"

# 2. Start without the toolchain.
(without_toolchain sh -c '! command -v swift >/dev/null && [ -z "$(ls -A "$0")" ]' "$TOOLCHAIN") ||
    die "the mount namespace does not hide $TOOLCHAIN"
(without_toolchain "$BIN" keygen --out "$WORK/key.p8" >/dev/null) || die "livepush keygen failed without the toolchain"
serve=(serve --environment sandbox --database "$WORK/livepush.sqlite" --key-file "$WORK/key.p8" --key-id RELEASE001
    --team-id RELEASE001 --host 127.0.0.1 --workers 1)
(without_toolchain "$BIN" "${serve[@]}" --port 0 2>"$WORK/serve.log") &
SERVER=$!
PIDS+=("$SERVER")
port=""
for _ in $(seq 1 300); do
    port="$(grep 'livepush serve listening' "$WORK/serve.log" | sed -n 's/.*port=\([0-9]*\).*/\1/p' | head -1 || true)"
    [ -n "$port" ] && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/serve.log" >&2; die "livepush serve exited without the toolchain"; }
    sleep 0.1
done
[ -n "$port" ] || { cat "$WORK/serve.log" >&2; die "livepush serve did not report its port within 30 s"; }
health="$(curl -sS --max-time 10 "http://127.0.0.1:$port/health")" || die "GET /health failed"
[[ "$health" == *'"status":"ok"'* ]] || die "GET /health answered $health"
log "ok: livepush serve started without the toolchain and answered /health: $health"

refused=0
(without_toolchain "$BIN" serve --environment production --database "$WORK/livepush.sqlite" --key-file "$WORK/key.p8" \
    --key-id RELEASE001 --team-id RELEASE001 --port 0 2>"$WORK/refused.log") || refused=$?
[ "$refused" -ne 0 ] || die "a production server started on the sandbox database"
grep -q "the database serves the sandbox APNs environment" "$WORK/refused.log" &&
    grep -q "this server is for production" "$WORK/refused.log" ||
    { cat "$WORK/refused.log" >&2; die "the refusal does not name both environments"; }
log "ok: a production server on the sandbox database is refused (exit $refused)"

kill -TERM "$SERVER"
status=0
wait "$SERVER" || status=$?
[ "$status" -eq 0 ] || { cat "$WORK/serve.log" >&2; die "livepush serve exited with $status after SIGTERM"; }
log "ok: SIGTERM stopped livepush serve with status 0"

log "all checks passed"
