import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { keyMaterial } from "./key-material.ts";
import { freePort } from "./listening.ts";

/**
 * The documented nginx block (docs/nginx-auth-request.md) run as it is written, in front of a small site that
 * answers with the headers it received: only the host name, port, certificate paths, KPI ID's address, the
 * application id and the site's upstream are replaced, each of them checked to be in the block first.
 */

const docPath = new URL("../../../../docs/nginx-auth-request.md", import.meta.url);
export const nginxBinary = "/usr/sbin/nginx";

/** The first ```nginx block after the "The server block" heading. */
export function documentedServerBlock(): string {
  const doc = readFileSync(docPath, "utf8");
  const section = doc.slice(doc.indexOf("## The server block"));
  const match = /```nginx\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error("docs/nginx-auth-request.md has no nginx block under 'The server block'");
  return match[1];
}

/** Replaces a value the block must contain, so a doc that drops it fails here instead of testing something else. */
function replaceEvery(block: string, written: string | RegExp, replacement: string): string {
  const found = typeof written === "string" ? block.includes(written) : written.test(block);
  if (!found) throw new Error(`the documented block no longer contains ${written}`);
  return typeof written === "string" ? block.replaceAll(written, replacement) : block.replace(written, replacement);
}

export interface ProtectedHost {
  host: string;
  applicationId: string;
}

interface SiteAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RunningSites {
  port: number;
  origin(host: string): string;
  /** A browser's request to a protected host (TLS with SNI, Host with the port, as a browser sends them). */
  get(host: string, path: string, headers?: Record<string, string>): Promise<SiteAnswer>;
  /** Another method, with a body (a form posted to the site). */
  send(host: string, path: string, headers: Record<string, string>, sent: Sent): Promise<SiteAnswer>;
  /** What the site behind nginx received, when nginx let the request through. */
  received(answer: SiteAnswer): { method: string; path: string; headers: IncomingHttpHeaders; body: string };
  stop(): Promise<void>;
}

function renderSite(block: string, prefix: string, port: number, kpiId: string, upstream: number, site: ProtectedHost) {
  let rendered = replaceEvery(block, "listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`);
  rendered = replaceEvery(rendered, /\/etc\/nginx\/tls\/wiki\.kpi\.ua\.crt/, join(prefix, "site.crt"));
  rendered = replaceEvery(rendered, /\/etc\/nginx\/tls\/wiki\.kpi\.ua\.key/, join(prefix, "site.key"));
  rendered = replaceEvery(rendered, "https://id.kpi.ua/", `${kpiId}/`);
  rendered = replaceEvery(rendered, '"APPLICATION-ID"', `"${site.applicationId}"`);
  rendered = replaceEvery(rendered, "http://127.0.0.1:8080", `http://127.0.0.1:${upstream}`);
  return replaceEvery(rendered, "server_name wiki.kpi.ua;", `server_name ${site.host};`);
}

function startEchoSite(): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () =>
      response.end(JSON.stringify({ method: request.method, path: request.url, headers: request.headers, body })),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      resolve({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

interface Sent {
  method?: string;
  body?: string;
}

function requestOverTls(
  port: number,
  host: string,
  path: string,
  headers: Record<string, string>,
  sent: Sent = {},
): Promise<SiteAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: "127.0.0.1",
        port,
        path,
        method: sent.method ?? "GET",
        servername: host,
        headers: { host: `${host}:${port}`, ...headers },
        // The test's own self-signed certificate.
        rejectUnauthorized: false,
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          body += chunk;
        });
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    request.on("error", reject);
    request.end(sent.body);
  });
}

/** nginx (as the cluster suite runs it: its own prefix, loopback, in the foreground) serving the documented block. */
export async function startProtectedSites(kpiIdOrigin: string, port: number, sites: ProtectedHost[]) {
  const prefix = mkdtempSync(join(tmpdir(), "kpi-id-nginx-"));
  const names = sites.map((site) => `DNS:${site.host}`).join(",");
  // Made once per worker for these names (support/key-material.ts).
  keyMaterial(`nginx P-256 /CN=kpi-id-test ${names} 1 day`, prefix, (folder) =>
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
        ...["-keyout", join(folder, "site.key"), "-out", join(folder, "site.crt")],
        ...["-subj", "/CN=kpi-id-test", "-addext", `subjectAltName=${names}`],
      ],
      { stdio: "ignore" },
    ),
  );
  const echo = await startEchoSite();
  const block = documentedServerBlock();
  const servers = sites.map((site) => renderSite(block, prefix, port, kpiIdOrigin, echo.port, site)).join("\n");
  const config = [
    "worker_processes 1;",
    `pid ${prefix}/nginx.pid;`,
    `error_log ${prefix}/error.log warn;`,
    "events { worker_connections 64; }",
    "http {",
    `  access_log ${prefix}/access.log;`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${prefix}/${kind};`),
    servers,
    "}",
  ].join("\n");
  const configPath = join(prefix, "nginx.conf");
  writeFileSync(configPath, config);
  const child: ChildProcess = spawn(nginxBinary, ["-p", prefix, "-c", configPath, "-g", "daemon off;"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const first = sites[0]?.host ?? "localhost";
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr}`);
    const answer = await requestOverTls(port, first, "/_kpi-id/none", {}).catch(() => undefined);
    if (answer) break;
    if (attempt > 100) throw new Error(`nginx did not answer: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const running: RunningSites = {
    port,
    origin: (host) => `https://${host}:${port}`,
    get: (host, path, headers = {}) => requestOverTls(port, host, path, headers),
    send: (host, path, headers, sent) => requestOverTls(port, host, path, headers, sent),
    received: (answer) => JSON.parse(answer.body),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await new Promise((resolve) => echo.server.close(resolve));
      rmSync(prefix, { recursive: true, force: true });
    },
  };
  return running;
}

export { freePort };

/** The `name=value` of the protected host's cookie a response set. */
export function siteCookieFrom(answer: SiteAnswer): string {
  const cookie = (answer.headers["set-cookie"] ?? []).find((line) => line.startsWith("__Host-kpi_id_site="));
  if (!cookie) throw new Error(`no site cookie in ${answer.status}: ${JSON.stringify(answer.headers)}`);
  return cookie.split(";")[0] ?? "";
}

/** The `name=value` of the cookie binding a sign-in to the browser that started it, from nginx's redirect to KPI ID. */
export function startCookieFrom(answer: SiteAnswer): string {
  const cookie = (answer.headers["set-cookie"] ?? []).find((line) => line.startsWith("__Host-kpi_id_site_start="));
  if (!cookie) throw new Error(`no start cookie in ${answer.status}: ${JSON.stringify(answer.headers)}`);
  return cookie.split(";")[0] ?? "";
}
