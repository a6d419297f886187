import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { apacheModules, phpModule, type RunningApache, runApache } from "./apache-process.ts";
import { keyMaterial } from "./key-material.ts";
import { freePort } from "./listening.ts";

/**
 * Debian's SimpleSAMLphp (1.19) as another university's identity provider, under Debian's Apache with mod_php: the
 * home institution of a visiting researcher (issue 78). Its users, their attributes and whether it reports REFEDS
 * MFA for them are the test's; everything else is SimpleSAMLphp's own SAML: its AuthnRequest handling, its signed
 * and (when asked) encrypted assertions, its metadata.
 */

export interface HomeUser {
  password: string;
  /** SAML attribute URI name → values, released as they are (attributes.NameFormat uri). */
  attributes: Record<string, string[]>;
  /** The institution reports https://refeds.org/profile/mfa for this user. */
  multiFactor?: boolean;
}

export interface HomeIdpOptions {
  /** shibmd:Scope in its metadata. */
  scope: string;
  names: { en: string; uk: string };
  sp: { entityId: string; acs: string; certificatePem: string };
  encryptAssertions: boolean;
  users: Record<string, HomeUser>;
}

export interface HomeIdp extends RunningApache {
  entityId: string;
  /** Its metadata, as SimpleSAMLphp publishes it. */
  metadata(): Promise<string>;
  /** Follows an AuthnRequest address to the login form, signs in as the user; answers the form's SAMLResponse. */
  signIn(authnRequestUrl: string, username: string, password: string): Promise<string>;
}

const php = (value: unknown): string => {
  if (Array.isArray(value)) return `[${value.map(php).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `[${Object.entries(value)
      .map(([key, each]) => `${php(key)} => ${php(each)}`)
      .join(", ")}]`;
  if (typeof value === "boolean") return value ? "true" : "false";
  return `'${String(value).replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
};

function writeConfiguration(dir: string, origin: string, options: HomeIdpOptions, entityId: string) {
  for (const sub of ["config", "metadata", "data", "tmp", "log", "sessions"])
    mkdirSync(join(dir, sub), { mode: 0o777 });
  for (const sub of ["data", "tmp", "log", "sessions"]) chmodSync(join(dir, sub), 0o777);
  // Made once per worker (support/key-material.ts).
  keyMaterial("simplesamlphp rsa:2048 /CN=home-idp 2 days", dir, (folder) =>
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=home-idp"].concat([
        ...["-keyout", join(folder, "idp.key"), "-out", join(folder, "idp.crt")],
      ]),
      { stdio: "ignore" },
    ),
  );
  chmodSync(join(dir, "idp.key"), 0o644);
  writeFileSync(join(dir, "sp.crt"), options.sp.certificatePem, { mode: 0o644 });
  const settings: Record<string, unknown> = {
    baseurlpath: `${origin}/simplesamlphp/`,
    certdir: `${dir}/`,
    loggingdir: `${dir}/log/`,
    datadir: `${dir}/data/`,
    tempdir: `${dir}/tmp`,
    metadatadir: `${dir}/metadata/`,
    secretsalt: "home-university-test-salt",
    "auth.adminpassword": "home-admin-test",
    "enable.saml20-idp": true,
    "store.type": "phpsession",
    "session.phpsession.savepath": `${dir}/sessions`,
    "session.cookie.secure": false,
    "logging.handler": "file",
    "admin.checkforupdates": false,
    timezone: "UTC",
  };
  writeFileSync(
    join(dir, "config", "config.php"),
    [
      "<?php",
      "include '/etc/simplesamlphp/config.php';",
      ...Object.entries(settings).map(([key, value]) => `$config[${php(key)}] = ${php(value)};`),
      "$config['session.cookie.samesite'] = null;",
      "$config['module.enable']['exampleauth'] = true;",
      "",
    ].join("\n"),
  );
  const users = Object.fromEntries(
    Object.entries(options.users).map(([name, user]) => [
      `${name}:${user.password}`,
      { ...user.attributes, ...(user.multiFactor ? { "kpi-test-mfa": ["yes"] } : {}) },
    ]),
  );
  writeFileSync(
    join(dir, "config", "authsources.php"),
    // exampleauth:UserPass reads "user:password" keys beside its class name at index 0.
    `<?php\n$config = ${php({ admin: ["core:AdminPassword"], "home-users": { 0: "exampleauth:UserPass", ...users } })};\n`,
  );
  // How a home IdP reports REFEDS MFA for a person who proved it; the marker attribute itself is never released.
  const mfa = `if (isset($attributes['kpi-test-mfa'])) { $state['saml:AuthnContextClassRef'] = 'https://refeds.org/profile/mfa'; } unset($attributes['kpi-test-mfa']);`;
  const hosted = {
    host: "__DEFAULT__",
    privatekey: "idp.key",
    certificate: "idp.crt",
    auth: "home-users",
    scope: [options.scope],
    UIInfo: { DisplayName: options.names },
    "attributes.NameFormat": "urn:oasis:names:tc:SAML:2.0:attrname-format:uri",
    "signature.algorithm": "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    // Only signed AuthnRequests (its metadata then says WantAuthnRequestsSigned).
    "validate.authnrequest": true,
    authproc: { 10: { class: "core:PHP", code: mfa } },
  };
  writeFileSync(
    join(dir, "metadata", "saml20-idp-hosted.php"),
    `<?php\n$metadata[${php(entityId)}] = ${php(hosted)};\n`,
  );
  const remote = {
    AssertionConsumerService: options.sp.acs,
    certificate: "sp.crt",
    "assertion.encryption": options.encryptAssertions,
    NameIDFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
    "simplesaml.nameidattribute": "urn:oasis:names:tc:SAML:attribute:subject-id",
  };
  writeFileSync(
    join(dir, "metadata", "saml20-sp-remote.php"),
    `<?php\n$metadata[${php(options.sp.entityId)}] = ${php(remote)};\n`,
  );
  for (const file of [
    "config/config.php",
    "config/authsources.php",
    "metadata/saml20-idp-hosted.php",
    "metadata/saml20-sp-remote.php",
  ])
    chmodSync(join(dir, file), 0o644);
}

