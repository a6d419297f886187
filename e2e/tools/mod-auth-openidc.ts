import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { get } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  documentedBlock,
  kpiIdCommands,
  apacheModules as modules,
  phpModule,
  type RunningApache,
  replaceEvery,
  runApache,
} from "@kpi-id/server/testing";
import { accessLogDirectives } from "./apache-access-log.ts";

/**
 * Apache with Debian's mod_auth_openidc, configured exactly as docs/mod-auth-openidc.md prints it (only the host,
 * port, certificate, KPI ID's address, the client's id and secret and the passphrase replaced), in front of the
 * doc's PHP page, over TLS with a certificate of its own.
 */

const docFile = "mod-auth-openidc.md";
const documentedHost = "https://library.kpi.ua";

export interface ApacheSite {
  dir: string;
  port: number;
  origin: string;
  certFile: string;
}

/** A directory Apache's worker (www-data when the suite runs as root) can read, and the site's certificate. */
export function prepareApacheSite(port: number): ApacheSite {
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-openidc-"));
  chmodSync(dir, 0o755);
  const certFile = join(dir, "site.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
      ...["-keyout", join(dir, "site.key"), "-out", certFile, "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost"],
    ],
    { stdio: "ignore" },
  );
  return { dir, port, origin: `https://localhost:${port}`, certFile };
}

/** The doc's operator commands for this site (`app create …`, `app rule add …`), with its address. */
export function documentedRegistration(site: ApacheSite): string[][] {
  const block = replaceEvery(documentedBlock(docFile, "## Registering the site", "sh"), documentedHost, site.origin);
  return kpiIdCommands(block);
}

function renderConfiguration(site: ApacheSite, kpiIdOrigin: string, client: { id: string; secret: string }): string {
  const replacements: [string, string][] = [
    ["<VirtualHost *:443>", `<VirtualHost 127.0.0.1:${site.port}>`],
    [documentedHost, site.origin],
    ["ServerName library.kpi.ua", "ServerName localhost"],
    ["/var/www/library", join(site.dir, "htdocs")],
    ["/etc/ssl/certs/library.kpi.ua.pem", site.certFile],
    ["/etc/ssl/private/library.kpi.ua.key", join(site.dir, "site.key")],
    ["https://id.kpi.ua", kpiIdOrigin],
    ["CLIENT-ID", client.id],
    ["CLIENT-SECRET", client.secret],
    ["CRYPTO-PASSPHRASE", `e2e-${client.secret}`],
  ];
  return replacements.reduce(
    (block, [written, replacement]) => replaceEvery(block, written, replacement),
    documentedBlock(docFile, "## The configuration", "apache"),
  );
}

/** The doc's PHP page, and after it what the test reads: every claim header, REMOTE_USER, the access token. */
function protectedPage(): string {
  const shown = [
    'echo "<ul data-testid=\\"claims\\">";',
    "foreach ($claims as $claim => $value) {",
    '  echo "<li data-header=\\"OIDC_CLAIM_" . htmlspecialchars($claim) . "\\">" . htmlspecialchars($value) . "</li>";',
    "}",
    'echo "</ul>";',
    "$headers = getallheaders();",
    "$user = htmlspecialchars($_SERVER['REMOTE_USER'] ?? '');",
    "$token = htmlspecialchars($headers['OIDC_access_token'] ?? '');",
    'echo "<p data-testid=\\"remote-user\\">$user</p><p data-testid=\\"access-token\\">$token</p>";',
  ];
  return `${documentedBlock(docFile, "The page behind it", "php")}\n${shown.join("\n")}\n`;
}

function apacheConfiguration(site: ApacheSite, siteBlock: string): string {
  return [
    `ServerRoot "${site.dir}"`,
    `DefaultRuntimeDir "${site.dir}"`,
    `PidFile "${join(site.dir, "httpd.pid")}"`,
    `Listen 127.0.0.1:${site.port}`,
    "ServerName localhost",
    // mod_php (the doc's page) needs the prefork MPM.
    ...["mpm_prefork", "authn_core", "authz_core", "authz_user", "dir", "mime", "ssl", "socache_shmcb"].map(
      (name) => `LoadModule ${name}_module ${modules}/mod_${name}.so`,
    ),
    `LoadModule php_module ${modules}/${phpModule()}`,
    `LoadModule auth_openidc_module ${modules}/mod_auth_openidc.so`,
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${join(site.dir, "error.log")}"`,
    "LogLevel warn auth_openidc:info",
    ...accessLogDirectives(site.dir),
    `SSLSessionCache "shmcb:${join(site.dir, "ssl_scache")}(512000)"`,
    "TypesConfig /etc/mime.types",
    "DirectoryIndex index.php index.html",
    '<FilesMatch "\\.php$">',
    "  SetHandler application/x-httpd-php",
    "</FilesMatch>",
    `<Directory "${join(site.dir, "htdocs")}">`,
    "  Require all granted",
    "</Directory>",
    siteBlock,
  ].join("\n");
}

export type { RunningApache };

function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    get(url, { rejectUnauthorized: false }, (response) => {
      response.resume();
      resolve(true);
    }).on("error", () => resolve(false));
  });
}

/** Apache (apache-process.ts) with the doc's site; answers once it serves the signed-out page over TLS. */
export async function startApache(
  site: ApacheSite,
  kpiIdOrigin: string,
  client: { id: string; secret: string },
): Promise<RunningApache> {
  const htdocs = join(site.dir, "htdocs");
  mkdirSync(join(htdocs, "protected"), { recursive: true, mode: 0o755 });
  writeFileSync(join(htdocs, "protected", "index.php"), protectedPage(), { mode: 0o644 });
  writeFileSync(
    join(htdocs, "signed-out.html"),
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>Signed out</title><p data-testid="signed-out">Signed out of the library</p></html>',
    { mode: 0o644 },
  );
  writeFileSync(
    join(site.dir, "httpd.conf"),
    `${apacheConfiguration(site, renderConfiguration(site, kpiIdOrigin, client))}\n`,
  );
  return runApache(site.dir, "Apache with mod_auth_openidc", () => answers(`${site.origin}/signed-out.html`));
}
