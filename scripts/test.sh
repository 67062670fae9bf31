#!/usr/bin/env bash
# `npm test`: everything CI runs, in order: typecheck, lint, unit, integration (PGlite and a
# throwaway PostgreSQL), e2e in Debian's Chromium, and the benchmark smoke runs.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -d node_modules ] || npm ci --no-audit --no-fund

if [ ! -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  echo "== installing Debian's chromium"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

if ! [ -x /usr/sbin/nginx ] && ! command -v nginx >/dev/null; then
  # The two-node test and benchmark run Debian's nginx as the reverse proxy (docs/deploy.md).
  echo "== installing Debian's nginx"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq nginx-light >/dev/null
fi

echo "== docs/spec.md and docs/design.md match ../shared"
bash scripts/docs-copies.sh

# Typecheck and lint each keep one core busy: run side by side, each one's output shown whole.
echo "== typecheck and lint, side by side"
mkdir -p .tmp
npm run --silent typecheck >.tmp/typecheck.log 2>&1 &
typecheck=$!
lint=0
npm run --silent lint >.tmp/lint.log 2>&1 || lint=$?
typecheck_status=0
wait "$typecheck" || typecheck_status=$?
echo "-- typecheck (exit $typecheck_status)"; cat .tmp/typecheck.log
echo "-- lint (exit $lint)"; cat .tmp/lint.log
if [ "$typecheck_status" != 0 ] || [ "$lint" != 0 ]; then exit 1; fi
echo "== OpenAPI document (Redocly's recommended rules: no error, no warning)"
bash scripts/openapi-lint.sh

echo "== unit"
npx vitest run --project unit

echo "== integration (PGlite and PostgreSQL)"
TEST_DATABASE_URL="$(bash scripts/pg.sh start)"
trap 'bash scripts/pg.sh stop' EXIT
TEST_DATABASE_URL="$TEST_DATABASE_URL" REQUIRE_POSTGRES=1 npx vitest run --project integration

echo "== durability under SIGKILL (PGlite and PostgreSQL)"
TEST_DATABASE_URL="$TEST_DATABASE_URL" bash scripts/reliability-smoke.sh

echo "== build"
npm run build

echo "== e2e (Chromium)"
npx playwright test -c e2e/playwright.config.ts

echo "== benchmark smoke runs (figures printed, not judged; lost messages fail)"
bash scripts/bench-smoke.sh
