#!/usr/bin/env bash
# Installs a LivePush release on a Linux host with systemd, as deploy/livepush.service expects it. Run it as
# root from the unpacked release (livepush-VERSION-linux-ARCH/, where it sits beside the binary), or from
# the repository after scripts/release.sh with BINARY=dist/livepush:
#
#   sudo ./install.sh [AuthKey_ABC123DEFG.p8]
#
# What it makes (files that exist already are left alone, so an upgrade keeps the settings; the binary and
# the unit are replaced):
#   /usr/local/bin/livepush               the binary, 0755
#   /etc/livepush/                        root's, 0755
#   /etc/livepush/livepush.json           the settings, 0644 (the service reads it; it holds no secret): a
#                                         start to edit, which the server refuses until keyId and teamId are set
#   /etc/livepush/livepush.env            the secrets, 0600 root (systemd reads it for the service):
#                                         LIVEPUSH_WEBHOOK_SECRET=…, LIVEPUSH_APP_TOKEN_SECRET=…, LIVEPUSH_METRICS_KEY=…
#   /etc/livepush/apns-key.p8             the .p8 key given, 0600 root (the service gets a copy as a credential)
#   /etc/systemd/system/livepush.service  the unit, 0644
# The service's user: there is none to create. The unit runs with DynamicUser=yes: systemd makes a user of
# its own, `livepush`, whenever the service starts, owning only /var/lib/livepush (the SQLite database),
# and removes it when the service stops.
#
# INSTALL_ROOT=DIR installs under DIR instead of / and skips systemctl (Tests/Release/run.sh checks it that way).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${INSTALL_ROOT:-}"
binary="${BINARY:-$here/livepush}"
unit="$here/livepush.service"
settings="$here/livepush.json"
key="${1:-}"
log() { echo "install: $*"; }
die() { echo "install: FAILED: $*" >&2; exit 1; }

[ -x "$binary" ] || die "no livepush binary at $binary (run from the unpacked release, or set BINARY=dist/livepush)"
[ -f "$unit" ] && [ -f "$settings" ] || die "livepush.service and livepush.json must be beside this script ($here)"
[ -n "$root" ] || [ "$(id -u)" -eq 0 ] || die "run it as root (sudo $0), or with INSTALL_ROOT=DIR to install under DIR"
[ -z "$key" ] || [ -f "$key" ] || die "no key file at $key"

install -d -m 0755 "$root/usr/local/bin" "$root/etc/livepush" "$root/etc/systemd/system"
install -m 0755 "$binary" "$root/usr/local/bin/livepush"
install -m 0644 "$unit" "$root/etc/systemd/system/livepush.service"
log "installed /usr/local/bin/livepush ($("$root/usr/local/bin/livepush" --version)) and the unit"

if [ -e "$root/etc/livepush/livepush.json" ]; then
    log "kept /etc/livepush/livepush.json"
else
    install -m 0644 "$settings" "$root/etc/livepush/livepush.json"
    log "made /etc/livepush/livepush.json: set keyId, teamId and environment in it"
fi
if [ -e "$root/etc/livepush/livepush.env" ]; then
    log "kept /etc/livepush/livepush.env"
else
    (umask 077 && printf '# Secrets of livepush serve, one VARIABLE=value a line (mode 0600).\n' >"$root/etc/livepush/livepush.env")
    log "made /etc/livepush/livepush.env (0600): put LIVEPUSH_WEBHOOK_SECRET and the other secrets in it"
fi
if [ -n "$key" ]; then
    install -m 0600 "$key" "$root/etc/livepush/apns-key.p8"
    log "installed the key as /etc/livepush/apns-key.p8 (0600)"
elif [ ! -e "$root/etc/livepush/apns-key.p8" ]; then
    log "no key yet: install -m 0600 AuthKey_….p8 /etc/livepush/apns-key.p8"
fi

if [ -z "$root" ] && command -v systemctl >/dev/null; then
    systemctl daemon-reload
    log "next: edit /etc/livepush/livepush.json, then: systemctl enable --now livepush && journalctl -u livepush -f"
fi
