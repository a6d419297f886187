#!/bin/sh
# Browser tests drive the system's Chromium (never a downloaded browser build).
set -e
if [ -n "${CHROME_PATH:-}" ]; then
  [ -x "$CHROME_PATH" ] && exit 0
  echo "kpi-id: CHROME_PATH=$CHROME_PATH is not an executable file." >&2
  exit 1
fi
# The browser tests run in Debian's chromium-headless-shell where it is installed (e2e/chromium.ts says
# why); it is only faster, so a machine without it (or without apt) runs them in chromium.
missing=""
[ -x /usr/bin/chromium ] || missing="chromium"
[ -x /usr/bin/chromium-headless-shell ] || missing="$missing chromium-headless-shell"
[ -z "$missing" ] && exit 0
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "kpi-id: installing$missing from Debian's packages for the browser tests..."
  apt-get update -qq || true
  # shellcheck disable=SC2086 # one word per package
  if DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; then exit 0; fi
fi
[ -x /usr/bin/chromium ] && exit 0
echo "kpi-id: the browser tests need Chromium. Install it (Debian/Ubuntu: sudo apt-get install chromium)" >&2
echo "        or point CHROME_PATH at a Chromium or Chrome binary, then run npm test again." >&2
exit 1
