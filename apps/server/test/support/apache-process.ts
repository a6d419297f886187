import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * Debian's Apache run by a test: its modules, and one foreground process over a folder of its own (its
 * configuration, error log and sites), stopped and removed with that folder. Shared by the server's test of the
 * documented examples and the browser suite's mod_auth_openidc site.
 */

export const apacheModules = "/usr/lib/apache2/modules";

/** Debian's mod_php for the Apache it ships (libapache2-mod-php: libphp8.2.so on bookworm). */
export function phpModule(): string {
  const found = readdirSync(apacheModules).find((name) => /^libphp[\d.]+\.so$/.test(name));
  if (!found) throw new Error(`no libphp*.so in ${apacheModules}: install libapache2-mod-php`);
  return found;
}

export interface RunningApache {
  stop(): Promise<void>;
  errorLog(): string;
}

/**
 * Starts `/usr/sbin/apache2 -f {dir}/httpd.conf` in the foreground and answers once `ready` says so; `what` names it
 * in the error (with its error log, `{dir}/error.log`) when it exits or never gets ready. Stopping removes `dir`.
 */
export async function runApache(dir: string, what: string, ready: () => Promise<boolean>): Promise<RunningApache> {
  // A process group of its own: prefork's parent signals its whole group when it stops its children, which must not
  // reach the test runner.
  const apache: ChildProcess = spawn("/usr/sbin/apache2", ["-f", join(dir, "httpd.conf"), "-DFOREGROUND"], {
    stdio: "inherit",
    detached: true,
  });
  // Outside the runner's group, Apache would outlive a worker that ends without its afterAll.
  const orphanGuard = () => apache.kill("SIGTERM");
  process.once("exit", orphanGuard);
  const errorLog = () => {
    const file = join(dir, "error.log");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  };
  const stop = async () => {
    process.off("exit", orphanGuard);
    if (apache.exitCode === null) {
      const exited = new Promise((resolve) => apache.once("exit", resolve));
      apache.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let attempt = 0; !(await ready()); attempt++) {
    if (apache.exitCode !== null || attempt > 100) {
      const log = errorLog();
      await stop();
      throw new Error(`${what} did not start (exit ${apache.exitCode}): ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { stop, errorLog };
}
