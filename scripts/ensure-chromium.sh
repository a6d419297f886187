#!/bin/sh
# Browser tests drive the system's Chromium (never a downloaded browser build).
set -e
if [ -n "${CHROME_PATH:-}" ]; then
  [ -x "$CHROME_PATH" ] && exit 0
  echo "kpi-id: CHROME_PATH=$CHROME_PATH is not an executable file." >&2
  exit 1
fi
# The browser tests run in Debian's chromium-headless-shell where it is installed (e2e/chromium.ts says
# why); it only makes them faster, so without it (or without apt) they run in chromium.
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromium-headless-shell ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  if [ ! -x /usr/bin/chromium ]; then
    echo "kpi-id: installing Chromium from Debian's packages for the browser tests..."
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 || true
  elif apt-cache show chromium-headless-shell >/dev/null 2>&1; then
    # Only where apt already knows the package: no `apt-get update` on every run of a machine without it.
    echo "kpi-id: installing chromium-headless-shell from Debian's packages for the browser tests..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null 2>&1 ||
      echo "kpi-id: chromium-headless-shell could not be installed; the browser tests run in chromium." >&2
  fi
fi
[ -x /usr/bin/chromium ] && exit 0
echo "kpi-id: the browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install chromium)" >&2
echo "        or point CHROME_PATH at a Chromium or Chrome binary, then run npm test again." >&2
exit 1
