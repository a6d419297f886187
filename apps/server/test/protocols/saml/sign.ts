import { SignedXml } from "xml-crypto";

/**
 * Where an enveloped signature goes: first in the root (metadata and aggregates, saml-metadata
 * §2.3.1), or after the root's first child, the Issuer (protocol messages, saml-core §3.2.1).
 */
export type SignatureLocation = "first" | "after-issuer";

export interface SigningKey {
  privateKeyPem: string;
  /** Put in KeyInfo when given; verifiers here trust the key from metadata, not from the message. */
  certificatePem?: string;
}

/**
 * Signs the whole document as federations and SPs do (RSA-SHA256, SHA-256 digest, exclusive
 * c14n, enveloped): the one xml-crypto set-up of the server's tests and the e2e harness (which
 * imports it as `@kpi-id/server/saml-testing`).
 */
export function signEnveloped(xml: string, key: SigningKey, location: SignatureLocation): string {
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  });
  signer.addReference({
    xpath: "/*",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
    digestAlgorithm: "http://www.w3.org/2001/04/xmlenc#sha256",
  });
  const at =
    location === "first"
      ? { reference: "/*", action: "prepend" as const }
      : { reference: "/*/*[1]", action: "after" as const };
  signer.computeSignature(xml, { prefix: "ds", location: at });
  return signer.getSignedXml();
}
