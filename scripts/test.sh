#!/usr/bin/env bash
# The project's test command (npm test): lint, typecheck, then every test suite.
# Suites that need Redis or a real S3 server start their own instances on free loopback
# ports and stop them by PID; the system packages come from scripts/install-system-deps.sh.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== system packages"
bash scripts/install-system-deps.sh

echo "== lint"
npx eslint .
echo "== typecheck"
npx tsc -p tsconfig.json --noEmit
echo "== tests"
mkdir -p .tmp
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report.json "$@" || status=$?
# Print the closing line CI reads: "N passed, N failed, N skipped".
node -e '
  const r = JSON.parse(require("fs").readFileSync(".tmp/vitest-report.json", "utf8"));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`);
' || true
exit "$status"
