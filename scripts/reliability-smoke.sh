#!/usr/bin/env bash
# Durability in the test command: a short run (150 acknowledged writes while the
# server is SIGKILLed and restarted) on PGlite and on PostgreSQL. With TEST_DATABASE_URL set
# (the test script's cluster) the PostgreSQL run uses a fresh database in it; otherwise the
# script starts a private cluster. The full 1,000-write run: node --import tsx scripts/durability.ts
set -euo pipefail
cd "$(dirname "$0")/.."
node --import tsx scripts/durability.ts --writes "${DURABILITY_WRITES:-150}" --db both
