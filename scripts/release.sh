#!/usr/bin/env bash
# Builds the release artifact: `livepush` with the Swift runtime and Foundation linked statically
# (--static-swift-stdlib), so a Linux host runs it without a Swift toolchain; what it still loads are
# the system's libraries (glibc, libstdc++, zlib, libcurl for Foundation's networking, libsqlite3), listed in
# livepush.libraries.txt beside it. Linking needs libcurl's development files: installed with apt-get
# when missing. The fully static route (`--swift-sdk` with Swift's static Linux
# SDK, musl) needs that SDK installed, which this toolchain does not have.
#
# `livepush --version` prints the version (`git describe --tags --always --dirty`) and the commit, which
# this script writes into Sources/LivePushCLI/ReleaseBuildInfo.generated.swift (git ignores it; removed
# afterwards) and compiles in with -DLIVEPUSH_RELEASE_BUILD. The binary is stripped (objcopy --strip-all);
# its debug information and symbols go to livepush.debug beside it (objcopy --only-keep-debug), which the
# binary names in its .gnu_debuglink section: gdb finds it when it sits beside the binary.
#
# Usage: scripts/release.sh [OUT_DIR]   (default: dist/, which git ignores)
# Output: OUT_DIR/livepush (stripped), OUT_DIR/livepush.debug, OUT_DIR/livepush.libraries.txt and
#         OUT_DIR/livepush-VERSION-linux-ARCH.tar.gz (the binary and its debug file, the systemd unit, the
#         nginx settings, deploy/install.sh with a livepush.json to start from, LICENSE) with its .sha256.
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
build=(swift build -c "$configuration" --product livepush --static-swift-stdlib --scratch-path "$scratch"
    -Xswiftc -DLIVEPUSH_RELEASE_BUILD)
command -v objcopy >/dev/null || die "objcopy is missing (Debian: binutils)"

# The version and the commit `livepush --version` prints, from git (a tree without git says unknown).
version="$(git describe --tags --always --dirty 2>/dev/null || echo unknown)"
commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
git diff --quiet HEAD -- 2>/dev/null || commit="$commit, with uncommitted changes"
build_info=Sources/LivePushCLI/ReleaseBuildInfo.generated.swift
staging=""
cleanup() {
    rm -f "$build_info"
    [ -z "$staging" ] || rm -rf "$staging"
}
trap cleanup EXIT
cat >"$build_info" <<SWIFT
// Written by scripts/release.sh for the build it makes, and removed afterwards (git ignores it).
#if LIVEPUSH_RELEASE_BUILD
    enum ReleaseBuildInfo {
        static let version = "$version"
        static let commit = "$commit"
    }
#endif
SWIFT

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
# The debug information and the symbol table apart, in livepush.debug; the binary names it (with its
# checksum) in .gnu_debuglink, so gdb finds it beside the binary. On the debug binary (a dynamic runtime)
# this took 194 MB to 104 MB plus a 133 MB debug file.
rm -f "$out/livepush.debug"
objcopy --only-keep-debug "$out/livepush" "$out/livepush.debug"
chmod 0644 "$out/livepush.debug"
(cd "$out" && objcopy --strip-all --add-gnu-debuglink=livepush.debug livepush)
"$out/livepush" --version | grep -qF "$commit" || die "livepush --version does not name the commit $commit"
ldd "$out/livepush" | sed 's/ (0x[0-9a-f]*)//' >"$out/livepush.libraries.txt"
# Nothing may come from the toolchain's folder (/opt/swift/usr/lib/swift/linux here).
toolchain="$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")"
if grep -F "$toolchain/" "$out/livepush.libraries.txt"; then
    die "the binary loads the libraries above from the toolchain ($toolchain)"
fi

name="livepush-$version-linux-$(uname -m)"
staging="$(mktemp -d)"
mkdir -p "$staging/$name"
cp "$out/livepush" "$out/livepush.debug" "$out/livepush.libraries.txt" deploy/livepush.service deploy/nginx.conf \
    deploy/livepush.json deploy/install.sh LICENSE "$staging/$name/"
tar -C "$staging" -czf "$out/$name.tar.gz" "$name"
(cd "$out" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
log "$("$out/livepush" --version)"
log "$out/$name.tar.gz ($(du -h "$out/livepush" | cut -f1) binary, $(du -h "$out/livepush.debug" | cut -f1) debug file; it loads: $(awk '{print $1}' "$out/livepush.libraries.txt" | tr '\n' ' '))"
