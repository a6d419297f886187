/// <reference path="./dstu-modules.d.ts" />
import type { Certificate } from "jkurwa";
import { ConfigError } from "../../../platform/config/error.ts";
import { CrlStore, type CrlStoreOptions } from "./crl-store.ts";
import { parseTrustAnchors, TrustAnchorError } from "./trust-anchors.ts";

// The qualified CAs a sign-in method is configured with (Diia's, BankID's): their certificates and CRLs.

/** PEM certificates a variable names; one that cannot be read stops start-up naming the variable. */
export function loadCertificates(variable: string, value: string | undefined): Certificate[] {
  if (value === undefined) return [];
  try {
    return parseTrustAnchors(value);
  } catch (error) {
    if (error instanceof TrustAnchorError) throw new ConfigError(`${variable}: ${error.message}`);
    throw error;
  }
}

/** The revocation lists of the configured CAs, or none when no CRL source is configured. */
export function crlStoreFor(
  settings: { crls: string[]; crlGraceSeconds: number },
  authorities: Certificate[],
  log: CrlStoreOptions["log"],
  persistence?: CrlStoreOptions["persistence"],
): CrlStore | undefined {
  if (settings.crls.length === 0) return undefined;
  return new CrlStore({
    sources: settings.crls,
    authorities,
    graceSeconds: settings.crlGraceSeconds,
    log,
    persistence,
  });
}
