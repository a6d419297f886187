import { z } from "zod";
import { text } from "./text.ts";

/** The console's signing keys and service screens (`/api/admin/keys`, `/api/admin/service`). */

/** A signing key's place in its rollover: next (published, not signing yet), current (signs), previous (verifies only). */
export const signingKeyStates = ["next", "current", "previous"] as const;
export type SigningKeyState = (typeof signingKeyStates)[number];

/** An OpenID Connect signing key as `keys list` shows it. */
export const oidcSigningKeySchema = z.object({
  kid: text(),
  /** The JWS algorithm it signs with (RS256); null for a key that is no longer published. */
  algorithm: text().nullable(),
  createdAt: text(),
  /** When it signs (signed) from; null for a next key waiting for `keys promote`. */
  activatesAt: text().nullable(),
  retiredAt: text().nullable(),
  /** For a previous key: when it leaves the JWKS (the end of the overlap). */
  publishedUntil: text().nullable(),
  state: z.enum(signingKeyStates),
  /** In the JWKS: applications can check tokens it signed. */
  published: z.boolean(),
  /** The key that signs ID tokens now. */
  signing: z.boolean(),
});
export type OidcSigningKey = z.infer<typeof oidcSigningKeySchema>;

/** A SAML signing key and its certificate, as the metadata carries it. */
export const samlSigningKeySchema = z.object({
  kid: text(),
  subject: text(),
  /** SHA-256 of the certificate's DER, colon-separated hex, as openssl prints it. */
  fingerprint: text(),
  notBefore: text(),
  notAfter: text(),
  activatesAt: text(),
  signing: z.boolean(),
  state: z.enum(signingKeyStates),
});
export type SamlSigningKey = z.infer<typeof samlSigningKeySchema>;

export const signingKeysSchema = z.object({
  oidc: z.object({
    keys: z.array(oidcSigningKeySchema),
    /** A new key signs only this long after a rotation (every instance publishes it first). */
    activationDelaySeconds: z.number().int(),
    /** A retired key stays published this long, while tokens it signed may still be presented. */
    retentionSeconds: z.number().int(),
  }),
  saml: z.object({ keys: z.array(samlSigningKeySchema) }),
});
export type SigningKeys = z.infer<typeof signingKeysSchema>;

export const keyRotationSchema = z.object({
  kid: text(),
  retired: z.array(text()),
  /** When the new key starts signing. */
  signsFrom: text(),
});
export type KeyRotation = z.infer<typeof keyRotationSchema>;

export const databaseKindNames = ["postgres", "pglite"] as const;

/** Figures read from the metrics registry (what `/metrics` serves) since this process started; null when absent. */
export const serviceFiguresSchema = z.object({
  signIns: z.object({ success: z.number(), failure: z.number() }),
  signInsByMethod: z.array(z.object({ method: text(), success: z.number(), failure: z.number() })),
  throttledAttempts: z.number(),
  ticketExchanges: z.object({ success: z.number(), failure: z.number() }),
  requests: z.object({
    total: z.number(),
    /** Answers with a 5xx status. */
    serverErrors: z.number(),
    averageSeconds: z.number().nullable(),
    /** The upper bound of the latency bucket holding the 95th percentile. */
    p95Seconds: z.number().nullable(),
  }),
  pool: z.object({ total: z.number(), idle: z.number(), waiting: z.number() }),
  diiaPending: z.number().nullable(),
  memoryBytes: z.number().nullable(),
  eventLoopLagSeconds: z.number().nullable(),
});
export type ServiceFigures = z.infer<typeof serviceFiguresSchema>;

/** How close a certificate is to its end: "expiring" within `certificateWarningDays`, "expired" once past it. */
export const certificateExpiryStates = ["valid", "expiring", "expired"] as const;
export type CertificateExpiryState = (typeof certificateExpiryStates)[number];

/** A certificate the service depends on (SAML, the federation's metadata signer, Diia, BankID), as `doctor` lists it. */
export const watchedCertificateSchema = z.object({
  /** What it is for, in the operator's words: "SAML signing key abc", "DIIA_TRUST_ANCHORS certificate 1". */
  source: text(),
  subject: text(),
  notAfter: text(),
  /** Whole days until notAfter (negative once it has ended). */
  daysLeft: z.number().int(),
  state: z.enum(certificateExpiryStates),
});
export type WatchedCertificate = z.infer<typeof watchedCertificateSchema>;

export const serviceCertificatesSchema = z.object({
  /** Certificates ending within this many days are warned of (the console, `doctor`, the metric's alert). */
  warningDays: z.number().int(),
  certificates: z.array(watchedCertificateSchema),
  /** Sources that could not be read (a missing file, a malformed PEM), with why. */
  unreadable: z.array(z.object({ source: text(), problem: text() })),
});
export type ServiceCertificates = z.infer<typeof serviceCertificatesSchema>;

/** A DIIA_CRLS source as the instances last stored it: "stale" past nextUpdate (still counted for the grace), "refusing" after. */
export const revocationListStates = ["current", "stale", "refusing"] as const;
export const watchedRevocationListSchema = z.object({
  source: text(),
  /** A stale list's nextUpdate; null when the list is current or none was ever loaded. */
  nextUpdate: text().nullable(),
  state: z.enum(revocationListStates),
});
export type WatchedRevocationList = z.infer<typeof watchedRevocationListSchema>;

export const serviceStatusSchema = z.object({
  version: text(),
  database: z.object({ kind: z.enum(databaseKindNames), serverVersion: text().nullable() }),
  /** What /ready checks: the database answers. */
  health: z.object({ ready: z.boolean(), database: z.boolean() }),
  startedAt: text(),
  uptimeSeconds: z.number().int(),
  figures: serviceFiguresSchema,
  certificates: serviceCertificatesSchema,
  /** Diia's CRL sources (DIIA_CRLS) and one entry for its OCSP answers (DIIA_OCSP); absent when neither is set. */
  revocationLists: z.array(watchedRevocationListSchema).optional(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;
