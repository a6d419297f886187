import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { signEnveloped } from "@kpi-id/server/saml-testing";
import { SAML } from "@node-saml/node-saml";

/**
 * The two service providers of the SAML end-to-end tests and the federation that introduces
 * them to KPI ID, written before the server starts (e2e/playwright.config.ts): the server
 * reads the signed aggregate through SAML_FEDERATION_* as an operator's deployment would
 * (docs/saml.md), because the embedded database cannot be reached by the CLI while it runs.
 */
export interface SamlHarness {
  dir: string;
  aggregateFile: string;
  federationCertFile: string;
  nodeSaml: { url: string; entityId: string; keyFile: string; certFile: string };
  mellon: { url: string; entityId: string; keyFile: string; certFile: string; metadataFile: string };
  /** Apache with mod_shib and shibd (Debian's Shibboleth SP 3), the SP most research federations run. */
  shibboleth: { url: string; entityId: string; keyFile: string; certFile: string; listenerPort: number };
}

const researchAndScholarship = "http://refeds.org/category/research-and-scholarship";

function keyPair(dir: string, name: string) {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  if (!existsSync(certFile))
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", `/CN=${name}`, "-days", "30"].concat([
        "-keyout",
        keyFile,
        "-out",
        certFile,
      ]),
      { stdio: "ignore" },
    );
  // Throw-away test keys: Apache's worker (www-data when the harness runs as root) reads the SP's.
  chmodSync(keyFile, 0o644);
  const certificate = readFileSync(certFile, "utf8").replace(/-----[A-Z ]+-----|\s/g, "");
  return { keyFile, certFile, certificate };
}

/** The SP as node-saml describes it; the same options (but the IdP's certificate) run it in the spec. */
export function nodeSamlOptions(url: string, idpUrl: string, privateKeyPem: string, idpCert: string) {
  const entityId = `${url}/metadata`;
  return {
    issuer: entityId,
    audience: entityId,
    callbackUrl: `${url}/acs`,
    logoutCallbackUrl: `${url}/slo`,
    entryPoint: `${idpUrl}/saml/sso`,
    logoutUrl: `${idpUrl}/saml/slo`,
    idpIssuer: `${idpUrl}/saml/metadata`,
    idpCert,
    privateKey: privateKeyPem,
    decryptionPvk: privateKeyPem,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    signatureAlgorithm: "sha256" as const,
    digestAlgorithm: "sha256" as const,
    identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
  };
}

/** Tags an EntityDescriptor with entity categories, as the federation's registrar does. */
function tagged(metadata: string, category: string): string {
  const extensions =
    '<md:Extensions><mdattr:EntityAttributes xmlns:mdattr="urn:oasis:names:tc:SAML:metadata:attribute">' +
    '<saml:Attribute xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Name="http://macedir.org/entity-category" ' +
    `NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"><saml:AttributeValue>${category}</saml:AttributeValue></saml:Attribute>` +
    "</mdattr:EntityAttributes></md:Extensions>";
  return metadata
    .replace(/^<\?xml[^>]*\?>\s*/, "")
    .replace(/<(\w+:)?EntityDescriptor\b([^>]*)>/, (_, prefix = "", rest) => {
      const md = prefix ? "" : ' xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata"';
      return `<${prefix}EntityDescriptor${rest}${md}>${extensions.replaceAll("md:", prefix || "md:")}`;
    });
}

function mellonMetadata(url: string, certificate: string): string {
  const entityId = `${url}/mellon/metadata`;
  const key = (use: string) =>
    `<md:KeyDescriptor use="${use}"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`;
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${entityId}">` +
    `<md:SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `${key("signing")}${key("encryption")}` +
    // mellon's own metadata lists both: SOAP, where KPI ID tells it of a sign-out without a browser, and Redirect.
    `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:SOAP" Location="${url}/mellon/logout"/>` +
    `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${url}/mellon/logout"/>` +
    "<md:NameIDFormat>urn:oasis:names:tc:SAML:2.0:nameid-format:persistent</md:NameIDFormat>" +
    `<md:AssertionConsumerService index="0" Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${url}/mellon/postResponse"/>` +
    "</md:SPSSODescriptor></md:EntityDescriptor>"
  );
}

