import type { Certificate } from "jkurwa";
import type { RevocationChecker, RevocationStatus } from "./crl-store.ts";
import type { OcspStore } from "./ocsp-store.ts";

/**
 * The CRLs and OCSP together, decided in one place (docs/operations.md, "Diia revocation"):
 * 1. "revoked" from either (a current CRL listing the serial, or a current OCSP answer) refuses;
 * 2. otherwise "good" from either passes: a fresh OCSP "good" counts even while the CRL is stale, and a
 *    current CRL counts while the OCSP answer is missing or stale;
 * 3. otherwise (nothing current, or OCSP "unknown" with no current CRL) the status is unknown: refused.
 * Naming the signer to the OCSP store only asks for a background refresh; nothing is fetched here.
 */
export class CombinedRevocation implements RevocationChecker {
  readonly #crls: RevocationChecker | undefined;
  readonly #ocsp: OcspStore | undefined;

  constructor(crls: RevocationChecker | undefined, ocsp: OcspStore | undefined) {
    this.#crls = crls;
    this.#ocsp = ocsp;
  }

  status(signer: Certificate, issuer: Certificate, now: Date): RevocationStatus {
    this.#ocsp?.watch(signer, issuer, now);
    const byOcsp = this.#ocsp?.status(signer, now) ?? "unknown";
    const byCrl = this.#crls?.status(signer, issuer, now) ?? "unknown";
    if (byOcsp === "revoked" || byCrl === "revoked") return "revoked";
    if (byOcsp === "good" || byCrl === "good") return "good";
    return "unknown";
  }
}

/** The checker for the configured sources; undefined (revocation not checked) when neither is set. */
export function revocationChecker(
  crls: RevocationChecker | undefined,
  ocsp: OcspStore | undefined,
): RevocationChecker | undefined {
  if (!crls && !ocsp) return undefined;
  return ocsp ? new CombinedRevocation(crls, ocsp) : crls;
}
