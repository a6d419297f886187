import type { DatabaseHandle } from "../../src/platform/db/index.ts";
import { runCli } from "../../src/surfaces/cli/main.ts";
import type { ServiceSignOut } from "../../src/surfaces/cli/sign-out.ts";

/** What the operator CLI sees in tests: no production settings, a secret that passes the checks. */
export const cliTestEnv = {
  NODE_ENV: "test",
  SESSION_SECRET: "cli-test-session-secret-0123456789-abcdefghijkl",
  DATA_DIR: "/tmp/kpi-id-cli-test",
};

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = unknown>(): T;
}

/** Runs one CLI command in-process against an open test database, capturing its output. */
export async function runCliOn(
  database: DatabaseHandle,
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    now?: Date;
    /** The service's sign-out participants, as bin/kpi-id.js hands them in (src/cli-service.ts). */
    serviceSignOut?: ServiceSignOut;
  } = {},
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    env: { ...cliTestEnv, ...options.env },
    database,
    stdout: (line) => out.push(line),
    stderr: (line) => err.push(line),
    readStdin: async () => options.stdin ?? "",
    now: options.now,
    serviceSignOut: options.serviceSignOut,
  });
  const stdout = out.join("\n");
  return { code, stdout, stderr: err.join("\n"), json: <T>() => JSON.parse(stdout) as T };
}
