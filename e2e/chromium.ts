/**
 * How every browser in this repo starts: Debian's Chromium (never a downloaded
 * build), without the background traffic that this machine's closed network refuses.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
  ],
};
