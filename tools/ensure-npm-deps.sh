#!/usr/bin/env bash
# ensure-npm-deps.sh — installs the npm dev dependencies (esbuild for the
# demo site; playwright-core and the packaging tools for the tests) when
# node_modules is missing or older than package-lock.json.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d node_modules/esbuild ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
