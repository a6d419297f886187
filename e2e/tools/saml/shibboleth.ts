import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SamlHarness } from "./federation.ts";

const modules = "/usr/lib/apache2/modules";

/** The attributes the SSI page shows, by the ids Shibboleth's attribute map gives them. */
export const shibbolethAttributeIds = ["eppn", "affiliation", "mail", "displayName", "persistent-id"] as const;

/**
 * Debian's attribute map as a deployment starts from, with the two lines most deployments uncomment
 * (mail, displayName). eppn and affiliation are scoped: Debian's attribute policy keeps a value only when
 * its scope is one the IdP's metadata declares (shibmd:Scope), as in any federation.
 */
function attributeMap(): string {
  const debian = readFileSync("/etc/shibboleth/attribute-map.xml", "utf8");
  const extra =
    '<Attribute name="urn:oid:0.9.2342.19200300.100.1.3" id="mail"/>' +
    '<Attribute name="urn:oid:2.16.840.1.113730.3.1.241" id="displayName"/>';
  return debian.replace("</Attributes>", `${extra}\n</Attributes>`);
}

const postBinding = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST";

/**
 * KPI ID's metadata as an SP fetched it before KPI ID published the Algorithm Support profile (alg:DigestMethod,
 * alg:SigningMethod): with no say from the IdP, Shibboleth SP 3.4 signs its HTTP-POST requests with RSA-SHA1.
 */
export function withoutAlgorithmSupport(metadata: string): string {
  return metadata.replace(/<alg:(?:DigestMethod|SigningMethod)\b[^>]*?(?:\/>|>[\s\S]*?<\/alg:\w+>)/g, "");
}

/** log4shib to standard error: shibd's goes to the test's output, mod_shib's to Apache's error log. */
const consoleLogger = [
  "log4j.rootCategory=WARN, CONSOLE",
  "log4j.category.Shibboleth.SSO.SAML2=INFO",
  "log4j.appender.CONSOLE=org.apache.log4j.ConsoleAppender",
  "log4j.appender.CONSOLE.layout=org.apache.log4j.PatternLayout",
  "log4j.appender.CONSOLE.layout.ConversionPattern=shibboleth %p %c: %m%n",
].join("\n");

/**
 * shibboleth2.xml as the SP's documentation writes it, for plain http on loopback (handlerSSL and
 * cookieProps), talking to shibd over TCP, signing its requests, and trusting KPI ID's metadata as fetched.
 */
function shibbolethConfig(dir: string, harness: SamlHarness, idpEntityId: string, idpMetadataFile: string): string {
  const { shibboleth } = harness;
  return `<SPConfig xmlns="urn:mace:shibboleth:3.0:native:sp:config" xmlns:conf="urn:mace:shibboleth:3.0:native:sp:config" clockSkew="180">
  <OutOfProcess logger="${join(dir, "console.logger")}"/>
  <InProcess logger="${join(dir, "console.logger")}"/>
  <TCPListener address="127.0.0.1" port="${shibboleth.listenerPort}" acl="127.0.0.1"/>
  <ApplicationDefaults entityID="${shibboleth.entityId}" REMOTE_USER="eppn persistent-id" signing="true" encryption="false">
    <Sessions lifetime="28800" timeout="3600" relayState="ss:mem" checkAddress="false" handlerSSL="false" cookieProps="http" redirectLimit="exact">
      <SSO entityID="${idpEntityId}">SAML2</SSO>
      <Logout>SAML2 Local</Logout>
      <!-- The same request by the other binding: /Shibboleth.sso/LoginPost sends a signed HTTP-POST AuthnRequest. -->
      <SessionInitiator type="SAML2" Location="/LoginPost" entityID="${idpEntityId}" outgoingBindings="${postBinding}"/>
      <Handler type="MetadataGenerator" Location="/Metadata" signing="false"/>
      <Handler type="Session" Location="/Session" showAttributeValues="true"/>
    </Sessions>
    <!-- As deployments that use isPassive do: Shibboleth reports a failed passive request as an error, sent here. -->
    <Errors supportContact="root@localhost" helpLocation="/about.html" styleSheet="/shibboleth-sp/main.css" redirectErrors="${shibboleth.url}/public/"/>
    <MetadataProvider type="XML" validate="true" path="${idpMetadataFile}"/>
    <AttributeExtractor type="XML" validate="true" reloadChanges="false" path="${join(dir, "attribute-map.xml")}"/>
    <AttributeFilter type="XML" validate="true" path="/etc/shibboleth/attribute-policy.xml"/>
    <CredentialResolver type="File" key="${shibboleth.keyFile}" certificate="${shibboleth.certFile}"/>
  </ApplicationDefaults>
  <SecurityPolicyProvider type="XML" validate="true" path="/etc/shibboleth/security-policy.xml"/>
  <ProtocolProvider type="XML" validate="true" reloadChanges="false" path="/etc/shibboleth/protocols.xml"/>
</SPConfig>
`;
}

/** The page behind the SP: what mod_shib put in the environment, by attribute id. */
function secureIndex(): string {
  const attributes = shibbolethAttributeIds
    .map((id) => `<li data-attribute="${id}"><!--#echo var="${id}" --></li>`)
    .join("");
  return (
    '<!doctype html><html><head><meta charset="utf-8"><title>Shibboleth SP</title></head><body>' +
    `<ul data-testid="shibboleth-attributes">${attributes}</ul>` +
    '<p data-testid="shibboleth-authn-context"><!--#echo var="Shib-AuthnContext-Class" --></p>' +
    '<p data-testid="shibboleth-session"><!--#echo var="Shib-Session-ID" --></p>' +
    "</body></html>"
  );
}

