import { hkdfSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

export interface LocalizedText {
  uk: string;
  en: string;
}

export interface SamlConfig {
  /** The IdP's entityID: {PUBLIC_URL}/saml/metadata (an address that serves the metadata). */
  entityId: string;
  /** shibmd:Scope and the scope of eduPersonPrincipalName, eduPersonScopedAffiliation, schacHomeOrganization. */
  scope: string;
  displayName: LocalizedText;
  description: LocalizedText;
  informationUrl: LocalizedText;
  privacyUrl: LocalizedText;
  logoUrl: string;
  securityContactEmail: string;
  sirtfi: boolean;
  researchAndScholarship: boolean;
  /** A separate key that signs the metadata document, when the operator configures one (PEM). */
  metadataSigning?: { privateKeyPem: string; certificatePem: string };
  metadataValidDays: number;
  /** Salt of pairwise-id and the persistent NameID; stable across SESSION_SECRET changes when set. */
  pairwiseSalt: string;
  federationRefreshSeconds: number;
  /** A federation whose aggregate the server registers SPs from, configured by environment (docs/saml.md). */
  federation?: ConfiguredFederation;
  /** Where researchers of other universities may sign in from (docs/visitors.md); no federation: nowhere. */
  visitors: { federations: string[]; institutions: string[] };
}

export interface ConfiguredFederation {
  name: string;
  /** A file path or an http(s) address of the signed aggregate. */
  source: string;
  /** The federation's signing certificate (base64 DER). */
  certificate: string;
  entityCategories: string[];
}

/** SAML_FEDERATION_*: the aggregate and its signer's certificate, both or neither. */
function readFederation(environment: Environment): ConfiguredFederation | undefined {
  const source = environment.SAML_FEDERATION_METADATA;
  const certificateFile = environment.SAML_FEDERATION_CERTIFICATE_FILE;
  if (source === undefined && certificateFile === undefined) return undefined;
  if (source === undefined || certificateFile === undefined)
    throw new ConfigError("SAML_FEDERATION_METADATA and SAML_FEDERATION_CERTIFICATE_FILE: set both or neither");
  const certificate = readFileSync(certificateFile, "utf8").replace(/-----[A-Z ]+-----|\s/g, "");
  if (!/^[A-Za-z0-9+/]+=*$/.test(certificate))
    throw new ConfigError("SAML_FEDERATION_CERTIFICATE_FILE: a PEM certificate file");
  const entityCategories = (environment.SAML_FEDERATION_ENTITY_CATEGORIES ?? "")
    .split(",")
    .map((category) => category.trim())
    .filter((category) => category.length > 0);
  return { name: environment.SAML_FEDERATION_NAME ?? "federation", source, certificate, entityCategories };
}

/** A configured address serves both languages; the defaults are the service's own pages in each. */
function localized(configured: string | undefined, publicUrl: string, path: string): LocalizedText {
  if (configured) return { uk: configured, en: configured };
  return { uk: `${publicUrl}/uk${path}`, en: `${publicUrl}/en${path}` };
}

function readMetadataSigning(environment: Environment) {
  const keyFile = environment.SAML_METADATA_KEY_FILE;
  const certFile = environment.SAML_METADATA_CERT_FILE;
  if (keyFile === undefined && certFile === undefined) return undefined;
  if (keyFile === undefined || certFile === undefined)
    throw new Error("SAML_METADATA_KEY_FILE and SAML_METADATA_CERT_FILE: set both or neither");
  return { privateKeyPem: readFileSync(keyFile, "utf8"), certificatePem: readFileSync(certFile, "utf8") };
}

export function readSamlConfig(environment: Environment, publicUrl: string, sessionSecret: string): SamlConfig {
  return {
    entityId: `${publicUrl}/saml/metadata`,
    scope: environment.SAML_SCOPE,
    displayName: { uk: environment.SAML_DISPLAY_NAME_UK, en: environment.SAML_DISPLAY_NAME_EN },
    description: { uk: environment.SAML_DESCRIPTION_UK, en: environment.SAML_DESCRIPTION_EN },
    informationUrl: localized(environment.SAML_INFORMATION_URL, publicUrl, "/"),
    privacyUrl: localized(environment.SAML_PRIVACY_URL, publicUrl, "/privacy-policy"),
    logoUrl: environment.SAML_LOGO_URL ?? `${publicUrl}/favicon.svg`,
    securityContactEmail: environment.SAML_SECURITY_CONTACT_EMAIL ?? `security@${environment.SAML_SCOPE}`,
    sirtfi: environment.SAML_SIRTFI ?? false,
    researchAndScholarship: environment.SAML_RESEARCH_AND_SCHOLARSHIP ?? false,
    metadataSigning: readMetadataSigning(environment),
    metadataValidDays: environment.SAML_METADATA_VALID_DAYS,
    pairwiseSalt:
      environment.SAML_PAIRWISE_SALT ??
      Buffer.from(hkdfSync("sha256", sessionSecret, "kpi-id", "saml pairwise-id", 32)).toString("base64url"),
    federationRefreshSeconds: environment.SAML_FEDERATION_REFRESH_SECONDS,
    federation: readFederation(environment),
    visitors: {
      federations: environment.SAML_VISITOR_FEDERATIONS,
      institutions: environment.SAML_VISITOR_INSTITUTIONS,
    },
  };
}