/**
 * The Shibboleth SP's metadata as its own generator writes it (shib-metagen, the MetadataGenerator handler):
 * booleans as "1" (xs:boolean), one KeyDescriptor for signing and encryption, its handler's endpoints.
 * It signs its AuthnRequests (signing="true" in shibboleth.ts), so the metadata says AuthnRequestsSigned="1".
 */
function shibbolethMetadata(url: string, certificate: string): string {
  const handler = `${url}/Shibboleth.sso`;
  return (
    `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${url}/shibboleth">` +
    '<md:SPSSODescriptor AuthnRequestsSigned="1" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">' +
    `<md:KeyDescriptor><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${handler}/SLO/Redirect"/>` +
    `<md:SingleLogoutService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${handler}/SLO/POST"/>` +
    `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${handler}/SAML2/POST" index="1"/>` +
    "</md:SPSSODescriptor></md:EntityDescriptor>"
  );
}

/** Keys, the SPs' metadata and the federation's signed aggregate (both SPs tagged R&S), in `dir`. */
export function prepareSamlHarness(dir: string, idpUrl: string, portBase: number): SamlHarness {
  mkdirSync(dir, { recursive: true });
  const nodeSamlUrl = `http://localhost:${portBase + 10}`;
  const mellonUrl = `http://localhost:${portBase + 11}`;
  const shibbolethUrl = `http://localhost:${portBase + 14}`;
  const federation = keyPair(dir, "federation");
  const nodeSamlKey = keyPair(dir, "node-saml-sp");
  const mellonKey = keyPair(dir, "mellon-sp");
  const shibbolethKey = keyPair(dir, "shibboleth-sp");
  const privateKeyPem = readFileSync(nodeSamlKey.keyFile, "utf8");
  const nodeSaml = new SAML(nodeSamlOptions(nodeSamlUrl, idpUrl, privateKeyPem, "not-yet-known"));
  const certificatePem = readFileSync(nodeSamlKey.certFile, "utf8");
  const nodeSamlMetadata = nodeSaml.generateServiceProviderMetadata(certificatePem, certificatePem);
  const mellonMetadataXml = mellonMetadata(mellonUrl, mellonKey.certificate);
  const metadataFile = join(dir, "mellon-sp-metadata.xml");
  writeFileSync(metadataFile, mellonMetadataXml);
  const validUntil = new Date(Date.now() + 7 * 86_400_000).toISOString();
  const shibbolethMetadataXml = shibbolethMetadata(shibbolethUrl, shibbolethKey.certificate);
  const entities = [nodeSamlMetadata, mellonMetadataXml, shibbolethMetadataXml]
    .map((xml) => tagged(xml, researchAndScholarship))
    .join("");
  const aggregate = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" ID="_e2e-federation" Name="https://federation.e2e.invalid" validUntil="${validUntil}">${entities}</md:EntitiesDescriptor>`;
  const aggregateFile = join(dir, "aggregate.xml");
  // The workers load the configuration again: the aggregate the server read stays as it is.
  if (!existsSync(aggregateFile))
    writeFileSync(
      aggregateFile,
      signEnveloped(
        aggregate,
        {
          privateKeyPem: readFileSync(federation.keyFile, "utf8"),
          certificatePem: readFileSync(federation.certFile, "utf8"),
        },
        "first",
      ),
    );
  return {
    dir,
    aggregateFile,
    federationCertFile: federation.certFile,
    nodeSaml: { url: nodeSamlUrl, entityId: `${nodeSamlUrl}/metadata`, ...nodeSamlKey },
    mellon: { url: mellonUrl, entityId: `${mellonUrl}/mellon/metadata`, metadataFile, ...mellonKey },
    shibboleth: {
      url: shibbolethUrl,
      entityId: `${shibbolethUrl}/shibboleth`,
      listenerPort: portBase + 15,
      ...shibbolethKey,
    },
  };
}
