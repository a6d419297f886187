import { ConfigError } from "./error.ts";
import type { Environment } from "./schema.ts";

// Sign-in with Diia: its settings (DIIA_*), read apart from the rest of the configuration.

/** The branch's postal address as Diia's branch API takes it. */
export interface DiiaBranchAddress {
  region: string;
  district: string;
  location: string;
  street: string;
  house: string;
}

export interface DiiaConfig {
  baseUrl: string;
  acquirerToken: string;
  /** Value of an `Authorization: Basic` header some Diia environments ask for. */
  authAcquirerToken?: string;
  branchId?: string;
  offerId?: string;
  /** Sent when `diia setup` creates the branch. */
  branchAddress: DiiaBranchAddress;
  /** PEM certificates (inline or a file path) of the CAs that issue Diia signers' certificates. */
  trustAnchors?: string;
  /** PEM certificates (inline or a file path) of intermediate CAs between the anchors and signers. */
  intermediateCas?: string;
  /** Signers' certificates (same forms) for a callback whose CMS omits the signer's (found by issuer and serial). */
  signerCertificates?: string;
  /** CRL files or URLs (DER or PEM) of those CAs; empty when revocation is not checked. */
  crls: string[];
  /** How long a CRL (or an OCSP answer) past its nextUpdate still counts, while a fresh one cannot be had. */
  crlGraceSeconds: number;
  /** OCSP responder URLs, tried in order; "aia" stands for the signer certificate's own; empty: no OCSP. */
  ocsp: string[];
  requestTtlSeconds: number;
}

/** DIIA_CRLS (file paths or URLs), DIIA_OCSP (URLs or "aia"): comma-separated. */
export function listOfCrlSources(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((source) => source.trim())
    .filter((source) => source !== "");
}

/**
 * DIIA_SIGN_ALGO: only DSTU (DSTU 4145 over GOST 34.311) is verified. ECDSA and DSTU 7564 (Kupyna) hashes have
 * no maintained JavaScript implementation and no independent vectors here, so asking Diia for them is refused
 * at start, never as failed sign-ins.
 */
function checkSignAlgo(value: string): void {
  if (value === "DSTU") return;
  throw new ConfigError(
    `DIIA_SIGN_ALGO: ${JSON.stringify(value.slice(0, 20))} is not supported; only DSTU (DSTU 4145 signatures over GOST 34.311) is verified. Ask Diia for signAlgo DSTU and unset DIIA_SIGN_ALGO or set it to DSTU`,
  );
}

export function readDiiaConfig(environment: Environment): DiiaConfig | undefined {
  const { DIIA_BASE_URL: baseUrl, DIIA_ACQUIRER_TOKEN: acquirerToken } = environment;
  if (baseUrl === undefined && acquirerToken === undefined) return undefined;
  if (baseUrl === undefined) throw new ConfigError("DIIA_BASE_URL: is required when DIIA_ACQUIRER_TOKEN is set");
  if (acquirerToken === undefined) throw new ConfigError("DIIA_ACQUIRER_TOKEN: is required when DIIA_BASE_URL is set");
  checkSignAlgo(environment.DIIA_SIGN_ALGO);
  return {
    baseUrl,
    acquirerToken,
    authAcquirerToken: environment.DIIA_AUTH_ACQUIRER_TOKEN,
    branchId: environment.DIIA_BRANCH_ID,
    offerId: environment.DIIA_OFFER_ID,
    branchAddress: {
      region: environment.DIIA_BRANCH_REGION,
      district: environment.DIIA_BRANCH_DISTRICT,
      location: environment.DIIA_BRANCH_LOCATION,
      street: environment.DIIA_BRANCH_STREET,
      house: environment.DIIA_BRANCH_HOUSE,
    },
    trustAnchors: environment.DIIA_TRUST_ANCHORS,
    intermediateCas: environment.DIIA_INTERMEDIATE_CAS,
    signerCertificates: environment.DIIA_SIGNER_CERTIFICATES,
    crls: listOfCrlSources(environment.DIIA_CRLS),
    crlGraceSeconds: environment.DIIA_CRL_GRACE_SECONDS,
    ocsp: listOfCrlSources(environment.DIIA_OCSP),
    requestTtlSeconds: environment.DIIA_REQUEST_TTL_SECONDS,
  };
}
