import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apacheModules as modules, phpModule, type RunningApache, runApache } from "./apache-process.ts";
import { HttpVisitor } from "./http-visitor.ts";
import { keyMaterial } from "./key-material.ts";
import { freePort } from "./listening.ts";

/**
 * One Apache (Debian's apache2 with mod_auth_cas, mod_auth_openidc and mod_php) serving every Apache example the
 * docs print, each as rendered by its test: docs/cas.md's mod_auth_cas block inside the site's https virtual host,
 * and docs/mod-auth-openidc.md's virtual host as it stands. Behind every location is the same PHP page, which
 * answers with what an application there receives: REMOTE_USER and every request header.
 */

export interface ApachePlaces {
  dir: string;
  certFile: string;
  keyFile: string;
  /** mod_auth_cas's session files: writable by Apache's worker only in production, by anyone here. */
  casCookieDir: string;
  /** The mod_auth_cas site's document root, with the echo page in every location its block names. */
  casDocumentRoot: string;
  /** The mod_auth_openidc site's document root (its block's DocumentRoot). */
  oidcDocumentRoot: string;
  casPort: number;
  oidcPort: number;
  casOrigin: string;
  oidcOrigin: string;
}

/** Folders Apache's worker (www-data when the suite runs as root) can read, ports, and a certificate for both sites. */
export async function prepareApache(): Promise<ApachePlaces> {
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-apache-examples-"));
  chmodSync(dir, 0o755);
  const certFile = join(dir, "site.pem");
  const keyFile = join(dir, "site.key");
  // Made once per worker (support/key-material.ts).
  keyMaterial("apache P-256 /CN=localhost 1 day", dir, (folder) =>
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"],
        ...["-keyout", join(folder, "site.key"), "-out", join(folder, "site.pem"), "-subj", "/CN=localhost"],
        ...["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ],
      { stdio: "ignore" },
    ),
  );
  // A throw-away key that Apache's worker reads.
  chmodSync(keyFile, 0o644);
  const casCookieDir = join(dir, "cas-cookies");
  mkdirSync(casCookieDir, { mode: 0o777 });
  chmodSync(casCookieDir, 0o777);
  const [casPort, oidcPort] = [await freePort(), await freePort()];
  return {
    dir,
    certFile,
    keyFile,
    casCookieDir,
    casDocumentRoot: join(dir, "cas-site"),
    oidcDocumentRoot: join(dir, "oidc-site"),
    casPort,
    oidcPort,
    casOrigin: `https://localhost:${casPort}`,
    oidcOrigin: `https://localhost:${oidcPort}`,
  };
}

/** What the application behind Apache receives, as JSON: the person Apache names and every request header. */
const echoPage = `<?php
header('Content-Type: application/json');
$environment = [];
foreach ($_SERVER as $name => $value) {
  if ($name === 'REMOTE_USER' || strncmp($name, 'HTTP_', 5) === 0) $environment[$name] = $value;
}
echo json_encode(['headers' => getallheaders(), 'environment' => $environment]);
`;

export interface ApplicationView {
  headers: Record<string, string>;
  environment: Record<string, string>;
}

/** The paths a block protects or rewrites to (`<Location /secure/>`, `RewriteRule … /news-public/ [PT]`). */
function pagesOf(block: string): string[] {
  const locations = [...block.matchAll(/<Location\s+([^>\s]+)>/g)].map((match) => match[1] ?? "/");
  const rewritten = [...block.matchAll(/^\s*RewriteRule\s+\S+\s+(\/\S*)/gm)].map((match) => match[1] ?? "/");
  return [...new Set([...locations, ...rewritten])];
}

function writeEchoPages(root: string, paths: string[]): void {
  for (const path of paths) {
    const folder = join(root, path);
    mkdirSync(folder, { recursive: true, mode: 0o755 });
    writeFileSync(join(folder, "index.php"), echoPage, { mode: 0o644 });
  }
}

function configuration(places: ApachePlaces, casBlock: string, oidcSite: string): string {
  const loaded = ["authn_core", "authz_core", "authz_user", "dir", "mime", "ssl", "socache_shmcb"];
  return [
    `ServerRoot "${places.dir}"`,
    `DefaultRuntimeDir "${places.dir}"`,
    `PidFile "${join(places.dir, "httpd.pid")}"`,
    `Listen 127.0.0.1:${places.casPort}`,
    `Listen 127.0.0.1:${places.oidcPort}`,
    "ServerName localhost",
    // mod_php needs the prefork MPM; the examples' rewrite and header rules need their modules.
    ...["mpm_prefork", ...loaded, "rewrite", "setenvif", "headers"].map(
      (name) => `LoadModule ${name}_module ${modules}/mod_${name}.so`,
    ),
    `LoadModule php_module ${modules}/${phpModule()}`,
    `LoadModule auth_cas_module ${modules}/mod_auth_cas.so`,
    `LoadModule auth_openidc_module ${modules}/mod_auth_openidc.so`,
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${join(places.dir, "error.log")}"`,
    "LogLevel warn",
    `SSLSessionCache "shmcb:${join(places.dir, "ssl_scache")}(512000)"`,
    "TypesConfig /etc/mime.types",
    "DirectoryIndex index.php",
    '<FilesMatch "\\.php$">',
    "  SetHandler application/x-httpd-php",
    "</FilesMatch>",
    `<Directory "${places.dir}">`,
    "  Require all granted",
    "</Directory>",
    // docs/cas.md's block goes inside the site's https virtual host, whose ServerName is the site's name.
    `<VirtualHost 127.0.0.1:${places.casPort}>`,
    "  ServerName localhost",
    `  DocumentRoot "${places.casDocumentRoot}"`,
    "  SSLEngine on",
    `  SSLCertificateFile ${places.certFile}`,
    `  SSLCertificateKeyFile ${places.keyFile}`,
    casBlock,
    "</VirtualHost>",
    oidcSite,
  ].join("\n");
}

export type { RunningApache };

/** Apache with both sites; answers once it serves both over TLS. */
export async function startApache(places: ApachePlaces, casBlock: string, oidcSite: string): Promise<RunningApache> {
  writeEchoPages(places.casDocumentRoot, pagesOf(casBlock));
  writeEchoPages(places.oidcDocumentRoot, pagesOf(oidcSite));
  writeFileSync(join(places.dir, "httpd.conf"), `${configuration(places, casBlock, oidcSite)}\n`);
  const probe = new HttpVisitor([readFileSync(places.certFile, "utf8")]);
  const answers = (origin: string) =>
    probe.get(`${origin}/favicon.ico`).then(
      () => true,
      () => false,
    );
  return runApache(places.dir, "Apache with the documented examples", async () => {
    return (await answers(places.casOrigin)) && (await answers(places.oidcOrigin));
  });
}
