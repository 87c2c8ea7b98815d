#!/usr/bin/env bash
# Runs every Node-side test file (everything under test/ but the browser suites (test/browser, test/console/browser), the end-to-end
# suite, the engines suite (npm run test:engines), the framework examples and the published Storybook's, which needs `npm run build-storybook` first).
# node --test does not expand globs on Node 20, and with no file it runs nothing and exits 0,
# so the file list is built here and an empty list fails the run. `--list` prints the files and
# runs nothing (scripts/test-quick.sh picks its tier from it). `--tier runtime` runs only the
# runtime tier (scripts/test-tiers.ts: what a Node line changes; `npm run test:runtime`, which
# .ci/run runs on Node 22 after the whole suite on Node 24).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(find test -name '*.test.ts' -not -path 'test/browser/*' -not -path 'test/console/browser/*' -not -path 'test/e2e/*' -not -path 'test/storybook/*' -not -path 'test/frameworks/*' -not -path 'test/engines/*' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "test-node: no test files found under test/" >&2
  exit 1
fi
if [ "${1:-}" = "--tier" ]; then
  mapfile -t files < <(printf '%s\n' "${files[@]}" | node --import tsx scripts/test-tiers.ts "${2:?--tier needs quick, runtime or full}")
  if [ ${#files[@]} -eq 0 ]; then
    echo "test-node: no test files in the $2 tier" >&2
    exit 1
  fi
  shift 2
fi
if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${files[@]}"
  exit 0
fi
# Two files side by side by default (Node's own default is the cores less one: one file at a time
# on the 2-core machines CI and this project run on, where test:node took 15 min instead of 9: most
# files wait on child processes, loopback sockets, and stores' deadlines, not on the CPU). Every
# test takes its own free port and temporary folder. TEST_NODE_CONCURRENCY=N overrides it (more
# on a bigger machine); at 4 under a load of 25 to 35 the shops' tests failed their deadlines.
# A test that never ends fails after 5 minutes (TEST_NODE_TIMEOUT, in ms) rather than holding a CI
# run to its 90-minute limit; the longest test here takes about 45 s.
exec node --import tsx --test --test-reporter=spec --test-concurrency="${TEST_NODE_CONCURRENCY:-2}" --test-timeout="${TEST_NODE_TIMEOUT:-300000}" "${files[@]}"
