#!/usr/bin/env bash
# The release artifact on a host without the Swift toolchain, and the deploy/ settings, over real
# processes and sockets:
#
#   1. the binary loads nothing from the toolchain's folder (ldd); `livepush --version` names a commit; the
#      binary is stripped and names livepush.debug beside it; `tar tzf` of the release lists both, the
#      unit, install.sh and livepush.json; deploy/install.sh (INSTALL_ROOT=a temporary folder) makes /etc/livepush
#      with the documented modes, and the livepush.json it installs is refused until keyId is set;
#   2. in a mount namespace where the toolchain's folder is an empty tmpfs (no swift, no Swift runtime,
#      no Foundation), `livepush keygen` makes a key and `livepush serve --environment sandbox` starts on a
#      new SQLite database and answers GET /health with {"status":"ok"}; a production server on that
#      database is refused, naming both environments; SIGTERM stops the first one with status 0;
#   3. nginx (Debian's nginx-light, installed when missing) with deploy/nginx.conf and a self-signed
#      certificate passes `nginx -t`, proxies https://…/health to that server and answers /metrics 404; a
#      100 KB POST /v1/starts reaches the server (2 MiB allowed there), 100 KB elsewhere is refused (413);
#   4. `systemd-analyze verify` accepts deploy/livepush.service (skipped, saying so, without systemd).
#
# Usage: Tests/Release/run.sh BINARY   (the static binary of scripts/release.sh)
# Needs root (or unprivileged user namespaces) for the mount namespace, and apt-get for nginx.
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

# A port the kernel picks (bound and released; nginx cannot report the port it bound).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

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

# 1b. The version, the stripped binary beside its debug file, the tarball, and deploy/install.sh.
version_line="$("$BIN" --version)" || die "livepush --version failed"
[[ "$version_line" == livepush\ *\(commit\ * && "$version_line" != *"commit unknown"* ]] ||
    die "livepush --version printed '$version_line', not a version and a commit"
log "ok: $version_line"
if readelf -S "$BIN" | grep -qE '\.debug_info|\.symtab'; then die "the binary is not stripped (readelf -S lists .debug_info or .symtab)"; fi
readelf --string-dump=.gnu_debuglink "$BIN" | grep -q 'livepush\.debug' || die "the binary does not name livepush.debug in .gnu_debuglink"
DIST="$(dirname "$BIN")"
[ -f "$DIST/livepush.debug" ] && readelf -S "$DIST/livepush.debug" | grep -q '\.debug_info' ||
    die "no livepush.debug with .debug_info beside the binary"
log "ok: the binary is stripped ($(du -h "$BIN" | cut -f1)); its debug file is livepush.debug ($(du -h "$DIST/livepush.debug" | cut -f1))"
tarball="$(ls "$DIST"/livepush-*-linux-*.tar.gz 2>/dev/null | head -1 || true)"
if [ -n "$tarball" ]; then
    listing="$(tar tzf "$tarball")"
    for file in livepush livepush.debug livepush.libraries.txt livepush.service nginx.conf livepush.json install.sh LICENSE; do
        grep -qE "^[^/]+/$file\$" <<<"$listing" || { echo "$listing" >&2; die "tar tzf $(basename "$tarball") does not list $file"; }
    done
    log "ok: tar tzf $(basename "$tarball") lists the stripped binary, livepush.debug, install.sh and livepush.json"
else
    log "skipped: no livepush-*.tar.gz beside $BIN (scripts/release.sh makes it)"
fi
install_root="$WORK/install-root"
(cd "$WORK" && printf 'key\n' >AuthKey.p8 && INSTALL_ROOT="$install_root" BINARY="$BIN" bash "$ROOT/deploy/install.sh" "$WORK/AuthKey.p8" >"$WORK/install.log") ||
    { cat "$WORK/install.log" >&2; die "deploy/install.sh failed"; }
mode() { stat -c '%a' "$install_root/$1"; }
[ "$(mode etc/livepush)" = 755 ] && [ "$(mode etc/livepush/livepush.json)" = 644 ] && [ "$(mode etc/livepush/livepush.env)" = 600 ] &&
    [ "$(mode etc/livepush/apns-key.p8)" = 600 ] && [ "$(mode usr/local/bin/livepush)" = 755 ] &&
    [ -f "$install_root/etc/systemd/system/livepush.service" ] ||
    { cat "$WORK/install.log" >&2; ls -lR "$install_root" >&2; die "deploy/install.sh did not make /etc/livepush as documented"; }
refused_config=0
"$install_root/usr/local/bin/livepush" serve --config "$install_root/etc/livepush/livepush.json" --key-file "$WORK/AuthKey.p8" \
    2>"$WORK/config.log" || refused_config=$?
[ "$refused_config" -ne 0 ] && grep -q "keyId" "$WORK/config.log" ||
    { cat "$WORK/config.log" >&2; die "the installed livepush.json is not refused until its keyId is set"; }
log "ok: deploy/install.sh makes /etc/livepush (0755), livepush.json (0644), livepush.env and the key (0600), the unit; the json is refused until edited"

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

# 3. nginx with deploy/nginx.conf in front of it.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
    log "installing nginx-light (apt-get)"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    { timeout 300 "${sudo[@]}" apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive timeout 300 "${sudo[@]}" apt-get install -y -qq --no-install-recommends nginx-light; } \
        >"$WORK/apt.log" 2>&1 || { cat "$WORK/apt.log" >&2; die "apt-get install nginx-light failed"; }
fi
NGINX="$(command -v nginx || echo /usr/sbin/nginx)"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=push.example.com \
    -keyout "$WORK/tls.key" -out "$WORK/tls.pem" >/dev/null 2>&1 || die "openssl could not make a test certificate"
http_port="$(free_port)"
https_port="$(free_port)"
mkdir -p "$WORK/nginx"
sed -e "s#/etc/letsencrypt/live/push.example.com/fullchain.pem#$WORK/tls.pem#" \
    -e "s#/etc/letsencrypt/live/push.example.com/privkey.pem#$WORK/tls.key#" \
    -e "s#127.0.0.1:8080;#127.0.0.1:$port;#" \
    -e "s#listen 80;#listen 127.0.0.1:$http_port;#" -e "s#listen 443 ssl http2;#listen 127.0.0.1:$https_port ssl http2;#" \
    -e "/listen \[::\]/d" deploy/nginx.conf >"$WORK/nginx/livepush.conf"
grep -q "$WORK/tls.pem" "$WORK/nginx/livepush.conf" && grep -q "127.0.0.1:$port;" "$WORK/nginx/livepush.conf" ||
    die "deploy/nginx.conf no longer has the lines this check replaces (certificate, upstream)"
cat >"$WORK/nginx/nginx.conf" <<CONF
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 64; }
http {
    access_log off;
    # Request bodies stay in memory: nginx's worker user cannot write into this folder (mktemp's 0700).
    client_body_buffer_size 2m;
    client_body_temp_path $WORK/nginx/body;
    proxy_temp_path $WORK/nginx/proxy;
    include $WORK/nginx/livepush.conf;
}
CONF
"$NGINX" -t -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx-t.log" 2>&1 || { cat "$WORK/nginx-t.log" >&2; die "nginx -t"; }
log "ok: nginx -t accepts deploy/nginx.conf"
"$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" 2>>"$WORK/nginx/error.log" &
PIDS+=("$!")
proxied=""
for _ in $(seq 1 100); do
    proxied="$(curl -sS --max-time 5 --cacert "$WORK/tls.pem" --resolve "push.example.com:$https_port:127.0.0.1" \
        "https://push.example.com:$https_port/health" 2>/dev/null)" && break
    sleep 0.1
