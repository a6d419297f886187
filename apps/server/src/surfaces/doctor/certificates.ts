import { X509Certificate } from "node:crypto";
import { activeSamlCertificates, federationSigners } from "../../model/saml/certificates.ts";
import type { Config } from "../../platform/config/index.ts";
import type { Db } from "../../platform/db/schema.ts";

/** A certificate the service depends on and when it stops being valid. */
export interface WatchedCertificate {
  /** What it is for, in the operator's words: "SAML signing key abc", "Diia trust anchor 1". */
  source: string;
  subject: string;
  notAfter: Date;
}

interface SourceContext {
  config: Config;
  db: Db;
}

/**
 * PEM certificates configured in one variable (inline or a file), one line each. DSTU certificates are read
 * with jkurwa, loaded only when one is configured (issue 41: not at the service's start-up).
 */
async function listedCertificates(variable: string, value: string | undefined): Promise<WatchedCertificate[]> {
  if (value === undefined) return [];
  const { parseTrustAnchors } = await import("../../sign-in/diia/crypto/trust-anchors.ts");
  return parseTrustAnchors(value).map((certificate, index) => ({
    source: `${variable} certificate ${index + 1}`,
    subject: certificate.subject.commonName ?? certificate.subjectDN(),
    notAfter: new Date(certificate.valid.to),
  }));
}

/** BankID's CA lists, which may also be a published CACertificates.p7b. */
async function bankIdCas(variable: string, value: string | undefined): Promise<WatchedCertificate[]> {
  const { readCaList } = await import("../../sign-in/bankid/crypto/ca-list.ts");
  return readCaList(variable, value).certificates.map((certificate, index) => ({
    source: `${variable} certificate ${index + 1}`,
    subject: certificate.subject.commonName ?? certificate.subjectDN(),
    notAfter: new Date(certificate.valid.to),
  }));
}

/**
 * Where the certificates that expire come from. Each answers the certificates it watches (none when its
 * part is not configured) or throws with a message naming what cannot be read. A sign-in method with
 * its own certificates (BankID's) adds its source here; `doctor`, the metrics and the console read them all.
 */
export const certificateSources: Record<string, (context: SourceContext) => Promise<WatchedCertificate[]>> = {
  "SAML signing keys": async ({ db }) => {
    const rows = await activeSamlCertificates(db);
    return rows.map((row) => describeX509(`SAML signing key ${row.kid}`, row.certificate));
  },
  "SAML metadata signing (SAML_METADATA_CERT_FILE)": async ({ config }) => {
    const signing = config.saml.metadataSigning;
    return signing ? [describeX509("SAML metadata signing certificate", signing.certificatePem)] : [];
  },
  "SAML federations' metadata signers": async ({ db }) => {
    const rows = await federationSigners(db);
    return rows.map((row) => describeX509(`federation ${row.name} metadata signer`, row.certificate));
  },
  "Diia trust anchors and intermediate CAs": async ({ config }) => {
    const { diia } = config;
    return [
      ...(await listedCertificates("DIIA_TRUST_ANCHORS", diia?.trustAnchors)),
      ...(await listedCertificates("DIIA_INTERMEDIATE_CAS", diia?.intermediateCas)),
    ];
  },
  "BankID encryption certificate and qualified CAs": async ({ config }) => {
    const { bankId } = config;
    if (!bankId) return [];
    const { readCertificate } = await import("../../sign-in/bankid/runtime.ts");
    const ours = readCertificate("BANKID_CERTIFICATE", bankId.certificate);
    return [
      {
        source: "BANKID_CERTIFICATE (registered with NBU)",
        subject: ours.subject.commonName ?? ours.subjectDN(),
        notAfter: new Date(ours.valid.to),
      },
      ...(await bankIdCas("BANKID_TRUST_ANCHORS", bankId.trustAnchors)),
      ...(await bankIdCas("BANKID_INTERMEDIATE_CAS", bankId.intermediateCas)),
    ];
  },
};

/** A certificate as PEM or base64 DER (as the SAML tables keep them). */
function describeX509(source: string, value: string): WatchedCertificate {
  const certificate = new X509Certificate(value.includes("-----BEGIN") ? value : Buffer.from(value, "base64"));
  return { source, subject: certificate.subject.replace(/\n/g, ", "), notAfter: certificate.validToDate };
}

/** Certificates that expire within this many days are warned of (doctor, metrics, the console). */
export const certificateWarningDays = 30;

export type ExpiryState = "valid" | "expiring" | "expired";

export function expiryState(notAfter: Date, now: Date): ExpiryState {
  const left = notAfter.getTime() - now.getTime();
  if (left <= 0) return "expired";
  return left <= certificateWarningDays * 86_400_000 ? "expiring" : "valid";
}

/** Every watched certificate, and the sources that could not be read (with why). */
export async function watchedCertificates(context: SourceContext) {
  const certificates: WatchedCertificate[] = [];
  const unreadable: { source: string; problem: string }[] = [];
  for (const [source, read] of Object.entries(certificateSources)) {
    try {
      certificates.push(...(await read(context)));
    } catch (error) {
      unreadable.push({ source, problem: error instanceof Error ? error.message : String(error) });
    }
  }
  return { certificates, unreadable };
}
