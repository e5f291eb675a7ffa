#!/usr/bin/env bash
# Installs Chromium from Debian's packages, for the dashboard's headless-browser test
# (Tests/APNsSimulatorTests/Dashboard). Does nothing when a Chromium or Chrome binary is already on PATH.
# Needs root (or sudo) and apt-get; prints what it found or installed.
set -euo pipefail

for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then
    echo "install-chromium: found $(command -v "$candidate") ($("$candidate" --version 2>/dev/null || echo 'version unknown'))"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-chromium: apt-get is not available; install Chromium with your system's package manager" >&2
  exit 1
fi

run_as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    echo "install-chromium: needs root (or sudo) to run: $*" >&2
    exit 1
  fi
}

export DEBIAN_FRONTEND=noninteractive
run_as_root apt-get update -q
run_as_root apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core fonts-noto-color-emoji
echo "install-chromium: installed $(command -v chromium) ($(chromium --version 2>/dev/null || echo 'version unknown'))"
