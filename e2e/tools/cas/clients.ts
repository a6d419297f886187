import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessLogDirectives } from "../apache-access-log.ts";
import type { CasHarness } from "./harness.ts";
import { backendPhp, indexPhp } from "./php-pages.ts";

const modules = "/usr/lib/apache2/modules";

/** The SSI page behind mod_auth_cas: the user and the attributes it passes on as request headers (CAS-…). */
const apachePage =
  '<!doctype html><html><head><meta charset="utf-8"><title>mod_auth_cas</title></head><body>' +
  '<p data-testid="apache-user"><!--#echo var="REMOTE_USER" --></p>' +
  '<p data-testid="apache-name"><!--#echo var="HTTP_CAS_DISPLAYNAME" --></p>' +
  '<p data-testid="apache-affiliation"><!--#echo var="HTTP_CAS_AFFILIATION" --></p>' +
  '<p data-testid="apache-new-login"><!--#echo var="HTTP_CAS_ISFROMNEWLOGIN" --></p>' +
  "</body></html>";

/**
 * Apache as mod_auth_cas's documentation configures it (CAS 2.0 validation with attributes, single sign-out):
 * /secure/ any person, /students/ and /staff/ by `Require cas-attribute`, /renew/ with CASRenew, /gateway/ with
 * CASGateway (an anonymous visitor gets /public/, as docs/cas.md shows). A second, https virtual host is
 * phpCAS's front: its proxy callback and its /cas/ calls.
 */
function apacheConfig(harness: CasHarness, root: string, idpUrl: string): string {
  const port = new URL(harness.apacheUrl).port;
  const tlsPort = new URL(harness.phpUrl).port;
  const htdocs = join(root, "htdocs");
  const location = (path: string, lines: string[]) => [
    `<Location /${path}/>`,
    "  AuthType CAS",
    "  CASAuthNHeader CAS-User",
    // One mod_auth_cas session for the whole site, not one per directory.
    "  CASScope /",
    ...lines.map((line) => `  ${line}`),
    "</Location>",
  ];
  return [
    `ServerRoot "${root}"`,
    `DefaultRuntimeDir "${root}"`,
    `PidFile "${join(root, "httpd.pid")}"`,
    `Listen 127.0.0.1:${port}`,
    `Listen 127.0.0.1:${tlsPort}`,
    "ServerName localhost",
    ...[
      "mpm_event",
      "authn_core",
      "authz_core",
      "authz_user",
      "include",
      "dir",
      "ssl",
      "socache_shmcb",
      "proxy",
      "proxy_http",
      "headers",
      "rewrite",
    ].map((name) => `LoadModule ${name}_module ${modules}/mod_${name}.so`),
    `LoadModule auth_cas_module ${modules}/mod_auth_cas.so`,
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${join(root, "error.log")}"`,
    "LogLevel warn",
    ...accessLogDirectives(root),
    `CASCookiePath ${join(root, "cas-cookies")}/`,
    `CASLoginURL ${idpUrl}/cas/login`,
    `CASValidateURL ${idpUrl}/cas/p3/serviceValidate`,
    "CASVersion 2",
    "CASSSOEnabled On",
    "CASAttributePrefix CAS-",
    `DocumentRoot "${htdocs}"`,
    "DirectoryIndex index.shtml",
    '<FilesMatch "\\.shtml$">',
    "  ForceType text/html",
    "  SetOutputFilter INCLUDES",
    "</FilesMatch>",
    `<Directory "${htdocs}">`,
    "  Options +Includes",
    "  Require all granted",
    "</Directory>",
    ...location("secure", ["Require valid-user"]),
    ...location("students", ["Require cas-attribute affiliation:student"]),
    ...location("staff", ["Require cas-attribute affiliation:employee"]),
    ...location("renew", ["CASRenew /renew/", "Require valid-user"]),
    ...location("gateway", ["CASGateway /gateway/", "Require valid-user"]),
    // mod_auth_cas 1.2 lets an anonymous visitor back from a gateway trip through without a user, which Apache 2.4
    // answers with 500 (apereo/mod_auth_cas#204); docs/cas.md's workaround serves them the public page instead.
    "RewriteEngine On",
    "RewriteCond %{HTTP_COOKIE} (^|;\\s*)MOD_CAS_G=TRUE",
    "RewriteCond %{HTTP_COOKIE} !(^|;\\s*)MOD_AUTH_CAS=",
    "RewriteCond %{QUERY_STRING} !(^|&)ticket=",
    "RewriteRule ^/gateway/$ /public/ [PT]",
    `<VirtualHost 127.0.0.1:${tlsPort}>`,
    "  SSLEngine on",
    `  SSLCertificateFile ${harness.certFile}`,
    `  SSLCertificateKeyFile ${harness.keyFile}`,
    // phpCAS takes proxy-granting tickets only when it knows it is served over https.
    '  RequestHeader set X-Forwarded-Proto "https"',
    `  ProxyPass /cas/ ${idpUrl}/cas/`,
    `  ProxyPass / ${harness.phpServerUrl}/`,
    "</VirtualHost>",
  ].join("\n");
}

