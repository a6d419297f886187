// @peculiar/x509 resolves its ASN.1 providers through tsyringe, which needs the Reflect metadata API.
import "reflect-metadata";
import { createHash } from "node:crypto";
import * as x509 from "@peculiar/x509";
import type { Db } from "../../platform/db/schema.ts";
import { loadSamlKeys } from "./keys.ts";

/** A published SAML signing key as the console shows it: its certificate's subject, fingerprint and dates. */
export interface SamlKeyStatus {
  kid: string;
  subject: string;
  /** SHA-256 of the certificate's DER, colon-separated upper-case hex (as `openssl x509 -fingerprint -sha256`). */
  fingerprint: string;
  notBefore: Date;
  notAfter: Date;
  activatesAt: Date;
  signing: boolean;
  /** next: in the metadata, signing from activatesAt; current: signs; previous: in the metadata until removed. */
  state: "next" | "current" | "previous";
}

/** The keys in the SAML metadata, the signing one first; public parts only (no session secret needed). */
export async function describeSamlKeys(db: Db, now = new Date()): Promise<SamlKeyStatus[]> {
  const { signing, published } = await loadSamlKeys(db, undefined, now);
  return published.map((key) => {
    const der = Buffer.from(key.certificate, "base64");
    const certificate = new x509.X509Certificate(der);
    return {
      kid: key.kid,
      subject: certificate.subject,
      fingerprint: (createHash("sha256").update(der).digest("hex").toUpperCase().match(/../g) ?? []).join(":"),
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter,
      activatesAt: key.activatesAt,
      signing: key.kid === signing?.kid,
      state: key.kid === signing?.kid ? "current" : key.activatesAt.getTime() > now.getTime() ? "next" : "previous",
    };
  });
}
