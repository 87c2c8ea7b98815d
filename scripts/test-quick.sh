#!/usr/bin/env bash
# The quick tier, the inner loop: the type check, then every Node-side test file that drives no
# browser, starts no program the machine has to provide (redis-server, PostgreSQL, nginx, Caddy,
# PHP, Python/Django, promtool, systemd-analyze...) and packs nothing, run side by side. Which files
# those are is read from their code by scripts/test-tiers.ts (its header has the rule), so a new
# test lands in the right tier by itself. The full tier, `npm test`, still runs every file.
# TEST_QUICK_CONCURRENCY overrides how many files run at once (default 4: most of them wait on
# loopback sockets and child processes, not on the CPU).
set -euo pipefail
cd "$(dirname "$0")/.."
# test-node.sh picks the tier's files (and fails when there are none), as it does for test:runtime.
mapfile -t files < <(bash scripts/test-node.sh --tier quick --list)
if [ ${#files[@]} -eq 0 ]; then
  exit 1
fi
# The type check of npm run typecheck, incremental: a second run re-checks only what changed and
# what depends on it (12 s of CPU instead of 39 s here); the record is kept under node_modules/.cache.
mkdir -p node_modules/.cache/momo-checkout
node_modules/.bin/tsc -p tsconfig.json --incremental --tsBuildInfoFile node_modules/.cache/momo-checkout/typecheck.tsbuildinfo
# A test that never ends fails after a minute (TEST_QUICK_TIMEOUT, in ms) instead of holding the
# loop open: a planted bug in a server folder once left two files waiting forever on a promise.
exec node --import tsx --test --test-reporter=spec --test-concurrency="${TEST_QUICK_CONCURRENCY:-4}" --test-timeout="${TEST_QUICK_TIMEOUT:-60000}" "${files[@]}"
