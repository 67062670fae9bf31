#!/usr/bin/env bash
# Starts or stops a throwaway PostgreSQL cluster on a free loopback port, for the tests.
#   scripts/pg.sh start  -> prints DATABASE_URL on stdout; state in .tmp/pg
#   scripts/pg.sh stop
# The cluster itself is made by scripts/lib/postgres.ts, as for the scripts and benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
exec node --import tsx scripts/pg.ts "$@"
