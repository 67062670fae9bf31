#!/usr/bin/env bash
# `npm test`: everything CI runs, in order: typecheck, lint, unit, integration (PGlite and a
# throwaway PostgreSQL), the build, the page audit beside the benchmark smoke runs, and e2e in
# Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each stage's seconds, printed as it ends and again as a table at the end (also on failure),
# so a slow run says where its time went.
STAGE="" STAGE_START=$SECONDS SUITE_START=$SECONDS
STAGE_TIMES=()
PG_STARTED=""
end_stage() {
  [ -n "$STAGE" ] || return 0
  local took=$((SECONDS - STAGE_START))
  STAGE_TIMES+=("$(printf '%6d s  %s' "$took" "$STAGE")")
  echo "== $STAGE: $took s"
  STAGE=""
}
stage() {
  end_stage
  STAGE="$1" STAGE_START=$SECONDS
  echo "== $1"
}
on_exit() {
  local status=$?
  end_stage
  # An apt-get cut off mid-install would leave dpkg half done: a stage that failed first waits.
  bash scripts/debian-packages.sh wait >/dev/null 2>&1 || true
  [ -z "$PG_STARTED" ] || bash scripts/pg.sh stop
  echo "== seconds per stage"
  printf '%s\n' "${STAGE_TIMES[@]}"
  printf '%6d s  in all\n' "$((SECONDS - SUITE_START))"
  return "$status"
}
trap on_exit EXIT

stage "install: npm ci, Debian packages (when missing)"
[ -d node_modules ] || npm ci --no-audit --no-fund

# Debian's packages the later stages need, when missing, install in the background while
# typecheck and lint run (.ci/run may have started them already); the integration stage, the
# first to need any of them, waits for them.
bash scripts/debian-packages.sh start

stage "docs/spec.md and docs/design.md match ../shared"
bash scripts/docs-copies.sh

# Typecheck (tsc), lint (eslint, prettier, knip) and the OpenAPI lint each keep one core busy
# and read nothing another writes: side by side on the two cores, each one's output printed
# whole once all have ended, and any one's failure named and failing the suite.
side_by_side() {
  local dir names=() pids=() failed=() i status
  dir="$(mktemp -d)"
  while [ "$#" -gt 0 ]; do
    names+=("$1")
    (
      start=$SECONDS
      status=0
      bash -c "$2" || status=$?
      echo "$((SECONDS - start))" >"$dir/${#names[@]}.seconds"
      exit "$status"
    ) >"$dir/${#names[@]}.log" 2>&1 &
    pids+=("$!")
    shift 2
  done
  for i in "${!names[@]}"; do
    status=0
    wait "${pids[$i]}" || status=$?
    echo "== ${names[$i]}: $(cat "$dir/$((i + 1)).seconds") s, exit status $status"
    cat "$dir/$((i + 1)).log"
    [ "$status" = 0 ] || failed+=("${names[$i]} (exit status $status)")
  done
  rm -rf "$dir"
  if [ "${#failed[@]}" -gt 0 ]; then
    echo "== FAILED: ${failed[*]}"
    return 1
  fi
}

stage "typecheck, lint and the OpenAPI document, side by side"
side_by_side "typecheck" "npm run typecheck" "lint" "npm run lint" \
  "OpenAPI document (Redocly's recommended rules: no error, no warning)" \
  "bash scripts/openapi-lint.sh"

stage "unit"
npx vitest run --project unit

stage "integration (PGlite and PostgreSQL)"
bash scripts/debian-packages.sh wait
TEST_DATABASE_URL="$(bash scripts/pg.sh start)"
PG_STARTED=1
TEST_DATABASE_URL="$TEST_DATABASE_URL" REQUIRE_POSTGRES=1 npx vitest run --project integration

stage "durability under SIGKILL (PGlite and PostgreSQL)"
TEST_DATABASE_URL="$TEST_DATABASE_URL" bash scripts/reliability-smoke.sh

stage "build"
npm run build

# All three mostly wait (Lighthouse's quiet windows and trace processing; the benchmarks' fixed
# pauses, server starts and paced writes): one after the other on an idle 2-core machine, the
# page audit and the benchmark smoke each kept about 0.7 of a core busy. Side by side, no
# verdict moves: the page audit judges performance at a CPU slowdown calibrated to the host's
# speed during each load, and its other gates (bytes, layout shift, the HTML checker, the other
# categories) do not depend on speed; the benchmark smoke judges lost messages and bytes, never
# speed. The web benchmark runs in a lane of its own: after the other two it made its lane the
# stage's longest.
stage "the built pages from outside (Nu HTML Checker, Lighthouse smoke) and the benchmark smoke runs, side by side"
side_by_side "page audit" "node --import tsx scripts/page-audit.ts" \
  "benchmark smoke runs: fanout, Saturday (figures printed, not judged; lost messages fail)" \
  "bash scripts/bench-smoke.sh fanout saturday" \
  "benchmark smoke run: web (figures printed; bytes and changed pixels judged)" \
  "BENCH_WEB_DIST=apps/web/dist bash scripts/bench-smoke.sh web"

stage "e2e (Chromium)"
npx playwright test -c e2e/playwright.config.ts
