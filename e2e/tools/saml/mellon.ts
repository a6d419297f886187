import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { accessLogDirectives } from "../apache-access-log.ts";
import type { SamlHarness } from "./federation.ts";

const modules = "/usr/lib/apache2/modules";

/** The attributes mellon puts in the environment, by the names our assertion gives them. */
const mellonNames: Record<string, string> = {
  eppn: "urn:oid:1.3.6.1.4.1.5923.1.1.1.6",
  mail: "urn:oid:0.9.2342.19200300.100.1.3",
  displayName: "urn:oid:2.16.840.1.113730.3.1.241",
  scopedAffiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.9",
  affiliation: "urn:oid:1.3.6.1.4.1.5923.1.1.1.1",
};

/**
 * Debian's Apache with mod_auth_mellon as a second, independent SP, on loopback: /secure/
 * needs a SAML sign-in and shows (server-side includes) what mellon put in the environment;
 * /mellon/login?ReturnTo=…&IsPassive=true asks passively; /mellon/logout signs out (SLO).
 */
/** mellon's error log, where it says why an answer did not sign anyone in. */
export const mellonErrorLog = (harness: SamlHarness) => join(harness.dir, "apache", "error.log");
/** mellon's Apache folder, whose access log (apache-access-log.ts) shows each LogoutRequest it was sent. */
export const mellonRoot = (harness: SamlHarness) => join(harness.dir, "apache");

export async function startMellon(harness: SamlHarness, idpUrl: string): Promise<ChildProcess> {
  const { mellon } = harness;
  const root = join(harness.dir, "apache");
  mkdirSync(join(root, "htdocs", "secure"), { recursive: true });
  const idpMetadataFile = join(root, "idp-metadata.xml");
  writeFileSync(idpMetadataFile, await (await fetch(`${idpUrl}/saml/metadata`)).text());
  writeFileSync(
    join(root, "htdocs", "secure", "index.shtml"),
    `<!doctype html><html><head><meta charset="utf-8"><title>mellon SP</title></head><body><ul data-testid="mellon-attributes">${Object.keys(
      mellonNames,
    )
      .map((name) => `<li data-attribute="${name}"><!--#echo var="MELLON_${name}" --></li>`)
      .join(
        "",
      )}</ul><p data-testid="mellon-name-id"><!--#echo var="MELLON_NAME_ID" --></p><a href="/mellon/logout?ReturnTo=/signed-out.html">Sign out</a></body></html>`,
  );
  writeFileSync(
    join(root, "htdocs", "signed-out.html"),
    '<!doctype html><html><head><meta charset="utf-8"><title>mellon SP</title></head><body><p data-testid="mellon-signed-out">Signed out</p></body></html>',
  );
  const port = new URL(mellon.url).port;
  const config = [
    `ServerRoot "${root}"`,
    `DefaultRuntimeDir "${root}"`,
    `PidFile "${join(root, "httpd.pid")}"`,
    `Listen 127.0.0.1:${port}`,
    "ServerName localhost",
    ...["mpm_event", "authn_core", "authz_core", "authz_user", "env", "include", "dir", "auth_mellon"].map(
      (name) =>
        `LoadModule ${name === "auth_mellon" ? "auth_mellon_module" : `${name}_module`} ${modules}/mod_${name}.so`,
    ),
    // Apache refuses to serve as root; as anyone else it ignores these.
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${join(root, "error.log")}"`,
    "LogLevel warn auth_mellon:info",
    ...accessLogDirectives(root),
    `DocumentRoot "${join(root, "htdocs")}"`,
    "DirectoryIndex index.shtml index.html",
    '<FilesMatch "\\.shtml$">',
    "  ForceType text/html",
    "  SetOutputFilter INCLUDES",
    "</FilesMatch>",
    `<Directory "${join(root, "htdocs")}">`,
    "  Options +Includes",
    "  Require all granted",
    "</Directory>",
    "<Location />",
    '  MellonEnable "info"',
    '  MellonEndpointPath "/mellon"',
    `  MellonSPPrivateKeyFile "${mellon.keyFile}"`,
    `  MellonSPCertFile "${mellon.certFile}"`,
    `  MellonSPMetadataFile "${mellon.metadataFile}"`,
    `  MellonIdPMetadataFile "${idpMetadataFile}"`,
    "  MellonSecureCookie Off",
    // mellon marks its cookie SameSite=None, which Chrome drops without Secure (plain http
    // here); without the attribute it is Lax, enough since the IdP is same-site (localhost).
    "  SetEnv MELLON_DISABLE_SAMESITE 1",
    '  MellonVariable "mellon-e2e"',
    ...Object.entries(mellonNames).map(([name, oid]) => `  MellonSetEnv "${name}" "${oid}"`),
    "</Location>",
    "<Location /secure>",
    "  AuthType Mellon",
    '  MellonEnable "auth"',
    "  Require valid-user",
    "</Location>",
  ].join("\n");
  const configFile = join(root, "httpd.conf");
  writeFileSync(configFile, `${config}\n`);
  const apache = spawn("/usr/sbin/apache2", ["-f", configFile, "-DFOREGROUND"], { stdio: "inherit" });
  // Ready when it answers.
  for (let attempt = 0; attempt < 100; attempt++) {
    if (apache.exitCode !== null) throw new Error(`apache2 exited with ${apache.exitCode}; see ${root}/error.log`);
    const answered = await fetch(`${mellon.url}/signed-out.html`).then(
      (response) => response.ok,
      () => false,
    );
    if (answered) return apache;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  apache.kill();
  throw new Error(`apache2 did not answer on ${mellon.url}`);
}
