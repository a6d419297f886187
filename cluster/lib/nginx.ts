import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "./wait.ts";

export const nginxBinary = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path));

const template = new URL("../nginx.conf.template", import.meta.url);

export interface RunningNginx {
  url: string;
  /** The access log lines: request id, status, upstream address(es), upstream status(es). */
  accessLog(): NginxLogLine[];
  stop(): Promise<void>;
  /**
   * Sends requests to these instances only: the configuration rewritten and nginx reloaded (SIGHUP). Old
   * workers finish the requests they hold; new ones never pick an instance left out, which drains it.
   */
  setUpstreams(upstreams: string[]): Promise<void>;
}

export interface NginxLogLine {
  requestId: string;
  status: number;
  upstreams: string[];
}

export function renderNginxConfig(prefix: string, listen: string, upstreams: string[]): string {
  const servers = upstreams.map((address) => `        server ${address} max_fails=1 fail_timeout=5s;`).join("\n");
  return readFileSync(template, "utf8")
    .replaceAll("{{PREFIX}}", prefix)
    .replaceAll("{{LISTEN}}", listen)
    .replaceAll("{{UPSTREAM_SERVERS}}", servers);
}

function parseLog(path: string): NginxLogLine[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const [requestId = "", status = "0", upstream = ""] = line.split(" ");
      return { requestId, status: Number(status), upstreams: upstream.split(",").map((each) => each.trim()) };
    });
}

/** nginx in the foreground with its own prefix, so it needs no root paths and stops with us. */
export async function startNginx(prefix: string, port: number, upstreams: string[]): Promise<RunningNginx> {
  if (!nginxBinary) throw new Error("nginx is not installed (apt-get install -y nginx)");
  mkdirSync(prefix, { recursive: true });
  const configPath = join(prefix, "nginx.conf");
  writeFileSync(configPath, renderNginxConfig(prefix, `127.0.0.1:${port}`, upstreams));
  const child: ChildProcess = spawn(nginxBinary, ["-p", prefix, "-c", configPath, "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`nginx on ${url}`, 10_000, async () => {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    return (await fetch(`${url}/health`).catch(() => undefined))?.ok === true;
  });
  return {
    url,
    accessLog: () => parseLog(join(prefix, "access.log")),
    setUpstreams: async (chosen) => {
      writeFileSync(configPath, renderNginxConfig(prefix, `127.0.0.1:${port}`, chosen));
      child.kill("SIGHUP");
      // The master starts new workers once it has read the file; a second is ample on a loaded machine.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGQUIT");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}
