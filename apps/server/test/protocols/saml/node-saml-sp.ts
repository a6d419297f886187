import { SAML, ValidateInResponseTo } from "@node-saml/node-saml";
import { makeKeyPair, type TestKeyPair } from "./keys.ts";

export interface NodeSamlSp {
  saml: SAML;
  entityId: string;
  acsUrl: string;
  sloUrl: string;
  signing: TestKeyPair;
  encryption: TestKeyPair;
  metadata: string;
}

export interface NodeSamlSpOptions {
  entityId?: string;
  baseUrl?: string;
  idpUrl: string;
  /** One certificate, or every signing certificate the IdP's metadata lists (during a rollover). */
  idpCertificate: string | string[];
  signRequests?: boolean;
  /** For tests that move the IdP's clock ahead of the real one (0: none). */
  acceptedClockSkewMs?: number;
  forceAuthn?: boolean;
  passive?: boolean;
  authnContext?: string[];
  /** Entity categories (e.g. REFEDS R&S) the federation tagged the SP with, as mdattr:EntityAttributes. */
  entityCategories?: string[];
  /** Refuse a Response whose outer element is unsigned (as stock pysaml2 and SATOSA do). */
  wantResponseSigned?: boolean;
}

/** The federation's tags, where metadata carries them: the first child of the EntityDescriptor. */
function withEntityCategories(metadata: string, categories: string[]): string {
  if (categories.length === 0) return metadata;
  const values = categories.map((category) => `<saml:AttributeValue>${category}</saml:AttributeValue>`).join("");
  const extensions =
    '<Extensions><mdattr:EntityAttributes xmlns:mdattr="urn:oasis:names:tc:SAML:metadata:attribute">' +
    '<saml:Attribute xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" Name="http://macedir.org/entity-category" ' +
    `NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri">${values}</saml:Attribute>` +
    "</mdattr:EntityAttributes></Extensions>";
  return metadata.replace(/(<EntityDescriptor[^>]*>)/, `$1${extensions}`);
}

/** A service provider built with @node-saml/node-saml (the library behind passport-saml), as SP owners run it. */
export function nodeSamlSp(options: NodeSamlSpOptions): NodeSamlSp {
  const baseUrl = options.baseUrl ?? "https://sp.example.org";
  const entityId = options.entityId ?? `${baseUrl}/shibboleth`;
  const signing = makeKeyPair("sp-signing");
  const encryption = makeKeyPair("sp-encryption");
  const acsUrl = `${baseUrl}/saml/acs`;
  const sloUrl = `${baseUrl}/saml/slo`;
  const saml = new SAML({
    issuer: entityId,
    callbackUrl: acsUrl,
    logoutCallbackUrl: sloUrl,
    entryPoint: `${options.idpUrl}/saml/sso`,
    logoutUrl: `${options.idpUrl}/saml/slo`,
    idpIssuer: `${options.idpUrl}/saml/metadata`,
    idpCert: options.idpCertificate,
    audience: entityId,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: options.wantResponseSigned ?? false,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "sha256",
    ...(options.signRequests === false ? {} : { privateKey: signing.privateKeyPem }),
    decryptionPvk: encryption.privateKeyPem,
    identifierFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent",
    forceAuthn: options.forceAuthn ?? false,
    passive: options.passive ?? false,
    authnContext: options.authnContext ?? ["urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"],
    racComparison: "minimum",
    disableRequestedAuthnContext: options.authnContext === undefined,
    validateInResponseTo: ValidateInResponseTo.never,
    acceptedClockSkewMs: options.acceptedClockSkewMs ?? 0,
  });
  const metadata = withEntityCategories(
    saml.generateServiceProviderMetadata(encryption.certificatePem, signing.certificatePem),
    options.entityCategories ?? [],
  );
  return { saml, entityId, acsUrl, sloUrl, signing, encryption, metadata };
}
