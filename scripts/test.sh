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
# The end-to-end suites run the jacobian command, which runs the compiled dist/: compiled from
# the sources as they are now (npm ci compiled them too, but they may have changed since).
echo "== build"
node scripts/build.mjs
echo "== tests"
mkdir -p .tmp
rm -f .tmp/vitest-report-*.json
status=0
if [ "$#" -gt 0 ]; then
  npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report-1.json "$@" || status=$?
else
  # The cluster suite runs alone, after the rest: it starts five role processes plus Redis and
  # Ceph RGW, and asserts that process trees go idle, so it wants the machine to itself.
  npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report-1.json --exclude 'test/src/cluster/**' || status=$?
  echo "== cluster tests"
  npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report-2.json test/src/cluster || status=$?
  # The role images run Node 24 (their Dockerfiles) while this machine's Node may be older: the
  # end-to-end suites run again under the images' Node, which then also runs every jacobian
  # process and kernel child they start (they spawn process.execPath).
  image_node="$(bash scripts/node-images.sh)"
  echo "== end-to-end tests under the images' Node ($("$image_node" --version))"
  "$image_node" node_modules/vitest/vitest.mjs run --reporter=default --reporter=json --outputFile.json=.tmp/vitest-report-3.json test/src/e2e || status=$?
fi
# Print the closing line CI reads: "N passed, N failed, N skipped".
node -e '
  const fs = require("fs");
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const file of fs.readdirSync(".tmp").filter((f) => /^vitest-report-\d+\.json$/.test(f))) {
    const r = JSON.parse(fs.readFileSync(`.tmp/${file}`, "utf8"));
    totals.passed += r.numPassedTests;
    // A suite whose hook failed fails with no failed test (its tests are skipped): count it.
    const suitesFailedAlone = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.every((a) => a.status !== "failed")).length;
    totals.failed += r.numFailedTests + suitesFailedAlone;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  }
  console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
' || true
exit "$status"
