#!/usr/bin/env bash
# Runs the README's test command, `swift test` as written (no parallelism setting), while busy loops keep
# every core of the machine busy: what a contributor's or CI's machine looks like when other work runs
# beside the tests. A test that races the machine's clock instead of waiting for its event fails here.
#
# usage: scripts/test-under-load.sh [RUNS]        RUNS: how many runs in a row (default 1); all must pass
#
# Settings (environment):
#   LOAD_LOOPS      busy loops beside the tests; default: one per core (nproc)
#   LOAD_SECONDS    each loop stops by itself after this long, whatever happens to this script; default 3600
#
# It builds first (`swift build --build-tests`, without the load), then starts the loops, runs
# `swift test` RUNS times, prints each run's summary line and stops the loops. Exit status: 0 when every
# run passed, else the first failing run's.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=${1:-1}
loops=${LOAD_LOOPS:-$(nproc)}
seconds=${LOAD_SECONDS:-3600}
log_dir=.build/test-under-load
mkdir -p "$log_dir"

swift build --build-tests

pids=()
stop_loops() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_loops EXIT
for _ in $(seq "$loops"); do
    timeout "$seconds" sh -c 'while :; do :; done' &
    pids+=("$!")
done
echo "== $loops busy loops beside the tests (each stops after ${seconds} s at the latest); load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"

status=0
for run in $(seq "$runs"); do
    log="$log_dir/run-$run.log"
    started=$(date +%s)
    set +e
    swift test >"$log" 2>&1
    code=$?
    set -e
    summary=$(grep -E "Test run with [0-9]+ tests?" "$log" | tail -1)
    echo "== run $run/$runs: exit $code after $(($(date +%s) - started)) s: ${summary:-no summary line (see $log)}"
    if [ "$code" -ne 0 ]; then
        grep -E "✘|recorded an issue|error:" "$log" | head -40 || true
        [ "$status" -ne 0 ] || status=$code
    fi
done
exit "$status"
