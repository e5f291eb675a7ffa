#!/usr/bin/env bash
# Builds the release artifact: `livepush` with the Swift runtime and Foundation linked statically
# (--static-swift-stdlib), so a Linux host runs it without a Swift toolchain; what it still loads are
# the system's libraries (glibc, libstdc++, zlib, libcurl for Foundation's networking), listed in
# livepush.libraries.txt beside it. Linking needs libcurl's development files: installed with apt-get
# when missing. The fully static route (`--swift-sdk` with Swift's static Linux
# SDK, musl) needs that SDK installed, which this toolchain does not have.
#
# Usage: scripts/release.sh [OUT_DIR]   (default: dist/, which git ignores)
# Output: OUT_DIR/livepush, OUT_DIR/livepush.libraries.txt and
#         OUT_DIR/livepush-VERSION-linux-ARCH.tar.gz (the binary, the systemd unit, the nginx settings,
#         LICENSE) with its .sha256.
# Environment: RELEASE_CONFIGURATION (release; debug makes the same static-stdlib binary unoptimized,
#   which is what CI's start check builds, see .ci/run), RELEASE_SCRATCH (the build folder:
#   .build-release, or .build-release-debug for debug; separate from .build, whose flags differ).
set -euo pipefail
cd "$(dirname "$0")/.."
log() { echo "release: $*"; }
die() { echo "release: FAILED: $*" >&2; exit 1; }

configuration="${RELEASE_CONFIGURATION:-release}"
case "$configuration" in
release) scratch="${RELEASE_SCRATCH:-.build-release}" ;;
debug) scratch="${RELEASE_SCRATCH:-.build-release-debug}" ;;
*) die "RELEASE_CONFIGURATION is '$configuration'; expected release or debug" ;;
esac
out="${1:-dist}"
build=(swift build -c "$configuration" --product livepush --static-swift-stdlib --scratch-path "$scratch")

# Foundation's networking, linked statically, links the system's libcurl: it needs libcurl.so to link.
if ! ldconfig -p | grep -q 'libcurl\.so '; then
    command -v apt-get >/dev/null || die "libcurl's development files are missing (Debian: libcurl4-openssl-dev)"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo -n)
    log "installing libcurl4-openssl-dev (apt-get)"
    { timeout 300 "${sudo[@]}" apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive timeout 300 "${sudo[@]}" apt-get install -y -qq --no-install-recommends libcurl4-openssl-dev; } \
        >/dev/null || die "apt-get install libcurl4-openssl-dev failed"
fi

log "building ($configuration, static Swift runtime) in $scratch"
start=$(date +%s)
"${build[@]}"
log "built in $(($(date +%s) - start)) s"
binary="$("${build[@]}" --show-bin-path)/livepush"
[ -x "$binary" ] || die "no binary at $binary"

mkdir -p "$out"
cp "$binary" "$out/livepush"
ldd "$out/livepush" | sed 's/ (0x[0-9a-f]*)//' >"$out/livepush.libraries.txt"
# Nothing may come from the toolchain's folder (/opt/swift/usr/lib/swift/linux here).
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")"
if grep -F "$toolchain/" "$out/livepush.libraries.txt"; then
    die "the binary loads the libraries above from the toolchain ($toolchain)"
fi

version="$(git describe --tags --always --dirty 2>/dev/null || echo unknown)"
name="livepush-$version-linux-$(uname -m)"
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/$name"
cp "$out/livepush" "$out/livepush.libraries.txt" deploy/livepush.service deploy/nginx.conf LICENSE "$staging/$name/"
tar -C "$staging" -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
log "$out/$name.tar.gz ($(du -h "$out/livepush" | cut -f1) binary; it loads: $(awk '{print $1}' "$out/livepush.libraries.txt" | tr '\n' ' '))"
