#!/bin/sh
# Makes a fresh clone runnable: installs the npm packages (with the pinned
# Node 24) when they are missing or older than the lock file, and with
# --browser makes sure a Chromium for the browser tests is there.
set -e
cd "$(dirname "$0")/.."

stamp=node_modules/.package-lock.json
if [ ! -x node_modules/.bin/node ] || [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "kpi-id: installing npm packages..."
  # Not `npm ci`: its strict lock check fails when the registry lacks an optional
  # package for another platform (seen with biome); install still honours the lock.
  npm install --no-audit --no-fund --loglevel=error
fi

if [ "${1:-}" = "--browser" ]; then
  sh scripts/ensure-chromium.sh
fi
