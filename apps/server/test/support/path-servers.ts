import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./listening.ts";

/** Which side of /app/ a server served a path from: inside it, outside it, or not at all (an error status). */
export type ServedFrom = "inside" | "outside" | "refused";

export interface PathServers {
  /** How Debian's nginx and Apache, each in its default configuration, read the path as sent (not normalised). */
  read(path: string): Promise<{ nginx: ServedFrom; apache: ServedFrom }>;
  stop(): Promise<void>;
}

/** nginx as a site is usually written: a location for the application, another for the rest of the host. */
const nginxConfig = (prefix: string, port: number) => `
daemon off;
master_process off;
pid ${join(prefix, "nginx.pid")};
error_log ${join(prefix, "error.log")} warn;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  server {
    listen 127.0.0.1:${port};
    location /app/ { return 200 "inside"; }
    location / { return 200 "outside"; }
  }
}
`;

/** Apache serving files: /app/decoy says "inside", /decoy "outside"; its defaults decide the rest. */
const apacheConfig = (root: string, port: number) =>
  [
    `ServerRoot "${root}"`,
    `DefaultRuntimeDir "${root}"`,
    `PidFile "${join(root, "httpd.pid")}"`,
    `Listen 127.0.0.1:${port}`,
    "ServerName localhost",
    "LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so",
    "LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so",
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${join(root, "error.log")}"`,
    `DocumentRoot "${join(root, "htdocs")}"`,
    `<Directory "${join(root, "htdocs")}">`,
    "  Require all granted",
    "</Directory>",
  ].join("\n");

/** A request with the path exactly as written: fetch() would resolve it first, as a browser's address bar does. */
function servedFrom(port: number, path: string): Promise<ServedFrom> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path, headers: { host: "apps.example.edu" } }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => {
        const text = body.trim();
        resolve(response.statusCode === 200 && (text === "inside" || text === "outside") ? text : "refused");
      });
    });
    sent.on("error", reject);
    sent.end();
  });
}

async function untilServing(port: number, child: ChildProcess, what: string, log: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} (see ${log})`);
    if (
      await servedFrom(port, "/").then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${what} did not start (see ${log})`);
}

/** Starts nginx and Apache on loopback, each answering where it served a path from. */
export async function startPathServers(): Promise<PathServers> {
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-paths-"));
  const [nginxPort, apachePort] = [await freePort(), await freePort()];
  writeFileSync(join(dir, "nginx.conf"), nginxConfig(dir, nginxPort));
  const htdocs = join(dir, "apache", "htdocs");
  mkdirSync(join(htdocs, "app"), { recursive: true });
  writeFileSync(join(htdocs, "app", "decoy"), "inside");
  writeFileSync(join(htdocs, "decoy"), "outside");
  writeFileSync(join(dir, "apache", "httpd.conf"), `${apacheConfig(join(dir, "apache"), apachePort)}\n`);
  const nginx = spawn("/usr/sbin/nginx", ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: "ignore" });
  const apache = spawn("/usr/sbin/apache2", ["-f", join(dir, "apache", "httpd.conf"), "-DFOREGROUND"], {
    stdio: "ignore",
  });
  const stop = async () => {
    for (const child of [nginx, apache]) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await untilServing(nginxPort, nginx, "nginx", join(dir, "error.log"));
    await untilServing(apachePort, apache, "Apache", join(dir, "apache", "error.log"));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    read: async (path) => ({ nginx: await servedFrom(nginxPort, path), apache: await servedFrom(apachePort, path) }),
    stop,
  };
}
