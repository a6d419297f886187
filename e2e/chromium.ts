import { existsSync } from "node:fs";

/**
 * How every browser in this repo starts: Debian's Chromium (never a downloaded
 * build), without the background traffic that this machine's closed network refuses.
 */
const args = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The whole browser (`chromium`): Lighthouse and the screenshot tools, which want the browser people use. */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args,
};

/**
 * The browser tests' Chromium: Debian's `chromium-headless-shell` where it is installed (`.ci/run` installs
 * it, and `npm test` as root where apt knows the package; same Blink, V8 and DevTools protocol, virtual
 * authenticator included), else the whole browser. The shell has no browser UI process behind each page, and that is
 * most of what a test's fresh context costs on two cores (issue 41: 12 contexts, 0.31 s each with
 * `chromium`, 0.11 s with the shell; bankid.spec and account.spec, 36 tests on one worker, 113 s and 75 s).
 * CHROME_PATH still names one binary for both.
 */
const headlessShell = "/usr/bin/chromium-headless-shell";
export const testChromiumLaunchOptions = {
  executablePath: process.env.CHROME_PATH ?? (existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium"),
  args,
};
