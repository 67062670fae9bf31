#!/usr/bin/env bash
# Debian's packages the test stages need, installed when missing: chromium (the page audit,
# e2e), nginx-light (the two-node test and benchmark run it as the reverse proxy,
# docs/deploy.md) and Java (the Nu HTML Checker, npm vnu-jar, of scripts/page-audit.ts).
#
#   bash scripts/debian-packages.sh start   # one apt-get for all that are missing, in the background
#   bash scripts/debian-packages.sh wait    # until it has ended; fails, with its log, if it failed
#
# On a fresh machine the download and unpacking then overlap other work: `.ci/run` starts it
# before `npm ci`, `npm test` (scripts/test.sh) starts it too (a no-op while one runs) and waits
# before its first stage that needs a package. State is kept in .tmp/debian-packages.
set -euo pipefail
cd "$(dirname "$0")/.."
STATE=.tmp/debian-packages

missing() {
  [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || echo chromium fonts-dejavu-core
  [ -x /usr/sbin/nginx ] || command -v nginx >/dev/null || echo nginx-light
  command -v java >/dev/null || echo default-jre-headless
}

running() {
  [ -f "$STATE/pid" ] && kill -0 "$(cat "$STATE/pid")" 2>/dev/null
}

case "${1:-}" in
  start)
    running && exit 0
    mkdir -p "$STATE"
    rm -f "$STATE/pid" "$STATE/status"
    read -r -a packages <<<"$(missing | tr '\n' ' ')"
    [ "${#packages[@]}" -gt 0 ] || exit 0
    echo "== installing Debian's ${packages[*]} (in the background)"
    SUDO=""
    [ "$(id -u)" = 0 ] || SUDO="sudo"
    (
      status=0
      {
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${packages[@]}"
      } >"$STATE/log" 2>&1 || status=$?
      echo "$status" >"$STATE/status"
    ) </dev/null >/dev/null 2>&1 &
    echo "$!" >"$STATE/pid"
    ;;
  wait)
    [ -f "$STATE/pid" ] || exit 0
    while running; do sleep 1; done
    status="$(cat "$STATE/status" 2>/dev/null || echo 'no status: it was stopped')"
    rm -f "$STATE/pid"
    if [ "$status" != 0 ]; then
      cat "$STATE/log"
      echo "== FAILED: installing Debian's packages (exit status $status)"
      exit 1
    fi
    echo "== Debian's packages installed"
    ;;
  *)
    echo "usage: bash scripts/debian-packages.sh start|wait" >&2
    exit 2
    ;;
esac
