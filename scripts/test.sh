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

if ! command -v java >/dev/null; then
  # The Nu HTML Checker (npm vnu-jar) of scripts/page-audit.ts runs on Debian's Java.
  echo "== installing Debian's Java"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq default-jre-headless >/dev/null
fi

echo "== docs/spec.md and docs/design.md match ../shared"
bash scripts/docs-copies.sh

echo "== typecheck"
npm run typecheck
echo "== lint"
npm run lint
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

echo "== the built pages from outside: Nu HTML Checker, Lighthouse smoke"
node --import tsx scripts/page-audit.ts

echo "== e2e (Chromium)"
npx playwright test -c e2e/playwright.config.ts

echo "== benchmark smoke runs (figures printed, not judged; lost messages fail)"
bash scripts/bench-smoke.sh
