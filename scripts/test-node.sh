#!/usr/bin/env bash
# Runs every Node-side test file (everything under test/ but the browser suites (test/browser, test/console/browser), the end-to-end
# suite, the engines suite (npm run test:engines), the framework examples and the published Storybook's, which needs `npm run build-storybook` first).
# node --test does not expand globs on Node 20, and with no file it runs nothing and exits 0,
# so the file list is built here and an empty list fails the run. `--list` prints the files and
# runs nothing (scripts/test-quick.sh picks its tier from it).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/browser/*' -not -path 'test/console/browser/*' -not -path 'test/e2e/*' -not -path 'test/storybook/*' -not -path 'test/frameworks/*' -not -path 'test/engines/*' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "test-node: no test files found under test/" >&2
  exit 1
fi
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${files[@]}"
  exit 0
fi
# TEST_NODE_CONCURRENCY=N runs N files side by side (Node's default is the cores less one: 1 on a
# 2-core machine). Every test takes its own free port and temporary folder, but at 4 under a load
# of 25 to 35 (2026-11-27) the PHP, Python, Django and Laravel shops' tests and the order-id races
# between processes (test/crash) failed, so the default stays Node's until a run side by side
# passes whole here (README, "How long").
concurrency=()
if [ -n "${TEST_NODE_CONCURRENCY:-}" ]; then concurrency=(--test-concurrency="$TEST_NODE_CONCURRENCY"); fi
exec node --import tsx --test --test-reporter=spec "${concurrency[@]}" "${files[@]}"