async function waitUntil(url: string, processes: ChildProcess[], what: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const exited = processes.find((child) => child.exitCode !== null);
    if (exited) throw new Error(`${what}: ${exited.spawnfile} exited with ${exited.exitCode}`);
    if (
      await fetch(url, { redirect: "manual" }).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not become ready`);
}

export interface RunningCasClients {
  stop(): void;
  errorLog: string;
  /** Apache's folder, whose access log (apache-access-log.ts) shows each single logout KPI ID posted. */
  apacheDir: string;
}

/** Starts PHP's built-in server with the phpCAS pages and Apache with mod_auth_cas, both on loopback. */
export async function startCasClients(harness: CasHarness, idpUrl: string): Promise<RunningCasClients> {
  const php = join(harness.dir, "php");
  const root = join(harness.dir, "apache");
  for (const dir of [php, join(root, "htdocs"), join(root, "cas-cookies")]) mkdirSync(dir, { recursive: true });
  for (const page of ["secure", "students", "staff", "renew", "gateway", "public"]) {
    mkdirSync(join(root, "htdocs", page), { recursive: true });
    writeFileSync(join(root, "htdocs", page, "index.shtml"), apachePage);
  }
  // mod_auth_cas keeps its sessions here; Apache's worker (www-data under root) writes them.
  chmodSync(join(root, "cas-cookies"), 0o777);
  writeFileSync(join(php, "index.php"), indexPhp(idpUrl, harness.phpUrl, harness.phpServerUrl));
  writeFileSync(join(php, "backend.php"), backendPhp(idpUrl, harness.phpUrl));
  const configFile = join(root, "httpd.conf");
  writeFileSync(configFile, `${apacheConfig(harness, root, idpUrl)}\n`);

  const phpServer = spawn("php", ["-S", new URL(harness.phpServerUrl).host, "-t", php], {
    // Several workers: the page waits on KPI ID while KPI ID calls the proxy callback and the back end.
    env: { ...process.env, PHP_CLI_SERVER_WORKERS: "4" },
    stdio: "ignore",
    // Its own process group: the workers outlive a signal to the first process alone.
    detached: true,
  });
  const apache = spawn("/usr/sbin/apache2", ["-f", configFile, "-DFOREGROUND"], { stdio: "inherit" });
  const stop = () => {
    apache.kill("SIGTERM");
    if (phpServer.pid !== undefined && phpServer.exitCode === null) process.kill(-phpServer.pid, "SIGTERM");
  };
  try {
    await waitUntil(`${harness.phpServerUrl}/backend.php?probe=1`, [phpServer], "PHP's built-in server");
    await waitUntil(`${harness.apacheUrl}/`, [apache], `Apache with mod_auth_cas (see ${join(root, "error.log")})`);
  } catch (error) {
    stop();
    throw error;
  }
  return { stop, errorLog: join(root, "error.log"), apacheDir: root };
}
