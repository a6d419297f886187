import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "@playwright/test";

// How the browser suite gets its sessions (issue 75): each sign-in through the login page and each through the API
// is one line here, with the spec that asked for it; the run's last step (tools/sign-ins-report.ts) counts them.
const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const signInLog = join(repoRoot, ".tmp", "test-reports", "e2e-sign-ins.txt");

export type SignInWay = "screen" | "api";

/** Starts the run's list empty (the main process, once, before any worker). */
export function startSignInLog(): void {
  mkdirSync(dirname(signInLog), { recursive: true });
  writeFileSync(signInLog, "");
}

/** Notes one sign-in of the running test; outside a test (a tool run on its own) nothing is noted. */
export function noteSignIn(way: SignInWay): void {
  let spec: string;
  try {
    spec = relative(repoRoot, test.info().file);
  } catch {
    return;
  }
  // One short line per write, appended: the workers write to the same file without interleaving.
  appendFileSync(signInLog, `${way}\t${spec}\n`);
}

export interface SignInCounts {
  screen: number;
  api: number;
  /** Sign-ins through the login page per spec, most first. */
  screenBySpec: Record<string, number>;
}

export function countSignIns(): SignInCounts {
  const counts: SignInCounts = { screen: 0, api: 0, screenBySpec: {} };
  if (!existsSync(signInLog)) return counts;
  for (const line of readFileSync(signInLog, "utf8").split("\n")) {
    const [way, spec] = line.split("\t");
    if (way === "api") counts.api += 1;
    if (way !== "screen" || spec === undefined) continue;
    counts.screen += 1;
    counts.screenBySpec[spec] = (counts.screenBySpec[spec] ?? 0) + 1;
  }
  counts.screenBySpec = Object.fromEntries(Object.entries(counts.screenBySpec).sort((a, b) => b[1] - a[1]));
  return counts;
}
