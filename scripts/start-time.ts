// `node scripts/start-time.ts [--runs 5] [--port-base 3000] [--checkout DIR]`: how long `npm start` takes to answer,
// run after run. Each run starts `npm start` in the checkout (the current one by default), polls GET /health until
// the service answers 200, notes when each phase's line appeared on its output, then stops it (SIGTERM to its
// process group) and waits for it to end. Prints every run and the median and minimum of each figure.
//
// The first run of a fresh checkout installs and builds; the runs after it are the "second start" issue 62 asks to
// be under 10 s. The ports are the checkout's own settings (PORT, SANDBOX_*_PORT, DEMO_SITE_PORT), moved together
// by --port-base so that a measurement never meets a server already running on 3000–3004 and 4000.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

/** `npm start`'s ports, each moved by the base: the service, the four stand-ins, the demo site. */
export function startPorts(base: number): Record<string, string> {
  return {
    PORT: String(base),
    SANDBOX_GOOGLE_PORT: String(base + 1),
    SANDBOX_DIIA_PORT: String(base + 2),
    SANDBOX_MAIL_PORT: String(base + 3),
    SANDBOX_BANKID_PORT: String(base + 4),
    DEMO_SITE_PORT: String(base + 5),
  };
}

/** Lines of `npm start`'s output that mark the end of a phase, and the phase's name in the table. */
const phases: [RegExp, string][] = [
  [/^build: /, "build checked"],
  [/^sandbox: /, "stand-ins up"],
  [/KPI ID is serving/, "service listening"],
  [/KPI ID is running/, "all running"],
];

export interface StartRun {
  /** Milliseconds from the command to the first 200 of GET /health. */
  firstAnswer: number;
  /** CPU milliseconds its processes had used by then (Linux), a figure the machine's other load moves less. */
  cpu: number | undefined;
  /** Milliseconds from the command to each phase's line. */
  marks: Map<string, number>;
  output: string[];
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The CPU time (user and system) of every process in the group, the exited ones its members waited for
 * included (cutime, cstime): npm, its shells, `node scripts/start.ts`. Undefined without /proc.
 */
export function groupCpuMs(group: number): number | undefined {
  let ticks = 0;
  try {
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {
        continue; // ended meanwhile
      }
      // After the command's name, which may hold spaces: state, ppid, pgrp, …, utime (14), stime, cutime, cstime.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== group) continue;
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    }
  } catch {
    return undefined;
  }
  // USER_HZ, 100 on every Linux build Node supports.
  return ticks * 10;
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) done();
    else child.once("exit", () => done());
  });
}

export interface StartOptions {
  /** The program and its arguments: `npm start` by default. */
  command?: [string, ...string[]];
  /** The checkout it runs in. */
  cwd: string;
  /** Added to this process's environment (the ports, DATA_DIR); an undefined value removes the variable. */
  env: Record<string, string | undefined>;
  /** The service's port: GET /health there is polled. */
  port: number;
  /** The line that says everything started (then it is stopped); the first answer when undefined. */
  allStarted?: RegExp;
}

/** Runs the command once to the first answer of /health (and to `allStarted`), then stops it and waits. */
export async function measureStart(options: StartOptions): Promise<StartRun> {
  const [program, ...args] = options.command ?? ["npm", "start"];
  const started = performance.now();
  const env = { ...process.env, ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  const child = spawn(program, args, {
    cwd: options.cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const marks = new Map<string, number>();
  const output: string[] = [];
  const onText = (chunk: Buffer) => {
    const at = performance.now() - started;
    for (const line of chunk.toString().split("\n")) {
      if (line.trim() === "") continue;
      output.push(`${(at / 1000).toFixed(2).padStart(6)} s  ${line}`);
      for (const [pattern, phase] of phases) if (pattern.test(line) && !marks.has(phase)) marks.set(phase, at);
    }
  };
  child.stdout?.on("data", onText);
  child.stderr?.on("data", onText);
  const health = `http://127.0.0.1:${options.port}/health`;
  let firstAnswer: number | undefined;
  let cpu: number | undefined;
  while (firstAnswer === undefined) {
    if (child.exitCode !== null) throw new Error(`${program} ended (${child.exitCode}):\n${output.join("\n")}`);
    if (await answers(health)) {
      firstAnswer = performance.now() - started;
      cpu = child.pid === undefined ? undefined : groupCpuMs(child.pid);
    } else await new Promise((resolve) => setTimeout(resolve, 25));
  }
  // Until the whole product runs (the demo site after the service), so the next run finds its ports free.
  const deadline = Date.now() + 60_000;
  const allStarted = options.allStarted;
  while (allStarted && !output.some((line) => allStarted.test(line)) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 25));
  if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
  await stopped(child);
  return { firstAnswer, cpu, marks, output };
}

export const seconds = (ms: number | undefined) => (ms === undefined ? "—" : `${(ms / 1000).toFixed(2)} s`);
export const median = (list: number[]) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      runs: { type: "string", default: "5" },
      "port-base": { type: "string", default: "3000" },
      checkout: { type: "string", default: fileURLToPath(new URL("../", import.meta.url)) },
    },
  });
  const runs = Number(values.runs);
  const portBase = Number(values["port-base"]);
  const checkout = resolve(values.checkout);
  console.log(`npm start in ${checkout}, ports from ${portBase}, ${runs} runs\n`);
  const results: StartRun[] = [];
  for (let index = 1; index <= runs; index++) {
    const run = await measureStart({
      cwd: checkout,
      env: startPorts(portBase),
      port: portBase,
      allStarted: /KPI ID is running/,
    });
    results.push(run);
    const marks = phases.map(([, phase]) => `${phase} ${seconds(run.marks.get(phase))}`).join(", ");
    const cpu = run.cpu === undefined ? "" : `, CPU ${seconds(run.cpu)}`;
    console.log(`run ${index}: first answer of /health ${seconds(run.firstAnswer)}${cpu}  (${marks})`);
    if (process.env.START_TIME_OUTPUT === "1") console.log(`${run.output.join("\n")}\n`);
  }
  const firstAnswers = results.map((run) => run.firstAnswer);
  console.log(
    `\nnpm start to the first answer of /health: median ${seconds(median(firstAnswers))}, ` +
      `min ${seconds(Math.min(...firstAnswers))} (${runs} runs)`,
  );
  const cpus = results.flatMap((run) => run.cpu ?? []);
  if (cpus.length > 0)
    console.log(
      `  ${"CPU used by then".padEnd(18)} median ${seconds(median(cpus))}, min ${seconds(Math.min(...cpus))}`,
    );
  for (const [, phase] of phases) {
    const figures = results.flatMap((run) => run.marks.get(phase) ?? []);
    if (figures.length > 0)
      console.log(`  ${phase.padEnd(18)} median ${seconds(median(figures))}, min ${seconds(Math.min(...figures))}`);
  }
}
