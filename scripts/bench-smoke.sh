#!/usr/bin/env bash
# The benchmarks at smoke size (N = 200 viewers; a few page loads and writes; a small Saturday),
# run by the test command so they never rot. Fails when a benchmark fails or loses a message; it
# does not judge speed (timings on a shared test machine are not stable enough to gate on).
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
echo "== bench:fanout --smoke"
npm run --silent bench:fanout -- --smoke
echo "== bench:saturday --smoke"
npm run --silent bench:saturday -- --smoke
echo "== bench:web --smoke"
# The test command has just built the web app: measure that build rather than make another
# (two Vite builds). Run alone, the benchmark builds its own.
npm run --silent bench:web -- --smoke ${BENCH_WEB_DIST:+--dist "$BENCH_WEB_DIST"}
echo "== benchmark smoke runs passed in $((SECONDS - start)) s"
