#!/bin/sh
# Makes a fresh clone runnable: installs the npm packages (with the pinned
# Node 24) when they are missing or older than the lock file, and with
# --browser makes sure a Chromium for the browser tests is there.
set -e
cd "$(dirname "$0")/.."

stamp=node_modules/.package-lock.json
if [ ! -x node_modules/.bin/node ] || [ ! -f "$stamp" ] || [ package-lock.json -nt "$stamp" ]; then
  echo "kpi-id: installing npm packages..."
  # Exactly as locked, and never writing package-lock.json: a first start leaves
  # a fresh clone's tree clean. `npm ci` once refused with "Missing: @biomejs/
  # cli-darwin-arm64@2.6.8 from lock file": the lock had lost biome's optional
  # packages for other platforms, and `npm install` wrote them back (134 lines)
  # at every first start. The lock holds them again; should it fall out of step
  # with a package.json edited by hand, install still honours it, and --no-save
  # keeps it as it is (`npm install <pkg>` is the way to change it).
  if [ ! -d node_modules ]; then
    npm ci --no-audit --no-fund --loglevel=error ||
      npm install --no-save --no-audit --no-fund --loglevel=error
  else
    npm install --no-save --no-audit --no-fund --loglevel=error
  fi
fi

if [ "${1:-}" = "--browser" ]; then
  sh scripts/ensure-chromium.sh
fi
