#!/usr/bin/env bash
# Lints the OpenAPI document the server serves, built from the real route table (no port), with
# Redocly's `recommended` ruleset as it ships: any error or warning fails.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp
node --import tsx scripts/openapi-dump.ts > .tmp/openapi.json
# Redocly asks nothing of the network with these set, and prints no banner.
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true
npx --no-install redocly lint .tmp/openapi.json --extends=recommended --format=json \
  --max-problems=10000 > .tmp/openapi-lint.json 2> .tmp/openapi-lint.log || true
node -e '
const fs = require("node:fs");
let report;
try {
  report = JSON.parse(fs.readFileSync(".tmp/openapi-lint.json", "utf8"));
} catch {
  process.stderr.write(fs.readFileSync(".tmp/openapi-lint.log", "utf8"));
  console.error("openapi-lint: Redocly printed no report");
  process.exit(1);
}
const doc = JSON.parse(fs.readFileSync(".tmp/openapi.json", "utf8"));
const operations = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
for (const p of report.problems) {
  console.log(`${p.severity} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ""})`);
}
const { errors, warnings } = report.totals;
console.log(`OpenAPI (${operations} operations), Redocly recommended: ${errors} errors, ${warnings} warnings`);
process.exit(errors + warnings > 0 ? 1 : 0);
'