export interface RunningShibboleth {
  /** Ends Apache and shibd, and answers once both are gone (their ports free for another start). */
  stop(): Promise<void>;
  /** Apache's error log, where mod_shib and shibd say why an answer did not sign anyone in. */
  errorLog: string;
}

async function waitUntil(ready: () => Promise<boolean>, processes: ChildProcess[], what: string): Promise<void> {
  for (let attempt = 0; attempt < 150; attempt++) {
    const exited = processes.find((child) => child.exitCode !== null);
    if (exited) throw new Error(`${what}: ${exited.spawnfile} exited with ${exited.exitCode}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not become ready`);
}

/**
 * Debian's Shibboleth SP 3 (shibd and Apache's mod_shib) on loopback as a third, independent SP:
 * /secure/ needs a session and shows the attributes; /public/ shows them if there is one;
 * /Shibboleth.sso/Login?target=…&forceAuthn=1|isPassive=1 is its own way to ask for a sign-in.
 */
export async function startShibboleth(
  harness: SamlHarness,
  idpUrl: string,
  options: { metadata?: (fetched: string) => string } = {},
): Promise<RunningShibboleth> {
  const { shibboleth } = harness;
  const root = join(harness.dir, "shibboleth");
  for (const page of ["secure", "public"]) mkdirSync(join(root, "htdocs", page), { recursive: true });
  const fetched = await (await fetch(`${idpUrl}/saml/metadata`)).text();
  const idpMetadata = options.metadata ? options.metadata(fetched) : fetched;
  const idpEntityId = /entityID="([^"]+)"/.exec(idpMetadata)?.[1] ?? `${idpUrl}/saml/metadata`;
  const idpMetadataFile = join(root, "idp-metadata.xml");
  writeFileSync(idpMetadataFile, idpMetadata);
  writeFileSync(join(root, "attribute-map.xml"), attributeMap());
  writeFileSync(join(root, "console.logger"), `${consoleLogger}\n`);
  const configFile = join(root, "shibboleth2.xml");
  writeFileSync(configFile, shibbolethConfig(root, harness, idpEntityId, idpMetadataFile));
  for (const page of ["secure", "public"]) writeFileSync(join(root, "htdocs", page, "index.shtml"), secureIndex());

  const shibd = spawn("/usr/sbin/shibd", ["-F", "-f", "-c", configFile, "-p", join(root, "shibd.pid")], {
    stdio: "inherit",
  });
  const port = new URL(shibboleth.url).port;
  const errorLog = join(root, "error.log");
  const apacheConfig = [
    `ServerRoot "${root}"`,
    `DefaultRuntimeDir "${root}"`,
    `PidFile "${join(root, "httpd.pid")}"`,
    `Listen 127.0.0.1:${port}`,
    "ServerName localhost",
    ...["mpm_event", "authn_core", "authz_core", "authz_user", "include", "dir", "alias"].map(
      (name) => `LoadModule ${name}_module ${modules}/mod_${name}.so`,
    ),
    `LoadModule mod_shib ${modules}/mod_shib.so`,
    ...(process.getuid?.() === 0 ? ["User www-data", "Group www-data"] : []),
    `ErrorLog "${errorLog}"`,
    "LogLevel warn",
    `ShibConfig "${configFile}"`,
    "ShibCompatValidUser Off",
    `DocumentRoot "${join(root, "htdocs")}"`,
    "DirectoryIndex index.shtml",
    '<FilesMatch "\\.shtml$">',
    "  ForceType text/html",
    "  SetOutputFilter INCLUDES",
    "</FilesMatch>",
    `<Directory "${join(root, "htdocs")}">`,
    "  Options +Includes",
    "  Require all granted",
    "</Directory>",
    "<Location /Shibboleth.sso>",
    "  AuthType None",
    "  Require all granted",
    "</Location>",
    "Alias /shibboleth-sp/main.css /usr/share/shibboleth/main.css",
    "<Location /secure>",
    "  AuthType shibboleth",
    "  ShibRequestSetting requireSession 1",
    "  ShibUseEnvironment On",
    "  Require shib-session",
    "</Location>",
    "<Location /public>",
    "  AuthType shibboleth",
    "  ShibRequestSetting requireSession 0",
    "  ShibUseEnvironment On",
    "  Require shibboleth",
    "</Location>",
  ].join("\n");
  const apacheConfigFile = join(root, "httpd.conf");
  writeFileSync(apacheConfigFile, `${apacheConfig}\n`);
  const stop = async () => {
    const running = [apache, shibd].filter((child) => child !== undefined && child.exitCode === null);
    const exited = running.map((child) => new Promise((resolve) => child?.once("exit", resolve)));
    for (const child of running) child?.kill("SIGTERM");
    await Promise.race([Promise.all(exited), new Promise((resolve) => setTimeout(resolve, 10_000))]);
  };
  let apache: ChildProcess | undefined;
  try {
    // shibd has loaded its configuration and KPI ID's metadata once its status handler answers through Apache.
    apache = spawn("/usr/sbin/apache2", ["-f", apacheConfigFile, "-DFOREGROUND"], { stdio: "inherit" });
    const running = [shibd, apache];
    await waitUntil(
      () =>
        fetch(`${shibboleth.url}/Shibboleth.sso/Metadata`).then(
          (response) => response.ok,
          () => false,
        ),
      running,
      `Shibboleth SP on ${shibboleth.url} (see ${errorLog})`,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop, errorLog };
}