function apacheConfiguration(dir: string, port: number): string {
  return [
    `ServerRoot "${dir}"`,
    `DefaultRuntimeDir "${dir}"`,
    `PidFile "${join(dir, "httpd.pid")}"`,
    `Listen 127.0.0.1:${port}`,
    "ServerName localhost",
    ...["mpm_prefork", "authz_core", "alias", "env", "mime", "dir"].map(
      (name) => `LoadModule ${name}_module ${apacheModules}/mod_${name}.so`,
    ),
    `LoadModule php_module ${apacheModules}/${phpModule()}`,
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${join(dir, "error.log")}"`,
    "TypesConfig /etc/mime.types",
    "DirectoryIndex index.php",
    `SetEnv SIMPLESAMLPHP_CONFIG_DIR ${join(dir, "config")}`,
    "Alias /simplesamlphp /usr/share/simplesamlphp/www",
    "<Directory /usr/share/simplesamlphp/www/>",
    "  Require all granted",
    '  <FilesMatch "\\.php$">',
    "    SetHandler application/x-httpd-php",
    "  </FilesMatch>",
    "</Directory>",
    "",
  ].join("\n");
}

/** A browser's cookie jar for one walk through SimpleSAMLphp's pages. */
function cookieJar() {
  const jar = new Map<string, string>();
  return {
    header: () => [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
    keep(response: Response) {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        jar.set(pair.slice(0, at), pair.slice(at + 1));
      }
    },
  };
}

const unescapeHtml = (value: string) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#039;/g, "'");

async function walk(url: string, jar: ReturnType<typeof cookieJar>, init: RequestInit = {}) {
  let response = await fetch(url, { ...init, redirect: "manual", headers: { ...init.headers, cookie: jar.header() } });
  jar.keep(response);
  let at = url;
  while (response.status >= 300 && response.status < 400) {
    at = new URL(response.headers.get("location") ?? "", at).href;
    response = await fetch(at, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.keep(response);
  }
  return { at, page: await response.text(), status: response.status };
}

/** Starts SimpleSAMLphp on a free loopback port; stop() ends Apache and removes its folder. */
export async function startHomeIdp(options: HomeIdpOptions): Promise<HomeIdp> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const entityId = `${origin}/simplesamlphp/saml2/idp/metadata.php`;
  const dir = mkdtempSync(join(tmpdir(), "kpi-id-simplesamlphp-"));
  chmodSync(dir, 0o755);
  writeConfiguration(dir, origin, options, entityId);
  writeFileSync(join(dir, "httpd.conf"), apacheConfiguration(dir, port));
  const metadata = async () => (await fetch(entityId)).text();
  const running = await runApache(dir, "SimpleSAMLphp", () =>
    metadata().then(
      (xml) => xml.includes("IDPSSODescriptor"),
      () => false,
    ),
  );
  async function signIn(authnRequestUrl: string, username: string, password: string): Promise<string> {
    const jar = cookieJar();
    const form = await walk(authnRequestUrl, jar);
    const action = form.page.match(/<form[^>]*action="([^"]*)"/)?.[1];
    if (!action) throw new Error(`no login form from SimpleSAMLphp (${form.status}): ${form.page.slice(0, 500)}`);
    const hidden = [...form.page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
      (match) => [match[1] ?? "", unescapeHtml(match[2] ?? "")] as [string, string],
    );
    const body = new URLSearchParams([...hidden, ["username", username], ["password", password]]);
    const answered = await walk(new URL(unescapeHtml(action), form.at).href, jar, { method: "POST", body });
    const response = answered.page.match(/name="SAMLResponse" value="([^"]*)"/)?.[1];
    if (!response) throw new Error(`SimpleSAMLphp did not answer (${answered.status}): ${answered.page.slice(0, 500)}`);
    return unescapeHtml(response);
  }
  return { ...running, entityId, metadata, signIn };
}