done
[[ "$proxied" == *'"status":"ok"'* ]] || { cat "$WORK/nginx/error.log" >&2; die "https /health through nginx answered '$proxied'"; }
metrics_status="$(curl -s -o /dev/null -w '%{http_code}' --cacert "$WORK/tls.pem" \
    --resolve "push.example.com:$https_port:127.0.0.1" "https://push.example.com:$https_port/metrics")"
[ "$metrics_status" = 404 ] || die "https /metrics through nginx answered $metrics_status, expected 404"
redirect="$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -H 'Host: push.example.com' "http://127.0.0.1:$http_port/health")"
[[ "$redirect" == "301 https://push.example.com/health" ]] || die "plain http answered '$redirect', expected a 301 to https"
log "ok: nginx serves /health over TLS from livepush, hides /metrics (404) and redirects http to https"
# Bodies: 100 KB is over the 64 KiB of every route but an audience start's (2 MiB), which reaches the server
# (401 without a key); elsewhere nginx answers 413.
head -c 100000 /dev/zero | tr '\0' ' ' >"$WORK/body-100k"
body_status() {
    curl -s -o /dev/null -w '%{http_code}' --cacert "$WORK/tls.pem" --resolve "push.example.com:$https_port:127.0.0.1" \
        -H 'Content-Type: application/json' --data-binary @"$WORK/body-100k" "https://push.example.com:$https_port$1"
}
starts_status="$(body_status /v1/starts)"
[ "$starts_status" = 401 ] || die "a 100 KB POST /v1/starts through nginx answered $starts_status, expected the server's 401"
activities_status="$(body_status /v1/activities)"
[ "$activities_status" = 413 ] || die "a 100 KB POST /v1/activities through nginx answered $activities_status, expected 413"
log "ok: nginx passes a 100 KB audience start to livepush and refuses 100 KB elsewhere (413)"

kill -TERM "$SERVER"
status=0
wait "$SERVER" || status=$?
[ "$status" -eq 0 ] || { cat "$WORK/serve.log" >&2; die "livepush serve exited with $status after SIGTERM"; }
log "ok: SIGTERM stopped livepush serve with status 0"

# 4. The systemd unit, with ExecStart on this binary (verify checks that the command exists).
if command -v systemd-analyze >/dev/null; then
    sed "s#/usr/local/bin/livepush#$BIN#" deploy/livepush.service >"$WORK/livepush.service"
    verify="$(systemd-analyze verify "$WORK/livepush.service" 2>&1)" || { echo "$verify" >&2; die "systemd-analyze verify"; }
    [ -z "$verify" ] || { echo "$verify" >&2; die "systemd-analyze verify reported the lines above"; }
    log "ok: systemd-analyze verify accepts deploy/livepush.service"
else
    log "skipped: systemd-analyze is not installed (Debian's systemd package has it)"
fi
log "all checks passed"
