// podman as `npm run test:image` runs it on CI's machine: root inside a container, where runc cannot set the
// default resource limits (containers.conf `default_ulimits = []`). The setting is a containers.conf of the run's
// own (CONTAINERS_CONF), so /etc/containers stays as it was; podman-compose's podman calls read it too.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const runc = "/usr/sbin/runc";

/** Writes the run's containers.conf into `dir` and returns the environment every podman call gets. */
export function podmanEnvironment(dir: string): NodeJS.ProcessEnv {
  mkdirSync(dir, { recursive: true });
  const conf = join(dir, "containers.conf");
  const runtime = existsSync(runc) ? `[engine]\nruntime = "${runc}"\n` : "";
  writeFileSync(conf, `[containers]\ndefault_ulimits = []\n${runtime}`);
  return { ...process.env, CONTAINERS_CONF: conf };
}

export interface Finished {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end; its output is kept (and shown as it comes when `show` is set). */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; show?: boolean } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (options.show) process.stdout.write(chunk);
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (options.show) process.stderr.write(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Runs a command that must succeed and answers its standard output. */
export async function must(command: string, args: string[], options: Parameters<typeof run>[2] = {}): Promise<string> {
  const finished = await run(command, args, options);
  if (finished.code !== 0) {
    const tail = `${finished.stderr}${finished.stdout}`.trim().split("\n").slice(-20).join("\n");
    throw new Error(`${command} ${args.join(" ")} exited with ${finished.code}:\n${tail}`);
  }
  return finished.stdout;
}
