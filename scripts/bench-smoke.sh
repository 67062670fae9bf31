#!/usr/bin/env bash
# The benchmarks at smoke size (N = 200 viewers; a few page loads and writes; a small Saturday),
# run by the test command so they never rot. Fails when a benchmark fails or loses a message; it
# does not judge speed (timings on a shared test machine are not stable enough to gate on).
#
#   bash scripts/bench-smoke.sh                  # all three, one after the other
#   bash scripts/bench-smoke.sh fanout saturday  # those named (the test command runs web beside)
set -euo pipefail
cd "$(dirname "$0")/.."

benches=("$@")
[ "${#benches[@]}" -gt 0 ] || benches=(fanout saturday web)
start=$SECONDS
for bench in "${benches[@]}"; do
  case "$bench" in
    fanout | saturday)
      echo "== bench:$bench --smoke"
      npm run --silent "bench:$bench" -- --smoke
      ;;
    web)
      echo "== bench:web --smoke"
      # The test command has just built the web app: measure that build rather than make another
      # (two Vite builds). Run alone, the benchmark builds its own.
      npm run --silent bench:web -- --smoke ${BENCH_WEB_DIST:+--dist "$BENCH_WEB_DIST"}
      ;;
    *)
      echo "bench-smoke.sh: no benchmark named $bench (fanout, saturday, web)" >&2
      exit 2
      ;;
  esac
done
echo "== benchmark smoke runs (${benches[*]}) passed in $((SECONDS - start)) s"
