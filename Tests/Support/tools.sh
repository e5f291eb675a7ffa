# Shared by the suites that drive `livepush` with tools we did not write (Tests/Compatibility,
# Tests/Fuzz): finds the binary, installs what is missing, stops what the suite started. Sourcing it sets
# ROOT, the repository's folder; the functions call `log` and `die`, which the suite defines.
#
#   livepush_binary [PATH]                         the livepush to test, as an absolute path (default:
#                                                  ROOT/.build/debug/livepush)
#   install_system_packages COMMAND[:PACKAGE]...   apt-get only what is missing (apt-get update only then)
#   install_python_venv VENV REQUIREMENTS STAMP    pip into a virtualenv, reused while the requirements
#                                                  file and the interpreter's version stay the same
#   count_result NAME STATUS WHY                   prints PASS NAME (STATUS 0) or FAIL NAME: WHY and counts
#                                                  it in PASSED or FAILED; fails when the check did
#   stop_process PID [SECONDS]                     SIGTERM, SIGKILL if still running after SECONDS (default
#                                                  10), then waits for it; nothing for an empty PID

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

livepush_binary() {
    local binary="${1:-$ROOT/.build/debug/livepush}"
    case "$binary" in /*) ;; *) binary="$PWD/$binary" ;; esac
    printf '%s\n' "$binary"
}

install_system_packages() {
    local missing=() spec command package
    for spec in "$@"; do
        command="${spec%%:*}"
        package="${spec#*:}"
        command -v "$command" >/dev/null || missing+=("$package")
    done
    if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then missing+=(python3-venv); fi
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null || die "missing ${missing[*]}; needs root or sudo to install them"
        sudo=(sudo -n)
    fi
    log "installing ${missing[*]} (apt-get)"
    local apt_log
    apt_log="$(mktemp)"
    if ! { timeout 300 "${sudo[@]}" apt-get update -qq &&
        DEBIAN_FRONTEND=noninteractive timeout 300 "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
            "${missing[@]}"; } >"$apt_log" 2>&1; then
        cat "$apt_log" >&2
        rm -f "$apt_log"
        die "apt-get install ${missing[*]} failed"
    fi
    rm -f "$apt_log"
}

install_python_venv() {
    local venv="$1" requirements="$2" stamp="$1/.$3-stamp" want have=""
    # The stamp is the hash of the requirements plus the interpreter's version: reinstall when either
    # changes, else reuse the virtualenv as it is.
    want="$(sha256sum "$requirements" | cut -d' ' -f1) $(python3 -c 'import sys; print(sys.version.split()[0])')"
    [ -f "$stamp" ] && have="$(cat "$stamp")"
    if [ -x "$venv/bin/python" ] && [ "$have" = "$want" ]; then return 0; fi
    log "installing $(basename "$requirements") into $venv (pip)"
    rm -rf "$venv"
    timeout 120 python3 -m venv "$venv" || die "python3 -m venv $venv failed"
    if ! timeout 300 "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input \
        -r "$requirements" >"$venv/pip-install.log" 2>&1; then
        cat "$venv/pip-install.log" >&2
        die "pip install -r $requirements failed (into $venv)"
    fi
    echo "$want" >"$stamp"
}

count_result() {
    if [ "$2" = 0 ]; then
        echo "PASS $1"
        PASSED=$((PASSED + 1))
        return 0
    fi
    echo "FAIL $1: $3"
    FAILED=$((FAILED + 1))
    return 1
}

stop_process() {
    local pid="$1" tenths=$((${2:-10} * 10))
    [ -n "$pid" ] || return 0
    if kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null
        for _ in $(seq 1 "$tenths"); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
}
