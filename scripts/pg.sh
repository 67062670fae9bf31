#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL cluster on a free loopback port, for the tests.
#   scripts/pg.sh start  -> prints DATABASE_URL on stdout; state in .tmp/pg
#   scripts/pg.sh stop
# PostgreSQL refuses to run as root, so as root it runs as the postgres user.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
STATE="$ROOT/.tmp/pg"
PGBIN="${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "${1:-}" in
  start)
    if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ]; then
      echo "PostgreSQL binaries not found (looked in /usr/lib/postgresql/*/bin)" >&2
      exit 1
    fi
    "$0" stop >/dev/null 2>&1 || true
    mkdir -p "$ROOT/.tmp"
    DIR="$(mktemp -d /tmp/sagan-pg-XXXXXX)"
    chmod 755 "$DIR"
    [ "$(id -u)" = 0 ] && chown postgres "$DIR"
    PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")"
    as_pg "$PGBIN/initdb" -D "$DIR/data" -U postgres -A trust --no-sync -E UTF8 >"$DIR/initdb.log" 2>&1
    as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w -t 30 \
      -o "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null
    mkdir -p "$STATE"
    echo "$DIR" >"$STATE/dir"
    echo "postgres://postgres@127.0.0.1:$PORT/postgres" >"$STATE/url"
    cat "$STATE/url"
    ;;
  stop)
    if [ -f "$STATE/dir" ]; then
      DIR="$(cat "$STATE/dir")"
      as_pg "$PGBIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
      rm -rf "$DIR" "$STATE"
    fi
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
