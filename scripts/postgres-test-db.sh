#!/usr/bin/env bash
# Makes a PostgreSQL database for the PushStore tests and prints the line that enables them:
#
#   eval "$(scripts/postgres-test-db.sh)"      # sets LIVEPUSH_TEST_POSTGRES_URL in this shell
#   swift test --filter PushStoreTests
#
# Installs PostgreSQL from Debian's packages when it is missing (apt-get), starts a cluster owned by the
# `postgres` user listening on 127.0.0.1:5432 (pg_ctlcluster, or initdb + pg_ctl under a temporary
# directory when the Debian cluster tooling cannot be used), and creates the user and database
# livepush/livepush. Safe to run again: whatever already exists is reused.
# Progress goes to stderr; stdout carries only the export line.
set -euo pipefail

HOST=127.0.0.1
PORT=5432
DB_USER=livepush
DB_PASSWORD=livepush
DB_NAME=livepush
URL="postgres://${DB_USER}:${DB_PASSWORD}@${HOST}:${PORT}/${DB_NAME}"

log() { echo "postgres-test-db: $*" >&2; }
fail() { log "error: $*"; exit 1; }

if [ "$(id -u)" -eq 0 ]; then
  AS_ROOT=()
  as_postgres() { runuser -u postgres -- "$@"; }
else
  command -v sudo >/dev/null 2>&1 || fail "run as root or install sudo: installing and starting PostgreSQL needs root"
  AS_ROOT=(sudo)
  as_postgres() { sudo -u postgres -- "$@"; }
fi

pg_bin_dir() {
  local version
  version=$(ls /usr/lib/postgresql 2>/dev/null | sort -V | tail -1)
  [ -n "$version" ] && [ -x "/usr/lib/postgresql/$version/bin/postgres" ] || return 1
  echo "/usr/lib/postgresql/$version/bin"
}

# 1. Install.
if ! pg_bin_dir >/dev/null || ! command -v psql >/dev/null 2>&1; then
  log "installing PostgreSQL from Debian's packages"
  "${AS_ROOT[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  "${AS_ROOT[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql >&2
fi
BIN=$(pg_bin_dir) || fail "PostgreSQL binaries not found under /usr/lib/postgresql after installing"
VERSION=$(basename "$(dirname "$BIN")")
id postgres >/dev/null 2>&1 || fail "the postgres system user is missing (the postgresql package creates it)"

ready() { "$BIN/pg_isready" -q -h "$HOST" -p "$PORT" >/dev/null 2>&1; }

# 2. Start a server on 127.0.0.1:5432 unless one already answers there.
SOCKET_DIR=""
if ready; then
  log "a server already answers on $HOST:$PORT; reusing it"
else
  started=no
  if command -v pg_ctlcluster >/dev/null 2>&1; then
    if ! pg_lsclusters -h 2>/dev/null | awk '{print $1" "$2}' | grep -qx "$VERSION main"; then
      log "creating cluster $VERSION/main"
      "${AS_ROOT[@]}" pg_createcluster "$VERSION" main --port "$PORT" >&2 || true
    fi
    log "starting cluster $VERSION/main with pg_ctlcluster"
    if "${AS_ROOT[@]}" pg_ctlcluster "$VERSION" main start >&2; then
      for _ in $(seq 1 30); do ready && break; sleep 1; done
      ready && started=yes
    fi
  fi
  if [ "$started" = no ]; then
    DATA_ROOT=$(mktemp -d /tmp/livepush-postgres.XXXXXX)
    chown postgres "$DATA_ROOT" 2>/dev/null || "${AS_ROOT[@]}" chown postgres "$DATA_ROOT"
    log "pg_ctlcluster unusable; running initdb + pg_ctl under $DATA_ROOT"
    as_postgres "$BIN/initdb" -D "$DATA_ROOT/data" --auth-local=trust --auth-host=scram-sha-256 -U postgres >&2
    as_postgres "$BIN/pg_ctl" -D "$DATA_ROOT/data" -l "$DATA_ROOT/server.log" -w \
      -o "-h $HOST -p $PORT -k $DATA_ROOT" start >&2
    SOCKET_DIR=$DATA_ROOT
    ready || fail "the server did not start; see $DATA_ROOT/server.log"
  fi
fi

# 3. User and database (over the local socket, as the postgres superuser).
psql_admin() {
  if [ -n "$SOCKET_DIR" ]; then
    as_postgres psql -X -q -v ON_ERROR_STOP=1 -h "$SOCKET_DIR" -p "$PORT" -d postgres "$@"
  else
    as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" -d postgres "$@"
  fi
}
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
  log "creating user $DB_USER"
  psql_admin -c "CREATE ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD'" >&2
else
  psql_admin -c "ALTER ROLE $DB_USER LOGIN PASSWORD '$DB_PASSWORD'" >&2
fi
if [ "$(psql_admin -tAc "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
  log "creating database $DB_NAME"
  psql_admin -c "CREATE DATABASE $DB_NAME OWNER $DB_USER" >&2
fi

# 3b. Room for the tests: each PostgreSQL test opens its own pool on its own schema and Swift Testing runs
#     them in parallel, well over the default 100 connections (refused connections then time out).
WANT_CONNECTIONS=500
have=$(psql_admin -tAc "SHOW max_connections")
if [ "$have" -lt "$WANT_CONNECTIONS" ]; then
  psql_admin -c "ALTER SYSTEM SET max_connections = $WANT_CONNECTIONS" >&2
  restarted=no
  if [ -n "$SOCKET_DIR" ]; then
    log "raising max_connections from $have to $WANT_CONNECTIONS (pg_ctl restart)"
    as_postgres "$BIN/pg_ctl" -D "$SOCKET_DIR/data" -l "$SOCKET_DIR/server.log" -w \
      -o "-h $HOST -p $PORT -k $SOCKET_DIR" restart >&2 && restarted=yes
  elif command -v pg_ctlcluster >/dev/null 2>&1 &&
    [ "$(pg_lsclusters -h 2>/dev/null | awk -v v="$VERSION" '$1 == v && $2 == "main" {print $4}')" = online ]; then
    log "raising max_connections from $have to $WANT_CONNECTIONS (pg_ctlcluster restart)"
    "${AS_ROOT[@]}" pg_ctlcluster "$VERSION" main restart >&2 && restarted=yes
  fi
  if [ "$restarted" = yes ]; then
    for _ in $(seq 1 30); do ready && break; sleep 1; done
    ready || fail "the server did not come back after the restart for max_connections"
  else
    log "warning: max_connections is $have and this server cannot be restarted from here; parallel tests may run out of connections"
  fi
fi

# 4. Check that the URL works over TCP with the password, then print it.
PGPASSWORD=$DB_PASSWORD psql -X -q -h "$HOST" -p "$PORT" -U "$DB_USER" -d "$DB_NAME" -tAc "SELECT 1" >/dev/null \
  || fail "cannot log in as $DB_USER on $HOST:$PORT with the password"
log "ready: $URL"
echo "export LIVEPUSH_TEST_POSTGRES_URL=$URL"
