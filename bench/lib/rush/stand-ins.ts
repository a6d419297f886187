import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { otherCores } from "./instance.ts";

// The sandbox's stand-ins for Google, Diia and BankID NBU in a process of their own on the generator's cores
// (stand-ins-process.ts), so sign-ins with them run the product's own code paths against an outside service.

export interface StandInsReady {
  /** What points KPI ID at them (the sandbox's variables). */
  env: Record<string, string>;
  /** The provider's origin and the subjects of campus people's Google accounts. */
  google: { origin: string; accounts: string[] };
  /** The phone page's campus people (their DSTU keys sign the requests). */
  diia: { people: string[] };
  /** The banks that sign in and the personas a campus person is found by. */
  bankId: { clientId: string; banks: string[]; personas: string[] };
}

export interface RunningStandIns extends StandInsReady {
  pid: number;
  stop(): Promise<void>;
}

export async function startStandIns(productUrl: string): Promise<RunningStandIns> {
  const script = new URL("./stand-ins-process.ts", import.meta.url).pathname;
  // taskset execs node: the child's pid is the stand-ins'.
  const child = spawn("taskset", ["-c", otherCores, process.execPath, script, productUrl], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the stand-ins exited with ${code}`)));
  });
  const ready = JSON.parse(first) as StandInsReady;
  return {
    ...ready,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin.end();
      }),
  };
}
