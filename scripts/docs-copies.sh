#!/usr/bin/env bash
# docs/spec.md and docs/design.md are copies of the product spec and the design kept beside the
# repository (../shared), so a clone without ../shared still reads them. The test command runs
# this check: it fails when a copy differs from ../shared. `--write` refreshes the copies.
# Without ../shared (a clone on its own) there is nothing to compare against, so it passes.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHARED="${SHARED_DIR:-$ROOT/../shared}"
status=0
for pair in "SPEC.md:spec.md" "DESIGN.md:design.md"; do
  src="$SHARED/${pair%%:*}"
  dst="$ROOT/docs/${pair##*:}"
  [ -f "$src" ] || continue
  if [ "${1:-}" = "--write" ]; then
    cp "$src" "$dst"
  elif ! cmp -s "$src" "$dst"; then
    echo "docs/${pair##*:} differs from $src: run bash scripts/docs-copies.sh --write" >&2
    status=1
  fi
done
exit $status
